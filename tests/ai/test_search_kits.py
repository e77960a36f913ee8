"""Every game's search kit (playout policy, value, priors, secret choices) and the five levels:
legal, reproducible, and built by name."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spillebord.ai import LEVEL_NAMES, Budget, IsmctsAgent, LevelAgent, bots_for, decide, make_agent
from spillebord.ai.playout import epsilon_greedy, logistic_value
from spillebord.ai.speed import iterations_per_second, midgame
from spillebord.core import AnyGame, Rng, State, registry
from toygame import TOY

GAMES = [g for g in registry.all_games() if type(g).__module__.startswith("spillebord.games.")]
# Fuldrigger's and Metscri's mid-games take seconds to reach: they are searched from a few
# decisions in instead.
SEATS = {"partners": 4}
SECRET = {"revir", "partners"}


def early(game: AnyGame, seed: int = 0, decisions: int = 30) -> State[Any]:
    """A position a few decisions in, reached by the game's playout policy."""
    s = game.new(SEATS.get(game.id, 2), seed)
    policy = bots_for(game).rollout
    assert policy is not None
    rng = Rng(seed)
    for _ in range(decisions):
        if s.to_act is None:
            break
        s.play(policy(s, rng))
    return s


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_game_has_a_search_kit(game: AnyGame) -> None:
    kit = bots_for(game)
    assert kit.rollout is not None and kit.value is not None
    assert 1 <= kit.cutoff <= 60
    assert kit.scale > 0 and kit.iterations >= 20
    assert (kit.secret is not None) == (game.id in SECRET)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_playouts_play_legal_actions_and_values_are_chances(game: AnyGame) -> None:
    kit = bots_for(game)
    assert kit.rollout is not None and kit.value is not None
    s = early(game, seed=1, decisions=0)
    rng = Rng(5)
    for _ in range(60):
        if s.to_act is None:
            break
        a = kit.rollout(s, rng)
        assert a in s.legal()
        s.play(a)
        v = kit.value(s)
        assert len(v) == s.seats and all(0.0 <= x <= 1.0 for x in v)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_same_seed_and_iterations_give_the_same_move(game: AnyGame) -> None:
    s = early(game)
    seat = s.to_act
    assert seat is not None
    a = decide(IsmctsAgent(game), s, Rng(7), Budget(iterations=40))
    b = decide(IsmctsAgent(game), s, Rng(7), Budget(iterations=40))
    assert a == b and a in s.legal()


@pytest.mark.parametrize(
    "game", [g for g in GAMES if bots_for(g).prior is not None], ids=lambda g: g.id
)  # the others expand in random order
def test_priors_weigh_every_action_given(game: AnyGame) -> None:
    kit = bots_for(game)
    assert kit.prior is not None
    s = early(game)
    legal = list(s.legal())
    w = kit.prior(s, legal)
    assert len(w) == len(legal) and all(math.isfinite(x) for x in w)


def test_the_eightyeight_prior_puts_the_heuristics_move_first() -> None:
    from spillebord.games.eightyeight.actions import STAY, Move
    from spillebord.games.eightyeight.bots import choose_panel

    game = registry.get("88")
    kit = bots_for(game)
    assert kit.prior is not None
    s = early(game, decisions=0)
    policy = kit.rollout
    assert policy is not None
    rng = Rng(1)
    for _ in range(20):  # the second round's moves
        s.play(policy(s, rng))
    while s.to_act is not None and not any(isinstance(a, Move) for a in s.legal()):
        s.play(policy(s, rng))
    seat = s.to_act
    assert seat is not None
    legal = list(s.legal())
    w = kit.prior(s, legal)
    o, n, _ = choose_panel(s, seat, Rng(0))  # type: ignore[arg-type]
    want = STAY if o == "stay" else Move(o, n)
    assert w[legal.index(want)] == max(w)


