"""Partners' end summary: pieces home, of each person's own colours and of the partnership."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.summary import Summary, row

from .data import HOUSE

if TYPE_CHECKING:
    from .rules import PartnersState


def summary(state: PartnersState) -> Summary:
    """Pieces standing in their houses: the colours a person plays, then the partnership's
    (all home wins, R9.1)."""
    own = [0] * state.seats
    for colour, person in enumerate(state.ctrl):
        own[person] += sum(p >= HOUSE for p in state.pos[colour])
    return Summary(rows=[row("own_home", own), row("team_home", state.scores())], total="team_home")
