"""Metscri's own search (``GameBots.search``): paired playouts of the planner's move and its
best few alternatives from the same determinizations, the planner's move kept unless another is
clearly better.

The generic ISMCTS at the Expert's 25 iterations spread its playouts over a tree: the
planner's move and a few others each got a handful of 30-decision playouts on different
samples (other hands, another buy pile, other dice), so it kept the planner's move nearly
always and scored level with it (0.500 over 10 games). This search instead, as Partners' and
Fuldrigger's do,

* leaves rolling to the planner (:func:`~.bots.defer`: another roll or stop is a gamble on the
  dice the expected-value rule plays well), and every decision with one legal action;
* takes the planner's move and its best few alternatives by one ply of the evaluation (the
  search's prior, :func:`~.bots.prior`: of a hoarding hand's entries only those next to a
  possible group partner are weighed), ``width`` of them from the budget;
* plays every candidate out on the **same** samples: each round draws one determinization
  (``state.determinize(seat)``: only what the seat knows) and one playout seed, and every
  candidate is played from that same deal with the same random stream (common random
  numbers: the same dice, the same 10% random moves), so the differences between candidates
  are not drowned in the luck of the cards;
* plays out with the game's rollout (the heuristic weighing only the entries next to a
  partner, 10% random moves) for ``cutoff`` decisions, valued by the game's value (the
  logistic of the evaluation, scale 30) or the outcome, as the generic search does;
* plays the planner's move unless another candidate's mean beats it by ``SWITCH_Z`` standard
  errors of the paired differences (and ``SWITCH_MARGIN``); of several that do, the one ahead
  most.

One iteration of the budget is one playout (``cutoff`` decisions), what a generic iteration
costs, so ``ismcts@25it`` costs about what it did (plus the planner's own move). A time budget
(the server's) caps it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from spillebord.ai import Agent, Budget, IsmctsAgent, Needs, bots_for
from spillebord.ai.agent import Valuer
from spillebord.ai.playout import paired_switch
from spillebord.core import Action, AnyGame, Rng, State

from .rules import MetscriState

Ranker = Callable[[State[Any], Sequence[Action]], list[float]]
"""One ply of the evaluation for the seat to act over some legal actions (``bots.prior``)."""
Deferred = Callable[[State[Any], int], bool]
Searchable = Callable[[State[Any], int, Action], bool]
"""Whether an action may be an alternative to the planner's move (``bots.searchable``)."""

SWITCH_Z = 2.0
"""Standard errors of the paired mean difference by which a candidate must beat the planner's
move. Offline (``tools/metscri_switch.py``: positions of a planner game, the candidates' true
values by 48 paired playouts from the true state, the search's 25 playouts drawn 40 times), at
width 4 with the relative value (``bots.relative_value``, 21 positions) the search gains
-1.73e-3 a decision over the planner's move at z 0, -0.26e-3 at 0.5, +0.79e-3 at 1.0, +0.55e-3
at 1.5, +0.54e-3 at 2.0 (each ± 0.8–3e-3; the best of the four candidates would gain 6.1e-3);
with the saturated value before it (50 positions) +0.96e-3 at 0, +0.84e-3 at 1.0. Both
tables are best or near it at 1.0, which leaves the planner's move at 5–17% of decisions.
In the arena z 1.0 lost all 4 games of seeds 1–2 to the planner by 19–30 M-points, and in a
game against the planner it left the planner's move at 35 of 142 searched decisions (25%),
often for a blind turn (now excluded, ``bots.searchable``) or for ending the Invest phase
without buying (a card in hand less; offline −0.002 to −0.016 each): the false alarms of
three alternatives at one standard error on 6–12 rounds. Hence 2.0 (offline +0.54e-3, within
the noise of 1.0's)."""
SWITCH_MARGIN = 0.005
"""...and by how much at least (chance of winning)."""
PER_CANDIDATE = 6
"""Paired rounds the budget should give each candidate: the width is budget / this (2–MAX_WIDTH)."""
MAX_WIDTH = 4


