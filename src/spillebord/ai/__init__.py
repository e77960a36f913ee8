"""Agents that speak only the contract.

An agent never sees the true state: :func:`decide` hands it a determinization from its
own seat (what it cannot see re-dealt), so every bot is a fair bot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from spillebord.core import Action, Game, Rng, State
from spillebord.core.errors import SpillebordError


class Agent(Protocol):
    name: str

    def act(self, state: State[Any], seat: int, rng: Rng) -> Action:
        """Choose an action for ``seat`` (``== state.to_act``) in a state that seat cannot
        tell apart from the real one."""
        ...


AgentFactory = Callable[[Game[Any]], Agent]

_AGENTS: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    _AGENTS[name] = factory


def agent_names(game: Game[Any] | None = None) -> list[str]:
    names = list(_AGENTS)
    if game is not None:
        for n in getattr(game, "agents", {}) or {}:
            if n not in names:
                names.append(n)
    return names


def make_agent(name: str, game: Game[Any]) -> Agent:
    """An agent by name: a game's own agents (``game.agents``) first, then the generic ones."""
    own: dict[str, AgentFactory] = getattr(game, "agents", {}) or {}
    if name == "all" or name == "best":
        name = game.best_bot
    factory = own.get(name) or _AGENTS.get(name)
    if factory is None:
        raise SpillebordError(f"no agent {name!r} for {game.title}; known: {', '.join(agent_names(game))}")
    return factory(game)


def decide(agent: Agent, state: State[Any], rng: Rng) -> Action:
    """The fair way to ask an agent: it gets a determinization from the acting seat."""
    seat = state.to_act
    if seat is None:
        raise SpillebordError("the game is over: nobody is to act")
    if getattr(agent, "needs_state", True):
        return agent.act(state.determinize(seat, rng), seat, rng)
    return agent.act(state, seat, rng)


from .greedy import GreedyAgent  # noqa: E402
from .random_agent import RandomAgent  # noqa: E402

register_agent("random", RandomAgent)
register_agent("greedy", GreedyAgent)

__all__ = ["Agent", "GreedyAgent", "RandomAgent", "agent_names", "decide", "make_agent", "register_agent"]
