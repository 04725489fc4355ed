"""Broadsides and Boarding Parties' pages (its blueprint): a seat's page in each phase, drawn from
its view alone (BB25), for a phone held in one hand.

- Setting up: the seat's deck drawn (BB15, BB16), a tap on a cell puts the Captain there (kept as
  the seat's draft), and locking in adds the phone's own dice seed (BB24).
- Playing: the sea drawn with both ships and their wakes (BB1, BB2), which the page's script
  sails card by card as they are turned up (BB5); both decks drawn side by side, turned to touch
  with a plank for each crossing once the ships are laid together (BB18); and the order the seat
  owes: a plot of three cards tapped from the hand of fifteen, the Damaged cards required placed
  (BB4-BB7); a volley's targets, a section or "hold" for each cannon that bears, "all at" one
  section in a tap, or standing orders in one tap (BB9, BB10); a promotion (BB7); a boarding turn
  of three movements, a piece then a cell each (BB21). Every roll is shown with what it did
  (BB11, BB20, BB22, BB25).
- The end, and the post-mortem with the dice audit (BB24).

Every order is the plain form the page's script fills in (it works without the script, as plain
choices), read by ``read_order`` and judged by the core. The routes every game has alike (the
draft, locking in, an order) come from ``add_play_routes``.
"""

from __future__ import annotations

import functools
import secrets

from flask import Blueprint, render_template, request, url_for

from ... import service
from ...common.problems import RuleViolation
from ...errors import ApiError
from ...playroutes import PlayRoutes, add_play_routes, kept_draft
from ...session import is_host
from ...web import script_json, store
from ..catalogue import CARD_NAMES, CARDS, EFFECTS, KINDS, MOVEMENTS
from ..deck import CELLS, MOST_IN_CELL, SECTIONS
from ..postmortem import postmortem_document
from ..views import postmortem_view, result_headline
from .drawing import decks_drawing, sea_drawing, sea_geometry
from .story import (
    boarding_steps,
    cannot_plot,
    collision_marks,
    entries,
    latest,
    plot_paths,
    round_start,
    sea_frames,
    told,
    wakes,
    worked_roll,
)
from .svg import to_svg

bp = Blueprint("boarding", __name__, template_folder="templates", static_folder="static",
               url_prefix="/broadsides-boarding")

CARD_MARKS = {"stay": "⊙", "forward": "↑", "starboard": "↻", "port": "↺", "damaged": "✖"}
CARD_SHORT = {"stay": "Remain", "forward": "Forward", "starboard": "Starboard", "port": "Port",
              "damaged": "Damaged"}
EFFECT_WORDS = {"miss": "a miss", "hull": "a hull marker", "rail 3": "clears position 3",
                "rail 5": "clears position 5", "mast": "a mast hit"}
FRAMES_SHOWN = 40  # the sea's frames a play page embeds to step through (the latest)


def card_looks() -> dict:
    """Each card's name, short name and mark, as the pages show them (BB4)."""
    return {card: {"name": CARD_NAMES[card], "short": CARD_SHORT[card], "mark": CARD_MARKS[card]}
            for card in CARDS}


def other_seat(view: dict) -> str:
    return next(s for s in view["seats"] if s != view["you"])


def _marks(view: dict, shown: list[dict]) -> dict[str, str]:
    """Cells to mark on the decks: where the latest volleys cleared a rail position, and
    where the latest fights were."""
    marks: dict[str, str] = {}
    seats = list(view["seats"])
    for entry in shown:
        if entry["what"] == "volley":
            for shot in entry["shots"]:
                if shot["effect"] in ("rail 3", "rail 5"):
                    enemy = seats[1] if shot["seat"] == seats[0] else seats[0]
                    marks[f"{enemy} {shot['target']}{shot['effect'][-1]}"] = "hit"
        elif entry["what"] == "fight":
            marks[entry["at"]] = "fight"
    return marks


def bearing_words(cannons: list[str]) -> str:
    """Where the enemy lies, from the cannons that bear (BB9)."""
    if not cannons:
        return ""
    side = "starboard" if cannons[0].endswith("5") else "port"
    sections = {c[0] for c in cannons}
    if sections <= {"B", "C"}:
        return f"off your {side} bow"
    if sections <= {"E", "F"}:
        return f"off your {side} quarter"
    return f"abeam to {side}"


