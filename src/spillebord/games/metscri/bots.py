"""Metscri bots: a fast evaluation (for the generic greedy agent), the ``heuristic`` bot, the
``planner``, the ``gatherer`` and the ``stager`` (the best), registered with :func:`register`.

The evaluation only uses what the seat knows (its hand, face-up cards, face-down cards it
has seen), so it gives the same value on every determinization except through cards that
get turned or spied. Its parts, for ``seat``:

* 10 x own M-points, minus 3 x the best opponent's (relative progress); a finished game is
  +/-1000;
* during the seat's own spending phases, the *plan*: the points of the best disjoint groups
  it could still turn (escalating cost), spy-reveal and collect this turn with the AP left,
  valued at 9 per point (a little below a collected point, so collecting wins), plus 0.2 per
  AP the plan leaves over (what Invest can still buy);
* long-term material: 1.0 per card in hand, 0.5 per face-down free-lying card only this
  seat knows, plus 0.5 for each of up to two cards in the seat's hand that could join it (a
  symbol of its rank or a joker; for a joker, a symbol): the *support* that makes entering a
  card worth it when the hand holds its group. Add 1.0 (0.5 if public) per touching pair of known
  same-rank cards or of a known joker and a known symbol card (a group in the making). None of
  these for the cards in the plan's groups (:data:`PLAN_CLAIMS`): the plan counts them already.
* the stager's only, staging for next turn (session 26): 7.0 per point the seat's private
  face-down cards could score next turn after one slide each, each group times the chance that
  all its cards stay private through the opponent's turn (0.55 on the rim, where a blind spy
  costs 1 AP, 0.57 in ring 1, 1.0 further in, 0.85 locked under another card):
  :data:`W_NEXT`, :func:`next_turn_points`.

The ``heuristic`` agent rolls by expected value (another roll gains ``p x mean`` and risks
``(1 - p) x sum``), never turns or spies blind except a card's first cheap look, and takes
the best action by one ply of the evaluation otherwise.

The ``planner`` agent is the same bot with a two-step look-ahead in the Move and
Enter phases (a beam of the 6 best first actions, each scored by its best follow-up), which
finds two-move set-ups; it scores 0.650 against ``heuristic`` over 40 two-seat games in the arena
(34 of 40 before the evaluation counted the hand's support, which the heuristic shares).

The ``gatherer`` (:class:`GathererAgent`, the Expert level) is the planner that first looks
for the best group it can make this turn by moving the cards it knows together and inward and
entering hand cards beside them (:func:`gathers`); it scores 0.770 against the planner over 200
games in the arena (docs/bots.md, "Metscri: the gatherer" and "Metscri: the plan's cards").
The ``stager`` (:class:`StagerAgent`, the game's best bot, the Master's anchor) is the gatherer
whose evaluation also stages for next turn (session 26): 0.710 over 400 games against the
gatherer and 0.880 over 100 against the planner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations, permutations, product
from typing import Any, ClassVar, cast

from spillebord.ai import Budget, GameBots, Needs, register_bots
from spillebord.ai.agent import Searcher
from spillebord.ai.playout import epsilon_greedy, logistic_value
from spillebord.core import Action, AnyGame, Rng, State

from .actions import ENTER_OBJ, MOVE_OBJ, NEXT_A, Enter, MetscriAction, Move, Spy, Turn
from .data import (
    BIG_JOKER,
    COLLECT,
    COST_ENTER,
    COST_MOVE,
    ENTER,
    INVEST,
    KIND,
    KING,
    KING_MASK,
    MAX_STACK,
    MOVE,
    POINTS,
    RANK,
    RAYS,
    RIM,
    RING,
    ROLL,
    SIZE,
    SPY,
    SPY_COST,
    SQUARES,
    SYMBOL,
    TURN,
)
from .groups import connected
from .rules import MetscriState

W_SCORE = 10.0
W_OPP = 3.0
"""The best opponent's M-points. No action of one decision changes them, so the one-ply bots
(heuristic, planner, gatherer) choose the same at any value: it weighs only in the search's
value (:func:`relative_value`, the evaluation less the best opponent's). Session 23: the gatherer
with 1.5 and with 6.0 played the very same 100 games as with 3.0."""
W_PLAN = 9.0
"""The plan's points (collected this turn). The gatherer at 6.0 and at 12.0 played the very same
100 games as at 9.0 (session 23): no decision of theirs turned on it in that range."""
W_AP = 0.2
W_HAND = 1.0
W_PRIVATE = 0.5
W_PAIR = 1.0
PLAN_CLAIMS = True
"""The cards in the plan's groups (collected this turn, at :data:`W_PLAN` a point) have no
privacy, support or pair bonus. Without it revealing such a card looked like a loss (its 0.5 of
privacy, its support and half its pair bonus) and a free reveal after a spy cost only
:data:`W_AP` an AP, so every bot spied cards it knew and went on without revealing them: in two
gatherer games 42 AP were spent so, about 10 a seat a game. The gatherer with it scored 0.590
over 400 games against the gatherer without it (by deals 0.550-0.630, deals 54/128/18;
``tools/metscri_support.py --set PLAN_CLAIMS=True --bots gatherer,gatherer --seeds 101 300``;
docs/bots.md). False: the evaluation before session 21."""
W_SUPPORT = 1.0
"""Per private face-down top, :data:`W_SUPPORT` x 0.5 for each of up to two hand cards that could
join it. Without it a card entered alone was worth 0.9 less than kept (0.5 against 1.0 and 2 AP
at 0.2), so two seats that had bought every card entered none and the game stalled (planner
against heuristic: 6 of 64 games past 4,000 decisions, none with it). The planner at 1.0 scored 0.713 over 80
games against the planner without it, 0.646 over 48 against itself at 0.5 and 0.600 over 40
against itself at 1.5; at 2.0 it scored 0.344 over 32 against none
(``tools/metscri_support.py``; docs/bots.md)."""

W_NEXT = 7.0
"""Per point the seat's private staged cards could score next turn (:func:`next_turn_points`),
each group times the chance that its cards stay private through the opponent's turn
(:data:`NEXT_KEEP`, :data:`NEXT_HIDDEN`); on since session 26, below W_PLAN (9.0) so that a
group collected now is worth more than the same group next turn (at 10.0 the gatherer scored
0.240 against the gatherer without it). Session 26's screen, seeds 1001-1050, 100 games
against the gatherer without the three (line of no difference 0.540): 4.5 with NEXT_KEEP
only 0.590 (by deals 0.510-0.670), 4.5 with NEXT_HIDDEN 0.85 too 0.720 (0.633-0.807), 7.0
with both 0.740 (0.658-0.822), 10.0 with both 0.240; 7.0 with both confirmed on 400 fresh
games, **0.710 (by deals 0.672-0.748), deals 89/106/5**, +9.9 M-points a game
(measured as ``tools/metscri_support.py --set W_NEXT=7.0 --set "NEXT_KEEP=(0.55, 0.57, 1.0,
1.0)" --set NEXT_HIDDEN=0.85 --bots gatherer,gatherer --seeds 3001 3200`` while the gatherer
read these constants; now the module's values, and the same games are ``--bots
stager,gatherer --seeds 3001 3200``). Adopted as a bot of its own, the stager
(:class:`StagerAgent`, :attr:`HeuristicAgent.staging`), the game's best bot: the gatherer, the
heuristic, the planner and the search's playouts value without it (none of them was measured
with it); :func:`evaluate` (the search's value and the generic bots) and the search's prior
include it. Before session 26 it was off.

Session 24 screened it without the risk (every card kept, none locked counted), in the gatherer
against the gatherer on the same 100 games (``--set W_NEXT=4.5``): 3.0 scored 0.490, 4.5 0.570
(by deals 0.484-0.656), 7.0 0.438 over 48 (stopped). At 4.5 the gatherer scores inward (of its symbol
cards collected, 26 % on the rim against 58 %, 19 % in the centre against 4 %; 6.0 points a
group against 4.3) but makes fewer groups: the cards it stages wait on the rim for a turn, where
the opponent's blind spy costs 1 AP, and the opponent took twice as many of its cards as it
took of the opponent's. Not a candidate (the screen asked 0.60); docs/bots.md."""

NEXT_KEEP: tuple[float, float, float, float] = (0.55, 0.57, 1.0, 1.0)
"""Per ring (0 the rim to 3 the centre), the chance that a private face-down free-lying card
there stays private through the opponent's turn, :func:`next_turn_points` counting a staged
group's points times the product of its cards' chances (the group is worth :data:`W_NEXT` only
while only the seat knows all of them). All 1.0 was session 24's measure. Measured in
session 26 (the gatherer at W_NEXT 4.5 against the gatherer, seeds 501-510, both seatings;
a probe not kept): of the private free-lying cards a seat left at the end of its turn, the
opponent spied 0.48 on the rim (1 AP, R19) and 0.41 in ring 1 (2 AP), the staging seat's, and
0.37 and 0.46 the plain gatherer's; in ring 2 (3 AP) none of 25: the bots spy blind only where
the knowledge (0.5) is worth the AP (0.2 each). So (0.55, 0.57, 1.0, 1.0), adopted with
:data:`W_NEXT` 7.0 and :data:`NEXT_HIDDEN` 0.85 (docs/bots.md, "Metscri: staging with the risk
counted")."""

NEXT_HIDDEN = 0.85
"""The chance that a private card lying directly under the top card of its square (locked,
R13b, R16: it cannot be spied, turned or collected until that card moves away, R12, R19)
stays private through the opponent's turn; :func:`next_turn_points` counts it, at the points
it could reach after one slide, once that card has moved off (another AP, not checked). 0.0
would not count locked cards (session 24's measure). Measured as :data:`NEXT_KEEP`: the
opponent spied 0.12 of the staging seat's locked rim cards and 0.17 of the plain gatherer's
(after moving the card over them away), so 0.85. It made the difference in the screen (0.590
without, 0.720 with, at W_NEXT 4.5): the stager enters a card on its own private card to
hide it (in 8 games, seeds 501-504, 58 such entries against the plain gatherer's 5)."""


_LATER_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t in SQUARES if t > s and (KING_MASK[s] >> t) & 1) for s in range(len(KING_MASK))
)
"""Per square, its king-move neighbours with a higher index, in order: each pair of
neighbours once (:func:`value`'s pairs)."""


