"""The one append path of PostgreSQL: batched group commit on psycopg async connections."""

from __future__ import annotations

import asyncio
from contextlib import suppress
from typing import Any

import orjson
import psycopg

from .db import NOTIFY_CHANNEL, dumps_list, libpq_url
from .records import NewAction, Note, SeqConflict

_APPEND_BATCH = (
    """
    WITH data AS (
        SELECT * FROM json_to_recordset(%(rows)s::json) AS d(
            t text, q int, s int, a text, now float8, status text, n int, outcome text, scores text,
            truncated bool, p text, g int
        )
    ), ins AS (
        INSERT INTO sb_actions (table_id, seq, seat, action, created)
        SELECT t, q, s, a, now FROM data
        ON CONFLICT DO NOTHING
        RETURNING table_id, seq
    ), upd AS (
        UPDATE sb_tables SET status = d.status, n_actions = d.n, outcome = d.outcome, scores = d.scores,
                             truncated = d.truncated, updated = d.now
        FROM data d JOIN ins ON ins.table_id = d.t AND ins.seq = d.q
        WHERE sb_tables.id = d.t
        RETURNING sb_tables.id
    ), stored AS (
        SELECT ins.table_id, ins.seq, d.p, d.g FROM ins JOIN data d ON d.t = ins.table_id AND d.q = ins.seq
    ), sent AS (
        SELECT pg_notify('"""
    + NOTIFY_CHANNEL
    + """', '[' || string_agg(p, ',') || ']') FROM stored WHERE p <> '' GROUP BY g
    )
    SELECT table_id, seq, (SELECT count(*) FROM sent) FROM stored
"""
)
"""One batch: its actions come as one JSON parameter (a list of rows: one string for psycopg
to send, where twelve arrays cost it twice the CPU); the stored ones (those whose number was
free) move their tables on, and their notices go out as one notification per group ``g`` (a
JSON list of notices, at most :data:`NOTE_GROUP` bytes), not one per action."""

NOTE_GROUP = 7000
"""Bytes of notices in one notification (PostgreSQL's payload limit is 8000)."""

Pending = tuple[NewAction, Note | None, "asyncio.Future[None]"]


class AsyncPgAppender:
    """Actions from every table of this process are stored in batches, one statement (and
    so one transaction, one WAL flush) per batch, from psycopg async connections without
    threads. A batch takes whatever waits when a connection is free, so under light load it
    is one action and under heavy load it is many (group commit).

    One connection by default, so one batch in flight: a transaction that sends NOTIFY holds
    a lock of the whole PostgreSQL server from before its commit until its WAL is flushed,
    so such commits never overlap anyway; with more connections the batches were only
    smaller (more transactions per action: the database's CPU per action ~3 times as high at
    1,000 tables, and the appender's own per statement) and waited on that lock instead.

    Each action is inserted with ``ON CONFLICT DO NOTHING``: the ones that come back were
    stored (their tables updated, their notices sent with the commit); the others
    found their sequence number taken, :class:`SeqConflict`.
    """

    def __init__(self, url: str, connections: int = 1, max_batch: int = 256) -> None:
        self.conninfo = libpq_url(url)
        self.connections = connections
        self.max_batch = max_batch
        self._queue: asyncio.Queue[Pending | None] = asyncio.Queue()
        self._all: list[psycopg.AsyncConnection[Any]] = []
        self._workers: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        for _ in range(self.connections):
            conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
            self._all.append(conn)
            self._workers.append(asyncio.create_task(self._run(conn)))

    async def append(self, action: NewAction, notify: Note | None = None) -> None:
        """Store ``action`` (committed when this returns); :class:`SeqConflict` if its number is taken."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((action, notify, fut))
        await fut

    async def _run(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """One connection's worker: a batch of what waits, stored, then the next, in one task.
        (A dispatcher that handed each batch to a new task and took the connection back from
        a queue cost two more turns of the event loop a batch, each a wait behind every other
        ready callback at 1,000 tables.) Ends at the ``None`` that :meth:`close` queues."""
        while True:
            first = await self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self.max_batch and not self._queue.empty():
                item = self._queue.get_nowait()
                if item is None:
                    stop = True
                    break
                batch.append(item)
            conn = await self._store(conn, batch)
            if stop:
                return

    async def _store(
        self, conn: psycopg.AsyncConnection[Any], batch: list[Pending]
    ) -> psycopg.AsyncConnection[Any]:
        """Store ``batch`` on ``conn`` (or on a new connection if it broke, which it returns).
        Whatever goes wrong goes to the batch's waiters: the worker goes on."""
        try:
            params = {"rows": self._rows(batch)}
            for attempt in (1, 2):
                if conn.closed or conn.broken:
                    conn = await self._reconnect(conn)
                try:
                    cur = await conn.execute(_APPEND_BATCH, params)
                    stored = {(r[0], r[1]) for r in await cur.fetchall()}
                    break
                except psycopg.OperationalError:
                    # The backend went away (killed, restarted): once more on a new
                    # connection. Safe: an action the lost one did store comes back as
                    # taken (ON CONFLICT DO NOTHING), and its table catches up.
                    if attempt == 2 or not (conn.closed or conn.broken):
                        raise
        except Exception as e:
            for _, _, fut in batch:
                if not fut.done():
                    fut.set_exception(e)
            return conn
        for a, _, fut in batch:
            if fut.done():
                continue
            if (a.table_id, a.seq) in stored:
                fut.set_result(None)
            else:
                fut.set_exception(SeqConflict(f"action {a.seq} of table {a.table_id} is already stored"))
        return conn

    @staticmethod
    def _rows(batch: list[Pending]) -> str:
        """The batch as the statement's one JSON parameter, its notices grouped."""
        rows: list[dict[str, Any]] = []
        group = size = 0
        for a, note, _ in batch:
            # (bytes, not characters: orjson writes UTF-8 where json escaped to ASCII, and
            # PostgreSQL's payload limit is in bytes)
            pb = orjson.dumps(note) if note is not None else b""
            p = pb.decode()
            size += len(pb) + 1
            if size > NOTE_GROUP:
                group, size = group + 1, len(pb) + 1
            rows.append(
                {
                    "t": a.table_id,
                    "q": a.seq,
                    "s": a.seat,
                    "a": a.action,
                    "now": a.time,
                    "status": a.status,
                    "n": a.seq + 1,
                    "outcome": dumps_list(a.outcome),
                    "scores": dumps_list(a.scores),
                    "truncated": a.truncated,
                    "p": p,
                    "g": group,
                }
            )
        # (orjson: the standard library's encoder was a quarter of the appender's time in the
        # event loop at 1,000 tables)
        return orjson.dumps(rows).decode()

    async def _reconnect(self, conn: psycopg.AsyncConnection[Any]) -> psycopg.AsyncConnection[Any]:
        with suppress(ValueError):
            self._all.remove(conn)
        with suppress(Exception):
            await conn.close()
        fresh = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        self._all.append(fresh)
        return fresh

    async def close(self, timeout: float = 30.0) -> None:
        """Store what waits, then close the connections (a worker still busy after
        ``timeout`` seconds is cancelled)."""
        for _ in self._workers:
            self._queue.put_nowait(None)
        if self._workers:
            _, busy = await asyncio.wait(self._workers, timeout=timeout)
            for task in busy:
                task.cancel()
                with suppress(asyncio.CancelledError, Exception):
                    await task
        self._workers.clear()
        for conn in self._all:
            with suppress(Exception):
                await conn.close()
        self._all.clear()
