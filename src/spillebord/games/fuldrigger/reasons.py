"""Why a Fuldrigger order is refused: one readable line naming the rule it breaks.

``FuldriggerState.apply`` calls :func:`why` only for an order that is not legal now, so none
of this is on a hot path. Each phase has its own explanations; the free phase explains the
usual mistakes of each order (an unknown ship, someone else's ship, a square out of reach…).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import data as D
from .actions import (
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
    OfferAnswer,
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
)
from .data import ADJ, CODES, INDEX, IS_PORT, PRICES

if TYPE_CHECKING:
    from .rules import FuldriggerState

SHIP_ACTIONS = (Sail, Buy, Sell, Jettison, SellShip, Fit, Unfit, Portage, Collect)
CLAUSES = (Give, Ask, Truce, Send, Cancel)
TALK = (MakeOffer, Accept, Decline, Withdraw)


def why(st: FuldriggerState, action: object) -> str:
    """A reason why ``action`` is not legal in ``st`` now."""
    if not isinstance(action, FuldriggerAction):
        return f"{action!r} is not a Fuldrigger action"
    ph = st.phase
    if ph == "home":
        if isinstance(action, Home):
            if action.city not in D.HOME_ELIGIBLE:
                return f"{action.city} is not a home city: KBH, AMS, LON or LIS (rule 2.3)"
            return f"{action.city} is taken: choose a free home city (rule 2.3)"
        return f"seat {st.to_act} chooses a home city first ('home LON', rule 2.3)"
    if ph == "chart":
        if isinstance(action, Chart):
            return f"seat {st.to_act} knows reef {action.reef} already, or there is no such reef (card C28)"
        return f"Nye søkort (C28): seat {st.to_act} names a reef to learn first ('chart A')"
    if ph == "window":
        return _why_window(st, action)
    if ph == "draft":
        return _why_draft(st, action)
    if ph == "respond":
        o = st.respond
        if isinstance(action, OfferAnswer) and action.offer != o:
            return f"seat {st.to_act} answers offer o{o} first"
        return f"seat {st.to_act} answers offer o{o} first: accept, decline, later or counter"
    if ph == "move":
        return _why_move(st, action)
    if ph == "approach":
        return _why_approach(st, action)
    if ph == "muster":
        return _why_muster(st, action)
    if ph == "lose":
        return "the attack is lost: choose which privateer goes down ('lose sN', rule 9.2.6)"
    if ph == "seize":
        return "the attack succeeded: choose what to take ('seize sN' or 'seize fort', rule 9.2.7)"
    if ph == "free":
        return _why_free(st, action)
    return f"'{action}' is not legal now (phase {ph})"


def _why_window(st: FuldriggerState, action: FuldriggerAction) -> str:
    p = st.to_act
    assert p is not None
    head = f"seat {p}'s negotiation window is open (rule 11.3)"
    if isinstance(action, TALK):
        return _why_talk(st, p, action)
    if isinstance(action, (End, Stop, *SHIP_ACTIONS)):
        return f"{head}: it is seat {st.turn}'s turn, but first seat {p} may make or answer offers, or 'pass'"
    return f"{head}: make or answer an offer, or 'pass'"


def _why_talk(st: FuldriggerState, p: int, action: FuldriggerAction) -> str:
    if isinstance(action, MakeOffer):
        q = action.to
        if not st.opts.negotiation:
            return "offers are off at this table (option negotiation, D20)"
        if q == p or not 0 <= q < st.seats:
            return f"an offer goes to another seat (0–{st.seats - 1}), not {q}"
        if st.eliminated[q]:
            return f"seat {q} is out of the game"
        return "at most three drafts a turn and three open offers per player (rule 11.7)"
    assert isinstance(action, OfferAnswer)
    of = st.offers.get(action.offer)
    if of is None:
        return f"there is no open offer o{action.offer}"
    if isinstance(action, Withdraw):
        return f"offer o{of.id} is seat {of.frm}'s to withdraw"
    return f"offer o{of.id} is addressed to seat {of.to}, not seat {p}"


def _why_draft(st: FuldriggerState, action: FuldriggerAction) -> str:
    dr = st.draft
    assert dr is not None
    head = f"seat {dr.frm} is drafting an offer to seat {dr.to}"
    if not isinstance(action, CLAUSES):
        return f"{head}: add a clause, 'send' it or 'cancel' it (rule 11)"
    if isinstance(action, Send):
        return f"{head}: it says nothing yet; add a clause first"
    if isinstance(action, Truce):
        if dr.truce:
            return f"the draft has a truce of {dr.truce} rounds already (one truce per offer)"
        return "a truce lasts 1 to 10 rounds (rule 11.1)"
    assert isinstance(action, (Give, Ask))
    giver = dr.frm if isinstance(action, Give) else dr.to
    what, value = action.what, action.value
    if what == "cash":
        amount = dr.give_cash if isinstance(action, Give) else dr.get_cash
        if not value.isdigit() or int(value) <= 0:
            return f"{value!r} is not a sum: write a whole number of ducats, digit by digit"
        n = int(value)
        if amount + n > st.cash[giver]:
            return f"seat {giver} holds only {st.cash[giver]} ducats ({amount} written so far)"
        return (
            f"write a sum digit by digit from the left, one digit times a place value at a time "
            f"(137 = 100, then 30, then 7); {amount} is written so far"
        )
    if what == "fort":
        listed = dr.give_forts if isinstance(action, Give) else dr.get_forts
        if value in listed:
            return f"the {value} fortress is in the draft already (each clause once)"
        return f"seat {giver} owns no fortress in {value}"
    if what == "ship":
        listed = dr.give_ships if isinstance(action, Give) else dr.get_ships
        if value in listed:
            return f"ship {value} is in the draft already (each clause once)"
        return f"seat {giver} owns no ship {value}"
    if what == "load":
        return f"seat {giver} has no more {value} loads in his depots to offer (write PORT:good, e.g. ALX:Ka)"
    return f"a clause offers cash, fort, ship or load, not {what!r} (rule 11.1)"


def _square(st: FuldriggerState, sid: str, to: str) -> str | None:
    """The reason a step of ``sid`` into ``to`` breaks rule 4, or None."""
    s = st.ships[sid]
    if to not in INDEX:
        return f"there is no square {to}"
    v = INDEX[to]
    if v not in ADJ[s.node]:
        return f"{to} is not next to {CODES[s.node]} (rule 4.1: one square at a time)"
    if st.phase in ("move", "approach") and v in st.visited:
        return f"a move may not enter {to} twice (rule 4.3)"
    if st.phase in ("move", "approach") and st.mp <= 0:
        return f"ship {sid} has no movement left"
    return None


def _why_move(st: FuldriggerState, action: FuldriggerAction) -> str:
    sid = st.moving
    assert sid is not None
    if isinstance(action, Sail):
        if action.ship != sid:
            return f"ship {sid} is under way: finish its move first ('stop' or its next square; rule 4.1)"
        return _square(st, sid, action.to) or f"'{action}' is not legal now"
    return f"ship {sid} is under way: 'sail {sid} SQUARE' for its next square, or 'stop' (rule 4)"


def _why_approach(st: FuldriggerState, action: FuldriggerAction) -> str:
    at, sid = st.attack, st.moving
    assert at is not None and sid is not None
    x = CODES[at.target]
    if isinstance(action, Sail):
        if action.ship != sid:
            return f"privateer {sid} is sailing in to the attack on {x}; the others follow it"
        r = _square(st, sid, action.to)
        if r:
            return r
        if IS_PORT[INDEX[action.to]]:
            return f"entering {action.to} would end the move short of {x} (rule 4.4)"
        return (
            f"from {action.to} privateer {sid} cannot reach {x} with {st.mp} squares left "
            f"(rule 9.2.3: an attacker sails to the target)"
        )
    return f"privateer {sid} is sailing in to the attack on {x}: 'sail {sid} SQUARE' (rule 9.2.3)"


def _why_muster(st: FuldriggerState, action: FuldriggerAction) -> str:
    at = st.attack
    assert at is not None
    x = CODES[at.target]
    if isinstance(action, Launch):
        return (
            f"{len(at.joined)} privateer(s) nominated against {at.units} defending unit(s): "
            f"at least as many are needed (rule 9.2.3)"
        )
    if isinstance(action, Join):
        s = st.ships.get(action.ship)
        if s is None or s.owner != st.turn:
            return f"seat {st.turn} has no ship {action.ship}"
        if not s.privateer:
            return f"{s.id} is a merchant ship; only privateers attack (rule 9.2)"
        if action.ship in at.joined:
            return f"{s.id} is nominated already"
        if s.id in st.moved or s.id in st.attacked:
            return f"{s.id} has moved or fought this turn (rules 9.2.3, 9.2.9)"
        if s.id in st.frozen:
            return f"{s.id} changed hands this turn and may not attack (rule 11.5.3)"
        if s.becalmed:
            return f"{s.id} is becalmed and may not move; only on {x} itself could it join"
        return f"{s.id} cannot reach {x} with M = {st.M} (rule 9.2.3)"
    return f"an attack on {x} is being mustered: 'join sN' for each privateer, then 'launch' (rule 9.2)"


def _why_free(st: FuldriggerState, action: FuldriggerAction) -> str:
    p = st.turn
    generic = f"'{action}' is not legal now"
    if isinstance(action, Pass):
        return "there is no negotiation window now; 'end' ends the turn"
    if isinstance(action, (Stop, Join, Launch, Lose, Seize, Later, Counter, *CLAUSES)):
        return f"{generic}: no move, attack or offer is in progress"
    if isinstance(action, TALK):
        return _why_talk(st, p, action)
    if isinstance(action, SHIP_ACTIONS):
        s = st.ships.get(action.ship)
        if s is None:
            return f"there is no ship {action.ship}"
        if s.owner != p:
            return f"ship {s.id} belongs to seat {s.owner}; it is seat {p}'s turn"
        where = CODES[s.node]
        if isinstance(action, Sail):
            if s.id in st.moved or s.id in st.attacked:
                return f"ship {s.id} has already moved this turn (rule 4.1: one move a turn)"
            if s.becalmed:
                return f"ship {s.id} is becalmed on {where} and lies still this turn (rule 5.2)"
            if s.id in st.frozen:
                return f"ship {s.id} changed hands this turn and may not move (rule 11.5.3)"
            if st.M <= 0:
                return "M is 0 this turn: no ship can sail"
            return _square(st, s.id, action.to) or generic
        if isinstance(action, (Buy, Sell)):
            if not IS_PORT[s.node]:
                return f"ship {s.id} is at sea ({where}), not in a port (rule 6.1)"
            if s.privateer:
                return f"ship {s.id} is a privateer and cannot trade (rule 9.1.4)"
            if st.trade_blocked(where):
                return f"the chance card in force stops all trade in {D.PORTS[where].name}"
            if s.id in st.frozen:
                return f"ship {s.id} changed hands this turn and may not trade (rule 11.5.3)"
        if isinstance(action, Buy):
            g = action.good
            entry = PRICES[where].get(g)
            if s.load is not None:
                return f"ship {s.id} already carries a load (rule 6.1.2: one load a ship)"
            if entry is None or not entry[1]:
                return f"{D.PORTS[where].name} does not sell {g} (rule 6.2)"
            if st.supply.get(g, 0) <= 0:
                return f"no {g} is left in the supply (rule 6.2)"
            return f"{g} costs {st.buy_price(where, g)} plus any fee; seat {p} has {st.cash[p]}"
        if isinstance(action, Sell):
            if s.load is None:
                return f"ship {s.id} carries nothing"
            entry = PRICES[where].get(s.load.good)
            if entry is None or not entry[2]:
                return f"{D.PORTS[where].name} does not buy {s.load.good} (rule 6.3)"
            if not st.can_sell_load(s.load, where):
                return f"the {s.load.good} has been carried only {s.load.odo} squares (10 needed, rule 6.3)"
            return f"seat {p} cannot pay the port fee out of cash and proceeds (D30: no debts)"
        if isinstance(action, Jettison) and s.load is None:
            return f"ship {s.id} carries nothing"
        if isinstance(action, Portage):
            if s.id in st.ported:
                return f"ship {s.id} has already sent a load across this turn"
            if not st.opts.isthmus_variant:
                return "the isthmus variant is off at this table (option isthmus_variant, D25)"
            if where not in D.ISTHMUS_PAIRS:
                return f"ship {s.id} is not in an isthmus port (Suez, Alexandria, Porto Bello, Panamá)"
        if isinstance(action, Collect):
            return f"seat {p} has no {action.good} in his {where} depot, or {s.id} is not an empty merchant"
        if isinstance(action, (Fit, Unfit)):
            if s.id in st.converted:
                return f"ship {s.id} was already converted this turn"
            if not st.can_convert(s):
                return "privateer sails are hoisted and struck only at home or at an own fortress (rule 9.1)"
            if s.load is not None:
                return f"ship {s.id} must be empty to become a privateer (rule 9.1)"
        if isinstance(action, SellShip) and st.opts.ship_sale_in_port_only:
            return f"ships are sold only in port here (ship_sale_in_port_only); {s.id} is at {where}"
    if isinstance(action, Fortress):
        c = action.city
        if c not in D.PORTS:
            return f"{c} is not a port city"
        if c in st.forts:
            return f"{D.PORTS[c].name} already has a fortress (D14: one a city)"
        if not st.fortress_allowed(p, c):
            return f"{D.PORTS[c].name} is another player's home city (D14)"
        if not any(s.owner == p and CODES[s.node] == c for s in st.ships.values()):
            return f"seat {p} has no ship in {D.PORTS[c].name} (rule 8.1)"
        if st.n_forts(p) >= 6:
            return "a player owns at most six fortresses (rule 8.1)"
        return f"a fortress costs 100; seat {p} has {st.cash[p]}"
    if isinstance(action, BuyShip):
        if st.n_ships(p) >= 6:
            return "a player owns at most six ships (rule 7.1)"
        return f"a ship costs {st.ship_cost()}; seat {p} has {st.cash[p]}"
    if isinstance(action, Attack):
        if st._effect("no_attacks"):
            return "Fred i Europa (C27) is in force: no attacks"
        d = action.defender
        if not 0 <= d < st.seats or d == p:
            return f"seat {d} is not an opponent"
        if st.truce_with(p, d):
            return f"a truce with seat {d} is in force (rule 11.6)"
        x = INDEX.get(action.square)
        if x is None:
            return f"there is no square {action.square}"
        ships, fort = st.defending_units(d, x)
        u = len(ships) + int(fort)
        if not u:
            if IS_PORT[x] and any(s.owner == d and s.node == x for s in st.ships.values()):
                return "ships in a port without a fortress cannot be attacked (rule 9.2.2)"
            return f"seat {d} has nothing to attack on {action.square}"
        n = len(st.attack_candidates(p, x))
        return f"{u} defending unit(s) on {action.square} but only {n} privateer(s) can reach it (rule 9.2.3)"
    if isinstance(action, (Home, Chart)):
        return f"{generic}: the set-up and charts are over"
    return generic
