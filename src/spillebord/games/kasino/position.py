"""Build Kasino positions directly from a compact description (for tests and puzzles).

    position(["9H 2C", "KS 4D"], loose="3S 6D 2D 7D",
             builds=[(9, False, "7S+2H", 1)], to_act=0)

Cards not placed anywhere go to the stock (or, with ``stock=""`` or an explicit stock, are set
aside, so that the 52 cards stay conserved).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .data import CARD_INDEX, DECK, HAND_MASKS, HAND_VALUES, TABLE_LO_HI, TABLE_MASKS
from .options import KasinoOptions
from .rules import BuildPile, KasinoGame, KasinoState, rules_of


def cards(text: str) -> tuple[int, ...]:
    return tuple(CARD_INDEX[t.upper()] for t in text.replace(",", " ").split())


def position(
    hands: Sequence[str],
    loose: str = "",
    builds: Sequence[tuple[int, bool, str, int]] = (),
    *,
    to_act: int = 0,
    options: KasinoOptions | None = None,
    stock: str | None = None,
    built_last: Sequence[int] = (),
    piles: Sequence[str] | None = None,
    sweeps: Sequence[int] | None = None,
    last_capturer: int | None = None,
    totals: Sequence[int] | None = None,
    dealer: int | None = None,
    round_no: int = 1,
    hand_no: int = 1,
    seed: int = 0,
    **option_values: Any,
) -> KasinoState:
    """A state with the given hands (one string per seat), loose table cards, builds
    ``(value, multiple, "7D+2H|9C" groups, owner)``, and ``to_act``."""
    from . import GAME

    game: KasinoGame = GAME
    o = options or KasinoOptions(**option_values)
    n = len(hands)
    s = game.new(n, seed, o)
    hs = [tuple(sorted(cards(h))) for h in hands]
    table = cards(loose)
    bps = []
    for value, multiple, groups, owner in builds:
        gs = tuple(cards(g.replace("+", " ")) for g in groups.split("|"))
        bps.append(BuildPile(value, multiple, gs, owner))
    pl = [cards(p) for p in piles] if piles is not None else [() for _ in range(n)]
    used = [c for h in hs for c in h] + list(table) + [c for b in bps for c in b.cards()]
    used += [c for p in pl for c in p]
    st = cards(stock) if stock is not None else None
    if st is not None:
        used += st
    assert len(used) == len(set(used)), "a card is placed twice"
    rest = tuple(c for c in DECK if c not in set(used))
    s.hands = tuple(hs)
    s.loose = table
    s.builds = tuple(bps)
    s.piles = tuple(pl)
    if st is None:
        s.stock, s.set_aside = rest, ()
    else:
        s.stock, s.set_aside = st, rest
    s.sweeps = tuple(sweeps) if sweeps is not None else (0,) * n
    s.last_capturer = last_capturer
    s.built_last = sum(1 << i for i in built_last)
    if totals is not None:
        s.totals = tuple(totals)
    s.to_act = to_act
    s.leader = to_act
    s.dealer = dealer if dealer is not None else (to_act - 1) % n
    s.round_no = round_no
    s.hand_no = hand_no
    s._legal = None
    s._det = None
    s._hv = HAND_VALUES[o.value_mode]
    s._hm = HAND_MASKS[o.value_mode]
    s._tm = TABLE_MASKS[o.value_mode]
    s._hl = TABLE_LO_HI[o.value_mode]
    s._rules = rules_of(o)
    return s
