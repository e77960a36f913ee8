"""Revir (Swedish: "territory"): cats on the farm Tviksta Gård fight over territories.

Goal: be the first to own all four territories of one colour (a revirserie).
Each turn: an event card is turned up into the card clock (automatic); then you move
(`stay` or `move KO`: the first step is free, each further step costs one power stone;
doors are closed unless a card opens them); then you may `fight XX` for a territory (standing
on it, or on the same outdoor square as its owner) or `hunt XX` for rats on your own
territory where a card allows it, or `pass`. A fight is rounds of hidden bids (`bid N` or
`surrender`); the higher bid lands a hit, five hits win; each side then pays the bank one
stone per hit received and the attacker takes the card on a win.
"""

from __future__ import annotations

from typing import Any

from . import bots, positions
from .actions import Bid, Fight, Hunt, Move, Pass, RevirAction, Stay, Surrender
from .options import RevirOptions
from .rules import FightState, RevirGame, RevirState

GAME = RevirGame()
bots.register(GAME)


def build_position(seats: int = 2, **kwargs: Any) -> RevirState:
    """A position of :data:`GAME` from keyword arguments (see :func:`.positions.build_position`)."""
    return positions.build_position(GAME, seats, **kwargs)


def position_from_text(text: str) -> RevirState:
    """A position of :data:`GAME` written as text (see :mod:`.positions`)."""
    return positions.position_from_text(GAME, text)


__all__ = [
    "GAME",
    "Bid",
    "Fight",
    "FightState",
    "Hunt",
    "Move",
    "Pass",
    "RevirAction",
    "RevirGame",
    "RevirOptions",
    "RevirState",
    "Stay",
    "Surrender",
    "build_position",
    "position_from_text",
]
