"""The bots of 88: the evaluation (greedy uses it) and the heuristic agent, the best one.

The bot follows the rule sheet's tactical advice (Taktiska råd): get as close to the target
as the round can be won with, and otherwise leave the panel *flexible* for the next round.

* **Flexibility** of a panel = the expected distance to a uniformly random target of the
  best number reachable from it in one move (any option; Stay included). Lower is better.
* **Move**: every (option, number) is scored by the round it would give: earlier movers'
  numbers are known; later movers are assumed to play either their best reachable number
  (pessimistic) or to stay (optimistic), weighted 0.7 / 0.3. The score is the peg award
  (a win counts 100, a rival's win −100) or the relative penalty points, minus a little for
  the distance itself and for a rigid panel. Among the panels of the chosen number, the most
  flexible tiling is laid.
* **Target**: the reading whose estimated round (everyone plays their best) is best for the setter.
* **Setup**: the most flexible panel of all.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

from spillebord.ai import Budget, GameBots, Needs, register_bots
from spillebord.ai.agent import Searcher, Valuer
from spillebord.ai.playout import epsilon_greedy, logistic_value
from spillebord.core import Action, AnyGame, Rng, State

from .actions import STAY, Lay, Move, Place, Stay, Target
from .data import DIST, Geometry, distance, tens_of, units_of
from .rules import EightyEightState
from .scoring import apply_pegs, peg_awards, penalty_points

_FLEX: dict[tuple[int, int], float] = {}
_REACH: dict[tuple[int, int], tuple[int, ...]] = {}


def reach_numbers(geo: Geometry, panel: int) -> tuple[int, ...]:
    key = (id(geo), panel)
    got = _REACH.get(key)
    if got is None:
        got = tuple(sorted(geo.reach(panel)))
        _REACH[key] = got
    return got


def flexibility(geo: Geometry, panel: int) -> float:
    """Expected distance of the best reachable number to a random target (lower is better)."""
    key = (id(geo), panel)
    got = _FLEX.get(key)
    if got is None:
        rows = [DIST[n] for n in reach_numbers(geo, panel)]
        got = sum(rows[0]) / 100 if len(rows) == 1 else sum(map(min, *rows)) / 100
        _FLEX[key] = got
    return got


def best_distance(geo: Geometry, panel: int, target: int) -> int:
    return min(DIST[n][target] for n in reach_numbers(geo, panel))


def round_value(state: EightyEightState, seat: int, nums_d: Sequence[int], target: int) -> float:
    """Value for ``seat`` of a round ending with distances ``nums_d`` (circular)."""
    o = state.opts
    if o.scoring == "pegs":
        awards = peg_awards(nums_d, state.setter, target, o.exact_and_round_win_stack)
        new, winner = apply_pegs(
            state.pegs, awards, nums_d, state.setter, o.track_length, o.alone_among_contenders_only
        )
        if winner is not None:
            return 100.0 if winner == seat else -100.0
        gain = [new[s] - state.pegs[s] for s in range(state.seats)]
        others = [gain[s] for s in range(state.seats) if s != seat]
        return gain[seat] - 0.4 * max(others)
    q = penalty_points(nums_d, state.setter)
    others_q = [q[s] for s in range(state.seats) if s != seat]
    return -(q[seat] - sum(others_q) / len(others_q)) / 10.0


def _diff(state: EightyEightState, x: int, t: int) -> int:
    if state.opts.scoring == "points" and state.opts.points_linear_difference:
        return abs(x - t)
    return distance(x, t)


def _best_diff(state: EightyEightState, panel: int, t: int) -> int:
    return min(_diff(state, n, t) for n in reach_numbers(state.geo, panel))


def move_scores(state: EightyEightState, seat: int) -> dict[int, float]:
    """Number → estimated round value for the mover ``seat`` (phase "move")."""
    geo = state.geo
    t = state.target
    assert t is not None
    order = state.mover_order()
    me = order.index(seat)
    known = {s: _diff(state, state.number(s), t) for s in order[:me]}
    later = order[me + 1 :]
    pess = {s: _best_diff(state, state.panel(s), t) for s in later}
    stay = {s: _diff(state, state.number(s), t) for s in later}
    out: dict[int, float] = {}
    for _, n in geo.moves(state.panel(seat)):
        if n in out:
            continue
        dn = _diff(state, n, t)
        d1 = [known.get(s, pess.get(s, dn)) for s in range(state.seats)]
        d2 = [known.get(s, stay.get(s, dn)) for s in range(state.seats)]
        out[n] = 0.7 * round_value(state, seat, d1, t) + 0.3 * round_value(state, seat, d2, t) - 0.002 * dn
    return out


_FLEXIBLE_MOVES: dict[tuple[int, int], tuple[tuple[str, int, float, tuple[int, ...]], ...]] = {}


def flexible_moves(geo: Geometry, panel: int) -> tuple[tuple[str, int, float, tuple[int, ...]], ...]:
    """Every move from ``panel`` as (option, number, the least flexibility of its panels, the
    panels with it), cached per panel: the bot only ever lays a most flexible panel of a move,
    so it need not weigh the hundreds of others on every decision."""
    key = (id(geo), panel)
    got = _FLEXIBLE_MOVES.get(key)
    if got is None:
        rows = []
        for (o, n), panels in geo.moves(panel).items():
            flex = [flexibility(geo, p) for p in panels]
            m = min(flex)
            rows.append((o, n, m, tuple(p for p, f in zip(panels, flex, strict=True) if f <= m + 1e-9)))
        got = _FLEXIBLE_MOVES[key] = tuple(rows)
    return got


def choose_panel(state: EightyEightState, seat: int, rng: Rng) -> tuple[str, int, int]:
    """(option, number, panel) the bot wants this move."""
    scores = move_scores(state, seat)
    best: list[tuple[str, int, int]] = []
    best_v = float("-inf")
    for o, n, flex, panels in flexible_moves(state.geo, state.panel(seat)):
        v = scores[n] - 0.05 * flex
        if v > best_v + 1e-9:
            best_v, best = v, [(o, n, p) for p in panels]
        elif abs(v - best_v) <= 1e-9:
            best.extend((o, n, p) for p in panels)
    return best[0] if len(best) == 1 else rng.choice(best)


def _most_flexible(geo: Geometry, panels: Sequence[int], rng: Rng) -> int:
    vals = [flexibility(geo, p) for p in panels]
    m = min(vals)
    tops = [p for p, v in zip(panels, vals, strict=True) if v == m]
    return tops[0] if len(tops) == 1 else rng.choice(tops)


_BEST_SETUP: dict[int, tuple[int, ...]] = {}


def best_setup_panels(geo: Geometry) -> tuple[int, ...]:
    got = _BEST_SETUP.get(id(geo))
    if got is None:
        vals = {p: flexibility(geo, p) for p in geo.panels}
        m = min(vals.values())
        got = tuple(sorted(p for p, v in vals.items() if v <= m + 1e-9))
        _BEST_SETUP[id(geo)] = got
    return got


def target_value(state: EightyEightState, seat: int, t: int) -> float:
    d = [_best_diff(state, state.panel(s), t) for s in range(state.seats)]
    stay = [d[s] if s == seat else _diff(state, state.number(s), t) for s in range(state.seats)]
    return 0.7 * round_value(state, seat, d, t) + 0.3 * round_value(state, seat, stay, t) - 0.01 * d[seat]


class HeuristicAgent:
    """The tactical bot described in the module docstring."""

    name = "heuristic"
    needs: ClassVar[Needs] = Needs()

    def __init__(self, game: AnyGame) -> None:
        self.game = game

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, EightyEightState)
        legal: Sequence[Action] = state.legal()
        if len(legal) == 1:
            return legal[0]
        geo = state.geo
        if state.pending_number is not None:
            panel = _most_flexible(geo, state.pending_panels(), rng)
            want = tens_of(panel) if state.pending_tens is None else units_of(panel)
            for a in legal:
                if isinstance(a, Place) and a.tiling == want:
                    return a
            return legal[0]
        if state.phase == "setup":
            p = rng.choice(best_setup_panels(geo))
            return Lay(geo.panel_number[p])
        if state.phase == "target":
            vals = [(target_value(state, seat, a.number), a) for a in legal if isinstance(a, Target)]
            m = max(v for v, _ in vals)
            tops = [a for v, a in vals if v == m]
            return tops[0] if len(tops) == 1 else rng.choice(tops)
        o, n, _ = choose_panel(state, seat, rng)
        return STAY if o == "stay" else Move(o, n)


def evaluate(state: State[Any], seat: int) -> float:
    """One-ply value for the greedy agent: track position (or relative points), then the
    distance of this seat's (pending) number to the target and its panel's flexibility."""
    assert isinstance(state, EightyEightState)
    r = state.outcome()
    if r is not None:
        return 1000.0 * r[seat]
    if state.opts.scoring == "pegs":
        others = [state.pegs[s] for s in range(state.seats) if s != seat]
        v = float(state.pegs[seat] - 0.5 * max(others))
    else:
        others = [state.points[s] for s in range(state.seats) if s != seat]
        v = -(state.points[seat] - sum(others) / len(others)) / 10.0
    p = state.panels[seat]
    if p is None:
        return v
    n = state.geo.panel_number[p]
    if state.pending_number is not None and state.to_act == seat and state.phase == "move":
        n = state.pending_number
    if state.target is not None:
        v -= 0.05 * distance(n, state.target)
    return v - 0.01 * flexibility(state.geo, p)


def prior(state: State[Any], actions: Sequence[Action]) -> list[float]:
    """Search expands what the heuristic likes first: moves by their estimated round (a panel
    can reach dozens of numbers), targets by their value to the setter, laid numbers by
    flexibility."""
    assert isinstance(state, EightyEightState)
    seat = state.to_act
    if seat is None:
        return [0.0] * len(actions)
    geo = state.geo
    out: list[float] = []
    scores: dict[int, float] | None = None
    flex: dict[tuple[str, int], float] | None = None
    for a in actions:
        if isinstance(a, Move | Stay):
            if scores is None or flex is None:
                scores = move_scores(state, seat)
                flex = {(o, n): f for o, n, f, _ in flexible_moves(geo, state.panel(seat))}
            key = (
                (a.option, a.number) if isinstance(a, Move) else ("stay", geo.panel_number[state.panel(seat)])
            )
            out.append(scores[key[1]] - 0.05 * flex.get(key, 50.0))
        elif isinstance(a, Target):
            out.append(target_value(state, seat, a.number))
        elif isinstance(a, Lay):
            out.append(-lay_flexibility(geo).get(a.number, 99.0))
        else:
            out.append(0.0)
    return out


_LAY_FLEX: dict[int, dict[int, float]] = {}


def lay_flexibility(geo: Geometry) -> dict[int, float]:
    """Number → the flexibility of its most flexible panel (cached per geometry)."""
    got = _LAY_FLEX.get(id(geo))
    if got is None:
        got = {}
        for p in geo.panels:
            n = geo.panel_number[p]
            got[n] = min(got.get(n, 99.0), flexibility(geo, p))
        _LAY_FLEX[id(geo)] = got
    return got


SCALE = 10.0
"""Pegs (or tenths of penalty points) ahead that make a 73% favourite (fitted on the
heuristic's games)."""


# The search's value of a cut-off playout, for peg scoring: the playout is first finished to the
# end of its round (the heuristic plays the rest of it, no random moves), then a logistic model
# of the winner at the start of a round (target cards drawn), fitted by maximum likelihood on
# 1 500 games of the playout policy against itself (default options, half held out). Held-out
# log-likelihood a position: -0.626, against -0.678 for the logistic of :func:`evaluate` at
# SCALE (that scale was fitted on positions inside rounds; at round starts it is 3).
W_PEGS = 0.484
"""Logit per peg hole ahead of the most advanced opponent."""
W_LAST = 0.392
"""Logit of standing on the second-to-last hole (the next exact hit can win), against an
opponent there."""
W_SETTER = 0.118
"""Logit of being the target setter (the setter wins ties) this round."""
W_FLEX = 0.0132
"""Logit per unit of :func:`flexibility` (expected distance to a random target) worse than the
most flexible opponent's panel."""
W_REACH = -0.1685
"""Logit per unit of distance this round: the best number the panel reaches for either reading
of the drawn cards, against the opponent's."""


def round_logit(state: EightyEightState, seat: int) -> float:
    """The fitted logit of ``seat``'s chance of winning at the start of a round (see W_PEGS)."""
    geo = state.geo
    w = state.opts.track_length
    others = [s for s in range(state.seats) if s != seat]
    pegs = state.pegs
    x = W_PEGS * (pegs[seat] - max(pegs[s] for s in others))
    x += W_LAST * ((pegs[seat] == w - 1) - any(pegs[s] == w - 1 for s in others))
    x += W_SETTER if state.setter == seat else -W_SETTER
    panels = state.panels
    mine = panels[seat]
    theirs = [p for p in (panels[s] for s in others) if p is not None]
    if mine is not None and theirs:
        x += W_FLEX * (flexibility(geo, mine) - min(flexibility(geo, p) for p in theirs))
        if state.cards:
            reads = state.target_choices()
            bm = min(best_distance(geo, mine, t) for t in reads)
            bo = min(best_distance(geo, p, t) for p in theirs for t in reads)
            x += W_REACH * (bm - bo)
    return x


def make_value(game: AnyGame) -> Valuer:
    """The search's value (see ``W_PEGS``); points scoring keeps the logistic of
    :func:`evaluate`."""
    finish = HeuristicAgent(game)
    fallback = logistic_value(evaluate, SCALE)

    def value(state: State[Any]) -> list[float]:
        assert isinstance(state, EightyEightState)
        out = state.outcome()
        if out is not None:
            return list(out)
        if state.opts.scoring != "pegs":
            return list(fallback(state))
        s = state
        if s.phase != "target":
            s = state.copy()
            rng = s.rng
            for _ in range(64):  # the rest of the round (a round has a few dozen decisions at most)
                seat = s.to_act
                if seat is None or s.phase == "target":
                    break
                s.play(finish.act(s, seat, rng))  # type: ignore[arg-type]
            out = s.outcome()
            if out is not None:
                return list(out)
        vals = []
        for seat in range(s.seats):
            x = round_logit(s, seat)
            vals.append(1.0 / (1.0 + math.exp(-x)))
        return vals

    return value


def _round_search(game: AnyGame) -> Searcher:
    from .roundsearch import RoundSearchAgent  # it imports the generic search, which imports this kit

    return RoundSearchAgent(game)


def register(game: AnyGame) -> None:
    """Register 88's evaluation and agents (called from the package ``__init__``); search
    plays out with the heuristic (10% random moves) for 4 decisions, finishes the round and
    values it with the fitted round-start model (:func:`make_value`)."""
    register_bots(
        game,
        GameBots(
            evaluate=evaluate,
            agents={"heuristic": HeuristicAgent},
            best="heuristic",
            rollout=epsilon_greedy(HeuristicAgent(game).act, 0.1),
            value=make_value(game),
            cutoff=4,
            iterations=1200,  # 1 280 a CPU second at mid-game with the cut-off of 4
            prior=prior,
            exploration=0.3,
            widen=2,
            scale=SCALE,
            search=_round_search,
        ),
    )


__all__ = [
    "HeuristicAgent",
    "best_setup_panels",
    "choose_panel",
    "evaluate",
    "flexibility",
    "move_scores",
    "register",
]
