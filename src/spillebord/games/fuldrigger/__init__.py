"""Fuldrigger — et spil om handel og magt (trade and power under sail), 2–4 players.

Each of you runs a trading company with a home port in Europe (København, Amsterdam, London
or Lisboa), 100 ducats and three ships. Buy goods where a city sells them (K on its price
list), carry them at least 10 squares and sell them where a city buys them (S). Buy more
ships, build fortresses (fees from rivals, better prices, shelter from pirates), fit out
privateers and attack rival ships, or make offers: cash, ships, fortresses and truces. After
the last round (30 by default) the greatest wealth wins: cash + ships + 100 a fortress + what
your loads cost.

Your turn: the banker turns a chance card, three dice give M, the squares every one of your
ships may sail this turn; then, in any order, until you type ``end``:

  sail s1 DOVR       start ship s1's move (then ``sail s1 KAN1``… one square at a time, or
                     ``stop``); entering a port ends the move; hazards strike on entry
  buy s1 Ma          buy a load in port (one per ship)     sell s1      sell it
  jettison s1        throw the load overboard
  buyship            a new ship in your home port (100)    sellship s1  to the bank (75)
  fortress CAN       build a fortress where a ship of yours lies (100)
  fit s1 / unfit s1  hoist or strike a privateer sail (home port or own fortress)
  attack 1 AZOR      attack seat 1's ships (and fortress) on AZOR with privateers:
                     ``join s4``… then ``launch``, sail each in (``sail s4 AZ3``…);
                     then ``lose sN`` or ``seize sN|fort``
  offer 1            draft an offer to seat 1: ``give cash 100``, ``give cash 30``
                     (sums digit by digit: 130), ``ask fort CAN``, ``give ship s3``,
                     ``give load ALX:Ka``, ``truce 3``…, then ``send`` (or ``cancel``);
                     the other side answers ``accept o1``, ``decline o1``, ``later``
                     or ``counter o1``
  end                end the turn

In every other player's turn you have a negotiation window after the roll: make or answer
offers, then ``pass``.

Hazards: Medvind +3, Modvind −3, Storm (2–3 on 2d6 sinks), Isbjerg (5 sinks), Vindstille
(7 or less: becalmed a turn), Farlige skær (2–3 wrecks unless you know the reef; otherwise
you learn it), Piratfarvand (2–3 ship lost, 4 cargo lost; not for privateers or near your
own fortress). The full rules: docs/rules/fuldrigger.md.
"""

from __future__ import annotations

from . import bots
from .actions import (
    Accept,
    Ask,
    Attack,
    Buy,
    BuyShip,
    Cancel,
    Chart,
    Collect,
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
    Order,
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
from .bots import TraderAgent
from .options import FuldriggerOptions
from .pieces import Load, Offer, Ship
from .rules import FuldriggerGame, FuldriggerState

GAME = FuldriggerGame()
bots.register(GAME)

__all__ = [
    "GAME",
    "Accept",
    "Ask",
    "Attack",
    "Buy",
    "BuyShip",
    "Cancel",
    "Chart",
    "Collect",
    "Decline",
    "End",
    "Fit",
    "Fortress",
    "FuldriggerAction",
    "FuldriggerGame",
    "FuldriggerOptions",
    "FuldriggerState",
    "Give",
    "Home",
    "Jettison",
    "Join",
    "Later",
    "Launch",
    "Load",
    "Lose",
    "MakeOffer",
    "Offer",
    "Order",
    "Portage",
    "Sail",
    "Seize",
    "Sell",
    "SellShip",
    "Send",
    "Ship",
    "Stop",
    "TraderAgent",
    "Truce",
    "Unfit",
    "Withdraw",
]
