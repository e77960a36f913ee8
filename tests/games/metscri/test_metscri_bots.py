"""The Metscri bots (heuristic, planner, and the generic greedy agent on Metscri's evaluation)
beat random play; the planner, the best, beats the heuristic."""

from __future__ import annotations

from typing import Any

import pytest

from spillebord.ai import Needs, best_agent, bots_for, make_agent
from spillebord.core import Rng
from spillebord.games.metscri import GAME, Collect, MetscriState, position
from spillebord.games.metscri.bots import HeuristicAgent, PlannerAgent, evaluate, known_tops, plan
from spillebord.testing import play_match


def _wins(agent: str, games: int, seats: int, opponent: str = "random", **options: Any) -> int:
    """Outright wins of ``agent`` against ``opponent`` in every other seat, the agent's seat
    rotating."""
    wins = 0
    for g in range(games):
        hero = g % seats
        players = [agent if i == hero else opponent for i in range(seats)]
        m = play_match(GAME, players, 500 + g, options)
        assert not m.truncated
        wins += m.outcome[hero] == 1.0
    return wins


def test_bots_are_registered_and_planner_is_best() -> None:
    assert best_agent(GAME) == "planner"
    assert bots_for(GAME).evaluate is evaluate
    assert isinstance(make_agent("heuristic", GAME), HeuristicAgent)
    assert isinstance(make_agent("best", GAME), PlannerAgent)
    assert HeuristicAgent.needs == PlannerAgent.needs == Needs(determinization=True, budget=False)


def test_heuristic_beats_random_clearly() -> None:
    wins = _wins("heuristic", 40, 2, target=10, max_rounds=30)
    assert wins >= 0.8 * 40, wins


@pytest.mark.slow
def test_heuristic_beats_random_four_seats_full_rules() -> None:
    wins = _wins("heuristic", 40, 4, max_rounds=200)
    assert wins >= 0.8 * 40, wins


@pytest.mark.slow
def test_planner_beats_random_four_seats_full_rules() -> None:
    wins = _wins("planner", 20, 4, max_rounds=200)
    assert wins >= 0.8 * 20, wins


@pytest.mark.slow
def test_greedy_on_evaluate_beats_random() -> None:
    wins = _wins("greedy", 20, 2, target=10, max_rounds=30)
    assert wins >= 0.65 * 20, wins


@pytest.mark.slow
def test_planner_beats_heuristic() -> None:
    wins = _wins("planner", 20, 2, "heuristic", target=20, max_rounds=60)
    assert wins >= 13, wins


def test_keep_rolling_policy() -> None:
    assert HeuristicAgent.keep_rolling(())
    assert HeuristicAgent.keep_rolling((1,))  # a 1 cannot be beaten downward
    assert not HeuristicAgent.keep_rolling((6,))  # 5/6 risk of losing 6
    assert HeuristicAgent.keep_rolling((2, 2))
    assert not HeuristicAgent.keep_rolling((1, 2, 3, 3, 3, 6))


def test_evaluate_prefers_collecting_and_agent_collects() -> None:
    s = position(
        """
        r1  .  .  4C*  AS*  .  .  .
        r2  .  .  .    4H*  .  .  .
        phase: collect    ap: 2
        """
    )
    after_collect = s.copy()
    after_collect.play(GAME.parse(s, "collect r1c2 r1c3 r2c3"))
    after_done = s.copy()
    after_done.play(GAME.parse(s, "done"))
    assert evaluate(after_collect, 0) > evaluate(after_done, 0)
    a = HeuristicAgent(GAME).act(s.copy(), 0, Rng(1))
    assert isinstance(a, Collect) and str(a) == "collect r1c2 r1c3 r2c3"  # the 6-point group


@pytest.mark.parametrize(
    "options",
    [
        {"memory_aid": False},
        {"collect_adjacency": "connected", "diagonal_steps": True, "allow_same_level_step": True},
        {"joker_rule": "strict_table", "memory_follows_moves": False, "carry_over_ap": True},
        {"lower_roll": "keep_sum", "win_check": "end_of_turn", "hand_limit": 8},
    ],
)
def test_heuristic_plays_every_variant_to_the_end(options: dict[str, object]) -> None:
    m = play_match(
        GAME,
        ["heuristic"] * 3,
        42,
        {"target": 8, "max_rounds": 12, **options},
        on_decision=lambda s: s.check(),
    )
    assert not m.truncated and m.decisions < 5000
    assert sum(m.outcome) == pytest.approx(1.0)


def test_planner_looks_two_moves_ahead() -> None:
    """A 4 two squares away from its partner pair: the planner brings it over in two moves
    (the second ply sees the group form), turning and collecting afterwards."""
    s = position(
        """
        r0  X  4C@0  4D@0  .  .  .     X
        r2  .  .     .     .  .  4H@0  .
        phase: move    ap: 5      # 2 moves + turning 3 cards (0 + 1 + 2)
        """
    )
    bot = PlannerAgent(GAME)
    a = bot.act(s.copy(), 0, Rng(1))
    s.play(a)
    b = bot.act(s.copy(), 0, Rng(1))
    s.play(b)
    # after two moves the three 4s touch: a valid group the plan can turn and collect
    assert isinstance(s, MetscriState)
    assert plan(s, 0, known_tops(s, 0))[0] >= 3, (str(a), str(b))
