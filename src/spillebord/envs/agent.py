"""A trained policy as a Spillebord agent (the :class:`spillebord.ai.Agent` protocol), so it can
sit at a table, play in the arena or against any bot.

    agent = PolicyAgent("kasino", seats=2, policy=lambda obs, mask: int(np.flatnonzero(mask)[0]))
    register_agent("mine", lambda game: agent)          # then: BotSpec("mine") in a Tournament

The policy sees exactly what it saw in the environments: the seat's observation and the token
mask, one token at a time, until the action's path is complete.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np

from spillebord.ai import Budget, Needs
from spillebord.core import Action, Rng, State

from .observe import Array
from .session import Mask, Spec
from .tokens import Decision

Policy = Callable[[Array, Mask], int]
"""Observation and int8 mask → a token whose mask entry is 1."""


class PolicyAgent:
    """Plays a token policy. It reads only ``legal()`` and ``view(seat)``: no determinization."""

    needs: ClassVar[Needs] = Needs(determinization=False)

    def __init__(
        self,
        game: str,
        policy: Policy,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        name: str = "policy",
    ) -> None:
        self.spec = Spec(game, seats, options)
        self.policy, self.name = policy, name

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        spec = self.spec
        decision = Decision(spec.vocab, state.legal())
        view = state.view(seat)
        while True:
            mask = np.zeros(spec.num_actions, dtype=np.int8)
            mask[decision.choices()] = 1
            token = int(self.policy(spec.observer.encode(view, seat, decision.prefix), mask))
            if not mask[token]:
                raise ValueError(f"{self.name}: the policy chose token {token}, outside the mask")
            action = decision.choose(token)
            if action is not None:
                return action
