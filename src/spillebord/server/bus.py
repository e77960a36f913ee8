"""The bus that tells the other workers that a table changed.

* :class:`LocalBus` (SQLite, one worker): nothing to tell anyone; the hub broadcasts locally.
* :class:`PgBus` (PostgreSQL): the store sends ``pg_notify`` inside the transaction that
  stores an action (so it is sent if and only if the action is committed); this bus LISTENs on
  a psycopg 3 async connection and hands every notification to the hub. When the connection
  drops it reconnects and asks the hub to resynchronise every table it holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from spillebord.store import Note

log = logging.getLogger("spillebord.server")

Handler = Callable[[Note], None]


class Notes:
    """The notices this worker sends with its changes (none when it is the only worker):
    ``{"k": "a", "t": table, "w": worker, "s": seq}`` for an action, ``"k": "s"`` for seats.
    A notification carries one notice, or a JSON list of them (the actions of one batch)."""

    def __init__(self, worker_id: str, multi: bool) -> None:
        self.worker_id = worker_id
        self.multi = multi

    def note(self, kind: str, table_id: str, **kw: Any) -> Note | None:
        if not self.multi:
            return None
        return {"k": kind, "t": table_id, "w": self.worker_id, **kw}

    def mine(self, msg: Note) -> bool:
        return msg.get("w") == self.worker_id


class LocalBus:
    async def start(self, handler: Handler, on_reconnect: Callable[[], Awaitable[None]]) -> None:
        return None

    async def stop(self) -> None:
        return None


class PgBus:
    def __init__(self, conninfo: str, channel: str) -> None:
        self.conninfo = conninfo
        self.channel = channel
        self._task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    async def start(self, handler: Handler, on_reconnect: Callable[[], Awaitable[None]]) -> None:
        self._task = asyncio.create_task(self._run(handler, on_reconnect))
        # Do not serve before we listen, or we could miss a change.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), 15)

    async def _run(self, handler: Handler, on_reconnect: Callable[[], Awaitable[None]]) -> None:
        import psycopg

        first = True
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {self.channel}")
                    self.ready.set()
                    if not first:
                        await on_reconnect()
                    first = False
                    async for n in conn.notifies():
                        try:
                            msg = json.loads(n.payload)
                        except ValueError:
                            continue
                        if isinstance(msg, dict):
                            handler(msg)
                        elif isinstance(msg, list):  # the notices of one batch of actions
                            for m in msg:
                                if isinstance(m, dict):
                                    handler(m)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # connection lost: reconnect
                log.warning("LISTEN connection lost (%s); reconnecting", e)
                await asyncio.sleep(1)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
