"""Metscri (Ole Høyer Hansen, 2019): a board game for 2–8 players with two card decks and a die.

Roll for action points (push your luck), then Move, Enter, Turn, Spy, Collect, Return and
Invest on a 7x7 board without corners; matched groups of equal symbols score by their
distance from the rim. See :mod:`spillebord.games.metscri.rules`.
"""

from .rules import MetscriGame, MetscriOptions, MetscriState

GAME = MetscriGame()

__all__ = ["GAME", "MetscriGame", "MetscriOptions", "MetscriState"]
