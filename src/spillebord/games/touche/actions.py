"""Touché actions: the five kinds of decision.

An action's text is its verb followed by its fields, a tuple field joined with ``+``
(``grade 2``, ``place 7D r4c1``, ``exchange 5D+KH``, ``pass``, ``crown r3c0+r3c1+r4c0+r4c1``);
its JSON form is ``{"kind": verb, <fields>, "text": text}`` (cards and cells in the ids of the
view). Both are derived from the dataclass fields by :class:`Move`; each action writes only its
human ``label``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any, ClassVar

from spillebord.core import Action

from .data import (
    CARD_CELLS,
    CARDS,
    CELL_INDEX,
    CELLS,
    FREE_CELLS,
    GRADES,
    INSTANCE_ID,
    INSTANCES,
    IS_FREE,
    JOKER,
    NAMES,
    TYPE_NAMES,
    card_label,
    cell_name,
)


class Move(Action):
    """Base of the Touché actions: text and JSON derived from the fields (see the module)."""

    __slots__ = ()
    verb: ClassVar[str]
    __match_args__: ClassVar[tuple[str, ...]] = ()  # set by @dataclass: the fields, in order

    def __str__(self) -> str:
        parts = [self.verb]
        for name in self.__match_args__:
            v = getattr(self, name)
            parts.append("+".join(v) if isinstance(v, tuple) else str(v))
        return " ".join(parts)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.verb}
        for name in self.__match_args__:
            v = getattr(self, name)
            out[name] = list(v) if isinstance(v, tuple) else v
        out["text"] = str(self)
        return out


@dataclass(frozen=True, slots=True)
class ChooseGrade(Move):
    """The dealer (utdeler) chooses the difficulty grade (vanskelighetsgrad)."""

    verb = "grade"
    grade: int

    def to_json(self) -> dict[str, Any]:
        # What the grade asks for, so that a client can say it in its reader's language.
        types, two, three = GRADES[self.grade]
        out = Move.to_json(self)
        out.update(patterns=[TYPE_NAMES[t] for t in types], two=two, three=three)
        return out

    def label(self) -> str:
        types, two, three = GRADES[self.grade]
        what = "/".join(TYPE_NAMES[t] for t in types)
        return f"Grade {self.grade}: {what} ({two} patterns two-sided, {three} three-sided)"


@dataclass(frozen=True, slots=True)
class Place(Move):
    """Play a card and put a marker (markør) on one of its spaces; ``JK`` is a joker (jokerkort)."""

    verb = "place"
    card: str
    cell: str

    def label(self) -> str:
        where = "the free space " + self.cell if IS_FREE[CELL_INDEX[self.cell]] else self.cell
        return f"Play {card_label(self.card)}, marker on {where}"


@dataclass(frozen=True, slots=True)
class Exchange(Move):
    """Trade in dead cards (ubrukelige kort) for new ones; no marker this turn."""

    verb = "exchange"
    cards: tuple[str, ...]

    def label(self) -> str:
        return "Trade in the dead " + ", ".join(card_label(c) for c in self.cards) + " (skip the marker)"


@dataclass(frozen=True, slots=True)
class Pass(Move):
    """Nothing can be done (R5.5)."""

    verb = "pass"

    def label(self) -> str:
        return "Pass (nothing can be placed or traded in)"


@dataclass(frozen=True, slots=True)
class Crown(Move):
    """Choose which completed pattern gets the black crowns (one marker completed several)."""

    verb = "crown"
    cells: tuple[str, ...]

    def pattern(self) -> str:
        """The kind of pattern these cells make (``square``, ``line``, ``T``, ``cross``)."""
        k = INSTANCE_ID.get(tuple(sorted(CELL_INDEX[c] for c in self.cells)))
        return TYPE_NAMES[INSTANCES[k][0]] if k is not None else "pattern"

    def to_json(self) -> dict[str, Any]:
        out = Move.to_json(self)
        out["pattern"] = self.pattern()
        return out

    def label(self) -> str:
        return f"Crown the {self.pattern()} " + " ".join(self.cells)


ToucheAction = ChooseGrade | Place | Exchange | Pass | Crown
"""Any Touché action."""

PASS = Pass()
GRADE_CHOICES: tuple[ChooseGrade, ...] = tuple(ChooseGrade(g) for g in range(1, 6))
CROWNS: tuple[Crown, ...] = tuple(Crown(tuple(cell_name(c) for c in cells)) for _, cells in INSTANCES)
"""The crown action of every pattern instance, by instance id."""

PLACES: dict[str, dict[int, Place]] = {
    card: {c: Place(card, NAMES[c]) for c in (*CARD_CELLS[card], *FREE_CELLS)} for card in CARDS
}
"""``PLACES[card][cell index]``: the action (one object, reused) placing ``card`` on one of its spaces or
a FREE space, and a joker on any cell; computed once."""
PLACES[JOKER] = {c: Place(JOKER, NAMES[c]) for c in CELLS}


CARD_PLACES: dict[str, tuple[int, int, Place, Place]] = {
    card: (a, b, PLACES[card][a], PLACES[card][b]) for card, (a, b) in CARD_CELLS.items()
}
"""``CARD_PLACES[card]``: its two cells ``a, b`` and the actions placing it on them (for ``legal``)."""


@lru_cache(maxsize=4096)
def exchanges(dead: tuple[str, ...]) -> tuple[Exchange, ...]:
    """The exchange actions for the sorted dead cards ``dead`` (duplicates allowed): every
    distinct non-empty subset, by size, then by cards; computed once per ``dead``."""
    subsets: set[tuple[str, ...]] = set()
    for k in range(1, len(dead) + 1):
        subsets.update(combinations(dead, k))
    return tuple(Exchange(s) for s in sorted(subsets, key=lambda s: (len(s), s)))


def place(card: str, cell: int) -> Place:
    """The action (one object, reused) placing ``card`` on cell index ``cell``."""
    return PLACES[card].get(cell) or Place(card, NAMES[cell])


def instance_action(k: int) -> Crown:
    """The action crowning instance ``k``."""
    return CROWNS[k]
