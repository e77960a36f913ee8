"""docs/rules/88.md §4–§9: distance, target choice, peg scoring (R14–R16), points (R17–R18),
and the full two-round example 11.8. Seats: A = 0, B = 1, C = 2, D = 3."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spillebord.core.options import build
from spillebord.games.eightyeight import (
    GAME,
    STANDARD,
    EightyEightGame,
    EightyEightState,
    Move,
    Place,
    Stay,
    Target,
    apply_pegs,
    distance,
    parse_panel,
    peg_awards,
    penalty_points,
    reachable,
)
from spillebord.testing import play, refused


def panel_for(n: int) -> int:
    return STANDARD.by_number[n][0]


def round_with(
    numbers: list[int],
    setter: int,
    target: int,
    pegs: list[int] | None = None,
    **opts: Any,
) -> EightyEightState:
    """Play one round in which every seat stays on a panel showing ``numbers[seat]``."""
    s = GAME.position(
        [panel_for(n) for n in numbers],
        setter=setter,
        target=target,
        pegs=pegs,
        options=build(GAME.Options, opts),
    )
    while s.phase == "move":
        s.play(Stay())
    return s


def place(s: EightyEightState, seat: int, text: str) -> None:
    """Answer the tiling decisions of ``seat`` so that its panel becomes ``text``."""
    want = parse_panel(text)
    while s.to_act == seat and s.pending_number is not None:
        part = {"tens": want & 0x7FFF, "units": want >> 15}
        s.play(next(a for a in s.legal() if isinstance(a, Place) and a.tiling == part[a.position]))


# ---------------------------------------------------------------- 11.3 distance


@pytest.mark.parametrize(
    ("x", "t", "d"), [(98, 3, 5), (11, 3, 8), (3, 98, 5), (99, 0, 1), (0, 50, 50), (47, 47, 0)]
)
def test_R13_distance_via_00(x: int, t: int, d: int) -> None:
    assert distance(x, t) == d


@given(st.integers(0, 99), st.integers(0, 99), st.integers(0, 99))
def test_inv5_distance_properties(x: int, t: int, k: int) -> None:
    assert distance(x, t) == distance(t, x)
    assert 0 <= distance(x, t) <= 50
    assert distance(x, x) == 0
    assert distance((x + k) % 100, (t + k) % 100) == distance(x, t)


# ---------------------------------------------------------------- 11.4 target choice


@pytest.mark.parametrize(("cards", "choices"), [((4, 7), [47, 74]), ((0, 3), [3, 30]), ((5, 5), [55])])
def test_R5_target_choice(cards: tuple[int, int], choices: list[int]) -> None:
    s = GAME.position([panel_for(11), panel_for(22)], cards=cards)
    assert s.phase == "target" and s.to_act == 0
    assert [a.number for a in s.legal()] == choices
    assert s.legal_texts() == [f"target {n:02d}" for n in choices]
    s.play(Target(choices[-1]))
    assert s.target == choices[-1] and s.phase == "move" and s.to_act == 0


def test_R5_target_must_be_a_reading_of_the_cards() -> None:
    s = GAME.position([panel_for(11), panel_for(22)], cards=(4, 7))
    refused(s, "target 44", match="47 or 74")


# ---------------------------------------------------------------- 11.5 peg scoring

PEG_CASES = [
    # (case, setter, T, numbers, default awards, stacking awards)
    (1, 2, 3, [98, 11, 20], [1, 0, 0], [1, 0, 0]),
    (2, 0, 50, [46, 54, 60], [1, 0, 0], [1, 0, 0]),
    (3, 0, 50, [45, 52, 48, 70], [0, 0, 0, 0], [0, 0, 0, 0]),
    (4, 0, 74, [70, 74, 80], [0, 1, 0], [0, 2, 0]),
    (5, 0, 74, [74, 74, 80], [1, 1, 0], [2, 1, 0]),
    (6, 0, 88, [88, 88, 80], [2, 2, 0], [3, 2, 0]),
    (7, 0, 0, [2, 99], [0, 1], [0, 1]),
]


@pytest.mark.parametrize(("case", "setter", "t", "numbers", "default", "stack"), PEG_CASES)
def test_R14_peg_awards(
    case: int, setter: int, t: int, numbers: list[int], default: list[int], stack: list[int]
) -> None:
    d = [distance(x, t) for x in numbers]
    assert list(peg_awards(d, setter, t)) == default
    assert list(peg_awards(d, setter, t, stack=True)) == stack
    # and through the engine
    s = round_with(numbers, setter, t)
    assert list(s.pegs) == default
    s2 = round_with(numbers, setter, t, exact_and_round_win_stack=True)
    assert list(s2.pegs) == stack


def test_R14_case1_text_example_98_beats_11() -> None:
    s = round_with([98, 11, 20], 2, 3)
    assert s.last_round is not None and s.last_round["distances"] == [5, 8, 17]
    assert s.pegs == (1, 0, 0)


def test_R14_setter_wins_ties() -> None:
    assert peg_awards([4, 4, 10], 0, 50) == (1, 0, 0)


def test_R14_draw_when_two_non_setters_tie_closer() -> None:
    s = round_with([45, 52, 48, 70], 0, 50)
    assert s.pegs == (0, 0, 0, 0)
    assert s.last_round is not None and s.last_round["awards"] == [0, 0, 0, 0]


LAST_HOLE = [
    # (case, setter, T, before, numbers, after, winner)
    (8, 0, 35, [2, 9, 9], [30, 35, 35], [2, 9, 9], None),
    (9, 0, 35, [9, 9, 2], [35, 35, 30], [10, 9, 2], 0),
    (10, 0, 35, [2, 9, 2], [30, 36, 50], [2, 9, 2], None),
    (11, 0, 35, [2, 9, 2], [30, 35, 40], [2, 10, 2], 1),
    (12, 0, 88, [2, 8, 2], [80, 88, 40], [2, 10, 2], 1),
    (13, 0, 88, [2, 8, 3], [80, 88, 88], [2, 9, 5], None),
    (14, 0, 35, [2, 9, 3], [30, 35, 35], [2, 9, 4], None),
]


@pytest.mark.parametrize(("case", "setter", "t", "before", "numbers", "after", "winner"), LAST_HOLE)
def test_R15_last_hole(
    case: int,
    setter: int,
    t: int,
    before: list[int],
    numbers: list[int],
    after: list[int],
    winner: int | None,
) -> None:
    d = [distance(x, t) for x in numbers]
    new, w = apply_pegs(before, peg_awards(d, setter, t), d, setter, 10)
    assert (list(new), w) == (after, winner)
    s = round_with(numbers, setter, t, pegs=before)
    assert list(s.pegs) == after and s.winner == winner
    if winner is None:
        assert s.to_act is not None
    else:
        assert s.to_act is None and s.phase == "over"
        res = s.outcome()
        assert res is not None and res[winner] == 1.0 and sum(res) == 1.0
        assert s.scores()[winner] == 10.0 and not s.truncated


def test_R15_case10_round_winner_not_exact_stays_at_9() -> None:
    s = round_with([30, 36, 50], 0, 35, pegs=[2, 9, 2])
    assert s.last_round is not None and s.last_round["awards"] == [0, 1, 0]
    assert s.pegs == (2, 9, 2) and s.winner is None


def test_B8_alone_among_contenders_variant_case14() -> None:
    s = round_with([30, 35, 35], 0, 35, pegs=[2, 9, 3], alone_among_contenders_only=True)
    assert s.winner == 1 and s.pegs == (2, 10, 4)


def test_B1_track_length_option() -> None:
    s = round_with([30, 35, 40], 0, 35, pegs=[0, 4, 0], track_length=5)
    assert s.winner == 1
    s = round_with([30, 35, 40], 0, 35, pegs=[0, 4, 0])
    assert s.winner is None and s.pegs == (0, 5, 0)


def test_R16_game_ends_at_end_of_round() -> None:
    # B (seat 1) hits exactly first in move order? The setter moves first; the winner is only
    # decided after the last mover.
    s = GAME.position([panel_for(30), panel_for(35), panel_for(40)], setter=0, target=35, pegs=[2, 9, 2])
    s.play(Stay())
    s.play(Stay())
    assert s.to_act == 2 and s.winner is None
    s.play(Stay())
    assert s.winner == 1 and s.to_act is None and s.legal() == []


def test_B18_max_rounds_safeguard_most_advanced_wins_ties_shared() -> None:
    s = round_with([30, 36, 40], 0, 35, pegs=[3, 1, 3], max_rounds=1)
    assert s.to_act is None
    assert s.pegs == (3, 2, 3)
    assert s.outcome() == (0.5, 0.0, 0.5) and s.scores() == (3.0, 2.0, 3.0)


# ---------------------------------------------------------------- 11.7 points

POINTS = [
    (3, [3, 98, 11], [0, 10, 16], [0, 190, 16]),
    (50, [47, 52, 60], [3, 2, 10], [3, 2, 10]),
    (50, [47, 53, 60], [0, 3, 10], [0, 3, 10]),
    (3, [20, 98, 11], [17, 5, 8], [17, 95, 8]),
]


@pytest.mark.parametrize(("t", "numbers", "circular", "linear"), POINTS)
def test_R17_points(t: int, numbers: list[int], circular: list[int], linear: list[int]) -> None:
    assert list(penalty_points([distance(x, t) for x in numbers], 0)) == circular
    assert list(penalty_points([abs(x - t) for x in numbers], 0)) == linear
    s = round_with(numbers, 0, t, scoring="points")
    assert list(s.points) == circular and s.pegs == (0, 0, 0)
    s = round_with(numbers, 0, t, scoring="points", points_linear_difference=True)
    assert list(s.points) == linear


def test_R17_default_rounds_three_times_players_and_R18_lowest_wins() -> None:
    s = GAME.new(2, 1, build(GAME.Options, {"scoring": "points"}))
    assert s.rounds_total() == 6
    s = GAME.position(
        [panel_for(10), panel_for(20)],
        target=10,
        options=build(GAME.Options, {"scoring": "points", "points_rounds": 1}),
    )
    s.play(Stay())
    s.play(Stay())
    # the setter is exact, so the other pays double: 2 x 10
    assert s.to_act is None and s.points == (0, 20) and s.outcome() == (1.0, 0.0)
    assert s.scores() == (0.0, -20.0)  # minus the penalty points: higher is better


def test_R18_tied_lowest_totals_share() -> None:
    o = build(GAME.Options, {"scoring": "points", "points_rounds": 1})
    s = GAME.position([panel_for(12), panel_for(8)], target=10, options=o)
    s.play(Stay())
    s.play(Stay())
    # setter 0 d 2 <= other's d 2: setter gets 0, other 2
    assert s.points == (0, 2)
    o2 = build(GAME.Options, {"scoring": "points", "points_rounds": 1})
    s = GAME.position([panel_for(13), panel_for(11), panel_for(9)], target=10, options=o2)
    for _ in range(3):
        s.play(Stay())
    assert s.points == (3, 1, 1) and s.outcome() == (0.0, 0.5, 0.5)


# ---------------------------------------------------------------- R10, R11


def test_R10_setter_rotates_clockwise() -> None:
    s = round_with([10, 20, 30], 1, 20)
    assert s.setter == 2 and s.to_act == 2 and s.phase == "target"
    s.play(s.legal()[0])
    order = []
    while s.phase == "move":
        order.append(s.to_act)
        s.play(Stay())
    assert order == [2, 0, 1]
    assert s.setter == 0


def test_R11_cards_discarded_and_reshuffled() -> None:
    s = GAME.position([panel_for(10), panel_for(20)], target=10)
    assert len(s.deck) == 48
    s.play(Stay())
    s.play(Stay())
    assert sorted(s.discard) == [0, 1] and len(s.deck) == 46 and len(s.cards) == 2
    rounds = 1
    while rounds < 30:
        s.play(s.legal()[0])
        s.play(Stay())
        s.play(Stay())
        rounds += 1
        assert len(s.deck) + len(s.discard) + len(s.cards) == 50
        if rounds == 24:
            assert len(s.deck) == 0 and len(s.discard) == 48
        if rounds == 25:  # round 26 draws from the reshuffled discards
            assert len(s.deck) == 48 and len(s.discard) == 0


def test_B3_reshuffle_every_round() -> None:
    o = build(GAME.Options, {"reshuffle_every_round": True})
    s = GAME.position([panel_for(10), panel_for(20)], target=10, options=o)
    s.play(Stay())
    s.play(Stay())
    assert len(s.deck) == 48 and s.discard == ()


def test_B2_deck_composition() -> None:
    o = build(GAME.Options, {"deck_composition": "0,0,0,0,0,0,0,0,0,4"})
    s = GAME.position([panel_for(10), panel_for(20)], options=o)
    assert s.cards == (9, 9) and s.legal_texts() == ["target 99"]
    with pytest.raises(Exception, match="deck_composition"):
        build(GAME.Options, {"deck_composition": "1,2,3"})


# ---------------------------------------------------------------- 11.8 full example


def test_11_8_full_two_round_example() -> None:
    s = GAME.position(["fg b c|ab c", "b c|b c", "ab cd fg e|ab c d e f g"], setter=0, cards=(4, 7))
    s.deck = (0, 3, *s.deck[2:])  # B will draw 0 and 3 in round 2
    assert [s.number(i) for i in range(3)] == [47, 11, 88]
    s.play(Target(74))
    # A: Rearrange to [ab c | fg b c]
    s.play(Move("rearrange", 74))
    place(s, 0, "ab c|fg b c")
    assert s.panel(0) == parse_panel("ab c|fg b c")
    # B: Add a to the tens and fg to the units -> [a b c | b c fg]
    s.play(Move("add", 74))
    assert s.panel(1) == parse_panel("a b c|b c fg")  # the only way: no tiling choice needed
    # C: Take away the units straight g -> 80; Stay would leave 88 (d 14)
    assert distance(88, 74) == 14
    assert reachable(s.panel(2), "remove") >= {80}
    s.play(Move("remove", 80))
    place(s, 2, "ab cd fg e|ab c d e f")
    assert s.panel(2) == parse_panel("ab cd fg e|ab c d e f")
    assert s.pegs == (1, 1, 0)
    # Round 2: B is the setter and draws 0 and 3.
    assert s.setter == 1 and s.cards == (0, 3) and s.to_act == 1
    best = {}
    for seat in (1, 2, 0):
        p = s.panel(seat)
        r = set().union(*(reachable(p, o) for o in ("stay", "rearrange", "remove", "add")))
        best[seat] = (min(distance(n, 3) for n in r), min(distance(n, 30) for n in r))
    assert best == {1: (1, 1), 2: (5, 22), 0: (1, 1)}
    assert 4 in reachable(s.panel(1), "add") and 31 in reachable(s.panel(1), "rearrange")
    assert 8 in reachable(s.panel(2), "rearrange")
    assert 4 in reachable(s.panel(0), "add") and 31 in reachable(s.panel(0), "rearrange")
    s.play(Target(3))
    for seat, move in ((1, Move("add", 4)), (2, Move("rearrange", 8)), (0, Move("add", 4))):
        assert s.to_act == seat
        s.play(move)
        while s.to_act == seat and s.phase == "move":
            s.play(s.legal()[0])
    assert s.last_round is not None and s.last_round["distances"] == [1, 1, 5]
    assert s.pegs == (1, 2, 0)
    # B's Add was the L de and the straight f on the tens
    assert s.panel(1) == parse_panel("a b c de f|b c fg")


def test_11_8_stacking_variant_round_1() -> None:
    o = build(GAME.Options, {"exact_and_round_win_stack": True})
    s = round_with([74, 74, 80], 0, 74, exact_and_round_win_stack=True)
    assert s.pegs == (2, 1, 0)
    del o


# ---------------------------------------------------------------- scores, the decision bound


class _ShortGame(EightyEightGame):
    """88 with a decision bound of 9, to reach it in a test."""

    kind = dataclasses.replace(GAME.kind, max_decisions=9)


def test_scores_rank_a_game_truncated_at_the_decision_bound() -> None:
    # Setter 0 hits 10 exactly (+1 peg); then everyone stays until the bound stops the game.
    s = _ShortGame().position([panel_for(10), panel_for(20)], target=10)
    assert s.scores() == (0.0, 0.0)
    play(s, "stay", "stay")
    assert s.pegs == (1, 0) and s.scores() == (1.0, 0.0) and s.outcome() is None
    while s.to_act is not None:
        s.play(s.legal()[0] if s.phase == "target" else Stay())
    assert s.truncated and s.decisions == 9 and s.legal() == [] and s.winner is None
    assert s.outcome() == (1.0, 0.0) and s.view(None)["result"] == [1.0, 0.0]


def test_scores_of_the_points_game_are_minus_the_penalties() -> None:
    o = build(GAME.Options, {"scoring": "points"})
    s = _ShortGame().position([panel_for(12), panel_for(8)], target=10, options=o)
    play(s, "stay", "stay")  # setter d 2 <= d 2: setter 0, the other 2
    assert s.points == (0, 2) and s.scores() == (0.0, -2.0)
    while s.to_act is not None:
        s.play(s.legal()[0] if s.phase == "target" else Stay())
    assert s.truncated and s.points[0] < s.points[1] and s.outcome() == (1.0, 0.0)
