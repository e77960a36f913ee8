"""Partners notation: any well-formed action text to its action (see :mod:`.actions` for the
forms), not only the legal ones, so that ``play`` can say why an illegal action is refused."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core import GameOver, IllegalAction, ParseError

from . import board as B
from .actions import Discard, Give, Move, PartnersAction, Seven, Start, StopSplit, Swap
from .data import CARD_TYPES, TRACK, parse_square

if TYPE_CHECKING:
    from .rules import PartnersState


def _card(text: str) -> tuple[str, int | None]:
    code, _, value = text.upper().partition("=")
    if code not in CARD_TYPES:
        raise ParseError(f"Partners: no card {text!r}; cards are {', '.join(c.lower() for c in CARD_TYPES)}")
    try:
        return code, int(value) if value else None
    except ValueError:
        raise ParseError(f"Partners: bad card value in {text!r}") from None


def _square(text: str, colour: int) -> tuple[int, int]:
    """(colour, position) of a square id; a house or circle id names its colour."""
    try:
        c, p = parse_square(text)
    except (KeyError, ValueError):
        raise ParseError(f"Partners: no square {text!r}") from None
    return (colour if c is None else c), p


def parse(state: PartnersState, text: str) -> PartnersAction:
    """The action ``text`` names: one of ``state.legal()`` when it is legal (fast path), else
    the well-formed action it describes. Raises :class:`ParseError` on text that is not a
    Partners action, :class:`GameOver` when the game is over."""
    if state.to_act is None:
        raise GameOver("Partners: the game is over")
    text = text.strip()
    for a in state.legal():
        if str(a) == text:
            return a
    return parse_action(state, text)


def parse_action(state: PartnersState, text: str) -> PartnersAction:
    """The well-formed action ``text`` describes, legal or not; pieces named by square are
    taken to be of the acting seat's active colour (a house or circle id names its own)."""
    words = text.strip().lower().split()
    seat = state.turn
    assert seat is not None
    a = B.active_colour(state.pos, seat)
    try:
        if words == ["discard"]:
            return Discard()
        if words == ["seven", "stop"]:
            return StopSplit()
        if len(words) == 2 and words[0] == "give":
            return Give(_card(words[1])[0])
        if len(words) == 2 and words[0] == "start":
            return Start(_card(words[1])[0], a)
        if len(words) == 4 and words[0] == "play":
            code, value = _card(words[1])
            t = CARD_TYPES[code]
            if value is None:
                value = t.forward[0] if t.forward else -t.backward
            if t.backward and value > 0:
                value = -value
            c, frm = _square(words[2], a)
            _, to = _square(words[3], c)
            return Move(code, value, c, frm, to)
        if len(words) == 4 and words[0] == "seven":
            c, frm = _square(words[1], a)
            _, to = _square(words[3], c)
            return Seven(c, frm, int(words[2]), to)
        if len(words) == 3 and words[0] == "swap":
            out = []
            for w in words[1:]:
                _, p = _square(w, a)
                o, _k = B.occupant(state.pos, p) if 0 <= p < TRACK else (-1, 0)
                if o < 0:
                    raise IllegalAction(f"Partners: there is no piece on {w.upper()} to swap")
                out.append((o, p))
            (c1, p1), (c2, p2) = sorted(out, key=lambda x: x[1])
            return Swap(c1, p1, c2, p2)
    except ValueError:
        pass
    raise ParseError(f"Partners: {text.strip()!r} is not a Partners action")
