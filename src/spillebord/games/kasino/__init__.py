"""Kasino: the Danish fishing card game for 2–4 players.

How it is played here (in full: docs/rules/kasino.md). Each round the dealer
gives everybody 4 cards and lays 4 face up; when all hands are empty, 4 more
each ("sidsten" on the last hand). On your turn play ONE card and do one
thing with it:

  9H trail               lay it on the table (udsmide)
  9H take 3S+6D,2C+7D    capture groups each worth the card (matche,
                         kombinere); a build is a group: 9H take B7D
  5S clear               ♠5 takes the whole table (spar 5 rydder bordet)
  2S build 9 on 7D       bygger ni (keep a 9!); "… gather 4C+5H,9C" piles
                         equal groups in (loose 9s must go in); 7S build 7
                         on 7D is "mere syv"
  AS raise B7D to 10     bygger videre (simple builds only)
  4C extend B7D with 5H  bygger mere (or 9C extend B7D; "… gather …"); a
                         second 9 goes onto the 9 already built ("samme bunke")

A = 1/14, ♠2 = 2/15, ♦10 = 10/16. After building you must capture next
turn if you can, and keep a card that takes your build. Emptying the
table is a sweep (svupper); the last capturer gets the rest (sidsten).
Points: most spades 2, most cards 1, ♦10 2, ♠2 1, aces 1 each, sidsten 1,
sweeps 1 each (they cancel). First to 21 wins.
"""

from __future__ import annotations

from . import bots
from .actions import Build, Capture, Clear, Extend, KasinoAction, Raise, Trail
from .options import KasinoOptions
from .rules import BuildPile, KasinoGame, KasinoState
from .scoring import Tally, score_round

GAME = KasinoGame()
bots.register(GAME)

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
