"""The agent protocol: what a bot is, what it needs, how long it may think."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from spillebord.core import Action, AnyGame, Rng, State


@dataclass(frozen=True, slots=True)
class Budget:
    """How long an agent may think about one decision: wall seconds, or search iterations
    (reproducible: the same seed and iterations give the same choice). ``None``: the agent's
    own default."""

    seconds: float | None = None
    iterations: int | None = None


@dataclass(frozen=True, slots=True)
class Needs:
    """What an agent needs to decide, declared by the agent class."""

    determinization: bool = True
    """A full state sampled from its seat's knowledge (``False``: it reads only ``legal()``
    and ``view(seat)``, which are the same in the true state and in every determinization)."""
    budget: bool = False
    """It searches, and uses a thinking :class:`Budget` (the server and the arena give one)."""


class Agent(Protocol):
    """A bot: ``act`` picks one of ``state.legal()`` for ``seat``."""

    name: str
    needs: ClassVar[Needs]

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        """Choose an action for ``seat`` (``== state.to_act``) in a state that seat cannot
        tell apart from the real one."""
        ...


class Searcher(Agent, Protocol):
    """A searching agent that also ranks every legal action (hints and reviews read it)."""

    def analyse(
        self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None
    ) -> list[tuple[Action, int, float]]:
        """Every legal action with its visits and estimated chance of winning, best first."""
        ...


AgentFactory = Callable[[AnyGame], Agent]
SearcherFactory = Callable[[AnyGame], Searcher]
Evaluator = Callable[[State[Any], int], float]
"""A fast heuristic value of a state for a seat (higher is better)."""
OnePly = Callable[[State[Any], int, Sequence[Action]], list[float]]
"""The :data:`Evaluator`'s value for a seat after each of some actions, without playing them."""
Policy = Callable[[State[Any], Rng], Action]
"""A fast way to pick a legal action of ``state.to_act`` (playouts)."""
Prior = Callable[[State[Any], Sequence[Action]], Sequence[float]]
"""Weights of some legal actions (higher: search looks at it first)."""
Valuer = Callable[[State[Any]], Sequence[float]]
"""Every seat's estimated chance of winning, in [0, 1]."""


def evaluate_by_outcome(state: State[Any], seat: int) -> float:
    """The evaluation of a game without one of its own: a finished game by its outcome,
    anything else as 0."""
    out = state.outcome()
    return 0.0 if out is None else out[seat]
