"""Touché views: exactly what a seat may know (R2.5), as JSON.

Public: the board and its markers and crowns, the grade and target, the dealer, the counts and
crowned types, the supplies, the pending crown choice, hand and pile sizes, every discard pile
(face up), the match and the first dealer draw. Private: the seat's own hand (and which of its
cards are dead). Nobody sees a pile's content or order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import CELLS, COLOURS, CROWN, EMPTY, INSTANCES, LAYOUT, NAMES, TYPE_NAMES

if TYPE_CHECKING:
    from .rules import ToucheState

INSTANCE_NAMES: tuple[tuple[str, ...], ...] = tuple(tuple(NAMES[c] for c in cells) for _, cells in INSTANCES)
"""The cell names of every instance, by id."""
TYPES_OF_MASK: tuple[tuple[str, ...], ...] = tuple(
    tuple(TYPE_NAMES[t] for t in range(4) if m >> t & 1) for m in range(16)
)
"""The type names in a bitmask of pattern types."""


def view(s: ToucheState, seat: int | None) -> dict[str, Any]:
    """The JSON view of ``s`` for ``seat`` (``None``: a spectator)."""
    marks = s.marks
    markers = [
        {"cell": NAMES[c], "side": marks[c] % CROWN, "crowned": marks[c] >= CROWN}
        for c in CELLS
        if marks[c] != EMPTY
    ]
    o = s.opts
    return {
        "game": "touche",
        "phase": s.phase if s.to_act is not None else "over",
        "to_act": s.to_act,
        "seats": s.seats,
        "seat": seat,
        "side_of": list(s.side_of),
        "colours": list(COLOURS[: s.n_sides]),
        "grade": s.grade,
        "target": s.target,
        "dealer": s.dealer,
        "round": s.round_no,
        "turn": s.turn,
        "stall": s.stall,
        "layout": LAYOUT,
        "markers": markers,
        "last": NAMES[s.last] if s.last >= 0 else None,
        "crowned": [
            {"side": side, "type": TYPE_NAMES[INSTANCES[k][0]], "cells": list(INSTANCE_NAMES[k])}
            for side, k in s.crowned
        ],
        "counts": list(s.counts),
        "crowned_types": [list(TYPES_OF_MASK[m]) for m in s.ctypes],
        "supply": [s.supply(x) if o.marker_supply is not None else None for x in range(s.n_sides)],
        "pending": [list(INSTANCE_NAMES[k]) for k in s.pending],
        "hand": list(s.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(h) for h in s.hands],
        "pile_sizes": [len(p) for p in s.piles],
        "discards": [list(d) for d in s.discards],
        "dead": sorted({c for c in s.hands[seat] if s.is_dead(c)}) if seat is not None else [],
        "match": {
            "game_no": s.game_no,
            "games": o.match_games,
            "mode": o.match_mode,
            "wins": list(s.match_wins),
            "points": list(s.match_points),
            "results": [{"grade": g, "winner": w if w >= 0 else None, "points": p} for g, w, p in s.games],
            "winner": s.match_winner(),
        },
        "dealer_draw": [[[x, c] for x, c in r] for r in s.draws],
    }
