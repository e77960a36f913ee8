"""Kasino bots: the evaluation the one-ply greedy agent uses (Kasino's best bot), registered
with :func:`spillebord.ai.register_bots` by :func:`register` (called from the package).

The value of a state for a seat is its side's expected game points minus the best other
side's: banked totals, plus this round's point cards already taken (aces, casinos,
sweeps after cancellation), a share of the "most cards" and "most spades" points per card,
cards in builds credited at a discount to their owner, and a penalty for point cards
left loose on the table for the next player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spillebord.ai import GameBots, register_bots
from spillebord.ai.playout import epsilon_greedy, logistic_value
from spillebord.core import Action, Rng, State

from .data import BIG_CASINO, DECK, IS_ACE, IS_SPADE, LITTLE_CASINO
from .rules import KasinoGame, KasinoState

# Round value of one captured card: its own points plus a share of the card / spade points.
CARD_WORTH: tuple[float, ...] = tuple(
    0.06
    + (0.22 if IS_SPADE[c] else 0.0)
    + (1.0 if IS_ACE[c] else 0.0)
    + (2.0 if c == BIG_CASINO else 0.0)
    + (1.0 if c == LITTLE_CASINO else 0.0)
    for c in DECK
)
SWEEP = 1.0
BUILD_SHARE = 0.75  # an owned build is usually taken by its owner
TABLE_RISK = 0.35  # loose point cards tend to be taken by the next player
WIN = 100.0


def evaluate(state: State[Any], seat: int) -> float:
    """The value of ``state`` for ``seat`` (higher is better; see the module docstring)."""
    assert isinstance(state, KasinoState)
    side = state.side_of[seat]
    n = state.sides
    if state.to_act is None:
        totals = state.totals
        top = max(totals)
        won = totals[side] == top and totals.count(top) == 1
        others = max((t for i, t in enumerate(totals) if i != side), default=0)
        return (WIN if won else -WIN if totals[side] < top else 0.0) + totals[side] - others
    worth = CARD_WORTH
    val = [float(t) for t in state.totals]
    sweeps = [0] * n
    for s in range(state.seats):
        sd = state.side_of[s]
        sweeps[sd] += state.sweeps[s]
        acc = 0.0
        for c in state.piles[s]:
            acc += worth[c]
        val[sd] += acc
    low = min(sweeps)
    for i in range(n):
        val[i] += SWEEP * (sweeps[i] - low)
    for b in state.builds:
        acc = 0.0
        for c in b.cards():
            acc += worth[c]
        val[state.side_of[b.owner]] += BUILD_SHARE * acc
    risk = 0.0
    for c in state.loose:
        risk += worth[c]
    nxt = state.to_act
    if nxt is not None and state.side_of[nxt] != side:
        val[side] -= TABLE_RISK * risk
        # A table of one or two loose cards invites a sweep.
        if len(state.loose) <= 2 and not state.builds and state.loose:
            val[side] -= 0.25
    mine = val[side]
    best_other = max((v for i, v in enumerate(val) if i != side), default=0.0)
    return mine - best_other


SCALE = 3.2
"""Expected game points ahead that make a 73% favourite (fitted on greedy's games)."""


def greedy_choice(state: State[Any], seat: int, rng: Rng) -> Action:
    """One ply of :func:`evaluate` (the greedy bot's choice, first best on ties: playouts
    need speed more than variety, which their random moves bring)."""
    best: Action | None = None
    best_v = float("-inf")
    for a in state.legal():
        s = state.copy()
        s.play(a)
        v = evaluate(s, seat)
        if v > best_v:
            best_v, best = v, a
    assert best is not None
    return best


def prior(state: State[Any], actions: Sequence[Action]) -> list[float]:
    """Search expands the captures and builds one ply of :func:`evaluate` likes first (a hand
    can have hundreds of ways to capture)."""
    seat = state.to_act
    if seat is None:
        return [0.0] * len(actions)
    out = []
    for a in actions:
        s = state.copy()
        s.play(a)
        out.append(evaluate(s, seat))
    return out


def register(game: KasinoGame) -> None:
    """Kasino's bot kit: its evaluation; greedy (one ply on it) is its best bot. Search plays
    out greedily (15% random moves), expands by one ply of the evaluation first and values
    cut-off playouts by expected game points."""
    register_bots(
        game,
        GameBots(
            evaluate=evaluate,
            agents={},
            best="greedy",
            rollout=epsilon_greedy(greedy_choice, 0.15),
            value=logistic_value(evaluate, SCALE),
            cutoff=12,
            iterations=1800,
            prior=prior,
            scale=SCALE,
        ),
    )
