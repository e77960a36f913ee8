"""Partners' own search (``GameBots.search``): paired playouts of the bot's few best moves.

The generic ISMCTS spread its budget thin here: 10–30 legal moves, each with two or three
noisy cut-off playouts, so the anchor rule kept the bot's move nearly always. This search
instead

* ranks the legal moves by the bot's own one-ply values (:func:`~.bots.one_ply`: the board a
  move leaves, a split 7 by its best completion) and keeps the best few (``width``, from the
  budget), the bot's choice first;
* plays every candidate out on the **same** samples: each round draws one determinization
  (``state.determinize(seat)``: only what the seat knows) and one playout seed, and every
  candidate is played from that same deal of the hidden cards with the same random stream
  (common random numbers), so the differences between candidates are not drowned in the luck
  of the cards;
* plays the bot's move unless another candidate's mean beats it by ``SWITCH_Z`` standard errors
  of the paired differences (and ``SWITCH_MARGIN``); of several that do, the one ahead most.

A playout is the game's rollout (the bot, 10% random) for ``cutoff`` decisions valued by the
game's value, as in the generic search; a split 7 of the searching seat is first completed by
the bot. The exchange (a card given face down) is left to the bot (its analysis, for hints, to the
generic search). One iteration of the budget
is one playout, about what a generic iteration costs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from spillebord.ai import Agent, Budget, IsmctsAgent, Needs, bots_for
from spillebord.ai.playout import paired_switch
from spillebord.core import Action, AnyGame, Rng, State

from .actions import PartnersAction
from .rules import PartnersState

Ranker = Callable[[PartnersState, Sequence[PartnersAction]], list[float]]
"""The bot's one-ply values of some legal moves (``bots.one_ply``)."""

SWITCH_Z = 0.5
"""Standard errors of the paired mean difference by which a candidate must beat the bot's move.
It was 1.5: on 129 positions of the bot's games (``tools/partners_switch.py``: every candidate
played out 160 times, the search's 75 playouts drawn from them 40 times and its choice valued
on the rest), 0.5 gains 3.8e-3 a decision in playout value over the bot's move, 1.5 gained
2.5e-3 (1.5 at 150 playouts: 3.4e-3)."""
SWITCH_MARGIN = 0.005
"""...and by how much at least (chance of winning)."""
PER_CANDIDATE = 16
"""Paired samples the budget should give each candidate: the width is budget / this (2–6)."""
MAX_WIDTH = 6


def width_for(iterations: int) -> int:
    return max(2, min(MAX_WIDTH, iterations // PER_CANDIDATE))


def switch_to(diffs: Sequence[float], diffs2: Sequence[float], rounds: int) -> int:
    """The candidate to play (0: the bot's move): :func:`~spillebord.ai.playout.paired_switch`
    at :data:`SWITCH_Z` standard errors and :data:`SWITCH_MARGIN`."""
    return paired_switch(diffs, diffs2, rounds, SWITCH_Z, SWITCH_MARGIN)


class PartnersSearchAgent:
    """Flat paired Monte Carlo over the bot's best moves (see the module docstring)."""

    name = "ismcts"
    needs: ClassVar[Needs] = Needs(determinization=True, budget=True)

    def __init__(self, game: AnyGame, bot: Agent, one_ply: Ranker) -> None:
        """``bot``: the ``partners`` bot; ``one_ply``: its values of moves (the bots module
        passes both: this module does not import it, which imports this one)."""
        kit = bots_for(game)
        self.game = game
        self.bot = bot
        self.one_ply = one_ply
        self.iterations = kit.iterations
        self.rollout = kit.rollout
        self.value = kit.value
        self.cutoff = kit.cutoff
        self.fallback = IsmctsAgent(game)
        """The generic search, for the exchange's analysis (hints and reviews)."""
        self.last_iterations = 0

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, PartnersState)
        legal = state.legal()
        if len(legal) == 1:
            return legal[0]
        if state.phase == "exchange":
            self.last_iterations = 0
            return self.bot.act(state, seat, rng, budget)
        return self._rank(state, seat, rng, budget)[0][0]

    def analyse(
        self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None
    ) -> list[tuple[Action, int, float]]:
        """Every legal action with its playouts and mean chance of winning for ``seat``, the
        choice first (the bot's move unless another is clearly better); moves outside the
        candidates get no playouts and are ranked after them by their one-ply value. Hints and
        reviews hand over the true state: it is read only through ``legal()`` and the seat's
        determinizations (:meth:`act` is handed one already)."""
        if len(state.legal()) == 1:
            self.last_iterations = 0
            return [(state.legal()[0], 0, 0.5)]
        view = state.determinize(seat, rng)
        assert isinstance(view, PartnersState)
        if view.phase == "exchange":  # the generic search's regret matching
            ranked = self.fallback.analyse(state, seat, rng, budget)
            self.last_iterations = self.fallback.last_iterations
            return ranked
        return self._rank(view, seat, rng, budget)

    def _rank(
        self, state: State[Any], seat: int, rng: Rng, budget: Budget | None
    ) -> list[tuple[Action, int, float]]:
        """The ranking of :meth:`analyse` on ``state``, a determinization of ``seat``'s
        knowledge in the play phase with more than one legal action."""
        assert isinstance(state, PartnersState)
        legal = list(state.legal())
        iterations = budget.iterations if budget is not None and budget.iterations else None
        if iterations is None:
            seconds = budget.seconds if budget is not None and budget.seconds else 1.0
            iterations = max(1, int(self.iterations * seconds))
        base = self.one_ply(state, legal)
        first = self.bot.act(state, seat, rng, budget)
        order = sorted(range(len(legal)), key=lambda i: -base[i])
        cands = [first, *[legal[i] for i in order if legal[i] != first][: width_for(iterations) - 1]]
        k = len(cands)
        rounds = max(2, iterations // k)
        sums = [0.0] * k
        diffs = [0.0] * k  # paired differences to the bot's move: sum and sum of squares
        diffs2 = [0.0] * k
        for _ in range(rounds):
            d = state.determinize(seat, rng)
            pseed = rng.next64()
            vals = [self._playout(d, seat, a, Rng(pseed)) for a in cands]
            for j in range(k):
                sums[j] += vals[j]
                x = vals[j] - vals[0]
                diffs[j] += x
                diffs2[j] += x * x
        self.last_iterations = rounds * k
        best = switch_to(diffs, diffs2, rounds)
        means = {a: sums[j] / rounds for j, a in enumerate(cands)}
        chosen = cands[best]
        rest = sorted((a for a in cands if a != chosen), key=lambda a: -means[a])
        out: list[tuple[Action, int, float]] = [(chosen, rounds, means[chosen])]
        out += [(a, rounds, means[a]) for a in rest]
        seen = set(cands)
        out += [(legal[i], 0, 0.0) for i in order if legal[i] not in seen]
        return out

    def _playout(self, d: PartnersState, person: int, action: Action, rng: Rng) -> float:
        c = d.copy()
        s: State[Any] = c
        s.play(action)
        turn = d.turn
        # the searching seat's split 7 is completed by the bot (no random parts)
        while c.phase == "split" and c.turn == turn and s.to_act is not None:
            s.play(self.bot.act(s, s.to_act, rng))
        policy = self.rollout
        assert policy is not None and self.value is not None
        for _ in range(self.cutoff):
            if s.to_act is None:
                break
            s.play(policy(s, rng))
        if s.to_act is None:
            out = s.outcome()
            assert out is not None
            return float(out[person])
        return float(self.value(s)[person])
