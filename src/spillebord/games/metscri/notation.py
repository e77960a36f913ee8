"""Metscri notation: any well-formed action text to its action, legal now or not (so that
``play`` can say why an action is illegal rather than only that it is unknown)."""

from __future__ import annotations

import re

from spillebord.core import ParseError

from .actions import WORDS, Collect, Enter, MetscriAction, Move, Reveal, Spy, Turn
from .data import CARD_INDEX, SQ_INDEX

TITLE = "Metscri"

_SQ_RE = r"r[0-6]c[0-6]"
_MOVE_RE = re.compile(rf"^move ({_SQ_RE}) ({_SQ_RE})$")
_ENTER_RE = re.compile(rf"^enter (\S+) ({_SQ_RE})$")
_ONE_RE = re.compile(rf"^(turn|spy|reveal) ({_SQ_RE})$")
_COLLECT_RE = re.compile(rf"^collect((?: {_SQ_RE})+)$")
_ON_SQUARE: dict[str, type[Turn] | type[Spy] | type[Reveal]] = {"turn": Turn, "spy": Spy, "reveal": Reveal}


def parse_action(text: str) -> MetscriAction:
    """The action written ``text`` (stripped); :class:`ParseError` if it is not a Metscri action.

    Squares must be squares (not corners) and cards real card ids; a group's squares are
    sorted, so ``collect r2c3 r1c2`` is the same action as ``collect r1c2 r2c3``.
    """
    word = WORDS.get(text)
    if word is not None:
        return word
    m = _MOVE_RE.match(text)
    if m and m.group(1) in SQ_INDEX and m.group(2) in SQ_INDEX:
        return Move(SQ_INDEX[m.group(1)], SQ_INDEX[m.group(2)])
    m = _ENTER_RE.match(text)
    if m and m.group(1) in CARD_INDEX and m.group(2) in SQ_INDEX:
        return Enter(CARD_INDEX[m.group(1)], SQ_INDEX[m.group(2)])
    m = _ONE_RE.match(text)
    if m and m.group(2) in SQ_INDEX:
        return _ON_SQUARE[m.group(1)](SQ_INDEX[m.group(2)])
    m = _COLLECT_RE.match(text)
    if m:
        names = m.group(1).split()
        if all(n in SQ_INDEX for n in names) and len(set(names)) == len(names):
            return Collect(tuple(sorted(SQ_INDEX[n] for n in names)))
    raise ParseError(f"{TITLE}: {text!r} is not a Metscri action")