def width_for(iterations: int) -> int:
    """Candidates (the planner's move included): 4 from the Expert's 25 iterations (offline at
    z 1, width 4 gained more than 3: 0.79e-3 against 0.18e-3 a decision with the relative
    value, 0.84e-3 against 0.47e-3 with the saturated one; width 2 lost a little)."""
    return max(2, min(MAX_WIDTH, iterations // PER_CANDIDATE))


def switch_to(diffs: Sequence[float], diffs2: Sequence[float], rounds: int, z: float | None = None) -> int:
    """The candidate to play (0: the planner's move): :func:`~spillebord.ai.playout.paired_switch`
    at ``z`` standard errors (default :data:`SWITCH_Z`) and :data:`SWITCH_MARGIN`."""
    return paired_switch(diffs, diffs2, rounds, SWITCH_Z if z is None else z, SWITCH_MARGIN)


class MetscriSearchAgent:
    """Flat paired Monte Carlo over the planner's move and its best few alternatives (see the
    module docstring)."""

    name = "ismcts"
    needs: ClassVar[Needs] = Needs(determinization=True, budget=True)

    def __init__(
        self,
        game: AnyGame,
        planner: Agent,
        rank: Ranker,
        defer: Deferred,
        searchable: Searchable | None = None,
        value: Valuer | None = None,
    ) -> None:
        """``planner``: the best bot; ``rank``: one ply of its evaluation (the prior);
        ``defer``: the decisions left to the planner; ``searchable``: the actions that may be
        alternatives (default: all); ``value``: of a cut-off playout (default: the game's).
        The bots module passes them: this module
        does not import it, which imports this one."""
        kit = bots_for(game)
        self.game = game
        self.planner = planner
        self.rank = rank
        self.defer = defer
        self.searchable = searchable
        assert kit.rollout is not None and kit.value is not None
        self.rollout = kit.rollout
        self.value = value or kit.value
        self.cutoff = kit.cutoff
        self.iterations = kit.iterations
        self.fallback = IsmctsAgent(game)
        """The generic search, for the analysis (hints, reviews) of the rolls this one leaves."""
        self.last_iterations = 0
        self.last_choice: tuple[Action, Action] | None = None
        """(the planner's move, the move played) at the last searched decision."""

    # ------------------------------------------------------------------ public

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, MetscriState)
        legal = state.legal()
        if len(legal) == 1:
            return legal[0]
        if self.defer(state, seat):
            self.last_iterations = 0
            return self.planner.act(state, seat, rng, budget)
        return self._rank(state, seat, rng, budget)[0][0]

    def analyse(
        self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None
    ) -> list[tuple[Action, int, float]]:
        """Every legal action with its playouts and mean chance of winning for ``seat``, the
        choice first (the planner's move unless another is clearly better); the other legal
        actions follow with no playouts, by one ply of the evaluation. Rolls are analysed by
        the generic search. Hints and reviews hand over the true state: it is read only through
        ``legal()`` and the seat's determinizations (:meth:`act` is handed one already)."""
        if len(state.legal()) == 1:
            self.last_iterations = 0
            return [(state.legal()[0], 0, 0.5)]
        view = state.determinize(seat, rng)
        assert isinstance(view, MetscriState)
        if self.defer(view, seat):
            ranked = self.fallback.analyse(state, seat, rng, budget)
            self.last_iterations = self.fallback.last_iterations
            return ranked
        return self._rank(view, seat, rng, budget)

    # ------------------------------------------------------------------ search

    def candidates(
        self, state: MetscriState, seat: int, rng: Rng, width: int, budget: Budget | None = None
    ) -> tuple[list[Action], list[Action]]:
        """(the planner's move and the best ``width - 1`` others by one ply, every legal
        action ordered by one ply)."""
        legal: list[Action] = list(state.legal())
        first = self.planner.act(state, seat, rng, budget)
        base = self.rank(state, legal)
        order = sorted(range(len(legal)), key=lambda i: (-base[i], str(legal[i])))
        ordered = [legal[i] for i in order]
        ok = self.searchable
        others = [a for a in ordered if a != first and (ok is None or ok(state, seat, a))]
        return [first, *others[: width - 1]], ordered

    def _rank(
        self, state: MetscriState, seat: int, rng: Rng, budget: Budget | None
    ) -> list[tuple[Action, int, float]]:
        """The ranking of :meth:`analyse` on ``state``, a determinization of ``seat``'s
        knowledge at a searched decision."""
        iterations = budget.iterations if budget is not None and budget.iterations else None
        seconds = budget.seconds if budget is not None and budget.seconds else None
        if iterations is None:
            iterations = max(1, int(self.iterations * seconds)) if seconds is not None else self.iterations
        deadline = time.perf_counter() + seconds if seconds is not None else math.inf
        cands, ordered = self.candidates(state, seat, rng, width_for(iterations), budget)
        k = len(cands)
        target = max(2, iterations // k)
        rounds = 0
        sums = [0.0] * k
        diffs = [0.0] * k  # paired differences to the planner's move: sum and sum of squares
        diffs2 = [0.0] * k
        while k > 1 and rounds < target and (rounds < 2 or time.perf_counter() < deadline):
            d = state.determinize(seat, rng)
            assert isinstance(d, MetscriState)
            pseed = rng.next64()
            vals = [self.playout(d, seat, a, Rng(pseed)) for a in cands]
            rounds += 1
            for j in range(k):
                sums[j] += vals[j]
                x = vals[j] - vals[0]
                diffs[j] += x
                diffs2[j] += x * x
        self.last_iterations = rounds * k
        best = switch_to(diffs, diffs2, rounds)
        self.last_choice = (cands[0], cands[best])
        means = {a: (sums[j] / rounds if rounds else 0.5) for j, a in enumerate(cands)}
        chosen = cands[best]
        rest = sorted((a for a in cands if a != chosen), key=lambda a: -means[a])
        out: list[tuple[Action, int, float]] = [(chosen, rounds, means[chosen])]
        out += [(a, rounds, means[a]) for a in rest]
        seen = set(cands)
        out += [(a, 0, 0.0) for a in ordered if a not in seen]
        return out

    def playout(self, d: MetscriState, person: int, action: Action, rng: Rng) -> float:
        """The value for ``person`` of ``action`` played on a copy of ``d`` and then
        ``cutoff`` decisions of the game's rollout drawing from ``rng``."""
        s: State[Any] = d.copy()
        s.play(action)
        policy = self.rollout
        for _ in range(self.cutoff):
            if s.to_act is None:
                break
            s.play(policy(s, rng))
        out = s.outcome()
        if out is not None:
            return float(out[person])
        return float(self.value(s)[person])
