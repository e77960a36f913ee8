"""The hub: one per server process, a thin composition of the server's parts.

* :class:`~.service.TableService`: live tables over the action log: load, submit, catch up,
  what a seat sees;
* :class:`~.presence.Presence`: connections, broadcast, heartbeat, takeover of abandoned seats;
* :class:`~.bots.BotRunner`: bots play through ``decide`` with a budget, searching bots in
  worker processes (``Config.bot_processes``), the others on threads;
* :class:`~.lobby.Lobby`: games, create, join, summaries, history, records;
* :class:`~.maintenance.Maintenance`: the periodic round, checkpoints, eviction, GC tuning;
* :mod:`~.wire`: every message in and out; :mod:`~.clock`: the one source of time.

The hub wires them (who hears of a change) and speaks to the bus (other workers).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from spillebord.core import registry
from spillebord.store import Note

from .actionlog import Storage
from .bots import BotRunner
from .bus import Notes
from .clock import SYSTEM_CLOCK, Clock
from .errors import Config
from .guard import Limits
from .lobby import Lobby
from .maintenance import Maintenance
from .metrics import Metrics
from .presence import Presence
from .service import TableService

log = logging.getLogger("spillebord.server")


class Hub:
    def __init__(
        self,
        storage: Storage,
        config: Config | None = None,
        *,
        clock: Clock = SYSTEM_CLOCK,
        worker_id: str = "local",
        multi: bool = False,
        metrics: Metrics | None = None,
    ) -> None:
        self.cfg = config = config or Config()
        self.metrics = metrics or Metrics()
        self.storage = storage
        self.clock = clock
        self.notes = Notes(worker_id, multi)
        self.cpu = ThreadPoolExecutor(max(1, config.bot_threads), thread_name_prefix="sb-cpu")
        self.service = TableService(storage, clock, self.notes, self.cpu, self.metrics)
        self.presence = Presence(self.service, storage, clock, config, self.notes)
        self.bots = BotRunner(self.service, clock, config, self.cpu, self.metrics)
        self.lobby = Lobby(
            self.service,
            storage,
            self.presence,
            clock,
            self.notes,
            client_seeds=config.client_seeds,
            lobby_limit=config.lobby_limit,
        )
        self.limits = Limits(config, clock)
        self.maintenance = Maintenance(clock, config, self.service, self.presence, self.bots, storage)
        # Who hears of what: every change is broadcast (in order, under the table's lock);
        # after an action, a new table or a takeover, the table's bots may play.
        self.service.on_change.append(self.presence.broadcast)
        self.service.on_moved.append(self.bots.schedule)
        self.presence.on_seats.append(self.bots.schedule)
        self.metrics.bind(self.gauges)
        self._tasks: set[asyncio.Task[Any]] = set()
        self.recovering: asyncio.Task[None] | None = None
        """The background rebuild of unfinished tables after :meth:`start`."""

    async def start(self, maintain: bool = True) -> None:
        """Open the storage, close tables idle too long, and serve at once: the unfinished
        tables are rebuilt in the background (:attr:`recovering`; their bots play on), and a
        table asked for meanwhile is loaded on the spot. ``maintain``: tune the collector and
        start the maintenance round (tests run rounds by hand)."""
        registry.all_games()  # import every game now, on one thread (replays run on several)
        await self.storage.start()
        await self.maintenance.close_idle()
        await self.presence.fresh_start()
        self.recovering = asyncio.create_task(self._recover())
        if maintain:
            self.maintenance.tune_gc()
            self.maintenance.start()

    async def _recover(self) -> None:
        try:
            await self.service.recover()
        except asyncio.CancelledError:
            raise
        except Exception:  # the database went away meanwhile: tables load when asked for
            log.exception("rebuilding the unfinished tables failed")

    async def stop(self) -> None:
        if self.recovering is not None:
            self.recovering.cancel()
            with contextlib.suppress(BaseException):
                await self.recovering
        await self.maintenance.stop()
        await self.bots.stop()
        for t in list(self._tasks):
            t.cancel()
            with contextlib.suppress(BaseException):
                await t
        self.presence.close_all()
        await self.storage.close()
        self.cpu.shutdown(wait=False, cancel_futures=True)

    def gauges(self) -> dict[str, Any]:
        """The figures /metrics reads at scrape time."""
        tables: dict[str, int] = {}
        for lt in self.service.tables.values():
            tables[lt.status] = tables.get(lt.status, 0) + 1
        sockets = sum(
            1 for conns in self.presence.conns.values() for cs in conns.values() for c in cs if not c.closed
        )
        return {
            "tables": tables,
            "sockets": sockets,
            "bots_running": sum(map(self.bots.busy, self.bots.tasks)),
        }

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background (its failure is logged)."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    def on_bus(self, msg: Note) -> None:
        """A notice from another worker: catch up with its action, or re-read seats."""
        if self.notes.mine(msg):
            return
        lt = self.service.tables.get(str(msg.get("t")))
        if lt is None:
            return
        kind = msg.get("k")
        if kind == "a":
            s = msg.get("s")
            if isinstance(s, int) and s >= lt.seq:
                self.spawn(self.service.catch_up(lt))
        elif kind == "s":
            self.spawn(self.presence.reload_seats(lt, bots=False))
        elif kind == "u":  # another worker took an action back: rebuild from the store
            self.spawn(self.service.reload(lt))

    async def resync_all(self) -> None:
        """The bus reconnected (notices may have been lost): catch up with every table."""
        for lt in list(self.service.tables.values()):
            await self.service.catch_up(lt)
            await self.presence.reload_seats(lt, bots=False)


__all__ = ["Config", "Hub"]
