"""Problems: what a referee says when a document, move or request breaks a ruling.

A problem names the ruling it breaks (``R8``, ``T4`` ...), says what is wrong in the game's
words, and lists the squares or holes involved, already written as the rule set writes them;
a field name is added where the problem is in one part of a document. ``RuleViolation``
carries every problem found at once, in the error format of docs/api.md, for every rule set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

from .documents import Json

# what a refusal refuses (``RuleViolation.kind``), from which a server chooses its status: a
# disposition or move that breaks a ruling, acting out of turn or out of phase, acting for a
# seat that is not one's own
ErrorKind = Literal["illegal", "turn", "forbidden"]
ERROR_KINDS: tuple[str, ...] = get_args(ErrorKind)


@dataclass(frozen=True)
class Problem:
    """One broken ruling: ``rule`` like ``"R8"``, a readable message, and its squares."""

    rule: str
    message: str
    squares: tuple[str, ...] = ()
    field: str | None = None

    def to_json(self) -> Json:
        doc: Json = {"rule": self.rule, "message": self.message, "squares": list(self.squares)}
        if self.field is not None:
            doc["field"] = self.field
        return doc


@dataclass
class RuleViolation(ValueError):
    """Raised with every problem found; nothing has been applied when it is raised.

    ``kind`` says what was refused, so a server can choose its status: ``"illegal"`` for a
    disposition or move that breaks a ruling, ``"turn"`` for acting out of turn or out of
    phase, ``"forbidden"`` for acting for a seat that is not one's own.
    """

    problems: list[Problem]
    kind: ErrorKind = "illegal"
    _message: str = field(init=False, default="")

    def __post_init__(self) -> None:
        if self.kind not in ERROR_KINDS:
            raise ValueError(f"{self.kind!r} is not a kind of refusal ({', '.join(ERROR_KINDS)})")
        self._message = "; ".join(f"{p.rule}: {p.message}" for p in self.problems)
        ValueError.__init__(self, self._message)

    def __str__(self) -> str:
        return self._message

    def __reduce__(self) -> tuple[type[RuleViolation], tuple[list[Problem], ErrorKind]]:
        """Pickled as its problems and kind (a refusal raised in a worker process of the
        costly pool comes back to the request whole)."""
        return (type(self), (list(self.problems), self.kind))

    def to_json(self) -> Json:
        return {"errors": [p.to_json() for p in self.problems]}
