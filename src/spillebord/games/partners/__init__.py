"""Partners: four colours race round a ring of 60 squares into their houses, driven by cards,
in two partnerships (Yellow+Blue against Red+Green) that pass each other one card every deal.
A game by Thomas Bisgaard (1998), rules after spilregler.dk; the whole text is in
docs/rules/partners.md.

2–4 people: the board always has four colour seats; with 2 people each plays a partnership,
with 3 one person plays Yellow+Blue. Each deal gives everybody 4 cards. First every seat
passes one card face down to its partner:

  give h8                   (cards: heart, a114 (1/14), n2 n3 n5 n6 n9 n10 n12, m4 (-4),
                             s7 (split 7), h8 (8 or start), h13 (13 or start), swap)

Then, clockwise from the dealer's left, play one card and its move:

  start heart               a piece from the start circle onto your start field
  play n5 y12 r3            a piece 5 forward (card, from, to); play a114=14 ys y14
  play m4 y2 g12            four back (the start fields are never counted)
  seven y3 2 y5             the 7 split into parts: then seven y10 5 r1
  swap r3 b7                two lone pieces on numbered squares change places
  discard                   no usable card: lay the whole hand down

Landing on a lone foreign piece knocks it out; two of a colour on a square are protected (a
piece landing there goes out itself); a piece on its own start field blocks everyone else.
Your pieces must enter your house with exact steps; once they are all home you move your
partner's. The partnership with all eight pieces home wins.
"""

from __future__ import annotations

from . import bots
from .actions import Discard, Give, Move, PartnersAction, Seven, Start, StopSplit, Swap
from .options import PartnersOptions
from .rules import PartnersGame, PartnersState

GAME = PartnersGame()
bots.register(GAME)

__all__ = [
    "GAME",
    "Discard",
    "Give",
    "Move",
    "PartnersAction",
    "PartnersGame",
    "PartnersOptions",
    "PartnersState",
    "Seven",
    "Start",
    "StopSplit",
    "Swap",
]
