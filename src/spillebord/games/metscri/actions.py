"""Metscri actions: one decision each (see the package docstring for how a turn decomposes).

Texts (canonical, round-trip through :func:`spillebord.games.metscri.notation.parse_action`):
``roll``, ``stop``, ``move r0c5 r0c3``, ``enter 9Ha r0c3``, ``turn r1c3``, ``spy r1c4``,
``reveal r1c4``, ``collect r1c2 r1c3 r2c3`` (squares sorted by index), ``invest``, ``next``,
``done``. Squares are ``r<row>c<col>``; cards rank + suit + deck letter (``9Ha``, ``10Cb``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from spillebord.core import Action

from .data import (
    CARD_FACE,
    CARD_ID,
    COLLECT,
    ENTER,
    INVEST,
    MOVE,
    NCARDS,
    NCELLS,
    RAYS,
    RIM,
    SPY,
    SPY_COST,
    SQ_ID,
    TURN,
)

# ---------------------------------------------------------------- one-word actions


@dataclass(frozen=True, slots=True)
class _Word(Action):
    """An action that is a single word: the word is its text and its JSON kind."""

    word: ClassVar[str]
    title: ClassVar[str]

    def __str__(self) -> str:
        return self.word

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.word, "text": self.word}

    def label(self) -> str:
        return self.title


@dataclass(frozen=True, slots=True)
class Roll(_Word):
    """Roll the die (terningkast)."""

    word = "roll"
    title = "Roll the die"


@dataclass(frozen=True, slots=True)
class Stop(_Word):
    """Stop rolling and keep the sum of the counting rolls as action points."""

    word = "stop"
    title = "Stop rolling"


@dataclass(frozen=True, slots=True)
class Invest(_Word):
    """Invest (Købe): buy the top card of the buy pile. 2 AP."""

    word = "invest"
    title = "Buy a card (2 AP)"


@dataclass(frozen=True, slots=True)
class EndPhase(_Word):
    """End the current phase (closing it for this turn) and go on to the next one."""

    word = "next"
    title = "End this phase"


@dataclass(frozen=True, slots=True)
class EndTurn(_Word):
    """End the turn (Return is applied automatically); leftover AP are lost."""

    word = "done"
    title = "End the turn"


# ---------------------------------------------------------------- actions on one square


@dataclass(frozen=True, slots=True)
class _OnSquare(Action):
    """An action on the free-lying card of one square: ``<word> <square>``."""

    square: int
    word: ClassVar[str]

    def __str__(self) -> str:
        return f"{self.word} {SQ_ID[self.square]}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.word, "square": SQ_ID[self.square], "text": str(self)}


@dataclass(frozen=True, slots=True)
class Turn(_OnSquare):
    """Turn (Vende): turn a face-down free-lying card face up (the k-th costs k-1 AP)."""

    word = "turn"

    def label(self) -> str:
        return f"Turn the card on {SQ_ID[self.square]} face up"


@dataclass(frozen=True, slots=True)
class Spy(_OnSquare):
    """Spy (Smugkigge): look privately at a face-down free-lying card (ring + 1 AP)."""

    word = "spy"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "spy", "square": SQ_ID[self.square], "ap": SPY_COST[self.square], "text": str(self)}

    def label(self) -> str:
        return f"Spy on the card on {SQ_ID[self.square]} ({SPY_COST[self.square]} AP)"


@dataclass(frozen=True, slots=True)
class Reveal(_OnSquare):
    """Reveal: make the card just spied visible to all, free, only right after the Spy."""

    word = "reveal"

    def label(self) -> str:
        return f"Reveal the spied card on {SQ_ID[self.square]} to all"


# ---------------------------------------------------------------- the others


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move (Flytte): the free-lying card of ``frm`` slides or steps to ``to``. 1 AP."""

    frm: int
    to: int

    def __str__(self) -> str:
        return f"move {SQ_ID[self.frm]} {SQ_ID[self.to]}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "move", "from": SQ_ID[self.frm], "to": SQ_ID[self.to], "ap": 1, "text": str(self)}

    def label(self) -> str:
        return f"Move the card on {SQ_ID[self.frm]} to {SQ_ID[self.to]} (1 AP)"


@dataclass(frozen=True, slots=True)
class Enter(Action):
    """Enter (Indsætte): a hand card face down onto a rim square. 2 AP."""

    card: int
    to: int

    def __str__(self) -> str:
        return f"enter {CARD_ID[self.card]} {SQ_ID[self.to]}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "enter", "card": CARD_ID[self.card], "to": SQ_ID[self.to], "ap": 2, "text": str(self)}

    def label(self) -> str:
        return f"Enter {CARD_FACE[self.card]} on {SQ_ID[self.to]} (2 AP)"


@dataclass(frozen=True, slots=True)
class Collect(Action):
    """Collect (Indsamle): one valid group of face-up cards, by their squares (sorted)."""

    squares: tuple[int, ...]

    def __str__(self) -> str:
        return "collect " + " ".join(SQ_ID[s] for s in self.squares)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "collect", "squares": [SQ_ID[s] for s in self.squares], "text": str(self)}

    def label(self) -> str:
        return "Collect the group on " + ", ".join(SQ_ID[s] for s in self.squares)


MetscriAction = Roll | Stop | Move | Enter | Turn | Spy | Reveal | Collect | Invest | EndPhase | EndTurn

ROLL_A, STOP_A, INVEST_A, NEXT_A, DONE_A = Roll(), Stop(), Invest(), EndPhase(), EndTurn()
WORDS: dict[str, MetscriAction] = {str(a): a for a in (ROLL_A, STOP_A, INVEST_A, NEXT_A, DONE_A)}
"""The one-word actions by their text."""

# Every action object legal() can return, made once (legal() hands out these same objects).
ENTER_OBJ: tuple[dict[int, Enter], ...] = tuple({t: Enter(c, t) for t in RIM} for c in range(NCARDS))
TURN_OBJ: tuple[Turn, ...] = tuple(Turn(t) for t in range(NCELLS))
SPY_OBJ: tuple[Spy, ...] = tuple(Spy(t) for t in range(NCELLS))
REVEAL_OBJ: tuple[Reveal, ...] = tuple(Reveal(t) for t in range(NCELLS))
MOVE_OBJ: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move(a, b) for b in range(NCELLS)) for a in range(NCELLS)
)
RAY_MOVES: tuple[tuple[tuple[int, Move, tuple[tuple[int, Move], ...]], ...], ...] = tuple(
    tuple((ray[0], MOVE_OBJ[s][ray[0]], tuple((t, MOVE_OBJ[s][t]) for t in ray[1:])) for ray in RAYS[s])
    for s in range(NCELLS)
)
"""Per square, per slide ray (in the order of ``ORTHO``, whose squares are the rays' first
squares): the first square and the move there, then the rest of the ray with its moves."""

PHASE_OF: dict[type, int] = {
    Move: MOVE,
    Enter: ENTER,
    Turn: TURN,
    Spy: SPY,
    Reveal: SPY,
    Collect: COLLECT,
    Invest: INVEST,
}
"""The phase each spending action belongs to (R9)."""
