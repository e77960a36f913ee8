"""Partners positions from text (for tests, puzzles and bug reports).

A position is written as lines (or ``;``-separated parts):

    Y@Y3 Y@Y10 R@RS B@BH1 B@BH2      pieces: colour letter @ square id (docs/rules/partners.md)
    yellow: s7 n5 swap               a colour seat's hand (card codes, any case); "-" or nothing: empty
    red: heart
    turn: yellow                     the colour seat to act (default yellow)

Pieces not placed wait in their start circles; hands not named are empty. The state is the
first deal of a game (dealer and RNG from ``seed``) put into the play phase with the named seat
to act; every card not in a hand is in the undealt deck, so the cards stay conserved.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import board as B
from .data import CIRCLE, COLOURS, LETTERS, parse_square, sort_cards
from .options import PartnersOptions, deck_of
from .rules import PartnersState


def board(pieces: str, n: int = 4) -> B.Board:
    """``"Y@G13 R@RS B@R5 B@R5 Y@YH2"`` → a board of ``n`` pieces a colour; unlisted pieces
    wait in their start circles. Raises ValueError on a bad token or too many pieces."""
    pos: list[list[int]] = [[], [], [], []]
    for tok in pieces.split():
        col, at, sq = tok.partition("@")
        if not at or col.upper() not in LETTERS:
            raise ValueError(f"Partners: a piece is COLOUR@SQUARE (Y@G13), not {tok!r}")
        c = LETTERS.index(col.upper())
        try:
            _, p = parse_square(sq)
        except (KeyError, ValueError):
            raise ValueError(f"Partners: no square {sq!r} in {tok!r}") from None
        pos[c].append(p)
    for c in range(4):
        if len(pos[c]) > n:
            raise ValueError(f"Partners: {COLOURS[c]} has only {n} pieces")
        pos[c] += [CIRCLE] * (n - len(pos[c]))
    return tuple(tuple(sorted(x)) for x in pos)


def position(
    pieces: str = "",
    hands: Mapping[int, Iterable[str]] | None = None,
    *,
    turn: int = 0,
    options: PartnersOptions | None = None,
    seats: int = 4,
    seed: int = 0,
    **option_values: Any,
) -> PartnersState:
    """A state in the play phase: ``pieces`` on the board, ``hands`` (colour seat → card
    codes), colour seat ``turn`` to act. The other cards are in the deck (cards conserved)."""
    from . import GAME

    o = options or PartnersOptions(**option_values)
    s = GAME.new(seats, seed, o)
    s.pos = board(pieces, o.pieces_per_colour)
    hs: list[tuple[str, ...]] = [(), (), (), ()]
    for k, h in (hands or {}).items():
        hs[k] = sort_cards([c.upper() for c in h])
    deck = list(deck_of(o))
    for h in hs:
        for card in h:
            if card not in deck:
                raise ValueError(f"Partners: the deck has no more {card} cards")
            deck.remove(card)
    s.hands = tuple(hs)
    s.deck = tuple(deck)
    s.discard = ()
    s.hdisc = ((), (), (), ())
    s.phase = "play"
    s._set_turn(turn)
    s._legal = None
    s.check()
    return s


def from_text(
    text: str, options: PartnersOptions | None = None, seats: int = 4, **option_values: Any
) -> PartnersState:
    """The position ``text`` describes (see the module docstring)."""
    pieces: list[str] = []
    hands: dict[int, list[str]] = {}
    turn = 0
    for part in text.replace(";", "\n").splitlines():
        head, colon, rest = part.partition(":")
        key = head.strip().lower()
        if not colon:
            pieces += part.split()
        elif key in COLOURS:
            hands[COLOURS.index(key)] = [c for c in rest.split() if c != "-"]
        elif key == "turn":
            name = rest.strip().lower()
            if name not in COLOURS:
                raise ValueError(f"Partners: turn names a colour ({', '.join(COLOURS)}), not {name!r}")
            turn = COLOURS.index(name)
        else:
            raise ValueError(
                f"Partners: a position line is pieces, COLOUR: cards or turn: COLOUR, not {part!r}"
            )
    return position(" ".join(pieces), hands, turn=turn, options=options, seats=seats, **option_values)
