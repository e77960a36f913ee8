"""Maintenance: the periodic round (heartbeat, takeovers, stalled bots, checkpoints,
eviction of finished tables nobody watches) and the garbage collector's tuning."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from sqlalchemy.exc import DBAPIError

from .actionlog import Storage
from .bots import BotRunner
from .clock import Clock
from .errors import Config
from .presence import Presence
from .service import TableService

log = logging.getLogger("spillebord.server")

LAG_WARNING = 0.25
"""Seconds the event loop may be late on a round before it is logged."""
GC_WARNING = 0.1
"""Seconds a garbage collection may take before it is logged."""
OLD_NEVER = 2**31 - 1
"""A threshold of the oldest generation that is never reached (its count grows by one with
each collection of the middle generation, a few a second)."""


class Maintenance:
    def __init__(
        self,
        clock: Clock,
        config: Config,
        service: TableService,
        presence: Presence,
        bots: BotRunner,
        storage: Storage,
    ) -> None:
        self.clock = clock
        self.cfg = config
        self.service = service
        self.presence = presence
        self.bots = bots
        self.storage = storage
        self.checkpoint: Callable[[], Coroutine[Any, Any, None]] | None = storage.checkpoint
        """Database housekeeping, run in the background, one at a time (SQLite's WAL)."""
        self._last_idle = float("-inf")
        self._ckpt: asyncio.Task[None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._gc_cb: Callable[[str, dict[str, Any]], None] | None = None
        self._last_full = float("-inf")

    # ----------------------------------------------------------------- the collector

    def tune_gc(self) -> None:
        """Everything loaded so far (modules, rebuilt tables) lives as long as the process:
        keep it out of the collector's way, collect the oldest generation less often, and
        log collections long enough to be felt as latency.

        A collection of the oldest generation looks at every object that reached it (what
        survives one is frozen, so only those since), and at 1,000 tables that is some
        200,000, mostly the connections' coroutines: a pause of 200 ms every 20 s or so, which
        found almost nothing (garbage that lives that long and is caught in a cycle is rare, a
        few objects a second). So by default (``gc_old`` 0) the oldest generation is collected
        only by the full collection every ``gc_full_every`` seconds (:meth:`full_gc`).
        """
        gc.collect()
        gc.freeze()
        freeze = self.cfg.gc_full_every > 0
        old = self.cfg.gc_old or (OLD_NEVER if freeze else 10)
        gc.set_threshold(self.cfg.gc_young, self.cfg.gc_middle, old)
        started: list[float] = []
        clock = self.clock
        self._last_full = clock.monotonic()

        def cb(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                started[:] = [clock.monotonic()]
            elif started:
                dt = clock.monotonic() - started[0]
                generation = info.get("generation")
                if dt > GC_WARNING:
                    log.warning("garbage collection (generation %s) took %.0f ms", generation, dt * 1000)
                if freeze and generation == 2:
                    # Everything left is reachable now: the lists are consistent after a
                    # collection, and gc.freeze only moves them.
                    gc.freeze()

        self._gc_cb = cb
        gc.callbacks.append(cb)

    def full_gc(self, force: bool = False) -> float | None:
        """Collect everything, the frozen objects too, if ``gc_full_every`` seconds have
        passed (or ``force``), and freeze what is left; the seconds it took, or None."""
        every = self.cfg.gc_full_every
        now = self.clock.monotonic()
        if self._gc_cb is None or every <= 0 or (not force and now - self._last_full < every):
            return None
        gc.unfreeze()
        gc.collect()  # its callback freezes what survives
        self._last_full = self.clock.monotonic()
        dt = self._last_full - now
        log.info("full garbage collection: %.0f ms, %d objects kept", dt * 1000, gc.get_freeze_count())
        return dt

    # ----------------------------------------------------------------- the round

    def start(self) -> None:
        self._task = asyncio.create_task(self.run())

    async def run(self) -> None:
        tick = self.cfg.tick
        while True:
            t0 = self.clock.monotonic()
            await self.clock.sleep(tick)
            lag = self.clock.monotonic() - t0 - tick
            if lag > LAG_WARNING:
                log.warning("the event loop was blocked for %.0f ms", lag * 1000)
            try:
                await self.once()
            except asyncio.CancelledError:
                raise
            except DBAPIError as e:  # busy or lost: the next round tries again
                self.service.metrics.db_errors.labels("maintenance").inc()
                log.warning("maintenance: the database failed (%s)", str(e.orig or e).strip().splitlines()[0])
            except Exception:
                log.exception("maintenance failed")

    async def close_idle(self) -> list[str]:
        """Close the unfinished tables no person has been at for ``idle_hours`` (kept as
        records); at most once a minute."""
        hours = self.cfg.idle_hours
        now = self.clock.time()
        if hours <= 0 or now - self._last_idle < 60:
            return []
        self._last_idle = now
        ids = await self.storage.close_idle(now - hours * 3600, now)
        self.service.metrics.tables_closed.inc(len(ids))
        for tid in ids:
            log.info("table %s closed after %g hours without players", tid, hours, extra={"table": tid})
            self.service.close(tid)
            self.bots.forget(tid)
        return ids

    async def once(self) -> None:
        if self.checkpoint is not None and (self._ckpt is None or self._ckpt.done()):
            self._ckpt = asyncio.create_task(self.checkpoint())
        await self.close_idle()
        await self.presence.heartbeat()
        await self.presence.take_over()
        self.bots.watchdog()
        self.evict()
        self.full_gc()

    def evict(self) -> None:
        """Drop finished tables nobody here watches, ``evict_after`` seconds after their end
        (they are reloaded from the database if asked for)."""
        now = self.clock.monotonic()
        for lt in list(self.service.tables.values()):
            ended = lt.is_over or lt.closed
            if ended and not self.presence.watched(lt.id) and now - lt.changed > self.cfg.evict_after:
                self.service.evict(lt.id)
                self.bots.forget(lt.id)

    async def stop(self) -> None:
        for t in (self._task, self._ckpt):
            if t is not None:
                t.cancel()
                with contextlib.suppress(BaseException):
                    await t
        if self._gc_cb is not None:
            with contextlib.suppress(ValueError):
                gc.callbacks.remove(self._gc_cb)
            self._gc_cb = None
            gc.unfreeze()


__all__ = ["Maintenance"]
