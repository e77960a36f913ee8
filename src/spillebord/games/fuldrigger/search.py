"""Fuldrigger's own search (``GameBots.search``): paired playouts of the base bot's move and a
few alternatives from the same determinizations, the base bot's move kept unless another is
clearly better. The base bot is the game's best, the raider (``bots.RaiderAgent``: the
trader at war); until session 19 it was the trader, and the figures of docs/bots.md say which.

The generic ISMCTS spread 80 iterations of 40-decision playouts over a free phase's twenty-odd
actions: each got a handful of visits on different samples (other dice, another chance deck),
so the best of them beat the trader's move on noise, and its playouts ended before a haul was
sold. This search instead

* searches only the turn player's **free** decisions where the base bot would not sail (a
  buy, a sale, a ship, a privateer fitted out, an attack, the end of the turn); every other
  decision is the base bot's move (:func:`~.bots.defer`'s sailing, windows, drafts, and the
  rest: home port, charts, musters, approaches, seizures, losses);
* takes the base bot's move and its best few alternatives of the trader's kinds (sell, buy,
  buy a ship, end the turn; not fortresses: :data:`KINDS`; no purchase once an opponent has
  a privateer: :data:`KINDS_AT_WAR`), ranked by one ply of the evaluation (``width``, from
  the budget);
* plays every candidate out on the **same** samples: each round draws one determinization
  (``state.determinize(seat)``: the chance deck reshuffled and fresh dice, all the seat does not
  know) and every candidate is played from a copy of it, so the same dice fall for each
  (common random numbers) and the differences between candidates are not drowned in the luck
  of the dice;
* plays out with the base bot on both sides (no random moves: it draws nothing, so a
  playout's only chance is the determinization's dice and cards) until ``horizon_for``
  turns have ended (four rounds at two seats, six at the Master's budget: long enough for a
  haul to be sold and for the privateers that hunt it to arrive), or the game is over, and
  values it with the game's value (the logistic of the evaluation: wealth ahead plus half the
  profit waiting in the holds) or the outcome;
* plays the base bot's move unless another candidate's mean beats it by ``SWITCH_Z`` standard
  errors of the paired differences (and ``SWITCH_MARGIN``).

The budget is in the generic search's iterations: one iteration is ``DECISIONS_PER_ITERATION``
playout decisions (the generic search's cut-off), so ``ismcts@320it`` costs about what it did,
about a second. A time budget (the server's) caps it.
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

from .rules import FuldriggerState

SWITCH_Z = 1.5
"""Standard errors of the paired mean difference by which a candidate must beat the base bot's move."""
SWITCH_MARGIN = 0.005
"""...and by how much at least (chance of winning)."""
HORIZON = 8
"""Turns a playout runs to the end of (the current one counts) at the Expert's budget and
below: four rounds at two seats. Two rounds (4, until session 19) were enough against the
trader; against the raider they missed the privateers: the Expert scored 0.580 against it
(by deals 0.512-0.648), 0.660 (0.595-0.725) with eight turns, and 0.792 (0.743-0.842) with
eight turns and :data:`KINDS_AT_WAR`, the same 100 deals (seed 1, session 19; confirmed on
fresh deals in docs/bots.md)."""
HORIZON_LONG = 12
"""...and above the Expert's budget (the Master's): six rounds. With the Expert's eight turns
the Master's four-times-surer switches cost more than they gained: it scored 0.460 against
the Expert (by deals 0.426-0.494, seed 2); with twelve, 0.542 (0.512-0.573) on the same deals
(three variants tried there: docs/bots.md has the others and the fresh deals)."""
DECISIONS_PER_ITERATION = 40
"""Playout decisions one iteration of the budget buys (the generic search's cut-off)."""
KINDS = frozenset({"sell", "buy", "buyship", "end"})
"""The kinds of action the alternatives are drawn from: the trader's kinds but sailing and
fortresses. With fortresses among them the search built them on its selling ports instead of
selling, buying or buying a ship (a fortress pays its 10 ducats a sale within the playouts'
two rounds; the ships it did not buy would have paid later): 0.400 against the trader on
seed 11's ten games, 0.600 without them (docs/bots.md)."""
KINDS_AT_WAR = KINDS - {"buy"}
"""The alternatives once an opponent has a privateer: no cargo bought against the raider's
move. A short playout sees the profit in the hold and seldom the privateers that take the
ship later: with "buy" among them (and two-round playouts) the Expert bought three times as
much as the raider and lost its ships (against the raider 0.580 over 200 games, by deals
0.512-0.648, losses by 470 ducats at the median); without, 0.635 (0.584-0.686) on the same
deals, +0.055 (+0.001 to +0.109) read deal by deal, +77 +- 40 ducats a game (`spillebord
compare`, session 19)."""
MAX_WIDTH = 5
FITTED = False
"""Value cut-off playouts by the fitted value (``bots.search_value``) rather than the game's:
tried, not adopted (3 of 6 against the trader on seed 11's deals where the game's value won 4
of the same 6, by fewer ducats)."""


