"""Reading Fuldrigger action texts (the inverse of ``str(action)``, see :mod:`.actions`).

Any well-formed text is read, legal now or not, so that ``play`` can say why an illegal
order is refused ("FINI is not next to LON"). A text equal to a legal action's gives that
very action (``parse(str(a)) == a``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core import GameOver, ParseError

from .actions import BY_VERB, FuldriggerAction

if TYPE_CHECKING:
    from .rules import FuldriggerState

TITLE = "Fuldrigger"


def parse(state: FuldriggerState, text: str) -> FuldriggerAction:
    """The action written ``text`` (words separated by spaces; ids as in the view)."""
    if state.to_act is None:
        raise GameOver(f"{TITLE}: the game is over")
    words = text.split()
    cls = BY_VERB.get(words[0]) if words else None
    if cls is None or len(cls.arg_names) != len(words) - 1:
        raise ParseError(f"{TITLE}: {text.strip()!r} is not an order (try e.g. 'sail s1 DOVR' or 'end')")
    canonical = " ".join(words)
    for a in state.legal():
        if str(a) == canonical:
            return a
    try:
        return cls.from_words(words[1:])
    except ValueError as e:
        raise ParseError(f"{TITLE}: {text.strip()!r} is not an order: {e}") from None
