"""Metscri (Ole Høyer Hansen, 2019): a board game for 2–8 players with two card decks and a die.

Roll for action points (push your luck), then Move, Enter, Turn, Spy, Collect, Return and
Invest on a 7x7 board without corners; matched groups of equal symbols score by their
distance from the rim. The first to reach the target (72, 48, 36, 29, 24, 21, 18 M-points for
2..8 players) wins. The full rules: ``docs/rules/metscri.md``.

How a turn is played here (one decision at a time)
--------------------------------------------------
1. Earn action points (AP): ``roll`` until ``stop``. The first roll always counts; a roll
   lower than the previous one loses the whole turn (0 AP, play passes on).
2. Spend them, in the fixed order Move, Enter, Turn, Spy, Collect, (Return), Invest. In each
   phase you may do that phase's action again and again, ``next`` closes the phase and goes on
   to the next one that has something to do, ``done`` ends the turn (leftover AP are lost):

   * ``move r0c5 r0c3``: the top card of the first square slides over empty squares, or steps
     one or two levels up or down onto a neighbour; 1 AP.
   * ``enter 9Ha r0c3``: a hand card face down onto a rim square (at most 3 cards a square);
     2 AP.
   * ``turn r1c3``: a face-down top card face up for all to see; the k-th of a turn costs k-1.
   * ``spy r1c4``: look at a face-down top card yourself; ring + 1 AP (rim 1 … centre 4).
     Right after it, ``reveal r1c4`` turns it face up for free.
   * ``collect r1c2 r1c3 r2c3``: a group of face-up cards lying next to each other: at least
     one symbol card (3..K, all the same rank) plus jokers (2 small, ace big, counting double),
     weighing 3 or more. A symbol card scores ring + 1, a joker 1.
   * Return: whatever is still face up is turned face down as you leave Collect (automatic).
   * ``invest``: the top card of the buy pile into your hand; 2 AP.

   A phase with nothing possible is skipped, and the turn ends by itself when no phase is left.

Squares are ``r<row>c<col>`` (``r0c1`` … ``r6c5``; the corners are not squares); cards are
rank + suit + deck letter (``9Ha``, ``10Cb``, ``ASa``). The options (readings A1–A24 of the
rules) are listed by ``spillebord games metscri``.
"""

from typing import Any

from . import bots
from .actions import (
    Collect,
    EndPhase,
    EndTurn,
    Enter,
    Invest,
    MetscriAction,
    Move,
    Reveal,
    Roll,
    Spy,
    Stop,
    Turn,
)
from .options import MetscriOptions
from .position import parse_position
from .rules import MetscriGame, MetscriState

GAME = MetscriGame()
bots.register(GAME)


def position(text: str, **options: Any) -> MetscriState:
    """A position of :data:`GAME` from its text form (see :mod:`spillebord.games.metscri.position`)."""
    return parse_position(GAME, text, **options)


__all__ = [
    "GAME",
    "Collect",
    "EndPhase",
    "EndTurn",
    "Enter",
    "Invest",
    "MetscriAction",
    "MetscriGame",
    "MetscriOptions",
    "MetscriState",
    "Move",
    "Reveal",
    "Roll",
    "Spy",
    "Stop",
    "Turn",
    "position",
]
