"""Helpers for the Partners tests: positions from a compact description (the package's
:mod:`~spillebord.games.partners.position`), and short ways to read a board."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from spillebord.games.partners import board as B
from spillebord.games.partners.data import CIRCLE, LETTERS, parse_square, square_id
from spillebord.games.partners.position import board, position
from spillebord.games.partners.rules import PartnersState

__all__ = ["board", "fwd", "in_circle", "make", "on", "sq", "texts"]


def make(
    pieces: str = "",
    hand: Iterable[str] = ("N5",),
    seat: int = 0,
    others: dict[int, Iterable[str]] | None = None,
    n: int = 4,
    **options: Any,
) -> PartnersState:
    """A state in the play phase with ``seat`` to act holding ``hand``; cards conserved.
    Unless ``others`` says otherwise everyone else holds one 3, so the deal goes on."""
    if others is None:
        others = {k: ("N3",) for k in range(4) if k != seat}
    return position(pieces, {**others, seat: hand}, turn=seat, pieces_per_colour=n, **options)


def texts(s: PartnersState, prefix: str = "") -> list[str]:
    return [t for t in s.legal_texts() if t.startswith(prefix)]


def on(s: PartnersState | B.Board, colour: str) -> list[str]:
    """The squares of a colour's pieces outside the start circle, in board order."""
    pos = s.pos if isinstance(s, PartnersState) else s
    c = LETTERS.index(colour)
    return [square_id(c, p) for p in pos[c] if p != CIRCLE]


def in_circle(s: PartnersState | B.Board, colour: str) -> int:
    pos = s.pos if isinstance(s, PartnersState) else s
    return pos[LETTERS.index(colour)].count(CIRCLE)


def fwd(pieces: str, colour: str, square: str, n: int, **kw: bool) -> list[B.Board]:
    """Every board after moving a ``colour`` piece on ``square`` ``n`` steps forward (the engine's
    own step and landing functions); empty when illegal."""
    pos = board(pieces)
    c = LETTERS.index(colour)
    _, p = parse_square(square)
    optional, bounce = kw.get("optional", False), kw.get("bounce", False)
    ends = B.walk(c, p, n, B.blockers(pos), B.house_mask(pos[c]), optional, bounce)
    return [B.land(pos, c, p, e)[0] for e in ends]


def sq(text: str) -> int:
    return parse_square(text)[1]
