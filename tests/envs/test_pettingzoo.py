"""PettingZoo AEC: the library's own api_test and seed_test for every game, whole games,
truncation at the decision bound, render and close."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from spillebord.core import registry
from spillebord.envs import env, raw_env

GAMES = [g.id for g in registry.all_games() if type(g).__module__.startswith("spillebord.games.")]


@pytest.mark.parametrize("game_id", GAMES)
def test_api_test(game_id: str) -> None:
    api_test(env(game_id, render_mode="ansi"), num_cycles=300)


@pytest.mark.parametrize("game_id", GAMES)
def test_seed_test(game_id: str) -> None:
    seed_test(lambda: env(game_id), num_cycles=300)


def play_out(e: object, seed: int) -> dict[str, float]:
    e.reset(seed=seed)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    total: dict[str, float] = {}
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, term, trunc, _ = e.last()  # type: ignore[attr-defined]
        total[agent] = total.get(agent, 0.0) + reward
        if term or trunc:
            e.step(None)  # type: ignore[attr-defined]
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))  # type: ignore[attr-defined]
    return total


@pytest.mark.parametrize("game_id", ["kasino", "88", "fuldrigger"])
def test_whole_game_rewards_are_the_outcome(game_id: str) -> None:
    game = registry.get(game_id)
    e = raw_env(game_id, seats=2, **game.quick_options)
    totals = play_out(e, 4)
    state = e.session.state  # type: ignore[union-attr]
    assert state.to_act is None
    assert tuple(totals[f"player_{i}"] for i in range(2)) == state.outcome()
    assert e.agents == []


def test_partnerships_share_the_reward() -> None:
    e = raw_env("partners", seats=4, **registry.get("partners").quick_options)
    totals = play_out(e, 2)
    assert totals["player_0"] == totals["player_2"] and totals["player_1"] == totals["player_3"]
    assert totals["player_0"] + totals["player_1"] == 1.0


def test_truncation_at_the_decision_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that reaches its decision bound ends truncated (not terminated), ranked by score."""
    from dataclasses import replace

    game = registry.get("kasino")
    monkeypatch.setattr(type(game), "kind", replace(game.kind, max_decisions=7))
    e = raw_env("kasino", seats=2)
    e.reset(seed=1)
    rng = np.random.default_rng(0)
    ends = []
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            ends.append((term, trunc))
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert ends == [(False, True), (False, True)]


def test_render_is_the_terminal_picture_and_close() -> None:
    e = env("kasino", seats=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "Kasino" in text
    e.close()


def test_unknown_game_and_bad_seats_are_readable() -> None:
    from spillebord.core import SpillebordError

    with pytest.raises(SpillebordError, match="kassino"):
        env("kassino")
    with pytest.raises(SpillebordError, match="9"):
        env("kasino", seats=9)
