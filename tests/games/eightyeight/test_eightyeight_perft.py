"""Perft: the number of decision sequences of length 1–3 from fixed positions, counted by the
engine (``legal_counts``) and, independently, by a brute force over the rules themselves.

The brute force knows nothing of the engine's tables: it builds every tiling of every digit
by trying all 2^15 sets of the 15 piece placements of one position against the glyphs
(2.2–2.4), checks each option by its definition on placement sets (section 5), and follows
how a move is split into decisions (R7: the option and the number, then the tens tiling and
the units tiling where there is a choice; forced choices are automatic), the move order
(R6), and, after the last mover, the next setter's reading of the next two cards (R5, R10).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

import pytest

from spillebord.games.eightyeight import GAME, EightyEightState
from spillebord.testing import legal_counts

# ---------------------------------------------------------------- the rules, from scratch

GLYPHS = {
    0: "abcdef",
    1: "bc",
    2: "abdeg",
    3: "abcdg",
    4: "bcfg",
    5: "acdfg",
    6: "acdefg",
    7: "abc",
    8: "abcdefg",
    9: "abcdfg",
}
"""2.2: the segments of each digit (6 with the top bar, 9 with the bottom bar, 7 = abc)."""
CORNERS = ("af", "ab", "fg", "eg", "bg", "cg", "de", "cd")
"""2.3: the pairs of segments meeting at a right angle, the only places an L fits."""
PLACEMENTS = tuple(frozenset(x) for x in (*"abcdefg", *CORNERS))
GLYPH_DIGIT = {frozenset(v): d for d, v in GLYPHS.items()}

Tiling = frozenset[frozenset[str]]
"""One digit position: the set of its pieces, each the set of segments it covers."""
Panel = tuple[Tiling, Tiling]
"""(tens, units)."""


@cache
def tilings() -> dict[Tiling, int]:
    """Every exact cover of a glyph by non-overlapping placements → its digit."""
    out: dict[Tiling, int] = {}
    for bits in range(1, 1 << len(PLACEMENTS)):
        pieces = [p for i, p in enumerate(PLACEMENTS) if bits >> i & 1]
        covered = [c for p in pieces for c in p]
        if len(covered) != len(set(covered)):
            continue  # two pieces on one segment
        digit = GLYPH_DIGIT.get(frozenset(covered))
        if digit is not None:
            out[frozenset(pieces)] = digit
    return out


def pieces(p: Panel) -> tuple[int, int]:
    """(L pieces, straight pieces) on a panel."""
    items = [x for t in p for x in t]
    n_l = sum(len(x) == 2 for x in items)
    return n_l, len(items) - n_l


@cache
def panels() -> dict[Panel, int]:
    """2.4: every valid panel (both positions exact glyphs, at most 4 L and 6 straights)."""
    ts = tilings()
    out = {}
    for t, u in itertools.product(ts, ts):
        n_l, n_s = pieces((t, u))
        if n_l <= 4 and n_s <= 6:
            out[(t, u)] = 10 * ts[t] + ts[u]
    return out


def read(text: str) -> Panel:
    """``"fg b c|ab c"`` → the panel (each item a piece: two letters an L, one a straight)."""
    tens, units = text.split("|")
    return frozenset(frozenset(x) for x in tens.split()), frozenset(frozenset(x) for x in units.split())


@cache
def options(p: Panel) -> dict[tuple[str, int], tuple[Panel, ...]]:
    """Section 5: (option, resulting number) → the panels that option can leave."""
    all_p = panels()
    flat = {(i, x) for i, t in enumerate(p) for x in t}
    out: dict[tuple[str, int], list[Panel]] = {("stay", all_p[p]): [p]}
    for q, n in all_p.items():
        if q == p:
            continue
        fq = {(i, x) for i, t in enumerate(q) for x in t}
        if pieces(q) == pieces(p):
            out.setdefault(("rearrange", n), []).append(q)
        elif fq < flat:
            out.setdefault(("remove", n), []).append(q)
        elif fq > flat:
            out.setdefault(("add", n), []).append(q)
    return {k: tuple(v) for k, v in out.items()}


# ---------------------------------------------------------------- the decisions, counted


def after_move(ps: tuple[Panel, ...], order: Sequence[int], k: int, cards: Sequence[int], depth: int) -> int:
    """Decision sequences of length ``depth`` once the ``k``-th mover has finished."""
    if k + 1 < len(order):
        return move(ps, order, k + 1, cards, depth)
    # R9/R10: the round is scored, the next seat clockwise sets the next target (R5).
    if depth == 0:
        return 1
    x, y = cards[0], cards[1]
    setter = (order[0] + 1) % len(order)
    nxt = [(setter + i) % len(order) for i in range(len(order))]
    return sum(move(ps, nxt, 0, cards[2:], depth - 1) for _ in {10 * x + y, 10 * y + x})


def move(ps: tuple[Panel, ...], order: Sequence[int], k: int, cards: Sequence[int], depth: int) -> int:
    """R6/R7: the ``k``-th mover declares an option and a number, then picks the tilings."""
    if depth == 0:
        return 1
    seat = order[k]
    total = 0
    for results in options(ps[seat]).values():
        total += tiling_choices(ps, order, k, cards, list(results), None, depth - 1)
    return total


def tiling_choices(
    ps: tuple[Panel, ...],
    order: Sequence[int],
    k: int,
    cards: Sequence[int],
    results: list[Panel],
    tens: Tiling | None,
    depth: int,
) -> int:
    """The tens tiling, then the units tiling, each a decision only when there is a choice."""
    seat = order[k]
    if tens is None:
        choices = {q[0] for q in results}
        if len(choices) > 1:
            if depth == 0:
                return 1
            return sum(
                tiling_choices(ps, order, k, cards, [q for q in results if q[0] == t], t, depth - 1)
                for t in choices
            )
        tens = next(iter(choices))
    units = {q[1] for q in results if q[0] == tens}
    if len(units) == 1:
        done = (*ps[:seat], (tens, next(iter(units))), *ps[seat + 1 :])
        return after_move(done, order, k, cards, depth)
    if depth == 0:
        return 1
    return sum(
        after_move((*ps[:seat], (tens, u), *ps[seat + 1 :]), order, k, cards, depth - 1) for u in units
    )


def brute_force(
    texts: Sequence[str], setter: int, deck: Sequence[int], depth: int, cards: Sequence[int] = ()
) -> int:
    """Sequences of ``depth`` decisions from the panels ``texts``: with ``cards`` the setter is
    to read them (R5), otherwise the setter is to move; ``deck`` is the draw pile, top first."""
    ps = tuple(read(t) for t in texts)
    n = len(ps)
    order = [(setter + i) % n for i in range(n)]
    if not cards:
        return move(ps, order, 0, deck, depth)
    if depth == 0:
        return 1
    x, y = cards
    return sum(move(ps, order, 0, deck, depth - 1) for _ in {10 * x + y, 10 * y + x})


# ---------------------------------------------------------------- the positions

MOVE = (["fg b c|ab c", "b c|b c"], 0)
"""Example D (47) against Example C (11): the setter, seat 0, to move with the target 47."""
TARGET = (["af b cd e|ab c de f", "b c|af bg cd e", "b c|ab c de f"], 1)
"""Examples E (00), F (18) and G (10); seat 1 sets the target from the cards 0 and 3."""


def test_brute_force_knows_the_geometry() -> None:
    # 2.5 / 2.7, from the rule text: 107 tilings, 6,473 panels, every number buildable.
    assert len(tilings()) == 107
    assert len(panels()) == 6473 and set(panels().values()) == set(range(100))


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_from_a_move(depth: int) -> None:
    texts, setter = MOVE
    s = GAME.position(texts, setter=setter, target=47)
    assert isinstance(s, EightyEightState)
    want = brute_force(texts, setter, s.deck, depth)
    assert legal_counts(s, depth) == want
    if depth == 1:
        assert want == 23  # Example D: 1 stay + 8 rearrange + 1 remove + 13 add


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_from_a_target_choice(depth: int) -> None:
    texts, setter = TARGET
    s = GAME.position(texts, setter=setter, cards=(0, 3))
    assert isinstance(s, EightyEightState)
    want = brute_force(texts, setter, s.deck, depth, cards=(0, 3))
    assert legal_counts(s, depth) == want
    if depth == 1:
        assert want == 2  # R5: 03 or 30
    if depth == 2:
        assert want == 2 * 22  # Example F: 1 stay + 14 rearrange + 1 remove + 6 add