@given(st.floats(-1e4, 1e4))
def test_logistic_value_is_a_chance_and_grows_with_the_evaluation(x: float) -> None:
    s = TOY.new(2, seed=1)
    v = logistic_value(lambda _s, seat: x if seat == 0 else -x, 10.0)(s)
    assert 0.0 <= v[0] <= 1.0 and v[0] + v[1] == pytest.approx(1.0)
    assert (v[0] > 0.5) == (x > 1e-9) or abs(x) < 1e-6


def test_logistic_value_scale_is_the_73_percent_point() -> None:
    s = TOY.new(2, seed=1)
    v = logistic_value(lambda _s, seat: 10.0 if seat == 0 else -10.0, 10.0)(s)
    assert v[0] == pytest.approx(1 / (1 + math.exp(-1)))  # 0.731


def test_epsilon_greedy_follows_the_heuristic_except_epsilon_of_the_time() -> None:
    s = TOY.new(2, seed=1)
    first = s.legal()[0]
    policy = epsilon_greedy(lambda st_, _seat, _rng: st_.legal()[0], 0.2)
    rng = Rng(3)
    picks = [policy(s, rng) for _ in range(2000)]
    share = picks.count(first) / len(picks)
    k = len(s.legal())
    assert share == pytest.approx(0.8 + 0.2 / k, abs=0.03)


@pytest.mark.parametrize("level", sorted(LEVEL_NAMES))
def test_levels_are_built_by_name_for_every_game(level: int) -> None:
    for game in GAMES:
        agent = make_agent(f"level{level}", game)
        assert isinstance(agent, LevelAgent)
        assert agent.name == f"level{level}" and agent.title == LEVEL_NAMES[level]


@pytest.mark.parametrize("level", sorted(LEVEL_NAMES))
def test_levels_are_also_called_by_their_names_but_listed_once(level: int) -> None:
    from spillebord.ai import agent_names, canonical

    called = LEVEL_NAMES[level]
    for text in (called.lower(), called, called.upper()):
        assert canonical(text) == f"level{level}"
        agent = make_agent(text, registry.get("revir"))
        assert isinstance(agent, LevelAgent) and agent.level == level
    assert called.lower() not in agent_names(registry.get("revir"))
    assert canonical("greedy") == "greedy" and canonical("nobody") == "nobody"


def test_the_levels_play_the_games_bots_and_the_two_top_levels_search() -> None:
    """Club plays the best bot, Casual it with mistakes, Expert and Master search; a game's
    ``levels`` may name other bots for Club (and so Casual) and Expert (Metscri only)."""
    for game in GAMES:
        kit = bots_for(game)
        levels = {n: LevelAgent(game, n) for n in LEVEL_NAMES}
        assert levels[1].heuristic is None and levels[1].search is None
        club = kit.levels.get(3, kit.best)
        for n in (2, 3):
            assert type(levels[n].heuristic) is type(make_agent(club, game)) and levels[n].search is None
        assert levels[5].search is not None and levels[5].heuristic is None
        if 4 in kit.levels:
            assert type(levels[4].heuristic) is type(make_agent(kit.levels[4], game))
            assert levels[4].search is None
        else:
            assert levels[4].search is not None and levels[4].heuristic is None
    assert sorted(g.id for g in GAMES if bots_for(g).levels) == ["metscri"]


def test_a_kit_names_other_bots_for_club_and_expert_only() -> None:
    from spillebord.ai.registry import GameBots

    assert GameBots(levels={3: "planner", 4: "gatherer"}).levels == {3: "planner", 4: "gatherer"}
    for level in (1, 2, 5):
        with pytest.raises(ValueError, match="levels 3 and 4 only"):
            GameBots(levels={level: "greedy"})


