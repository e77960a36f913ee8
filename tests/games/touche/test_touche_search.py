"""Touché's own search (``rollsearch``): paired rollouts over the heuristic's shortlist."""

from __future__ import annotations

from spillebord.ai import Budget, make_agent
from spillebord.core import Rng
from spillebord.games.touche import GAME
from spillebord.games.touche.position import position
from spillebord.games.touche.rollsearch import RolloutSearchAgent, shortlist

BUDGET = Budget(iterations=40)


def test_ismcts_and_the_search_levels_use_it() -> None:
    assert isinstance(make_agent("ismcts", GAME), RolloutSearchAgent)
    assert isinstance(make_agent("level5", GAME).search, RolloutSearchAgent)  # type: ignore[attr-defined]


def test_shortlist_grows_with_the_budget() -> None:
    assert shortlist(110, 30) == 4 and shortlist(440, 30) == 10
    assert shortlist(110, 3) == 3 and shortlist(1, 30) == 2


def test_it_completes_a_pattern() -> None:
    s = position(grade=1, marks={"r3c0": 0, "r3c1": 0, "r4c0": 0}, hands={0: ["7D", "AS", "KH", "3S", "JK"]})
    agent = RolloutSearchAgent(GAME)
    assert str(agent.act(s, 0, Rng(1), BUDGET)) == "place 7D r4c1"


def test_analyse_ranks_every_legal_action_once() -> None:
    s = position(grade=2, marks={"r3c0": 1, "r3c1": 1, "r3c2": 1}, hands={0: ["4S", "AH", "KH", "2H", "3H"]})
    ranked = RolloutSearchAgent(GAME).analyse(s, 0, Rng(2), BUDGET)
    assert sorted(str(a) for a, _, _ in ranked) == sorted(str(a) for a in s.legal())
    played = [t for t in ranked if t[1] > 0]
    assert len(played) == shortlist(40, len(ranked)) and played == ranked[: len(played)]
    assert all(0.0 <= v <= 1.0 for _, _, v in ranked)


def test_it_sees_only_its_own_seat() -> None:
    """Two positions that differ only in the opponent's hand (and so in the piles) are the
    same to seat 0: the same ranking, the same move."""
    marks = {"r3c0": 1, "r3c1": 1, "r3c2": 1, "r4c4": 0, "r4c5": 0}
    mine = ["4S", "AH", "KH", "2H", "JK"]
    a = position(grade=2, marks=marks, hands={0: mine, 1: ["5D", "6D", "7D", "8D", "9D"]}, seed=3)
    b = position(grade=2, marks=marks, hands={0: mine, 1: ["2C", "3C", "4C", "5C", "6C"]}, seed=3)
    agent = RolloutSearchAgent(GAME)
    ra = agent.analyse(a, 0, Rng(5), BUDGET)
    rb = agent.analyse(b, 0, Rng(5), BUDGET)
    assert ra == rb
    assert agent.act(a, 0, Rng(5), BUDGET) == agent.act(b, 0, Rng(5), BUDGET)


def test_the_grade_goes_to_the_generic_search() -> None:
    s = GAME.new(2, 1)
    assert s.phase == "grade"
    agent = RolloutSearchAgent(GAME)
    assert str(agent.act(s, s.to_act or 0, Rng(1), BUDGET)).startswith("grade")
    assert len(agent.analyse(s, s.to_act or 0, Rng(1), BUDGET)) == 5


def test_its_rounds_are_the_paired_playouts_tools_replay() -> None:
    """``tools/touche_switch.py`` replays the search's rounds with ``paired``: the search's
    means are the means of those rounds, drawn from the same seeds."""
    s = position(grade=2, marks={"r3c0": 1, "r3c1": 1, "r3c2": 1}, hands={0: ["4S", "AH", "KH", "2H", "3H"]})
    agent = RolloutSearchAgent(GAME)
    ranked, base, _ = agent._search(s, 0, Rng(7), BUDGET)
    rng = Rng(7)
    scored = agent.heuristic.scores(s, 0)
    assert agent.heuristic.act(s, 0, rng.spawn()) == base
    order = sorted(scored, key=lambda t: -t[1])
    k = shortlist(40, len(scored))
    cands = [base, *[a for a, _ in order if a != base][: k - 1]]
    rounds = [agent.paired(s, 0, cands, rng.next64()) for _ in range(40 // k)]
    means = {a: sum(r[j] for r in rounds) / len(rounds) for j, a in enumerate(cands)}
    played = [(a, n, v) for a, n, v in ranked if n > 0]
    assert len(played) == k and {a for a, _, _ in played} == set(cands)
    assert all(n == len(rounds) and v == means[a] for a, n, v in played)
