"""The home page (creating a game, this phone's games) and playing the computer."""

from __future__ import annotations

from flask import redirect, render_template, url_for

from .. import ladder, rulesets, service, webparts
from ..common.views import owes_in
from ..errors import ApiError
from ..forms import (
    ComputerGameForm,
    CreateGameForm,
    level_choices,
    middle_level,
    offered_by,
    read_shape,
)
from ..session import remember, seats, show_recovery_once
from ..web import join_key, join_url, store
from .blueprint import bp


@bp.route("/", methods=["GET", "POST"])
def home():
    """The home page; creating a game from its form. A refused form comes back as it was
    typed, each problem beside its field in plain words."""
    form = CreateGameForm()
    if form.validate_on_submit():
        offers, asked = form.offers(), {}
        if "seats" in offers:
            asked["seats"] = int(form.seats.data)
        if "sides" in offers:
            asked["alliances"] = read_shape(form.sides.data) or False
        if "minutes" in offers:
            asked["disposition_minutes"] = form.minutes.data
        if "move_minutes" in offers:
            asked["move_minutes"] = form.move_minutes.data or None
        try:
            created = service.create_game(store(), _options(form.rules.data, asked),
                                          join_url, key=join_key())
        except ApiError as refused:
            if refused.status >= 500 or refused.status == 429:
                raise
            _refused_on_the_form(form, refused)
        else:
            game_id = _seat_the_creator(created, form.rules.data, form.name.data)
            return redirect(url_for("pages.host", game_id=game_id))
    return _home_page(form, ComputerGameForm(formdata=None))


FIELD_OF_OPTION = {"seats": "seats", "alliances": "sides", "disposition_minutes": "minutes",
                   "move_minutes": "move_minutes", "name": "name", "rules": "rules"}


def _refused_on_the_form(form: CreateGameForm, refused: ApiError) -> None:
    """The service's refusal beside the field it names (the whole form's, otherwise)."""
    field = FIELD_OF_OPTION.get(refused.field or "")
    if field:
        form[field].errors = [*form[field].errors, refused.message]
    else:
        form.form_errors.append(refused.message)


def _home_page(form: CreateGameForm, computer: ComputerGameForm, status: int = 200):
    """The home page with these two forms, as typed (a refused one with its problems)."""
    rule_sets = rulesets.RULE_SETS
    return render_template(
        "home.html", form=form, games=_my_games(), computer=computer, focus=_focus(form, computer),
        creator_seat=_creator_seat(), ladders=ladder.shown(), offered_by=offered_by(),
        rule_titles={rules: rule_set.title for rules, rule_set in rule_sets.items()},
        computer_levels=[{"rules": rules, "title": rule_set.title,
                          "choices": level_choices(rules),
                          "chosen": _level_chosen(computer, rules)}
                         for rules, rule_set in rule_sets.items()]), status


def _focus(form: CreateGameForm, computer: ComputerGameForm) -> str | None:
    """The id of the first field a refused form has a problem with: the page opens there."""
    for field in (*form, *computer):
        if field.errors and field.type != "CSRFTokenField":
            if field is computer.level:
                return f"level-{computer.rules.data or rulesets.DEFAULT}"
            return "computer-rules" if field is computer.rules else field.id
    return None


def _level_chosen(computer: ComputerGameForm, rules: str) -> str:
    """The option a game's list of levels shows chosen: the one sent for it, or its middle
    level."""
    sent = [str(v) for v in (computer.level.raw_data or []) if str(v).startswith(f"{rules}:")]
    return sent[0] if sent else f"{rules}:{middle_level(rulesets.named(rules))}"


def _creator_seat() -> str | None:
    """The seat who creates a game takes, if every game here gives him the same one."""
    declared = {rulesets.named(part.rules).creator_seat for part in webparts.registered()
                if part.rules in rulesets.RULE_SETS}
    return declared.pop() if len(declared) == 1 else None


def _seat_the_creator(created: dict, rules: str, name: str) -> str:
    """Who creates a game on his phone takes its rule set's creator's seat and hosts it
    (R24); this phone keeps both tokens, and shows the seat's recovery code once."""
    seat, game_id = rulesets.named(rules).creator_seat, created["id"]
    keys = service.claim_seat(store(), game_id, seat, created["seats"][seat]["join_code"],
                              name, key=join_key())
    service.hand_over_hosting(store(), game_id, seat)  # hosting follows the seat
    remember("seats", game_id, keys.token)
    remember("host", game_id, created["host_token"])
    show_recovery_once(game_id, seat, keys.recovery_code)
    return game_id


def _options(rules: str, asked: dict) -> dict:
    """The home page's options that the chosen game reads (two seats for a two-player
    game): its rule set refuses any other."""
    known = rulesets.named(rules).options
    return {"rules": rules, **{key: value for key, value in asked.items()
                               if key in known or key == "bots"}}


PHASES = {"setup": "buying and placing fleets", "play": "in play", "over": "over"}


def _my_games() -> list[dict]:
    """This phone's games for the home page: each told from its seat's own view (R21), with
    the opponents' names, the phase and whose turn it is."""
    games = []
    for game_id, token in seats().items():
        holder = store().holder_of(token) if isinstance(token, str) else None
        if not holder or holder.game_id != game_id or not holder.seat:
            continue  # the seat went to another phone
        seat = holder.seat
        try:
            view = service.seat_view(store(), game_id, seat).document  # read only
        except ApiError:
            continue
        others = [{"seat": s, "name": info["name"] or "not joined yet",
                   "ally": s in view.get("allies", ())}
                  for s, info in view["seats"].items() if s != seat]
        if view["phase"] == "over":
            state = rulesets.named(store().rules_of(game_id)).headline(view)
        elif view["phase"] == "play":
            owing = owes_in(view)
            state = ("your turn" if seat in owing else " and ".join(
                f"{view['seats'][s]['name'] or s.title()} ({s.title()})" for s in owing)
                + " to move")
        else:
            state = ("you are locked in; waiting for the others"
                     if view["seats"][seat]["ready"] else "your fleet is still to place")
        games.append({"id": game_id, "seat": seat, "others": others,
                      "phase": PHASES.get(view["phase"], view["phase"]), "state": state,
                      "your_turn": view["phase"] == "play" and seat in owes_in(view)})
    return games


@bp.post("/play-computer")
def play_computer():
    """Play the computer: the player takes his rule set's creator's seat; the computer, in
    its computer's seat, sets up its fleet at once. A refused form comes back on the home
    page as it was typed."""
    form = ComputerGameForm()
    if not form.validate_on_submit():
        return _home_page(CreateGameForm(formdata=None), form, 400)
    computer_seat = rulesets.named(form.rules.data).computer_seat
    created = service.create_game(store(), _options(form.rules.data, {
        "seats": 2, "bots": {computer_seat: form.level.data}}), join_url, key=join_key())
    game_id = _seat_the_creator(created, form.rules.data, form.player.data)
    return redirect(url_for("pages.game", game_id=game_id))
