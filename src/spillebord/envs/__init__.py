"""Reinforcement-learning environments of the seven games (``pip install 'spillebord[rl]'``).

    from spillebord.envs import env
    e = env("kasino", seats=2, target=11)           # PettingZoo AEC
    from spillebord.envs import single_agent
    g = single_agent("touche", opponents=["heuristic"])   # Gymnasium, one seat against bots
    import spillebord.envs.openspiel                  # registers pyspiel games "spillebord_<id>"

The action space (tokens of the action's text) is in :mod:`spillebord.envs.tokens`, the
observations in :mod:`spillebord.envs.observe`; docs/envs.md documents both per game.
"""

from __future__ import annotations

from typing import Any

__all__ = ["env", "raw_env", "single_agent"]


def env(game: str, seats: int | None = None, render_mode: str | None = None, **options: Any) -> Any:
    """The PettingZoo AEC environment of ``game`` (see :mod:`spillebord.envs.aec`)."""
    from .aec import env as make

    return make(game, seats, render_mode, **options)


def raw_env(game: str, seats: int | None = None, render_mode: str | None = None, **options: Any) -> Any:
    """The AEC environment without PettingZoo's wrappers."""
    from .aec import raw_env as make

    return make(game, seats, render_mode, **options)


def single_agent(game: str, opponents: list[str] | None = None, **kwargs: Any) -> Any:
    """A Gymnasium environment: one seat against bots (see :mod:`spillebord.envs.gym`)."""
    from .gym import SingleAgentEnv

    return SingleAgentEnv(game, opponents=opponents, **kwargs)
