"""Partners actions: one decision each (docs/rules/partners.md, "Decisions of a turn").

Canonical texts (squares in lower case, see :mod:`.data`; cards by their codes):

* ``give h8`` — the hidden partner exchange (R3.3)
* ``start h8`` — a start move (R5.8)
* ``play n5 y12 r3`` — a forward or backward move (card, from, to); a card with two forward
  values names the one used: ``play a114=14 ys y14``
* ``seven y3 2 y5`` — one part of a split 7 (piece, steps, landing square) (R6.5)
* ``seven stop`` — end a split 7 early (only with ``split_must_use_all=false``)
* ``swap r3 b7`` — the swap card (R6.4), the two squares in board order
* ``discard`` — lay down the whole hand (R8)

``to_json`` names the card and the square ids of the view; ``label`` is the human text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spillebord.core import Action

from .data import CARD_TYPES, CIRCLE, COLOURS, START_FIELD, square_id


def _sq(colour: int, pos: int) -> str:
    return square_id(colour, pos).lower()


@dataclass(frozen=True, slots=True)
class Give(Action):
    """Partner exchange (bytte kort): commit one card for the partner, hidden until all commit."""

    card: str

    def __str__(self) -> str:
        return f"give {self.card.lower()}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "give", "card": self.card}

    def label(self) -> str:
        return f"Give {CARD_TYPES[self.card].name_en} to your partner"


@dataclass(frozen=True, slots=True)
class Start(Action):
    """Start move (R5.8): a piece from the start circle (startcirkel) onto its start field (startfelt)."""

    card: str
    colour: int

    def __str__(self) -> str:
        return f"start {self.card.lower()}"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "start",
            "card": self.card,
            "from": square_id(self.colour, CIRCLE),
            "to": square_id(self.colour, START_FIELD[self.colour]),
        }

    def label(self) -> str:
        return f"{CARD_TYPES[self.card].name_en}: bring a {COLOURS[self.colour]} piece out"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """A forward (number card, 1/14, the number side of 8♥/13♥) or backward (−4) move of one piece."""

    card: str
    value: int
    """Steps: positive forward, negative backward."""
    colour: int
    frm: int
    to: int

    def __str__(self) -> str:
        card = self.card.lower()
        if len(CARD_TYPES[self.card].forward) > 1:
            card += f"={self.value}"
        return f"play {card} {_sq(self.colour, self.frm)} {_sq(self.colour, self.to)}"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "move",
            "card": self.card,
            "value": self.value,
            "from": square_id(self.colour, self.frm),
            "to": square_id(self.colour, self.to),
        }

    def label(self) -> str:
        way = f"{self.value} forward" if self.value > 0 else f"{-self.value} back"
        return (
            f"{CARD_TYPES[self.card].name_en}: {COLOURS[self.colour]} piece "
            f"{square_id(self.colour, self.frm)} {way} to {square_id(self.colour, self.to)}"
        )


@dataclass(frozen=True, slots=True)
class Seven(Action):
    """One part of the split 7 (delekort, R6.5): one piece forward ``steps`` steps."""

    colour: int
    frm: int
    steps: int
    to: int

    def __str__(self) -> str:
        return f"seven {_sq(self.colour, self.frm)} {self.steps} {_sq(self.colour, self.to)}"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "seven",
            "card": "S7",
            "steps": self.steps,
            "from": square_id(self.colour, self.frm),
            "to": square_id(self.colour, self.to),
        }

    def label(self) -> str:
        return (
            f"7: {COLOURS[self.colour]} piece {square_id(self.colour, self.frm)} {self.steps} "
            f"forward to {square_id(self.colour, self.to)}"
        )


@dataclass(frozen=True, slots=True)
class StopSplit(Action):
    """End a split 7 early (only with ``split_must_use_all=false``)."""

    def __str__(self) -> str:
        return "seven stop"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "seven_stop"}

    def label(self) -> str:
        return "7: stop here"


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """The swap card (byttekort, R6.4): two lone pieces on numbered squares change places."""

    c1: int
    p1: int
    c2: int
    p2: int

    def __str__(self) -> str:
        return f"swap {_sq(self.c1, self.p1)} {_sq(self.c2, self.p2)}"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "swap",
            "card": "SWAP",
            "from": square_id(self.c1, self.p1),
            "to": square_id(self.c2, self.p2),
        }

    def label(self) -> str:
        return (
            f"Swap the {COLOURS[self.c1]} piece on {square_id(self.c1, self.p1)} with the "
            f"{COLOURS[self.c2]} piece on {square_id(self.c2, self.p2)}"
        )


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Lay down the whole hand (R8): forced when no card is usable."""

    def __str__(self) -> str:
        return "discard"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "discard"}

    def label(self) -> str:
        return "Lay down your whole hand (no usable card)"


PartnersAction = Give | Start | Move | Seven | StopSplit | Swap | Discard
"""Every Partners action."""

__all__ = ["Discard", "Give", "Move", "PartnersAction", "Seven", "Start", "StopSplit", "Swap"]