def _drawings(view: dict, frames: list[dict], shown: list[dict]) -> dict:
    you, them = view["you"], other_seat(view)
    stage = view.get("stage") or {}
    round_no = stage.get("round") or 1  # the wakes of this round, or the last till it sails
    start = round_start(frames, round_no if stage.get("card") else max(1, round_no - 1))
    sea = sea_drawing(view["sea"], ships=view["ships"], tracks=wakes(frames, start),
                      marks=collision_marks(frames),
                      title="The sea: both ships, and their wakes this round")
    decks = decks_drawing(view["deck_plan"], (you, them), ships=view["ships"],
                          crews=view["crews"], boarding=view.get("boarding"),
                          marks=_marks(view, shown), taps=view["phase"] == "play",
                          title="The decks: yours on the left" + (
                              ", laid side by side" if view.get("boarding") else ""))
    return {"sea_svg": to_svg(sea, element_id="bb-sea"),
            "decks_svg": to_svg(decks, element_id="bb-decks")}


def _page_data(game_id: str, view: dict, frames: list[dict]) -> str:
    legal = view.get("legal") or {}
    data: dict = {"id": view["id"], "you": view["you"], "them": other_seat(view),
                  "phase": view["phase"], "legal": legal or None, "stage": view.get("stage"),
                  "frames": frames[-FRAMES_SHOWN:], "sea": sea_geometry(view["sea"]),
                  "cards": card_looks()}
    if legal.get("kind") == "plot":
        data["paths"] = plot_paths(view)
    elif legal.get("kind") == "boarding":
        data.update(steps=boarding_steps(view), crews=view["crews"],
                    most_in_cell=MOST_IN_CELL, movements=MOVEMENTS)
    elif legal.get("kind") == "promotion":
        data["crew"] = legal.get("crew", [])
    if view["phase"] == "setup":
        data["draft_url"] = url_for("boarding.save_draft", game_id=game_id)
    return script_json(data)


def _context(game_id: str, view: dict) -> dict:
    frames = sea_frames(view) if view["phase"] != "setup" else []
    shown = latest(view) if view["phase"] != "setup" else []
    return {"view": view, "hosting": is_host(game_id), "now": service.now(),
            "them": other_seat(view), "cards": CARD_NAMES, "marks": CARD_MARKS,
            "short": CARD_SHORT,
            "sections": SECTIONS, "cells": CELLS, "movements": MOVEMENTS,
            "effects": EFFECT_WORDS, "faces": EFFECTS, "latest": shown,
            "cannot_plot": cannot_plot(view) if view["phase"] == "play" else False,
            "bearing": bearing_words((view.get("legal") or {}).get("cannons") or []),
            "key": secrets.token_hex(8), "page_data": _page_data(game_id, view, frames),
            **_drawings(view, frames, shown)}


def seat_page(game_id: str, seat: str, view: dict):
    """A seat's page at ``/games/<id>``: placing the Captain, waiting, playing or the end."""
    if view["phase"] == "setup":
        page = "waiting" if view["seats"][seat]["ready"] else "setup"
        draft = (kept_draft(game_id, seat).get("disposition") or {})
        if page == "setup" and draft.get("captain") in CELLS:
            crews = dict(view["crews"])
            crews[seat] = {**crews[seat], "captain": f"{seat} {draft['captain']}"}
            view = {**view, "crews": crews}
        context = _context(game_id, view)
        you = view["you"]
        context["own_deck"] = to_svg(decks_drawing(
            view["deck_plan"], (you,), ships=view["ships"], crews={you: view["crews"][you]},
            taps=page == "setup", title="Your deck: tap a cell to put your Captain there"),
            element_id="bb-own-deck")
        return render_template(f"boarding/{page}.html", draft=draft, **context)
    if view["phase"] == "over":
        return render_template("boarding/over.html", headline=result_headline(view),
                               **_context(game_id, view))
    return render_template("boarding/play.html", **_context(game_id, view))


# -- the post-mortem ----------------------------------------------------------------------------

def postmortem_page(game_id: str, seat: str):
    page = service.derived(store(), game_id, ("boarding-postmortem", seat),
                           functools.partial(_postmortem_page, seat=seat),
                           lambda page: len(page["sea_svg"]) + len(page["page_data"]),
                           costly="working out a post-mortem")
    return render_template("boarding/postmortem.html", **page)


