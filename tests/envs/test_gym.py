"""Gymnasium: one seat against bots, checked by Gymnasium's own check_env for every game."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from spillebord.core import registry
from spillebord.envs import single_agent

GAMES = [g.id for g in registry.all_games() if type(g).__module__.startswith("spillebord.games.")]


@pytest.mark.parametrize("game_id", GAMES)
def test_check_env(game_id: str) -> None:
    e = single_agent(game_id, opponents=["random"], render_mode="ansi")
    check_env(e, skip_render_check=False)
    assert isinstance(e.render(), str)


def test_touche_against_heuristic_plays_to_the_end() -> None:
    e = single_agent("touche", opponents=["heuristic"], options=registry.get("touche").quick_options)
    obs, info = e.reset(seed=3)
    rng = np.random.default_rng(3)
    done, reward, steps = False, 0.0, 0
    while not done:
        assert obs["action_mask"].any() and np.array_equal(obs["action_mask"], info["action_mask"])
        token = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, term, trunc, info = e.step(token)
        assert not info["illegal"]
        done, steps = term or trunc, steps + 1
    state = e.session.state
    assert state.to_act is None and reward == state.outcome()[0]


def test_an_illegal_token_is_mapped_or_refused() -> None:
    e = single_agent("kasino", opponents=["random"])
    obs, _ = e.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, _, _, _, info = e.step(bad)
    assert info["illegal"]
    strict = single_agent("kasino", opponents=["random"], illegal="error")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(bad)


def test_opponents_count_is_checked() -> None:
    with pytest.raises(ValueError, match="3 opponents"):
        single_agent("kasino", seats=4, opponents=["random", "greedy"])
