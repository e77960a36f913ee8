"""Fuldrigger — et spil om handel og magt (trade and power under sail), 2–4 players."""

from __future__ import annotations

from .heuristics import TraderAgent
from .rules import FuldriggerGame, FuldriggerOptions, FuldriggerState, Order

FuldriggerGame.agents = {"trader": TraderAgent}
GAME = FuldriggerGame()

__all__ = ["GAME", "FuldriggerGame", "FuldriggerOptions", "FuldriggerState", "Order", "TraderAgent"]
