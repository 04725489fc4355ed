"""The shared pages' one blueprint ("pages": every endpoint keeps its name, ``pages.home`` ...)
and what its templates share: the recovery code to show once, the words for sides, and the
filters that do the templates' arithmetic."""

from __future__ import annotations

from flask import Blueprint

from ..common.phrasing import capitalise, side_words, sides_words
from ..session import held_seat, recovery_to_show
from ..web import minutes_since, short_fingerprint, time_left

bp = Blueprint("pages", __name__)

bp.app_context_processor(recovery_to_show)
bp.add_app_template_global(sides_words, "sides_words")  # "Red and Green against Blue" (R23)
bp.add_app_template_global(side_words, "side_words")  # "Red and Green"
bp.add_app_template_global(held_seat, "held_seat")  # the error page's way back
# the templates' arithmetic lives here, not in the templates: a template holds no constant
bp.add_app_template_filter(time_left, "time_left")  # "4:59 left" (R10, R25)
bp.add_app_template_filter(minutes_since, "minutes_since")
bp.add_app_template_filter(short_fingerprint, "short_fingerprint")
bp.add_app_template_filter(capitalise, "capitalise")  # "salvo" -> "Salvo"
