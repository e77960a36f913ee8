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

from spillebord.ai import Budget, Needs, bots_for
from spillebord.core import Action, AnyGame, Rng, State

from .actions import STAY, Move, Place, Target
from .data import DIST, Geometry, tens_of, units_of
from .options import deck_counts
from .rules import EightyEightState
from .scoring import apply_pegs, peg_awards

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


_SETTER_NUM: dict[tuple[int, int, str, bool], tuple[tuple[int, float], ...]] = {}
_OTHER_NUM: dict[tuple[int, int, str], tuple[tuple[int, float], ...]] = {}


def _setter_numbers(geo: Geometry, panel: int, comp: str, last: bool) -> tuple[tuple[int, float], ...]:
    """(number, the best :func:`setter_term` of the panels showing it) reachable from ``panel``."""
    key = (id(geo), panel, comp, last)
    got = _SETTER_NUM.get(key)
    if got is None:
        best: dict[int, float] = {}
        for (_, n), ps in geo.moves(panel).items():
            v = max(setter_term(geo, q, comp, last) for q in ps)
            if v > best.get(n, -math.inf):
                best[n] = v
        got = _SETTER_NUM[key] = tuple(best.items())
    return got


def _other_numbers(geo: Geometry, panel: int, comp: str) -> tuple[tuple[int, float], ...]:
    """(number, the least :func:`other_term` of the panels showing it) reachable from ``panel``:
    the other player's term in its opponent's logit, which it wants low."""
    key = (id(geo), panel, comp)
    got = _OTHER_NUM.get(key)
    if got is None:
        best: dict[int, float] = {}
        for (_, n), ps in geo.moves(panel).items():
            v = min(other_term(geo, q, comp) for q in ps)
            if v < best.get(n, math.inf):
                best[n] = v
        got = _OTHER_NUM[key] = tuple(best.items())
    return got


def lookahead(
    state: EightyEightState, pegs: tuple[int, ...], setter: int, p_setter: int, p_other: int
) -> float:
    """The chance of winning of ``setter``, the setter of the *next* round, with the panels
    ``p_setter`` (its own) and ``p_other`` and the pegs ``pegs``: the next round is played out
    for each of its card pairs (every reading, every number each player reaches, the other
    player's best reply of each kind), and its end valued by the round-end model without its
    pair terms (the Master's deeper look; the pair terms stood for this very round)."""
    geo, comp = state.geo, state.opts.deck_composition
    o = state.opts
    track = o.track_length
    other = 1 - setter
    mine = _other_numbers(geo, p_setter, comp)  # the setter becomes the other player after it
    theirs = (_setter_numbers(geo, p_other, comp, False), _setter_numbers(geo, p_other, comp, True))
    outcomes: dict[tuple[bool, int, bool], tuple[float, bool] | None] = {}

    def outcome(exact: bool, kind: int, t88: bool) -> tuple[float, bool] | None:
        """The pegs' logit share for ``other`` (next round's end) and whether it then stands
        on the last-but-one hole; None: the setter won; (inf, _): the other player won."""
        key = (exact, kind, t88)
        if key not in outcomes:
            d = [0, 0]
            d[setter] = 0 if exact else 2
            d[other] = (0, 1, max(d[setter], 1))[kind]
            awards = peg_awards(d, setter, 88 if t88 else 0, o.exact_and_round_win_stack)
            new, winner = apply_pegs(pegs, awards, d, setter, track, o.alone_among_contenders_only)
            if winner is not None:
                outcomes[key] = None if winner == setter else (math.inf, False)
            else:
                w = track - 1
                x = W_PEGS * (new[other] - new[setter]) + W_LAST * ((new[other] == w) - (new[setter] == w))
                outcomes[key] = (x + W_SETTER, new[other] == w)
        return outcomes[key]

    value_t: list[float] = []
    for t in range(100):
        row = DIST
        buckets = ([-math.inf] * 51, [-math.inf] * 51)
        for last in (0, 1):
            b = buckets[last]
            for n, v in theirs[last]:
                d = row[n][t]
                if v > b[d]:
                    b[d] = v
        best_t = 0.0
        for n, mv in mine:
            ds = row[n][t]
            worst = 1.0
            for kind in (0, 1, 2):  # the other player's replies: exact; closer; not closer
                if kind == 1 and ds <= 1:
                    continue
                lo, hi = ((0, 1), (1, ds), (max(ds, 1), 51))[kind]
                if max(buckets[0][lo:hi]) == -math.inf:
                    continue  # no reply of this kind
                got = outcome(ds == 0, kind, t == 88)
                if got is None:
                    continue  # the setter takes the last hole
                x, last = got
                if x == math.inf:
                    worst = 0.0  # the other player takes it
                    break
                worst = min(worst, 1.0 - sigmoid(x + max(buckets[last][lo:hi]) + mv))
            if worst > best_t:
                best_t = worst
        value_t.append(best_t)
    return sum(p * max(value_t[a], value_t[b]) for p, a, b in card_pairs(comp))


