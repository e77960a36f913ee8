"""Fuldrigger's own search (games/fuldrigger/search.py): paired playouts of the raider's move
(the game's best bot) and a few alternatives, the raider's move kept unless another is clearly
better. The positions come from the trader's games (the raider's own games are a standoff)."""

from __future__ import annotations

from spillebord.ai import Budget, LevelAgent, bots_for, decide, make_agent
from spillebord.core import Rng, registry
from spillebord.games.fuldrigger.rules import FuldriggerState
from spillebord.games.fuldrigger.search import KINDS, FuldriggerSearchAgent, width_for
from spillebord.testing import OnlyWhatTheSeatSees

GAME = registry.get("fuldrigger")


def _trader_game(decisions: int) -> FuldriggerState:
    """Fuldrigger seed 0, the trader on both seats for ``decisions`` decisions."""
    s = GAME.new(2, 0)
    trader = make_agent("trader", GAME)
    rng = Rng(5)
    for _ in range(decisions):
        s.play(decide(trader, s, rng))
    assert isinstance(s, FuldriggerState)
    return s


def _searched(after: int) -> FuldriggerState:
    """The first decision from ``after`` on that the search covers with an alternative to the
    trader's move."""
    s = _trader_game(after)
    trader = make_agent("trader", GAME)
    kit = bots_for(GAME)
    assert kit.defer is not None

    def choices(s: FuldriggerState) -> int:
        return sum(1 for a in s.legal() if str(a).split(" ", 1)[0] in KINDS)

    while not (s.phase == "free" and not kit.defer(s, s.turn) and choices(s) > 1):
        assert s.to_act is not None
        s.play(decide(trader, s, Rng(1)))
    return s


def test_ismcts_and_the_top_levels_are_fuldriggers_own_search() -> None:
    assert isinstance(make_agent("ismcts", GAME), FuldriggerSearchAgent)
    for level in (4, 5):
        agent = make_agent(f"level{level}", GAME)
        assert isinstance(agent, LevelAgent) and isinstance(agent.search, FuldriggerSearchAgent)


def test_width_grows_with_the_budget() -> None:
    assert [width_for(n) for n in (10, 80, 160, 320, 2000)] == [2, 3, 4, 5, 5]


def test_sailing_is_the_raiders_move_unsearched() -> None:
    s = _trader_game(7)  # the first ship's second step
    assert s.phase == "move"
    seat = s.to_act
    assert seat is not None
    agent = make_agent("ismcts", GAME)
    assert isinstance(agent, FuldriggerSearchAgent)
    want = decide(make_agent("raider", GAME), s, Rng(2))
    assert decide(agent, s, Rng(2), Budget(iterations=80)) == want
    assert agent.last_iterations == 0


def test_the_search_fights_as_the_raider_does() -> None:
    from spillebord.games.fuldrigger.bots import RaiderAgent
    from spillebord.games.fuldrigger.positions import dice2, scenario

    agent = make_agent("ismcts", GAME)
    assert isinstance(agent, FuldriggerSearchAgent) and isinstance(agent.base, RaiderAgent)
    # rule F13's position: two privateers one move from a loaded ship of the opponent's
    st = scenario(
        M=7,
        ships=[
            {"owner": 0, "at": "AZ2", "privateer": True},
            {"owner": 0, "at": "AZ2", "privateer": True},
            {"owner": 1, "at": "AZOR", "cargo": ("Te", 50, 4)},
        ],
        dice=dice2(8),
    )
    st.play(next(a for a in st.legal() if str(a) == "attack 1 AZOR"))
    assert st.phase == "muster"  # whom to send: the raider's choice, not searched
    assert str(decide(agent, st, Rng(2), Budget(iterations=80))) == "join s1"
    assert agent.last_iterations == 0


