"""The forms of the pages every game shares (flask-wtf, so every one carries a CSRF token):
creating a game, playing the computer, joining, recovering a seat, the host's buttons and
clock, importing a game file. A rule set's own forms (its setup, its moves) are its web
part's."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import HiddenField, IntegerField, SelectField, StringField

# new in WTForms 3.3, which its stub package (of 3.2) does not know yet
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import (
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    StopValidation,
    ValidationError,
)

from . import rulesets
from .common.lifecycle import DEFAULT_MINUTES, MAX_MINUTES, MIN_MINUTES, check_name
from .common.limits import MAX_CLOCK_EXTENSION
from .common.phrasing import capitalise, number_word, sides_words
from .common.problems import RuleViolation
from .common.ruleset import RuleSet


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
    # two sides before three, even sides first, then the first seat partnered with the third
    # (partners who sit apart, so that the sides alternate in the order of the seats)
    apart = list(rulesets.SEATS[0:3:2])
    return sorted(shapes, key=lambda s: (len(s), max(map(len, s)),
                                         not any(side[:2] == apart for side in s),
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


def offered(rule_set: RuleSet) -> frozenset[str]:
    """The fields of the home page's form that a game offers, from the options its rule set
    reads (``RuleSet.options``) and its seats: players and sides only for a game of more than
    two seats (R23), each clock only where the game has it."""
    several = len(rule_set.seats) > 2
    return frozenset(field for field, option, shown in (
        ("seats", "seats", several), ("sides", "alliances", several),
        ("minutes", "disposition_minutes", True), ("move_minutes", "move_minutes", True))
        if shown and option in rule_set.options)


def offered_by() -> dict[str, list[str]]:
    """Each field of the home page's form and the games that offer it (``offered``)."""
    games = rulesets.RULE_SETS
    return {field: [rules for rules, rule_set in games.items() if field in offered(rule_set)]
            for field in ("seats", "sides", "minutes", "move_minutes")}


class WholeNumberField(IntegerField):
    """A number of minutes typed on a form: anything that is not a whole number is said once,
    in plain words with the range, not also as out of range."""

    def __init__(self, label: str, low: int, high: int, *, required: bool, **kwargs) -> None:
        self.said = f"Write a whole number of minutes, from {low} to {high}"
        super().__init__(label, validators=[
            InputRequired(self.said) if required else Optional(),
            NumberRange(min=low, max=high, message=self.said)], **kwargs)

    def process_formdata(self, valuelist) -> None:
        if valuelist and not str(valuelist[0]).strip():
            self.data = None  # left empty: InputRequired or Optional says what that means
            return
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(self.said) from None

    def pre_validate(self, form) -> None:
        if self.process_errors:
            raise StopValidation()


def _players(value: str) -> int:
    return sum(len(side.split("+")) for side in value.split("/")) if value else 0


def _most_players() -> int:
    """The most seats any rule set played here has."""
    return max(len(rule_set.seats) for rule_set in rulesets.RULE_SETS.values())


def _player_counts() -> list[SelectChoice]:
    return [SelectChoice(str(n), f"{n} players") for n in range(2, _most_players() + 1)]


def _sides() -> list[SelectChoice]:
    return [SelectChoice("", "Every player for himself"),
            *[SelectChoice(shape_value(s), sides_words(s), optgroup=f"{n} players",
                          render_kw={"data-players": str(n)})
              for n in range(3, _most_players() + 1) for s in side_shapes(n)]]