def known_tops(state: MetscriState, seat: int) -> dict[int, int]:
    """Square -> card for every free-lying card ``seat`` can identify."""
    out: dict[int, int] = {}
    board = state.board
    # state.sees(seat, s, top), inlined: face up, the card just spied by seat, or remembered
    # (tests/games/metscri/test_metscri_value_fast.py holds it to sees() itself)
    up = state.up
    spied = state.pending if state.to_act == seat else -1
    aid = state.opts.memory_aid
    known = state.known
    for s in SQUARES:
        st = board[s]
        if st:
            c = st[-1]
            if (up >> s) & 1 or s == spied or (aid and (known[c] >> seat) & 1):
                out[s] = c
    return out


def _components(squares: list[int]) -> list[list[int]]:
    left = set(squares)
    comps = []
    while left:
        start = left.pop()
        comp = [start]
        frontier = [start]
        while frontier:
            a = frontier.pop()
            for b in list(left):
                if (KING_MASK[a] >> b) & 1:
                    left.discard(b)
                    comp.append(b)
                    frontier.append(b)
        comps.append(comp)
    return comps


def plan(state: MetscriState, seat: int, tops: dict[int, int]) -> tuple[int, int]:
    """(points, AP cost) of the best disjoint groups ``seat`` can still collect this turn."""
    points, cost, _ = planned(state, seat, tops)
    return points, cost


