"""Fuldrigger bots: a route planner, the evaluation (the greedy agent and search use it), the
trading bot ``trader`` (buy low, carry ten squares or more along the safest lanes, sell high,
buy ships and fortresses on its routes, decline poor offers, stay out of trade wars) and the
game's best, ``raider``: the trader at war (privateers that wait ahead of the opponents'
loaded ships and attack when the odds pay, merchants that never end a move at sea within
an enemy privateer's reach, race bonuses taken when they are one move away).

The bots are stateless: every decision recomputes each ship's target from the state it is
given (a determinization, which only reshuffles the chance deck). :func:`register` hands the
evaluation and the agents to :mod:`spillebord.ai` (the package ``__init__`` calls it).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from typing import Any, ClassVar

from spillebord.ai import Budget, GameBots, Needs, register_bots
from spillebord.ai.agent import Searcher
from spillebord.ai.playout import epsilon_greedy, logistic_value
from spillebord.core import Action, AnyGame, Rng, State

from . import data as D
from .actions import Attack, Fit, FuldriggerAction, Join, Launch, Sail, Seize, Stop, act
from .data import ADJ, CODES, DIST, HAZARD_LIST, INDEX, IS_PORT, PRICES
from .pieces import Offer, Ship
from .rules import FORT_PRICE, MAX_FORTS, MAX_SHIPS, FuldriggerState

LAMBDA = 1.5
"""Ducats one unit of risk-weighted sailing is worth to the planner."""

PENALTY = {
    D.STORM: 7.0,
    D.ICEBERG: 8.0,
    D.CALM: 4.0,
    D.REEF: 7.0,
    D.PIRATES: 8.0,
    D.HEADWIND: 3.0,
    D.TAILWIND: -0.8,
}
"""Extra cost of entering a hazard, in squares: roughly the expected loss of ship and
cargo (or time) divided by ``LAMBDA``."""
PORT_IDS = [INDEX[c] for c in D.PORT_CODES]

SELLERS: dict[str, list[str]] = {
    g: [c for c in PRICES if PRICES[c].get(g, (0, False, False))[2]] for g in D.GOODS
}
BEST_SALE = {g: max(PRICES[c][g][0] for c in cs) for g, cs in SELLERS.items()}


class Plan:
    """Risk-weighted routes for a player who knows the reefs ``known``: for every target
    port the cost from each node, the next hop and the number of steps, and every
    profitable haul (buy city, good, sell city, profit, haul cost) at list prices."""

    def __init__(self, known: frozenset[str]) -> None:
        self.weight = [1.0] * D.N_NODES
        for v, h in enumerate(HAZARD_LIST):
            if h and not (h == D.REEF and D.REEF_LETTER[v] in known):
                self.weight[v] += PENALTY[h]
        self.cost: dict[int, list[float]] = {}
        self.next: dict[int, list[int]] = {}
        self.steps: dict[int, list[int]] = {}
        for t in PORT_IDS:
            self.cost[t], self.next[t], self.steps[t] = self._plan_to(t)
        self.trades: list[tuple[str, str, str, float, float]] = []
        for b, entries in PRICES.items():
            for g, (price, k, _s) in entries.items():
                if not k:
                    continue
                bi = INDEX[b]
                for c in SELLERS[g]:
                    ci = INDEX[c]
                    profit = PRICES[c][g][0] - price - 5
                    if c != b and self.steps[ci][bi] >= 10 and profit > 0:
                        self.trades.append((b, g, c, float(profit), self.cost[ci][bi]))

    def _plan_to(self, t: int) -> tuple[list[float], list[int], list[int]]:
        inf = float("inf")
        cost = [inf] * D.N_NODES
        steps = [0] * D.N_NODES
        nxt = [-1] * D.N_NODES
        cost[t] = 0.0
        heap: list[tuple[float, int]] = [(0.0, t)]
        while heap:
            c, v = heapq.heappop(heap)
            if c > cost[v]:
                continue
            if IS_PORT[v] and v != t:
                continue  # ports are dead ends
            for u in ADJ[v]:
                nc = c + self.weight[v]
                if nc < cost[u] - 1e-9:
                    cost[u] = nc
                    nxt[u] = v
                    steps[u] = steps[v] + 1
                    heapq.heappush(heap, (nc, u))
        return cost, nxt, steps

    def towards(self, t: int) -> list[int]:
        """The next hop to ``t`` from every node: ports are planned up front, a sea square (a
        privateer's station) when first asked for."""
        nxt = self.next.get(t)
        if nxt is None:
            self.cost[t], nxt, self.steps[t] = self._plan_to(t)
            self.next[t] = nxt
        return nxt


_PLANS: dict[frozenset[str], Plan] = {}


def plan_for(known: frozenset[str]) -> Plan:
    p = _PLANS.get(known)
    if p is None:
        p = _PLANS[known] = Plan(known)
    return p


def sell_target(st: FuldriggerState, s: Ship) -> tuple[int, float] | None:
    """(port, value) of the best place to sell ``s``'s load, from where it lies."""
    assert s.load is not None
    plan = plan_for(st.reefs[s.owner])
    g = s.load.good
    best: tuple[int, float] | None = None
    for c in SELLERS[g]:
        ci = INDEX[c]
        if st.opts.min_transport_mode == "port_distance":
            if DIST[INDEX[s.load.origin]][ci] < 10:
                continue
        elif s.load.odo + plan.steps[ci][s.node] < 10:
            continue
        if st.trade_blocked(c) and s.node == ci:
            continue
        net = st.sale_price(c, g, s.owner) - (st.fee() if st.fee_to(c, s.owner) is not None else 0)
        v = net - LAMBDA * plan.cost[ci][s.node]
        if best is None or v > best[1]:
            best = (ci, v)
    return best


def buy_target(st: FuldriggerState, s: Ship) -> tuple[int, str, float] | None:
    """(port, good, profit per risk-weighted square) of the best haul for an empty merchant."""
    plan = plan_for(st.reefs[s.owner])
    best: tuple[int, str, float] | None = None
    cash = st.cash[s.owner]
    for b, g, _c, profit, haul in plan.trades:
        if st.supply[g] <= 0 or cash < PRICES[b][g][0] + 10:
            continue
        bi = INDEX[b]
        rate = profit / (plan.cost[bi][s.node] + haul + 2.0)
        if best is None or rate > best[2]:
            best = (bi, g, rate)
    return best


def target(st: FuldriggerState, s: Ship) -> int | None:
    if s.privateer:
        return None
    if s.load is not None:
        t = sell_target(st, s)
        return t[0] if t else None
    b = buy_target(st, s)
    return b[0] if b and b[2] > 0 else None


def evaluate(state: State[Any], seat: int) -> float:
    """Wealth minus the opponents' mean, plus half the profit waiting in the holds (the best
    sale from where each load lies, less the risk-weighted way there), so that one ply of
    look-ahead buys, sails towards a market and sells. A finished game (with
    ``result_mode="win"``) scores its outcome first."""
    assert isinstance(state, FuldriggerState)
    st = state
    if st.to_act is None:
        r = st.outcome()
        assert r is not None
        if st.opts.result_mode == "win":
            return 1e6 * r[seat] + st.wealth(seat)
    wealth = st.wealths()
    # An unsent draft of one's own is worth nothing yet and costs decisions: one ply of
    # look-ahead then prefers "pass" or "end" to opening drafts it cannot value.
    drafting = 1.0 if st.draft is not None and st.draft.frm == seat else 0.0
    mine = float(wealth[seat]) - drafting
    others = [w for p, w in enumerate(wealth) if p != seat]
    potential = 0.0
    for s in st.ships.values():
        if s.owner == seat and s.load is not None:
            t = sell_target(st, s)
            if t is not None:
                potential += max(0.0, t[1] - s.load.price)
    return mine - (sum(others) / len(others) if others else 0.0) + 0.5 * potential


def potential(st: FuldriggerState, seat: int) -> float:
    """The profit waiting in ``seat``'s holds: for each load the best sale from where it lies,
    less the risk-weighted way there and its price (none below zero)."""
    total = 0.0
    for s in st.ships.values():
        if s.owner == seat and s.load is not None:
            t = sell_target(st, s)
            if t is not None:
                total += max(0.0, t[1] - s.load.price)
    return total


def value_features(st: FuldriggerState, seat: int) -> list[float]:
    """What the search's value weighs, ``seat`` less its opponents' mean: wealth, half the
    profit in the holds, ships times the rounds left, fortresses times the rounds left
    (``tools/fit_fuldrigger_value.py`` fits the weights)."""
    wealth = st.wealths()
    n = st.seats
    left = float(max(0, st.last_round - st.round))
    ships = [0] * n
    for s in st.ships.values():
        ships[s.owner] += 1
    forts = [0] * n
    for o in st.forts.values():
        forts[o] += 1
    pots = [potential(st, q) for q in range(n)]

    def ahead(xs: Sequence[float]) -> float:
        return xs[seat] - (sum(xs) - xs[seat]) / (n - 1) if n > 1 else xs[seat]

    return [ahead(wealth), 0.5 * ahead(pots), left * ahead(ships), left * ahead(forts)]


VALUE_SCALE = 199.6
"""Ducats of wealth ahead that make a 73% favourite in the search's value (fitted)."""
VALUE_WEIGHTS = (1.0, 2.45, -1.962, -2.241)
"""The search's value: weights of :func:`value_features` in ducats of wealth ahead (fitted
on 200 games of the trader's self-play, seeds 1000-1199, by ``tools/fit_fuldrigger_value.py
--games 250``: wealth, half the profit in the holds, ships ahead times the rounds left,
fortresses ahead times the rounds left). The profit in the holds counts more than half of it;
ships and fortresses bought count a little less than their price (a ship may sink)."""


def search_value(state: State[Any]) -> list[float]:
    """Every seat's chance of winning: the logistic of the weighted :func:`value_features`
    over :data:`VALUE_SCALE`; a finished game by its outcome."""
    assert isinstance(state, FuldriggerState)
    out = state.outcome()
    if out is not None:
        return list(out)
    vals = []
    for p in range(state.seats):
        x = sum(w * f for w, f in zip(VALUE_WEIGHTS, value_features(state, p), strict=True)) / VALUE_SCALE
        vals.append(1.0 / (1.0 + math.exp(-x)) if x > -60 else 0.0)
    return vals


def offer_value(st: FuldriggerState, of: Offer, seat: int) -> float:
    """The change in ``seat``'s wealth if the offer executed."""

    def side(cash: int, forts: tuple[str, ...], ships: tuple[str, ...]) -> float:
        v = cash + FORT_PRICE * len(forts)
        for sid in ships:
            s = st.ships.get(sid)
            if s is not None:
                v += s.value + (s.load.price if s.load else 0)
        return v

    gives = side(of.give_cash, of.give_forts, of.give_ships)
    gets = side(of.get_cash, of.get_forts, of.get_ships)
    return gives - gets if seat == of.to else gets - gives


class TraderAgent:
    """The heuristic trading bot (see the module docstring)."""

    name = "trader"
    needs: ClassVar[Needs] = Needs(determinization=True)

    def __init__(self, game: AnyGame | None = None) -> None:
        self.game = game
        self.routes: dict[str, tuple[int, str | None]] = {}
        """Routes imposed on ships (an experiment's route candidates; empty for the bot): ship id
        -> (port, the good to buy there, or None to sell the load there). A route holds while the
        hold is as it was (loaded to sell, empty to buy); the ship then sails to that port and
        sells or buys there."""

    def _target(self, st: FuldriggerState, s: Ship) -> int | None:
        r = self.routes.get(s.id) if self.routes else None
        if r is not None and (s.load is None) == (r[1] is not None):
            return r[0]
        return target(st, s)

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, FuldriggerState)
        st = state
        legal = st.legal()
        ph = st.phase
        if len(legal) == 1:
            return legal[0]
        if ph == "move":  # the next step towards the target, or stop (the hot path: no texts)
            assert st.moving is not None
            s = st.ships[st.moving]
            t = self._target(st, s)
            if t is not None and t != s.node:
                want = act(Sail, s.id, CODES[plan_for(st.reefs[s.owner]).towards(t)[s.node]])
                if want in legal:
                    return want
            return next(a for a in legal if isinstance(a, Stop))
        texts = {str(a): a for a in legal}
        if ph == "home":
            for c in ("LON", "AMS", "LIS", "KBH"):
                if f"home {c}" in texts:
                    return texts[f"home {c}"]
        if ph == "respond":
            assert st.respond is not None
            of = st.offers[st.respond]
            ok = offer_value(st, of, seat) >= 30 and not of.give_ships and not of.get_ships
            return legal[0] if ok and st.validate_offer(of) is None else legal[1]
        if ph == "draft":
            return texts["cancel"]
        if ph == "window":  # answer what is addressed to us, then pass
            for of in sorted(st.offers.values()):
                if of.to == seat:
                    good = offer_value(st, of, seat) >= 30 and st.validate_offer(of) is None
                    return texts[f"{'accept' if good else 'decline'} o{of.id}"]
            return texts["pass"]
        if ph == "approach":  # the safest step towards the target (privateers ignore pirates)
            assert st.attack is not None
            x = st.attack.target

            def risk(a: FuldriggerAction) -> float:
                v = INDEX[a.words()[1]]
                h = HAZARD_LIST[v]
                return DIST[v][x] + (PENALTY[h] if h and h != D.PIRATES else 0.0)

            return min(legal, key=risk)
        if ph == "chart":  # learn the reefs on the busiest spice and Cape routes first
            for letter in "JDGFHECBAI":
                if f"chart {letter}" in texts:
                    return texts[f"chart {letter}"]
        if ph in ("chart", "lose", "seize", "muster"):
            return legal[-1] if "launch" in texts else legal[0]
        return self._free(st, seat, texts)

    def _free(self, st: FuldriggerState, p: int, texts: dict[str, FuldriggerAction]) -> FuldriggerAction:
        # Offers addressed to us: accept clear gains, decline the rest.
        for of in sorted(st.offers.values()):
            if of.to == p:
                good = offer_value(st, of, p) >= 30 and st.validate_offer(of) is None
                return texts[f"{'accept' if good else 'decline'} o{of.id}"]
        mine = st.ships_of(p)
        routes = self.routes
        # Sell where it pays at least as well as carrying on.
        for s in mine:
            a = texts.get(f"sell {s.id}")
            if a is not None and s.load is not None:
                if routes and routes.get(s.id) == (s.node, None):
                    return a
                city = CODES[s.node]
                net = st.sale_price(city, s.load.good, p) - (st.fee() if st.fee_to(city, p) else 0)
                best = sell_target(st, s)
                if best is None or net >= best[1] - 1e-9 or best[0] == s.node:
                    return a
        # Buy a cargo worth carrying.
        for s in mine:
            if s.load is None and not s.privateer and IS_PORT[s.node]:
                r = routes.get(s.id) if routes else None
                if r is not None and r[0] == s.node and r[1] is not None:
                    a = texts.get(f"buy {s.id} {r[1]}")
                    if a is not None:
                        return a
                b = buy_target(st, s)
                if b is not None and b[0] == s.node and b[2] > 0:
                    a = texts.get(f"buy {s.id} {b[1]}")
                    if a is not None:
                        return a
        # Throw away cargo nobody will buy from here (rare) — only if it blocks all trade.
        rounds_left = st.opts.rounds_limit - st.round
        reserve = 60
        if (
            "buyship" in texts
            and rounds_left >= 4
            and len(mine) < MAX_SHIPS
            and st.cash[p] >= st.ship_cost() + reserve
        ):
            return texts["buyship"]
        if (
            len(mine) >= 4
            and st.n_forts(p) < MAX_FORTS
            and st.cash[p] >= FORT_PRICE + reserve
            and rounds_left >= 3
        ):
            for s in mine:
                a = texts.get(f"fortress {CODES[s.node]}")
                if a is not None and any(PRICES[CODES[s.node]].get(g, (0, False, False))[2] for g in D.GOODS):
                    return a
        # Sail the ships that have somewhere to go.
        for s in mine:
            if not st.movable(s):
                continue
            t = self._target(st, s)
            if t is None or t == s.node:
                continue
            nxt = plan_for(st.reefs[s.owner]).towards(t)[s.node]
            a = texts.get(f"sail {s.id} {CODES[nxt]}")
            if a is not None:
                return a
        return texts["end"]


