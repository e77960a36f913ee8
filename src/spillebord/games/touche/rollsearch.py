"""Touché's own search (``GameBots.search``): the heuristic's best few moves, each played out
from the same determinizations (common random numbers), the heuristic's move kept unless
another is clearly better.

Touché is a race: each round ends at the next Touché, and what decides it is who completes a
pattern first and who blocks in time, a few turns ahead. The generic ISMCTS spread its quarter
second over a dozen moves and a tree below them, and compared moves on different
determinizations: the differences between moves (a few hundredths of a chance) drowned in the
differences between samples (the opponent's hand, the draws), so it kept the heuristic's move
and scored level with it. Here every candidate is played out from the same samples, with the
same random streams, so the comparison is paired: a **rollout** (policy improvement by
simulation of the base policy, Tesauro and Galperin 1996) over the heuristic's own
shortlist. Playouts are the heuristic on both sides, cut off after ``cutoff`` decisions and
valued by the fitted model (``bots.value``).

The budget (iterations, as for the generic search) is the number of playouts: the shortlist
grows with it (:func:`shortlist`), the rest goes to samples. The grade and crown decisions,
and three sides, go to the generic search.
"""

from __future__ import annotations

import math
import time
from typing import Any, ClassVar, Protocol

from spillebord.ai import Budget, Needs, bots_for, make_agent
from spillebord.core import Action, AnyGame, Rng, State

from .rules import ToucheState


class _Scorer(Protocol):
    """The heuristic bot (``bots.HeuristicAgent``, reached through the registry: ``bots``
    registers this search)."""

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action: ...

    def scores(self, state: ToucheState, seat: int) -> list[tuple[Action, float]]: ...


SWITCH_Z = 1.0
"""How many standard errors of the paired difference a candidate's mean must beat the
heuristic's move by before it is played instead."""
CUTOFF = 16
"""Decisions a playout runs before the fitted value judges it (a round often ends before)."""


def shortlist(iterations: int, legal: int) -> int:
    """How many of the heuristic's best moves are played out: 5 at the Expert's 180
    playouts, 16 at the Master's 720 (36 and 45 samples each). Capping it at 5 at 720 (144
    samples each) chose no better (``tools/touche_choice_test.py``, docs/bots.md)."""
    return max(2, min(legal, 2 + iterations // 50))


class RolloutSearchAgent:
    """The paired rollout search of the module docstring (two sides, the play phase); any other
    decision goes to ``fallback``, the generic ISMCTS."""

    name = "ismcts"
    needs: ClassVar[Needs] = Needs(determinization=True, budget=True)

    def __init__(self, game: AnyGame) -> None:
        from spillebord.ai.ismcts import IsmctsAgent

        self.game = game
        kit = bots_for(game)
        self.fallback = IsmctsAgent(game)
        heuristic = make_agent(kit.best, game)
        assert hasattr(heuristic, "scores")
        self.heuristic: _Scorer = heuristic  # type: ignore[assignment]
        assert kit.value is not None
        self.value = kit.value
        self.iterations = kit.iterations
        self.last_iterations = 0
        self.last_choice: tuple[Action, Action] | None = None
        """(the heuristic's move, the move played) at the last searched decision."""

    @staticmethod
    def covers(state: ToucheState) -> bool:
        return state.phase == "play" and state.n_sides == 2

    # ------------------------------------------------------------------ public

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, ToucheState)
        legal = state.legal()
        if len(legal) == 1:
            return legal[0]
        if not self.covers(state):
            return self.fallback.act(state, seat, rng, budget)
        ranked, base, diffs = self._search(state, seat, rng, budget)
        best = ranked[0][0]
        choice = base
        if best != base:
            d = diffs[best]
            n = len(d)
            if n >= 2:
                mean = sum(d) / n
                var = max(0.0, sum(x * x for x in d) / n - mean * mean) / (n - 1)
                if mean > SWITCH_Z * math.sqrt(var) and mean > 0:
                    choice = best
        self.last_choice = (base, choice)
        return choice

    def analyse(
        self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None
    ) -> list[tuple[Action, int, float]]:
        """Every legal action with its playouts and mean chance of winning for ``seat``, best
        first (those not on the shortlist: 0 playouts, chance 0). Reads the state only
        through ``seat``'s determinizations."""
        if len(state.legal()) == 1:
            return self.fallback.analyse(state, seat, rng, budget)
        # Hints and reviews hand over the true state: everything but legal() is read from one of
        # the seat's determinizations (act is handed one already).
        view = state.determinize(seat, rng)
        assert isinstance(view, ToucheState)
        if not self.covers(view):
            return self.fallback.analyse(state, seat, rng, budget)
        return self._search(view, seat, rng, budget)[0]

    # ------------------------------------------------------------------ search

    def paired(self, state: ToucheState, seat: int, cands: list[Action], seed: int) -> list[float]:
        """One round of the search: one determinization of ``seat``'s knowledge (from ``seed``),
        each candidate played out from it with the same random stream; each playout's value
        for ``seat`` (``tools/touche_switch.py`` replays these rounds)."""
        policy = self.heuristic.act
        d0 = state.determinize(seat, Rng(seed))
        out: list[float] = []
        for a in cands:
            d: State[Any] = d0.copy()
            d.play(a)
            prng = Rng(seed ^ 0x5DEECE66D)
            for _ in range(CUTOFF):
                who = d.to_act
                if who is None:
                    break
                d.play(policy(d, who, prng))  # a single legal action it plays without a draw
            end = d.outcome()
            out.append((end if end is not None else self.value(d))[seat])
        return out

    def _search(
        self, state: ToucheState, seat: int, rng: Rng, budget: Budget | None
    ) -> tuple[list[tuple[Action, int, float]], Action, dict[Action, list[float]]]:
        """(the ranking of :meth:`analyse`, the heuristic's move, each candidate's paired
        differences to it)."""
        iterations = budget.iterations if budget is not None and budget.iterations else None
        seconds = budget.seconds if budget is not None and budget.seconds else None
        if iterations is None and seconds is None:
            iterations = self.iterations
        deadline = time.perf_counter() + seconds if seconds is not None else math.inf
        # the heuristic's scores read only the board, the seat's own hand and legal()
        scored = self.heuristic.scores(state, seat)
        base = self.heuristic.act(state, seat, rng.spawn())
        order = sorted(range(len(scored)), key=lambda i: -scored[i][1])
        k = shortlist(iterations if iterations is not None else self.iterations, len(scored))
        cands = [base, *[scored[i][0] for i in order if scored[i][0] != base][: k - 1]]
        results: list[list[float]] = [[] for _ in cands]
        done = 0
        while True:
            if iterations is not None and done + len(cands) > iterations and done:
                break
            if time.perf_counter() >= deadline and done:
                break
            for j, v in enumerate(self.paired(state, seat, cands, rng.next64())):
                results[j].append(v)
            done += len(cands)
        self.last_iterations = done
        means = {a: sum(r) / len(r) for a, r in zip(cands, results, strict=True)}
        diffs = {
            a: [x - y for x, y in zip(r, results[0], strict=True)]
            for a, r in zip(cands, results, strict=True)
        }
        n = len(results[0])
        ranked: list[tuple[Action, int, float]] = [(a, n, means[a]) for a in cands]
        ranked.sort(key=lambda t: -t[2])
        seen = set(cands)
        ranked += [(a, 0, 0.0) for a, _ in scored if a not in seen]
        return ranked, base, diffs


def make(game: AnyGame) -> RolloutSearchAgent:
    return RolloutSearchAgent(game)
