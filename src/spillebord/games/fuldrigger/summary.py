"""Fuldrigger's end summary: each seat's wealth (formue, rule 13.3) by its parts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.summary import Summary, row

from .rules import FORT_PRICE

if TYPE_CHECKING:
    from .rules import FuldriggerState


def summary(state: FuldriggerState) -> Summary:
    """Cash, the purchase value of the ships, 100 per fortress, the purchase price of the goods
    (aboard and in depots); the wealth is their sum."""
    n = state.seats
    ships = [0] * n
    goods = [0] * n
    forts = [0] * n
    for s in state.ships.values():
        ships[s.owner] += s.value
        goods[s.owner] += s.load.price if s.load else 0
    for (q, _port), loads in state.depots.items():
        goods[q] += sum(ld.price for ld in loads)
    for o in state.forts.values():
        forts[o] += FORT_PRICE
    return Summary(
        rows=[
            row("cash", state.cash),
            row("ships", ships),
            row("fortresses", forts),
            row("goods", goods),
            row("wealth", state.wealths()),
        ],
        total="wealth",
    )
