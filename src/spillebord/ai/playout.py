"""Building blocks for a game's search kit: playout policies and value functions.

A game's ``bots`` module composes these into its :class:`~spillebord.ai.GameBots`: its cheap
heuristic as an epsilon-greedy playout policy, and a logistic value of its evaluation for
playouts cut off before the end.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from spillebord.core import Action, Rng, State

from .agent import Evaluator, Policy, Valuer


def epsilon_greedy(choose: Callable[[State[Any], int, Rng], Action], epsilon: float) -> Policy:
    """A playout policy: ``choose(state, seat, rng)`` (the game's heuristic, for the seat to
    act), or with probability ``epsilon`` a uniformly random legal action, so that playouts
    also visit what the heuristic would never play (and do not all agree)."""

    def policy(state: State[Any], rng: Rng) -> Action:
        legal: Sequence[Action] = state.legal()
        if len(legal) == 1:
            return legal[0]
        if rng.random() < epsilon:
            a: Action = rng.choice(legal)
            return a
        seat = state.to_act
        assert seat is not None
        return choose(state, seat, rng)

    return policy


def logistic_value(evaluate: Evaluator, scale: float) -> Valuer:
    """Each seat's chance of winning as the logistic of its evaluation (a difference to its
    opponents) over ``scale``: the evaluation difference that makes a 73% favourite (fitted
    per game on the heuristic's own games, see docs/bots.md). A finished game by its outcome."""

    def value(state: State[Any]) -> list[float]:
        out = state.outcome()
        if out is not None:
            return list(out)
        vals = []
        for s in range(state.seats):
            x = evaluate(state, s) / scale
            vals.append(1.0 / (1.0 + math.exp(-x)) if x > -60 else 0.0)
        return vals

    return value


def team_logistic_value(
    team_value: Callable[[State[Any], int], float], team_of: Callable[[State[Any], int], int], scale: float
) -> Valuer:
    """:func:`logistic_value` for partnership games: one evaluation per partnership,
    shared by its seats."""

    def value(state: State[Any]) -> list[float]:
        out = state.outcome()
        if out is not None:
            return list(out)
        cache: dict[int, float] = {}
        vals = []
        for s in range(state.seats):
            t = team_of(state, s)
            if t not in cache:
                x = team_value(state, t) / scale
                cache[t] = 1.0 / (1.0 + math.exp(-x)) if x > -60 else 0.0
            vals.append(cache[t])
        return vals

    return value


def paired_switch(
    diffs: Sequence[float], diffs2: Sequence[float], rounds: int, z: float, margin: float
) -> int:
    """The switch rule of the paired searches (Metscri's, Partners', Fuldrigger's): which
    candidate to play (0: the game's best bot's move) from each candidate's paired
    differences to that move over ``rounds`` rounds (their sums ``diffs`` and sums of
    squares ``diffs2``; index 0 is the bot's move itself). The one with the largest mean gain
    among those ahead by ``z`` standard errors and by ``margin`` at least; the bot's move with
    fewer than two rounds (no spread to measure)."""
    if rounds < 2:
        return 0
    best = 0
    best_gain = 0.0
    for j in range(1, len(diffs)):
        m = diffs[j] / rounds
        var = max(0.0, diffs2[j] / rounds - m * m) / (rounds - 1)
        if m > max(z * math.sqrt(var), margin) and m > best_gain:
            best, best_gain = j, m
    return best
