"""The trader's imposed routes (``TraderAgent.routes``, used by tools/fuldrigger_routes.py to
measure what choosing a ship's route could gain): the ship sails to the imposed market and sells
there; without routes the trader is unchanged."""

from __future__ import annotations

from typing import Any

from spillebord.core import Rng, registry
from spillebord.games.fuldrigger import bots as FB
from spillebord.games.fuldrigger.data import CODES, INDEX

GAME = registry.get("fuldrigger")


def _loaded_sail() -> tuple[Any, Any, int]:
    """The first free decision of a trader game (seed 0) where the trader sails a loaded ship
    and another market's first step differs from the trader's: (state, ship, that market)."""
    s: Any = GAME.new(2, 0)
    trader = FB.TraderAgent(GAME)
    rng = Rng(1)
    while s.to_act is not None:
        seat = s.to_act
        if s.phase == "free":
            move = str(trader.act(s, seat, rng))
            if move.startswith("sail "):
                ship = next(x for x in s.ships_of(seat) if x.id == move.split()[1])
                if ship.load is not None:
                    plan = FB.plan_for(s.reefs[seat])
                    t = FB.target(s, ship)
                    for c in FB.SELLERS[ship.load.good]:
                        ci = INDEX[c]
                        if (
                            ci != t
                            and ship.load.odo + plan.steps[ci][ship.node] >= 10
                            and plan.next[ci][ship.node] != plan.next[t][ship.node]
                        ):
                            return s, ship, ci
        s.play(trader.act(s, seat, rng))
    raise AssertionError("no such decision")


def test_a_routed_ship_sails_towards_the_imposed_market_and_sells_there() -> None:
    s, ship, port = _loaded_sail()
    seat = ship.owner
    plain = FB.TraderAgent(GAME)
    routed = FB.TraderAgent(GAME)
    routed.routes = {ship.id: (port, None)}
    hop = CODES[FB.plan_for(s.reefs[seat]).next[port][ship.node]]
    assert str(routed.act(s, seat, Rng(0))) == f"sail {ship.id} {hop}"
    assert str(plain.act(s, seat, Rng(0))) != f"sail {ship.id} {hop}"
    # play on with the routed trader until the load leaves the ship: it is sold at the port
    c = s.copy()
    rng = Rng(0)
    for _ in range(2000):
        now = next((x for x in c.ships_of(seat) if x.id == ship.id), None)
        if now is None or now.load is None or c.to_act is None:
            break
        last = now
        c.play(routed.act(c, c.to_act, rng))
    assert now is not None and now.load is None  # neither sunk nor still carrying
    assert last.node == port


def test_without_routes_the_trader_is_the_trader() -> None:
    s: Any = GAME.new(2, 3)
    a, b = FB.TraderAgent(GAME), FB.TraderAgent(GAME)
    b.routes = {"s99": (INDEX["LON"], None)}  # no such ship: nothing changes
    rng = Rng(2)
    for _ in range(600):
        if s.to_act is None:
            break
        move = a.act(s, s.to_act, rng)
        assert b.act(s, s.to_act, rng) == move
        s.play(move)