def knobs(iterations: int) -> tuple[int, int]:
    """(shortlist, deep) for a budget of ``iterations`` (the generic search's unit): the
    Expert's quarter second weighs 12 of the setter's panels; from 600 iterations on (the
    Master's second is 1 200) the best ``iterations // 150`` moves look a round further."""
    shortlist = max(1, min(64, iterations // 25))
    return shortlist, (iterations // 150 if iterations >= 600 else 0)


class RoundSearchAgent:
    """The exact round search (module docstring) for two seats and peg scoring; any other
    decision (the setup, three or four seats, the points game) goes to ``fallback``, the
    generic search.

    The budget (iterations, as for the generic search) sets two knobs (:func:`knobs`): the
    *shortlist*, how many of the setter's panels, ranked by the model without the terms that
    depend on both panels, are then weighed with them (against the same number of the other
    player's best replies of each kind); and *deep*, how many of the best moves are then
    valued by playing the next round out too (:func:`lookahead`) instead of by the model."""

    name = "ismcts"
    needs: ClassVar[Needs] = Needs(determinization=True, budget=True)

    def __init__(self, game: AnyGame) -> None:
        from spillebord.ai.ismcts import IsmctsAgent

        self.game = game
        self.fallback = IsmctsAgent(game)
        self.iterations = bots_for(game).iterations
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
        "visits" are 1: nothing is sampled). It reads the state only through ``seat``'s
        determinization (which differs from it only in the deck's order, never read here)."""
        d = state.determinize(seat, Rng(0))  # its own stream: the deck's order is never read
        assert isinstance(d, EightyEightState)
        if not self.covers(d):
            return self.fallback.analyse(state, seat, rng, budget)
        state = d
        iterations = budget.iterations if budget is not None and budget.iterations else self.iterations
        ctx = _Round(state, *knobs(iterations))
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

    def __init__(self, state: EightyEightState, shortlist: int, deep: int) -> None:
        self.state = state
        self.geo = state.geo
        self.comp = state.opts.deck_composition
        self.setter = state.setter
        self.other = 1 - state.setter
        self.track = state.opts.track_length
        self.shortlist = shortlist
        self.deep = deep
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

    def deep_value(self, pegs: tuple[int, ...], winner: int | None, p_setter: int, p_other: int) -> float:
        """:meth:`end_value`, with the next round played out (:func:`lookahead`)."""
        if winner is not None:
            return 1.0 if winner == self.other else 0.0
        self.weighed += 1
        return lookahead(self.state, pegs, self.other, p_other, p_setter)

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
        replies: dict[int, list[int]] = {}
        for _, p in rough[: self.shortlist]:
            ds = DIST[geo.panel_number[p]][t]
            worst = 1.0
            replies[p] = []
            for g in classes(ds):
                top, top_v = -1, 2.0
                for _, q in g:
                    v = 1.0 - self.end_value(*self.result(t, ds, DIST[geo.panel_number[q]][t]), p, q)
                    if v < top_v:
                        top, top_v = q, v
                replies[p].append(top)
                worst = min(worst, top_v)
            out[p] = worst
        if self.deep:
            # the best few again, each against the other player's best reply of each kind,
            # valued by playing the next round out
            ranked = sorted(out, key=lambda p: -out[p])
            deep: dict[int, float] = {}
            for p in ranked[: self.deep]:
                ds = DIST[geo.panel_number[p]][t]
                deep[p] = min(
                    1.0 - self.deep_value(*self.result(t, ds, DIST[geo.panel_number[q]][t]), p, q)
                    for q in replies[p]
                )
            floor = min(deep.values())
            for p in ranked[self.deep :]:
                out[p] = min(out[p], floor - 1e-9)
            out.update(deep)
        best = max(out, key=lambda p: out[p])
        for v, p in rough[self.shortlist :]:
            out[p] = min(v, out[best] - 1e-9)  # not weighed exactly: below the best
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
        out = {
            q: self.end_value(*self.result(t, ds, DIST[self.geo.panel_number[q]][t]), p_setter, q)
            for q in cands
        }
        if self.deep:
            ranked = sorted(cands, key=lambda q: -out[q])
            deep = {
                q: self.deep_value(*self.result(t, ds, DIST[self.geo.panel_number[q]][t]), p_setter, q)
                for q in ranked[: self.deep]
            }
            floor = min(deep.values())
            for q in ranked[self.deep :]:
                out[q] = min(out[q], floor - 1e-9)
            out.update(deep)
        return out


__all__ = ["RoundSearchAgent", "best_distances", "card_pairs", "next_round", "panel_features"]
