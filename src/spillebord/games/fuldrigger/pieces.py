"""The records a Fuldrigger state holds: loads, ships, offers and an attack in progress.

Immutable named tuples: a state replaces a record rather than changing it, so copies of a
state share them.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeVar

from . import data as D

_T = TypeVar("_T", bound=tuple[Any, ...])
_tuple_new = tuple.__new__


def put(t: _T, i: int, v: Any) -> _T:
    """``t`` with field number ``i`` replaced by ``v`` (``_replace`` without its keyword
    machinery, for the hot paths)."""
    return _tuple_new(type(t), (*t[:i], v, *t[i + 1 :]))


class Load(NamedTuple):
    """A goods piece aboard (varebrik / ladning) with its purchase record."""

    good: str
    price: int
    odo: int
    origin: str


SHIP_NODE, SHIP_PRIVATEER, SHIP_LOAD, SHIP_BECALMED = 2, 3, 4, 6
"""Field numbers of :class:`Ship` (for :func:`put`)."""


class Ship(NamedTuple):
    """A ship (skib). ``becalmed``: 0 free, 2 becalmed this turn, 1 lies still this turn."""

    id: str
    owner: int
    node: int
    privateer: bool
    load: Load | None
    value: int
    becalmed: int


OFFER_FIELD = {
    "id": 0,
    "give_cash": 3,
    "give_forts": 4,
    "give_ships": 5,
    "get_cash": 6,
    "get_forts": 7,
    "get_ships": 8,
    "truce": 9,
    "give_loads": 11,
    "get_loads": 12,
}
"""Field numbers of :class:`Offer` (for :func:`put`; a test checks them against the fields)."""


class Offer(NamedTuple):
    """An offer (tilbud) between two players (rule 11): ``give_*`` from ``frm`` to ``to``,
    ``get_*`` from ``to`` to ``frm``."""

    id: int
    frm: int
    to: int
    give_cash: int = 0
    give_forts: tuple[str, ...] = ()
    give_ships: tuple[str, ...] = ()
    get_cash: int = 0
    get_forts: tuple[str, ...] = ()
    get_ships: tuple[str, ...] = ()
    truce: int = 0
    expires: int = 0
    give_loads: tuple[str, ...] = ()
    """Depot loads (rule 12) as ``PORT:good``, one entry per load."""
    get_loads: tuple[str, ...] = ()
    counter_of: int = 0
    """The offer this one answers (a counter-offer), 0 if none."""

    def is_empty(self) -> bool:
        return not (
            self.give_cash
            or self.give_forts
            or self.give_ships
            or self.get_cash
            or self.get_forts
            or self.get_ships
            or self.truce
            or self.give_loads
            or self.get_loads
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": f"o{self.id}",
            "from": self.frm,
            "to": self.to,
            "from_gives": {
                "cash": self.give_cash,
                "fortresses": list(self.give_forts),
                "ships": list(self.give_ships),
                "loads": list(self.give_loads),
            },
            "to_gives": {
                "cash": self.get_cash,
                "fortresses": list(self.get_forts),
                "ships": list(self.get_ships),
                "loads": list(self.get_loads),
            },
            "truce_rounds": self.truce,
            "label": "peace" if self.truce else "trade",
            "expires": self.expires,
            "counter_of": f"o{self.counter_of}" if self.counter_of else None,
        }

    def describe(self) -> str:
        def side(cash: int, forts: tuple[str, ...], ships: tuple[str, ...], loads: tuple[str, ...]) -> str:
            parts = [f"{cash} ducats"] if cash else []
            parts += [f"the {D.PORTS[c].name} fortress" for c in forts]
            parts += [f"ship {s}" for s in ships]
            parts += [f"a {ld.partition(':')[2]} load in the {ld.partition(':')[0]} depot" for ld in loads]
            return ", ".join(parts) or "nothing"

        t = f"; truce {self.truce} rounds" if self.truce else ""
        c = f" (a counter-offer to o{self.counter_of})" if self.counter_of else ""
        gives = side(self.give_cash, self.give_forts, self.give_ships, self.give_loads)
        gets = side(self.get_cash, self.get_forts, self.get_ships, self.get_loads)
        return f"seat {self.frm} gives {gives}, seat {self.to} gives {gets}{t}{c}"


class Attack(NamedTuple):
    """An attack in progress (handelskrig): the defender, the target node, the defending
    units counted at the declaration, the privateers nominated so far and, once launched,
    those still to sail in (the first is under way)."""

    defender: int
    target: int
    units: int
    joined: tuple[str, ...] = ()
    to_sail: tuple[str, ...] = ()
