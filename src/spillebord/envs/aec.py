"""PettingZoo AEC environments of the seven games: ``env("kasino", seats=2, target=11)``.

Agents are ``player_0`` … ``player_{n-1}`` (seat ``i``). The action space of every agent is
``Discrete(len(vocabulary))``: one token of the action's path (:mod:`spillebord.envs.tokens`);
the same agent acts again until its action is complete. Observations are dicts
``{"observation": float32[obs_size], "action_mask": int8[n]}`` from the agent's own view
(:mod:`spillebord.envs.observe`). Rewards are the normalized outcome (``state.outcome()``) at the
end, zero before. A game stopped at its decision bound is *truncated* (``state.truncated``).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .session import Session, Spec

AgentID = str


def agent_name(seat: int) -> AgentID:
    return f"player_{seat}"


def render_text(session: Session, seat: int | None) -> str:
    """The game's terminal picture of ``seat``'s view, as plain text."""
    from rich.console import Console

    from spillebord.cli import render_view

    buf = io.StringIO()
    console = Console(file=buf, width=110, color_system=None, force_terminal=False)
    game = session.spec.game
    console.print(render_view(game, session.state.view(seat), seat))
    return buf.getvalue()


class RawEnv(AECEnv[AgentID, dict[str, Any], int]):  # type: ignore[misc]  # untyped base
    """The AEC environment without PettingZoo's checking wrappers (see :func:`raw_env`)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "spillebord",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        seats: int | None = None,
        render_mode: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.spec = Spec(game, seats, options)
        if render_mode is not None and render_mode != "ansi":
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode
        n = self.spec.seats
        self.possible_agents = [agent_name(i) for i in range(n)]
        self.agents = self.possible_agents[:]
        size, actions = self.spec.obs_size, self.spec.num_actions
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.session: Session | None = None
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._rng = np.random.default_rng()

    def observation_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` is the game's seed (the deal, every die); without one a seed is
        drawn from the environment's generator. ``options`` (PettingZoo's reset options) are
        not rule options: those are given when the environment is made."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = seed
        else:
            game_seed = int(self._rng.integers(0, 2**62))
        self.session = Session(self.spec, game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[AgentID, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.session is not None
        seat = self.session.to_act
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: AgentID) -> dict[str, Any]:
        assert self.session is not None, "call reset() first"
        seat = self._seat[agent]
        s = self.session
        mask = s.mask() if s.to_act == seat else np.zeros(self.spec.num_actions, dtype=np.int8)
        return {"observation": s.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.session
        assert s is not None, "call reset() first"
        assert action is not None, "the agent to act must choose an action"
        if (
            not 0 <= int(action) < self.spec.num_actions
            or not s.decision
            or int(action) not in s.decision.node
        ):
            raise ValueError(f"{self.spec.game.title}: token {action} is not legal now (see action_mask)")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        events = s.step(int(action))
        if events is not None and s.to_act is None:
            outcome = s.state.outcome() or (0.0,) * self.spec.seats
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(outcome[i])
            done = self.truncations if s.state.truncated else self.terminations
            for a in self.agents:
                done[a] = True
                self.infos[a] = {"scores": s.state.scores(), "truncated": s.state.truncated}
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """``render_mode="ansi"``: the terminal picture (the seat to act's view; a spectator's
        view once the game is over)."""
        if self.render_mode is None:
            return None
        assert self.session is not None, "call reset() first"
        return render_text(self.session, self.session.to_act)

    def close(self) -> None:
        self.session = None


def raw_env(game: str, seats: int | None = None, render_mode: str | None = None, **options: Any) -> RawEnv:
    """The AEC environment of ``game`` for ``seats`` players (default: its smallest count),
    with rule ``options`` by name (as ``spillebord games GAME`` lists them)."""
    return RawEnv(game, seats, render_mode, options)


def env(game: str, seats: int | None = None, render_mode: str | None = None, **options: Any) -> Any:
    """:func:`raw_env` in PettingZoo's usual wrappers (an illegal token is an error; the
    environment must be reset before use)."""
    e: Any = raw_env(game, seats, render_mode, **options)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
