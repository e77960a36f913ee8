"""Build Fuldrigger positions directly (for tests, tutorials and puzzles).

``scenario(...)`` returns a state in the free phase of ``turn``'s turn with the given
ships, cash, fortresses and movement allowance; ``position(text)`` does the same from a
position written as text (see its docstring); ``ScriptedDice`` makes the following die
rolls come out as written (``dice2(8, 3)`` gives two 2d6 rolls of 8 and 3).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from spillebord.core import Rng

from . import data as D
from .options import FuldriggerOptions
from .pieces import Load, Ship
from .rules import FuldriggerState


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

    def die_at(self, key: int, index: int, sides: int = 6) -> int:
        if self.script:
            return self.script.pop(0)
        return super().die_at(key, index, sides)

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
    depots: Sequence[tuple[int, str, str, int, int, str]] = (),
) -> FuldriggerState:
    """A position in ``turn``'s free phase. Ships: dicts with ``owner``, ``at`` (a code) and
    optionally ``cargo`` = (good, price, odometer[, origin]), ``privateer``, ``value``,
    ``becalmed``; they get ids s1, s2… in order. Depot loads: (owner, port, good, price,
    odometer, origin). Seat 0 is the first player and banker."""
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
    for owner, port, good, price, odo, origin in depots:
        st.depots[(owner, port)] = (*st.depots.get((owner, port), ()), Load(good, price, odo, origin))
        st.supply[good] -= 1
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
    st._legal = None
    st._dbase = None
    st._dparts = None
    return st


def position(text: str) -> FuldriggerState:
    """A position written as text: items ``key: values``, one a line or separated by ``;``,
    ``#`` starts a comment. Ships get the ids s1, s2… in the order written::

        seats: 2; turn: 0; M: 9; round: 1; seed: 0
        homes: LON AMS
        cash: 300 100
        fort: CAN 1                       # a fortress and its owner
        ship: 0 AZOR privateer            # owner, square, then flags
        ship: 1 NAT3 cargo Te 50 7 CAN becalmed 1 value 75
        reefs: A B | -                    # per seat, '|' between seats, '-' for none
        card: 17                          # the round card in force
        races: 1 2                        # race cards waiting to be claimed
        deck: 7 8                         # the next chance cards, top first
        depot: 0 ALX Ka 40 3 SUE          # a depot load: owner, port, good, price, odometer, origin
        dice: 6 6 5                       # the next die rolls
        options: negotiation=false rounds_limit=4

    Everything not written is as :func:`scenario` makes it (seat 0 first player and banker,
    100 ducats each, homes London, Amsterdam, Lisboa, København).
    """
    from spillebord.core.options import build

    kw: dict[str, Any] = {}
    ships: list[dict[str, Any]] = []
    forts: dict[str, int] = {}
    depots: list[tuple[int, str, str, int, int, str]] = []
    for line in text.splitlines():
        for item in line.split("#", 1)[0].split(";"):
            if not item.strip():
                continue
            key, _, rest = item.partition(":")
            key, words = key.strip(), rest.split()
            if key in ("seats", "turn", "M", "round", "seed"):
                kw[key] = int(words[0])
            elif key == "card":
                kw["round_card"] = int(words[0])
            elif key in ("cash", "races", "deck", "dice"):
                kw[{"deck": "deck_top"}.get(key, key)] = [int(w) for w in words]
            elif key == "homes":
                kw["homes"] = tuple(words)
            elif key == "fort":
                forts[words[0]] = int(words[1])
            elif key == "reefs":
                kw["reefs"] = ["" if r.strip() == "-" else r.replace(" ", "") for r in rest.split("|")]
            elif key == "options":
                kw["options"] = build(FuldriggerOptions, dict(w.split("=", 1) for w in words))
            elif key == "ship":
                ships.append(_ship_spec(words))
            elif key == "depot":
                depots.append((int(words[0]), words[1], words[2], int(words[3]), int(words[4]), words[5]))
            else:
                raise ValueError(f"position: unknown item {key!r}")
    return scenario(ships=ships, forts=forts, depots=depots, **kw)


def _ship_spec(words: list[str]) -> dict[str, Any]:
    spec: dict[str, Any] = {"owner": int(words[0]), "at": words[1]}
    rest = words[2:]
    while rest:
        w = rest.pop(0)
        if w == "privateer":
            spec["privateer"] = True
        elif w == "cargo":
            good, price, odo, origin = rest[:4]
            spec["cargo"] = (good, int(price), int(odo), origin)
            rest = rest[4:]
        elif w in ("becalmed", "value"):
            spec[w] = int(rest.pop(0))
        else:
            raise ValueError(f"position: unknown ship word {w!r}")
    return spec
