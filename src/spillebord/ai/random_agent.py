"""The random agent: a uniformly random legal action."""

from __future__ import annotations

from typing import Any, cast

from spillebord.core import Action, Game, Rng, State


class RandomAgent:
    """Plays a uniformly random legal action. Reads only ``legal()``, which is the acting
    seat's own knowledge, so it needs no determinization."""

    name = "random"
    needs_state = False

    def __init__(self, game: Game[Any] | None = None) -> None:
        self.game = game

    def act(self, state: State[Any], seat: int, rng: Rng) -> Action:
        return cast(Action, rng.choice(state.legal()))
