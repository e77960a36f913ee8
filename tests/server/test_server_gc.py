"""The server's garbage-collector tuning (Maintenance.tune_gc, full_gc): what survives a
collection of the oldest generation is frozen, so the next one looks only at what came
since; garbage cycles among the frozen wait for the full collection every
``gc_full_every`` seconds."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from spillebord.server.clock import FakeClock
from spillebord.server.errors import Config
from spillebord.server.maintenance import OLD_NEVER, Maintenance


class Node:
    """A garbage cycle when dropped: it refers to itself."""

    def __init__(self) -> None:
        self.me = self


def tracked(obj: object) -> bool:
    """Whether the collector looks at ``obj`` (frozen objects are in no generation)."""
    return any(o is obj for o in gc.get_objects())


@pytest.fixture
def tuned() -> Iterator[Any]:
    threshold = gc.get_threshold()
    made: list[Maintenance] = []

    def make(**settings: Any) -> tuple[Maintenance, FakeClock]:
        clock = FakeClock()
        parts: Any = SimpleNamespace(checkpoint=None)
        m = Maintenance(clock, Config(**settings), parts, parts, parts, parts)
        m.tune_gc()
        made.append(m)
        return m, clock

    yield make
    for m in made:
        asyncio.run(m.stop())
    gc.set_threshold(*threshold)
    assert gc.get_freeze_count() == 0  # stop() gave the frozen objects back


def test_the_survivors_of_a_full_collection_are_frozen(tuned: Any) -> None:
    tuned(gc_full_every=600, gc_young=700, gc_middle=10, gc_old=50)
    assert gc.get_threshold() == (700, 10, 50)
    node = Node()
    assert tracked(node)
    gc.collect()  # node survives it, and is frozen
    assert not tracked(node) and gc.get_freeze_count() > 0
    dead = weakref.ref(node)
    del node
    gc.collect()  # the cycle is frozen: not looked at
    assert dead() is not None


def test_the_periodic_full_collection_frees_frozen_cycles(tuned: Any) -> None:
    m, clock = tuned(gc_full_every=600)
    node = Node()
    gc.collect()
    dead = weakref.ref(node)
    del node
    clock.advance(599)
    assert m.full_gc() is None  # not yet
    assert dead() is not None
    clock.advance(2)
    took = m.full_gc()
    assert took is not None and took >= 0
    assert dead() is None
    assert gc.get_freeze_count() > 0  # what survived it is frozen again
    assert m.full_gc() is None  # the next one 600 s later


def test_without_freezing_every_collection_looks_at_everything(tuned: Any) -> None:
    m, clock = tuned(gc_full_every=0)
    node = Node()
    gc.collect()
    assert tracked(node)
    dead = weakref.ref(node)
    del node
    gc.collect()
    assert dead() is None
    clock.advance(10_000)
    assert m.full_gc() is None


def test_by_default_the_oldest_generation_waits_for_the_full_collection(tuned: Any) -> None:
    m, clock = tuned(gc_full_every=600, gc_young=700, gc_middle=10)
    assert gc.get_threshold() == (700, 10, OLD_NEVER)
    node = Node()
    gc.collect(1)
    gc.collect(1)  # node is in the oldest generation now, where no automatic collection looks
    dead = weakref.ref(node)
    del node
    gc.collect(1)
    assert dead() is not None
    clock.advance(601)
    assert m.full_gc() is not None
    assert dead() is None


def test_python_own_collector_keeps_its_oldest_generation(tuned: Any) -> None:
    tuned(gc_full_every=0, gc_young=700, gc_middle=10)
    assert gc.get_threshold() == (700, 10, 10)
