"""88's end summary: each seat's peg on the track and its penalty points."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.summary import Summary, row

if TYPE_CHECKING:
    from .rules import EightyEightState


def summary(state: EightyEightState) -> Summary:
    """The peg game (R14–R16) counts holes on the track; the points game (R17–R18) penalty
    points (lowest wins)."""
    if state.opts.scoring == "pegs":
        return Summary(rows=[row("pegs", state.pegs)], total="pegs")
    return Summary(rows=[row("penalty_points", state.points)], total="penalty_points")
