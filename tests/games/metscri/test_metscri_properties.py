"""Metscri invariants (docs/rules/metscri.md, section 10) over random games, with
Hypothesis-chosen seeds and options."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spillebord.core import Rng
from spillebord.games.metscri import (
    GAME,
    Collect,
    Enter,
    MetscriOptions,
    MetscriState,
    Move,
    Reveal,
    Spy,
    Turn,
)
from spillebord.games.metscri.data import CARD_ID, CARD_INDEX, COLLECT, RING, ROLL, SQ_INDEX
from spillebord.games.metscri.groups import group_points, valid_group
from spillebord.testing import random_walk

OPTIONS = st.fixed_dictionaries(
    {
        "allow_same_level_step": st.booleans(),
        "diagonal_steps": st.booleans(),
        "collect_adjacency": st.sampled_from(["symbols_connected", "connected", "pairwise"]),
        "joker_rule": st.sampled_from(["weighted", "strict_table"]),
        "memory_aid": st.booleans(),
        "memory_follows_moves": st.booleans(),
        "target": st.integers(4, 12),
        "max_rounds": st.integers(2, 5),
    }
)


def _play_and_check(seats: int, seed: int, opts: MetscriOptions) -> MetscriState:
    s = GAME.new(seats, seed, opts)
    rng = Rng(seed)
    awarded = 0
    steps = 0
    turned_costs: list[int] = []
    phases: list[int] = []
    last_spy: int | None = None
    while s.to_act is not None:
        s.check()
        seat = s.to_act
        legal = s.legal()
        # prefer spending actions so that random games reach the interesting phases
        spend = [a for a in legal if isinstance(a, (Move, Enter, Turn, Spy, Reveal, Collect))]
        a = rng.choice(spend) if spend and rng.random() < 0.7 else rng.choice(legal)
        before = s.copy()
        scores = s.points
        if isinstance(a, Collect):
            cards_at = s.face_up_cards()
            assert valid_group(cards_at, a.squares, s.opts) is None  # invariant 8
            pts = group_points([(q, cards_at[q]) for q in a.squares])
            assert (pts >= 2 and len(a.squares) >= 2) or s.opts.jokers_only_groups  # invariant 7
            awarded += pts
        if isinstance(a, Reveal):
            assert last_spy == a.square  # invariant 5: Reveal right after the Spy of that card
        board_count = sum(len(x) for x in s.board)
        events = s.play(a)
        steps += 1
        # events are public: no hidden card id in them
        dumped = json.dumps(events)
        for h in s.hands:
            for c in h:
                assert f'"{CARD_ID[c]}"' not in dumped
        # invariant 7: scores change only in Collect, never decrease
        if not isinstance(a, Collect):
            assert s.points == scores
        assert all(x >= y for x, y in zip(s.points, scores, strict=True))
        assert s.scores() == tuple(float(p) for p in s.points)
        if isinstance(a, Enter):  # invariant 9
            assert RING[a.to] == 0 and len(s.board[a.to]) <= 3
        if isinstance(a, Move):  # invariant 10
            assert sum(len(x) for x in s.board) == board_count
            assert s.board[a.to][-1] == before.board[a.frm][-1]
        # invariant 4/6: AP accounting and turn escalation
        if s.to_act == seat and s.phase != ROLL:
            assert 0 <= s.ap <= s.ap_earned
            if isinstance(a, Turn):
                turned_costs.append(before.ap - s.ap)
                n = len(turned_costs)
                assert sum(turned_costs) == n * (n - 1) // 2
            phases.append(s.phase)
            assert phases == sorted(phases)  # invariant 5: phases never go back
        else:
            turned_costs, phases = [], []
            if s.to_act is not None:
                assert s.up == 0  # invariant 3: all board cards face down at a turn's start
        last_spy = a.square if isinstance(a, Spy) else None
        assert steps <= GAME.kind.max_decisions
    s.check()
    assert not s.truncated and s.decisions == steps
    assert sum(s.points) == awarded  # invariant 7
    winners = [i for i, p in enumerate(s.points) if p >= s.target]
    if s.round < (s.opts.max_rounds or 10**9):  # invariant 11
        assert len(winners) == 1 and s.outcome() == tuple(
            1.0 if i == winners[0] else 0.0 for i in range(seats)
        )
    else:  # R32: the highest scores share the win
        best = max(s.points)
        tied = [i for i, p in enumerate(s.points) if p == best]
        assert s.outcome() == tuple(1 / len(tied) if i in tied else 0.0 for i in range(seats))
    return s


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), seats=st.integers(2, 8), options=OPTIONS)
def test_invariants_over_random_games(seed: int, seats: int, options: dict[str, Any]) -> None:
    _play_and_check(seats, seed, MetscriOptions(**options))


def _knowledge_ok(s: MetscriState, history: dict[int, set[int]]) -> None:
    """Invariant 12: a seat sees a face-down card only if it held, entered, spied or saw it."""
    for seat in range(s.seats):
        v = s.view(seat)
        for name, sq in v["board"].items():
            for lvl, entry in enumerate(sq["cards"]):
                card = entry["card"]
                if card is not None and not entry["up"]:
                    c = s.board[SQ_INDEX[name]][lvl]
                    assert CARD_ID[c] == card
                    assert c in history[seat], f"seat {seat} sees {card} it never saw"


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), seats=st.integers(2, 5))
def test_knowledge_only_from_legitimate_sources(seed: int, seats: int) -> None:
    s = GAME.new(seats, seed, MetscriOptions(target=8, max_rounds=4))
    rng = Rng(seed)
    history: dict[int, set[int]] = {i: set(h) for i, h in enumerate(s.hands)}
    while s.to_act is not None:  # a walk of its own: it watches each action before it is played
        seat = s.to_act
        a = rng.choice(s.legal())
        if isinstance(a, Spy):
            history[seat].add(s.board[a.square][-1])
        for e in s.play(a):
            if "card" in e:  # a turned or revealed card, seen by all (even if Return follows at once)
                for i in range(seats):
                    history[i].add(CARD_INDEX[e["card"]])
        for i, h in enumerate(s.hands):
            history[i].update(h)
        for sq in range(49):
            if (s.up >> sq) & 1:
                for i in range(seats):
                    history[i].add(s.board[sq][-1])
        for i in range(seats):
            history[i].update(s.matched)
        _knowledge_ok(s, history)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), seats=st.integers(2, 8))
def test_determinize_keeps_views_and_redeals_hidden(seed: int, seats: int) -> None:
    rng = Rng(seed)
    for k, s in enumerate(random_walk(GAME, seats, seed, {"target": 8, "max_rounds": 3})):
        assert isinstance(s, MetscriState)
        if k % 7 == 0:
            for seat in range(seats):
                d = s.determinize(seat, rng.spawn())
                d.check()
                assert d.view(seat) == s.view(seat)
                assert d.points == s.points and d.phase == s.phase and d.ap == s.ap
                assert [len(h) for h in d.hands] == [len(h) for h in s.hands]
                assert [len(x) for x in d.board] == [len(x) for x in s.board]
                assert d.matched == s.matched


def test_phase_constants_order() -> None:
    assert ROLL < COLLECT