def planned(state: MetscriState, seat: int, tops: dict[int, int]) -> tuple[int, int, int]:
    """:func:`plan`, and the squares of its groups as a bit mask (bit ``s`` for square ``s``)."""
    phase = state.phase
    if state.to_act != seat or phase == ROLL or phase > COLLECT:
        return 0, 0, 0
    up = state.up
    ap = state.ap
    turning = phase <= TURN
    base = state.turned if phase == TURN else 0
    blind = phase <= SPY  # cards still face down may be collected (after a turn or a spy)

    by_rank: dict[int, list[int]] = {}
    jokers: list[int] = []
    for s, c in tops.items():
        if not blind and not (up >> s) & 1:
            continue
        if KIND[c] == SYMBOL:
            by_rank.setdefault(RANK[c], []).append(s)
        else:
            jokers.append(s)
    if not by_rank:
        return 0, 0, 0
    strict = state.opts.joker_rule == "strict_table"

    def fd_cost(s: int) -> int:
        return 0 if (up >> s) & 1 else SPY_COST[s]

    candidates: list[tuple[int, list[int]]] = []
    for squares in by_rank.values():
        for comp in _components(squares):
            # comp's n symbols with its k cheapest touching jokers (j1 big, j2 small), k growing:
            # .groups.group_weight_ok inline, and the points (a joker 1, a symbol its square's);
            # test_metscri_value_fast.py holds plan() to a version that calls group_weight_ok
            n = len(comp)
            pts = 0
            for s in comp:
                pts += POINTS[s]
            touching: list[int] = []
            if jokers:
                cm = 0
                for s in comp:
                    cm |= KING_MASK[s]
                touching = sorted(
                    (j for j in jokers if (cm >> j) & 1),
                    key=lambda j: (fd_cost(j), KIND[tops[j]] != BIG_JOKER),
                )
            j1 = j2 = 0
            for k in range(len(touching) + 1):
                if k:
                    if KIND[tops[touching[k - 1]]] == BIG_JOKER:
                        j1 += 1
                    else:
                        j2 += 1
                if n >= 3 or j1 or (j2 and n >= 2) if strict else n + j2 + 2 * j1 >= 3:
                    candidates.append((pts + k, comp + touching[:k]))
    if not candidates:
        return 0, 0, 0
    candidates.sort(key=lambda t: -t[0])
    chosen: set[int] = set()
    points = 0
    n_down = 0
    spy_cost = 0
    cost = 0
    for pts, grp in candidates:
        if chosen.intersection(grp):
            continue
        down = [s for s in grp if not (up >> s) & 1]
        if turning:
            m = n_down + len(down)
            new_cost = m * base + m * (m - 1) // 2
        else:
            new_cost = spy_cost + sum(0 if s == state.pending else SPY_COST[s] for s in down)
        if new_cost > ap:
            continue
        chosen.update(grp)
        points += pts
        n_down += len(down)
        if not turning:
            spy_cost = new_cost
        cost = new_cost
    mask = 0
    for s in chosen:
        mask |= 1 << s
    return points, cost, mask


def _reach(board: Sequence[Sequence[int]], s: int) -> int:
    """The most points a card on ``s`` could score after one slide (R13a, R24), or staying."""
    best = POINTS[s]
    for ray in RAYS[s]:
        for t in ray:
            if board[t]:
                break
            if POINTS[t] > best:
                best = POINTS[t]
    return best


