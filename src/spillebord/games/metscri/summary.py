"""Metscri's end summary: the M-points (Metscri-point) each seat collected, against the target."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.summary import Summary, row

if TYPE_CHECKING:
    from .rules import MetscriState


def summary(state: MetscriState) -> Summary:
    """M-points of the collected groups (R24); the target (R31) beside them."""
    return Summary(
        rows=[row("m_points", state.points), row("target", [state.target] * state.seats)],
        total="m_points",
    )
