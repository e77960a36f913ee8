"""Text to actions: every well-formed Revir action parses, legal now or not, so that ``play``
can say why an action is refused (closed doors, too few stones, no Råttspår card…).

The forms are those of ``str(action)``; words are case-insensitive and square ids are read
in upper case: ``stay``, ``move KO``, ``fight LO``, ``hunt HS``, ``pass``, ``bid 3``,
``surrender``.
"""

from __future__ import annotations

from collections.abc import Callable

from spillebord.core.errors import ParseError

from .actions import Bid, Fight, Hunt, Move, Pass, RevirAction, Stay, Surrender

TITLE = "Revir"

_WORDS: dict[str, RevirAction] = {"stay": Stay(), "pass": Pass(), "surrender": Surrender()}
_SQUARE: dict[str, Callable[[str], RevirAction]] = {"move": Move, "fight": Fight, "hunt": Hunt}


def parse_action(text: str) -> RevirAction:
    """The action written as ``text``; :class:`ParseError` naming the forms otherwise."""
    words = text.strip().split()
    if len(words) == 1 and words[0].lower() in _WORDS:
        return _WORDS[words[0].lower()]
    if len(words) == 2:
        w, arg = words[0].lower(), words[1]
        if w in _SQUARE:
            return _SQUARE[w](arg.upper())
        if w == "bid" and arg.isascii() and arg.isdigit():
            return Bid(int(arg))
    raise ParseError(
        f"{TITLE}: {text!r} is not an action (stay, move XX, fight XX, hunt XX, pass, bid N, surrender)"
    )
