"""Property tests over random Revir games: the invariants of section 13 of docs/rules/revir.md."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spillebord.core import Event, Rng
from spillebord.games.revir import GAME, Fight, Hunt, Move, RevirAction, RevirOptions, RevirState, Stay
from spillebord.testing import final_state, play

QUICK = RevirOptions(series_needed=3, max_turns=80)


def check_step(
    before: RevirState,
    s: RevirState,
    a: RevirAction,
    events: list[Event],
    options: RevirOptions,
    fight_start: dict[str, Any],
) -> None:
    n = s.seats
    # stones and territories: conservation
    assert sum(s.stones) + s.bank == options.bank_total and min(s.stones) >= 0 and s.bank >= 0
    assert sum(s.owner.count(p) for p in range(n)) == 20
    geo = s.geo
    if isinstance(a, Fight):
        fight_start["at"] = (before.stones, before.owner)
        q = before.pos[before.active]
        if geo.indoor[q]:  # option (b) never happens indoors
            assert geo.ids[q] == a.territory
        fight_start["max_rounds"] = (
            before.stones[before.active] + before.stones[before.owner[geo.tindex[a.territory]]] + 1
        )
    if s.fight is not None:
        assert s.fight.round <= fight_start["max_rounds"]
    if isinstance(a, Hunt):
        tr = geo.tindex[a.square]
        assert before.owner[tr] == before.active and before.pos[before.active] == geo.index[a.square]
        assert before.eff.hunt >> tr & 1 or before.eff.nest
    # one reveal per turn, at most one move and one phase-3 action
    reveals = sum(e["kind"] == "reveal" for e in events)
    assert reveals == s.t - before.t
    if before.phase in ("act", "bid") or isinstance(a, Move | Stay):
        assert sum(e["kind"] in ("move", "stay") for e in events) == (1 if before.phase == "move" else 0)
        assert sum(e["kind"] in ("hunt", "fight") for e in events) <= 1
    ends = [e for e in events if e["kind"] == "fight_end"]
    if ends:
        st0, own0 = fight_start.pop("at")
        e = ends[0]
        att, dfd = e["seat"], e["defender"]
        # stones_after(X) = stones_before(X) - min(hits received, stones_before(X))
        assert e["paid"] == [min(e["hits"][1], st0[att]), min(e["hits"][0], st0[dfd])]
        changed = [i for i in range(20) if own0[i] != s.owner[i]]
        if e["won"]:
            assert e["hits"][0] == options.hits_to_win or e["how"] == "surrender"
            assert len(changed) == 1 and own0[changed[0]] == dfd and s.owner[changed[0]] == att
        else:
            assert changed == []
    elif not isinstance(a, Fight) and before.phase != "bid":
        assert before.owner == s.owner, "ownership changes only through fights"
    if isinstance(a, Move):
        d = geo.dist[before.eff.doors][before.pos[before.active]][geo.index[a.to]]
        paid = 0 if before.eff.free_move else max(0, d - 1)
        mv = next(e for e in events if e["kind"] == "move")
        assert mv["cost"] == paid and mv["steps"] == d
    for e in events:
        if e["kind"] == "hunt":  # 0 or value x {1, 2} + k, paid as far as the bank can
            tr = geo.tindex[e["square"]]
            gain = before.rat_gain(tr, e["roll"])
            prof = geo.t_profile[tr]
            assert gain == 0 or gain in {
                prof.gain * m + k if options.rat_bonus_order == "double_then_add" else (prof.gain + k) * m
                for m in (1, 2)
                for k in (0, 1, 2)
            }
            assert e["stones"] == min(gain, before.bank)


def play_random(n: int, seed: int, options: RevirOptions = QUICK) -> None:
    """A seeded random game, every step checked. The walk is written out here (not
    :func:`random_walk`) because the invariants need each action and its events; the actions
    are applied as texts with :func:`spillebord.testing.play` (so parsing is exercised too)."""
    s = GAME.new(n, seed, options)
    r = Rng(seed ^ 0xABC)
    turns = [s.active]
    fight_start: dict[str, Any] = {}
    while not s.is_over:
        s.check()
        before = s.copy()
        a = r.choice(s.legal())
        events = play(s, str(a))
        check_step(before, s, a, events, options, fight_start)
        turns += [e["seat"] for e in events if e["kind"] == "reveal"]
    for i in range(1, len(turns)):
        assert turns[i] == (turns[i - 1] + 1) % n, "turns rotate in fixed order"
    out = s.outcome()
    assert out is not None and abs(sum(out) - 1.0) < 1e-9
    if s.winners is not None and len(s.winners) == 1 and s.t < options.max_turns:
        assert sum(s.has_series(p) for p in range(n)) == 1
        assert out[s.winners[0]] == 1.0


@settings(max_examples=40)
@given(n=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_13_invariants_random_games(n: int, seed: int) -> None:
    play_random(n, seed)


@settings(max_examples=10)
@given(n=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_13_invariants_with_variants(n: int, seed: int) -> None:
    o = RevirOptions(series_needed=3, max_turns=60, tie_hits="both", reshuffle_each_cycle=True)
    play_random(n, seed, replace(o, happenings="all", rat_bonus_order="add_then_double"))


@settings(max_examples=15)
@given(n=st.integers(2, 4), seed=st.integers(0, 2**32 - 1), k=st.integers(1, 30))
def test_13_card_clock_invariants(n: int, seed: int, k: int) -> None:
    s: RevirState = GAME.setup(n, seed, RevirOptions(clock_size=k))
    order = list(s.pile)
    for t in range(1, 75):
        s._advance_clock()
        vis = s.visible_cards()
        assert len(vis) == min(t, k) == len(set(vis))
        assert sorted(vis) == sorted(order[(i - 1) % 30] for i in range(max(1, t - k + 1), t + 1))
        assert s.p == (t - 1) % k
        assert len(s.pile) + sum(c >= 0 for c in s.circle) == 30


def test_games_end_under_default_options() -> None:
    s = final_state(GAME, 4, 123)
    assert isinstance(s, RevirState)
    assert s.decisions <= GAME.kind.max_decisions and s.t <= 400 and not s.truncated


@settings(max_examples=12)
@given(n=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_views_survive_determinize_and_replay(n: int, seed: int) -> None:
    """Every seat's view (mid-fight included) is unchanged by its own determinization, the
    acting seat's legal list too, and replaying the action texts rebuilds the state."""
    s = GAME.new(n, seed, QUICK)
    r = Rng(seed)
    log: list[str] = []
    while not s.is_over:
        for seat in range(n):
            d = s.determinize(seat, r.spawn())
            assert d.view(seat) == s.view(seat)
            if seat == s.to_act:
                assert d.legal() == s.legal()
            d.check()
        log.append(str(r.choice(s.legal())))
        play(s, log[-1])
    again = GAME.new(n, seed, QUICK)
    play(again, *log)
    assert again == s


def test_the_decision_bound_truncates_a_game_without_a_turn_cap() -> None:
    """With no turn cap (max_turns 0) a game may run on; the decision bound stops it, the
    legal list is then empty and the outcome ranks by scores (rule 9.3's order)."""
    s = GAME.new(2, 5, RevirOptions(max_turns=0))
    r = Rng(5)
    while not s.is_over:
        legal = s.legal()
        # never fight or hunt: the game cannot end by a series
        quiet = [a for a in legal if not isinstance(a, Fight)]
        s.play(r.choice(quiet or legal))
    assert s.truncated and s.decisions == GAME.kind.max_decisions and s.legal() == []
    assert s.winners is None
    scores = s.scores()
    best = max(scores)
    assert s.outcome() == tuple(1.0 / scores.count(best) if v == best else 0.0 for v in scores)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_many_full_random_games_keep_the_invariants(n: int) -> None:
    for seed in range(150):
        s = final_state(GAME, n, seed)
        assert isinstance(s, RevirState)
        assert s.decisions <= GAME.kind.max_decisions and s.t <= 400
        s.check()
