"""placeholder"""

from __future__ import annotations

from typing import Any


def evaluate(state: Any, seat: int) -> float:
    return float(state.scores[seat])


class HeuristicAgent:
    name = "heuristic"
    needs_state = True

    def __init__(self, game: Any) -> None:
        self.game = game

    def act(self, state: Any, seat: int, rng: Any) -> Any:
        return rng.choice(state.legal())
