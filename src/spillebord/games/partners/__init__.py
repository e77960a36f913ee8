"""Partners (spilregler.dk; Thomas Bisgaard, 1998): four colours race round a ring of 60
squares into their houses, driven by cards, in two partnerships that swap one card each deal.
2–4 people: the board always has four colour seats; with fewer people one person plays a
whole partnership.
"""

from __future__ import annotations

from .rules import PartnersGame, PartnersOptions, PartnersState

GAME = PartnersGame()

__all__ = ["GAME", "PartnersGame", "PartnersOptions", "PartnersState"]
