"""What a seat sees of a Fuldrigger state, as JSON (``FuldriggerState.view`` delegates here).

Everything is public (rule 14) except the order of the chance deck, which is shown as its
size, and, with ``private_offers``, the offers between two other players.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import CODES, IS_PORT
from .pieces import Offer, Ship

if TYPE_CHECKING:
    from .rules import FuldriggerState


def ship_json(st: FuldriggerState, s: Ship) -> dict[str, Any]:
    load = s.load
    return {
        "id": s.id,
        "owner": s.owner,
        "at": CODES[s.node],
        "in_port": IS_PORT[s.node],
        "privateer": s.privateer,
        "cargo": (
            {"good": load.good, "price": load.price, "odometer": load.odo, "from": load.origin}
            if load
            else None
        ),
        "value": s.value,
        "becalmed": s.becalmed,
        "moved": s.id in st.moved,
        "frozen": s.id in st.frozen,
    }


def view(st: FuldriggerState, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator)."""
    private = st.opts.private_offers

    def visible(of: Offer) -> bool:
        return not private or seat in (of.frm, of.to)

    n = st.seats
    wealth = st.wealths()
    n_ships = [0] * n
    for s in st.ships.values():
        n_ships[s.owner] += 1
    forts: list[list[str]] = [[] for _ in range(n)]
    for c, o in sorted(st.forts.items()):
        forts[o].append(c)
    depots: list[dict[str, Any]] = [{} for _ in range(n)]
    for (q, port), loads in sorted(st.depots.items()):
        depots[q][port] = [ld._asdict() for ld in loads]
    players = [
        {
            "seat": p,
            "cash": st.cash[p],
            "home": st.home[p],
            "wealth": wealth[p],
            "ships": n_ships[p],
            "fortresses": forts[p],
            "reefs": sorted(st.reefs[p]),
            "eliminated": st.eliminated[p],
            "depots": depots[p],
        }
        for p in range(n)
    ]
    at = st.attack
    over = st.to_act is None
    outcome = st.outcome() if over else None
    return {
        "game": "fuldrigger",
        "phase": st.phase,
        "to_act": st.to_act,
        "seat": seat,
        "round": st.round,
        "rounds_limit": st.last_round,
        "turn": st.turn,
        "first": st.first,
        "banker": st.banker,
        "M": st.M,
        "moving": st.moving,
        "mp": st.mp if st.moving else None,
        "path": sorted(CODES[v] for v in st.visited) if st.moving else [],
        "players": players,
        "ships": [ship_json(st, s) for s in st.ships.values()],  # kept in id order
        "fortresses": dict(sorted(st.forts.items())),
        "supply": dict(st.supply),
        "chance": {
            "deck": len(st.deck),
            "discard": list(st.discard),
            "round_card": st.round_card,
            "races": list(st.races),
        },
        "offers": [of.to_json() for of in sorted(st.offers.values()) if visible(of)],
        "draft": st.draft.to_json() if st.draft and visible(st.draft) else None,
        "attack": (
            {
                "defender": at.defender,
                "square": CODES[at.target],
                "units": at.units,
                "joined": list(at.joined),
            }
            if at
            else None
        ),
        "truces": [[a, b, r] for (a, b), r in sorted(st.truces.items()) if r >= st.round],
        "sales": [[c, g, n] for (c, g), n in sorted(st.sales.items())],
        # The normalized outcome once the game is over (1 win, 0 loss, shares for a tie).
        "result": list(outcome) if outcome else None,
        "winners": st.winners() if over else None,
    }
