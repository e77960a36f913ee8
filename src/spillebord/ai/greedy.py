"""The one-ply greedy agent: try every legal action, keep the one the game's own
evaluation (``game.evaluate``) likes best for the acting seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spillebord.core import Action, Game, Rng, State


class GreedyAgent:
    """One ply of look-ahead on a determinized state, scored by ``game.evaluate``.

    Ties are broken at random so that the agent is not predictable. Where a decision does
    not end the seat's turn, the resulting state is still scored as it stands.
    """

    name = "greedy"
    needs_state = True

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def act(self, state: State[Any], seat: int, rng: Rng) -> Action:
        actions: Sequence[Action] = state.legal()
        if len(actions) == 1:
            return actions[0]
        best: list[Action] = []
        best_v = float("-inf")
        evaluate = self.game.evaluate
        for a in actions:
            s = state.copy()
            s.play(a)
            v = evaluate(s, seat)
            if v > best_v:
                best_v, best = v, [a]
            elif v == best_v:
                best.append(a)
        return best[0] if len(best) == 1 else rng.choice(best)
