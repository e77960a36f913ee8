"""The caches of the Fuldrigger state (issue 20: speed) never change what the rules say.

A draft's clause candidates (``_dbase``) and its legal list carried from clause to clause
(``_dparts``), the per-ship action tables and the fast record updates (:func:`pieces.put`) are
checked against the rules computed afresh, at every decision of random games (with and without
the isthmus variant, three and four seats too); the cash clauses against :func:`cash_steps`;
the free phase's one-pass list against the rules' helpers, kind by kind.
"""

from __future__ import annotations

from typing import Any

import pytest

from spillebord.core import Rng
from spillebord.games.fuldrigger import GAME, FuldriggerOptions, Offer, Ship
from spillebord.games.fuldrigger.actions import (
    Accept,
    Ask,
    Attack,
    Buy,
    BuyShip,
    Collect,
    Decline,
    End,
    Fit,
    Fortress,
    FuldriggerAction,
    Give,
    Jettison,
    MakeOffer,
    Portage,
    Sell,
    SellShip,
    Unfit,
    Withdraw,
    act,
    sail_steps,
)
from spillebord.games.fuldrigger.bots import RaiderAgent
from spillebord.games.fuldrigger.data import CODES, INDEX, IS_PORT, ISTHMUS_PAIRS, PRICES
from spillebord.games.fuldrigger.pieces import (
    OFFER_FIELD,
    SHIP_BECALMED,
    SHIP_LOAD,
    SHIP_NODE,
    SHIP_PRIVATEER,
)
from spillebord.games.fuldrigger.rules import (
    _ASK_FIELD,
    _GIVE_FIELD,
    FORT_PRICE,
    MAX_FORTS,
    MAX_SHIPS,
    FuldriggerState,
    _cash_clauses,
    cash_steps,
)


def test_field_numbers_name_the_fields() -> None:
    for name, i in OFFER_FIELD.items():
        assert Offer._fields[i] == name
    assert [Ship._fields[i] for i in (SHIP_NODE, SHIP_PRIVATEER, SHIP_LOAD, SHIP_BECALMED)] == [
        "node",
        "privateer",
        "load",
        "becalmed",
    ]
    field = {"cash": "cash", "fort": "forts", "ship": "ships", "load": "loads"}
    for what, i in _GIVE_FIELD.items():
        assert Offer._fields[i] == "give_" + field[what]
    for what, i in _ASK_FIELD.items():
        assert Offer._fields[i] == "get_" + field[what]


def test_cash_clauses_are_the_cash_steps() -> None:
    amounts = [*range(0, 2100), *(10**k for k in range(14)), 3 * 10**12, 123_456_789_000]
    for amount in amounts:
        rooms = (-3, 0, 1, 9, 10, 11, 55, 99, 100, 101, 999, 1000, 1234, 99_999, 10**13, 10**14)
        for cash in (amount + r for r in rooms):
            for cls in (Give, Ask):
                steps = tuple([act(cls, "cash", str(n)) for n in cash_steps(amount, cash)])
                assert _cash_clauses(cls, amount, cash) == steps, (amount, cash)


@pytest.mark.parametrize(
    ("seats", "options", "raiders"),
    [
        (2, {}, 0),
        (3, {"isthmus_variant": True}, 0),
        (4, {"ship_sale_in_port_only": True, "privateer_fit_cost": 20}, 0),
        (2, {}, 2),
        (3, {"directional_winds": True}, 2),
    ],
)
def test_cached_legal_lists_agree_with_fresh_ones(seats: int, options: dict[str, Any], raiders: int) -> None:
    # Raiders attack: an approach's steps are listed by the play before them (_legal).
    approach = 0
    for seed in range(12):
        s = GAME.new(seats, seed, FuldriggerOptions(**options))
        bots = [RaiderAgent(GAME) if q < raiders else None for q in range(seats)]
        rng = Rng(seed)
        while s.to_act is not None:
            f = s.copy()
            f._legal = None
            f._dbase = None
            f._dparts = None
            assert s.legal() == f.legal()
            approach += s.phase == "approach"
            if s.draft is not None:  # the quick emptiness test of _draft_legal
                blank = Offer(0, 0, 0)
                terms = s.draft[3:10] != blank[3:10] or s.draft[11:13] != blank[11:13]
                assert terms == (not s.draft.is_empty())
            bot = bots[s.to_act]
            s.play(bot.act(s, s.to_act, rng) if bot is not None else rng.choice(s.legal()))
            s.check()
    assert approach or not raiders