def _two_dice(lo: int, hi: int) -> float:
    return sum(1 for a in range(1, 7) for b in range(1, 7) if lo <= a + b <= hi) / 36


ATTACK_ODDS = {
    1: (_two_dice(2, 5), _two_dice(10, 12)),
    2: (_two_dice(2, 4), _two_dice(9, 12)),
    3: (_two_dice(2, 3), _two_dice(8, 12)),
    4: (_two_dice(2, 2), _two_dice(7, 12)),
}
"""Attackers (at most four count, rule 9.2) -> (the chance of losing a privateer, the chance
of taking a unit): rule 9.2's table on two dice."""


class RaiderAgent(TraderAgent):
    """Raider (kaper): the trader at war. It fits its empty ships out as privateers (up to
    ``privateers`` of them, keeping ``traders`` merchant ships), stations them ahead of the
    opponents' richest loaded ship on its way to market, and attacks whenever the expected
    swing pays: the chance of taking the best unit times twice its worth (it leaves one
    fleet and joins the other) less the chance of losing a privateer times its 100 ducats,
    above ``min_gain``. Every privateer that can reach the target joins (four count). An
    idle privateer takes a race bonus (rule 10.3) it can reach this turn. Once an opponent has
    a privateer, a merchant (``cautious``) sails only to a port it can reach in the move, and
    waits for a better roll otherwise. The rest is the trader's: trade, ships, offers, the
    approach.

    Against the trader, which never fights, the default (every ship a privateer) wins 0.92 of
    the games (docs/bots.md); against itself nobody trades: a standoff, decided by chance
    cards and race bonuses."""

    name = "raider"

    def __init__(
        self,
        game: AnyGame | None = None,
        privateers: int = 6,
        traders: int = 0,
        min_gain: float = 10.0,
        races: bool = True,
        cautious: bool = True,
    ) -> None:
        super().__init__(game)
        self.cautious = cautious
        self.privateers = privateers
        self.traders = traders
        self.min_gain = min_gain
        self.races = races

    def _target(self, st: FuldriggerState, s: Ship) -> int | None:
        if s.privateer:
            t = self.station(st, s.owner, s.node)
            if t is None and self.races:
                t = self.race(st, s)
            return t
        if self.cautious and (st.moving == s.id or IS_PORT[s.node]) and st.at_war(s.owner):
            if st.moving != s.id:
                return self.safe_target(st, s, st.M)
            # under way: on to a port it can still reach (a head wind may have cost the one
            # it set out for), the nearest if no other will do
            t = self.safe_target(st, s, st.mp)
            return t if t is not None else self.harbour(st, s)
        return super()._target(st, s)

    @staticmethod
    def harbour(st: FuldriggerState, s: Ship) -> int | None:
        """The nearest port ``s`` can reach with the movement left, if any."""
        steps = plan_for(st.reefs[s.owner]).steps
        near = min(PORT_IDS, key=lambda t: steps[t][s.node])
        return near if steps[near][s.node] <= st.mp else None

    def safe_target(self, st: FuldriggerState, s: Ship, reach: int) -> int | None:
        """A merchant's port under threat: one it can reach within ``reach`` squares, so that
        it never ends a move at sea (a ship in a port with no fortress cannot be attacked):
        loaded, the best sale there; empty, the trader's haul if its port is that near; else
        it waits in port for a better roll."""
        plan = plan_for(st.reefs[s.owner])
        if s.load is None:
            b = buy_target(st, s)
            if b is not None and b[2] > 0 and plan.steps[b[0]][s.node] <= reach:
                return b[0]
            return None
        g = s.load.good
        best: tuple[float, int] | None = None
        for c in SELLERS[g]:
            ci = INDEX[c]
            d = plan.steps[ci][s.node]
            if ci == s.node or d > reach:
                continue
            if st.opts.min_transport_mode == "port_distance":
                if DIST[INDEX[s.load.origin]][ci] < 10:
                    continue
            elif s.load.odo + d < 10:
                continue
            net = st.sale_price(c, g, s.owner) - (st.fee() if st.fee_to(c, s.owner) is not None else 0)
            if best is None or net > best[0]:
                best = (net, ci)
        return best[1] if best is not None else None

    def race(self, st: FuldriggerState, s: Ship) -> int | None:
        """The port of the open race bonus (rule 10.3) worth most for the way there, for an idle
        privateer, if it can get there this turn (a privateer at sea can be attacked; in a port
        with no fortress it cannot); a ship lying in that port would have to leave and come
        back, so not there."""
        best: tuple[float, int] | None = None
        steps = plan_for(st.reefs[s.owner]).steps
        for n in st.races:
            card = D.CARD_BY_NUM[n]
            assert card.cities  # a race card names its port
            t = INDEX[card.cities[0]]
            if t == s.node or (s.id not in st.moved and steps[t][s.node] > st.M):
                continue
            v = card.amount / (10.0 + steps[t][s.node])
            if best is None or v > best[0]:
                best = (v, t)
        return best[1] if best is not None else None

    def station(self, st: FuldriggerState, p: int, here: int) -> int | None:
        """Where ``p``'s privateers lie in wait, seen from ``here``: on the way of the
        opponents' loaded ship worth most for its distance, up to eight squares ahead of it
        on its owner's route to market (it sails about ten a turn), short of the port."""
        best: tuple[float, int] | None = None
        for o in st.ships.values():
            if o.owner == p or o.load is None or o.privateer:
                continue
            node = o.node
            t = target(st, o)
            if t is not None:
                nxt = plan_for(st.reefs[o.owner]).next[t]
                for _ in range(8):
                    n2 = nxt[node]
                    if n2 < 0 or n2 == t or IS_PORT[n2]:
                        break
                    node = n2
            if IS_PORT[node]:
                continue  # in port only a fortress makes it a target
            v = (o.value + o.load.price) / (10.0 + DIST[here][node])
            if best is None or v > best[0]:
                best = (v, node)
        return best[1] if best is not None else None

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, FuldriggerState)
        st = state
        legal = st.legal()
        if len(legal) == 1:
            return legal[0]
        ph = st.phase
        if ph == "muster":  # privateers join up to four (four count) or the defenders' number
            assert st.attack is not None
            if len(st.attack.joined) < max(4, st.attack.units):
                for a in legal:
                    if isinstance(a, Join):
                        return a
            return next(a for a in legal if isinstance(a, Launch))
        if ph == "seize":
            return max(legal, key=lambda a: self._worth(st, a))
        if ph == "free" and not any(of.to == seat for of in st.offers.values()):
            war = self.war(st, seat)
            if war is not None:
                return war
        return super().act(state, seat, rng, budget)

    @staticmethod
    def _worth(st: FuldriggerState, a: Action) -> float:
        assert isinstance(a, Seize)
        if a.unit == "fort":
            return float(FORT_PRICE)
        s = st.ships[a.unit]
        return float(s.value + (s.load.price if s.load is not None else 0))

    def attack_gain(self, st: FuldriggerState, a: Attack) -> float:
        """The expected swing in wealth ahead of attack ``a`` (see the class docstring)."""
        x = INDEX[a.square]
        ships, fort = st.defending_units(a.defender, x)
        n = min(4, len(st.attack_candidates(st.turn, x)))
        lose, take = ATTACK_ODDS[n]
        prize = max([st.ships[i].value + (l.price if (l := st.ships[i].load) else 0) for i in ships] or [0])
        if fort:
            prize = max(prize, FORT_PRICE)
        return take * 2 * prize - lose * 100

    def war(self, st: FuldriggerState, p: int) -> FuldriggerAction | None:
        """The free phase's war move, or None for the trader's: the best attack that pays,
        else a privateer fitted out."""
        best: tuple[float, FuldriggerAction] | None = None
        for a in st.legal():
            if isinstance(a, Attack):
                g = self.attack_gain(st, a)
                if g > self.min_gain and (best is None or g > best[0]):
                    best = (g, a)
        if best is not None:
            return best[1]
        mine = st.ships_of(p)
        merchants = sum(1 for s in mine if not s.privateer)
        if (
            len(mine) - merchants < self.privateers
            and merchants > self.traders
            and st.opts.rounds_limit - st.round >= 3
        ):
            for a in st.legal():
                if isinstance(a, Fit):
                    s = st.ships[a.ship]
                    if not s.privateer and s.load is None:
                        return a
        return None


