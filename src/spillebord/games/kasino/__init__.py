"""Kasino: the Danish fishing card game for 2–4 players (spec ``shared/spec/kasino.md``).

See ``rules.py`` for the state machine and ``actions.py`` for the action texts.
"""

from __future__ import annotations

from .actions import Build, Capture, Clear, Extend, KasinoAction, Raise, Trail
from .rules import BuildPile, KasinoGame, KasinoOptions, KasinoState, Tally, score_round

GAME = KasinoGame()

__all__ = [
    "GAME",
    "Build",
    "BuildPile",
    "Capture",
    "Clear",
    "Extend",
    "KasinoAction",
    "KasinoGame",
    "KasinoOptions",
    "KasinoState",
    "Raise",
    "Tally",
    "Trail",
    "score_round",
]
