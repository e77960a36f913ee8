"""An exact search of 88's current round, for two players and peg scoring.

Everything in 88 but the order of the deck is public (docs/rules/88.md §10): once the target
cards are drawn, the rest of the round (the setter's reading and move, then the other
player's move) is a game of perfect information with a few hundred panels a move. So instead of
sampling it, the search plays it out exactly (a minimax over the reachable panels, the mover
seeing the earlier moves as the rules say) and values the round's end with a logistic model
of the winner fitted on self-play: pegs, the last hole, who sets next, and what each panel can
reach for the next round's cards (their law is known: the deck's composition).

The model is a sum of a per-panel term for each player (see :func:`panel_term`), so the other
player's best reply to each of the setter's panels is found without trying every pair: the
replies are grouped by the round's result they give, and the best of each group is kept.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

from spillebord.ai import Budget, Needs
from spillebord.core import Action, AnyGame, Rng, State

from .actions import STAY, Move, Place, Target
from .data import Geometry, distance, tens_of, units_of
from .options import deck_counts
from .rules import EightyEightState
from .scoring import apply_pegs, peg_awards

DIST: tuple[tuple[int, ...], ...] = tuple(tuple(distance(n, t) for t in range(100)) for n in range(100))

_PAIRS: dict[str, tuple[tuple[float, int, int], ...]] = {}


def card_pairs(composition: str) -> tuple[tuple[float, int, int], ...]:
    """(probability, reading 1, reading 2) of the next round's two cards, drawn from a full
    deck of ``composition`` (the discards are ignored: a small error, and it keeps the
    per-panel terms cacheable)."""
    got = _PAIRS.get(composition)
    if got is None:
        c = deck_counts(composition)
        total = sum(c)
        rows: dict[tuple[int, int], float] = {}
        for x in range(10):
            for y in range(10):
                p = c[x] / total * ((c[y] - (x == y)) / (total - 1))
                if p > 0:
                    key = (10 * min(x, y) + max(x, y), 10 * max(x, y) + min(x, y))
                    rows[key] = rows.get(key, 0.0) + p
        got = _PAIRS[composition] = tuple((p, a, b) for (a, b), p in sorted(rows.items()))
    return got


_BD: dict[tuple[int, int], tuple[int, ...]] = {}


def best_distances(geo: Geometry, panel: int) -> tuple[int, ...]:
    """For each target 0–99, the distance of the closest number ``panel`` reaches in one move."""
    key = (id(geo), panel)
    got = _BD.get(key)
    if got is None:
        rows = [DIST[n] for n in {n for _, n in geo.moves(panel)}]
        got = _BD[key] = tuple(map(min, *rows)) if len(rows) > 1 else rows[0]
    return got


_FEAT: dict[tuple[int, int, str], tuple[float, float]] = {}


def panel_features(geo: Geometry, panel: int, composition: str) -> tuple[float, float]:
    """(expected best distance to the next round's better reading, chance that one reading
    can be hit exactly) for ``panel``."""
    key = (id(geo), panel, composition)
    got = _FEAT.get(key)
    if got is None:
        bd = best_distances(geo, panel)
        g = ex = 0.0
        for p, a, b in card_pairs(composition):
            m = min(bd[a], bd[b])
            g += p * m
            if m == 0:
                ex += p
        got = _FEAT[key] = (g, ex)
    return got


def next_round(geo: Geometry, setter: int, other: int, composition: str) -> tuple[float, float]:
    """The next round between the setter's panel ``setter`` and ``other``, both reaching
    their closest number and the setter choosing the reading better for it: (the expected
    result, +1 a setter's step, -1 the other's, 0 both exact; the chance that the other hits
    exactly and the setter cannot, whichever reading it chooses: the other's only way to take
    the last hole)."""
    bs, bo = best_distances(geo, setter), best_distances(geo, other)
    total = alone = 0.0
    for p, a, b in card_pairs(composition):
        best = -1.0
        for t in (a, b):
            ds, do = bs[t], bo[t]
            v = (0.0 if do == 0 else 1.0) if ds == 0 else (-1.0 if do < ds else 1.0)
            if v > best:
                best = v
        total += p * best
        if bo[a] == 0 and bo[b] == 0 and bs[a] and bs[b]:
            alone += p
    return total, alone


# The round-end model: the logit of the *next* setter's chance of winning (2 seats: the
# next setter is this round's other player), fitted by maximum likelihood on self-play of the
# heuristic (10% and 30% random moves), every round's end; see docs/bots.md.
W_PEGS = 0.397
"""Per peg hole ahead."""
W_LAST = 0.138
"""Standing on the second-to-last hole, against the other player there."""
W_SETTER = -0.134
"""Setting the next target (what it is worth is mostly in the next-round terms below)."""
W_G_SETTER = 0.0
"""Per unit of the next setter's expected best distance (:func:`panel_features`)."""
W_G_OTHER = 0.0
"""Per unit of the other player's expected best distance (it raises the setter's chance)."""
W_EX_SETTER = 0.556
"""Per unit of the next setter's chance of an exact hit."""
W_EX_OTHER = -0.431
"""Per unit of the other player's chance of an exact hit."""
W_NEXT = 0.303
"""Per unit of the next round's expected result (:func:`next_round`)."""
W_WIN_SETTER = 0.511
"""The next setter on the second-to-last hole: per unit of its exact-hit chance (an exact
setter takes the last hole)."""
W_WIN_OTHER = -0.519
"""The other player on the second-to-last hole: per unit of its chance of being exact alone."""


