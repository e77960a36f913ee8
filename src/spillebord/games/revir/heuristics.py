"""Revir heuristics: a position evaluation and a heuristic bot (stub)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spillebord.core import Action, Game, Rng, State

if TYPE_CHECKING:
    from .rules import RevirState


def evaluate(state: RevirState, seat: int) -> float:
    r = state.result()
    if r is not None:
        return 1000.0 * r[seat]
    return float(state.stones[seat]) + 5.0 * max(state.colour_counts(seat))


class HeuristicAgent:
    name = "heuristic"
    needs_state = True

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def act(self, state: State[Any], seat: int, rng: Rng) -> Action:
        a: Action = rng.choice(state.legal())
        return a
