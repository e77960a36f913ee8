"""Helpers for the Partners tests: build positions from a compact description."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from spillebord.games.partners import GAME
from spillebord.games.partners import board as B
from spillebord.games.partners.data import CIRCLE, LETTERS, parse_square, sort_cards, square_id
from spillebord.games.partners.rules import PartnersOptions, PartnersState, deck_of


def board(pieces: str, n: int = 4) -> B.Board:
    """``"Y@G13 R@RS B@R5 B@R5 Y@YH2"`` → a board; unlisted pieces wait in their start circles."""
    pos: list[list[int]] = [[], [], [], []]
    for tok in pieces.split():
        col, sq = tok.split("@")
        c = LETTERS.index(col.upper())
        _, p = parse_square(sq)
        pos[c].append(p)
    for c in range(4):
        assert len(pos[c]) <= n
        pos[c] += [CIRCLE] * (n - len(pos[c]))
    return tuple(tuple(sorted(x)) for x in pos)


def make(
    pieces: str = "",
    hand: Iterable[str] = ("N5",),
    seat: int = 0,
    others: dict[int, Iterable[str]] | None = None,
    n: int = 4,
    **options: Any,
) -> PartnersState:
    """A state in the play phase with ``seat`` to act holding ``hand``; cards conserved."""
    o = PartnersOptions(pieces_per_colour=n, **options)
    s = GAME.new(4, 0, o)
    s.pos = board(pieces, n)
    hands: list[tuple[str, ...]] = [(), (), (), ()]
    hands[seat] = sort_cards(list(hand))
    if others is None:  # everyone else holds one card, so the deal goes on after this turn
        others = {k: ("N3",) for k in range(4) if k != seat}
    for k, h in others.items():
        hands[k] = sort_cards(list(h))
    deck = list(deck_of(o))
    for h in hands:
        for card in h:
            deck.remove(card)
    s.hands = tuple(hands)
    s.deck = tuple(deck)
    s.discard = ()
    s.hdisc = ((), (), (), ())
    s.phase = "play"
    s._set_turn(seat)
    s._legal = None
    s.check()
    return s


def act(s: PartnersState, text: str) -> list[dict[str, Any]]:
    return s.play(GAME.parse(s, text))


def texts(s: PartnersState, prefix: str = "") -> list[str]:
    return [t for t in s.legal_texts() if t.startswith(prefix)]


def on(s: PartnersState | B.Board, colour: str) -> list[str]:
    """The squares of a colour's pieces outside the start circle, in board order."""
    pos = s.pos if isinstance(s, PartnersState) else s
    c = LETTERS.index(colour)
    return [square_id(c, p) for p in pos[c] if p != CIRCLE]


def in_circle(s: PartnersState | B.Board, colour: str) -> int:
    pos = s.pos if isinstance(s, PartnersState) else s
    return pos[LETTERS.index(colour)].count(CIRCLE)


def fwd(pieces: str, colour: str, square: str, n: int, **kw: bool) -> list[B.Board]:
    """Every board after moving a ``colour`` piece on ``square`` ``n`` steps forward (the engine's
    own step and landing functions); empty when illegal."""
    pos = board(pieces)
    c = LETTERS.index(colour)
    _, p = parse_square(square)
    optional, bounce = kw.get("optional", False), kw.get("bounce", False)
    ends = B.walk(c, p, n, B.blockers(pos), B.house_mask(pos[c]), optional, bounce)
    return [B.land(pos, c, p, e)[0] for e in ends]


def sq(text: str) -> int:
    return parse_square(text)[1]