def free_legal_plainly(st: FuldriggerState) -> list[FuldriggerAction]:
    """The free phase's legal list as the rules say it, one kind of action after another
    through the state's rule helpers: the reference for the one-pass ``_free_legal``."""
    p, o = st.turn, st.opts
    cash = st.cash[p]
    mine = st.ships_of(p)
    out: list[FuldriggerAction] = []
    for s in mine:
        if st.movable(s):
            out += [a for _, a in sail_steps(s.id, s.node)]
    for s in mine:
        if IS_PORT[s.node] and s.id not in st.frozen and not s.privateer:
            city = CODES[s.node]
            if not st.trade_blocked(city):
                f = st.fee() if st.fee_to(city, p) is not None else 0
                if s.load is None:
                    for g, (_, k, _) in PRICES[city].items():
                        if k and st.supply[g] > 0 and cash >= st.buy_price(city, g) + f:
                            out.append(act(Buy, s.id, g))
                elif (
                    PRICES[city].get(s.load.good, (0, False, False))[2]
                    and st.can_sell_load(s.load, city)
                    and cash + st.sale_price(city, s.load.good, p) >= f
                ):
                    out.append(act(Sell, s.id))
            if o.isthmus_variant and city in ISTHMUS_PAIRS:
                if s.load is not None and s.id not in st.ported and st._toll_payable(p, city):
                    out.append(act(Portage, s.id))
                if s.load is None:
                    goods = [ld.good for ld in st.depots.get((p, city), ())]
                    out += [act(Collect, s.id, g) for g in dict.fromkeys(goods)]
        if s.load is not None:
            out.append(act(Jettison, s.id))
    for s in mine:
        if st.can_convert(s):
            if not s.privateer and s.load is None and cash >= o.privateer_fit_cost:
                out.append(act(Fit, s.id))
            elif s.privateer:
                out.append(act(Unfit, s.id))
    if len(mine) < MAX_SHIPS and cash >= st.ship_cost() and st.home[p] is not None:
        out.append(act(BuyShip))
    out += [act(SellShip, s.id) for s in mine if IS_PORT[s.node] or not o.ship_sale_in_port_only]
    if cash >= FORT_PRICE and st.n_forts(p) < MAX_FORTS:
        for c in sorted({CODES[s.node] for s in mine if IS_PORT[s.node]}):
            if st.fortress_allowed(p, c):
                out.append(act(Fortress, c))
    if st._effect("no_attacks") is None and any(s.privateer for s in mine):
        for d in range(st.seats):
            if d == p or st.eliminated[d] or st.truce_with(p, d):
                continue
            nodes = {s.node for s in st.ships_of(d)} | {INDEX[c] for c in st.forts_of(d)}
            for x in sorted(nodes, key=lambda n: CODES[n]):
                ships, fort = st.defending_units(d, x)
                u = len(ships) + int(fort)
                if u and len(st.attack_candidates(p, x)) >= u:
                    out.append(act(Attack, d, CODES[x]))
    if st.can_draft(p):
        out += [act(MakeOffer, q) for q in range(st.seats) if q != p and not st.eliminated[q]]
    for of in sorted(st.offers.values()):
        if of.to == p:
            out += [act(Accept, of.id), act(Decline, of.id)]
        elif of.frm == p:
            out.append(act(Withdraw, of.id))
    out.append(act(End))
    return out


@pytest.mark.parametrize(
    ("seats", "options", "raiders"),
    [
        (2, {}, 0),
        (2, {}, 2),
        (3, {"isthmus_variant": True, "min_transport_mode": "port_distance"}, 1),
        (4, {"ship_sale_in_port_only": True, "privateer_fit_cost": 20, "eliminate_shipless": True}, 0),
        (3, {"port_attack_rule": "defender_fortress_only", "directional_winds": True}, 2),
    ],
)
def test_the_free_phase_list_is_the_rules_list(seats: int, options: dict[str, Any], raiders: int) -> None:
    # Random players, and raiders (attacks, captured ships, fortresses taken) in some seats.
    checked = 0
    for seed in range(10):
        s = GAME.new(seats, seed, FuldriggerOptions(**options))
        bots = [RaiderAgent(GAME) if q < raiders else None for q in range(seats)]
        rng = Rng(seed)
        while s.to_act is not None:
            if s.phase == "free":
                assert list(s.legal()) == free_legal_plainly(s)
                checked += 1
            bot = bots[s.to_act]
            s.play(bot.act(s, s.to_act, rng) if bot is not None else rng.choice(s.legal()))
    assert checked > 200
