"""Perft: the number of decision sequences from fixed positions, written as text, against
counts made independently of the engine's move generator.

The reference below decides legality from the rules (docs/rules/metscri.md R9–R30) alone,
reading only what the acting seat sees (its ``view``) and trying every candidate action text
there could be: every move between two squares, every card id onto every square, a turn, spy
and reveal of every square, every set of face-up cards, and the one-word actions. It walks
the tree by parsing and playing its own choices (``play`` refuses an illegal one), so its
counts are made without ``legal()``; the engine's counts come from ``legal_counts``.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from spillebord.core import State
from spillebord.games.metscri import GAME, MetscriState, position
from spillebord.testing import legal_counts

SQUARES = [(r, c) for r in range(7) for c in range(7) if (r, c) not in {(0, 0), (0, 6), (6, 0), (6, 6)}]
NAMES = [f"r{r}c{c}" for r, c in SQUARES]
CARD_IDS = [f"{rank}{suit}{deck}" for deck in "ab" for suit in "SHDC" for rank in
            ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]  # fmt: skip
PHASES = ["move", "enter", "turn", "spy", "collect", "invest"]


def ring(r: int, c: int) -> int:
    return min(r, c, 6 - r, 6 - c)


def rank(card: str) -> str:
    return card[:-2]


def touching(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """King adjacency (R23)."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def connected(cells: list[tuple[int, int]]) -> bool:
    seen = {cells[0]}
    todo = [cells[0]]
    while todo:
        a = todo.pop()
        for b in cells:
            if b not in seen and touching(a, b):
                seen.add(b)
                todo.append(b)
    return len(seen) == len(cells)


def valid_group(cards: dict[tuple[int, int], str]) -> bool:
    """R22 and R23 under the default options: one rank of symbol cards (at least one),
    symbols + small jokers + 2 x big jokers >= 3, the symbol cards one king-connected
    cluster, every joker touching one of them."""
    symbols = [sq for sq, c in cards.items() if rank(c) not in ("A", "2")]
    small = [sq for sq, c in cards.items() if rank(c) == "2"]
    big = [sq for sq, c in cards.items() if rank(c) == "A"]
    if not symbols or len({rank(cards[sq]) for sq in symbols}) != 1:
        return False
    if len(symbols) + len(small) + 2 * len(big) < 3:
        return False
    return connected(symbols) and all(any(touching(j, sq) for sq in symbols) for j in small + big)


def can_move(heights: dict[tuple[int, int], int], a: tuple[int, int], b: tuple[int, int]) -> bool:
    """R13–R15 (default options): a slide over empty squares in a straight line, or a step
    onto an orthogonal neighbour holding 1 or 2 cards that changes the card's level by 1 or 2."""
    h, k = heights[a], heights[b]
    if h == 0:
        return False
    if (a[0] == b[0]) != (a[1] == b[1]):  # same row or same column
        dr = (b[0] > a[0]) - (b[0] < a[0])
        dc = (b[1] > a[1]) - (b[1] < a[1])
        path = []
        r, c = a
        while (r, c) != b:
            r, c = r + dr, c + dc
            path.append((r, c))
        if all(sq in heights and heights[sq] == 0 for sq in path):
            return True
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 and 1 <= k <= 2:
        return (k + 1) - h in (-2, -1, 1, 2)
    return False


def phase_actions(v: dict[str, Any], phase: str) -> set[str]:
    """The texts of ``phase``'s own actions that the rules allow now (from the view ``v``)."""
    board = v["board"]
    heights = {sq: board[n]["height"] for sq, n in zip(SQUARES, NAMES, strict=True)}
    top = {sq: board[n]["cards"][-1] for sq, n in zip(SQUARES, NAMES, strict=True) if board[n]["cards"]}
    ap = v["ap"]
    out: set[str] = set()
    if phase == "move" and ap >= 1:
        for (a, an), (b, bn) in combinations(zip(SQUARES, NAMES, strict=True), 2):
            if can_move(heights, a, b):
                out.add(f"move {an} {bn}")
            if can_move(heights, b, a):
                out.add(f"move {bn} {an}")
    if phase == "enter" and ap >= 2:
        hand = set(v["hand"])
        for card in CARD_IDS:
            for sq, name in zip(SQUARES, NAMES, strict=True):
                if card in hand and ring(*sq) == 0 and heights[sq] <= 2:
                    out.add(f"enter {card} {name}")
    if phase in ("turn", "spy"):
        for sq, name in zip(SQUARES, NAMES, strict=True):
            if sq in top and not top[sq]["up"]:
                if phase == "turn" and ap >= v["turned"]:  # the k-th turn costs k - 1
                    out.add(f"turn {name}")
                if phase == "spy" and ap >= ring(*sq) + 1:
                    out.add(f"spy {name}")
        if phase == "spy" and v["spied"] is not None:
            out.add(f"reveal {v['spied']}")
    if phase == "collect":
        up = [(sq, name) for sq, name in zip(SQUARES, NAMES, strict=True) if sq in top and top[sq]["up"]]
        for k in range(1, len(up) + 1):
            for group in combinations(up, k):
                if valid_group({sq: top[sq]["card"] for sq, _ in group}):
                    out.add("collect " + " ".join(name for _, name in group))
    if phase == "invest" and ap >= 2 and (v["buy_size"] or v["matched"]):
        out.add("invest")
    return out


