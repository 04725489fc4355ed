"""The forms of the pages every game shares (flask-wtf, so every one carries a CSRF token):
creating a game, playing the computer, joining, recovering a seat, the host's buttons and
clock, importing a game file. A rule set's own forms (its setup, its moves) are its web
part's."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import HiddenField, IntegerField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import (
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    ValidationError,
)

from . import rulesets
from .common.lifecycle import DEFAULT_MINUTES, MAX_MINUTES, MIN_MINUTES, check_name
from .common.limits import MAX_CLOCK_EXTENSION
from .common.phrasing import sides_words
from .common.problems import RuleViolation


def player_name(_form, field) -> None:
    """The core's one rule for names (R10): the field keeps the name as the game will."""
    try:
        field.data = check_name(field.data or "")
    except RuleViolation as refused:
        problem = refused.problems[0]
        raise ValidationError(f"{problem.message} ({problem.rule})") from None


def name_field() -> StringField:
    return StringField("Your name", validators=[DataRequired(), player_name])


def _partitions(seats: list[str]) -> list[list[list[str]]]:
    """Every split of the seats into sides, each side in seat order."""
    if not seats:
        return [[]]
    first, rest = seats[0], seats[1:]
    out = []
    for split in _partitions(rest):
        out.append([[first], *split])
        for i in range(len(split)):
            out.append([*split[:i], [first, *split[i]], *split[i + 1:]])
    return out


def side_shapes(players: int) -> list[list[list[str]]]:
    """The sides a host may name with this many players (R23): two or more sides, at least
    one of two or more seats; the free-for-all is the form's first choice."""
    shapes = [sorted(split, key=lambda side: rulesets.SEATS.index(side[0]))
              for split in _partitions(list(rulesets.SEATS[:players]))
              if len(split) >= 2 and any(len(side) > 1 for side in split)]
    # two sides before three, even sides first, red with green (the printed pairing) first
    return sorted(shapes, key=lambda s: (len(s), max(map(len, s)),
                                         not any(side[:2] == ["red", "green"] for side in s),
                                         [rulesets.SEATS.index(x) for side in s for x in side]))


def shape_value(sides: list[list[str]]) -> str:
    """A shape as a form value: "red+green/blue"."""
    return "/".join("+".join(side) for side in sides)


def read_shape(value: str) -> list[list[str]] | None:
    """A form value back to its sides; None for every player for himself."""
    return [side.split("+") for side in value.split("/")] if value else None


def _default_rules(value: str | None) -> str:
    """A form that names no game plays the default rule set's, as the API does."""
    return value or rulesets.DEFAULT


def _games() -> list[SelectChoice]:
    """Every rule set played here, read as each form is made (``rulesets.register`` may add
    one after this module is imported)."""
    return [SelectChoice(rules, rule_set.title) for rules, rule_set in rulesets.RULE_SETS.items()]


def rules_field() -> SelectField:
    """Which game: every rule set this referee plays, the default first."""
    return SelectField("Game", default=rulesets.DEFAULT, filters=[_default_rules],
                       choices=_games)


class CreateGameForm(FlaskForm):
    name = name_field()
    rules = rules_field()
    seats = SelectField("Players", choices=[SelectChoice(n, f"{n} players") for n in "234"],
                        default="2")
    sides = SelectField("Sides (R23, three or four players)", default="", choices=[
        SelectChoice("", "Every player for himself"),
        *[SelectChoice(shape_value(s), sides_words(s), optgroup=f"{n} players")
          for n in (3, 4) for s in side_shapes(n)]])
    minutes = IntegerField("Minutes for dispositions (R10)", default=DEFAULT_MINUTES,
                           validators=[InputRequired(),
                                       NumberRange(min=MIN_MINUTES, max=MAX_MINUTES)])
    move_minutes = IntegerField("Minutes for each move (R25; empty: no move clock)",
                                validators=[Optional(),
                                            NumberRange(min=MIN_MINUTES, max=MAX_MINUTES)])


class JoinForm(FlaskForm):
    name = name_field()
    code = HiddenField()


class RecoverForm(FlaskForm):
    """"I had this seat": the seat and the recovery code written down at joining (R24)."""

    seat = SelectField("Your seat", choices=lambda: [SelectChoice(s, s.title())
                                                     for s in rulesets.SEATS])
    recovery_code = StringField("Recovery code", validators=[DataRequired(), Length(max=64)])


class PlainForm(FlaskForm):
    """A button that only needs its CSRF token (lock in, end, resign, host actions)."""


class ClockForm(FlaskForm):
    minutes = IntegerField("Minutes to add", default=5,
                           validators=[InputRequired(),
                                       NumberRange(min=1, max=MAX_CLOCK_EXTENSION)])


class ImportForm(FlaskForm):
    game_file = FileField("A game file exported from a referee (.json)",
                          validators=[FileRequired("Choose a game file to import")])


class ComputerGameForm(FlaskForm):
    """A game against the computer: the player is Red, the computer Blue."""

    player = name_field()
    rules = rules_field()
    # each rule set's own levels, weakest first, under its title; an option's value names
    # its rule set too ("broadside:careful"), and a bare level is the chosen game's
    level = SelectField("The computer plays as", validate_choice=False, choices=lambda: [
        SelectChoice(f"{rules}:{level}", f"{level.capitalize()}: {about}",
                     optgroup=rule_set.title)
        for rules, rule_set in rulesets.RULE_SETS.items()
        for level, about in rule_set.levels.items()],
        default=f"{rulesets.DEFAULT}:captain")

    def validate_level(self, field) -> None:
        rules = self.rules.data or rulesets.DEFAULT
        named, _, level = str(field.data or "").rpartition(":")
        rule_set = rulesets.RULE_SETS.get(rules)
        if rule_set is None:
            return  # the rules field says so
        if named not in ("", rules) or level not in rule_set.levels:
            raise ValidationError(f"{rule_set.title} has no such level; its computer plays as "
                                  f"{', '.join(rule_set.levels)}")
        field.data = level
