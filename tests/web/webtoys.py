"""Games for the browser tests of the end screen (registered in the test server with
``--register``): the toy game with a decision bound of 3, so that every game is truncated."""

from __future__ import annotations

from spillebord.core import GameKind
from toygame import ToyGame


class TruncatedToy(ToyGame):
    id = "toytrunc"
    title = "Truncated toy"
    kind = GameKind(hidden_information=True, chance=True, public_actions=True, max_decisions=3)


TRUNC = TruncatedToy()
