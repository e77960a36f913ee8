"""The actions of 88 and the cached action lists ``legal()`` hands out.

Canonical texts (``str(action)``; :mod:`.notation` reads them back):

* ``lay 47``: setup (R2), the number a seat lays on its panel;
* ``target 74``: the Target Setter's reading of the two cards (R5);
* ``stay``, ``rearrange 31``, ``remove 17``, ``add 88``: a move (R6, R7), the option together
  with the number the panel will show;
* ``tens fg b c`` / ``units ab c``: the tiling of one digit position, where more than one
  tiling shows the declared number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from spillebord.core import Action

from .data import Geometry, counts, tens_of, tiling_items, tiling_text, units_of

OPTION_NAMES = {
    "stay": "Stay (Stå kvar)",
    "rearrange": "Rearrange (Arrangera om)",
    "remove": "Take away (Ta bort)",
    "add": "Add (Lägga till)",
}
"""Option id → the name shown to players (English with the rule sheet's Swedish)."""


@dataclass(frozen=True, slots=True)
class _Numbered(Action):
    """An action that names one two-digit number: ``{word} NN``."""

    number: int
    word: ClassVar[str]
    caption: ClassVar[str]

    def __str__(self) -> str:
        return f"{self.word} {self.number:02d}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.word, "number": self.number, "text": str(self)}

    def label(self) -> str:
        return f"{self.caption} {self.number:02d}"


@dataclass(frozen=True, slots=True)
class Lay(_Numbered):
    """Setup (R2): the number a seat lays on its panel."""

    word: ClassVar[str] = "lay"
    caption: ClassVar[str] = "Lay out"


@dataclass(frozen=True, slots=True)
class Target(_Numbered):
    """R5: the Target Setter's reading of the two cards as the target number (Måltal)."""

    word: ClassVar[str] = "target"
    caption: ClassVar[str] = "Target number"


@dataclass(frozen=True, slots=True)
class Stay(Action):
    """Option 1, Stay (Stå kvar): touch no piece."""

    def __str__(self) -> str:
        return "stay"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "move", "option": "stay", "text": "stay"}

    def label(self) -> str:
        return OPTION_NAMES["stay"]


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Options 2–4: Rearrange (Arrangera om), Take away (Ta bort), Add (Lägga till),
    declared together with the number the panel will show."""

    option: str
    number: int

    def __str__(self) -> str:
        return f"{self.option} {self.number:02d}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "move", "option": self.option, "number": self.number, "text": str(self)}

    def label(self) -> str:
        return f"{OPTION_NAMES[self.option]} → {self.number:02d}"


@dataclass(frozen=True, slots=True)
class Place(Action):
    """The tiling of one digit position (``tens`` or ``units``) for the chosen number."""

    position: str
    tiling: int

    def __str__(self) -> str:
        return f"{self.position} {tiling_text(self.tiling)}"

    def to_json(self) -> dict[str, Any]:
        pre = "T" if self.position == "tens" else "U"
        return {
            "kind": "place",
            "position": self.position,
            "tiling": tiling_text(self.tiling),
            "placements": [f"{pre}:{n}" for n in tiling_items(self.tiling)],
            "pieces": list(tiling_items(self.tiling)),
            "text": str(self),
        }

    def label(self) -> str:
        items = tiling_items(self.tiling)
        desc = ", ".join(f"L {n}" if len(n) == 2 else f"straight {n}" for n in items)
        return f"{self.position.capitalize()}: {desc}"


EightyEightAction = Lay | Target | Stay | Move | Place

# ---------------------------------------------------------------- the lists legal() returns
# Built once (or once per panel / candidate set, then cached): legal() never builds actions.

LAY_ACTIONS: tuple[Lay, ...] = tuple(Lay(n) for n in range(100))
TARGET_ACTIONS: tuple[Target, ...] = tuple(Target(n) for n in range(100))
STAY = Stay()
MOVES: dict[tuple[str, int], Move] = {
    (o, n): Move(o, n) for o in ("rearrange", "remove", "add") for n in range(100)
}
"""Every declaration but Stay, by (option, number): the move lists share these."""


def _tkey(mask: int) -> tuple[tuple[int, int], str]:
    return counts(mask), tiling_text(mask)


_PLACE_ACTIONS: dict[tuple[int, int | None], tuple[Place, ...]] = {}
_PLACE_TILINGS: dict[tuple[int, int | None], frozenset[int]] = {}
_PLACE_KEEP: list[tuple[int, ...]] = []


def place_actions(cands: tuple[int, ...], tens: int | None) -> tuple[Place, ...]:
    """The tens tilings among the candidate panels ``cands`` (``tens`` None), or the units
    tilings that go with ``tens``, fewest pieces first. ``cands`` are the long-lived tuples of
    a :class:`~.data.Geometry`, so the lists are cached by their id."""
    key = (id(cands), tens)
    got = _PLACE_ACTIONS.get(key)
    if got is None:
        if tens is None:
            got = tuple(Place("tens", t) for t in sorted({tens_of(p) for p in cands}, key=_tkey))
        else:
            units = {units_of(p) for p in cands if tens_of(p) == tens}
            got = tuple(Place("units", u) for u in sorted(units, key=_tkey))
        _PLACE_KEEP.append(cands)  # keeps the id valid
        _PLACE_ACTIONS[key] = got
    return got


def place_tilings(cands: tuple[int, ...], tens: int | None) -> frozenset[int]:
    """The tilings of :func:`place_actions` as a set (legality checks)."""
    key = (id(cands), tens)
    got = _PLACE_TILINGS.get(key)
    if got is None:
        got = _PLACE_TILINGS[key] = frozenset(a.tiling for a in place_actions(cands, tens))
    return got


_MOVE_ACTIONS: dict[tuple[int, int], tuple[Stay | Move, ...]] = {}


def move_actions(geo: Geometry, panel: int) -> tuple[Stay | Move, ...]:
    """Every (option, number) move from ``panel``: Stay, then Rearrange, Take away and Add,
    each by number (the order of :meth:`~.data.Geometry.moves`)."""
    key = (id(geo), panel)
    got = _MOVE_ACTIONS.get(key)
    if got is None:
        moves = MOVES
        got = tuple([STAY if key[0] == "stay" else moves[key] for key in geo.moves(panel)])
        _MOVE_ACTIONS[key] = got
    return got


__all__ = [
    "LAY_ACTIONS",
    "MOVES",
    "OPTION_NAMES",
    "STAY",
    "TARGET_ACTIONS",
    "EightyEightAction",
    "Lay",
    "Move",
    "Place",
    "Stay",
    "Target",
    "move_actions",
    "place_actions",
    "place_tilings",
]
