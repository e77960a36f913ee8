"""The contract's own machinery, on the toy game: outcomes, truncation at the bound, fields."""

from __future__ import annotations

import pytest

from spillebord.core import GameKind, rank_outcome, win_outcome
from spillebord.testing import final_state, legal_counts, play, play_match, refused
from toygame import ToyGame, ToyState


def test_rank_outcome_singles_and_ties() -> None:
    solo = ((0,), (1,), (2,))
    assert rank_outcome([3, 5, 1], solo) == (0.0, 1.0, 0.0)
    assert rank_outcome([5, 5, 1], solo) == (0.5, 0.5, 0.0)
    assert rank_outcome([2, 2, 2], solo) == pytest.approx((1 / 3, 1 / 3, 1 / 3))


def test_rank_outcome_teams_share_the_win() -> None:
    pairs = ((0, 2), (1, 3))
    assert rank_outcome([10, 3, 0, 4], pairs) == (1.0, 0.0, 1.0, 0.0)
    assert rank_outcome([4, 4, 0, 0], pairs) == (0.5, 0.5, 0.5, 0.5)
    assert win_outcome([1], pairs, 4) == (0.0, 1.0, 0.0, 1.0)


class ShortToy(ToyGame):
    kind = GameKind(hidden_information=True, chance=True, public_actions=True, max_decisions=3)


def test_a_game_stops_truncated_at_its_bound_ranked_by_score() -> None:
    game = ShortToy()
    s = game.new(2, seed=1)
    events = []
    while s.to_act is not None:
        events = s.play(s.legal()[-1])
    assert s.decisions == 3 and s.truncated
    assert events[-1]["kind"] == "truncated"
    assert s.legal() == []
    assert s.outcome() == rank_outcome(s.scores(), s.teams())


def test_copy_is_derived_from_the_declared_fields() -> None:
    s = ToyGame().new(2, seed=3)
    assert ToyState.__slots__ == ("hands", "table", "points")
    c = s.copy()
    assert c == s and c.hands is not s.hands and c.rng is not s.rng
    c.play(c.legal()[0])
    assert c != s and s.decisions == 0 and c.decisions == 1


def test_helpers_play_refused_and_perft() -> None:
    game = ToyGame()
    s = game.new(2, seed=3)
    first = str(s.legal()[0])
    play(s, first)
    refused(s, first, match="not a legal action")
    # perft by brute force: 3 cards each, a trick's winner leads; depth 2 = 3 * 3.
    assert legal_counts(game.new(2, seed=3), 2) == 9


def test_match_loop_is_reproducible() -> None:
    game = ToyGame()
    a = play_match(game, ["greedy", "random"], seed=5)
    b = play_match(game, ["greedy", "random"], seed=5)
    assert a == b and a.outcome is not None and sum(a.outcome) == 1.0
    assert final_state(game, 2, 5).to_act is None


def test_a_state_pickles_with_its_game_by_reference() -> None:
    # A state sent to another process (a bot's process pool) arrives with the registered game
    # itself, not a copy of its tables, and plays on identically.
    import pickle

    from spillebord.core import registry

    for gid in registry.ids():
        g = registry.get(gid)
        s = g.new(g.seats.start if gid != "partners" else 4, 3)
        t = pickle.loads(pickle.dumps(s))
        assert t.game is g
        assert [str(a) for a in t.legal()] == [str(a) for a in s.legal()]
        assert t.view(0) == s.view(0)
