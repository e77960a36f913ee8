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

from .rules import GAME, RevirGame, RevirOptions, RevirState, build_position

__all__ = ["GAME", "RevirGame", "RevirOptions", "RevirState", "build_position"]
