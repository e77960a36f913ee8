"""Tensor observations: a seat's view as a fixed-length float32 vector.

Built from ``state.view(seat)`` only, so an observation never holds what the seat may not know
(the view is the contract's definition of that knowledge). The view is JSON; every leaf becomes a
*feature* with a key and a value, and each key goes to one of ``dim`` slots by a stable hash
(CRC-32; the same on every machine and Python run). The keys:

* a number (or a boolean) at path ``p`` (``players.1.cash``; list items by position):
  key ``p``, value ``sign(x)·log(1+|x|)`` (cash of 195 and a die of 3 on comparable scales);
* a string ``s`` at path ``p``: key ``p=s``, value 1 (``hand.0=9H``, ``phase=play``);
* a string inside a list also counts in the list's bag: key ``p[]=s``, value 1 (a hand as a
  set of cards, whatever their order); in a list of more than 12 items only the bag counts;
* ``null`` adds nothing.

Parts of the view that are the same in every position (a printed board's names and coordinates)
are found once per game (top-level entries of more than 200 characters that are equal in
several random positions) and left out: they carry nothing and cost time. Who acts
(``to_act``, ``seat``) is left out too; it is in the seat features below.

After the ``dim`` view slots come the seat features (``8`` slots: this seat one-hot) and the
action-path features of the current decision (see :mod:`spillebord.envs.tokens`): the count of
each token chosen so far in this decision (``V`` slots) and the last token one-hot (``V``
slots), so a policy knows how far along its sequential action it is.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from spillebord.core import JSON, AnyGame, Rng

DIM = 2048
"""Slots for the hashed view features."""
SEAT_SLOTS = 8
POSITIONAL = 12
"""Strings in a list longer than this count only in its bag (a pile of 30 captured cards)."""
_SKIP_ALWAYS = frozenset({"to_act", "seat"})

Array = npt.NDArray[np.float32]


def _squash(x: float) -> float:
    return math.copysign(math.log1p(abs(x)), x)


class Observer:
    """Encodes views of one game (and seat count) into vectors of a fixed shape."""

    __slots__ = ("dim", "game", "memo", "names", "paths", "seats", "size", "skip", "slot", "vocab_size")

    def __init__(self, game: AnyGame, seats: int, vocab_size: int, options: Any = None, dim: int = DIM):
        self.game, self.seats, self.dim, self.vocab_size = game, seats, dim, vocab_size
        self.size = dim + SEAT_SLOTS + 2 * vocab_size
        self.slot: dict[tuple[int, Any, Any], int] = {}
        self.paths: dict[tuple[int, Any], int] = {}
        self.names: list[str] = [""]
        self.memo: dict[tuple[str, str], tuple[list[int], list[float]]] = {}
        self.skip = _SKIP_ALWAYS | _static_keys(game, seats, options)

    def _index(self, key: tuple[int, Any, Any]) -> int:
        """The slot of a feature met for the first time: CRC-32 of its text key."""
        path, k, w = key
        name = self.names[path]
        text = f"{name}[]={w}" if k is _BAG else f"{name}.{k}" if w is _NUM else f"{name}.{k}={w}"
        i = self.slot[key] = zlib.crc32(text.encode("utf-8")) % self.dim
        return i

    def _child(self, path: int, k: Any) -> int:
        key = (path, k)
        c = self.paths[key] = len(self.names)
        self.names.append(f"{self.names[path]}.{k}" if path else str(k))
        return c

    def encode(self, view: JSON, seat: int, prefix: Sequence[int] = ()) -> Array:
        """The observation of ``seat`` from its view and the tokens chosen so far."""
        idx: list[int] = []
        val: list[float] = []
        skip = self.skip
        memo = self.memo
        if len(memo) > 50_000:
            memo.clear()
        top: dict[str, Any] = {}
        for k, v in view.items():
            if k in skip:
                continue
            kind = type(v)
            if kind is dict or kind is list:
                # Most of a view is unchanged from one step to the next: the features of each
                # container are remembered by its repr (made in C, far cheaper than a walk).
                key = (k, repr(v))
                got = memo.get(key)
                if got is None:
                    i0 = len(idx)
                    c = self.paths.get((0, k))
                    self._walk(self._child(0, k) if c is None else c, v, idx, val)
                    memo[key] = (idx[i0:], val[i0:])
                else:
                    idx += got[0]
                    val += got[1]
            else:
                top[k] = v
        self._walk(0, top, idx, val)
        out = np.empty(self.size, dtype=np.float32)
        dim = self.dim
        out[:dim] = np.bincount(idx, weights=val, minlength=dim) if idx else 0.0
        out[dim:] = 0.0
        out[dim + seat % SEAT_SLOTS] = 1.0
        if prefix:
            base = dim + SEAT_SLOTS
            for t in prefix:
                out[base + t] += 1.0
            out[base + self.vocab_size + prefix[-1]] = 1.0
        return out

    def _walk(self, path: int, v: dict[str, Any] | list[Any], idx: list[int], val: list[float]) -> None:
        # The hot path of every observation: leaves are handled inline (no call per leaf), and
        # features are keyed by (path id, key, value) tuples, whose hashes are cheap (no new
        # strings); the text of a key is made once, when it is first met.
        get = self.slot.get
        add_i, add_v = idx.append, val.append
        if isinstance(v, dict):
            items: Any = v.items()
            bag = False
        else:
            items = enumerate(v)
            bag = True
            positional = len(v) <= POSITIONAL
        for k, w in items:
            t = type(w)
            if t is str:
                if bag:
                    key = (path, _BAG, w)
                    i = get(key)
                    add_i(self._index(key) if i is None else i)
                    add_v(1.0)
                    if not positional:
                        continue
                key = (path, k, w)
                i = get(key)
                add_i(self._index(key) if i is None else i)
                add_v(1.0)
            elif t is int or t is bool or t is float:
                if w:
                    key = (path, k, _NUM)
                    i = get(key)
                    add_i(self._index(key) if i is None else i)
                    x = _SQUASHED.get(w)
                    add_v(_squash(float(w)) if x is None else x)
            elif t is dict or t is list or t is tuple:
                c = self.paths.get((path, k))
                self._walk(self._child(path, k) if c is None else c, w, idx, val)


_BAG = object()
_NUM = object()
_SQUASHED: dict[Any, float] = {i: _squash(float(i)) for i in range(-1000, 10001)}


def _static_keys(game: AnyGame, seats: int, options: Any, samples: int = 4) -> frozenset[str]:
    """Top-level view entries that are large and equal in every sampled position and seat."""
    seen: dict[str, str] = {}
    varying: set[str] = set()
    rng = Rng(12345)
    for n in range(samples):
        state = game.new(seats=seats, seed=1000 + n, options=options)
        for _ in range(5 + 7 * n):
            if state.to_act is None:
                break
            legal = state.legal()
            state.play(legal[rng.randrange(len(legal))])
        for seat in range(seats):
            for k, v in state.view(seat).items():
                text = json.dumps(v, sort_keys=True)
                if k in seen and seen[k] != text:
                    varying.add(k)
                seen.setdefault(k, text)
    return frozenset(k for k, text in seen.items() if k not in varying and len(text) > 200)
