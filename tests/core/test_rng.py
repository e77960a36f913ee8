"""The RNG is the root of determinism: pinned outputs, copies, shuffles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from spillebord.core import Rng, draw_at


def test_outputs_are_pinned() -> None:
    # SplitMix64 reference values for seed 0 (these must never change: replays depend on them).
    r = Rng(0)
    assert [r.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_copy_continues_identically_and_independently() -> None:
    a = Rng(7)
    a.next64()
    b = a.copy()
    assert a == b
    assert [a.randrange(100) for _ in range(20)] == [b.randrange(100) for _ in range(20)]
    b.next64()
    assert a != b


@given(st.integers(0, 2**64 - 1), st.lists(st.integers(), max_size=30))
def test_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    xs = list(items)
    Rng(seed).shuffle(xs)
    assert sorted(xs) == sorted(items)


@given(st.integers(0, 2**64 - 1), st.integers(1, 1000))
def test_ranges(seed: int, n: int) -> None:
    r = Rng(seed)
    for _ in range(20):
        assert 0 <= r.randrange(n) < n
        assert 1 <= r.die() <= 6
        assert 0.0 <= r.random() < 1.0


def test_dice_are_roughly_uniform() -> None:
    r = Rng(1)
    counts = [0] * 6
    for _ in range(60_000):
        counts[r.die() - 1] += 1
    assert all(9_000 < c < 11_000 for c in counts), counts


@given(
    st.integers(0, 2**64 - 1) | st.sampled_from([0, 2**64 - 1, 2**64 - 0x9E3779B97F4A7C15]),
    st.integers(0, 300),
)
def test_draw_at_is_the_streams_draw_without_the_ones_before(key: int, index: int) -> None:
    r = Rng(key)
    for _ in range(index):
        r.next64()
    assert draw_at(key, index) == r.next64()
    # far addresses wrap as the stream does: draw 2**64 is draw 0 again
    assert draw_at(key, index + 2**64) == draw_at(key, index)


def test_die_at_leaves_the_generators_own_stream_alone() -> None:
    r = Rng(5)
    before = r.copy()
    rolls = [r.die_at(99, i) for i in range(12)]
    assert r == before
    assert rolls == [1 + draw_at(99, i) % 6 for i in range(12)]
    counts = [0] * 6
    for i in range(60_000):
        counts[r.die_at(12345, (i % 7) << 32 | i) - 1] += 1
    assert all(9_000 < c < 11_000 for c in counts), counts


def _fisher_yates(seed: int, xs: list[int]) -> int:
    """The shuffle's definition, one ``next64`` a step: what every length must give."""
    r = Rng(seed)
    for i in range(len(xs) - 1, 0, -1):
        j = r.next64() % (i + 1)
        xs[i], xs[j] = xs[j], xs[i]
    return r.s


@given(
    st.integers(0, 2**64 - 1) | st.sampled_from([0, 2**64 - 1, 2**64 - 0x9E3779B97F4A7C15]),
    st.integers(0, 1100) | st.sampled_from([5, 6, 7, 52, 104, 1024, 1025]),
)
def test_shuffle_draws_the_numbers_of_its_definition(seed: int, n: int) -> None:
    # Shuffles of 6-1024 items compute their draws at once in 128-bit lanes of one integer
    # (the state's wrap at 2**64 included): the same permutation and the same state after.
    want = list(range(n))
    state = _fisher_yates(seed, want)
    got = list(range(n))
    r = Rng(seed)
    r.shuffle(got)
    assert got == want
    assert r.s == state


PINNED_52 = [33, 38, 16, 43, 21, 26, 7, 20]  # the loop's draws, before the lanes


def test_a_shuffle_of_52_is_pinned() -> None:
    deck = list(range(52))
    r = Rng(2026)
    r.shuffle(deck)
    assert deck[:8] == PINNED_52 and r.s == (2026 + 51 * 0x9E3779B97F4A7C15) % 2**64
