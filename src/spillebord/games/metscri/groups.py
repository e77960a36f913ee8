"""Metscri groups (R21–R24): which face-up cards may be collected together, and their points.

Squares are bit positions of an int mask (``1 << square``); adjacency is the king's (R23).
"""

from __future__ import annotations

from collections.abc import Sequence

from .data import BIG_JOKER, KIND, KING_MASK, POINTS, RANK, SMALL_JOKER, SYMBOL
from .options import MetscriOptions


def group_weight_ok(kinds: Sequence[int], joker_rule: str, jokers_only: bool = False) -> bool:
    """R22/A10/A11: is a multiset of card kinds (ranks already checked equal) a valid group?"""
    s = sum(1 for k in kinds if k == SYMBOL)
    j2 = sum(1 for k in kinds if k == SMALL_JOKER)
    j1 = sum(1 for k in kinds if k == BIG_JOKER)
    if s == 0 and not jokers_only:
        return False
    if joker_rule == "strict_table":
        return s >= 3 or (j1 >= 1 and s >= 1) or (j2 >= 1 and s >= 2) or (s == 0 and j2 + 2 * j1 >= 3)
    return s + j2 + 2 * j1 >= 3


def _connected(mask: int) -> bool:
    """Is a set of squares (bitmask) one cluster under king adjacency?"""
    if mask == 0:
        return False
    start = mask & -mask
    seen = start
    frontier = start
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        nb = KING_MASK[low.bit_length() - 1] & mask & ~seen
        seen |= nb
        frontier |= nb
    return seen == mask


def _reach(start: int, mask: int) -> int:
    """The squares of ``mask`` connected (king adjacency, within ``mask``) to ``start``."""
    seen = start
    frontier = start
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        nb = KING_MASK[low.bit_length() - 1] & mask & ~seen
        seen |= nb
        frontier |= nb
    return seen


reach = _reach
"""The squares of a mask connected to a start square (public name for the rules)."""

connected = _connected
"""Whether a mask of squares is one king-adjacent cluster (public name for the bots)."""


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _submasks(mask: int) -> list[int]:
    """Every non-empty subset of ``mask``."""
    out = []
    sub = mask
    while sub:
        out.append(sub)
        sub = (sub - 1) & mask
    return out


def valid_group(cards_at: dict[int, int], squares: Sequence[int], opts: MetscriOptions) -> str | None:
    """Why the cards on ``squares`` (square -> card) are not a valid group (R22, R23); None if valid."""
    sym = [s for s in squares if KIND[cards_at[s]] == SYMBOL]
    jok = [s for s in squares if KIND[cards_at[s]] != SYMBOL]
    ranks = {RANK[cards_at[s]] for s in sym}
    if len(ranks) > 1:
        return "the symbol cards are not all of the same rank"
    if not group_weight_ok([KIND[cards_at[s]] for s in squares], opts.joker_rule, opts.jokers_only_groups):
        if not sym and not opts.jokers_only_groups:
            return "a group needs at least one symbol card"
        return "too few cards (symbols + small jokers + 2 x big jokers must be at least 3)"
    mode = opts.collect_adjacency
    allm = sum(1 << s for s in squares)
    if mode == "pairwise":
        for a in squares:
            if (allm & ~(1 << a)) & ~KING_MASK[a]:
                return "not every two cards of the group touch"
        return None
    if mode == "connected" or not sym:
        return None if _connected(allm) else "the cards do not lie next to each other"
    symm = sum(1 << s for s in sym)
    if not _connected(symm):
        return "the symbol cards do not lie next to each other"
    for j in jok:
        if not KING_MASK[j] & symm:
            return "a joker does not touch a symbol card of the group"
    return None


def enumerate_groups(cards_at: dict[int, int], opts: MetscriOptions) -> list[tuple[int, ...]]:
    """Every valid group (sorted square tuples) among the face-up cards ``cards_at``."""
    by_rank: dict[int, int] = {}
    jokers = 0
    for s, c in cards_at.items():
        if KIND[c] == SYMBOL:
            by_rank[RANK[c]] = by_rank.get(RANK[c], 0) | (1 << s)
        else:
            jokers |= 1 << s
    out: set[tuple[int, ...]] = set()
    mode = opts.collect_adjacency
    symbol_sets = [sub for m in by_rank.values() for sub in _submasks(m)]
    if opts.jokers_only_groups:
        symbol_sets.append(0)
    for smask in symbol_sets:
        # only jokers that can belong with these symbols (keeps the enumeration small)
        if smask == 0:
            near = jokers
        elif mode == "connected":
            near = _reach(smask, smask | jokers) & jokers
        else:
            if not _connected(smask):
                continue
            near = 0
            for b in bits(smask):
                near |= KING_MASK[b]
            near &= jokers
        for jmask in [0, *_submasks(near)]:
            if smask == 0 and jmask == 0:
                continue
            squares = bits(smask | jmask)
            if valid_group(cards_at, squares, opts) is None:
                out.add(tuple(squares))
    return sorted(out, key=lambda t: (len(t), t))


def group_points(cards: Sequence[tuple[int, int]]) -> int:
    """R24: jokers score 1; a symbol card scores ring + 1 of its square. ``cards``: (square, card)."""
    return sum(1 if KIND[c] != SYMBOL else POINTS[s] for s, c in cards)
