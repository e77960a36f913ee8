"""Partners' own search (``games/partners/search.py``): paired playouts of the bot's best moves."""

from __future__ import annotations

from spillebord.ai import Budget, bots_for, make_agent
from spillebord.ai.levels import LevelAgent
from spillebord.core import Rng, registry
from spillebord.games.partners import bots as PB
from spillebord.games.partners.rules import PartnersState
from spillebord.games.partners.search import (
    SWITCH_MARGIN,
    SWITCH_Z,
    PartnersSearchAgent,
    switch_to,
    width_for,
)

GAME = registry.get("partners")


def positions(seeds: range, every: int, phase: str = "play") -> list[PartnersState]:
    policy = bots_for(GAME).rollout
    assert policy is not None
    out: list[PartnersState] = []
    for seed in seeds:
        s = GAME.new(4, seed)
        assert isinstance(s, PartnersState)
        rng = Rng(seed)
        n = 0
        while s.to_act is not None:
            if n % every == every // 2 and s.phase == phase and len(s.legal()) > 1:
                out.append(s.copy())
            s.play(policy(s, rng))
            n += 1
    return out


def search_agent() -> PartnersSearchAgent:
    agent = make_agent("ismcts", GAME)
    assert isinstance(agent, PartnersSearchAgent)
    return agent


def test_ismcts_and_the_searching_levels_use_partners_own_search() -> None:
    assert isinstance(make_agent("ismcts", GAME), PartnersSearchAgent)
    for name in ("level4", "level5"):
        agent = make_agent(name, GAME)
        assert isinstance(agent, LevelAgent)
        assert isinstance(agent.search, PartnersSearchAgent)


def test_the_width_grows_with_the_budget_within_bounds() -> None:
    assert width_for(1) == 2
    assert width_for(75) == 4
    assert width_for(300) == 6
    assert [width_for(n) for n in range(1, 400)] == sorted(width_for(n) for n in range(1, 400))


def test_a_candidate_replaces_the_bots_move_half_a_standard_error_ahead() -> None:
    """Paired differences to the bot's move (index 0): a candidate is played when its mean
    gain exceeds ``SWITCH_Z`` (0.5) standard errors and ``SWITCH_MARGIN``; the largest gain
    among those wins."""
    assert SWITCH_Z == 0.5

    def sums(xs: list[float]) -> tuple[float, float]:
        return sum(xs), sum(x * x for x in xs)

    rounds = 16
    ahead = [0.06, -0.04] * 8  # mean 0.01, standard error 0.05 / sqrt(15): 0.77 of them ahead
    small = [0.003] * 16  # no spread, but under the margin
    behind = [-x for x in ahead]
    cols = [sums([0.0] * 16), sums(ahead), sums(small), sums(behind)]
    diffs, diffs2 = [c[0] for c in cols], [c[1] for c in cols]
    assert SWITCH_MARGIN > 0.003
    assert switch_to(diffs, diffs2, rounds) == 1
    assert switch_to(diffs[:1] + diffs[2:], diffs2[:1] + diffs2[2:], rounds) == 0
    wider = [0.11, -0.09] * 8  # mean 0.01, 1.5 standard errors of it: 0.39 ahead
    assert switch_to([0.0, sum(wider)], [0.0, sum(x * x for x in wider)], rounds) == 0
    better = [0.08, -0.04] * 8  # mean 0.02: the larger gain of two that pass
    cols2 = [*cols, sums(better)]
    assert switch_to([c[0] for c in cols2], [c[1] for c in cols2], rounds) == 4


def test_analyse_ranks_every_legal_action_once_within_the_budget() -> None:
    agent = search_agent()
    for i, s in enumerate(positions(range(2), every=25)[:6]):
        seat = s.to_act
        assert seat is not None
        ranked = agent.analyse(s.determinize(seat, Rng(i)), seat, Rng(i), Budget(iterations=40))
        assert sorted(map(str, (a for a, _, _ in ranked))) == sorted(map(str, s.legal()))
        assert 0 < agent.last_iterations <= 40
        assert ranked[0][1] > 0
        assert all(0.0 <= v <= 1.0 for _, _, v in ranked)


def test_the_search_is_deterministic_and_reads_only_what_the_seat_knows() -> None:
    """Two determinizations of the same seat's knowledge (the other hands dealt differently)
    give the same choice for the same seed: the search samples only from ``determinize``."""
    agent = search_agent()
    for i, s in enumerate(positions(range(3), every=30)[:8]):
        seat = s.to_act
        assert seat is not None
        d1, d2 = s.determinize(seat, Rng(1)), s.determinize(seat, Rng(2))
        a1 = agent.act(d1, seat, Rng(100 + i), Budget(iterations=24))
        assert agent.act(d2, seat, Rng(100 + i), Budget(iterations=24)) == a1
        assert agent.act(d1, seat, Rng(100 + i), Budget(iterations=24)) == a1


def test_the_exchange_is_left_to_the_bot_and_its_analysis_to_the_generic_search() -> None:
    agent = search_agent()
    bot = PB.PartnersBot(GAME)
    for i, s in enumerate(positions(range(2), every=7, phase="exchange")[:6]):
        seat = s.to_act
        assert seat is not None
        d = s.determinize(seat, Rng(i))
        assert agent.act(d, seat, Rng(i), Budget(iterations=50)) == bot.act(d, seat, Rng(i))
        assert agent.last_iterations == 0
        ranked = agent.analyse(d, seat, Rng(i), Budget(iterations=30))  # hints: the generic search
        assert sorted(map(str, (a for a, _, _ in ranked))) == sorted(map(str, s.legal()))
        assert agent.last_iterations == 30


def test_one_ply_is_the_value_the_bot_maximises() -> None:
    bot = PB.PartnersBot(GAME)
    for i, s in enumerate(positions(range(2), every=9)[:20]):
        legal = s.legal()
        vals = PB.one_ply(s, legal)
        chosen = bot.act(s, s.to_act or 0, Rng(i))
        assert vals[legal.index(chosen)] == max(vals)
