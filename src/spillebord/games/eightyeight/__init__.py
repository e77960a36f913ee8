"""88 (Digital Dramatik): build, on your seven-segment panel, the number closest to the target.

How it is played here (rules: docs/rules/88.md). Each player has a two-digit display panel
and 4 L pieces (covering two segments at a corner) and 6 straight pieces (one segment).

  lay 47              setup: lay any number (then "tens …"/"units …" if several tilings
                      show it); by default in secret, revealed when all have laid
  target 74           the Target Setter reads the two drawn cards as 47 or 74
  stay                keep your panel (Stå kvar)
  rearrange 31        move your pieces anywhere, same pieces (Arrangera om)
  remove 17           take pieces away, the rest untouched (Ta bort)
  add 88              add pieces from your supply, the rest untouched (Lägga till)
  tens ab c           the tiling of a digit, when the chosen number can be laid several ways

The setter moves first, then clockwise. Distance counts via 00 (98 is 5 from 03). Pegs:
an exact hit gets 1 step (2 for 88); otherwise the closest player gets 1 (the setter wins
ties; two tied non-setters: nobody). The last hole only by an exact hit, alone or as the
setter. Points variant: penalties = distance (0 for a setter as close as anyone; doubled for
the others when the setter is exact); lowest total after 3 rounds each wins.

Public API besides ``GAME``: :func:`reachable` / :func:`reachable_panels` answer, for any
panel and option, which numbers / panels a move can produce (the web client and bots use
them); :func:`parse_panel` / :func:`panel_text` convert the ``"fg b c|ab c"`` notation;
``GAME.position(...)`` builds a position from text.
"""

from __future__ import annotations

from . import bots
from .actions import EightyEightAction, Lay, Move, Place, Stay, Target
from .data import (
    ALT,
    L_PAIRS,
    STANDARD,
    Geometry,
    distance,
    geometry,
    panel_text,
    parse_panel,
    reachable,
    reachable_panels,
)
from .options import EightyEightOptions, Options
from .rules import EightyEightGame, EightyEightState
from .scoring import apply_pegs, peg_awards, penalty_points

GAME = EightyEightGame()
bots.register(GAME)

__all__ = [
    "ALT",
    "GAME",
    "L_PAIRS",
    "STANDARD",
    "EightyEightAction",
    "EightyEightGame",
    "EightyEightOptions",
    "EightyEightState",
    "Geometry",
    "Lay",
    "Move",
    "Options",
    "Place",
    "Stay",
    "Target",
    "apply_pegs",
    "distance",
    "geometry",
    "panel_text",
    "parse_panel",
    "peg_awards",
    "penalty_points",
    "reachable",
    "reachable_panels",
]