def horizon_for(iterations: int) -> int:
    """Turns a playout runs: :data:`HORIZON` up to the Expert's 80 iterations, else
    :data:`HORIZON_LONG`."""
    return HORIZON if iterations <= 80 else HORIZON_LONG


def width_for(iterations: int) -> int:
    """Candidates (the base bot's move included): 3 at the Expert's 80 iterations, 5 at the
    Master's 320."""
    return max(2, min(MAX_WIDTH, 2 + iterations // 80))


Deferred = Callable[[State[Any], int], bool]


class FuldriggerSearchAgent:
    """Paired playouts over the base bot's move and its best few alternatives (see the module
    docstring)."""

    name = "ismcts"
    needs: ClassVar[Needs] = Needs(determinization=True, budget=True)

    def __init__(self, game: AnyGame, base: Agent, defer: Deferred, value: Valuer | None = None) -> None:
        """``base``: the bot whose moves are searched (the raider); ``defer``: the decisions
        left to it; ``value``: of a cut-off playout (default: the game's). The bots module
        passes them: this module does not import it, which imports this one."""
        kit = bots_for(game)
        self.game = game
        self.base = base
        self.defer = defer
        self.evaluate = kit.evaluate
        assert kit.value is not None
        self.value = kit.value if value is None or not FITTED else value
        self.iterations = kit.iterations
        self.fallback = IsmctsAgent(game)
        """The generic search, for the analysis (hints, reviews) of decisions this one leaves."""
        self.last_iterations = 0
        self.last_choice: tuple[Action, Action] | None = None
        """(the base bot's move, the move played) at the last searched decision."""

    def covers(self, state: FuldriggerState, seat: int) -> bool:
        return state.phase == "free" and not self.defer(state, seat)

    # ------------------------------------------------------------------ public

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, FuldriggerState)
        legal = state.legal()
        if len(legal) == 1:
            return legal[0]
        if not self.covers(state, seat):
            self.last_iterations = 0
            return self.base.act(state, seat, rng, budget)
        return self._rank(state, seat, rng, budget)[0][0]

    def analyse(
        self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None
    ) -> list[tuple[Action, int, float]]:
        """Every legal action with its playouts and mean chance of winning for ``seat``, the
        choice first (the base bot's move unless another is clearly better); the other legal
        actions follow with no playouts, by one ply of the evaluation. Decisions this search
        leaves to the base bot are analysed by the generic search. Hints and reviews hand over the
        true state: it is read only through ``legal()`` and the seat's determinizations
        (:meth:`act` is handed one already)."""
        if len(state.legal()) == 1:
            self.last_iterations = 0
            return [(state.legal()[0], 0, 0.5)]
        view = state.determinize(seat, rng)
        assert isinstance(view, FuldriggerState)
        if not self.covers(view, seat):
            ranked = self.fallback.analyse(state, seat, rng, budget)
            self.last_iterations = self.fallback.last_iterations
            return ranked
        return self._rank(view, seat, rng, budget)

    # ------------------------------------------------------------------ search

    def _one_ply(self, state: FuldriggerState, seat: int, actions: Sequence[Action]) -> list[float]:
        out = []
        for a in actions:
            c: State[Any] = state.copy()
            c.play(a)
            out.append(self.evaluate(c, seat))
        return out

    def _rank(
        self, state: FuldriggerState, seat: int, rng: Rng, budget: Budget | None
    ) -> list[tuple[Action, int, float]]:
        """The ranking of :meth:`analyse` on ``state``, a determinization of ``seat``'s
        knowledge at a free decision the base bot would not sail."""
        legal = list(state.legal())
        iterations = budget.iterations if budget is not None and budget.iterations else None
        seconds = budget.seconds if budget is not None and budget.seconds else None
        if iterations is None:
            iterations = max(1, int(self.iterations * seconds)) if seconds is not None else self.iterations
        deadline = time.perf_counter() + seconds if seconds is not None else math.inf
        first = self.base.act(state, seat, rng, budget)
        kinds = KINDS_AT_WAR if state.at_war(seat) else KINDS
        others = [a for a in legal if a != first and str(a).split(" ", 1)[0] in kinds]
        base = self._one_ply(state, seat, others)
        order = sorted(range(len(others)), key=lambda i: -base[i])
        cands = [first, *[others[i] for i in order][: width_for(iterations) - 1]]
        k = len(cands)
        allowance = iterations * DECISIONS_PER_ITERATION
        horizon = horizon_for(iterations)
        spent = 0
        rounds = 0
        sums = [0.0] * k
        diffs = [0.0] * k  # paired differences to the base bot's move: sum and sum of squares
        diffs2 = [0.0] * k
        while k > 1 and (rounds < 2 or (spent < allowance and time.perf_counter() < deadline)):
            d = state.determinize(seat, rng)
            vals = []
            for a in cands:
                v, n = self._playout(d, seat, a, horizon)
                vals.append(v)
                spent += n
            rounds += 1
            for j in range(k):
                sums[j] += vals[j]
                x = vals[j] - vals[0]
                diffs[j] += x
                diffs2[j] += x * x
        self.last_iterations = spent // DECISIONS_PER_ITERATION
        best = paired_switch(diffs, diffs2, rounds, SWITCH_Z, SWITCH_MARGIN)
        self.last_choice = (first, cands[best])
        means = {a: (sums[j] / rounds if rounds else 0.5) for j, a in enumerate(cands)}
        chosen = cands[best]
        rest = sorted((a for a in cands if a != chosen), key=lambda a: -means[a])
        out: list[tuple[Action, int, float]] = [(chosen, rounds, means[chosen])]
        out += [(a, rounds, means[a]) for a in rest]
        seen = set(cands)
        out += [(others[i], 0, 0.0) for i in order if others[i] not in seen]
        out += [(a, 0, 0.0) for a in legal if a not in seen and a not in set(others)]
        return out

    def _playout(self, d: FuldriggerState, person: int, action: Action, horizon: int) -> tuple[float, int]:
        """(the value for ``person``, decisions played) of ``action`` played on a copy of ``d``
        and the base bot on both sides until ``horizon`` turns have ended."""
        c = d.copy()
        s: State[Any] = c
        turn = c.turn
        s.play(action)
        n = 1
        ended = 0
        act = self.base.act
        while True:
            if c.turn != turn:
                ended += 1
                turn = c.turn
                if ended >= horizon:
                    break
            who = s.to_act
            if who is None:
                break
            s.play(act(s, who, _RNG))
            n += 1
        out = s.outcome()
        if out is not None:
            return float(out[person]), n
        return float(self.value(s)[person]), n


_RNG = Rng(0)
"""The base bot draws nothing; its rng argument is this one."""