# ---------------------------------------------------------------------------- search kit

SCALE = 320.0
"""Ducats ahead that make a 73% favourite (fitted on the trader's games)."""


_RAIDER = RaiderAgent()
_NO_RNG = Rng(0)  # the raider draws nothing


def defer(state: State[Any], seat: int) -> bool:
    """Decisions the search leaves to the raider (the trader's moves but at war): sailing (a
    ship's next step, and its first where the raider would sail it: the route follows from the
    cargo, which the search chose when it bought or sold, or from the privateers' station;
    most decisions), a negotiation window with no offer to answer (it passes), and a draft (it
    cancels it). A search of 80 iterations otherwise ended turns with ships idle and opened
    offers on noise."""
    assert isinstance(state, FuldriggerState)
    ph = state.phase
    if ph in ("move", "draft"):
        return True
    if ph == "window":
        return not any(of.to == seat for of in state.offers.values())
    if ph == "free":
        return str(_RAIDER.act(state, seat, _NO_RNG)).startswith("sail ")
    return False


KIND_PRIOR = {"sell": 5.0, "buy": 4.0, "sail": 3.0, "buyship": 2.0, "fortress": 2.0, "end": 1.0}
"""The search's prior by kind of action: the trader's kinds first (selling, buying, sailing,
investing, ending the turn); offers, privateers, attacks, jettisons and ship sales last."""


