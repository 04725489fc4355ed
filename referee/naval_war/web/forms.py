"""The Naval War Game's own forms (flask-wtf, each with its CSRF token): the budget (R3-R5),
one whole-number field per kind of piece, and a move (R12)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, SelectField, StringField

# new in WTForms 3.3, which its stub package (of 3.2) does not know yet
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..catalogue import BUDGET, BUYABLE, MAX_ATOM_BOMBERS, NAMES, PLURALS, PRICES, WEAPONS


def _count_field(kind: str) -> IntegerField:
    limit = MAX_ATOM_BOMBERS if kind == "atom-bomber" else BUDGET
    label = f"{PLURALS[kind][0].upper()}{PLURALS[kind][1:]} ({PRICES[kind]} pt each)"
    return IntegerField(label, default=0, render_kw={"min": 0, "max": limit,
                                                      "inputmode": "numeric",
                                                      "data-price": PRICES[kind],
                                                      "data-kind": kind},
                        # R3 bounds every count; the Atom Bombers' own limit is R4's, and
                        # the budget check says so by name
                        validators=[Optional(), NumberRange(min=0, max=BUDGET,
                                    message=f"0 to {BUDGET} {PLURALS[kind]}")])


class BudgetForm(FlaskForm):
    """R3-R5: what a player buys; one whole-number field per kind of piece."""


for _kind in BUYABLE:
    setattr(BudgetForm, _kind.replace("-", "_"), _count_field(_kind))


def budget_fields(form: BudgetForm) -> list:
    return [getattr(form, kind.replace("-", "_")) for kind in BUYABLE]


class MoveForm(FlaskForm):
    weapon = SelectField("Weapon", choices=[SelectChoice(k, NAMES[k]) for k in WEAPONS])
    base = StringField("From (your aircraft's square)", validators=[Optional(),
                                                                    Length(max=6)])
    at = StringField("Target square(s)", validators=[DataRequired(), Length(max=30)])
    target = StringField("Opponent", validators=[Optional(), Length(max=6)])
    key = HiddenField()
