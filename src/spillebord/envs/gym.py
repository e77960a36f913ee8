"""A Gymnasium environment: one seat against bots.

``single_agent("touche", opponents=["heuristic"])``: the learner plays seat ``seat`` (default
0); every other seat is played by a bot from :mod:`spillebord.ai` (one name per other seat, or
one name for all), asked through :func:`spillebord.ai.decide`, so a bot sees only its own seat.
In a partnership game the learner's partner is one of those bots.

Actions and observations are those of the AEC environment (:mod:`spillebord.envs.aec`): a
token of the action's path, and ``{"observation", "action_mask"}``; the mask is also in
``info["action_mask"]``. A token outside the mask is not an error (Gymnasium's checker sends
random ones): it is replaced by the legal token at ``token % len(legal)``, and
``info["illegal"]`` is ``True``; pass ``illegal="error"`` to refuse it instead. The reward is
the learner's normalized outcome at the end, 0 before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from spillebord.ai import Agent, decide, make_agent
from spillebord.core import Rng

from .aec import render_text
from .session import Session, Spec


class SingleAgentEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a game against bots (see the module's doc)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  # Gymnasium's own declaration

    def __init__(
        self,
        game: str,
        opponents: Sequence[str] | None = None,
        seats: int | None = None,
        seat: int = 0,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal: str = "map",
    ) -> None:
        self.spec_ = Spec(game, seats, options)
        n = self.spec_.seats
        if not 0 <= seat < n:
            raise ValueError(f"seat must be in 0..{n - 1}, not {seat}")
        if illegal not in ("map", "error"):
            raise ValueError(f"illegal must be 'map' or 'error', not {illegal!r}")
        names = list(opponents or ["random"])
        if len(names) == 1:
            names = names * (n - 1)
        if len(names) != n - 1:
            raise ValueError(f"{n} seats need {n - 1} opponents (or one name for all), not {len(names)}")
        g = self.spec_.game
        self.opponents: dict[int, Agent] = {}
        others = [s for s in range(n) if s != seat]
        for s, name in zip(others, names, strict=True):
            self.opponents[s] = make_agent(name, g)
        self.seat, self.illegal, self.render_mode = seat, illegal, render_mode
        size, actions = self.spec_.obs_size, self.spec_.num_actions
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(actions)
        self.session: Session | None = None
        self._bot_rng = Rng(0)

    def _obs(self) -> dict[str, Any]:
        s = self.session
        assert s is not None
        mask = s.mask() if s.to_act == self.seat else np.zeros(self.spec_.num_actions, dtype=np.int8)
        return {"observation": s.observe(self.seat), "action_mask": mask}

    def _bots(self) -> None:
        s = self.session
        assert s is not None
        state = s.state
        while state.to_act is not None and state.to_act != self.seat:
            state.play(decide(self.opponents[state.to_act], state, self._bot_rng))
        s._new_decision()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game from ``seed`` (the deal and every die; the bots' randomness too)."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        self._bot_rng = Rng(game_seed ^ 0x5EED)
        self.session = Session(self.spec_, game_seed)
        self._bots()
        obs = self._obs()
        return obs, {"action_mask": obs["action_mask"]}

    def step(self, action: np.int64) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        s = self.session
        assert s is not None, "call reset() first"
        if s.to_act is None:
            raise RuntimeError("the game is over: call reset()")
        token = int(action)
        legal = s.legal_tokens()
        illegal = token not in legal
        if illegal:
            if self.illegal == "error":
                raise ValueError(f"{self.spec_.game.title}: token {token} is not legal now (see action_mask)")
            token = legal[token % len(legal)]
        if s.step(token) is not None:
            self._bots()
        obs = self._obs()
        info: dict[str, Any] = {"action_mask": obs["action_mask"], "illegal": illegal}
        state = s.state
        if state.to_act is None:
            outcome = state.outcome() or (0.0,) * self.spec_.seats
            info["scores"] = state.scores()
            return obs, float(outcome[self.seat]), not state.truncated, state.truncated, info
        return obs, 0.0, False, False, info

    def render(self) -> str | None:
        """``render_mode="ansi"``: the learner's terminal picture."""
        if self.render_mode is None or self.session is None:
            return None
        return render_text(self.session, self.seat)

    def close(self) -> None:
        self.session = None
