"""Partners (spilregler.dk): four colours race round a 60-square ring in two partnerships.

``GAME`` is the registered :class:`~.rules.PartnersGame`; see :mod:`.rules` for how a turn
decomposes into decisions and :mod:`.data` for the board and the deck profiles.
"""

from __future__ import annotations

from .rules import PartnersGame, PartnersOptions, PartnersState

GAME = PartnersGame()

__all__ = ["GAME", "PartnersGame", "PartnersOptions", "PartnersState"]
