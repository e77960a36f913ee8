"""Fuldrigger (full-rigged ship): trade and power on the seven seas, for 2–4 players: the
state and the game.

The rules in full: ``docs/rules/fuldrigger.md`` (its rule numbers, D-decisions and
F-cases name the tests); the map, prices and chance cards live in :mod:`.data`.

How a turn decomposes into decisions
------------------------------------
Seats are numbered 0..n-1 and named by number in action texts (``attack 1
AZOR``). Ships have stable ids ``s1``, ``s2``…; squares and ports their
map codes (``KANW``, ``LON``). The action texts are listed in :mod:`.actions`.

* **Setup** (phase ``home``): the home-city dice are rolled automatically;
  each player in descending order chooses ``home LON`` (København,
  Amsterdam, London, Lisboa).
* **Start of turn** (automatic): the banker turns a chance card (Nye
  søkort / C28 gives a phase ``chart`` in which each player in turn names
  ``chart A``), then the three dice are rolled: M, the movement allowance
  for every ship this turn.
* **Negotiation windows** (phase ``window``, rule 11.3): every other player
  still in, from the turn player's left, may open drafts (``offer 2``),
  answer or withdraw open offers, and closes his window with ``pass``.
* **Free phase** (phase ``free``), one action each, in any order, until
  ``end``: ``sail s1 KAN1`` (starts ship s1's one move with its first
  step), ``buy s1 Ma``, ``sell s1``, ``jettison s1``, ``buyship``,
  ``sellship s1``, ``fortress CAN``, ``fit s1`` / ``unfit s1`` (privateer
  sail, kapersejl), ``attack 1 AZOR``, ``offer 1``, ``accept o3`` /
  ``decline o3`` / ``withdraw o3``, and in the isthmus variant ``portage
  s1`` / ``collect s1 Ka``.
* **A move** (phase ``move``): after the first step, ``sail s1 X`` steps
  to an adjacent, not yet visited node, or ``stop``. The move ends by
  itself when the ship enters a port, runs out of movement, is becalmed,
  stopped by a head wind at 0, or lost. Hazards are resolved on every
  entry with their 2d6 rolls.
* **An attack** (phases ``muster``, ``approach``, ``lose``, ``seize``):
  ``attack D X`` declares it; ``join sN`` nominates privateers one by one
  (a becalmed one only if it lies on X) and ``launch`` (allowed once at
  least U are nominated) starts the approach: each nominated privateer not
  on X sails there by a normal move of the player's choosing, ``sail sN
  Y`` one square at a time (only steps from which X stays within reach;
  hazards apply, pirates are ignored); then the count is checked and the
  attack table rolled. On a loss the attacker chooses ``lose sN``; on a
  capture he chooses ``seize sN`` or ``seize fort``.
* **Negotiation** (phases ``draft`` and ``respond``): ``offer 1`` opens a
  draft to seat 1 (in one's free phase or window), built one clause at a
  time: ``give cash N`` / ``ask cash N`` add N to a sum written digit by
  digit from the left (:func:`cash_steps`: 137 = 100, 30, 7; never more
  than the payer holds), ``give fort CAN``, ``ask fort CAN``, ``give ship
  s3``, ``ask ship s7``, ``give load ALX:Ka`` / ``ask load ALX:Ka`` (a depot
  load), ``truce N`` (1–10), then ``send`` or ``cancel``. Every clause but
  cash goes into a draft at most once; cash takes one step per digit.
  A sent offer gives the recipient an immediate ``respond`` decision
  (``accept oN``, ``decline oN``, ``later`` or ``counter oN``: decline and
  draft one back); an offer left open can be accepted or declined in the
  recipient's own free phase or window, or withdrawn by the proposer,
  until it expires at the end of the round. Offers are validated on
  acceptance (11.4); a failed acceptance voids the offer. At most 3 drafts
  per seat per turn and 3 open proposals per player keep the decision
  count bounded.

Engine decisions beyond the rules (tested in tests/games/fuldrigger):

* a ship is converted (fit/unfit) at most once per turn, and sends a load
  across an isthmus at most once per turn, so that a turn always ends
  (engine version 2: before, two ships on either side of an isthmus whose
  fortresses one player owns could pass a load to and fro for nothing,
  forever);
* each clause at most once per draft (engine version 2: before, ``truce N``
  and the cash steps could be added again and again, and a draft never had
  to end);
* a ship captured in an attack cannot move, trade or attack for the rest
  of that turn (the analogue of rule 11.5.3 for ships received by offer);
* a sale needs cash + proceeds to cover the port fee (no debts, D30);
* offers are proposed in one's own free phase or one's window each turn
  (answered at once or later);
* ``wall_clock_minutes``: the engine reads no clock; the table calls
  :meth:`FuldriggerState.clock_expired` when the time is up;
* test cases F14 ("the ships become immune") and F15 ("Canton:
  illegal") follow ``port_attack_rule="defender_fortress_only"``; the
  default is D15's amended ``any_fortress``, under which ships in any
  fortified port can be attacked.

Scores and outcome: :meth:`FuldriggerState.scores` is every seat's wealth
(formue: cash + ship values + 100 per fortress + purchase price of every
load, aboard or in a depot). With ``result_mode="win"`` (default) the
winner is the seat of greatest wealth, ties broken by cash, then
fortresses, then split; the last player with ships wins an early end;
with ``result_mode="wealth"`` the greatest wealth alone wins (ties split the win).
A game stopped at the decision bound is ranked by wealth.
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from collections.abc import Callable, Iterable
from itertools import repeat
from operator import is_ as _is
from typing import Any, ClassVar

from spillebord.core import (
    Event,
    GameKind,
    GameOver,
    IllegalAction,
    OptionError,
    Rng,
    draw_at,
    rank_outcome,
    state,
    win_outcome,
)
from spillebord.core.game import Game, State  # the defining module: mypyc needs it for bases
from spillebord.core.mypyc import mypyc_attr

from . import data as D
from .actions import (
    BUYSHIP,
    CANCEL,
    END,
    LATER,
    LAUNCH,
    PASS,
    SEND,
    SHIP_ACTIONS,
    STOP,
    TRUCES,
    Accept,
    Ask,
    Attack,
    Buy,
    BuyShip,
    Cancel,
    Chart,
    Collect,
    Counter,
    Decline,
    End,
    Fit,
    Fortress,
    FuldriggerAction,
    Give,
    Home,
    Jettison,
    Join,
    Later,
    Launch,
    Lose,
    MakeOffer,
    Pass,
    Portage,
    Sail,
    Seize,
    Sell,
    SellShip,
    Send,
    Stop,
    Truce,
    Unfit,
    Withdraw,
    act,
    sail_actions,
    sail_steps,
)
from .data import ADJ, CODES, DIST, HAZARD_LIST, INDEX, IS_PORT, PRICES
from .notation import parse
from .options import FuldriggerOptions
from .pieces import OFFER_FIELD, SHIP_BECALMED, SHIP_LOAD, Load, Offer, Ship, put
from .pieces import Attack as AttackInProgress
from .reasons import why
from .view import view

TITLE = "Fuldrigger"
_tuple_new = tuple.__new__  # a record made without its NamedTuple __new__ (a Python function)
MAX_SHIPS = 6
MAX_FORTS = 6
SHIP_PRICE = 100
SHIP_SALE = 75
FORT_PRICE = 100
START_CASH = 100
TOLL = 10
LOSS_BELOW = {1: 6, 2: 5, 3: 4, 4: 3}
CAPTURE_ABOVE = {1: 9, 2: 8, 3: 7, 4: 6}
MAX_DRAFTS = 3
"""Drafts a player may open in one turn (his own or another's), and offers he may have open."""
N_TAILWINDS = sum(1 for h in HAZARD_LIST if h == D.TAILWIND)
MAKE_OFFER: tuple[MakeOffer, ...] = tuple([act(MakeOffer, q) for q in range(4)])
_OFFERS_FROM: dict[int, tuple[tuple[MakeOffer, ...], ...]] = {
    n: tuple([tuple([MAKE_OFFER[q] for q in range(n) if q != p]) for p in range(n)]) for n in range(2, 5)
}
"""Seats -> seat -> the drafts it may open (to every other seat, in seat order)."""
_NO_TERMS = Offer(0, 0, 0)[3:10]
"""An offer's fields from ``give_cash`` to ``truce`` when it offers nothing (see ``is_empty``)."""
_NO_LOADS = Offer(0, 0, 0)[11:13]
FORTRESS: dict[str, Fortress] = {c: act(Fortress, c) for c in D.PORTS}
BUYABLE: dict[str, tuple[tuple[str, int], ...]] = {
    city: tuple([(g, price) for g, (price, k, _) in goods.items() if k]) for city, goods in PRICES.items()
}
"""Per city, the goods it sells (K) with their list prices, in price-list order."""


_CASH_STEPS = [d * 10**k for k in range(13) for d in range(1, 10)]
"""Every step :func:`cash_steps` can give, 1–9, 10–90, 100–900…: ascending, so the steps a
draft may take are a prefix of it."""
_CASH_CLAUSES: dict[type[Give] | type[Ask], tuple[Give | Ask, ...]] = {
    Give: tuple([act(Give, "cash", str(n)) for n in _CASH_STEPS]),
    Ask: tuple([act(Ask, "cash", str(n)) for n in _CASH_STEPS]),
}


def _cash_clauses(cls: type[Give] | type[Ask], amount: int, cash: int) -> tuple[Give | Ask, ...]:
    """The ``cash`` clauses of :func:`cash_steps` as actions: the steps up to what the payer
    can still add, and below the lowest digit written (9 steps a place), a prefix of
    :data:`_CASH_STEPS`."""
    room = cash - amount
    if room >= _CASH_STEPS[-1]:  # beyond any sum a game reaches
        return tuple([act(cls, "cash", str(n)) for n in cash_steps(amount, cash)])
    n = bisect_right(_CASH_STEPS, room)
    if amount:
        places = 0  # the places below the lowest digit written
        while amount % 10 == 0:
            amount //= 10
            places += 1
        n = min(n, 9 * places)
    return _CASH_CLAUSES[cls][:n]


def cash_steps(amount: int, cash: int) -> list[int]:
    """The sums a cash clause may add to ``amount`` (rule 11.1, "De aftaler selv prisen"):
    one digit times a place value (1–9, 10–90, 100–900, …) below the lowest digit already
    written, so that any whole sum is written digit by digit from the left (137 = 100, then
    30, then 7) and a clause takes at most one step per digit; never beyond ``cash``, what
    the payer holds."""
    limit = 1  # the place of the lowest digit written so far
    while amount and amount % (limit * 10) == 0:
        limit *= 10
    out: list[int] = []
    place = 1
    room = cash - amount
    while place <= room and (not amount or place < limit):
        for d in range(1, 10):
            if d * place > room:
                break
            out.append(d * place)
        place *= 10
    return out


_DraftParts = tuple[Offer, tuple[Give | Ask, ...], tuple[Give | Ask, ...], tuple[FuldriggerAction, ...]]


def _card_terms(card: D.Card | None) -> tuple[str | None, int, tuple[str, ...], D.Card | None, int]:
    """What the round's chance card changes in the free phase: its effect, the port fee, the
    cities where no one trades, the card if it changes a buying price, the price of a ship
    (as ``fee``, ``trade_blocked``, ``buy_price`` and ``ship_cost`` read it)."""
    effect = card.effect if card is not None else None
    return (
        effect,
        card.amount if effect == "fee" and card is not None else 10,
        card.cities or () if effect == "no_trade" and card is not None else (),
        card if effect == "buy_mod" else None,
        card.amount if effect == "ship_cost" and card is not None else SHIP_PRICE,
    )


_CARD_TERMS = {None: _card_terms(None)} | {n: _card_terms(c) for n, c in D.CARD_BY_NUM.items()}
"""Round card number (or None) -> :func:`_card_terms`."""

# --------------------------------------------------------------------------- the state


_GIVE_FIELD = {"cash": 3, "fort": 4, "ship": 5, "load": 11}
_ASK_FIELD = {"cash": 6, "fort": 7, "ship": 8, "load": 12}
_GIVE_CASH, _ASK_CASH = _GIVE_FIELD["cash"], _ASK_FIELD["cash"]
_CASHES = (_GIVE_CASH, _ASK_CASH)
_LOADS = (_GIVE_FIELD["load"], _ASK_FIELD["load"])
_CLAUSE_FIELD: dict[type[Give] | type[Ask], dict[str, int]] = {Give: _GIVE_FIELD, Ask: _ASK_FIELD}
"""A draft clause's kind -> the number of its :class:`Offer` field (``give_*`` or ``get_*``)."""


@state(
    copy={
        "home": list,
        "cash": list,
        "ships": dict,
        "forts": dict,
        "reefs": list,
        "supply": dict,
        "deck": list,
        "discard": list,
        "sales": dict,
        "offers": dict,
        "truces": dict,
        "depots": dict,
        "eliminated": list,
        "out_order": list,
        "drafts": list,
    }
)
class FuldriggerState(State[FuldriggerAction]):
    """A Fuldrigger position. Everything is public except the order of the chance deck
    (and, with ``private_offers``, other players' offers)."""

    opts: FuldriggerOptions
    phase: str
    """``home``, ``chart``, ``window``, ``free``, ``move``, ``muster``, ``approach``,
    ``lose``, ``seize``, ``draft``, ``respond`` or ``over``."""
    first: int
    banker: int
    round: int
    turn: int
    order_idx: int
    dice: int
    """The key of the dice: the ``n``-th die of the turn of seat ``s`` in round ``r`` (its
    move roll, then the hazards' and battles' 2d6 as they come) is a draw of this key's stream
    addressed by (r, s, n), not the next draw of the table's one stream, so a turn's dice do
    not depend on how many the turns before it rolled: the two games of a duplicate deal keep
    the same dice after their players first differ. Hidden: :meth:`determinize` draws a new
    key, so no bot can know a roll before it is made."""
    rolled: int
    """Dice rolled so far in this turn."""
    home: list[str | None]
    home_queue: tuple[int, ...]
    last_round: int
    cash: list[int]
    ships: dict[str, Ship]
    next_ship: int
    forts: dict[str, int]
    reefs: list[frozenset[str]]
    supply: dict[str, int]
    deck: list[int]
    discard: list[int]
    round_card: int | None
    races: tuple[int, ...]
    M: int
    mp: int
    moving: str | None
    visited: frozenset[int]
    sales: dict[tuple[str, str], int]
    moved: frozenset[str]
    frozen: frozenset[str]
    converted: frozenset[str]
    ported: frozenset[str]
    """Ships that sent a load across an isthmus this turn (at most once a turn)."""
    attacked: frozenset[str]
    attack: AttackInProgress | None
    chart_queue: tuple[int, ...]
    offers: dict[int, Offer]
    next_offer: int
    draft: Offer | None
    drafts: list[int]
    """Drafts each seat has opened this turn (at most :data:`MAX_DRAFTS`)."""
    window: tuple[int, ...]
    """The seats whose negotiation window is still to come this turn (the first is open)."""
    respond: int | None
    truces: dict[tuple[int, int], int]
    depots: dict[tuple[int, str], tuple[Load, ...]]
    bank_in: int
    bank_out: int
    eliminated: list[bool]
    out_order: list[int]
    early_winner: int | None
    _legal: tuple[FuldriggerAction, ...] | None
    _dbase: tuple[int, int, tuple[Give, ...], tuple[Ask, ...], tuple[Give, ...], tuple[Ask, ...]] | None
    """The open draft's parties and the fortress and ship clauses they could add (fortresses
    and ships do not change while a draft is written): made by the first :meth:`_draft_legal`
    of each draft."""
    _dparts: _DraftParts | None
    """The open draft and its legal list in three parts: the cash clauses it gives, those it
    asks, and the rest (fortresses, ships, loads, truces, send, cancel). Nothing but the draft
    changes while it is written, so playing a clause carries the parts over to the next draft,
    changing only what that clause changes. Matched by the draft's identity: a draft set by
    hand is never taken for another. Code that edits cash, ships, fortresses or depots by hand
    while a draft is open sets this (and ``_dbase``) to None, as the position builder does."""

    # ------------------------------------------------------------------ contract

    def determinize(self, seat: int, rng: Rng) -> FuldriggerState:
        s = self.copy()
        # The order of the chance deck is the only hidden thing: shuffled from a canonical
        # (sorted) order, so that the sample does not depend on the real order.
        s.deck.sort()
        rng.shuffle(s.deck)
        s.rng = rng.spawn()
        s.dice = rng.next64()
        s._legal = None
        return s

    def legal(self) -> tuple[FuldriggerAction, ...]:
        if self.to_act is None:
            return ()
        lg = self._legal
        if lg is None:
            ph = self.phase  # the phases of three decisions in four first
            if ph == "draft":
                lg = self._legal = self._draft_legal()
            elif ph == "free":
                lg = self._legal = tuple(self._free_legal())
            else:
                lg = self._legal = tuple(self._gen_legal())
        return lg

    def scores(self) -> tuple[float, ...]:
        """Every seat's wealth (formue, rule 13.3): cash + the purchase value of its ships +
        100 per fortress + the purchase price of every load it owns, aboard or in a depot."""
        return tuple([float(w) for w in self.wealths()])

    def final_outcome(self) -> tuple[float, ...]:
        """The rules' winners (see :meth:`winners`) share the win; with
        ``result_mode="wealth"`` the greatest wealth alone decides."""
        if self.opts.result_mode == "wealth":
            return rank_outcome(self.scores(), self.teams())
        return win_outcome(self.winners(), self.teams(), self.seats)

    def view(self, seat: int | None) -> dict[str, Any]:
        return view(self, seat)

    def clock_expired(self) -> None:
        """D2 ``wall_clock_minutes``: the engine reads no clock, so the table calls this when
        the agreed time is up; the round in progress becomes the last round."""
        self.last_round = min(self.last_round, self.round)

    # ------------------------------------------------------------------ helpers

    def err(self, msg: str) -> IllegalAction:
        return IllegalAction(f"{TITLE}: {msg}")

    def card(self) -> D.Card | None:
        return D.CARD_BY_NUM[self.round_card] if self.round_card is not None else None

    def _effect(self, effect: str) -> D.Card | None:
        c = self.card()
        return c if c is not None and c.effect == effect else None

    def fee(self) -> int:
        c = self._effect("fee")
        return c.amount if c else 10

    def ship_cost(self) -> int:
        c = self._effect("ship_cost")
        return c.amount if c else SHIP_PRICE

    def trade_blocked(self, city: str) -> bool:
        c = self._effect("no_trade")
        return bool(c and c.cities and city in c.cities)

    def buy_price(self, city: str, good: str) -> int:
        price = PRICES[city][good][0]
        c = self._effect("buy_mod")
        if c and c.good == good and (c.cities is None or city in c.cities):
            price += c.amount
        return max(0, price)

    def sale_price(self, city: str, good: str, seller: int) -> int:
        """list → chance modifier → fortress bonus → repeated-sale reduction → floor 0 (10.5)."""
        price = PRICES[city][good][0]
        c = self._effect("sale_mod")
        if c and c.good == good and (c.cities is None or city in c.cities):
            price += c.amount
        if self.forts.get(city) == seller:
            price += 10
        price -= 10 * self.sales.get((city, good), 0)
        return max(0, price)

    def fee_to(self, city: str, payer: int) -> int | None:
        owner = self.forts.get(city)
        return owner if owner is not None and owner != payer else None

    def ships_of(self, p: int) -> list[Ship]:
        """Seat ``p``'s ships in id order (``ships`` is kept in id order: new ids are higher,
        and a ship that changes hands keeps its place; ``check`` asserts it)."""
        return [s for s in self.ships.values() if s.owner == p]

    def n_ships(self, p: int) -> int:
        return sum(1 for s in self.ships.values() if s.owner == p)

    def forts_of(self, p: int) -> list[str]:
        return sorted(c for c, o in self.forts.items() if o == p)

    def n_forts(self, p: int) -> int:
        return sum(1 for o in self.forts.values() if o == p)

    def wealth(self, p: int) -> int:
        """Formue (13.3): cash + ship purchase values + 100 per fortress + load purchase prices."""
        w = self.cash[p] + FORT_PRICE * self.n_forts(p)
        for s in self.ships.values():
            if s.owner == p:
                w += s.value + (s.load.price if s.load else 0)
        for (q, _port), loads in self.depots.items():
            if q == p:
                w += sum(ld.price for ld in loads)
        return w

    def wealths(self) -> list[int]:
        """Every seat's :meth:`wealth`, in one pass."""
        w = list(self.cash)
        for o in self.forts.values():
            w[o] += FORT_PRICE
        for s in self.ships.values():
            w[s.owner] += s.value + (s.load.price if s.load else 0)
        for (q, _port), loads in self.depots.items():
            for ld in loads:
                w[q] += ld.price
        return w

    def winners(self) -> list[int]:
        if self.early_winner is not None:
            return [self.early_winner]
        alive = [p for p in range(self.seats) if not self.eliminated[p]]
        if not alive:
            return []
        key = {p: (self.wealth(p), self.cash[p], self.n_forts(p)) for p in alive}
        best = max(key.values())
        return [p for p in alive if key[p] == best]

    def truce_with(self, a: int, b: int) -> bool:
        return self.truces.get((min(a, b), max(a, b)), 0) >= self.round

    def protected(self, ship: Ship, node: int) -> bool:
        city = D.PIRATE_PROTECTOR.get(node)
        return city is not None and self.forts.get(CODES[city]) == ship.owner

    def _pay_bank(self, p: int, n: int) -> None:
        self.cash[p] -= n
        self.bank_in += n

    def _from_bank(self, p: int, n: int) -> None:
        self.cash[p] += n
        self.bank_out += n

    def _pay(self, a: int, b: int, n: int) -> None:
        self.cash[a] -= n
        self.cash[b] += n

    def _return_load(self, load: Load | None) -> None:
        if load is not None:
            self.supply[load.good] += 1

    def _lose_ship(self, sid: str) -> None:
        s = self.ships.pop(sid)
        self._return_load(s.load)

    def _new_ship(self, owner: int, node: int, value: int) -> Ship:
        self.next_ship += 1
        s = Ship(f"s{self.next_ship}", owner, node, False, None, value, 0)
        self.ships[s.id] = s
        return s

    def can_sell_load(self, load: Load, city: str) -> bool:
        if self.opts.min_transport_mode == "port_distance":
            return DIST[INDEX[load.origin]][INDEX[city]] >= 10
        return load.odo >= 10

    def movable(self, s: Ship) -> bool:
        return (
            s.id not in self.moved
            and s.id not in self.frozen
            and s.id not in self.attacked
            and s.becalmed == 0
            and self.M > 0
        )

    def can_convert(self, s: Ship) -> bool:
        if s.id in self.frozen or s.id in self.converted or not IS_PORT[s.node]:
            return False
        city = CODES[s.node]
        return self.home[s.owner] == city or self.forts.get(city) == s.owner

    # ------------------------------------------------------------------ legal actions

    def _gen_legal(self) -> Iterable[FuldriggerAction]:
        ph = self.phase
        if self.to_act is None:
            return []
        if ph == "move":
            assert self.moving is not None
            s = self.ships[self.moving]
            visited = self.visited
            steps: list[FuldriggerAction] = (
                [a for v, a in sail_steps(s.id, s.node) if v not in visited] if self.mp > 0 else []
            )
            return [*steps, STOP]
        if ph == "window":
            return [*self._negotiation_legal(self.to_act), PASS]
        if ph == "draft":
            return self._draft_legal()
        if ph == "free":
            return self._free_legal()
        if ph == "home":
            taken = set(self.home)
            return [act(Home, c) for c in D.HOME_ELIGIBLE if c not in taken]
        if ph == "chart":
            known = self.reefs[self.to_act]
            return [act(Chart, x) for x in D.REEF_LETTERS if x not in known]
        if ph == "approach":
            return self._approach_steps()
        if ph == "muster":
            assert self.attack is not None
            at = self.attack
            cands = self.attack_candidates(self.turn, at.target)
            joins: list[FuldriggerAction] = [act(Join, sid) for sid in cands if sid not in at.joined]
            if len(at.joined) >= at.units:
                joins.append(LAUNCH)
            return joins
        if ph == "lose":
            assert self.attack is not None
            return [act(Lose, sid) for sid in self._participants_on_target()]
        if ph == "seize":
            assert self.attack is not None
            units = self.defending_units(self.attack.defender, self.attack.target)
            seizes = [act(Seize, sid) for sid in units[0]]
            if units[1]:
                seizes.append(act(Seize, "fort"))
            return seizes
        if ph == "respond":
            assert self.respond is not None
            answers: list[FuldriggerAction] = [act(Accept, self.respond), act(Decline, self.respond), LATER]
            if self.can_draft(self.to_act):
                answers.append(act(Counter, self.respond))
            return answers
        return []

    def _free_legal(self) -> list[FuldriggerAction]:
        # One pass over the player's ships (in id order) gathers each kind of action; the
        # kinds are then listed in their order: sails, trade, fit/unfit, buyship, sellship,
        # fortresses, attacks, offers, end.
        p = self.turn
        o = self.opts
        cash = self.cash[p]
        effect, fee, blocked, buy_mod, ship_cost = _CARD_TERMS[self.round_card]
        sail = self.M > 0
        moved, frozen, attacked, converted = self.moved, self.frozen, self.attacked, self.converted
        forts, supply = self.forts, self.supply
        home = self.home[p]
        fit_cost = o.privateer_fit_cost
        port_only = o.ship_sale_in_port_only
        out: list[FuldriggerAction] = []  # the sails first
        trade: list[FuldriggerAction] = []
        conv: list[FuldriggerAction] = []
        sells: list[SellShip] = []
        ports: list[str] = []
        n = 0
        privateers = False
        for s in self.ships.values():
            if s[1] != p:  # the owner
                continue
            sid, _, node, privateer, load, _, becalmed = s
            n += 1
            sa = SHIP_ACTIONS[sid]
            if sail and not becalmed and sid not in moved and sid not in frozen and sid not in attacked:
                out += sail_actions(sid, node)
            if privateer:
                privateers = True
            if not IS_PORT[node]:
                if not port_only:
                    sells.append(sa.sellship)
                if load is not None:
                    trade.append(sa.jettison)
                continue
            city = CODES[node]
            ports.append(city)
            sells.append(sa.sellship)
            if sid in frozen:
                if load is not None:
                    trade.append(sa.jettison)
                continue
            if not privateer:
                if city not in blocked:
                    lord = forts.get(city)
                    f = fee if lord is not None and lord != p else 0
                    if load is None:
                        buy = sa.buy
                        if buy_mod is None:
                            room = cash - f
                            trade += [buy[g] for g, price in BUYABLE[city] if room >= price and supply[g] > 0]
                        else:
                            for g, price in BUYABLE[city]:
                                if buy_mod.good == g and (buy_mod.cities is None or city in buy_mod.cities):
                                    price = max(0, price + buy_mod.amount)
                                if supply[g] > 0 and cash >= price + f:
                                    trade.append(buy[g])
                    else:
                        g = load.good
                        entry = PRICES[city].get(g)
                        if (
                            entry is not None
                            and entry[2]
                            and self.can_sell_load(load, city)
                            and cash + self.sale_price(city, g, p) >= f
                        ):
                            trade.append(sa.sell)
                if o.isthmus_variant and city in D.ISTHMUS_PAIRS:
                    if load is not None and sid not in self.ported and self._toll_payable(p, city):
                        trade.append(act(Portage, sid))
                    if load is None:
                        seen: set[str] = set()
                        for ld in self.depots.get((p, city), ()):
                            if ld.good not in seen:
                                seen.add(ld.good)
                                trade.append(act(Collect, sid, ld.good))
            if load is not None:
                trade.append(sa.jettison)
            if sid not in converted and (home == city or forts.get(city) == p):  # can_convert
                if privateer:
                    conv.append(sa.unfit)
                elif load is None and cash >= fit_cost:
                    conv.append(sa.fit)
        out += trade
        out += conv
        if n < MAX_SHIPS and home is not None and cash >= ship_cost:
            out.append(BUYSHIP)
        out += sells
        if ports and cash >= FORT_PRICE and (not forts or self.n_forts(p) < MAX_FORTS):
            el = self.eliminated  # fortress_allowed: not in a rival's home city, none there yet
            rivals = [h for q, h in enumerate(self.home) if q != p and not el[q]]
            out += [FORTRESS[c] for c in sorted(set(ports)) if c not in forts and c not in rivals]
        if privateers and effect != "no_attacks":
            out += self._attack_legal()
        if o.negotiation:
            out += self._negotiation_legal(p)
        out.append(END)
        return out

    def can_draft(self, p: int) -> bool:
        """Whether seat ``p`` may open a draft now (rule 11.7: at most three drafts a turn and
        three open offers)."""
        if not self.opts.negotiation or self.drafts[p] >= MAX_DRAFTS:
            return False
        return not self.offers or sum(1 for of in self.offers.values() if of.frm == p) < MAX_DRAFTS

    def _negotiation_legal(self, p: int) -> list[FuldriggerAction]:
        """Offers seat ``p`` may open, accept, decline or withdraw (in his free phase or his
        window)."""
        offers = self.offers
        out: list[FuldriggerAction]
        if self.can_draft(p):
            el = self.eliminated
            to = _OFFERS_FROM[self.seats][p]
            out = [a for a in to if not el[a.to]] if True in el else [*to]
        else:
            out = []
        if offers:
            for of in sorted(offers.values()):
                if of.to == p:
                    out.append(act(Accept, of.id))
                    out.append(act(Decline, of.id))
                elif of.frm == p:
                    out.append(act(Withdraw, of.id))
        return out

    def fortress_allowed(self, p: int, city: str) -> bool:
        if city in self.forts:
            return False
        return all(
            not (q != p and self.home[q] == city and not self.eliminated[q]) for q in range(self.seats)
        )

    # ------------------------------------------------------------------ attacks

    def attackable_ships(self, d: int, x: int) -> list[str]:
        ids = [s.id for s in self.ships_of(d) if s.node == x]
        if not ids or not IS_PORT[x]:
            return ids
        owner = self.forts.get(CODES[x])
        if owner is None:
            return []  # ships in ports without fortresses cannot be attacked
        if self.opts.port_attack_rule == "defender_fortress_only" and owner != d:
            return []
        return ids

    def defending_units(self, d: int, x: int) -> tuple[list[str], bool]:
        fort = IS_PORT[x] and self.forts.get(CODES[x]) == d
        return self.attackable_ships(d, x), fort

    def _attack_legal(self) -> list[FuldriggerAction]:
        p = self.turn
        if self._effect("no_attacks") is not None:
            return []
        ships = self.ships.values()
        # attack_candidates, for every target at once: the privateers free to join
        frozen, moved, attacked = self.frozen, self.moved, self.attacked
        mine = [
            (s.node, s.becalmed)
            for s in ships
            if s.owner == p
            and s.privateer
            and s.id not in moved
            and s.id not in frozen
            and s.id not in attacked
        ]
        if not mine:  # no attack without a privateer to join it
            return []
        m = self.M
        reach = m + 3 * N_TAILWINDS
        dw = self.opts.directional_winds
        forts = self.forts
        only_own = self.opts.port_attack_rule == "defender_fortress_only"
        out: list[FuldriggerAction] = []
        for d in range(self.seats):
            if d == p or self.eliminated[d] or self.truce_with(p, d):
                continue
            count: dict[int, int] = {}  # d's ships on each node
            for s in ships:
                if s.owner == d:
                    count[s.node] = count.get(s.node, 0) + 1
            nodes = {*count, *[INDEX[c] for c, o in forts.items() if o == d]}
            for x in sorted(nodes, key=CODES.__getitem__):
                u = count.get(x, 0)  # defending_units
                if IS_PORT[x]:
                    owner = forts.get(CODES[x])
                    if owner is None or (only_own and owner != d):
                        u = 0  # ships in ports without (the defender's) fortresses are safe
                    if owner == d:
                        u += 1
                if not u:
                    continue
                for node, becalmed in mine:
                    if node == x or (
                        not becalmed and m > 0 and DIST[node][x] <= reach and _reachable(node, x, m, dw)
                    ):
                        u -= 1
                        if not u:
                            out.append(act(Attack, d, CODES[x]))
                            break
        return out

    def at_war(self, p: int) -> bool:
        """Whether an opponent of seat ``p`` owns a privateer: only privateers attack (rule
        9.2), so until one does, ``p``'s ships are safe at sea from other players."""
        return any(s.privateer and s.owner != p for s in self.ships.values())

    def attack_candidates(self, p: int, x: int) -> list[str]:
        """Seat ``p``'s privateers that may join an attack on ``x`` (rule 9.2.3): not yet
        moved, attacked or received this turn, and either on ``x`` already (a becalmed one
        too: becalming only forbids moving) or able to reach it by a move of at most M."""
        out = []
        used = self.moved | self.frozen | self.attacked
        for s in self.ships_of(p):
            if not s.privateer or s.id in used:
                continue
            if s.node == x or (not s.becalmed and self.M > 0 and self.reachable(s.node, x)):
                out.append(s.id)
        return out

    def reachable(self, u: int, x: int) -> bool:
        """Whether a ship on ``u`` can sail to ``x`` in one move of M (rule 4: a simple path,
        ports only as its end, winds counted; the random hazards may still stop it)."""
        return DIST[u][x] <= self.M + 3 * N_TAILWINDS and _reachable(
            u, x, self.M, self.opts.directional_winds
        )

    def _approach_steps(self) -> list[FuldriggerAction]:
        """The steps of an attacking privateer's approach (rule 9.2.3): a normal move of the
        player's choosing, each step one from which the target can still be reached."""
        assert self.attack is not None and self.moving is not None
        x = self.attack.target
        s = self.ships[self.moving]
        out: list[FuldriggerAction] = []
        if self.mp <= 0:
            return out
        for v, a in sail_steps(s.id, s.node):
            if v in self.visited or (IS_PORT[v] and v != x):
                continue
            if v == x:
                out.append(a)
                continue
            m = mp_after(s.node, v, self.mp, self.opts.directional_winds)
            dw = self.opts.directional_winds
            if m > 0 and DIST[v][x] <= m + 3 * N_TAILWINDS and reaches(v, m, {*self.visited, v}, x, dw):
                out.append(a)
        return out

    def _participants_on_target(self) -> list[str]:
        assert self.attack is not None
        return [
            sid
            for sid in self.attack.joined
            if sid in self.ships and self.ships[sid].node == self.attack.target
        ]

    # ------------------------------------------------------------------ negotiation

    def _draft_legal(self) -> tuple[FuldriggerAction, ...]:
        dr = self.draft
        assert dr is not None
        # Cash digit by digit from the left (see cash_steps); every other clause at most once
        # (each fortress, ship and depot load, one truce): a draft always ends.
        t = self._dparts
        if t is None or t[0] is not dr:
            cash = self.cash
            t = self._dparts = (
                dr,
                _cash_clauses(Give, dr.give_cash, cash[dr.frm]),
                _cash_clauses(Ask, dr.get_cash, cash[dr.to]),
                self._draft_after_cash(dr),
            )
        return t[1] + t[2] + t[3]

    def _draft_after_cash(self, dr: Offer) -> tuple[FuldriggerAction, ...]:
        """The legal list of draft ``dr`` after its cash clauses."""
        p, q = dr.frm, dr.to
        out: list[FuldriggerAction] = []
        base = self._dbase
        if base is None or base[0] != p or base[1] != q:
            ships, sa = self.ships.values(), SHIP_ACTIONS
            base = self._dbase = (
                p,
                q,
                tuple([sa[s.id].give for s in ships if s.owner == p]),
                tuple([sa[s.id].ask for s in ships if s.owner == q]),
                tuple([act(Give, "fort", c) for c in self.forts_of(p)]),
                tuple([act(Ask, "fort", c) for c in self.forts_of(q)]),
            )
        if base[4]:
            give_f = dr.give_forts
            out += [a for a in base[4] if a.value not in give_f] if give_f else base[4]
        if base[5]:
            get_f = dr.get_forts
            out += [a for a in base[5] if a.value not in get_f] if get_f else base[5]
        give, get = dr.give_ships, dr.get_ships
        out += [a for a in base[2] if a.value not in give] if give else base[2]
        out += [a for a in base[3] if a.value not in get] if get else base[3]
        if self.depots:
            out += [act(Give, "load", k) for k in self._depot_keys(p, dr.give_loads)]
            out += [act(Ask, "load", k) for k in self._depot_keys(q, dr.get_loads)]
        if not dr.truce:
            out += TRUCES
        if dr[3:10] != _NO_TERMS or dr[11:13] != _NO_LOADS:  # not dr.is_empty()
            out.append(SEND)
        out.append(CANCEL)
        return tuple(out)

    def _depot_keys(self, p: int, listed: tuple[str, ...]) -> list[str]:
        """``PORT:good`` for each kind of load in seat ``p``'s depots not yet all in ``listed``."""
        out = []
        for (q, port), loads in sorted(self.depots.items()):
            if q != p:
                continue
            counts: dict[str, int] = {}
            for ld in loads:
                counts[ld.good] = counts.get(ld.good, 0) + 1
            for g, n in counts.items():
                key = f"{port}:{g}"
                if listed.count(key) < n:
                    out.append(key)
        return out

    def _depot_count(self, p: int, key: str) -> int:
        port, _, g = key.partition(":")
        return sum(1 for ld in self.depots.get((p, port), ()) if ld.good == g)

    def _move_load(self, frm: int, to: int, key: str) -> None:
        """Hand one ``PORT:good`` load from ``frm``'s depot to ``to``'s depot in that port."""
        port, _, g = key.partition(":")
        loads = list(self.depots[(frm, port)])
        i = next(i for i, ld in enumerate(loads) if ld.good == g)
        ld = loads.pop(i)
        if loads:
            self.depots[(frm, port)] = tuple(loads)
        else:
            del self.depots[(frm, port)]
        self.depots[(to, port)] = (*self.depots.get((to, port), ()), ld)

    def validate_offer(self, of: Offer) -> str | None:
        p, q = of.frm, of.to
        if self.eliminated[p] or self.eliminated[q]:
            return "a party has been eliminated"
        if of.expires < self.round:
            return "the offer has expired"
        if self.cash[p] < of.give_cash:
            return f"seat {p} has only {self.cash[p]} ducats"
        if self.cash[q] < of.get_cash:
            return f"seat {q} has only {self.cash[q]} ducats"
        for c in of.give_forts:
            if self.forts.get(c) != p:
                return f"seat {p} no longer owns the {c} fortress"
        for c in of.get_forts:
            if self.forts.get(c) != q:
                return f"seat {q} no longer owns the {c} fortress"
        for sid in of.give_ships:
            if sid not in self.ships or self.ships[sid].owner != p:
                return f"seat {p} no longer owns ship {sid}"
        for sid in of.get_ships:
            if sid not in self.ships or self.ships[sid].owner != q:
                return f"seat {q} no longer owns ship {sid}"
        for giver, loads in ((p, of.give_loads), (q, of.get_loads)):
            for key in set(loads):
                if self._depot_count(giver, key) < loads.count(key):
                    return f"seat {giver} no longer has {loads.count(key)} {key} load(s) in his depot"
        if self.moving in of.give_ships or self.moving in of.get_ships:
            return "a listed ship is under way"
        ds = len(of.get_ships) - len(of.give_ships)
        df = len(of.get_forts) - len(of.give_forts)
        if self.n_ships(p) + ds > MAX_SHIPS or self.n_ships(q) - ds > MAX_SHIPS:
            return "a side would own more than 6 ships"
        if self.n_forts(p) + df > MAX_FORTS or self.n_forts(q) - df > MAX_FORTS:
            return "a side would own more than 6 fortresses"
        return None

    def _execute_offer(self, of: Offer, ev: list[Event]) -> None:
        p, q = of.frm, of.to
        self._pay(p, q, of.give_cash)
        self._pay(q, p, of.get_cash)
        for c in of.give_forts:
            self.forts[c] = q
        for c in of.get_forts:
            self.forts[c] = p
        for sids, to in ((of.give_ships, q), (of.get_ships, p)):
            for sid in sids:
                self.ships[sid] = self.ships[sid]._replace(owner=to)
                if to == self.turn:
                    self.frozen = self.frozen | {sid}
        for ld in of.give_loads:
            self._move_load(p, q, ld)
        for ld in of.get_loads:
            self._move_load(q, p, ld)
        if of.truce:
            key = (min(p, q), max(p, q))
            self.truces[key] = max(self.truces.get(key, 0), self.round + of.truce)
        ev.append(
            {
                "kind": "offer_accepted",
                "seat": q,
                "offer": f"o{of.id}",
                "text": f"Offer o{of.id} accepted: {of.describe()}.",
            }
        )

    def _answer(self, verb: str, oid: int, ev: list[Event]) -> None:
        of = self.offers.pop(oid)
        if verb == "accept":
            why = self.validate_offer(of)
            if why is None:
                self._execute_offer(of, ev)
            else:
                ev.append(
                    {
                        "kind": "offer_failed",
                        "seat": of.to,
                        "offer": f"o{oid}",
                        "text": f"Offer o{oid} fails: {why}; it is void.",
                    }
                )
        elif verb == "decline":
            ev.append(
                {
                    "kind": "offer_declined",
                    "seat": of.to,
                    "offer": f"o{oid}",
                    "text": f"Seat {of.to} declines offer o{oid}.",
                }
            )
        else:
            ev.append(
                {
                    "kind": "offer_withdrawn",
                    "seat": of.frm,
                    "offer": f"o{oid}",
                    "text": f"Seat {of.frm} withdraws offer o{oid}.",
                }
            )

    # ------------------------------------------------------------------ isthmus

    def toll_split(self, p: int, city: str) -> list[tuple[int | None, int]]:
        """Who receives the toll seat ``p`` pays for sending from ``city`` ([] = free)."""
        if D.ISTHMUS_CROSSING[city] == "panama":
            owner = self.forts.get("POB")
            if owner is None:
                return [(None, TOLL)]
            return [] if owner == p else [(owner, TOLL)]
        a, b = self.forts.get("SUE"), self.forts.get("ALX")
        if a is None or b is None:
            return [(None, TOLL)]
        if a == b:
            return [] if a == p else [(a, TOLL)]
        if p in (a, b):
            return []
        return [(a, TOLL // 2), (b, TOLL // 2)]

    def _toll_payable(self, p: int, city: str) -> bool:
        c = self._effect("no_trade")
        if c and c.cities and any(D.ISTHMUS_CROSSING.get(x) == D.ISTHMUS_CROSSING[city] for x in c.cities):
            return False
        return self.cash[p] >= sum(n for _, n in self.toll_split(p, city))

    # ------------------------------------------------------------------ play

    def apply(self, action: FuldriggerAction) -> list[Event]:
        if self.to_act is None:
            raise GameOver(f"{TITLE}: the game is over")
        legal = self._legal  # usually listed already (and to_act is set)
        if legal is None:
            legal = self.legal()
        # the usual case: one of the legal list's own objects (found by identity, in C)
        if not any(map(_is, legal, repeat(action))) and action not in legal:
            raise self.err(self._why(action))
        ev: list[Event] = []
        self._legal = None
        _DISPATCH[type(action)](self, action, ev)
        return ev

    def _why(self, action: object) -> str:
        """A reason why ``action`` is not legal now, naming the rule (see :mod:`.reasons`)."""
        return why(self, action)

    def reversible(self, action: FuldriggerAction) -> bool:
        """A step of a move (``sail``/``stop``) that rolls no hazard die and turns no chance
        card can be taken back: the only hidden things are the deck's order and the dice.
        Tried on a copy. (A die is drawn by its place in the turn, so a step taken back and
        played again would roll the same; what the roll showed could still steer the move.)"""
        if not isinstance(action, (Sail, Stop)):
            return False
        after = self.copy()
        try:
            after.apply(action)
        except IllegalAction:
            return False
        return after.rolled == self.rolled and after.rng == self.rng and after.deck == self.deck

    # setup and turn structure -------------------------------------------------

    def _do_home(self, a: Home, ev: list[Event]) -> None:
        p = self.home_queue[0]
        self.home[p] = a.city
        node = INDEX[a.city]
        for _ in range(3):
            self._new_ship(p, node, SHIP_PRICE)
        ev.append(
            {
                "kind": "home",
                "seat": p,
                "city": a.city,
                "text": f"Seat {p} chooses {D.PORTS[a.city].name} as home city.",
            }
        )
        self.home_queue = self.home_queue[1:]
        if self.home_queue:
            self.to_act = self.home_queue[0]
        else:
            self._start_turn(ev)

    def _start_turn(self, ev: list[Event]) -> None:
        p = self.turn
        self.rolled = 0
        self.moved = self.frozen = self.converted = self.attacked = self.ported = frozenset()
        self.sales = {}
        self.drafts = [0] * self.seats
        self.attack = None
        self.moving = None
        ev.append(
            {"kind": "turn", "seat": p, "round": self.round, "text": f"Round {self.round}: seat {p}'s turn."}
        )
        if p == self.banker:
            self._turn_card(ev)
            if self.phase == "chart":
                return
        self._roll(ev)

    def _die(self) -> int:
        """The turn's next die (see ``dice``)."""
        n = self.rolled
        self.rolled = n + 1
        return self.rng.die_at(self.dice, (((self.round << 3) | self.turn) << 32) | n)

    def _roll2(self) -> int:
        return self._die() + self._die()

    def _roll(self, ev: list[Event]) -> None:
        dice = [self._die(), self._die(), self._die()]
        m = sum(dice)
        c = self._effect("move_mod")
        if c:
            m = max(0, m + c.amount)
        self.M = m
        ev.append(
            {
                "kind": "roll",
                "seat": self.turn,
                "dice": dice,
                "M": m,
                "text": f"Seat {self.turn} rolls {dice}: M = {m}.",
            }
        )
        # Every other player's negotiation window, in seat order from the turn player's
        # left (rule 11.3: "Andre kompagnier kan til enhver tid blande sig").
        if self.opts.negotiation:
            order = _OTHERS[self.seats][self.turn]
            el = self.eliminated
            self.window = tuple([q for q in order if not el[q]]) if True in el else order
        self._home()

    def _home(self) -> None:
        """Back to the open negotiation window, or else the turn player's free phase."""
        if self.window:
            self.phase = "window"
            self.to_act = self.window[0]
        else:
            self.phase = "free"
            self.to_act = self.turn

    def _turn_card(self, ev: list[Event]) -> None:
        if self.round_card is not None:
            self.discard.append(self.round_card)
            self.round_card = None
        if not self.deck:
            self.deck = self.discard + list(self.races)
            if self.races:
                ev.append({"kind": "races_expire", "text": "Unclaimed race bonuses expire."})
            self.discard, self.races = [], ()
            self.rng.shuffle(self.deck)
            ev.append({"kind": "reshuffle", "text": "The chance cards are reshuffled."})
        n = self.deck.pop()
        c = D.CARD_BY_NUM[n]
        ev.append(
            {"kind": "chance", "card": n, "title": c.title, "text": f"Chance C{n:02d} {c.title}: {c.text}"}
        )
        if c.kind == "race":
            self.races = (*self.races, n)
        elif c.kind == "round":
            self.round_card = n
        else:
            self.discard.append(n)
            self._resolve_now(c, ev)

    def _resolve_now(self, c: D.Card, ev: list[Event]) -> None:
        players = [p for p in range(self.seats) if not self.eliminated[p]]
        if c.effect == "tax":
            for p in players:
                self._pay_bank(p, min(self.cash[p], c.amount * self.n_ships(p)))
        elif c.effect == "dividend":
            for p in players:
                self._from_bank(p, c.amount * self.n_forts(p))
        elif c.effect == "support":
            for p in players:
                if self.n_ships(p) <= 2:
                    self._from_bank(p, c.amount)
        elif c.effect == "charts":
            order = [(self.banker + i) % self.seats for i in range(self.seats)]
            self.chart_queue = tuple(
                p for p in order if not self.eliminated[p] and len(self.reefs[p]) < len(D.REEF_LETTERS)
            )
            if self.chart_queue:
                self.phase = "chart"
                self.to_act = self.chart_queue[0]

    def _do_chart(self, a: Chart, ev: list[Event]) -> None:
        p = self.chart_queue[0]
        self.reefs[p] = self.reefs[p] | {a.reef}
        ev.append({"kind": "chart", "seat": p, "reef": a.reef, "text": f"Seat {p} learns reef {a.reef}."})
        self.chart_queue = self.chart_queue[1:]
        if self.chart_queue:
            self.to_act = self.chart_queue[0]
        else:
            self._roll(ev)

    def _do_end(self, a: End, ev: list[Event]) -> None:
        p = self.turn
        ships = self.ships
        for s in [s for s in ships.values() if s.becalmed and s.owner == p]:
            ships[s.id] = put(s, SHIP_BECALMED, s.becalmed - 1)
        if self.opts.eliminate_shipless and self.n_ships(p) == 0:
            self._eliminate(p, ev)
        with_ships = {s.owner for s in ships.values()}
        if len(with_ships) == 1:
            (w,) = with_ships
            self.early_winner = w
            ev.append(
                {"kind": "early_end", "seat": w, "text": f"Only seat {w} has ships left: the game ends."}
            )
            self._game_over(ev)
            return
        if self.eliminated.count(False) <= 1:  # at most one seat still in
            self._game_over(ev)
            return
        order = _ROUND[self.seats][self.first]
        idx = self.order_idx + 1
        while idx < self.seats and self.eliminated[order[idx]]:
            idx += 1
        if idx >= self.seats:
            for oid in [o.id for o in self.offers.values() if o.expires <= self.round]:
                del self.offers[oid]
                ev.append({"kind": "offer_expired", "offer": f"o{oid}", "text": f"Offer o{oid} expires."})
            self.round += 1
            if self.round > self.last_round:
                self.round = self.last_round
                self._game_over(ev)
                return
            idx = 0
            while self.eliminated[order[idx]]:
                idx += 1
        self.order_idx = idx
        self.turn = order[idx]
        self._start_turn(ev)

    def _eliminate(self, p: int, ev: list[Event]) -> None:
        self.eliminated[p] = True
        self.out_order.append(p)
        for c in self.forts_of(p):
            del self.forts[c]
        for key in [k for k in self.depots if k[0] == p]:
            for ld in self.depots.pop(key):
                self._return_load(ld)
        self._pay_bank(p, self.cash[p])
        for oid in [o.id for o in self.offers.values() if p in (o.frm, o.to)]:
            del self.offers[oid]
        if self.banker == p:
            for i in range(1, self.seats + 1):
                q = (p + i) % self.seats
                if not self.eliminated[q]:
                    self.banker = q
                    break
        ev.append({"kind": "eliminated", "seat": p, "text": f"Seat {p} has no ships and is out."})

    def _game_over(self, ev: list[Event]) -> None:
        self.phase = "over"
        self.to_act = None
        self.window = ()
        self.offers = {}
        self.draft = None
        w = self.winners()
        ev.append(
            {
                "kind": "game_over",
                "winners": w,
                "wealth": [self.wealth(p) for p in range(self.seats)],
                "text": "Game over. Wealth: "
                + ", ".join(f"seat {p} {self.wealth(p)}" for p in range(self.seats))
                + f". Winner: {', '.join(f'seat {p}' for p in w)}.",
            }
        )

    # sailing -------------------------------------------------------------------

    def _do_sail(self, a: Sail, ev: list[Event]) -> None:
        sid, v = a.ship, INDEX[a.to]
        if self.phase == "approach":
            assert self.attack is not None
            going = self._enter(sid, v, ev)
            steps = self._approach_steps() if going and v != self.attack.target else None
            if steps:  # the approach goes on: these steps are the next legal list
                self._legal = tuple(steps)
            else:
                self.attack = self.attack._replace(to_sail=self.attack.to_sail[1:])
                self._next_approach(ev)
            return
        if self.phase == "free":
            self.moving = sid
            self.mp = self.M
            self.visited = frozenset((self.ships[sid].node,))
            self.phase = "move"
        if not self._enter(sid, v, ev):
            self._end_move(sid)

    def _do_stop(self, a: Stop, ev: list[Event]) -> None:
        assert self.moving is not None
        self._end_move(self.moving)

    def _end_move(self, sid: str) -> None:
        self.moved = self.moved | {sid}
        self.moving = None
        self.phase = "free"
        self.to_act = self.turn

    def _enter(self, sid: str, v: int, ev: list[Event]) -> bool:
        """Move ship ``sid`` one step into ``v`` and resolve what happens. Returns whether
        the move may go on (rules 4 and 5)."""
        s = self.ships[sid]
        frm = s.node
        ld = s.load
        load = _tuple_new(Load, (ld.good, ld.price, ld.odo + 1, ld.origin)) if ld is not None else None
        s = _tuple_new(Ship, (sid, s.owner, v, s.privateer, load, s.value, s.becalmed))
        self.ships[sid] = s
        self.visited = self.visited | {v}
        self.mp -= 1
        code = CODES[v]
        h = HAZARD_LIST[v]
        if self.opts.directional_winds:
            h = wind(frm, v, True)
        who = f"Seat {s.owner}'s {sid}"
        if h == D.TAILWIND:
            self.mp += 3
            ev.append(
                {
                    "kind": "tailwind",
                    "seat": s.owner,
                    "ship": sid,
                    "square": code,
                    "text": f"{who} gets a tail wind on {code} (+3).",
                }
            )
        elif h == D.HEADWIND:
            self.mp = max(0, self.mp - 3)
            ev.append(
                {
                    "kind": "headwind",
                    "seat": s.owner,
                    "ship": sid,
                    "square": code,
                    "text": f"{who} meets a head wind on {code} (−3).",
                }
            )
        elif h == D.STORM:
            r = self._roll2()
            c = self._effect("storm_season")
            if r <= (c.amount if c else 3):
                ev.append(
                    {
                        "kind": "lost",
                        "seat": s.owner,
                        "ship": sid,
                        "square": code,
                        "roll": r,
                        "hazard": h,
                        "text": f"{who} goes down in a storm on {code} (roll {r}).",
                    }
                )
                self._lose_ship(sid)
                return False
            ev.append(
                {
                    "kind": "storm",
                    "seat": s.owner,
                    "ship": sid,
                    "square": code,
                    "roll": r,
                    "text": f"{who} rides out the storm on {code} (roll {r}).",
                }
            )
        elif h == D.ICEBERG:
            r = self._roll2()
            if r == 5:
                ev.append(
                    {
                        "kind": "lost",
                        "seat": s.owner,
                        "ship": sid,
                        "square": code,
                        "roll": r,
                        "hazard": h,
                        "text": f"{who} hits an iceberg on {code} and sinks (roll {r}).",
                    }
                )
                self._lose_ship(sid)
                return False
            ev.append(
                {
                    "kind": "iceberg",
                    "seat": s.owner,
                    "ship": sid,
                    "square": code,
                    "roll": r,
                    "text": f"{who} passes the iceberg on {code} (roll {r}).",
                }
            )
        elif h == D.CALM:
            r = self._roll2()
            if r <= 7:
                self.ships[sid] = s._replace(becalmed=2)
                ev.append(
                    {
                        "kind": "becalmed",
                        "seat": s.owner,
                        "ship": sid,
                        "square": code,
                        "roll": r,
                        "text": f"{who} is becalmed on {code} (roll {r}).",
                    }
                )
                return False
            ev.append(
                {
                    "kind": "calm",
                    "seat": s.owner,
                    "ship": sid,
                    "square": code,
                    "roll": r,
                    "text": f"{who} finds wind on {code} (roll {r}).",
                }
            )
        elif h == D.REEF:
            letter = D.REEF_LETTER[v]
            if letter not in self.reefs[s.owner]:
                r = self._roll2()
                if r <= 3:
                    ev.append(
                        {
                            "kind": "lost",
                            "seat": s.owner,
                            "ship": sid,
                            "square": code,
                            "roll": r,
                            "hazard": h,
                            "text": f"{who} is wrecked on reef {letter} (roll {r}).",
                        }
                    )
                    self._lose_ship(sid)
                    return False
                self.reefs[s.owner] = self.reefs[s.owner] | {letter}
                ev.append(
                    {
                        "kind": "reef_known",
                        "seat": s.owner,
                        "ship": sid,
                        "reef": letter,
                        "roll": r,
                        "text": f"{who} passes reef {letter} (roll {r}); seat {s.owner} now knows it.",
                    }
                )
        elif h == D.PIRATES and not (s.privateer or self.protected(s, v) or self._effect("pirates_off")):
            r = self._roll2()
            c = self._effect("pirates_rage")
            if r <= 3:
                ev.append(
                    {
                        "kind": "lost",
                        "seat": s.owner,
                        "ship": sid,
                        "square": code,
                        "roll": r,
                        "hazard": h,
                        "text": f"Pirates take {who} and its cargo on {code} (roll {r}).",
                    }
                )
                self._lose_ship(sid)
                return False
            if r <= (c.amount if c else 4):
                if s.load is not None:
                    self._return_load(s.load)
                    self.ships[sid] = s = s._replace(load=None)
                ev.append(
                    {
                        "kind": "plundered",
                        "seat": s.owner,
                        "ship": sid,
                        "square": code,
                        "roll": r,
                        "text": f"Pirates plunder {who}'s cargo on {code} (roll {r}).",
                    }
                )
            else:
                ev.append(
                    {
                        "kind": "pirates",
                        "seat": s.owner,
                        "ship": sid,
                        "square": code,
                        "roll": r,
                        "text": f"{who} slips past the pirates on {code} (roll {r}).",
                    }
                )
        ev.append(
            {
                "kind": "sail",
                "seat": s.owner,
                "ship": sid,
                "square": code,
                "mp": self.mp,
                "text": f"{who} sails to {code}.",
            }
        )
        if IS_PORT[v]:
            for n in self.races:
                c2 = D.CARD_BY_NUM[n]
                if c2.cities and c2.cities[0] == code:
                    self._from_bank(s.owner, c2.amount)
                    self.races = tuple(x for x in self.races if x != n)
                    self.discard.append(n)
                    ev.append(
                        {
                            "kind": "race",
                            "seat": s.owner,
                            "ship": sid,
                            "card": n,
                            "text": f"{who} is first into {D.PORTS[code].name}: +{c2.amount}.",
                        }
                    )
            return False
        if self.mp <= 0:
            return False
        return not self.visited.issuperset(ADJ[v])  # a neighbour not yet visited

    # trade ---------------------------------------------------------------------

    def _do_buy(self, a: Buy, ev: list[Event]) -> None:
        p = self.turn
        s = self.ships[a.ship]
        g = a.good
        city = CODES[s.node]
        price = self.buy_price(city, g)
        self._pay_bank(p, price)
        owner = self.fee_to(city, p)
        fee_txt = ""
        if owner is not None:
            self._pay(p, owner, self.fee())
            fee_txt = f" and a fee of {self.fee()} to seat {owner}"
        self.supply[g] -= 1
        self.ships[s.id] = put(s, SHIP_LOAD, Load(g, price, 0, city))
        ev.append(
            {
                "kind": "buy",
                "seat": p,
                "ship": s.id,
                "good": g,
                "price": price,
                "text": f"Seat {p} buys {D.GOODS[g].name_en.lower()} in {D.PORTS[city].name} "
                f"for {price}{fee_txt}.",
            }
        )

    def _do_sell(self, a: Sell, ev: list[Event]) -> None:
        p = self.turn
        s = self.ships[a.ship]
        assert s.load is not None
        g = s.load.good
        city = CODES[s.node]
        price = self.sale_price(city, g, p)
        self._from_bank(p, price)
        self.sales[(city, g)] = self.sales.get((city, g), 0) + 1
        owner = self.fee_to(city, p)
        fee_txt = ""
        if owner is not None:
            self._pay(p, owner, self.fee())
            fee_txt = f", paying a fee of {self.fee()} to seat {owner}"
        self._return_load(s.load)
        self.ships[s.id] = put(s, SHIP_LOAD, None)
        ev.append(
            {
                "kind": "sell",
                "seat": p,
                "ship": s.id,
                "good": g,
                "price": price,
                "text": f"Seat {p} sells {D.GOODS[g].name_en.lower()} in {D.PORTS[city].name} "
                f"for {price}{fee_txt}.",
            }
        )

    def _do_jettison(self, a: Jettison, ev: list[Event]) -> None:
        s = self.ships[a.ship]
        assert s.load is not None
        self._return_load(s.load)
        self.ships[s.id] = put(s, SHIP_LOAD, None)
        ev.append(
            {
                "kind": "jettison",
                "seat": s.owner,
                "ship": s.id,
                "text": f"Seat {s.owner} throws {s.id}'s cargo overboard.",
            }
        )

    def _do_portage(self, a: Portage, ev: list[Event]) -> None:
        p = self.turn
        s = self.ships[a.ship]
        assert s.load is not None
        city = CODES[s.node]
        for to, n in self.toll_split(p, city):
            if to is None:
                self._pay_bank(p, n)
            else:
                self._pay(p, to, n)
        other = D.ISTHMUS_PAIRS[city]
        key = (p, other)
        self.depots[key] = (*self.depots.get(key, ()), s.load)
        self.ships[s.id] = put(s, SHIP_LOAD, None)
        self.ported = self.ported | {s.id}
        ev.append(
            {
                "kind": "portage",
                "seat": p,
                "ship": s.id,
                "to": other,
                "text": f"Seat {p} sends {s.load.good} across the isthmus to {D.PORTS[other].name}.",
            }
        )

    def _do_collect(self, a: Collect, ev: list[Event]) -> None:
        p = self.turn
        s = self.ships[a.ship]
        city = CODES[s.node]
        loads = list(self.depots[(p, city)])
        i = next(i for i, ld in enumerate(loads) if ld.good == a.good)
        ld = loads.pop(i)
        if loads:
            self.depots[(p, city)] = tuple(loads)
        else:
            del self.depots[(p, city)]
        self.ships[s.id] = s._replace(load=ld)
        ev.append(
            {
                "kind": "collect",
                "seat": p,
                "ship": s.id,
                "good": ld.good,
                "text": f"Seat {p} loads {ld.good} from the depot in {D.PORTS[city].name}.",
            }
        )

    # ships and fortresses --------------------------------------------------------

    def _do_buyship(self, a: BuyShip, ev: list[Event]) -> None:
        p = self.turn
        cost = self.ship_cost()
        home = self.home[p]
        assert home is not None
        self._pay_bank(p, cost)
        s = self._new_ship(p, INDEX[home], cost)
        ev.append(
            {
                "kind": "buyship",
                "seat": p,
                "ship": s.id,
                "text": f"Seat {p} buys ship {s.id} for {cost} in {D.PORTS[home].name}.",
            }
        )

    def _do_sellship(self, a: SellShip, ev: list[Event]) -> None:
        p = self.turn
        self._lose_ship(a.ship)
        self._from_bank(p, SHIP_SALE)
        ev.append(
            {
                "kind": "sellship",
                "seat": p,
                "ship": a.ship,
                "text": f"Seat {p} sells ship {a.ship} to the bank for {SHIP_SALE}.",
            }
        )

    def _do_fortress(self, a: Fortress, ev: list[Event]) -> None:
        p = self.turn
        self._pay_bank(p, FORT_PRICE)
        self.forts[a.city] = p
        ev.append(
            {
                "kind": "fortress",
                "seat": p,
                "city": a.city,
                "text": f"Seat {p} builds a fortress in {D.PORTS[a.city].name}.",
            }
        )

    def _do_fit(self, a: Fit, ev: list[Event]) -> None:
        p = self.turn
        s = self.ships[a.ship]
        self._pay_bank(p, self.opts.privateer_fit_cost)
        self.ships[s.id] = s._replace(privateer=True)
        self.converted = self.converted | {s.id}
        ev.append(
            {"kind": "fit", "seat": p, "ship": s.id, "text": f"Seat {p} hoists a privateer sail on {s.id}."}
        )

    def _do_unfit(self, a: Unfit, ev: list[Event]) -> None:
        p = self.turn
        s = self.ships[a.ship]
        self.ships[s.id] = s._replace(privateer=False)
        self.converted = self.converted | {s.id}
        ev.append(
            {"kind": "unfit", "seat": p, "ship": s.id, "text": f"Seat {p}'s {s.id} becomes a merchant again."}
        )

    # attacks ---------------------------------------------------------------------

    def _do_attack(self, a: Attack, ev: list[Event]) -> None:
        d, x = a.defender, INDEX[a.square]
        ships, fort = self.defending_units(d, x)
        u = len(ships) + int(fort)
        self.attack = AttackInProgress(d, x, u)
        self.phase = "muster"
        ev.append(
            {
                "kind": "attack",
                "seat": self.turn,
                "defender": d,
                "square": a.square,
                "units": u,
                "text": f"Seat {self.turn} declares an attack on seat {d} at {a.square} "
                f"({u} defending units).",
            }
        )

    def _do_join(self, a: Join, ev: list[Event]) -> None:
        assert self.attack is not None
        self.attack = self.attack._replace(joined=(*self.attack.joined, a.ship))

    def _do_launch(self, a: Launch, ev: list[Event]) -> None:
        at = self.attack
        assert at is not None
        self.moved = self.moved | set(at.joined)
        self.attacked = self.attacked | set(at.joined)
        self.attack = at._replace(
            to_sail=tuple(sid for sid in at.joined if self.ships[sid].node != at.target)
        )
        self._next_approach(ev)

    def _next_approach(self, ev: list[Event]) -> None:
        """Start the next nominated privateer's approach, or resolve the attack when every
        one has sailed (rule 9.2.3–5)."""
        at = self.attack
        assert at is not None
        while at.to_sail:
            sid = at.to_sail[0]
            if sid in self.ships:
                self.moving = sid
                self.mp = self.M
                self.visited = frozenset((self.ships[sid].node,))
                steps = self._approach_steps()
                if steps:  # the next legal list (the search is the costly part of an attack)
                    self.phase = "approach"
                    self.to_act = self.turn
                    self._legal = tuple(steps)
                    return
            at = self.attack = at._replace(to_sail=at.to_sail[1:])
        self.moving = None
        self._resolve_attack(ev)

    def _resolve_attack(self, ev: list[Event]) -> None:
        at = self.attack
        assert at is not None
        here = self._participants_on_target()
        n_att = len(here)
        if n_att < at.units:
            ev.append(
                {
                    "kind": "attack_off",
                    "seat": self.turn,
                    "text": f"Only {n_att} privateers arrive against {at.units} units: "
                    "the attack is called off.",
                }
            )
            self._attack_done()
            return
        n = min(n_att, 4)
        r = self._roll2()
        if r < LOSS_BELOW[n]:
            ev.append(
                {
                    "kind": "attack_lost",
                    "seat": self.turn,
                    "roll": r,
                    "text": f"Attack roll {r} with {n_att}: the attacker loses a privateer.",
                }
            )
            if n_att == 1:
                self._lose_privateer(here[0], ev)
            else:
                self.phase = "lose"
        elif r > CAPTURE_ABOVE[n]:
            ev.append(
                {
                    "kind": "attack_won",
                    "seat": self.turn,
                    "roll": r,
                    "text": f"Attack roll {r} with {n_att}: a defending unit is captured.",
                }
            )
            ships, fort = self.defending_units(at.defender, at.target)
            if len(ships) + int(fort) == 1:
                self._seize(ships[0] if ships else "fort", ev)
            else:
                self.phase = "seize"
        else:
            ev.append(
                {
                    "kind": "attack_draw",
                    "seat": self.turn,
                    "roll": r,
                    "text": f"Attack roll {r} with {n_att}: a draw.",
                }
            )
            self._attack_done()

    def _attack_done(self) -> None:
        self.attack = None
        self.moving = None
        self.phase = "free"
        self.to_act = self.turn

    def _do_lose(self, a: Lose, ev: list[Event]) -> None:
        self._lose_privateer(a.ship, ev)

    def _lose_privateer(self, sid: str, ev: list[Event]) -> None:
        self._lose_ship(sid)
        ev.append(
            {
                "kind": "privateer_lost",
                "seat": self.turn,
                "ship": sid,
                "text": f"Seat {self.turn} loses privateer {sid}.",
            }
        )
        self._attack_done()

    def _do_seize(self, a: Seize, ev: list[Event]) -> None:
        self._seize(a.unit, ev)

    def _seize(self, unit: str, ev: list[Event]) -> None:
        at = self.attack
        assert at is not None
        p = self.turn
        if unit == "fort":
            city = CODES[at.target]
            if self.n_forts(p) >= MAX_FORTS:
                del self.forts[city]
                ev.append(
                    {
                        "kind": "fort_razed",
                        "seat": p,
                        "city": city,
                        "text": f"The {D.PORTS[city].name} fortress is razed.",
                    }
                )
            else:
                self.forts[city] = p
                ev.append(
                    {
                        "kind": "fort_taken",
                        "seat": p,
                        "city": city,
                        "text": f"Seat {p} takes the {D.PORTS[city].name} fortress.",
                    }
                )
        else:
            sid = unit
            if self.n_ships(p) >= MAX_SHIPS:
                self._lose_ship(sid)
                ev.append(
                    {
                        "kind": "ship_sunk",
                        "seat": p,
                        "ship": sid,
                        "text": f"Seat {p} has six ships: the captured {sid} is sunk.",
                    }
                )
            else:
                self.ships[sid] = self.ships[sid]._replace(owner=p, value=SHIP_PRICE)
                self.frozen = self.frozen | {sid}
                ev.append(
                    {"kind": "ship_taken", "seat": p, "ship": sid, "text": f"Seat {p} captures ship {sid}."}
                )
        self._attack_done()

    # negotiation ------------------------------------------------------------------

    def _do_offer(self, a: MakeOffer, ev: list[Event]) -> None:
        p = self.to_act
        assert p is not None
        self._open_draft(p, a.to, 0)

    def _open_draft(self, p: int, q: int, counter_of: int) -> None:
        self.drafts[p] += 1
        self.draft = Offer(0, p, q, expires=self.round, counter_of=counter_of)
        self._dbase = None
        self.phase = "draft"
        self.to_act = p

    def _do_clause(self, a: Give | Ask, ev: list[Event]) -> None:
        """Add the cash, fortress, ship or load of clause ``a`` to the offer being drafted."""
        dr = self.draft
        assert dr is not None
        i = _CLAUSE_FIELD[type(a)][a.what]
        old: Any = dr[i]
        v: Any = old + int(a.value) if i in _CASHES else (*old, a.value)
        self.draft = new = _tuple_new(Offer, (*dr[:i], v, *dr[i + 1 :]))  # pieces.put, inline
        t = self._dparts
        if t is None or t[0] is not dr:
            return
        rest = t[3]
        if i == _GIVE_CASH:
            gives, asks = _cash_clauses(Give, v, self.cash[dr.frm]), t[2]
        elif i == _ASK_CASH:
            gives, asks = t[1], _cash_clauses(Ask, v, self.cash[dr.to])
        elif i in _LOADS:  # a load: the depot's loads are counted again
            self._dparts = None
            return
        else:  # a fortress or a ship, listed once (the interned action) and now taken
            gives, asks = t[1], t[2]
            k = [*map(_is, rest, repeat(act(type(a), a.what, a.value)))].index(True)
            rest = rest[:k] + rest[k + 1 :]
        if rest[-2] is not SEND:  # the first clause (an empty draft lists the truces)
            rest = (*rest[:-1], SEND, CANCEL)
        self._dparts = (new, gives, asks, rest)

    def _do_truce(self, a: Truce, ev: list[Event]) -> None:
        dr = self.draft
        assert dr is not None
        self.draft = new = put(dr, OFFER_FIELD["truce"], a.rounds)
        t = self._dparts
        if t is not None and t[0] is dr:
            # the truce clauses come last before send (if listed) and cancel
            rest = t[3]
            k = len(rest) - len(TRUCES) - (2 if len(rest) > 1 and rest[-2] is SEND else 1)
            if k >= 0 and rest[k] is TRUCES[0]:
                self._dparts = (new, t[1], t[2], (*rest[:k], SEND, CANCEL))
            else:
                self._dparts = None

    def _do_cancel(self, a: Cancel, ev: list[Event]) -> None:
        self.draft = None
        self._home()

    def _do_send(self, a: Send, ev: list[Event]) -> None:
        assert self.draft is not None
        self.next_offer += 1
        of = put(self.draft, OFFER_FIELD["id"], self.next_offer)
        self.offers[of.id] = of
        self.draft = None
        self.respond = of.id
        self.phase = "respond"
        self.to_act = of.to
        ev.append(
            {
                "kind": "offer",
                "seat": of.frm,
                "to": of.to,
                "offer": f"o{of.id}",
                "text": f"Seat {of.frm} sends a private offer o{of.id} to seat {of.to}."
                if self.opts.private_offers
                else f"Seat {of.frm} offers o{of.id}: {of.describe()}.",
            }
        )

    def _do_later(self, a: Later, ev: list[Event]) -> None:
        self._back_to_turn()

    def _back_to_turn(self) -> None:
        self.respond = None
        self._home()

    def _do_accept(self, a: Accept, ev: list[Event]) -> None:
        self._answer("accept", a.offer, ev)
        self._back_to_turn()

    def _do_decline(self, a: Decline, ev: list[Event]) -> None:
        self._answer("decline", a.offer, ev)
        self._back_to_turn()

    def _do_counter(self, a: Counter, ev: list[Event]) -> None:
        frm = self.offers[a.offer].frm
        me = self.to_act
        assert me is not None
        self._answer("decline", a.offer, ev)
        self.respond = None
        self._open_draft(me, frm, a.offer)

    def _do_pass(self, a: Pass, ev: list[Event]) -> None:
        self.window = self.window[1:]
        self._home()

    def _do_withdraw(self, a: Withdraw, ev: list[Event]) -> None:
        self._answer("withdraw", a.offer, ev)

    # ------------------------------------------------------------------ invariants

    def check(self) -> None:
        n = self.seats
        assert sum(self.cash) == self.bank_out - self.bank_in, "I1: money is not conserved"
        assert all(c >= 0 for c in self.cash), "I1: negative cash"
        aboard = [s.load.good for s in self.ships.values() if s.load]
        depot = [ld.good for loads in self.depots.values() for ld in loads]
        for g, good in D.GOODS.items():
            total = self.supply[g] + aboard.count(g) + depot.count(g)
            assert total == good.pieces, f"I2: {g} count {total} != {good.pieces}"
            assert self.supply[g] >= 0
        ids = [int(sid[1:]) for sid in self.ships]
        assert ids == sorted(ids), "ships are not kept in id order"
        assert all(s.id == sid for sid, s in self.ships.items()), "a ship is filed under another id"
        for s in self.ships.values():
            assert not (s.privateer and s.load), "I2: a privateer carries cargo"
            assert 0 <= s.node < D.N_NODES, "I5: bad node"
            assert not self.eliminated[s.owner], "I10: an eliminated player owns a ship"
            if s.load:
                assert s.load.odo >= 0, "I6"
        for p in range(n):
            assert self.n_ships(p) <= MAX_SHIPS, "I3: more than six ships"
            assert self.n_forts(p) <= MAX_FORTS, "I3: more than six fortresses"
        assert len(self.deck) + len(self.discard) + len(self.races) + (self.round_card is not None) == len(
            D.CARDS
        ), "I8"
        assert all(c in D.PORTS for c in self.forts), "I4"


def wind(frm: int, v: int, directional: bool) -> str | None:
    """The hazard of ``v`` for a ship coming from ``frm`` (D5: with directional winds a wind
    square helps along its lane's direction and hinders against it)."""
    h = HAZARD_LIST[v]
    if h not in (D.TAILWIND, D.HEADWIND) or not directional:
        return h
    lane = D.LANE_OF.get(v)
    if lane is not None and frm == lane[1]:  # sailing against the lane's direction
        return D.HEADWIND if h == D.TAILWIND else D.TAILWIND
    return h


def mp_after(u: int, v: int, mp: int, directional: bool) -> int:
    """Movement left after stepping from ``u`` into ``v`` with ``mp`` (winds counted)."""
    m = mp - 1
    w = wind(u, v, directional)
    if w == D.TAILWIND:
        return m + 3
    if w == D.HEADWIND:
        return max(0, m - 3)
    return m


def reaches(u: int, mp: int, visited: set[int], x: int, directional: bool) -> bool:
    """Whether a ship on ``u`` with ``mp`` left, having visited ``visited``, can go on into
    ``x`` (rule 4.3: a simple path; ports only as its end)."""
    for v in ADJ[u]:
        if v in visited or (IS_PORT[v] and v != x):
            continue
        if v == x:
            return True
        m = mp_after(u, v, mp, directional)
        if m <= 0 or DIST[v][x] > m + 3 * N_TAILWINDS:
            continue
        visited.add(v)
        ok = reaches(v, m, visited, x, directional)
        visited.discard(v)
        if ok:
            return True
    return False


@functools.lru_cache(maxsize=1 << 16)
def _reachable(u: int, x: int, m: int, directional: bool) -> bool:
    """:func:`reaches` from the start of a move (the map never changes: cached, bounded)."""
    return reaches(u, m, {u}, x, directional)


_Handler = Callable[[FuldriggerState, Any, list[Event]], None]
_DISPATCH: dict[type[FuldriggerAction], _Handler] = {
    Home: FuldriggerState._do_home,
    Chart: FuldriggerState._do_chart,
    Sail: FuldriggerState._do_sail,
    Stop: FuldriggerState._do_stop,
    Buy: FuldriggerState._do_buy,
    Sell: FuldriggerState._do_sell,
    Jettison: FuldriggerState._do_jettison,
    Portage: FuldriggerState._do_portage,
    Collect: FuldriggerState._do_collect,
    BuyShip: FuldriggerState._do_buyship,
    SellShip: FuldriggerState._do_sellship,
    Fortress: FuldriggerState._do_fortress,
    Fit: FuldriggerState._do_fit,
    Unfit: FuldriggerState._do_unfit,
    Attack: FuldriggerState._do_attack,
    Join: FuldriggerState._do_join,
    Launch: FuldriggerState._do_launch,
    Lose: FuldriggerState._do_lose,
    Seize: FuldriggerState._do_seize,
    MakeOffer: FuldriggerState._do_offer,
    Give: FuldriggerState._do_clause,
    Ask: FuldriggerState._do_clause,
    Truce: FuldriggerState._do_truce,
    Send: FuldriggerState._do_send,
    Cancel: FuldriggerState._do_cancel,
    Accept: FuldriggerState._do_accept,
    Decline: FuldriggerState._do_decline,
    Withdraw: FuldriggerState._do_withdraw,
    Later: FuldriggerState._do_later,
    Counter: FuldriggerState._do_counter,
    Pass: FuldriggerState._do_pass,
    End: FuldriggerState._do_end,
}
"""Action class → the rule that applies it (built once; ``apply`` looks the type up)."""


# --------------------------------------------------------------------------- the game


@mypyc_attr(allow_interpreted_subclasses=True)
class FuldriggerGame(Game[FuldriggerOptions, FuldriggerState]):
    id = "fuldrigger"
    title = TITLE
    seats = range(2, 5)
    kind = GameKind(
        hidden_information=True,  # the order of the chance deck; private offers
        chance=True,  # dice and the shuffled chance deck
        public_actions=False,  # with private_offers a draft's clauses are secret
        max_decisions=40_000,
        secret_choices=False,
    )
    version = 4
    """2: each clause at most once per draft; a ship sends a load across an isthmus at most
    once per turn (both so that no sequence of decisions can go on for ever).
    3: attackers sail in by routes of the player's choosing, and a becalmed privateer on the
    target joins; every other player has a negotiation window each turn; cash clauses of any
    whole sum (digit by digit), depot loads offerable, counter-offers.
    4: the dice of a turn (the move roll, hazards, battles) are drawn per round, seat and die
    from a key of the seed (``FuldriggerState.dice``), no longer from the table's one stream;
    the turn order and the chance deck are drawn as before."""
    Options = FuldriggerOptions
    summary = "Sea trade and trade war under sail: buy low, carry far, sell high, build fortresses"
    languages = ("en", "da")
    quick_options: ClassVar[dict[str, Any]] = {"rounds_limit": 4}

    def board_data(self) -> dict[str, Any]:
        """The map, ports, hazards, goods, price lists and chance cards, for clients."""
        return _BOARD

    def new(self, seats: int, seed: int, options: FuldriggerOptions | None = None) -> FuldriggerState:
        self.check_seats(seats)
        o = options or FuldriggerOptions()
        if o.banker_seat >= seats:
            raise OptionError(f"{TITLE}: banker_seat {o.banker_seat} is not a seat of {seats}")
        s = FuldriggerState.__new__(FuldriggerState)
        s.start(self, seats, Rng(seed))
        s.opts = o
        # Home cities: everyone rolls 3 dice, ties re-roll among themselves (2.3).
        order = _dice_order(list(range(seats)), s.rng)
        s.first = order[0]
        s.banker = s.first if o.banker_seat < 0 else o.banker_seat
        s.home_queue = tuple(order)
        s.home = [None] * seats
        s.phase = "home"
        s.to_act = order[0]
        s.round, s.turn, s.order_idx = 1, s.first, 0
        s.dice, s.rolled = draw_at(seed, _DICE_KEY_AT), 0
        s.last_round = o.rounds_limit
        s.cash = [START_CASH] * seats
        s.bank_out, s.bank_in = START_CASH * seats, 0
        s.ships, s.next_ship, s.forts = {}, 0, {}
        s.reefs = [frozenset()] * seats
        s.supply = {g: good.pieces for g, good in D.GOODS.items()}
        s.deck = [c.num for c in D.CARDS]
        s.rng.shuffle(s.deck)
        s.discard, s.round_card, s.races = [], None, ()
        s.M = s.mp = 0
        s.moving, s.visited = None, frozenset()
        s.sales = {}
        s.moved = s.frozen = s.converted = s.attacked = s.ported = frozenset()
        s.attack, s.chart_queue = None, ()
        s.offers, s.next_offer, s.draft, s.drafts, s.respond = {}, 0, None, [0] * seats, None
        s.window = ()
        s.truces, s.depots = {}, {}
        s.eliminated, s.out_order, s.early_winner = [False] * seats, [], None
        s._legal = None
        s._dbase = None
        s._dparts = None
        return s

    def parse(self, state: FuldriggerState, text: str) -> FuldriggerAction:
        """Any well-formed order (so that ``play`` can say why an illegal one is refused)."""
        return parse(state, text)


_ROUND: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple([tuple([(p + i) % n for i in range(n)]) for p in range(n)]) for n in range(2, 5)
}
"""Seats -> seat -> every seat in turn from that one (the round from the first player)."""
_OTHERS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple([r[1:] for r in rounds]) for n, rounds in _ROUND.items()
}
"""Seats -> seat -> the other seats in turn from its left (their negotiation windows)."""

_DICE_KEY_AT = 1 << 62
"""Where in the seed's stream the dice key is drawn: far beyond any draw the table's own
stream makes (the turn order, the chance deck and its reshuffles), so the two never meet."""


def _dice_order(players: list[int], rng: Rng) -> list[int]:
    """Descending order of 3-dice rolls; tied players re-roll among themselves."""
    rolls = {p: rng.die(6) + rng.die(6) + rng.die(6) for p in players}
    out: list[int] = []
    for value in sorted(set(rolls.values()), reverse=True):
        group = [p for p in players if rolls[p] == value]
        out += group if len(group) == 1 else _dice_order(group, rng)
    return out


_BOARD = D.board_payload()
