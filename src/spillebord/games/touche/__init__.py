"""Touché (Tactic; Norwegian rules "TOUCHÉ"): play cards to put markers on their spaces of a
112-cell board and crown squares, lines, T's and crosses before the other side does.

How it is played here (rules: docs/rules/touche.md). 2 or 3 play alone, 4 or 6 in pairs
sharing a colour (purple, blue, yellow). Every card is dealt into face-down piles; each player
holds 5. The dealer picks the grade: 1 squares, 2 lines of five, 3 T's, 4 crosses, 5 one of
each kind; crown 4 (three sides: 3) squares, or 3 (2) of the others, to win the game.
On your turn do ONE thing:

  place 7D r4c1          play a card, marker on one of its two spaces (rNcM)
  place JK r3c2          a joker: any empty space, or replace another colour's
                         uncrowned marker
  place 2C r1c5          any card on a free space, but only as the last marker of a pattern
  exchange 5D+KH         trade in dead cards (both spaces taken); no marker this turn
  pass                   only when nothing else is possible
  crown r3c0+r3c1+…      one marker completed several patterns: pick the one to crown

A completed pattern is crowned for good ("Touché!"); then every uncrowned marker leaves the
board, the deal passes left and a new round starts. Points for a won game: 5/10/15/20/25 by
grade, 25 when no other side crowned anything. The match is best of 3 games.
"""

from __future__ import annotations

from . import bots
from .actions import ChooseGrade, Crown, Exchange, Pass, Place, ToucheAction
from .options import ToucheOptions
from .rules import ToucheGame, ToucheState

GAME = ToucheGame()
bots.register(GAME)

__all__ = [
    "GAME",
    "ChooseGrade",
    "Crown",
    "Exchange",
    "Pass",
    "Place",
    "ToucheAction",
    "ToucheGame",
    "ToucheOptions",
    "ToucheState",
]
