"""The Metscri heuristic bot (and the generic greedy agent on its evaluation) beat random play."""

from __future__ import annotations

import pytest

from spillebord.ai import decide, make_agent
from spillebord.core import Rng
from spillebord.core.options import build
from spillebord.games.metscri import GAME
from spillebord.games.metscri.heuristics import HeuristicAgent, evaluate


def _match(agent: str, games: int, seats: int, **options: object) -> int:
    opts = build(GAME.Options, options)
    bot, rnd = make_agent(agent, GAME), make_agent("random", GAME)
    wins = 0
    for g in range(games):
        hero = g % seats
        s = GAME.new(seats, 500 + g, opts)
        r = Rng(g)
        while s.to_act is not None:
            s.play(decide(bot if s.to_act == hero else rnd, s, r))
        res = s.result()
        assert res is not None
        wins += res[hero] > 0 and sum(res) == 1
    return wins


def test_bots_are_registered_and_planner_is_best() -> None:
    from spillebord.games.metscri.heuristics import PlannerAgent

    assert GAME.best_bot == "planner"
    assert isinstance(make_agent("heuristic", GAME), HeuristicAgent)
    assert isinstance(make_agent("all", GAME), PlannerAgent)


def test_heuristic_beats_random_clearly() -> None:
    wins = _match("heuristic", 40, 2, target=10, max_rounds=30)
    assert wins >= 0.8 * 40, wins


@pytest.mark.slow
def test_heuristic_beats_random_four_seats_full_rules() -> None:
    wins = _match("heuristic", 40, 4, max_rounds=200)
    assert wins >= 0.8 * 40, wins


@pytest.mark.slow
def test_planner_beats_random_four_seats_full_rules() -> None:
    wins = _match("planner", 20, 4, max_rounds=200)
    assert wins >= 0.8 * 20, wins


@pytest.mark.slow
def test_greedy_on_evaluate_beats_random() -> None:
    wins = _match("greedy", 20, 2, target=10, max_rounds=30)
    assert wins >= 0.65 * 20, wins


def test_keep_rolling_policy() -> None:
    assert HeuristicAgent.keep_rolling(())
    assert HeuristicAgent.keep_rolling((1,))  # a 1 cannot be beaten downward
    assert not HeuristicAgent.keep_rolling((6,))  # 5/6 risk of losing 6
    assert HeuristicAgent.keep_rolling((2, 2))
    assert not HeuristicAgent.keep_rolling((1, 2, 3, 3, 3, 6))


def test_evaluate_prefers_collecting_and_agent_collects() -> None:
    from spillebord.games.metscri.data import card_of, sq
    from spillebord.games.metscri.rules import COLLECT, Collect

    s = GAME.new(2, 3)
    faces = {sq(1, 2): "4C", sq(1, 3): "AS", sq(2, 3): "4H"}
    cards = {q: card_of(f) for q, f in faces.items()}
    for h in range(2):  # keep conservation: take the cards from wherever they are
        s.hands[h] = tuple(c for c in s.hands[h] if c not in cards.values())
    s.buy = tuple(c for c in s.buy if c not in cards.values())
    s.buy = s.buy + tuple(
        c
        for c in range(104)
        if c not in s.buy and all(c not in h for h in s.hands) and c not in cards.values()
    )
    for q, c in cards.items():
        s.board[q] = (c,)
        s.known[c] = s.all_seats
        s.up |= 1 << q
    s.phase, s.ap, s.ap_earned, s.rolls = COLLECT, 2, 2, (2,)
    s._legal = None
    s.check()
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
    opts = build(GAME.Options, {"target": 8, "max_rounds": 12, **options})
    bot = make_agent("heuristic", GAME)
    s = GAME.new(3, 42, opts)
    r = Rng(1)
    steps = 0
    while s.to_act is not None:
        s.play(decide(bot, s, r))
        steps += 1
        s.check()
    assert s.result() is not None and steps < 5000


def test_planner_looks_two_moves_ahead() -> None:
    """A 4 two squares away from its partner pair: the planner brings it over in two moves
    (the second ply sees the group form), turning and collecting afterwards."""
    from spillebord.games.metscri.data import card_of, sq
    from spillebord.games.metscri.heuristics import PlannerAgent
    from spillebord.games.metscri.rules import MOVE

    s = GAME.new(2, 3)
    faces = {sq(0, 1): "4C", sq(0, 2): "4D", sq(2, 5): "4H"}
    cards = {q: card_of(f) for q, f in faces.items()}
    placed = set(cards.values())
    s.hands = [tuple(c for c in h if c not in placed) for h in s.hands]
    s.buy = tuple(c for c in s.buy if c not in placed)
    s.buy += tuple(
        c for c in range(104) if c not in s.buy and c not in placed and all(c not in h for h in s.hands)
    )
    for q, c in cards.items():
        s.board[q] = (c,)
        s.known[c] = 1  # seat 0 knows all three
    s.phase, s.ap, s.ap_earned, s.rolls = MOVE, 5, 5, (5,)  # 2 moves + turning 3 cards (0+1+2)
    s._legal = None
    s.check()
    bot = PlannerAgent(GAME)
    a = bot.act(s.copy(), 0, Rng(1))
    s.play(a)
    b = bot.act(s.copy(), 0, Rng(1))
    s.play(b)
    # after two moves the three 4s touch: a valid group the plan can turn and collect
    from spillebord.games.metscri.heuristics import known_tops, plan

    assert plan(s, 0, known_tops(s, 0))[0] >= 3, (str(a), str(b))


@pytest.mark.slow
def test_planner_beats_heuristic() -> None:
    opts = build(GAME.Options, {"target": 20, "max_rounds": 60})
    planner, heuristic = make_agent("planner", GAME), make_agent("heuristic", GAME)
    wins = 0
    for g in range(20):
        hero = g % 2
        s = GAME.new(2, 4242 + g, opts)
        r = Rng(g)
        while s.to_act is not None:
            s.play(decide(planner if s.to_act == hero else heuristic, s, r))
        res = s.result()
        assert res is not None
        wins += res[hero] > 0 and sum(res) == 1
    assert wins >= 13, wins
