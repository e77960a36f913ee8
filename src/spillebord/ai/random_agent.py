"""The random agent: a uniformly random legal action."""

from __future__ import annotations

from typing import Any, ClassVar, cast

from spillebord.core import Action, AnyGame, Rng, State

from .agent import Budget, Needs


class RandomAgent:
    """Plays a uniformly random legal action. Reads only ``legal()``, which is the acting
    seat's own knowledge, so it needs no determinization."""

    name = "random"
    needs: ClassVar[Needs] = Needs(determinization=False)

    def __init__(self, game: AnyGame | None = None) -> None:
        self.game = game

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        return cast(Action, rng.choice(state.legal()))
