"""Revir's end summary: each seat's best series, territories and stones (rule 9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.summary import Summary, row

if TYPE_CHECKING:
    from .rules import RevirState


def summary(state: RevirState) -> Summary:
    """The longest series of one colour (a complete one wins, rule 9.1), then territories and
    stones (the turn cap's ranking, rule 9.3)."""
    counts = [state.colour_counts(s) for s in range(state.seats)]
    return Summary(
        rows=[
            row("best_series", [max(c) for c in counts]),
            row("series_needed", [state.o.series_needed] * state.seats),
            row("territories", [sum(c) for c in counts]),
            row("stones", state.stones),
        ],
        total="best_series",
    )
