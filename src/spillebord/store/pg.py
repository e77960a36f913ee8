"""PostgreSQL's one append path: batched group commit, in a process beside the event loop."""

from __future__ import annotations

import asyncio
import pickle
import struct
import sys
from contextlib import suppress
from typing import Any

from . import pgwriter
from .db import libpq_url
from .records import NewAction, Note, SeqConflict, StoreError

Pending = tuple[NewAction, Note | None, "asyncio.Future[None]"]


class AppendFailed(StoreError):
    """The appender process could not store a batch (its error's type and message)."""


class PgAppender:
    """Actions from every table of this process are stored in batches by a process of its
    own (:mod:`spillebord.store.pgwriter`), one statement (one transaction, one WAL flush) a
    batch, beside the event loop: the loop hands a batch over in one write and takes the
    answer in one read. (A psycopg connection on the loop needed a turn of the loop for each
    step of the round trip, and in a thread it waited for the GIL at each step.)

    One batch in flight: a batch takes whatever waits when the last one is answered (group
    commit). If the process dies, a new one takes the batch again (safe: ``ON CONFLICT DO
    NOTHING``; an action the old one stored comes back as taken, :class:`SeqConflict`).
    """

    def __init__(self, url: str, max_batch: int = 256) -> None:
        self.conninfo = libpq_url(url)
        self.max_batch = max_batch
        self.restarts = 0
        """New processes after the first (one died)."""
        self._queue: asyncio.Queue[Pending | None] = asyncio.Queue()
        self._proc: asyncio.subprocess.Process | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = False

    @property
    def pid(self) -> int | None:
        """The appender process's id (None before :meth:`start`)."""
        return self._proc.pid if self._proc is not None else None

    async def start(self) -> None:
        await self._spawn()
        self._task = asyncio.create_task(self._run())

    async def _spawn(self) -> None:
        # -I: the standard library and the installed packages only (not the server's
        # PYTHONPATH, nor the script's folder); its own session: a Ctrl-C at the terminal
        # is the server's to handle, and the process ends when the server closes its input.
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-I",
            pgwriter.__file__,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
        self._proc = proc
        try:
            await self._send(self.conninfo)
            reply = await self._recv()
        except (OSError, asyncio.IncompleteReadError) as e:
            reply = ("error", type(e).__name__, "the appender process ended before it connected")
        if reply[0] != "ready":
            with suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
            raise AppendFailed(f"PostgreSQL's appender could not connect ({reply[1]}: {reply[2]})")

    async def _send(self, msg: object) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        data = pickle.dumps(msg, protocol=pickle.HIGHEST_PROTOCOL)
        self._proc.stdin.write(struct.pack(">I", len(data)) + data)
        await self._proc.stdin.drain()

    async def _recv(self) -> Any:
        assert self._proc is not None and self._proc.stdout is not None
        (n,) = struct.unpack(">I", await self._proc.stdout.readexactly(4))
        return pickle.loads(await self._proc.stdout.readexactly(n))

    async def append(self, action: NewAction, notify: Note | None = None) -> None:
        """Store ``action`` (committed when this returns); :class:`SeqConflict` if its number is taken."""
        if self._closing:
            raise AppendFailed("the server is closing: PostgreSQL's appender takes no more actions")
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((action, notify, fut))
        await fut

    async def _trip(self, items: list[pgwriter.Item]) -> Any:
        """The answer to one batch, from a new process if the last one died (once)."""
        for attempt in (1, 2):
            try:
                await self._send(items)
                return await self._recv()
            except (OSError, asyncio.IncompleteReadError):
                if attempt == 2:
                    raise AppendFailed("PostgreSQL's appender process ended twice in a batch") from None
                if self._proc is not None:
                    with suppress(ProcessLookupError):
                        self._proc.kill()
                    await self._proc.wait()
                self.restarts += 1
                await self._spawn()
        raise AssertionError("unreachable")

    async def _run(self) -> None:
        while (first := await self._queue.get()) is not None:
            batch = [first]
            while len(batch) < self.max_batch and not self._queue.empty():
                nxt = self._queue.get_nowait()
                if nxt is None:  # closing: this batch is the last
                    self._queue.put_nowait(None)
                    break
                batch.append(nxt)
            items: list[pgwriter.Item] = [
                (
                    a.table_id,
                    a.seq,
                    a.seat,
                    a.action,
                    a.status,
                    a.time,
                    a.outcome,
                    a.scores,
                    a.truncated,
                    note,
                )
                for a, note, _ in batch
            ]
            try:
                reply = await self._trip(items)
            except Exception as e:
                reply = ("error", type(e).__name__, str(e))
            if reply[0] == "ok":
                stored = {(t, q) for t, q in reply[1]}
                for a, _, fut in batch:
                    if fut.done():
                        continue
                    if (a.table_id, a.seq) in stored:
                        fut.set_result(None)
                    else:
                        fut.set_exception(
                            SeqConflict(f"action {a.seq} of table {a.table_id} is already stored")
                        )
            else:
                for _, _, fut in batch:
                    if not fut.done():
                        fut.set_exception(AppendFailed(f"{reply[1]}: {reply[2]}"))

    async def close(self) -> None:
        """Store what waits, then end the process."""
        self._closing = True
        if self._task is not None:
            self._queue.put_nowait(None)
            try:
                await asyncio.wait_for(self._task, 30)
            except (TimeoutError, Exception):
                self._task.cancel()
                with suppress(asyncio.CancelledError, Exception):
                    await self._task
        proc = self._proc
        if proc is not None:
            if proc.stdin is not None:
                proc.stdin.close()
            try:
                await asyncio.wait_for(proc.wait(), 10)
            except TimeoutError:
                with suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
