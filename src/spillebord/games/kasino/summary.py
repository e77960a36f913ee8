"""Kasino's end summary: the scoring categories of the last round (rule 11) and the totals."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.summary import Summary, row

if TYPE_CHECKING:
    from .rules import KasinoState


def summary(state: KasinoState) -> Summary:
    """Cards, spades, aces, big casino (10♦), little casino (2♠) and sweeps (svup) in each seat's
    pile of the last round, then the match totals (partners show their side's)."""
    piles = state.view(None)["piles"]
    return Summary(
        rows=[
            row("cards", [p["count"] for p in piles]),
            row("spades", [p["spades"] for p in piles]),
            row("aces", [p["aces"] for p in piles]),
            row("big_casino", [int(p["big_casino"]) for p in piles]),
            row("little_casino", [int(p["little_casino"]) for p in piles]),
            row("sweeps", [p["sweeps"] for p in piles]),
            row("total", state.scores()),
        ],
        total="total",
    )