def next_turn_points(state: MetscriState, seat: int, tops: dict[int, int], claimed: int) -> float:
    """What ``seat``'s private staged cards could score next turn (:data:`W_NEXT`): for each rank
    whose face-down cards only this seat knows (outside the plan's ``claimed`` squares) lie
    within three rows and three columns and weigh 3 with the private jokers (R22), the points
    of its best three symbols after one slide each (:func:`_reach`) and 1 a joker, times the
    chance that all of them stay private through the opponent's turn (:data:`NEXT_KEEP` by
    ring for a free-lying card, :data:`NEXT_HIDDEN` for a card locked under one other; off,
    every free-lying card 1.0 and no locked card counted). Whether they would touch (R23) and
    the AP it takes are not checked."""
    bit = 1 << seat
    everyone = state.all_seats
    known = state.known
    up = state.up
    board = state.board
    keep_by_ring = NEXT_KEEP
    # a symbol: (its reach times its keep, its square, its reach, its keep); a joker: (weight, keep)
    by_rank: dict[int, list[tuple[float, int, int, float]]] = {}
    jokers: list[tuple[int, float]] = []

    def add(s: int, c: int, keep: float) -> None:
        if KIND[c] == SYMBOL:
            r = _reach(board, s)
            by_rank.setdefault(RANK[c], []).append((r * keep, s, r, keep))
        else:
            jokers.append((_weight(c), keep))

    for s, c in tops.items():
        if (claimed >> s) & 1 or (up >> s) & 1 or known[c] == everyone or not known[c] & bit:
            continue
        add(s, c, keep_by_ring[RING[s]])
    if NEXT_HIDDEN:
        for s in SQUARES:
            st = board[s]
            if len(st) >= 2:
                c = st[-2]
                if known[c] != everyone and known[c] & bit:
                    add(s, c, NEXT_HIDDEN)
    jokers.sort(reverse=True)
    total = 0.0
    for syms in by_rank.values():
        syms.sort(reverse=True)
        chosen = syms[:GATHER_SYMBOLS]
        rows = [s // SIZE for _, s, _, _ in chosen]
        cols = [s % SIZE for _, s, _, _ in chosen]
        if max(rows) - min(rows) > 2 or max(cols) - min(cols) > 2:
            continue
        weight = len(chosen)
        points = 0
        keep = 1.0
        for _, _, r, k in chosen:
            points += r
            keep *= k
        while weight < 3 and jokers:
            w, k = jokers.pop(0)
            weight += w
            points += 1
            keep *= k
        if weight >= 3:
            total += points * keep
    return total


def evaluate(state: State[Any], seat: int) -> float:
    """Heuristic value of a Metscri ``state`` for ``seat`` (see the module docstring)."""
    return value(cast(MetscriState, state), seat)


def value(state: MetscriState, seat: int, staging: bool = True) -> float:
    """:func:`evaluate` on a state known to be Metscri's; without ``staging`` the evaluation
    before session 26 (no :data:`W_NEXT` term: the heuristic's, the planner's and the gatherer's)."""
    res = state.outcome()
    if res is not None:
        return 1000.0 if res[seat] > 0 else -1000.0
    scores = state.points
    other = max(p for i, p in enumerate(scores) if i != seat)
    v = W_SCORE * scores[seat] - W_OPP * other
    tops = known_tops(state, seat)
    claimed = 0
    if state.to_act == seat and ROLL < state.phase <= INVEST:
        pts, cost, mask = planned(state, seat, tops)
        v += W_PLAN * pts + W_AP * (state.ap - cost)
        if PLAN_CLAIMS:
            claimed = mask
    v += W_HAND * len(state.hands[seat])
    bit = 1 << seat
    everyone = state.all_seats
    known = state.known
    hand = state.hands[seat]
    counts: list[int] | None = None
    jokers = 0
    for s, c in tops.items():
        if (claimed >> s) & 1:
            continue  # the plan collects it this turn: no privacy, support or pair bonus
        if not (state.up >> s) & 1 and known[c] != everyone and known[c] & bit:
            v += W_PRIVATE
            # support: the hand cards that could join this card (counted once per call)
            if counts is None:
                counts = [0] * 14
                for h in hand:
                    counts[RANK[h]] += 1
                jokers = counts[1] + counts[2]
            k = counts[RANK[c]] + jokers if KIND[c] == SYMBOL else len(hand) - jokers
            v += W_SUPPORT * 0.5 * (k if k < 2 else 2)
        for t in _LATER_NEIGHBOURS[s]:
            if t not in tops or (claimed >> t) & 1:
                continue
            d = tops[t]
            ks, kt = KIND[c], KIND[d]
            if (ks == SYMBOL and kt == SYMBOL and RANK[c] == RANK[d]) or (ks == SYMBOL) != (kt == SYMBOL):
                public = known[c] == everyone and known[d] == everyone
                v += W_PAIR * (0.5 if public else 1.0)
    if staging and W_NEXT:
        v += W_NEXT * next_turn_points(state, seat, tops, claimed)
    return v


class HeuristicAgent:
    """Metscri bot: expected-value rolling, then one ply of :func:`evaluate` over the
    actions that do not look at unknown cards blindly (see the module docstring)."""

    name = "heuristic"
    needs: ClassVar[Needs] = Needs()
    staging: ClassVar[bool] = False
    """Whether the bot's evaluation stages for next turn (:data:`W_NEXT`): only the stager's,
    the one bot it was measured in (session 26)."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game

    @staticmethod
    def keep_rolling(rolls: tuple[int, ...]) -> bool:
        if not rolls:
            return True
        last = rolls[-1]
        total = sum(rolls)
        p = (7 - last) / 6
        mean = (last + 6) / 2
        return total < 20 and p * mean > (1 - p) * total

    def choices(
        self, state: MetscriState, seat: int, actions: list[MetscriAction], tops: dict[int, int], rng: Rng
    ) -> list[MetscriAction]:
        """The actions weighed by one ply: all but blind turns."""
        # never turn blind: it shows everybody a card we cannot plan with
        return [a for a in actions if not (isinstance(a, Turn) and a.square not in tops)]

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, MetscriState)
        actions = state.legal()
        if len(actions) == 1:
            return actions[0]
        if state.phase == ROLL:
            want = "roll" if self.keep_rolling(state.rolls) else "stop"
            return next(a for a in actions if str(a) == want)
        tops = known_tops(state, seat)
        choices = self.choices(state, seat, actions, tops, rng)
        best: list[MetscriAction] = []
        best_v = float("-inf")
        for a in choices:
            s = state.copy()
            s.play(a)
            v = value(s, seat, self.staging)
            if isinstance(a, Spy) and a.square not in tops:
                # judge a blind spy by the knowledge it buys, not by the sampled card
                v = value(state, seat, self.staging) + W_PRIVATE - W_AP * SPY_COST[a.square]
            if v > best_v + 1e-9:
                best_v, best = v, [a]
            elif abs(v - best_v) <= 1e-9:
                best.append(a)
        return best[0] if len(best) == 1 else rng.choice(best)


class PlannerAgent(HeuristicAgent):
    """The heuristic bot with a two-step look-ahead in the Move and Enter phases: the best
    ``beam`` actions by one ply are each scored by their best follow-up Move/Enter, so that
    two-move set-ups (bring a card over, then next to its partner) are found."""

    name = "planner"
    beam = 6

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, MetscriState)
        if state.phase not in (MOVE, ENTER):
            return super().act(state, seat, rng, budget)
        actions = state.legal()
        if len(actions) == 1:
            return actions[0]
        scored = []
        for a in actions:
            s = state.copy()
            s.play(a)
            scored.append((value(s, seat, self.staging), str(a), a, s))
        scored.sort(key=lambda t: (-t[0], t[1]))
        best_a: MetscriAction = scored[0][2]
        best_v = scored[0][0]
        for v1, _, a, s in scored[: self.beam]:
            v = v1
            if s.to_act == seat and s.phase in (MOVE, ENTER):
                for b in s.legal():
                    if isinstance(b, (Move, Enter)):
                        s2 = s.copy()
                        s2.play(b)
                        v = max(v, value(s2, seat, self.staging))
            if v > best_v + 1e-9:
                best_v, best_a = v, a
        return best_a


GATHER_CHECKS = 12
"""How many of the gathers ranked best by their estimate :class:`GathererAgent` plays out on a copy
and values with :func:`value` (12 and 24 played alike in probes)."""

GATHER_SYMBOLS = 3
"""Most symbol cards of one rank a gather moves together (3 and 4 played alike in probes)."""


def _weight(card: int) -> int:
    """A card's weight towards a group's 3 (R22): a big joker 2, a small joker or a symbol 1."""
    return 2 if KIND[card] == BIG_JOKER else 1


def gathers(state: MetscriState, seat: int, tops: dict[int, int]) -> list[tuple[list[Move], list[Enter]]]:
    """The groups ``seat`` could still make this turn from the cards it knows, best estimate
    first: known free-lying symbol cards of one rank (up to :data:`GATHER_SYMBOLS`) and up to two
    known jokers, each staying or making one move (R13, 1 AP, any distance along a slide), to
    squares where the symbols touch (R23) and each joker touches a symbol; where their weight is
    short of 3 (R22), hand cards entered on free rim squares beside the symbols (R16, 2 AP).
    Each is estimated at 9 per point (R24: a symbol scores its ring + 1) less half an AP for each
    of its AP (the moves, the entries, and turning every card face up: 0 + 1 + 2 ..., R18), and
    must fit the AP left. Only cards the seat can identify (``tops``) are used."""
    phase = state.phase
    dests: dict[int, list[int]] = {}
    if phase == MOVE:
        for a in state.legal():
            if isinstance(a, Move):
                dests.setdefault(a.frm, []).append(a.to)
    elif phase != ENTER:
        return []
    ap = state.ap
    hand = state.hands[seat]
    entering = ap >= COST_ENTER and bool(hand)
    by_rank: dict[int, list[int]] = {}
    jokers: list[int] = []
    for s, c in tops.items():
        if KIND[c] == SYMBOL:
            by_rank.setdefault(RANK[c], []).append(s)
        else:
            jokers.append(s)
    hand_jokers = sorted((c for c in hand if KIND[c] != SYMBOL), key=lambda c: -_weight(c))[:2]
    board = state.board
    open_rim = [t for t in RIM if len(board[t]) < MAX_STACK]
    found: list[tuple[float, list[Move], list[Enter]]] = []
    for r, symbols in by_rank.items():
        fillers = [c for c in hand if RANK[c] == r][:2] + hand_jokers if entering else []
        for k in range(min(len(symbols), GATHER_SYMBOLS), 0, -1):
            for syms in combinations(symbols, k):
                for nj in range(min(2, len(jokers)) + 1):
                    for jks in combinations(jokers, nj):
                        weight = k + sum(_weight(tops[j]) for j in jks)
                        need = 3 - weight
                        if need > 0 and not fillers:
                            continue
                        cards = syms + jks
                        n = len(cards)
                        for fin in product(*[[s, *dests.get(s, ())] for s in cards]):
                            if len(set(fin)) < n:
                                continue
                            moves = [(a, b) for a, b in zip(cards, fin, strict=True) if a != b]
                            # a card moved onto one of the group's that stays would lock it
                            if any(b in cards and fin[cards.index(b)] == b for _, b in moves):
                                continue
                            symbols_at = near = 0
                            for s in fin[:k]:
                                symbols_at |= 1 << s
                                near |= KING_MASK[s]
                            if not connected(symbols_at):  # R23: the symbols touch
                                continue
                            if any(not (near >> j) & 1 for j in fin[k:]):
                                continue
                            entries: list[Enter] = []
                            if need > 0:
                                spots = [t for t in open_rim if (near >> t) & 1 and t not in fin]
                                w = weight
                                for c in fillers:
                                    if w >= 3 or not spots:
                                        break
                                    entries.append(ENTER_OBJ[c][spots.pop(0)])
                                    w += _weight(c)
                                if w < 3:
                                    continue
                            if not moves and not entries:
                                continue
                            m = n + len(entries)
                            cost = len(moves) + COST_ENTER * len(entries) + m * (m - 1) // 2
                            if cost > ap:
                                continue
                            points = sum(POINTS[s] for s in fin[:k]) + nj + len(entries)
                            found.append(
                                (W_PLAN * points - 0.5 * cost, [MOVE_OBJ[a][b] for a, b in moves], entries)
                            )
    found.sort(key=lambda t: -t[0])
    return [(mv, en) for _, mv, en in found]


def _played_out(state: MetscriState, moves: Sequence[Move], entries: Sequence[Enter]) -> MetscriState | None:
    """A copy of ``state`` after ``moves`` in this order, then the Enter phase's ``entries``, or
    None where one of them is not legal when its turn comes."""
    s = state.copy()
    for m in moves:
        if s.phase != MOVE or s.ap < COST_MOVE or not s.can_move(m.frm, m.to):
            return None
        s.play(m)
    if entries:
        if s.phase == MOVE:
            s.play(NEXT_A)
        for e in entries:
            if s.phase != ENTER or e not in s.legal():
                return None
            s.play(e)
    return s


class GathererAgent(PlannerAgent):
    """The planner that gathers (*samler*): in the Move and Enter phases it first plays out the
    best :data:`GATHER_CHECKS` of :func:`gathers` (moves in every order that is legal, then the
    entries) on copies, and starts the one whose end :func:`value` likes best, if better than
    the position now; otherwise it plays as the planner.

    The planner collects what lies together on the rim, 1 point a symbol card: with two moves
    of look-ahead it cannot take three cards inward, where each is worth 2, 3 or 4 (R24) for one
    AP of moving (R13). The gatherer brings known cards together and inward, and enters the hand
    cards that make up a group beside them, in the same turn: three 7s on the rim with empty
    columns below them score 10 with 6 AP (three slides, turning 0 + 1 + 2), not 3.

    The Expert level (``GameBots.levels``); :class:`StagerAgent` is the gatherer that also
    stages for next turn."""

    name = "gatherer"

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, MetscriState)
        if state.phase in (MOVE, ENTER) and state.to_act == seat:
            a = self.gather(state, seat)
            if a is not None:
                return a
        return super().act(state, seat, rng, budget)

    def gather(self, state: MetscriState, seat: int) -> MetscriAction | None:
        """The first action of the best gather, or None if none beats the position now."""
        tops = known_tops(state, seat)
        best_v = value(state, seat, self.staging) + 1e-6
        best: MetscriAction | None = None
        tried: set[tuple[frozenset[Move], tuple[Enter, ...]]] = set()
        for moves, entries in gathers(state, seat, tops):
            key = (frozenset(moves), tuple(entries))
            if key in tried:
                continue
            tried.add(key)
            if len(tried) > GATHER_CHECKS:
                break
            for order in permutations(moves):
                s = _played_out(state, order, entries)
                if s is None:
                    continue  # a move's path is blocked in this order
                v = value(s, seat, self.staging)
                if v > best_v:
                    best_v, best = v, order[0] if order else NEXT_A if state.phase == MOVE else entries[0]
                break
        return best


class StagerAgent(GathererAgent):
    """The gatherer that stages (*gemmer*: keeps, and hides, for next turn), the game's best
    bot: its evaluation also counts what its private face-down cards could score next turn
    after one slide each (:data:`W_NEXT`, :func:`next_turn_points`), times the chance that they
    stay private through the opponent's turn (0.55 on the rim, where a blind spy costs 1 AP;
    0.85 hidden under another card, :data:`NEXT_KEEP`, :data:`NEXT_HIDDEN`). So it slides
    cards inward for next turn and enters a card on its own private card to hide it, where the
    gatherer collects what it can this turn, mostly on the rim. It scores 0.710 over 400 games
    against the gatherer (by deals 0.672-0.748) and 0.880 over 100 against the planner
    (docs/bots.md, "Metscri: staging with the risk counted")."""

    name = "stager"
    staging = True


def matching_entries(state: MetscriState, seat: int, tops: dict[int, int]) -> list[MetscriAction]:
    """The Enter actions that lay a hand card next to a known top it could be grouped with (a
    symbol of the same rank, a joker beside a symbol, a symbol beside a joker), one per kind
    of card and square, and, for each kind of card that two or more other hand cards could
    join (its *support*, :data:`W_SUPPORT`), one entry on the first empty rim square with no
    known top around it: the entries one ply of :func:`value` can tell apart from keeping the
    card, without weighing every card on every rim square (a hoarding hand makes a thousand
    entries)."""
    board = state.board
    hand = state.hands[seat]
    out: list[MetscriAction] = []
    lone = -1  # the first empty rim square with no known top around it
    for t in RIM:
        if len(board[t]) >= MAX_STACK:
            continue
        if lone < 0 and not board[t] and not any(u in tops for u in KING[t]):
            lone = t
        ranks: set[int] = set()
        symbol = joker = False
        for u in KING[t]:
            d = tops.get(u)
            if d is None:
                continue
            if KIND[d] == SYMBOL:
                symbol = True
                ranks.add(RANK[d])
            else:
                joker = True
        if not symbol and not joker:
            continue
        seen: set[tuple[int, int]] = set()
        for c in hand:
            k = KIND[c]
            key = (k, RANK[c] if k == SYMBOL else 0)
            if key in seen:
                continue
            seen.add(key)
            if (k == SYMBOL and (joker or RANK[c] in ranks)) or (k != SYMBOL and symbol):
                out.append(ENTER_OBJ[c][t])
    if lone >= 0 and len(hand) >= 3:
        counts = [0] * 14
        for c in hand:
            counts[RANK[c]] += 1
        jokers = counts[1] + counts[2]
        done: set[int] = set()
        for c in hand:
            r = RANK[c]  # a kind of card: a symbol's rank, or 1 and 2 for the two jokers
            if r in done:
                continue
            done.add(r)
            # the cards left in hand that could join c: its rank and the jokers, or the symbols
            joiners = counts[r] - 1 + jokers if KIND[c] == SYMBOL else len(hand) - jokers
            if joiners >= 2:
                out.append(ENTER_OBJ[c][lone])
    return out


class PlayoutAgent(HeuristicAgent):
    """The search's playout policy: the heuristic, but in the Enter phase it weighs only the
    entries next to a possible group partner or of a card the hand can group with
    (:func:`matching_entries`, at most :attr:`sample` of them) and one other entry, not every
    hand card on every rim square.
    Where a hand hoards cards that is a hundred times fewer one-ply looks."""

    name = "metscri-playout"
    sample = 12

    def choices(
        self, state: MetscriState, seat: int, actions: list[MetscriAction], tops: dict[int, int], rng: Rng
    ) -> list[MetscriAction]:
        if state.phase != ENTER or len(actions) <= self.sample:
            return super().choices(state, seat, actions, tops, rng)
        out: list[MetscriAction] = []
        entries: list[MetscriAction] = []
        for a in actions:
            (entries if isinstance(a, Enter) else out).append(a)
        matches = matching_entries(state, seat, tops)
        if len(matches) > self.sample:
            rng.shuffle_front(matches, self.sample)
            del matches[self.sample :]
        out += matches
        if entries:
            out.append(rng.choice(entries))
        return out


SCALE = 30.0
"""Evaluation ahead (10 per M-point) that makes a 73% favourite (the Beginner's softmax
temperature)."""

VALUE_SCALE = 60.0
"""Evaluation ahead of the best opponent's that makes a 73% favourite in the search's value
(:func:`relative_value`): 13 per M-point ahead (10 for one's own, 3 for the opponent's in each
seat's evaluation), so about 4.6 M-points of a 72-point race. Hand-set, not fitted."""


def relative_value(state: State[Any]) -> list[float]:
    """The search's value of a cut-off playout: each seat's chance of winning as the logistic of
    its evaluation **minus the best opponent's** over :data:`VALUE_SCALE` (a finished game by
    its outcome). The evaluation alone is no difference: it grows with every M-point and card
    in hand, so its logistic (the value before, at scale 30) was above 0.9 for both seats by
    decision 300 of a game and 1.000 for both from decision 500 on, and the search could tell
    no move from another for most of the game."""
    out = state.outcome()
    if out is not None:
        return list(out)
    assert isinstance(state, MetscriState)
    ev = [value(state, s) for s in range(state.seats)]
    vals = []
    for s in range(state.seats):
        x = (ev[s] - max(e for i, e in enumerate(ev) if i != s)) / VALUE_SCALE
        vals.append(1.0 / (1.0 + math.exp(-x)) if x > -60 else 0.0)
    return vals


UNWEIGHED = -1e9
"""The prior of an entry next to no possible group partner: expanded last, unweighed."""


def prior(state: State[Any], actions: Sequence[Action]) -> list[float]:
    """Search expands what one ply of :func:`value` likes first; of the entries (a thousand,
    when a hand hoards) only those next to a possible group partner are weighed
    (:func:`matching_entries`), the others come last."""
    assert isinstance(state, MetscriState)
    seat = state.to_act
    if seat is None:
        return [0.0] * len(actions)
    matches: set[Action] | None = None
    if state.phase == ENTER and len(actions) > PlayoutAgent.sample:
        matches = set(matching_entries(state, seat, known_tops(state, seat)))
    out = []
    for a in actions:
        if matches is not None and isinstance(a, Enter) and a not in matches:
            out.append(UNWEIGHED)
            continue
        s = state.copy()
        s.play(cast(MetscriAction, a))
        out.append(value(s, seat))
    return out


def full_prior(state: State[Any], actions: Sequence[Action]) -> list[float]:
    """One ply of :func:`value` over every action (the prior before :func:`prior`)."""
    assert isinstance(state, MetscriState)
    seat = state.to_act
    if seat is None:
        return [0.0] * len(actions)
    out = []
    for a in actions:
        s = state.copy()
        s.play(cast(MetscriAction, a))
        out.append(value(s, seat))
    return out


def defer(state: State[Any], seat: int) -> bool:
    """The search leaves rolling to the bot: another roll or stop is a gamble on the dice that
    the expected-value rule plays well, a quarter of all decisions."""
    assert isinstance(state, MetscriState)
    return state.phase == ROLL


def searchable(state: State[Any], seat: int, action: Action) -> bool:
    """The alternatives the search may weigh against the planner's move: not a blind turn (the
    bots never turn a card they cannot identify: it shows everybody a card they cannot plan
    with; a determinization's one ply and playouts see a sampled card there, and the search
    chose such turns)."""
    assert isinstance(state, MetscriState)
    return not (isinstance(action, Turn) and action.square not in known_tops(state, seat))


OWN_SEARCH = False
"""Whether ``ismcts`` and the levels 4-5 are Metscri's own search (:func:`own_search`) with the
relative value. Off: it scored 0/4 and 1/4 against the planner (docs/bots.md), no better
shown than the generic search's 0.500 over 10, so the Expert stays the generic search with the
value it was measured with."""


def own_search(game: AnyGame) -> Searcher:
    """Metscri's own search (:mod:`.search`) with the relative value."""
    from .search import MetscriSearchAgent

    return MetscriSearchAgent(game, PlannerAgent(game), prior, defer, searchable, relative_value)


def register(game: AnyGame) -> None:
    """Register Metscri's evaluation and agents (called from the package ``__init__``); search
    plays out with the heuristic weighing only the entries that matter (:class:`PlayoutAgent`,
    10% random moves), values cut-off playouts by M-points and plans, keeps the gatherer's move
    unless another is clearly better, and leaves rolling to it (:func:`defer`; the
    expected-value rule). The levels: the Club player is the planner and the Expert the
    gatherer (``GameBots.levels``); the Master searches. Metscri's own search
    (:func:`own_search`, on the planner) is built and measured but not used
    (:data:`OWN_SEARCH`)."""
    register_bots(
        game,
        GameBots(
            evaluate=evaluate,
            agents={
                "heuristic": HeuristicAgent,
                "planner": PlannerAgent,
                "gatherer": GathererAgent,
                "stager": StagerAgent,
            },
            # the best bot anchors the Master's search (it keeps the stager's move unless
            # another is clearly better)
            best="stager",
            # the search at the Expert's budget plays level with the gatherer (docs/bots.md,
            # "Levels"): the Expert is the gatherer, the Club player the planner (0.770 behind
            # it); the Master searches on the stager (0.710 ahead of the gatherer)
            levels={3: "planner", 4: "gatherer"},
            rollout=epsilon_greedy(PlayoutAgent(game).act, 0.1),
            value=relative_value if OWN_SEARCH else logistic_value(evaluate, SCALE),
            cutoff=30,
            widen=2,
            iterations=100,
            prior=prior,
            scale=SCALE,
            defer=defer,
            search=own_search if OWN_SEARCH else None,
        ),
    )


__all__ = [
    "GathererAgent",
    "HeuristicAgent",
    "PlannerAgent",
    "PlayoutAgent",
    "StagerAgent",
    "evaluate",
    "gathers",
    "known_tops",
    "matching_entries",
    "own_search",
    "plan",
    "register",
    "relative_value",
    "searchable",
    "value",
]