def test_the_expert_thinks_a_quarter_of_the_master() -> None:
    game = registry.get("kasino")
    master, expert = LevelAgent(game, 5), LevelAgent(game, 4)
    assert master.budget(None) == Budget(iterations=bots_for(game).iterations)
    assert expert.budget(None) == Budget(iterations=bots_for(game).iterations // 4)
    assert expert.budget(Budget(iterations=400)) == Budget(iterations=100)
    # a time budget (the server's) caps the level's own iterations
    quarter = bots_for(game).iterations // 4
    assert expert.budget(Budget(seconds=2.0)) == Budget(seconds=2.0, iterations=quarter)


def test_a_time_budget_caps_the_iterations() -> None:
    game = registry.get("kasino")
    agent = IsmctsAgent(game)
    s = early(game)
    seat = s.to_act
    assert seat is not None
    agent.analyse(s, seat, Rng(1), Budget(iterations=50, seconds=60.0))
    assert agent.last_iterations == 50
    agent.analyse(s, seat, Rng(1), Budget(iterations=10**9, seconds=0.05))
    assert 0 < agent.last_iterations < 10**9


@pytest.mark.parametrize("level", sorted(LEVEL_NAMES))
def test_every_level_plays_legal_reproducible_moves(level: int) -> None:
    game = registry.get("kasino")
    s = early(game)
    budget = Budget(iterations=30)
    a = decide(make_agent(f"level{level}", game), s, Rng(2), budget)
    b = decide(make_agent(f"level{level}", game), s, Rng(2), budget)
    assert a == b and a in s.legal()


def test_iterations_per_second_is_measured_at_mid_game() -> None:
    game = registry.get("kasino")
    s = midgame(game, 2, 0)
    assert s.to_act is not None and s.decisions > 10
    assert iterations_per_second(game, 2, seeds=1, iterations=20) > 0


def test_iterations_per_second_counts_only_positions_the_search_searches() -> None:
    # Half way through seed 1's Fuldrigger game (the raider on both sides) an attack is being
    # mustered with one privateer to send: the search plays it without an iteration. Timing
    # 30 iterations that were never run gave 66 million a second.
    game = registry.get("fuldrigger")
    s = midgame(game, 2, 1)
    assert s.to_act is not None and len(s.legal()) == 1
    bot = make_agent("ismcts", game)
    bot.analyse(s.determinize(s.to_act, Rng(0)), s.to_act, Rng(0), Budget(iterations=30))
    assert bot.last_iterations == 0
    assert 0 < iterations_per_second(game, 2, seeds=2, iterations=30) < 100_000


def test_bench_shows_the_search_speed() -> None:
    import json

    from typer.testing import CliRunner

    from spillebord.cli import app

    runner = CliRunner()
    r = runner.invoke(app, ["bench", "kasino", "--games", "2", "--json"])
    assert r.exit_code == 0, r.output
    row = json.loads(r.output)["kasino"]
    assert row["ismcts_iterations_per_s"] > 0 and row["ismcts_seats"] == 2
    r = runner.invoke(app, ["bench", "kasino", "--games", "2", "--json", "--no-search"])
    assert "ismcts_iterations_per_s" not in json.loads(r.output)["kasino"]


def _revir_fight(seed: int) -> State[Any]:
    """A Revir position where an attacker is to submit its first bid of a fight."""
    game = registry.get("revir")
    s = game.new(2, seed)
    policy = bots_for(game).rollout
    assert policy is not None
    rng = Rng(seed)
    while s.to_act is not None:
        f = getattr(s, "fight", None)
        if f is not None and s.to_act == f.attacker and f.pending is None and s.avail(f.attacker) >= 2:
            return s
        s.play(policy(s, rng))
    raise AssertionError("no fight in this game")


def test_revir_search_sees_a_fight_rounds_revealed_bids() -> None:
    """The defender's answer reveals both bids (rule 7.2): the attacker's next bid is searched
    below the actual pair of the round before, not in statistics shared over the defender's
    answers, while the defender's answer still cannot see the attacker's sealed bid."""
    s = _revir_fight(1)
    attacker = s.to_act
    assert attacker is not None
    defender = s.fight.defender  # type: ignore[attr-defined]
    agent = IsmctsAgent(registry.get("revir"))
    agent.analyse(s, attacker, Rng(2), Budget(iterations=400))
    root = agent._root
    assert root is not None
    assert set(root.shared) == {defender}  # the answer is shared over the sealed bids
    assert not root.shared[defender].shared  # ...and nothing after it is
    second = [n for c in root.children.values() for n in c.children.values() if n.children]
    assert second  # the next round lives below the revealed pair


def test_revir_value_follows_the_stones_ahead() -> None:
    """Revir's search value is the fitted model: more stones ahead, a better chance."""
    from spillebord.games.revir.bots import value

    s = registry.get("revir").new(2, 3)
    base = value(s)
    assert abs(sum(base) - 1) < 1e-9
    richer = s.copy()
    richer.stones = (s.stones[0] + 5, s.stones[1])  # type: ignore[attr-defined]
    assert value(richer)[0] > base[0] + 0.2


def test_eightyeight_value_finishes_the_round_and_leaves_the_state_alone() -> None:
    """88's search value plays a cut-off round to its end (a copy) before judging it."""
    game = registry.get("88")
    value = bots_for(game).value
    assert value is not None
    s = early(game, seed=2, decisions=9)
    assert s.to_act is not None and s.phase != "target"  # type: ignore[attr-defined]
    before = s.view(None)
    v = value(s)
    assert s.view(None) == before
    assert all(0.0 <= x <= 1.0 for x in v) and abs(sum(v) - 1) < 1e-9
    assert value(s) == v  # reproducible


def _trader_game(decisions: int) -> tuple[State[Any], int, dict[str, int]]:
    """Fuldrigger seed 0, the trader on both seats for ``decisions`` decisions: the position,
    how many of them the search would defer, and by phase."""
    game = registry.get("fuldrigger")
    kit = bots_for(game)
    assert kit.defer is not None
    s = game.new(2, 0)
    trader = make_agent("trader", game)
    rng = Rng(5)
    deferred = 0
    phases: dict[str, int] = {}
    for _ in range(decisions):
        seat = s.to_act
        assert seat is not None
        if kit.defer(s, seat):
            deferred += 1
            ph: str = s.phase  # type: ignore[attr-defined]
            phases[ph] = phases.get(ph, 0) + 1
        s.play(decide(trader, s, rng))
    return s, deferred, phases


def test_fuldrigger_search_leaves_a_routes_further_steps_to_the_raider() -> None:
    _, deferred, phases = _trader_game(300)
    assert deferred == 252
    assert phases == {"move": 212, "free": 30, "window": 10}  # the free ones: first steps


def test_fuldrigger_expert_sails_on_like_the_raider_without_searching() -> None:
    s, _, _ = _trader_game(7)  # the first ship's second step
    assert s.phase == "move"  # type: ignore[attr-defined]
    game = registry.get("fuldrigger")
    seat = s.to_act
    assert seat is not None
    expert = IsmctsAgent(game)
    want = decide(make_agent("raider", game), s, Rng(2))
    assert decide(expert, s, Rng(2), Budget(iterations=80)) == want
    assert expert.last_iterations == 0
    s.play(want)
    while s.phase != "free" or str(decide(make_agent("raider", game), s, Rng(2))).startswith("sail"):  # type: ignore[attr-defined]
        s.play(decide(make_agent("raider", game), s, Rng(2)))
    assert s.decisions == 48  # type: ignore[attr-defined]
    assert str(decide(make_agent("raider", game), s, Rng(2))) == "end"
    decide(expert, s, Rng(2), Budget(iterations=20))  # whether to end the turn: searched
    assert expert.last_iterations == 20


def test_fuldrigger_search_tries_the_traders_kinds_of_action_first() -> None:
    s, _, _ = _trader_game(48)  # the end of the turn above
    kit = bots_for(registry.get("fuldrigger"))
    assert kit.prior is not None and kit.widen == 1
    legal = s.legal()
    weights = dict(zip((str(a).split(" ", 1)[0] for a in legal), kit.prior(s, legal), strict=False))
    assert weights == {"end": 1.0, "jettison": 0.0, "offer": 0.0, "sellship": 0.0}
