"""The pages' forms (flask-wtf, so every one carries a CSRF token)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, HiddenField, IntegerField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from .naval_war.fleet import MAX_ATOM_BOMBERS, NAMES, PLURALS, PRICES

BUYABLE = ("carrier", "battleship", "cruiser", "destroyer", "submarine",
           "atom-bomber", "bomber", "recon", "aa-gun", "salvo")


class CreateGameForm(FlaskForm):
    name = StringField("Your name", validators=[DataRequired(), Length(max=40)])
    seats = SelectField("Players", choices=[SelectChoice(n, f"{n} players") for n in "234"],
                        default="2")
    alliances = BooleanField("Two alliances (4 players: Red and Green against Blue and Gold)")
    minutes = IntegerField("Minutes for dispositions (R10)", default=20,
                           validators=[InputRequired(), NumberRange(min=1, max=240)])
    move_minutes = IntegerField("Minutes for each move (R25; empty: no move clock)",
                                validators=[Optional(), NumberRange(min=1, max=1440)])


class JoinForm(FlaskForm):
    name = StringField("Your name", validators=[DataRequired(), Length(max=40)])
    code = HiddenField()


def _count_field(kind: str) -> IntegerField:
    limit = MAX_ATOM_BOMBERS if kind == "atom-bomber" else 160
    label = f"{PLURALS[kind][0].upper()}{PLURALS[kind][1:]} ({PRICES[kind]} pt each)"
    return IntegerField(label, default=0, render_kw={"min": 0, "max": limit,
                                                      "inputmode": "numeric",
                                                      "data-price": PRICES[kind],
                                                      "data-kind": kind},
                        # R3 bounds every count; the Atom Bombers' own limit is R4's, and
                        # the budget check says so by name
                        validators=[Optional(), NumberRange(min=0, max=160,
                                    message=f"0 to 160 {PLURALS[kind]}")])


class BudgetForm(FlaskForm):
    """R3-R5: what a player buys; one whole-number field per kind of piece."""


for _kind in BUYABLE:
    setattr(BudgetForm, _kind.replace("-", "_"), _count_field(_kind))


def budget_fields(form: BudgetForm) -> list:
    return [getattr(form, kind.replace("-", "_")) for kind in BUYABLE]


class MoveForm(FlaskForm):
    weapon = SelectField("Weapon", choices=[SelectChoice(k, NAMES[k]) for k in
                                            ("atom-bomber", "bomber", "recon", "salvo")])
    base = StringField("From (your aircraft's square)", validators=[Optional(),
                                                                    Length(max=6)])
    at = StringField("Target square(s)", validators=[DataRequired(), Length(max=30)])
    target = StringField("Opponent", validators=[Optional(), Length(max=6)])
    key = HiddenField()


class RecoverForm(FlaskForm):
    """"I had this seat": the seat and the recovery code written down at joining (R24)."""

    seat = SelectField("Your seat", choices=[SelectChoice(s, s.title())
                                             for s in ("red", "blue", "green", "gold")])
    recovery_code = StringField("Recovery code", validators=[DataRequired(), Length(max=64)])


class PlainForm(FlaskForm):
    """A button that only needs its CSRF token (lock in, end, resign, host actions)."""


class ClockForm(FlaskForm):
    minutes = IntegerField("Minutes to add", default=5,
                           validators=[InputRequired(), NumberRange(min=1, max=120)])


class ImportForm(FlaskForm):
    game_file = FileField("A game file exported from a referee (.json)",
                          validators=[FileRequired("Choose a game file to import")])


class ComputerGameForm(FlaskForm):
    """A game against the computer: the player is Red, the computer Blue."""

    player = StringField("Your name", validators=[DataRequired(), Length(max=40)])
    level = SelectField("The computer plays as", default="captain", choices=[
        SelectChoice("recruit", "Recruit: random, for learning the rules"),
        SelectChoice("captain", "Captain: sensible"),
        SelectChoice("admiral", "Admiral: the strongest")])
