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
from typing import Any, cast

from spillebord.ai import GameBots, register_bots
from spillebord.ai.playout import epsilon_greedy, logistic_value
from spillebord.core import Action, Rng, State

from .actions import BUILD_CODE, Build, Capture, Clear, Extend, KasinoAction, Raise, Trail
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


def action_values(state: State[Any], seat: int, actions: Sequence[Action]) -> list[float]:
    """:func:`evaluate` for ``seat`` after each of ``actions``, the very numbers that copying
    the state, playing the action and evaluating give, mostly without copying or playing.

    A play that does not end the hand (someone still holds a card) only moves cards: the hand
    card and what it takes go to the player's pile, builds and loose cards change, a sweep may
    count, and the next seat acts. Those are computed directly, each sum in the order
    :func:`evaluate` adds it (so the floats are equal, not just close). A hand's last play (a
    deal or the round's scoring follows), a raise or an extension is played on a copy.
    Search's playouts score every legal action this way: copying and playing them was most of
    a Kasino decision's time."""
    assert isinstance(state, KasinoState)
    p = state.to_act
    if p is None:
        return [evaluate(state, seat)] * len(actions)
    worth = CARD_WORTH
    seats = state.seats
    side_of = state.side_of
    side = side_of[seat]
    n = state.sides
    piles = state.piles
    accs = _pile_worths(piles)
    sweeps0 = state.sweeps
    builds = state.builds
    baccs = []
    for b in builds:
        acc = 0.0
        for c in b.cards():
            acc += worth[c]
        baccs.append(acc)
    loose = state.loose
    hands = state.hands
    # after any play of a card that is not the hand's last, the next seat acts (rule 4);
    # the decision bound (State.play) would end the game instead
    ends = (len(hands[p]) == 1 and not any(h for i, h in enumerate(hands) if i != p)) or (
        state.decisions + 1 >= state.game.kind.max_decisions
    )
    other_risk = side_of[(p + 1) % seats] != side
    sweep_clear = state.o.spade5_sweep
    totals = [float(t) for t in state.totals]
    if not builds and not ends:
        # a table of loose cards (most positions): what does not depend on the action once
        sp = side_of[p]
        pre = totals[sp]  # the mover's side: its total and its seats' piles before p
        post = []
        for s in range(seats):
            if side_of[s] == sp:
                if s < p:
                    pre += accs[s]
                elif s > p:
                    post.append(accs[s])
        rest = list(totals)  # the other sides, whole
        for s in range(seats):
            if side_of[s] != sp:
                rest[side_of[s]] += accs[s]
        # the sweep points after the play: without a sweep, and with one more for the mover
        sw = [0] * n
        for s in range(seats):
            sw[side_of[s]] += sweeps0[s]
        low = min(sw)
        plain = [v + SWEEP * (w - low) for v, w in zip(rest, sw, strict=True)]
        b0 = SWEEP * (sw[sp] - low)
        sw[sp] += 1
        low = min(sw)
        swept = [v + SWEEP * (w - low) for v, w in zip(rest, sw, strict=True)]
        b1 = SWEEP * (sw[sp] - low)
        # the best other side's value (the mover's own side, when it is another, added later)
        mover = sp == side
        skip = (side,) if mover else (side, sp)
        others = [i for i in range(n) if i not in skip]
        best0 = max([plain[i] for i in others], default=0.0 if mover else float("-inf"))
        best1 = max([swept[i] for i in others], default=0.0 if mover else float("-inf"))
        risk0 = 0.0
        for c in loose:
            risk0 += worth[c]
    out: list[float] = []
    for a in cast("Sequence[KasinoAction]", actions):
        kind = type(a)
        if not builds and not ends and kind is not Build:  # a trail, capture or clear
            h = a.card
            acc = accs[p]
            if kind is Trail:
                left: Sequence[int] = loose
                risk = risk0 + worth[h]
                m = len(loose) + 1
                sweep = False
            else:
                acc += worth[h]
                if kind is Clear:
                    left = ()
                    for c in loose:
                        acc += worth[c]
                    sweep = sweep_clear
                else:
                    assert isinstance(a, Capture)
                    gs = a.groups
                    if len(gs) == 1 and len(gs[0]) == 1:  # one card (most captures)
                        t = gs[0][0]
                        acc += worth[t]
                        i = loose.index(t)
                        left = loose[:i] + loose[i + 1 :]
                    else:
                        codes = a.taken()
                        left = []
                        for c in loose:
                            if c in codes:
                                acc += worth[c]
                            else:
                                left.append(c)
                    sweep = not left
                m = len(left)
                risk = 0.0
                for c in left:
                    risk += worth[c]
            v = pre + acc
            for x in post:
                v += x
            v += b1 if sweep else b0
            if mover:  # the seat's own side moved: the other sides' values are fixed
                mine = v
                best = best1 if sweep else best0
            else:
                mine = swept[side] if sweep else plain[side]
                best = best1 if sweep else best0
                best = v if v > best else best
            if other_risk:
                mine -= TABLE_RISK * risk
                if m <= 2 and m:
                    mine -= 0.25
            out.append(mine - best)
            continue
        # builds on the table, or a build made: the whole evaluation over the cards moved
        if ends or kind is Raise or kind is Extend:
            s2 = state.copy()
            s2.play(a)
            out.append(evaluate(s2, seat))
            continue
        h = a.card
        sweep = False
        nb: list[tuple[int, float]] = [(b.owner, x) for b, x in zip(builds, baccs, strict=True)]
        pile_acc = accs[p]
        if kind is Trail:
            nl: Sequence[int] = (*loose, h)
        elif kind is Build:
            assert isinstance(a, Build)
            used = a.cards_used() if a.gather else a.base
            nl = [c for c in loose if c not in used]
            if a.same:
                groups: tuple[tuple[int, ...], ...] = (a.base, (h,), *a.gather)
            else:
                groups = ((*a.base, h), *a.gather)
            acc = 0.0
            for g in groups:
                for c in g:
                    acc += worth[c]
            nb.append((p, acc))
        else:  # a capture or ♠5's clear: the card and what it takes go to the pile
            pile_acc += worth[h]
            if kind is Clear:
                taken_l: Sequence[int] = loose
                nl = ()
                kept: list[tuple[int, float]] = []
                taken_b = builds
            else:
                assert isinstance(a, Capture)
                codes = a.taken()
                taken_l = [c for c in loose if c in codes]
                nl = [c for c in loose if c not in codes]
                kept = []
                taken_b = ()
                if builds:
                    tb = []
                    for b, x in zip(builds, baccs, strict=True):
                        if BUILD_CODE + b.groups[0][0] in codes:
                            tb.append(b)
                        else:
                            kept.append((b.owner, x))
                    taken_b = tuple(tb)
            for c in taken_l:
                pile_acc += worth[c]
            for b in taken_b:
                for c in b.cards():
                    pile_acc += worth[c]
            nb = kept
            sweep = not nl and not nb and (kind is Capture or sweep_clear)
        val = list(totals)
        for s in range(seats):
            val[side_of[s]] += pile_acc if s == p else accs[s]
        sw = [0] * n
        for s in range(seats):
            sw[side_of[s]] += sweeps0[s] + (1 if sweep and s == p else 0)
        low = min(sw)
        for i in range(n):
            val[i] += SWEEP * (sw[i] - low)
        for owner, x in nb:
            val[side_of[owner]] += BUILD_SHARE * x
        if other_risk:
            risk = 0.0
            for c in nl:
                risk += worth[c]
            val[side] -= TABLE_RISK * risk
            if len(nl) <= 2 and not nb and nl:
                val[side] -= 0.25
        mine = val[side]
        out.append(mine - max((v for i, v in enumerate(val) if i != side), default=0.0))
    return out


