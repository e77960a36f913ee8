"""A token policy as a Spillebord agent: it plays through the arena like any bot."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import numpy as np
import pytest

from spillebord.ai import register_agent
from spillebord.arena import BotSpec, Tournament, run
from spillebord.core import Rng, registry
from spillebord.envs.agent import PolicyAgent


def first_token(obs: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def test_policy_agent_plays_legal_actions() -> None:
    game = registry.get("partners")
    agent = PolicyAgent("partners", first_token, seats=4, options=game.quick_options)
    state = game.new(seats=4, seed=2, options=game.Options(**game.quick_options))
    rng = Rng(2)
    while state.to_act is not None:
        action = agent.act(state, state.to_act, rng)
        assert action in state.legal()
        state.play(action)
    assert state.outcome() is not None


def test_policy_agent_outside_the_mask_is_refused() -> None:
    agent = PolicyAgent("kasino", lambda obs, mask: int(np.flatnonzero(mask == 0)[0]))
    state = registry.get("kasino").new(seats=2, seed=1)
    with pytest.raises(ValueError, match="outside the mask"):
        agent.act(state, 0, Rng(1))


def test_policy_agent_in_the_arena(monkeypatch: pytest.MonkeyPatch) -> None:
    from spillebord.ai import registry as agents

    opts = {"target": 5}
    agent = PolicyAgent("kasino", first_token, seats=2, options=opts, name="first-token")
    # registered as the docs say, and gone after the test (other tests list every game's bots)
    monkeypatch.setitem(agents._AGENTS, "first-token", agents._AGENTS.get("first-token"))
    register_agent("first-token", lambda game: agent)
    report = run(Tournament("kasino", (BotSpec("first-token"), BotSpec("random")), games=4, options=opts))
    assert report.bots["first-token"].games == 4


@pytest.mark.slow
def test_example_learns_and_beats_random(capsys: pytest.CaptureFixture[str]) -> None:
    """The example's claim, measured: after training, its interval is above 0.5 and above the
    untrained policy's."""
    path = Path(__file__).parents[2] / "examples" / "train_kasino.py"
    sys.argv = [str(path), "--games", "1500", "--arena", "200"]
    runpy.run_path(str(path), run_name="__main__")
    out = capsys.readouterr().out
    assert "stronger than random; better than before training" in out