class CreateGameForm(FlaskForm):
    name = name_field()
    rules = rules_field()
    # as many players as the rule sets here seat; each rule set checks its own (R23)
    seats = SelectField("Players", choices=_player_counts, default="2")
    # each shape tells the page's script how many players it is for (data-players)
    sides = SelectField("Sides (R23, three or more players)", default="", choices=_sides)
    minutes = WholeNumberField("Minutes for dispositions (R10)", MIN_MINUTES, MAX_MINUTES,
                               required=True, default=DEFAULT_MINUTES)
    move_minutes = WholeNumberField("Minutes for each move (R25; empty: no move clock)",
                                    MIN_MINUTES, MAX_MINUTES, required=False)

    def offers(self) -> frozenset[str]:
        """The fields the chosen game offers: the others are neither read nor checked."""
        rule_set = rulesets.RULE_SETS.get(self.rules.data or rulesets.DEFAULT)
        return offered(rule_set) if rule_set else frozenset()

    def validate(self, extra_validators=None) -> bool:
        """Check the fields the chosen game offers; another game's fields a page without
        its script still shows are left as they were typed, and not read."""
        offers = self.offers()
        super().validate(extra_validators)
        for name in offered_by():
            if name not in offers:
                self[name].errors = []  # another game's: not read, so not refused
        if any(field.errors for field in self) or self.form_errors:
            return False
        rule_set = rulesets.named(self.rules.data or rulesets.DEFAULT)
        players = int(self.seats.data) if "seats" in offers else 2
        if players > len(rule_set.seats):
            self.seats.errors = [*self.seats.errors, f"{rule_set.title} is for two to "
                                 f"{number_word(len(rule_set.seats))} players"]
        elif "sides" in offers and self.sides.data and _players(self.sides.data) != players:
            shape = read_shape(self.sides.data) or []
            self.sides.errors = [*self.sides.errors,
                f"{sides_words(shape)} is a game of {number_word(_players(self.sides.data))} "
                f"players, and you chose {number_word(players)}: choose sides for "
                f"{number_word(players)}, or every player for himself (R23)"]
        return not (self.seats.errors or self.sides.errors)


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


def middle_level(rule_set: RuleSet) -> str:
    """The level a game against the computer starts at unless the player chooses another: the
    middle of its ladder, neither the beginner's nor the strongest."""
    levels = list(rule_set.levels)
    return levels[len(levels) // 2]


def level_choices(rules: str) -> list[SelectChoice]:
    """A game's levels as the home page offers them, weakest first: "rules:level", and its
    name once with what it is like ("Captain: sensible: scouts ...")."""
    rule_set = rulesets.named(rules)
    return [SelectChoice(f"{rules}:{level}", level_label(level, about))
            for level, about in rule_set.levels.items()]


def level_label(level: str, about: str) -> str:
    """A level's name and what it is like, the name said once whether or not the description
    starts with it.

    >>> level_label("captain", "Captain: sensible"), level_label("random", "Random moves.")
    ('Captain: sensible', 'Random: random moves.')
    >>> level_label("cadet", "R.P.s first")
    'Cadet: R.P.s first'
    """
    if about.lower().startswith(f"{level.lower()}:"):
        return about
    word = about[:1].lower() if about[1:2].islower() else about[:1]  # "R.P.s" stays
    return f"{capitalise(level)}: {word}{about[1:]}"


class ComputerGameForm(FlaskForm):
    """A game against the computer: the player takes the game's creator's seat and the
    computer its computer's seat. The page offers each game's levels in a list of its own
    (all of them named ``level``, a page's script showing only the chosen game's): the level
    read is the one of the chosen game, so the game and its level can never disagree."""

    player = name_field()
    rules = rules_field()
    level = SelectField("The computer plays as", validate_choice=False,
                        choices=lambda: level_choices(rulesets.DEFAULT))

    def validate_level(self, field) -> None:
        rules = self.rules.data or rulesets.DEFAULT
        rule_set = rulesets.RULE_SETS.get(rules)
        if rule_set is None:
            return  # the rules field says so
        sent = [str(value) for value in (field.raw_data or [])] or \
            [f"{rules}:{middle_level(rule_set)}"]
        # the chosen game's own list; else the one level sent, bare or naming its game
        ours = [value for value in sent if value.startswith(f"{rules}:")] or sent[:1]
        named, _, level = ours[0].rpartition(":")
        if named not in ("", rules) or level not in rule_set.levels:
            raise ValidationError(f"{rule_set.title} has no such level; its computer plays as "
                                  f"{', '.join(rule_set.levels)}")
        field.data = level