def prior(state: State[Any], actions: Sequence[Action]) -> list[float]:
    """Search expands the trader's kinds of action first (:data:`KIND_PRIOR`). With a free
    phase's twenty-odd actions and 80 iterations, a search that tried them all found some
    offer, privateer or idle end of turn a little better on noise, two decisions in fifteen."""
    return [KIND_PRIOR.get(str(a).split(" ", 1)[0], 0.0) for a in actions]


def _search(game: AnyGame) -> Searcher:
    from .search import FuldriggerSearchAgent  # it imports the generic search, which imports the registry

    return FuldriggerSearchAgent(game, RaiderAgent(game), defer, search_value)


def register(game: AnyGame) -> None:
    """Register Fuldrigger's evaluation and agents (``raider`` is its best: it beats the
    trader 0.92; the levels Casual and Club play it). Fuldrigger's own search
    (:mod:`.search`) plays the raider's move unless another is clearly better; the generic
    search plays out with the raider (10% random moves), values cut-off playouts by wealth,
    and leaves a route's further steps to the raider (:func:`defer`)."""
    register_bots(
        game,
        GameBots(
            evaluate=evaluate,
            agents={"trader": TraderAgent, "raider": RaiderAgent},
            best="raider",
            rollout=epsilon_greedy(RaiderAgent(game).act, 0.1),
            value=logistic_value(evaluate, SCALE),
            cutoff=40,
            iterations=320,
            scale=SCALE,
            prior=prior,
            widen=1,
            defer=defer,
            search=_search,
        ),
    )