def reference_legal(state: MetscriState) -> set[str]:
    """Every legal action text now, by the rules, from what the acting seat sees."""
    seat = state.to_act
    if seat is None:
        return set()
    v = state.view(seat)
    if v["phase"] == "roll":
        return {"roll", "stop"} if v["rolls"] else {"roll"}
    later = PHASES[PHASES.index(v["phase"]) + 1 :]
    out = phase_actions(v, v["phase"]) | {"done"}
    if any(phase_actions(v, p) for p in later):
        out.add("next")
    return out


def reference_counts(state: State[Any], depth: int) -> int:
    assert isinstance(state, MetscriState)
    if depth == 0 or state.to_act is None:
        return 1
    total = 0
    for text in sorted(reference_legal(state)):
        child = state.copy()
        child.play(GAME.parse(child, text))
        total += reference_counts(child, depth - 1)
    return total


# The text's worked example, all face down in the Turn phase: turn, spy (and reveal),
# collect what was turned, invest; the turn then passes on.
TURNING = """
        c0   c1   c2   c3   c4   c5   c6
    r0  X    .    .    .    .    .    X
    r1  .    .    4C   AS   7H   .    .
    r2  .    .    .    4H   QS   .    .
    phase: turn    ap: 4
"""

# Three free cards, one on a 2-stack, and a hand card: moves, then entering.
MOVING = """
        c0   c1     c2   c3   c4   c5   c6
    r0  X    .      .    .    .    AS   X
    r2  .    5S/6H  .    .    .    .    .
    r3  4C   .      .    .    .    .    .
    hand 0: KH
    phase: move    ap: 2
"""

# Face-up cards in the Collect phase: overlapping groups (4s with an ace or a small joker,
# the queen with the ace) and a card that belongs to none.
COLLECTING = """
        c0   c1   c2   c3   c4   c5   c6
    r0  X    .    .    .    .    .    X
    r1  .    .    4C*  AS*  7H   .    .
    r2  .    2D*  4D*  4H*  QS*  .    .
    r3  .    .    .    9C*  .    .    .
    phase: collect    ap: 2
"""


def test_perft_moving_depth_1_by_hand() -> None:
    # A♠ on r0c5: 4 left, 6 down (r0c6 is a corner); 6♥ (level 2, the 5♠ under it is locked)
    # on r2c1: 1 left, 5 right, 2 up, 4 down; 4♣ on r3c0: 2 up, 2 down (r0c0, r6c0 are
    # corners), 6 right; no steps (no neighbour holds 1 or 2 cards); next (Enter, Turn and
    # Spy have something to do) and done.
    s = position(MOVING)
    assert len(s.legal()) == 10 + 12 + 10 + 2 == 34


@pytest.mark.parametrize(("text", "depth"), [(TURNING, 3), (MOVING, 3), (COLLECTING, 3)])
def test_perft_matches_the_reference(text: str, depth: int) -> None:
    s = position(text)
    assert set(s.legal_texts()) == reference_legal(s)
    for d in range(1, depth + 1):
        assert legal_counts(s, d) == reference_counts(s, d), d


def test_perft_pinned_counts() -> None:
    """The counts themselves, so that a change in both shows (established by the reference)."""
    assert [legal_counts(position(TURNING), d) for d in (1, 2, 3)] == TURNING_COUNTS
    assert [legal_counts(position(MOVING), d) for d in (1, 2, 3)] == MOVING_COUNTS
    assert [legal_counts(position(COLLECTING), d) for d in (1, 2, 3)] == COLLECTING_COUNTS


TURNING_COUNTS = [7, 38, 162]
MOVING_COUNTS = [34, 1162, 5273]
COLLECTING_COUNTS = [21, 57, 83]
