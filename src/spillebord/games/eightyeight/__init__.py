"""88 (Digital Dramatik): seven-segment number building with L and straight pieces.

Public API besides ``GAME``: :func:`reachable` / :func:`reachable_panels` answer, for any
panel and option, which numbers / panels a move can produce (the web client and bots use
them); :func:`parse_panel` / :func:`panel_text` convert the ``"fg b c|ab c"`` notation.
"""

from __future__ import annotations

from .data import (
    ALT,
    L_PAIRS,
    STANDARD,
    Geometry,
    distance,
    geometry,
    panel_text,
    parse_panel,
    reachable,
    reachable_panels,
)
from .rules import EightyEightGame, EightyEightState, Lay, Move, Options, Place, Stay, Target

GAME = EightyEightGame()

__all__ = [
    "ALT",
    "GAME",
    "L_PAIRS",
    "STANDARD",
    "EightyEightGame",
    "EightyEightState",
    "Geometry",
    "Lay",
    "Move",
    "Options",
    "Place",
    "Stay",
    "Target",
    "distance",
    "geometry",
    "panel_text",
    "parse_panel",
    "reachable",
    "reachable_panels",
]
