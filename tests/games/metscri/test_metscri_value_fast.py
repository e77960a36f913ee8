"""The planner's evaluation, made faster, gives exactly the numbers it gave as first written.

``value``, ``plan`` and ``known_tops`` run for every action the planner weighs and in every
playout of the search; the reference versions below are the first ones (a pair loop over every
square, ``state.sees`` per square, ``group_weight_ok`` per candidate group). Positions come from
the planner's own games (many groups and jokers to collect) and random ones, under both joker
rules and with and without the memory aid.
"""

from __future__ import annotations

import pytest

from spillebord.ai import decide, make_agent
from spillebord.core import Rng
from spillebord.games.metscri import GAME, MetscriState
from spillebord.games.metscri import bots as MB
from spillebord.games.metscri.data import (
    BIG_JOKER,
    COLLECT,
    INVEST,
    KIND,
    KING_MASK,
    POINTS,
    RANK,
    ROLL,
    SPY,
    SPY_COST,
    SQUARES,
    SYMBOL,
    TURN,
)
from spillebord.games.metscri.groups import group_weight_ok


def _ref_known_tops(state: MetscriState, seat: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for s in SQUARES:
        st = state.board[s]
        if st and state.sees(seat, s, len(st) - 1):
            out[s] = st[-1]
    return out


def _ref_components(squares: list[int]) -> list[list[int]]:
    return MB._components(squares)  # unchanged: the order of its groups is part of the result


def _ref_plan(state: MetscriState, seat: int, tops: dict[int, int]) -> tuple[int, int, set[int]]:
    """(points, AP cost, the squares of the chosen groups)."""
    phase = state.phase
    if state.to_act != seat or phase == ROLL or phase > COLLECT:
        return 0, 0, set()
    up, ap = state.up, state.ap
    turning = phase <= TURN
    base = state.turned if phase == TURN else 0
    by_rank: dict[int, list[int]] = {}
    jokers: list[int] = []
    for s, c in tops.items():
        if not ((up >> s) & 1 or phase <= SPY):
            continue
        if KIND[c] == SYMBOL:
            by_rank.setdefault(RANK[c], []).append(s)
        else:
            jokers.append(s)
    if not by_rank:
        return 0, 0, set()
    candidates: list[tuple[int, list[int]]] = []
    for squares in by_rank.values():
        for comp in _ref_components(squares):
            cm = 0
            for s in comp:
                cm |= KING_MASK[s]
            touching = sorted(
                (j for j in jokers if (cm >> j) & 1),
                key=lambda j: (0 if (up >> j) & 1 else SPY_COST[j], KIND[tops[j]] != BIG_JOKER),
            )
            for k in range(len(touching) + 1):
                grp = comp + touching[:k]
                if group_weight_ok([KIND[tops[s]] for s in grp], state.opts.joker_rule):
                    candidates.append((sum(1 if KIND[tops[s]] != SYMBOL else POINTS[s] for s in grp), grp))
    if not candidates:
        return 0, 0, set()
    candidates.sort(key=lambda t: -t[0])
    chosen: set[int] = set()
    points = n_down = spy_cost = cost = 0
    for pts, grp in candidates:
        if chosen.intersection(grp):
            continue
        down = [s for s in grp if not (up >> s) & 1]
        if turning:
            m = n_down + len(down)
            new_cost = m * base + m * (m - 1) // 2
        else:
            new_cost = spy_cost + sum(0 if s == state.pending else SPY_COST[s] for s in down)
        if new_cost > ap:
            continue
        chosen.update(grp)
        points += pts
        n_down += len(down)
        if not turning:
            spy_cost = new_cost
        cost = new_cost
    return points, cost, chosen


def _ref_value(state: MetscriState, seat: int) -> float:
    res = state.outcome()
    if res is not None:
        return 1000.0 if res[seat] > 0 else -1000.0
    scores = state.points
    other = max(p for i, p in enumerate(scores) if i != seat)
    v = MB.W_SCORE * scores[seat] - MB.W_OPP * other
    tops = _ref_known_tops(state, seat)
    claimed: set[int] = set()
    if state.to_act == seat and ROLL < state.phase <= INVEST:
        pts, cost, chosen = _ref_plan(state, seat, tops)
        v += MB.W_PLAN * pts + MB.W_AP * (state.ap - cost)
        if MB.PLAN_CLAIMS:
            claimed = chosen
    # the cards the plan collects this turn have no privacy, support or pair bonus
    tops = {s: c for s, c in tops.items() if s not in claimed}
    v += MB.W_HAND * len(state.hands[seat])
    bit = 1 << seat
    everyone, known = state.all_seats, state.known
    for s, c in tops.items():
        if not (state.up >> s) & 1 and known[c] != everyone and known[c] & bit:
            v += MB.W_PRIVATE
            if KIND[c] == SYMBOL:
                joiners = [h for h in state.hands[seat] if KIND[h] != SYMBOL or RANK[h] == RANK[c]]
            else:
                joiners = [h for h in state.hands[seat] if KIND[h] == SYMBOL]
            v += MB.W_SUPPORT * 0.5 * min(len(joiners), 2)
        for t in SQUARES:
            if t <= s or not (KING_MASK[s] >> t) & 1 or t not in tops:
                continue
            d = tops[t]
            ks, kt = KIND[c], KIND[d]
            if (ks == SYMBOL and kt == SYMBOL and RANK[c] == RANK[d]) or (ks == SYMBOL) != (kt == SYMBOL):
                public = known[c] == everyone and known[d] == everyone
                v += MB.W_PAIR * (0.5 if public else 1.0)
    if MB.W_NEXT:  # staging for next turn (session 26): its own tests, test_metscri_gatherer.py
        v += MB.W_NEXT * MB.next_turn_points(state, seat, tops, sum(1 << s for s in claimed))
    return v


@pytest.mark.parametrize("claims", [False, True])
@pytest.mark.parametrize("joker_rule", ["weighted", "strict_table"])
@pytest.mark.parametrize("memory_aid", [False, True])
def test_value_plan_and_known_tops_equal_the_first_versions(
    joker_rule: str, memory_aid: bool, claims: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(MB, "PLAN_CLAIMS", claims)
    planner = make_agent("planner", GAME)
    checked = planned = 0
    for seed in range(4):
        seats = 2 + seed % 3
        opts = GAME.Options(joker_rule=joker_rule, memory_aid=memory_aid, max_rounds=12)  # type: ignore[call-arg]
        state = GAME.new(seats, seed, opts)
        rng = Rng(seed)
        n = 0
        while state.to_act is not None and n < 220:
            for seat in range(seats):
                tops = MB.known_tops(state, seat)
                assert tops == _ref_known_tops(state, seat)
                assert list(tops) == list(_ref_known_tops(state, seat))  # value() sums in this order
                got = MB.plan(state, seat, tops)
                points, cost, chosen = _ref_plan(state, seat, tops)
                assert got == (points, cost)
                assert MB.planned(state, seat, tops) == (points, cost, sum(1 << s for s in chosen))
                planned += got != (0, 0)
                assert MB.value(state, seat) == _ref_value(state, seat)
                checked += 1
            state.play(rng.choice(state.legal()) if seed % 2 else decide(planner, state, rng))
            n += 1
    assert checked > 1_000
    # without the memory aid a seat knows only the face-up cards: groups to plan are rare there
    assert planned > 20 or not memory_aid
