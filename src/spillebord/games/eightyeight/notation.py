"""Reading action texts (the inverse of ``str(action)``, see :mod:`.actions`).

Any well-formed text is read, legal now or not, so that ``play`` can explain why an action
is refused. Spaces and case do not matter; ``take away NN`` is read as ``remove NN`` and the
letters of an L may come in any order (``gf`` is ``fg``).
"""

from __future__ import annotations

from spillebord.core import Action, ParseError

from .actions import LAY_ACTIONS, MOVES, STAY, TARGET_ACTIONS, Place
from .data import parse_tiling

TITLE = "88"

_MOVE_WORDS = frozenset(o for o, _ in MOVES)


def parse_action(text: str) -> Action:
    """The action ``text`` names; :class:`ParseError` when it names none."""
    t = " ".join(text.strip().lower().split())
    if t == "stay":
        return STAY
    head, _, rest = t.partition(" ")
    if head in ("tens", "units") and rest:
        try:
            return Place(head, parse_tiling(rest))
        except ValueError as e:
            raise ParseError(f"{TITLE}: {e}") from None
    if head == "take" and rest.startswith("away "):
        head, rest = "remove", rest[5:]
    if rest.isascii() and rest.isdigit() and len(rest) <= 2:
        n = int(rest)
        if head == "lay":
            return LAY_ACTIONS[n]
        if head == "target":
            return TARGET_ACTIONS[n]
        if head in _MOVE_WORDS:
            return MOVES[(head, n)]
    raise ParseError(
        f"{TITLE}: {text!r} is not an action (stay, rearrange NN, remove NN, add NN, "
        "target NN, lay NN, tens …, units …)"
    )


__all__ = ["parse_action"]