_LAST_PILES: tuple[tuple[tuple[int, ...], ...], list[float]] = ((), [])
"""The last piles asked about and each seat's pile worth (by identity: piles are tuples that
play replaces, so a search's playouts ask about the same ones many times). One tuple, rebound
whole, so threads asking at once never mix two answers."""


def _pile_worths(piles: tuple[tuple[int, ...], ...]) -> list[float]:
    """Each seat's pile summed as :func:`evaluate` sums it (card by card, in pile order)."""
    global _LAST_PILES
    last = _LAST_PILES
    if last[0] is piles:
        return last[1]
    worth = CARD_WORTH
    accs = []
    for pile in piles:
        acc = 0.0
        for c in pile:
            acc += worth[c]
        accs.append(acc)
    _LAST_PILES = (piles, accs)
    return accs


def greedy_choice(state: State[Any], seat: int, rng: Rng) -> Action:
    """One ply of :func:`evaluate` (the greedy bot's choice, first best on ties: playouts
    need speed more than variety, which their random moves bring)."""
    legal: Sequence[Action] = state.legal()
    best = legal[0]
    best_v = float("-inf")
    for a, v in zip(legal, action_values(state, seat, legal), strict=True):
        if v > best_v:
            best_v, best = v, a
    return best


def prior(state: State[Any], actions: Sequence[Action]) -> list[float]:
    """Search expands the captures and builds one ply of :func:`evaluate` likes first (a hand
    can have hundreds of ways to capture)."""
    seat = state.to_act
    if seat is None:
        return [0.0] * len(actions)
    return action_values(state, seat, actions)


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
            values=action_values,
            scale=SCALE,
        ),
    )
