"""Build Fuldrigger positions directly (for tests, tutorials and puzzles).

``scenario(...)`` returns a state in the free phase of ``turn``'s turn with the given
ships, cash, fortresses and movement allowance; ``ScriptedDice`` makes the following die
rolls come out as written (``dice2(8, 3)`` gives two 2d6 rolls of 8 and 3).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from spillebord.core import Rng

from . import data as D
from .rules import FuldriggerOptions, FuldriggerState, Load, Ship


class ScriptedDice(Rng):
    """An Rng whose ``die`` calls return the scripted values first, then random ones."""

    __slots__ = ("script",)

    def __init__(self, values: Iterable[int], seed: int = 1) -> None:
        super().__init__(seed)
        self.script = list(values)

    def die(self, sides: int = 6) -> int:
        if self.script:
            return self.script.pop(0)
        return super().die(sides)

    def copy(self) -> ScriptedDice:
        r = ScriptedDice(self.script)
        r.s = self.s
        return r


def dice2(*sums: int) -> list[int]:
    """Die values giving these 2d6 sums, in order."""
    out: list[int] = []
    for n in sums:
        a = min(6, n - 1)
        out += [a, n - a]
    return out


def scenario(
    seats: int = 2,
    homes: Sequence[str] = ("LON", "AMS", "LIS", "KBH"),
    turn: int = 0,
    M: int = 9,
    cash: Sequence[int] | None = None,
    ships: Sequence[dict[str, Any]] = (),
    forts: dict[str, int] | None = None,
    options: FuldriggerOptions | None = None,
    reefs: Sequence[str] | None = None,
    round: int = 1,
    round_card: int | None = None,
    races: Sequence[int] = (),
    deck_top: Sequence[int] = (),
    dice: Iterable[int] = (),
    seed: int = 0,
) -> FuldriggerState:
    """A position in ``turn``'s free phase. Ships: dicts with ``owner``, ``at`` (a code) and
    optionally ``cargo`` = (good, price, odometer[, origin]), ``privateer``, ``value``,
    ``becalmed``; they get ids s1, s2… in order. Seat 0 is the first player and banker."""
    from . import GAME

    st = GAME.new(seats, seed, options)
    st.home = list(homes[:seats])
    st.first = 0
    st.banker = 0 if st.opts.banker_seat < 0 else st.opts.banker_seat
    st.home_queue = ()
    st.ships = {}
    st.next_ship = 0
    for spec in ships:
        st.next_ship += 1
        sid = f"s{st.next_ship}"
        load = None
        if spec.get("cargo"):
            c = spec["cargo"]
            origin = c[3] if len(c) > 3 else D.PORT_CODES[0]
            load = Load(c[0], c[1], c[2], origin)
            st.supply[c[0]] -= 1
        st.ships[sid] = Ship(
            sid,
            spec["owner"],
            D.INDEX[spec["at"]],
            bool(spec.get("privateer", False)),
            load,
            int(spec.get("value", 100)),
            int(spec.get("becalmed", 0)),
        )
    st.cash = list(cash) if cash is not None else [100] * seats
    st.bank_in, st.bank_out = 0, sum(st.cash)
    st.forts = dict(forts or {})
    if reefs is not None:
        st.reefs = [frozenset(r) for r in reefs]
    st.round = round
    st.turn = turn
    st.order_idx = turn
    st.round_card = round_card
    st.races = tuple(races)
    used = {*races, *([round_card] if round_card else [])}
    deck = [n for n in st.deck if n not in used and n not in deck_top]
    st.deck = deck + [n for n in reversed(deck_top) if n not in used]
    st.M = M
    st.phase = "free"
    st.to_act = turn
    st.rng = ScriptedDice(dice)
    st._legal = st._legal_set = None
    return st


def play(st: FuldriggerState, *texts: str) -> list[dict[str, Any]]:
    """Play actions by their texts; returns all events."""
    from . import GAME

    events: list[dict[str, Any]] = []
    for t in texts:
        events += st.play(GAME.parse(st, t))
    return events