def _postmortem_page(game, seat: str) -> dict:
    try:
        shown = postmortem_view(game, seat)
    except RuleViolation:
        raise ApiError(409, "The post-mortem is shown once the game is over",
                       rule="BB25") from None
    view = shown["view"]
    doc = postmortem_document(game)
    frames = sea_frames(view)
    seeds = [doc["dice"]["seeds"].get(s) or "" for s in view["seats"]]
    worked = (worked_roll(doc["dice"]["secret"], seeds)
              if doc["dice"]["secret"] and doc["dice"]["rolls"] else None)
    sea = sea_drawing(view["sea"], ships=view["ships"], tracks=wakes(frames),
                      marks=collision_marks(frames),
                      title="The sea at the end, with both ships' wakes")
    decks = decks_drawing(view["deck_plan"], (view["you"], other_seat(view)),
                          ships=view["ships"], crews=view["crews"],
                          boarding=view.get("boarding"), title="The decks at the end")
    data = {"id": view["id"], "you": view["you"], "them": other_seat(view), "phase": "over",
            "frames": frames, "sea": sea_geometry(view["sea"]), "legal": None,
            "cards": card_looks()}
    return {"view": view, "seats": shown["seats"], "checks": shown["checks"], "doc": doc,
            "headline": result_headline(view), "worked": worked, "cards": CARD_NAMES,
            "marks": CARD_MARKS, "short": CARD_SHORT, "effects": EFFECT_WORDS,
            "them": other_seat(view),
            "sea_svg": to_svg(sea, element_id="bb-sea"),
            "decks_svg": to_svg(decks, element_id="bb-decks"),
            "volleys": [told(e) for _, e in entries(view) if e["what"] == "volley"],
            "fights": [e for _, e in entries(view) if e["what"] == "fight"],
            "page_data": script_json(data)}


# -- reading what the forms send ----------------------------------------------------------------

def _read_draft(_seat: str) -> dict:
    sent = request.get_json(silent=True)
    draft = sent.get("disposition") if isinstance(sent, dict) else None
    if not isinstance(draft, dict) or set(draft) - {"captain"}:
        raise ApiError(400, "The draft is a disposition: {\"captain\": \"D4\"} (BB16)",
                       field="disposition")
    if not isinstance(draft.get("captain", ""), str) or len(draft.get("captain", "")) > 8:
        raise ApiError(400, "The Captain's cell is a section and a position, like \"D4\" "
                            "(BB16)", field="disposition.captain")
    return dict(draft)


def _keep_draft(_view: dict, _note: dict, sent: dict) -> tuple[dict, dict]:
    """The Captain's cell as the seat's note until he locks in; what is wrong with it."""
    captain = str(sent.get("captain", "")).strip().upper()
    problems = [] if captain in CELLS else [
        {"rule": "BB16", "message": f"{captain[:8]!r} is not a cell of your deck: a section "
                                    "A-H and a position 3, 4 or 5, like \"D4\"",
         "field": "captain"}]
    return {"disposition": {"captain": captain} if not problems else {}}, {"problems": problems}


def _lock_document(_seat: str, note: dict) -> dict:
    """The Captain's cell the setup form sent, else the draft kept."""
    if "captain" in request.form:
        return {"captain": request.form.get("captain", "")}
    return note.get("disposition") or {}


def _stage(form) -> object:
    raw = form.get("stage", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 9 else raw


def read_order(form) -> dict:
    """The order a play page's form sent, as the core reads it (BB26); what is wrong with it
    is the core's to say. A cannon with no target chosen holds its fire (BB10)."""
    kind = form.get("kind", "")
    if kind not in KINDS:
        raise ApiError(422, "The form names no order to give (BB26)", field="kind", rule="BB26")
    order: dict = {"kind": kind, "stage": _stage(form)}
    if kind == "plot":
        order["cards"] = [form.get(f"card{n}", "") for n in (1, 2, 3)]
    elif kind == "declaration":
        if form.get("standing"):
            order["standing"] = True
        else:
            cannons = [c for c in form.get("cannons", "").split(",") if c][:10]
            order["targets"] = {cell: form.get(f"target-{cell}") or None for cell in cannons}
    elif kind == "promotion":
        order["promote"] = form.get("promote", "")
    else:
        order["moves"] = [{"from": form.get(f"from{n}"), "to": form.get(f"to{n}"),
                           **({"captain": True} if form.get(f"captain{n}") else {})}
                          for n in range(1, MOVEMENTS + 1) if form.get(f"from{n}")]
    return order


add_play_routes(bp, PlayRoutes(
    read_draft=_read_draft, keep_draft=_keep_draft, lock_document=_lock_document,
    read_move=lambda: read_order(request.form), locked_rule="BB16", move_path="order"))


__all__ = ["bearing_words", "bp", "postmortem_page", "read_order", "seat_page"]