def setter_term(geo: Geometry, panel: int, composition: str, last: bool) -> float:
    """The next setter's own panel's share of the round-end logit."""
    g, ex = panel_features(geo, panel, composition)
    return W_G_SETTER * g + (W_EX_SETTER + (W_WIN_SETTER if last else 0.0)) * ex


def other_term(geo: Geometry, panel: int, composition: str) -> float:
    """The other player's panel's share of the next setter's round-end logit."""
    g, ex = panel_features(geo, panel, composition)
    return W_G_OTHER * g + W_EX_OTHER * ex


def pair_term(geo: Geometry, setter: int, other: int, composition: str, other_last: bool) -> float:
    """The share of the round-end logit that depends on both panels."""
    result, alone = next_round(geo, setter, other, composition)
    return W_NEXT * result + (W_WIN_OTHER * alone if other_last else 0.0)


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x > -60 else 0.0


class RoundSearchAgent:
    """The exact round search (module docstring) for two seats and peg scoring; any other
    decision (the setup, three or four seats, the points game) goes to ``fallback``, the
    generic search.

    ``shortlist``: how many of the setter's panels, ranked by the model without the terms
    that depend on both panels, are then weighed with them (against the same number of the
    other player's best replies of each kind): the budget's knob."""

    name = "ismcts"
    needs: ClassVar[Needs] = Needs(determinization=True, budget=True)

    def __init__(self, game: AnyGame, *, shortlist: int = 12) -> None:
        from spillebord.ai.ismcts import IsmctsAgent

        self.game = game
        self.fallback = IsmctsAgent(game)
        self.shortlist = shortlist
        self.last_iterations = 0

    def covers(self, state: EightyEightState) -> bool:
        return state.seats == 2 and state.opts.scoring == "pegs" and state.phase in ("target", "move")

    # ------------------------------------------------------------------ public

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, EightyEightState)
        legal = state.legal()
        if len(legal) == 1:
            return legal[0]
        if not self.covers(state):
            return self.fallback.act(state, seat, rng, budget)
        return self.analyse(state, seat, rng, budget)[0][0]

    def analyse(
        self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None
    ) -> list[tuple[Action, int, float]]:
        """Every legal action with its chance of winning for ``seat`` (best first; the
        "visits" are 1: nothing is sampled)."""
        assert isinstance(state, EightyEightState)
        if not self.covers(state):
            return self.fallback.analyse(state, seat, rng, budget)
        shortlist = self.shortlist
        if budget is not None and budget.iterations:
            shortlist = max(1, min(64, budget.iterations // 25))
        ctx = _Round(state, shortlist)
        values: dict[Action, float] = {}
        if state.phase == "target":
            for a in state.legal():
                assert isinstance(a, Target)
                values[a] = ctx.setter_best(a.number)[1]
        elif state.pending_number is not None:
            cands = state.pending_panels()
            want_tens = state.pending_tens is None
            for p, v in ctx.values(seat, cands).items():
                key: Action = Place(
                    "tens" if want_tens else "units", tens_of(p) if want_tens else units_of(p)
                )
                values[key] = max(values.get(key, 0.0), v)
        else:
            moves = state.geo.moves(state.panel(seat))
            cands = [p for ps in moves.values() for p in ps]
            vals = ctx.values(seat, cands)
            for (o, n), ps in moves.items():
                key = STAY if o == "stay" else Move(o, n)
                values[key] = max(vals[p] for p in ps)
        self.last_iterations = ctx.weighed
        out: list[tuple[Action, int, float]] = [(a, 1, values[a]) for a in state.legal() if a in values]
        out.sort(key=lambda t: -t[2])
        return out


class _Round:
    """One round's context: who sets, the target (when chosen), the other player's replies."""

    def __init__(self, state: EightyEightState, shortlist: int) -> None:
        self.state = state
        self.geo = state.geo
        self.comp = state.opts.deck_composition
        self.setter = state.setter
        self.other = 1 - state.setter
        self.track = state.opts.track_length
        self.shortlist = shortlist
        self.weighed = 0

    def result(self, t: int, ds: int, do: int) -> tuple[tuple[int, ...], int | None]:
        """The pegs after the round and the winner, for the setter's distance ``ds`` and the
        other's ``do``."""
        st = self.state
        d = [0, 0]
        d[self.setter], d[self.other] = ds, do
        o = st.opts
        awards = peg_awards(d, self.setter, t, o.exact_and_round_win_stack)
        return apply_pegs(st.pegs, awards, d, self.setter, self.track, o.alone_among_contenders_only)

    def end_value(self, pegs: tuple[int, ...], winner: int | None, p_setter: int, p_other: int) -> float:
        """The chance of winning of this round's *other* player (the next setter) after the
        round, with the panels ``p_setter`` and ``p_other``."""
        if winner is not None:
            return 1.0 if winner == self.other else 0.0
        return sigmoid(
            self.base(pegs) + self.split(p_setter, p_other, pegs) + self.pair(p_setter, p_other, pegs)
        )

    def base(self, pegs: tuple[int, ...]) -> float:
        w = self.track - 1
        ns, nr = self.other, self.setter
        return W_PEGS * (pegs[ns] - pegs[nr]) + W_LAST * ((pegs[ns] == w) - (pegs[nr] == w)) + W_SETTER

    def split(self, p_setter: int, p_other: int, pegs: tuple[int, ...]) -> float:
        last = pegs[self.other] == self.track - 1
        return setter_term(self.geo, p_other, self.comp, last) + other_term(self.geo, p_setter, self.comp)

    def pair(self, p_setter: int, p_other: int, pegs: tuple[int, ...]) -> float:
        self.weighed += 1
        return pair_term(self.geo, p_other, p_setter, self.comp, pegs[self.setter] == self.track - 1)

    # -------------------------------------------------------------- the other player

    def reply(self, t: int, p_setter: int) -> tuple[int, float]:
        """The other player's best panel after the setter laid ``p_setter``, and its chance."""
        ds = DIST[self.geo.panel_number[p_setter]][t]
        best, best_v = -1, -1.0
        for q in self.replies():
            v = self.end_value(*self.result(t, ds, DIST[self.geo.panel_number[q]][t]), p_setter, q)
            if v > best_v:
                best, best_v = q, v
        return best, best_v

    def replies(self) -> list[int]:
        moves = self.geo.moves(self.state.panel(self.other))
        return [q for ps in moves.values() for q in ps]

    # -------------------------------------------------------------- the setter

    def setter_best(self, t: int, cands: Sequence[int] | None = None) -> tuple[int, float, dict[int, float]]:
        """The setter's best panel for target ``t`` among ``cands`` (default: every reachable
        one), its chance of winning, and the chance of every shortlisted candidate."""
        geo = self.geo
        if cands is None:
            cands = [p for ps in geo.moves(self.state.panel(self.setter)).values() for p in ps]
        last = self.state.pegs[self.other] + 1 >= self.track - 1
        # the other player's replies by distance, each with its own-panel term, best first
        by_d: dict[int, list[tuple[float, int]]] = {}
        for q in self.replies():
            dq = DIST[geo.panel_number[q]][t]
            by_d.setdefault(dq, []).append((setter_term(geo, q, self.comp, last), q))
        for rows in by_d.values():
            rows.sort(key=lambda r: -r[0])
        ds_seen: dict[int, list[list[tuple[float, int]]]] = {}

        def classes(ds: int) -> list[list[tuple[float, int]]]:
            """The replies split by the round's result they give (exact; closer; not closer),
            each class's best ``shortlist`` first."""
            got = ds_seen.get(ds)
            if got is None:
                groups: list[list[tuple[float, int]]] = [[], [], []]
                for dq, rows in by_d.items():
                    k = 0 if dq == 0 else 1 if dq < ds else 2
                    groups[k].extend(rows[: self.shortlist])
                for g in groups:
                    g.sort(key=lambda r: -r[0])
                got = ds_seen[ds] = [g[: self.shortlist] for g in groups if g]
            return got

        # first without the pair terms: the other player's best reply of each kind by its own term
        rough: list[tuple[float, int]] = []
        for p in cands:
            ds = DIST[geo.panel_number[p]][t]
            worst = 1.0
            for g in classes(ds):
                term, q = g[0]
                pegs, winner = self.result(t, ds, DIST[geo.panel_number[q]][t])
                if winner is not None:
                    v = 1.0 if winner == self.setter else 0.0
                else:
                    v = 1.0 - sigmoid(self.base(pegs) + term + other_term(geo, p, self.comp))
                worst = min(worst, v)
            rough.append((worst, p))
        rough.sort(key=lambda r: -r[0])
        out: dict[int, float] = {}
        for _, p in rough[: self.shortlist]:
            ds = DIST[geo.panel_number[p]][t]
            worst = 1.0
            for g in classes(ds):
                for _, q in g:
                    v = 1.0 - self.end_value(*self.result(t, ds, DIST[geo.panel_number[q]][t]), p, q)
                    worst = min(worst, v)
            out[p] = worst
        best = max(out, key=lambda p: out[p])
        for v, p in rough[self.shortlist :]:
            out[p] = min(v, out[best])  # not weighed exactly: never above the best
        return best, out[best], out

    # -------------------------------------------------------------- either

    def values(self, seat: int, cands: Sequence[int]) -> dict[int, float]:
        """``seat``'s chance of winning after laying each of ``cands`` this move."""
        st = self.state
        t = st.target
        assert t is not None
        if seat == self.setter:
            return self.setter_best(t, cands)[2]
        p_setter = st.panel(self.setter)
        ds = DIST[self.geo.panel_number[p_setter]][t]
        return {
            q: self.end_value(*self.result(t, ds, DIST[self.geo.panel_number[q]][t]), p_setter, q)
            for q in cands
        }


__all__ = ["RoundSearchAgent", "best_distances", "card_pairs", "next_round", "panel_features"]
