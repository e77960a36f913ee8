"""The one way the server's parts read time: an injected :class:`Clock`.

Wall time (:meth:`Clock.time`, Unix seconds) is what is stored (action times, heartbeats,
``seen``); monotonic time (:meth:`Clock.monotonic`) measures intervals (idle tables, stalled
bots, event-loop lag, slow commits); :meth:`Clock.sleep` paces the loops. Tests use a
:class:`FakeClock` and move time by hand.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def time(self) -> float:
        """Wall-clock time, Unix seconds (what is stored and shown)."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (intervals only)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (of this clock)."""
        ...


class SystemClock:
    """The real clocks of the machine."""

    def time(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class FakeClock:
    """A clock that moves only when told (:meth:`advance`), or when someone sleeps on it: a
    sleep moves it forward by the time slept and yields to the event loop once."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.wall = start
        self.mono = 1000.0

    def time(self) -> float:
        return self.wall

    def monotonic(self) -> float:
        return self.mono

    def advance(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds

    async def sleep(self, seconds: float) -> None:
        self.advance(max(0.0, seconds))
        await asyncio.sleep(0)


SYSTEM_CLOCK = SystemClock()

__all__ = ["SYSTEM_CLOCK", "Clock", "FakeClock", "SystemClock"]
