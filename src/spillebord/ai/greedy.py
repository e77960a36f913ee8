"""The one-ply greedy agent: try every legal action, keep the one the game's own
evaluation likes best for the acting seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from spillebord.core import Action, AnyGame, Rng, State

from .agent import Budget, Evaluator, Needs, OnePly
from .registry import bots_for


def one_ply(
    state: State[Any],
    seat: int,
    actions: Sequence[Action],
    evaluate: Evaluator,
    values: OnePly | None = None,
) -> list[float]:
    """``evaluate`` for ``seat`` after each of ``actions``: the game's ``values`` where it has
    one (the same numbers without copying), else a copy of the state with the action played."""
    if values is not None:
        return values(state, seat, actions)
    out = []
    for a in actions:
        s = state.copy()
        s.play(a)
        out.append(evaluate(s, seat))
    return out


class GreedyAgent:
    """One ply of look-ahead on a determinized state, scored by the game's evaluation.

    Ties are broken at random so that the agent is not predictable. Where a decision does
    not end the seat's turn, the resulting state is still scored as it stands.
    """

    name = "greedy"
    needs: ClassVar[Needs] = Needs()

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        kit = bots_for(game)
        self.evaluate = kit.evaluate
        self.values = kit.values

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        actions: Sequence[Action] = state.legal()
        if len(actions) == 1:
            return actions[0]
        best: list[Action] = []
        best_v = float("-inf")
        for a, v in zip(actions, one_ply(state, seat, actions, self.evaluate, self.values), strict=True):
            if v > best_v:
                best_v, best = v, [a]
            elif v == best_v:
                best.append(a)
        return best[0] if len(best) == 1 else rng.choice(best)
