"""Touché's fitted search value: the completion features, the match's chance, the value."""

from __future__ import annotations

import pytest

from spillebord.ai import bots_for
from spillebord.games.touche import GAME
from spillebord.games.touche.bots import FEATURES, match_chance, side_features, value
from spillebord.games.touche.position import position
from spillebord.testing import random_walk


def test_match_chance_from_the_score() -> None:
    assert match_chance(0.5, 0, 0, 3) == pytest.approx(0.5)
    assert match_chance(1.0, 1, 0, 3) == 1.0 and match_chance(0.0, 0, 1, 3) == 0.0
    assert match_chance(0.5, 1, 0, 3) == pytest.approx(0.75)
    assert match_chance(0.8, 0, 0, 3) == pytest.approx(0.8 * 0.75 + 0.2 * 0.25)
    for p in (0.1, 0.6):
        assert match_chance(p, 0, 1, 5) == pytest.approx(1 - match_chance(1 - p, 1, 0, 5))
    assert match_chance(0.5, 0, 0, 1) == 0.5 and match_chance(0.9, 0, 0, 1) == pytest.approx(0.9)


def test_features_count_completing_cells_by_how_sure() -> None:
    # purple needs r4c1 (7D, held) for one square, and the FREE r5c1... none here: a line
    s = position(grade=1, marks={"r3c0": 0, "r3c1": 0, "r4c0": 0}, hands={0: ["7D", "AS", "KH", "3S", "4S"]})
    f = dict(zip(FEATURES, side_features(s, 0), strict=True))
    assert f["held"] == 1 and f["sure"] == 0 and f["open"] == 0 and f["jokers"] == 0
    assert f["need1"] == 0 and f["need2"] == 0  # needs 4 squares
    s = position(grade=1, marks={"r3c0": 0, "r3c1": 0, "r4c0": 0}, hands={0: ["AS", "KH", "3S", "4S", "JK"]})
    f = dict(zip(FEATURES, side_features(s, 0), strict=True))
    assert f["held"] == 0 and f["open"] == 1 and f["open_joker"] == 1 and f["jokers"] == 1
    # grade 2, one line short of the target with a line missing only its FREE space
    s = position(
        grade=2,
        marks={"r1c3": 0, "r1c4": 0, "r1c6": 0, "r1c7": 0},
        crowned=[
            (0, ["r3c0", "r3c1", "r3c2", "r3c3", "r3c4"]),
            (0, ["r7c0", "r7c1", "r7c2", "r7c3", "r7c4"]),
        ],
    )
    f = dict(zip(FEATURES, side_features(s, 0), strict=True))
    assert f["sure"] == 1 and f["need1"] == 1 and f["win_threat"] == 1


def test_value_prefers_the_side_about_to_crown_and_sums_to_one() -> None:
    marks = {"r1c3": 0, "r1c4": 0, "r1c6": 0, "r1c7": 0}
    mine = value(position(grade=2, marks=marks, to_act=0))
    theirs = value(position(grade=2, marks={c: 1 for c in marks}, to_act=0))
    assert mine[0] > 0.6 > theirs[0]
    assert sum(mine) == pytest.approx(1.0) and sum(theirs) == pytest.approx(1.0)


def test_a_won_game_counts_in_the_value() -> None:
    """The old value (the evaluation's logistic) saw a side one crown from winning a game as
    better off than the side that had just won it (the counts start again at zero)."""
    s = position(grade=2, crowned=[(0, ["r3c0", "r3c1", "r3c2", "r3c3", "r3c4"])])
    before = value(s)[0]
    s.match_wins[0] = 1
    assert value(s)[0] > before + 0.2


def test_value_of_random_positions_and_other_seat_counts() -> None:
    for seats in (2, 3, 4):
        for s in random_walk(GAME, seats, seed=seats, steps=120):
            v = value(s)
            assert len(v) == seats and all(0.0 <= x <= 1.0 for x in v)
    assert bots_for(GAME).value is value
