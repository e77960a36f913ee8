"""Positions for tests, puzzles and perft: from keyword arguments, or from a short text.

A position is a turn about to be played: the card clock shows ``visible`` cards on places
0, 1, … and the card ``new`` turned up this turn by the active seat, which is to move.
Everything not given keeps the seeded deal (territories) or the defaults (stones, cats on
the yard). The text form names the same things, one ``key: value`` line each::

    seats: 2
    active: P1
    visible: E05 E14
    new: E28
    cats: P1 RB, P2 VB
    stones: 10 30
    owners: RB P1, LO P2
    options: series_needed=3 max_turns=80
    seed: 0

Blank lines and ``#`` comments are ignored; every line is optional (``seats`` defaults to 2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spillebord.core.errors import SpillebordError
from spillebord.core.options import build as build_options

from .data import EMPTY
from .options import RevirOptions

if TYPE_CHECKING:
    from .rules import RevirGame, RevirState


def build_position(
    game: RevirGame,
    seats: int = 2,
    *,
    active: int = 0,
    visible: tuple[str, ...] = (),
    new: str | None = None,
    cats: dict[int, str] | None = None,
    stones: tuple[int, ...] | None = None,
    owners: dict[str, int] | None = None,
    options: RevirOptions | None = None,
    seed: int = 0,
    resolve_once: bool = True,
) -> RevirState:
    """A position: ``visible`` cards on the clock (places 0..), ``new`` the card turned up this
    turn by seat ``active``, which is to move. Other territories keep the seeded deal; stones
    not given start at ``start_stones``; the bank holds the rest. ``new=None`` turns up a
    neutral card (the cream bowl, E28, or E29 if E28 is visible) without its instant part."""
    s = game.setup(seats, seed, options)
    geo = s.geo
    s.active = active
    if owners:
        owner = list(s.owner)
        for tid, seat in owners.items():
            owner[geo.tindex[tid]] = seat
        s.owner = tuple(owner)
    if stones is not None:
        s.stones = tuple(stones)
        s.bank = s.o.bank_total - sum(stones)
    if cats:
        pos = list(s.pos)
        for seat, q in cats.items():
            pos[seat] = geo.index[q]
        s.pos = tuple(pos)
    vis = [geo.card_index[c] for c in visible]
    if new is None:  # a neutral new card: the cream bowl, its instant part skipped
        new_i = geo.card_index["E28" if "E28" not in visible else "E29"]
        resolve_once = False
    else:
        new_i = geo.card_index[new]
    assert len(vis) < s.k and new_i not in vis and len(set(vis)) == len(vis)
    circle = [EMPTY] * s.k
    for n, c in enumerate(vis):
        circle[n] = c
    s.circle = tuple(circle)
    s.p = len(vis)
    s.t = len(vis) + 1
    s.pile = (new_i, *[i for i in range(geo.ncards) if i != new_i and i not in vis])
    s.known = 0
    s.eff = s._compute_effects()
    if resolve_once:
        s._resolve_once([])
    s.phase = "move"
    s.to_act = active
    s._legal = None
    return s


def _seat(word: str) -> int:
    w = word.strip().upper()
    if len(w) < 2 or w[0] != "P" or not w[1:].isdigit():
        raise SpillebordError(f"Revir position: {word!r} is not a seat (P1, P2, …)")
    return int(w[1:]) - 1


def _pairs(value: str) -> list[tuple[str, str]]:
    """``"P1 RB, P2 VB"`` → ``[("P1", "RB"), ("P2", "VB")]``."""
    out = []
    for item in value.split(","):
        words = item.split()
        if not words:
            continue
        if len(words) != 2:
            raise SpillebordError(f"Revir position: {item.strip()!r} is not a pair of two words")
        out.append((words[0], words[1].upper()))
    return out


def position_from_text(game: RevirGame, text: str) -> RevirState:
    """The position written as ``text`` (the form in the module docstring)."""
    fields: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        if not sep or key in fields:
            raise SpillebordError(f"Revir position: cannot read the line {raw.strip()!r}")
        fields[key] = value.strip()
    known = {"seats", "active", "visible", "new", "cats", "stones", "owners", "options", "seed"}
    unknown = sorted(set(fields) - known)
    if unknown:
        raise SpillebordError(f"Revir position: unknown keys {unknown}; known: {sorted(known)}")
    kw: dict[str, Any] = {}
    if "active" in fields:
        kw["active"] = _seat(fields["active"])
    if "visible" in fields:
        kw["visible"] = tuple(w.upper() for w in fields["visible"].split())
    if fields.get("new"):
        kw["new"] = fields["new"].upper()
    if "cats" in fields:
        kw["cats"] = {_seat(p): q for p, q in _pairs(fields["cats"])}
    if "stones" in fields:
        kw["stones"] = tuple(int(w) for w in fields["stones"].split())
    if "owners" in fields:
        kw["owners"] = {t: _seat(p) for t, p in _pairs(fields["owners"])}
    if "options" in fields:
        loose = dict(w.split("=", 1) for w in fields["options"].split())
        kw["options"] = build_options(RevirOptions, loose)
    if "seed" in fields:
        kw["seed"] = int(fields["seed"])
    return build_position(game, int(fields.get("seats", "2")), **kw)
