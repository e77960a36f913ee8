"""Touché notation: text -> action, for any well-formed action (legal or not), so that ``play``
can say why an action is illegal rather than only that it is unknown.

``grade N``, ``place CARD CELL``, ``exchange CARD+CARD…``, ``pass``, ``crown CELL+CELL…``; cards
as ``7D``, ``TH``, ``AS`` or ``JK``, cells as ``r3c4``. Case is free; exchange cards and crown
cells may come in any order (they are put in canonical order).
"""

from __future__ import annotations

from spillebord.core import ParseError

from .actions import ChooseGrade, Crown, Exchange, Pass, Place, ToucheAction
from .data import CARD_CELLS, CELL_INDEX, JOKER

TITLE = "Touché"


def _card(w: str) -> str:
    w = w.upper()
    if w != JOKER and w not in CARD_CELLS:
        raise ParseError(f"{TITLE}: {w!r} is not a card (like 7D, TH, AS or JK)")
    return w


def _cell(w: str) -> str:
    w = w.lower()
    if w not in CELL_INDEX:
        raise ParseError(f"{TITLE}: {w!r} is not a board cell (like r3c4)")
    return w


def parse_action(text: str) -> ToucheAction:
    """The action written as ``text``; :class:`ParseError` when it is not an action at all."""
    words = text.strip().split()
    if not words:
        raise ParseError(f"{TITLE}: empty action")
    verb, args = words[0].lower(), words[1:]
    if verb == "grade" and len(args) == 1 and args[0].isdigit():
        return ChooseGrade(int(args[0]))
    if verb == "place" and len(args) == 2:
        return Place(_card(args[0]), _cell(args[1]))
    if verb == "exchange" and len(args) == 1:
        return Exchange(tuple(sorted(_card(w) for w in args[0].split("+"))))
    if verb == "pass" and not args:
        return Pass()
    if verb == "crown" and len(args) == 1:
        cells = sorted((_cell(w) for w in args[0].split("+")), key=lambda n: CELL_INDEX[n])
        return Crown(tuple(cells))
    raise ParseError(
        f"{TITLE}: {text.strip()!r} is not an action (grade N, place CARD CELL, "
        "exchange CARD+CARD, pass, crown CELL+CELL…)"
    )
