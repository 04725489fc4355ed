"""The pages' scripts and style sheets at addresses that change when they do.

A page loads its style sheets and one script, which imports the rest (three levels deep). Served
at their plain addresses (``/static/js/dom.js``, ``/tcg/static/tcg.js``) each must be asked
for again on every page a phone opens (``Cache-Control: no-cache``), one level after another:
seven to nine round trips before a page can run, every move. The pages name them instead under
``/v/<version>/`` (``/v/3f2a…/static/js/dom.js``), ``version`` a digest of every static file
of the app (its own and each game's); those answers may be kept a year (``immutable``), and a
new version of any file is a new address. The scripts' imports are relative
(``./dom.js``, ``../../static/js/clock.js``), so the modules a versioned script imports are
versioned too, with nothing in them to change.

An address with another version (a page from before an upgrade) still gets the file as it is
now, to be asked for again (``no-cache``), never kept: nothing old is ever served as new. The
plain addresses stay as they were, for whatever links to them.

The version is worked out once, as the app is made, from each file's path, size and time of
change: a request never costs more for having come when the files were looked at (every request
path costs the same, whatever else happens), and a script edited while the referee runs is
served at its new version when the referee is started again, as edited Python is.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from flask import Flask, Response, abort, current_app, request, send_from_directory, url_for

PREFIX = "/v/"
A_YEAR = 365 * 24 * 3600


class Assets:
    """The static folders of an app (by their address: ``/static``, ``/tcg/static`` ...) and
    the version of what is in them."""

    def __init__(self, folders: dict[str, Path]) -> None:
        self.folders = folders
        self.version = self._digest()

    @classmethod
    def of(cls, app: Flask) -> Assets:
        """The folders of the app's static routes (``static`` and each ``<blueprint>.static``),
        by the address their rule serves them at."""
        folders = {}
        for rule in app.url_map.iter_rules():
            name, _, last = rule.endpoint.rpartition(".")
            if last != "static" or not rule.rule.endswith("/<path:filename>"):
                continue
            owner = app.blueprints[name] if name else app
            if owner.static_folder:
                folders[rule.rule.removesuffix("/<path:filename>")] = Path(owner.static_folder)
        return cls(folders)

    def _digest(self) -> str:
        digest = hashlib.sha256()
        for address, folder in sorted(self.folders.items()):
            for root, dirs, files in os.walk(folder):
                dirs.sort()
                for name in sorted(files):
                    path = Path(root, name)
                    try:
                        stat = path.stat()
                    except OSError:
                        continue
                    digest.update(f"{address}/{path.relative_to(folder)}\0{stat.st_size}\0"
                                  f"{stat.st_mtime_ns}\n".encode())
        return digest.hexdigest()[:16]

    def folder_of(self, path: str) -> tuple[Path, str] | None:
        """The folder an address's file is in and its name there, or None."""
        for address in sorted(self.folders, key=len, reverse=True):
            if path.startswith(address + "/"):
                return self.folders[address], path[len(address) + 1:]
        return None


def asset_url(endpoint: str, filename: str) -> str:
    """The versioned address of a static file: ``asset_url("static", "app.css")``, or a game's
    (``asset_url("tcg.static", "tcg.js")``)."""
    plain = url_for(endpoint, filename=filename)
    root = request.script_root if request else ""
    version = current_app.extensions["referee.assets"].version
    return f"{root}{PREFIX}{version}{plain[len(root):]}"


def serve(version: str, path: str) -> Response:
    assets: Assets = current_app.extensions["referee.assets"]
    found = assets.folder_of("/" + path)
    if found is None:
        abort(404)
    folder, name = found
    if version != assets.version:  # not this version's address: the file, never kept
        return send_from_directory(folder, name, max_age=None)
    response = send_from_directory(folder, name, max_age=A_YEAR)
    response.cache_control.immutable = True
    return response


def register(app: Flask) -> None:
    """Serve the versioned addresses; ``asset_url`` for the templates. After every blueprint
    with static files is registered."""
    app.extensions["referee.assets"] = Assets.of(app)
    app.add_url_rule(f"{PREFIX}<version>/<path:path>", "versioned_static", serve)
    app.jinja_env.globals["asset_url"] = asset_url
