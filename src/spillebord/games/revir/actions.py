"""Revir's actions: one decision each (see :mod:`.rules` for how a turn decomposes).

Every action's text is its kind word (the class name in lower case) followed by its one
argument, if it has one: ``stay``, ``move KO``, ``fight LO``, ``hunt HS``, ``pass``, ``bid 3``,
``surrender``; its JSON form is ``{"kind": word, <argument name>: value}``. Both are derived
once per class from the declared field; only the human ``label`` is written per class.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, ClassVar

from spillebord.core import Action

from .data import GEOMETRY

SURRENDER = -1
"""A submission in a fight that is a surrender, not a bid (the fight state's ``pending``/``last``)."""


class RevirAction(Action):
    """Base of Revir's actions: text and JSON derived from the class name and its one field."""

    __slots__ = ()
    _word: ClassVar[str]
    _arg: ClassVar[str | None]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._word = cls.__name__.lower()
        names = [n for n in inspect.get_annotations(cls) if not n.startswith("_")]
        assert len(names) <= 1, f"{cls.__name__}: a Revir action has at most one argument"
        cls._arg = names[0] if names else None

    def __str__(self) -> str:
        arg = self._arg
        return self._word if arg is None else f"{self._word} {getattr(self, arg)}"

    def to_json(self) -> dict[str, Any]:
        arg = self._arg
        return {"kind": self._word} if arg is None else {"kind": self._word, arg: getattr(self, arg)}


@dataclass(frozen=True, slots=True)
class Stay(RevirAction):
    """Stay where the cat is (no movement)."""

    def label(self) -> str:
        return "Stay on this square"


@dataclass(frozen=True, slots=True)
class Move(RevirAction):
    """Move (förflytta sig) to square ``to`` along the shortest open walk."""

    to: str

    def name(self) -> str:
        """The square's name on the board (Swedish, as printed: "Trappan"), else its code."""
        q = GEOMETRY.index.get(self.to)
        return self.to if q is None else GEOMETRY.edition.squares[q].sv

    def to_json(self) -> dict[str, Any]:
        return {"kind": "move", "to": self.to, "name": self.name()}

    def label(self) -> str:
        name = self.name()
        return str(self) if name == self.to else f"Move to {name} ({self.to})"


@dataclass(frozen=True, slots=True)
class Fight(RevirAction):
    """Fight (slåss om revir) over ``territory``; its owner defends."""

    territory: str

    def label(self) -> str:
        return f"Fight for {self.territory}"


@dataclass(frozen=True, slots=True)
class Hunt(RevirAction):
    """Hunt rats (jaga råttor) on the own territory ``square`` the cat stands on."""

    square: str

    def label(self) -> str:
        return f"Hunt rats on {self.square}"


@dataclass(frozen=True, slots=True)
class Pass(RevirAction):
    """End the turn without fighting or hunting."""

    def label(self) -> str:
        return "End the turn"


@dataclass(frozen=True, slots=True)
class Bid(RevirAction):
    """A hidden bid of ``stones`` power stones in a fight round."""

    stones: int

    def label(self) -> str:
        return f"Bid {self.stones} stone{'s' if self.stones != 1 else ''}"


@dataclass(frozen=True, slots=True)
class Surrender(RevirAction):
    """Give up the fight (ge upp), submitted in place of a bid."""

    def label(self) -> str:
        return "Give up the fight"


STAY, PASS = Stay(), Pass()

_BIDS: list[tuple[Bid | Surrender, ...]] = []


def bids(n: int) -> tuple[Bid | Surrender, ...]:
    """``bid 0`` .. ``bid n`` and ``surrender`` (shared, immutable: built once per ``n``)."""
    while len(_BIDS) <= n:
        k = len(_BIDS)
        _BIDS.append((*(Bid(i) for i in range(k + 1)), Surrender()))
    return _BIDS[n]


__all__ = ["SURRENDER", "Bid", "Fight", "Hunt", "Move", "Pass", "RevirAction", "Stay", "Surrender", "bids"]
