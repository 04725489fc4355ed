"""The referee's icons and web app manifest, at the addresses phones and browsers ask for
without being told (``/favicon.ico``, ``/apple-touch-icon.png``), so that no page's
requests end in a 404 and the referee can sit on a home screen with its own name and icon.
The pictures are drawn by ``scripts/draw_icons.py``."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, send_from_directory, url_for

bp = Blueprint("icons", __name__)

A_DAY = 24 * 3600


def _static(filename: str, mimetype: str) -> Response:
    return send_from_directory(current_app.static_folder or "static", filename, mimetype=mimetype,
                               max_age=A_DAY)


@bp.get("/favicon.ico")
def favicon():
    return _static("favicon.ico", "image/vnd.microsoft.icon")


@bp.get("/apple-touch-icon.png")
def apple_touch_icon():
    return _static("apple-touch-icon.png", "image/png")


@bp.get("/apple-touch-icon-precomposed.png")  # what older iPhones ask for unprompted
def apple_touch_icon_precomposed():
    return apple_touch_icon()


@bp.get("/manifest.webmanifest")
def manifest():
    document = {
        "name": "The referee",  # of every game it plays: the home page lists them
        "short_name": "Referee",
        "description": "Umpires the club's naval games on its phones: every fleet, every "
                       "move, and only what each player may know.",
        "start_url": url_for("pages.home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#0d2340",
        "icons": [
            {"src": url_for("static", filename="icon-192.png"), "sizes": "192x192",
             "type": "image/png"},
            {"src": url_for("static", filename="icon-512.png"), "sizes": "512x512",
             "type": "image/png"},
            {"src": url_for("static", filename="icon.svg"), "sizes": "any",
             "type": "image/svg+xml"},
        ],
    }
    response = current_app.json.response(document)
    response.mimetype = "application/manifest+json"
    response.cache_control.max_age = A_DAY
    return response
