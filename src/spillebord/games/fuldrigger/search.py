"""Fuldrigger's search kit, kept apart from the trading bot (the rules' negotiation is changing):
search plays out with the trader (10% random moves) and values cut-off playouts by wealth.
"""

from __future__ import annotations

import dataclasses

from spillebord.ai import GameBots
from spillebord.ai.playout import epsilon_greedy, logistic_value
from spillebord.core import AnyGame

from .bots import TraderAgent, evaluate

SCALE = 320.0
"""Ducats ahead that make a 73% favourite (fitted on the trader's games)."""


def with_search(game: AnyGame, kit: GameBots) -> GameBots:
    """``kit`` with Fuldrigger's playout policy, value and cut-off."""
    return dataclasses.replace(
        kit,
        rollout=epsilon_greedy(TraderAgent(game).act, 0.1),
        value=logistic_value(evaluate, SCALE),
        cutoff=40,
        iterations=320,
        scale=SCALE,
    )