def test_a_free_decision_is_searched_within_its_budget_and_reproducibly() -> None:
    s = _searched(20)
    seat = s.to_act
    assert seat is not None
    agent = make_agent("ismcts", GAME)
    assert isinstance(agent, FuldriggerSearchAgent)
    a = decide(agent, s, Rng(3), Budget(iterations=40))
    spent = agent.last_iterations
    assert 1 <= spent <= 40 + 10  # one round of playouts may overshoot the budget
    assert agent.last_choice is not None and agent.last_choice[1] == a
    assert decide(agent, s, Rng(3), Budget(iterations=40)) == a  # the same seed and budget
    assert agent.last_iterations == spent


def test_analyse_ranks_every_legal_action_once_the_choice_first() -> None:
    s = _searched(20)
    seat = s.to_act
    assert seat is not None
    agent = make_agent("ismcts", GAME)
    assert isinstance(agent, FuldriggerSearchAgent)
    ranked = agent.analyse(s, seat, Rng(4), Budget(iterations=40))
    assert sorted(str(a) for a, _, _ in ranked) == sorted(str(a) for a in s.legal())
    searched = [r for r in ranked if r[1] > 0]
    assert 2 <= len(searched) <= width_for(40) and ranked[0][1] > 0
    assert all(0.0 <= p <= 1.0 for _, _, p in ranked)


def test_analysis_of_a_free_decision_reads_only_the_seats_determinizations() -> None:
    s = _searched(20)
    seat = s.to_act
    assert seat is not None
    agent = make_agent("ismcts", GAME)
    assert isinstance(agent, FuldriggerSearchAgent)
    guard = OnlyWhatTheSeatSees(s, seat)
    ranked = agent.analyse(guard, seat, Rng(4), Budget(iterations=20))  # type: ignore[arg-type]
    assert guard.calls == {"legal", "determinize"} and ranked[0][1] > 0


def test_the_fitted_value_is_a_chance_the_two_seats_share() -> None:
    from spillebord.games.fuldrigger.bots import search_value, value_features

    s = _searched(200)
    f0, f1 = value_features(s, 0), value_features(s, 1)
    assert f0 == [-x for x in f1] and any(f0)
    v = search_value(s)
    assert all(0.0 < x < 1.0 for x in v) and abs(sum(v) - 1.0) < 1e-9


def test_once_the_opponent_has_a_privateer_no_cargo_is_bought_against_the_raiders_move() -> None:
    from spillebord.games.fuldrigger.positions import scenario

    agent = make_agent("ismcts", GAME)
    assert isinstance(agent, FuldriggerSearchAgent)

    def searched(enemy_privateer: bool) -> list[str]:
        """The candidates played out for an empty merchant at home, where the raider fits it
        out as a privateer."""
        st = scenario(
            M=9,
            ships=[{"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS", "privateer": enemy_privateer}],
        )
        assert str(agent.base.act(st, 0, Rng(4))) == "fit s1"
        assert any(str(a).startswith("buy s1") for a in st.legal())
        ranked = agent.analyse(st, 0, Rng(4), Budget(iterations=80))
        return [str(a) for a, n, _ in ranked if n > 0]

    assert any(a.startswith("buy ") for a in searched(False))
    at_war = searched(True)
    assert at_war and not any(a.startswith("buy ") for a in at_war)


def test_the_master_plays_out_six_rounds_and_the_expert_four() -> None:
    from spillebord.games.fuldrigger.search import horizon_for

    assert [horizon_for(n) for n in (10, 80, 81, 320, 1200)] == [8, 8, 12, 12, 12]  # turns
    s = _searched(20)
    seat = s.to_act
    assert seat is not None
    agent = make_agent("ismcts", GAME)
    assert isinstance(agent, FuldriggerSearchAgent)
    d = s.determinize(seat, Rng(6))
    first = s.legal()[0]
    turns = []
    for horizon in (horizon_for(80), horizon_for(320)):
        _, n = agent._playout(d, seat, first, horizon)
        c = d.copy()  # replay the playout's n decisions (the raider draws nothing) to count its turns
        seen, turn = 0, c.turn
        for i in range(n):
            who = c.to_act
            assert who is not None
            c.play(first if i == 0 else agent.base.act(c, who, Rng(0)))
            if c.turn != turn:
                seen, turn = seen + 1, c.turn
        turns.append(seen)
    assert turns == [8, 12]
