"""Touché properties: incremental pattern detection equals a brute-force scan, and the
invariants of docs/rules/touche.md ("Invariants") hold over random games with varied options."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from spillebord.core import Rng
from spillebord.games.touche import GAME, ChooseGrade, Exchange, Pass, Place, ToucheOptions
from spillebord.games.touche.data import (
    CARD_CELLS,
    CELL_CARD,
    CELL_INDEX,
    CELLS,
    CROWN,
    EMPTY,
    INSTANCES,
    IS_FREE,
)
from spillebord.games.touche.patterns import complete_scan, complete_through
from spillebord.testing import random_walk


def random_board(seed: int, own: float, side: int) -> list[int]:
    """A random board: each cell empty, one of three sides' markers, or crowned."""
    r = random.Random(seed)
    marks = [EMPTY] * 144
    for c in CELLS:
        x = r.random()
        if x < own:
            marks[c] = side
        elif x < own + 0.15:
            marks[c] = r.choice([s for s in range(3) if s != side])
        elif x < own + 0.25:
            marks[c] = r.randrange(3) + CROWN
    return marks


@settings(max_examples=2500, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    own=st.floats(0.3, 0.75),
    side=st.integers(0, 2),
    mask=st.integers(1, 15),
    wild=st.booleans(),
)
def test_incremental_detection_equals_brute_force(
    seed: int, own: float, side: int, mask: int, wild: bool
) -> None:
    marks = random_board(seed, own, side)
    x = random.Random(seed ^ 0xABC).choice(CELLS)
    marks[x] = EMPTY
    before = set(complete_scan(marks, side, mask, wild))
    marks[x] = side
    after = set(complete_scan(marks, side, mask, wild))
    inc = complete_through(marks, x, side, mask, wild)
    assert len(inc) == len(set(inc))
    assert set(inc) == {k for k in after if x in INSTANCES[k][1]}
    assert set(inc) == after - before or (wild and IS_FREE[x])


def test_detection_finds_completions_on_dense_boards() -> None:
    """The random boards above do contain completions (the property is not vacuous)."""
    found = 0
    for seed in range(200):
        marks = random_board(seed, 0.7, 0)
        x = random.Random(seed ^ 0xABC).choice(CELLS)
        marks[x] = 0
        found += bool(complete_through(marks, x, 0, 15))
    assert found > 100


OPTION_SETS = [
    ToucheOptions(grade=1, match_games=1),
    ToucheOptions(grade=2, match_games=1, clear_on_touche=False, max_turns=300),
    ToucheOptions(grade=5, match_games=1, free_space_mode="wild", max_turns=300),
    ToucheOptions(grade=3, match_games=1, seating="alternating", marker_supply=12, max_turns=250),
    ToucheOptions(grade=4, match_games=1, redeal_each_round=True, recycle_discards=False, max_turns=250),
    ToucheOptions(grade=0, match_games=2, jokers_per_deck=0, max_turns=200, grade5_distinct_types=False),
]


@settings(max_examples=24, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    which=st.integers(0, len(OPTION_SETS) - 1),
    seats=st.sampled_from([2, 3, 4, 6]),
)
def test_invariants_over_random_games(seed: int, which: int, seats: int) -> None:
    o = OPTION_SETS[which]
    s = GAME.new(seats, seed, o)
    rng = Rng(seed)
    crowned_cells: set[int] = set()
    crowned_marks: dict[int, int] = {}
    game_no = s.game_no
    steps = 0
    while s.to_act is not None:
        s.check()
        seat = s.to_act
        side = s.side_of[seat]
        a = rng.choice(s.legal())
        marks_before = s.marks[:]
        hand_before = s.hands[seat]
        if isinstance(a, Place):
            x = CELL_INDEX[a.cell]
            assert marks_before[x] < CROWN and marks_before[x] != side
            if a.card != "JK":
                assert (CELL_CARD[x] == a.card and marks_before[x] == EMPTY) or IS_FREE[x]
        if isinstance(a, Exchange):
            for c in a.cards:
                assert c != "JK" and all(marks_before[y] != EMPTY for y in CARD_CELLS[c])
        if isinstance(a, Pass):
            assert s.legal() == [Pass()]
        events = s.play(a)
        steps += 1
        if s.game_no != game_no or s.to_act is None:
            game_no = s.game_no
            crowned_cells, crowned_marks = set(), {}
            continue
        now = {c for c in range(144) if s.marks[c] >= CROWN}
        assert crowned_cells <= now, "crowned cells never shrink"
        for c in crowned_cells:
            assert s.marks[c] == crowned_marks[c], "crowned markers never change"
        crowned_cells = now
        crowned_marks = {c: s.marks[c] for c in now}
        if isinstance(a, Exchange):
            assert s.marks == marks_before
        if s.phase == "play" and o.recycle_discards and not isinstance(a, ChooseGrade):
            # the turn is over: the hand is full again (the seat owns far more than 5 cards)
            assert len(s.hands[seat]) == 5, (len(hand_before), len(s.hands[seat]))
        if any(e["kind"] == "round" for e in events) and o.clear_on_touche:
            assert all(m == EMPTY or m >= CROWN for m in s.marks)
        assert all(n <= s.target for n in s.counts)
        assert steps <= GAME.kind.max_decisions
    s.check()
    res, scores = s.outcome(), s.scores()
    assert res is not None and len(res) == seats and abs(sum(res[side[0]] for side in s.teams()) - 1) < 1e-9
    for t in range(seats):
        for u in range(seats):
            if s.side_of[t] == s.side_of[u]:
                assert res[t] == res[u] and scores[t] == scores[u], "teammates share the result"
    for grade, winner, points in s.games:
        if winner >= 0:
            assert points in {5, 10, 15, 20, 25}
        else:
            assert points == 0
        del grade


def test_clear_on_touche_leaves_no_uncrowned_markers() -> None:
    rounds = 0
    for seed in range(4):
        last = (1, 1)
        for s in random_walk(GAME, 2, seed, {"grade": 1, "match_games": 1}):
            if (s.game_no, s.round_no) != last and s.game_no == last[0] and s.to_act is not None:
                rounds += 1  # a non-winning Touché has just started a new round
                assert all(m == EMPTY or m >= CROWN for m in s.marks)
            last = (s.game_no, s.round_no)
    assert rounds > 10


def test_conservation_with_three_jokers_per_deck() -> None:
    o = replace(ToucheOptions(grade=1, match_games=1), jokers_per_deck=3)
    s = GAME.new(3, 1, o)
    total = Counter(c for g in (s.hands, s.piles, s.discards) for cs in g for c in cs)
    assert total["JK"] == 6 and sum(total.values()) == 110
    s.check()
