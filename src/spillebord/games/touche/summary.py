"""Touché's end summary: games won and match points per seat (teammates share their side's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.summary import Summary, row

if TYPE_CHECKING:
    from .rules import ToucheState


def summary(state: ToucheState) -> Summary:
    """Games won and match points (R7.3, R7.4); the total is what the match mode counts."""
    wins = [state.match_wins[s] for s in state.side_of]
    points = [state.match_points[s] for s in state.side_of]
    mode = state.opts.match_mode
    return Summary(
        rows=[row("games_won", wins), row("match_points", points)],
        total="match_points" if mode == "points" else "games_won",
    )
