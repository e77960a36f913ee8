"""Reading action texts (the inverse of ``str(action)``, see ``actions.py``).

Any well-formed text is read; when it names the same effect as a legal action (the same
card and the same set taken, in any grouping or order) that legal action is returned, so
``parse(str(a)) == a``; otherwise the action as written is returned and ``play`` explains
why it is illegal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core import GameOver, ParseError

from .actions import BUILD_CODE, Build, Capture, Clear, Extend, KasinoAction, Raise, Trail
from .data import CARD_INDEX

if TYPE_CHECKING:
    from .rules import KasinoState

TITLE = "Kasino"


def _err(text: str, why: str) -> ParseError:
    return ParseError(f"{TITLE}: cannot read {text!r}: {why}")


SUIT_LETTERS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"})
"""The suit symbols the pictures print, as the letters of the action texts (``Q♦`` = ``QD``)."""


def _card(tok: str, text: str) -> int:
    c = CARD_INDEX.get(tok.translate(SUIT_LETTERS).strip("[]").upper())
    if c is None:
        raise _err(text, f"{tok!r} is not a card (write e.g. AS, 10D, KH, or Q♦)")
    return c


def _item(tok: str, text: str) -> int:
    if tok[:1] in ("B", "b") and tok.translate(SUIT_LETTERS).upper() not in CARD_INDEX:
        return BUILD_CODE + _card(tok[1:], text)
    return _card(tok, text)


def _groups(tok: str, text: str) -> tuple[tuple[int, ...], ...]:
    out = []
    for g in tok.split(","):
        if not g:
            raise _err(text, "an empty group")
        out.append(tuple(_item(i, text) for i in g.split("+")))
    return tuple(out)


def _cards(tok: str, text: str) -> tuple[int, ...]:
    return tuple(_card(i, text) for i in tok.split("+"))


def _int(tok: str, text: str) -> int:
    try:
        return int(tok)
    except ValueError:
        raise _err(text, f"{tok!r} is not a number") from None


def read(text: str, hand_masks: tuple[int, ...], table_masks: tuple[int, ...]) -> KasinoAction:
    """The action written in ``text`` (no legality check beyond: no card named twice)."""
    a = _read(text, hand_masks, table_masks)
    named: list[int] = [a.card]
    if isinstance(a, Capture):
        named += [i for g in a.groups for i in g]
    elif isinstance(a, Build):
        named += list(a.base) + [i for g in a.gather for i in g]
    elif isinstance(a, Extend):
        named += list(a.with_) + [i for g in a.gather for i in g]
    if len(named) != len(set(named)):
        raise _err(text, "a card is named twice")
    return a


def _read(text: str, hand_masks: tuple[int, ...], table_masks: tuple[int, ...]) -> KasinoAction:
    toks = text.split()
    if len(toks) < 2:
        raise _err(text, "expected '<card> trail|take|clear|build|raise|extend …'")
    h = _card(toks[0], text)
    verb = toks[1].lower()
    rest = toks[2:]
    if verb == "trail" and not rest:
        return Trail(h)
    if verb == "clear" and not rest:
        return Clear(h)
    if verb == "take" and len(rest) == 1:
        return Capture(h, _groups(rest[0], text))
    if verb == "build" and len(rest) in (3, 5) and rest[1].lower() == "on":
        value = _int(rest[0], text)
        base = _cards(rest[2], text)
        gather: tuple[tuple[int, ...], ...] = ()
        if len(rest) == 5:
            if rest[3].lower() != "gather":
                raise _err(text, "expected 'gather'")
            gather = _groups(rest[4], text)
        same = (
            len(base) == 1
            and 0 < value < 64
            and bool(hand_masks[h] >> value & 1)
            and bool(table_masks[base[0]] >> value & 1)
        )
        return Build(h, value, base, gather, same)
    if verb == "raise" and len(rest) == 3 and rest[1].lower() == "to":
        b = _item(rest[0], text)
        if b < BUILD_CODE:
            raise _err(text, "name the build as B<card>, e.g. B7D")
        return Raise(h, b - BUILD_CODE, _int(rest[2], text))
    if verb == "extend" and rest:
        b = _item(rest[0], text)
        if b < BUILD_CODE:
            raise _err(text, "name the build as B<card>, e.g. B7D")
        with_: tuple[int, ...] = ()
        gather = ()
        i = 1
        if i + 1 < len(rest) and rest[i].lower() == "with":
            with_ = _cards(rest[i + 1], text)
            i += 2
        if i + 1 < len(rest) and rest[i].lower() == "gather":
            gather = _groups(rest[i + 1], text)
            i += 2
        if i != len(rest):
            raise _err(text, "expected '<card> extend B<card> [with <cards>] [gather <groups>]'")
        return Extend(h, b - BUILD_CODE, with_, gather)
    raise _err(text, "expected '<card> trail|take|clear|build|raise|extend …'")


def parse_action(state: KasinoState, text: str) -> KasinoAction:
    """``KasinoGame.parse``: the legal action ``text`` names (in any grouping or order), or the
    action as written when it is well-formed but not legal now (``play`` says why)."""
    text = text.strip()
    if state.to_act is None:
        raise GameOver(f"{TITLE}: the game is over")
    legal = state.legal()
    for a in legal:
        if str(a) == text:
            return a
    a = read(text, state._hm, state._tm)
    key = a.key()
    for x in legal:
        if type(x) is type(a) and x.key() == key:
            return x
    return a
