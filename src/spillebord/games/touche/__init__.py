"""Touché (Tactic; Norwegian rules "TOUCHÉ"): play cards to put markers on their spaces of a
112-cell board and crown squares, lines, T's and crosses before the other side does."""

from .rules import GAME, ToucheGame, ToucheOptions, ToucheState

__all__ = ["GAME", "ToucheGame", "ToucheOptions", "ToucheState"]
