"""A small, fast, portable pseudo-random generator.

Every die and every shuffle in a game comes from the state's own :class:`Rng`, so a game
rebuilt from (game, options, seats, seed, actions) is identical byte for byte, on any
Python version. The generator is SplitMix64: its whole state is one integer, so copying a
game state copies its RNG for free (``random.Random`` carries 625 words).
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from struct import Struct
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

# Shuffles of 6 to 1024 items draw their n - 1 numbers at once, each in a 128-bit lane of one
# integer: the states s + k * gamma are an arithmetic progression, every step of the mixer is
# lane-wise (a lane is masked to 64 bits before each multiplication, so no product reaches the
# next lane), and the outputs come out with one ``struct`` unpack. The very numbers of the
# loop, in C instead of n - 1 Python steps: 1.7-1.8 times faster from 32 items, even at 6.
_LANES_FROM = 6
_LANES_TO = 1024
_Lanes = tuple[int, int, int, Callable[[bytes], tuple[int, ...]], int, tuple[int, ...], tuple[int, ...]]
_LANES: dict[int, _Lanes] = {}


def _lanes(n: int) -> _Lanes:
    """The constants of a shuffle of ``n`` items (made once per length)."""
    k = n - 1
    one = sum(1 << (128 * i) for i in range(k))
    steps = sum(((i + 1) * _GAMMA) << (128 * i) for i in range(k))  # < 2**128: masked later
    lanes = (one, steps, _MASK * one, Struct("<" + "Q8x" * k).unpack, 16 * k,
             tuple(range(k, 0, -1)), tuple(range(n, 1, -1)))  # fmt: skip
    _LANES[n] = lanes
    return lanes


def draw_at(key: int, index: int) -> int:
    """Draw number ``index`` (from 0) of the stream ``Rng(key)`` makes, without the draws
    before it: chance addressed by where it falls (a seat's turn, its n-th roll) rather than by
    how many draws the table made first. Two games of one deal then share those dice however
    differently their players acted before."""
    s = (key + (index + 1) * _GAMMA) & _MASK
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """SplitMix64. Deterministic, copyable, and good enough for shuffles and dice."""

    __slots__ = ("s",)

    def __init__(self, seed: int = 0) -> None:
        self.s = seed & _MASK

    def next64(self) -> int:
        self.s = s = (self.s + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randrange(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (n >= 1); modulo bias below 2**-40 for n < 2**24."""
        if n <= 0:
            raise ValueError("randrange() needs n >= 1")
        # next64() inlined: this is the hot call of every shuffle-free re-deal
        self.s = s = (self.s + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (z ^ (z >> 31)) % n

    def randint(self, a: int, b: int) -> int:
        """A uniform integer in ``[a, b]``, both ends included."""
        return a + self.randrange(b - a + 1)

    def die(self, sides: int = 6) -> int:
        """One roll of a die with ``sides`` faces: 1..sides."""
        return 1 + self.next64() % sides

    def die_at(self, key: int, index: int, sides: int = 6) -> int:
        """One roll of a die with ``sides`` faces, draw ``index`` of ``key``'s stream
        (:func:`draw_at`); this generator's own stream is left as it is. A method rather than
        the bare function so that a scripted generator (in tests) sets these dice as it sets
        :meth:`die`."""
        return 1 + draw_at(key, index) % sides

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    def choice(self, seq: Sequence[T]) -> T:
        # next64() inlined: every random player and bot calls this once a decision
        self.s = s = (self.s + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return seq[(z ^ (z >> 31)) % len(seq)]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates, in place: for i from the top down, swap ``seq[i]`` with
        ``seq[next64() % (i + 1)]``."""
        n = len(seq)
        if _LANES_FROM <= n <= _LANES_TO:
            one, steps, m, unpack, size, tops, mods = _LANES.get(n) or _lanes(n)
            s0 = self.s
            z = (s0 * one + steps) & m
            z = (((z ^ (z >> 30)) & m) * 0xBF58476D1CE4E5B9) & m
            z = (((z ^ (z >> 27)) & m) * 0x94D049BB133111EB) & m
            z = (z ^ (z >> 31)) & m
            self.s = (s0 + (n - 1) * _GAMMA) & _MASK
            for i, j in zip(tops, map(int.__mod__, unpack(z.to_bytes(size, "little")), mods), strict=True):
                seq[i], seq[j] = seq[j], seq[i]
            return
        s = self.s
        for i in range(len(seq) - 1, 0, -1):  # next64() inlined: the same draws, in order
            s = (s + _GAMMA) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = (z ^ (z >> 31)) % (i + 1)
            seq[i], seq[j] = seq[j], seq[i]
        self.s = s

    def shuffle_front(self, seq: MutableSequence[T], k: int) -> None:
        """Put a uniform random ordered choice of ``k`` items of ``seq`` in ``seq[:k]`` (the
        first ``k`` steps of a Fisher-Yates shuffle, in place); the others stay in ``seq[k:]``.

        For re-dealing a few hidden slots from many unseen cards: the ``k`` indices are the
        digits of one random number of enough 64-bit draws (mixed radix), with a bias below
        2**-40, instead of one draw each. Not the draws of :meth:`shuffle`."""
        n = len(seq)
        k = min(k, n)
        if k <= 0:
            return
        words = (k * n.bit_length() + 40 + 63) // 64
        x = 0
        for _ in range(words):
            x = (x << 64) | self.next64()
        for i in range(k):
            x, r = divmod(x, n - i)
            if r:
                j = i + r
                seq[i], seq[j] = seq[j], seq[i]

    def spawn(self) -> Rng:
        """An independent generator derived from this one (advances this one)."""
        return Rng(self.next64())

    def copy(self) -> Rng:
        r = Rng.__new__(Rng)
        r.s = self.s
        return r

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.s == self.s

    def __hash__(self) -> int:
        return hash(self.s)

    def __repr__(self) -> str:
        return f"Rng(state={self.s:#x})"
