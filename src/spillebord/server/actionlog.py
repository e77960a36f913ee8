"""The action-log protocol: what the table server stores, and two implementations.

* :class:`ActionLog`: tables and their logs: create a table, load it (seats and log), append
  action number ``seq`` (:class:`~spillebord.store.SeqConflict` if that number is taken: the
  one rule that makes concurrent submissions apply once), read a table's log from a number.
* :class:`SeatBook`: the seats: claim one, hand one to a bot and back, heartbeats.
* :class:`Storage`: both, with start, close and checkpoint.

:class:`MemoryLog` keeps everything in dicts (unit tests; several services on one
``MemoryLog`` behave as several workers on one database, notifications included).
:class:`StoreLog` is the database (:class:`~spillebord.store.Store`), always off the event
loop: SQLite from a writer thread and a reader thread, PostgreSQL from a thread pool, and
appends through :class:`~spillebord.store.AsyncPgAppender` (group commit).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Protocol, TypeVar

from spillebord.store import (
    ActionRec,
    AsyncPgAppender,
    NewAction,
    Note,
    SeatRec,
    SeatTaken,
    SeqConflict,
    Store,
    StoreError,
    TableRec,
)

T = TypeVar("T")


class ActionLog(Protocol):
    """Tables and their action logs."""

    async def create(self, rec: TableRec, notify: Note | None = None) -> None:
        """Store a new table with its seats (no actions)."""
        ...

    async def load(self, table_id: str) -> TableRec | None:
        """The table with its seats and whole log, or None."""
        ...

    async def append(self, action: NewAction, notify: Note | None = None) -> None:
        """Store action number ``action.seq`` and the table's new status, in one transaction
        (committed when this returns); :class:`SeqConflict` if that number is taken, and then
        nothing is stored. ``notify`` reaches the other workers if and only if it commits."""
        ...

    async def read(self, table_id: str, since: int = 0) -> list[ActionRec]:
        """The table's actions numbered ``since`` and later, in order."""
        ...

    async def seats(self, table_id: str) -> list[SeatRec]:
        """The table's seats, in order."""
        ...

    async def unfinished(self) -> list[str]:
        """Ids of the tables not over, oldest first."""
        ...

    async def listing(self, limit: int = 1000) -> list[TableRec]:
        """Public tables open or running (with seats, without logs), newest first."""
        ...

    async def close_idle(self, cutoff: float, now: float) -> list[str]:
        """Close the unfinished tables created before ``cutoff`` at which no person has been
        seen since (kept as records, status ``closed``); their ids."""
        ...

    async def undo(self, table_id: str, seq: int, now: float, notify: Note | None = None) -> ActionRec:
        """Take back action ``seq``, the table's last (undo inside a turn): removed from the log,
        kept in an audit trail; :class:`SeqConflict` if it is not the last. The action."""
        ...

    async def recent(self, limit: int = 20, offset: int = 0) -> list[TableRec]:
        """Public finished tables (with seats, without logs), the latest finished first."""
        ...

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Record the rematch of a finished table unless one is; the one recorded."""
        ...

    async def rematch_of(self, table_id: str) -> str | None:
        """The rematch recorded for a table, or None."""
        ...


class SeatBook(Protocol):
    """Who sits where, and who was seen when."""

    async def claim(
        self,
        table_id: str,
        seat: int | None,
        name: str,
        token_hash: str,
        now: float,
        notify: Note | None = None,
    ) -> int:
        """Give a free person's seat (``seat``, or the first free one) to ``token_hash``;
        :class:`~spillebord.store.SeatTaken` when taken or full."""
        ...

    async def set_takeover(
        self,
        table_id: str,
        seat: int,
        agent: str | None,
        now: float,
        cutoff: float | None = None,
        notify: Note | None = None,
    ) -> bool:
        """Let ``agent`` play a seat (``None``: give it back); with ``cutoff``, only if the seat
        is not taken over and was last seen before it. Whether it was done."""
        ...

    async def touch(self, seats: Sequence[tuple[str, int]], now: float) -> None:
        """Heartbeat: these (table, seat) have a live connection."""
        ...

    async def touch_unfinished(self, now: float) -> None:
        """Every seat of an unfinished table was seen now (server start: a fresh grace period)."""
        ...

    async def abandoned(self, cutoff: float) -> list[tuple[str, int]]:
        """People's seats of running tables, not taken over, last seen before ``cutoff``."""
        ...


class Storage(ActionLog, SeatBook, Protocol):
    async def start(self) -> None:
        """Create or upgrade the schema, open connections."""
        ...

    async def close(self) -> None: ...

    async def checkpoint(self) -> None:
        """Housekeeping of the database files (SQLite's WAL); may take a while, off the loop."""
        ...


# --------------------------------------------------------------------------- in memory


def _copy_table(rec: TableRec, actions: bool) -> TableRec:
    return dataclasses.replace(
        rec,
        options=dict(rec.options),
        seat_recs=[dataclasses.replace(s) for s in rec.seat_recs],
        actions=list(rec.actions) if actions else [],
        outcome=list(rec.outcome) if rec.outcome is not None else None,
        scores=list(rec.scores) if rec.scores is not None else None,
    )


class MemoryLog:
    """A :class:`Storage` in dicts, for unit tests.

    Every operation first yields to the event loop once, as a database round trip would, so
    that concurrent callers interleave. Notifications of committed changes go to every
    function in :attr:`listeners` (soon after, as NOTIFY does). ``fail_next_append`` makes
    the next append raise that error without storing anything.
    """

    def __init__(self) -> None:
        self.tables: dict[str, TableRec] = {}
        self.listeners: list[Callable[[Note], None]] = []
        self.fail_next_append: Exception | None = None
        self.appends = 0
        self.undone: list[tuple[str, ActionRec, float]] = []
        """Actions taken back: (table, action, when)."""
        self.rematches: dict[str, str] = {}

    def _notify(self, note: Note | None) -> None:
        if note is not None:
            loop = asyncio.get_running_loop()
            for listener in list(self.listeners):
                loop.call_soon(listener, dict(note))

    def _rec(self, table_id: str) -> TableRec:
        rec = self.tables.get(table_id)
        if rec is None:
            raise StoreError(f"no table {table_id!r}")
        return rec

    async def start(self) -> None:
        await asyncio.sleep(0)

    async def close(self) -> None:
        await asyncio.sleep(0)

    async def checkpoint(self) -> None:
        await asyncio.sleep(0)

    async def create(self, rec: TableRec, notify: Note | None = None) -> None:
        await asyncio.sleep(0)
        if rec.id in self.tables:
            raise StoreError(f"table {rec.id!r} exists")
        self.tables[rec.id] = _copy_table(rec, actions=False)
        self._notify(notify)

    async def load(self, table_id: str) -> TableRec | None:
        await asyncio.sleep(0)
        rec = self.tables.get(table_id)
        if rec is None:
            return None
        out = _copy_table(rec, actions=True)
        out.undone = sum(1 for t, _, _ in self.undone if t == table_id)
        return out

    async def append(self, action: NewAction, notify: Note | None = None) -> None:
        await asyncio.sleep(0)
        if self.fail_next_append is not None:
            e, self.fail_next_append = self.fail_next_append, None
            raise e
        rec = self._rec(action.table_id)
        if action.seq < len(rec.actions):
            raise SeqConflict(f"action {action.seq} of table {action.table_id} is already stored")
        if action.seq > len(rec.actions):
            raise StoreError(f"table {action.table_id}: action {action.seq} would leave a gap")
        rec.actions.append(ActionRec(action.seq, action.seat, action.action, action.time))
        rec.status, rec.n_actions, rec.updated = action.status, action.seq + 1, action.time
        rec.outcome = list(action.outcome) if action.outcome is not None else None
        rec.scores = list(action.scores) if action.scores is not None else None
        rec.truncated = action.truncated
        self.appends += 1
        self._notify(notify)

    async def read(self, table_id: str, since: int = 0) -> list[ActionRec]:
        await asyncio.sleep(0)
        rec = self.tables.get(table_id)
        return list(rec.actions[since:]) if rec is not None else []

    async def seats(self, table_id: str) -> list[SeatRec]:
        await asyncio.sleep(0)
        rec = self.tables.get(table_id)
        return [dataclasses.replace(s) for s in rec.seat_recs] if rec is not None else []

    async def unfinished(self) -> list[str]:
        await asyncio.sleep(0)
        recs = sorted(self.tables.values(), key=lambda r: r.created)
        return [r.id for r in recs if r.status in ("open", "running")]

    async def listing(self, limit: int = 1000) -> list[TableRec]:
        await asyncio.sleep(0)
        recs = sorted(self.tables.values(), key=lambda r: r.created, reverse=True)
        live = [r for r in recs if r.public and r.status in ("open", "running")]
        return [_copy_table(r, actions=False) for r in live[:limit]]

    async def undo(self, table_id: str, seq: int, now: float, notify: Note | None = None) -> ActionRec:
        await asyncio.sleep(0)
        rec = self._rec(table_id)
        if seq != len(rec.actions) - 1:
            raise SeqConflict(f"action {seq} of table {table_id} is not its last")
        a = rec.actions.pop()
        rec.n_actions, rec.updated = seq, now
        self.undone.append((table_id, a, now))
        self._notify(notify)
        return a

    async def recent(self, limit: int = 20, offset: int = 0) -> list[TableRec]:
        await asyncio.sleep(0)
        recs = sorted(self.tables.values(), key=lambda r: (-r.updated, r.id))
        done = [r for r in recs if r.public and r.status == "over"]
        return [_copy_table(r, actions=False) for r in done[offset : offset + limit]]

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        await asyncio.sleep(0)
        return self.rematches.setdefault(table_id, rematch_id)

    async def rematch_of(self, table_id: str) -> str | None:
        await asyncio.sleep(0)
        return self.rematches.get(table_id)

    async def close_idle(self, cutoff: float, now: float) -> list[str]:
        await asyncio.sleep(0)
        out = []
        for rec in self.tables.values():
            people = [s for s in rec.seat_recs if s.bot is None and s.token_hash is not None]
            seen = any(s.seen is not None and s.seen >= cutoff for s in people)
            if rec.status in ("open", "running") and rec.created < cutoff and not seen:
                rec.status, rec.updated = "closed", now
                out.append(rec.id)
        return out

    async def claim(
        self,
        table_id: str,
        seat: int | None,
        name: str,
        token_hash: str,
        now: float,
        notify: Note | None = None,
    ) -> int:
        await asyncio.sleep(0)
        rec = self._rec(table_id)
        seats = rec.seat_recs
        if seat is not None and not 0 <= seat < len(seats):
            raise StoreError(f"this table has seats 0–{len(seats) - 1}, not {seat}")
        candidates = [seat] if seat is not None else [s.seat for s in seats if s.free]
        got = next((s for s in candidates if seats[s].free), None)
        if got is None:
            raise SeatTaken(f"seat {seat} is taken" if seat is not None else "the table is full")
        seats[got].name, seats[got].token_hash, seats[got].seen = name, token_hash, now
        if rec.status == "open" and not any(s.free for s in seats):
            rec.status, rec.updated = "running", now
        self._notify(notify)
        return got

    async def set_takeover(
        self,
        table_id: str,
        seat: int,
        agent: str | None,
        now: float,
        cutoff: float | None = None,
        notify: Note | None = None,
    ) -> bool:
        await asyncio.sleep(0)
        s = self._rec(table_id).seat_recs[seat]
        if cutoff is not None and (s.takeover is not None or s.seen is None or s.seen >= cutoff):
            return False
        s.takeover, s.seen = agent, now
        self._notify(notify)
        return True

    async def touch(self, seats: Sequence[tuple[str, int]], now: float) -> None:
        await asyncio.sleep(0)
        for table_id, seat in seats:
            rec = self.tables.get(table_id)
            if rec is not None:
                rec.seat_recs[seat].seen = now

    async def touch_unfinished(self, now: float) -> None:
        await asyncio.sleep(0)
        for rec in self.tables.values():
            if rec.status in ("open", "running"):
                for s in rec.seat_recs:
                    s.seen = now

    async def abandoned(self, cutoff: float) -> list[tuple[str, int]]:
        await asyncio.sleep(0)
        return [
            (rec.id, s.seat)
            for rec in self.tables.values()
            if rec.status == "running"
            for s in rec.seat_recs
            if s.bot is None
            and s.token_hash is not None
            and s.takeover is None
            and s.seen is not None
            and s.seen < cutoff
        ]


# --------------------------------------------------------------------------- the database


class StoreLog:
    """The :class:`Storage` of a real database (:class:`~spillebord.store.Store`).

    No database call runs on the event loop: on SQLite writes go to one thread (the one
    writer) and reads to another (their own connection), so a write waiting on a lock that
    another process holds delays neither the loop nor any read; on PostgreSQL both go to a
    small pool of threads, and appends through :class:`~spillebord.store.AsyncPgAppender`.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        sqlite = store.is_sqlite
        self._exec = ThreadPoolExecutor(1 if sqlite else 4, thread_name_prefix="sb-db")
        self._rexec = ThreadPoolExecutor(2, thread_name_prefix="sb-db-read") if sqlite else self._exec
        self._appender = AsyncPgAppender(store.url) if store.is_pg else None
        self._pending: list[tuple[NewAction, asyncio.Future[None]]] = []
        """SQLite: actions waiting for the writer (stored together: one commit for all)."""
        self._flusher: asyncio.Task[None] | None = None

    async def _db(self, fn: Callable[..., T], *args: object) -> T:
        """A write (or a read that must see this process's last write first)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._exec, partial(fn, *args))

    async def _read(self, fn: Callable[..., T], *args: object) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._rexec, partial(fn, *args))

    async def start(self) -> None:
        await self._db(self.store.create_all)
        if self._appender is not None:
            await self._appender.start()

    async def close(self) -> None:
        if self._appender is not None:
            await self._appender.close()
        if self._flusher is not None:  # the actions on their way to the database get there
            with contextlib.suppress(Exception):
                await self._flusher
        self._exec.shutdown(wait=True, cancel_futures=True)
        if self._rexec is not self._exec:
            self._rexec.shutdown(wait=True, cancel_futures=True)

    async def checkpoint(self) -> None:
        if self.store.is_sqlite:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self._rexec, self.store.checkpoint)

    async def create(self, rec: TableRec, notify: Note | None = None) -> None:
        await self._db(self.store.create_table, rec, notify)

    async def load(self, table_id: str) -> TableRec | None:
        return await self._read(self.store.load_table, table_id)

    async def append(self, action: NewAction, notify: Note | None = None) -> None:
        if self._appender is not None:
            await self._appender.append(action, notify)
            return
        # SQLite (one worker, nobody to notify): group commit. The actions that arrive while
        # the writer commits go together in its next transaction: one trip to the writer
        # thread and one commit for all of them, however many tables act at once.
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((action, fut))
        if self._flusher is None:
            self._flusher = asyncio.get_running_loop().create_task(self._flush())
        await fut

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                results: list[BaseException | None]
                try:
                    results = list(await self._db(self.store.append_actions, [a for a, _ in batch]))
                except Exception as e:
                    results = [e] * len(batch)
                for (_, f), r in zip(batch, results, strict=True):
                    if f.done():
                        continue
                    if r is None:
                        f.set_result(None)
                    else:
                        f.set_exception(r)
        finally:
            self._flusher = None

    async def read(self, table_id: str, since: int = 0) -> list[ActionRec]:
        return await self._read(self.store.actions_since, table_id, since)

    async def seats(self, table_id: str) -> list[SeatRec]:
        return await self._read(self.store.load_seats, table_id)

    async def unfinished(self) -> list[str]:
        return await self._read(self.store.unfinished_ids)

    async def listing(self, limit: int = 1000) -> list[TableRec]:
        return await self._read(self.store.list_tables, ("open", "running"), True, limit)

    async def close_idle(self, cutoff: float, now: float) -> list[str]:
        return await self._db(self.store.close_idle, cutoff, now)

    async def undo(self, table_id: str, seq: int, now: float, notify: Note | None = None) -> ActionRec:
        return await self._db(self.store.undo_action, table_id, seq, now, notify)

    async def recent(self, limit: int = 20, offset: int = 0) -> list[TableRec]:
        return await self._read(self.store.finished_tables, limit, offset)

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        return await self._db(self.store.set_rematch, table_id, rematch_id)

    async def rematch_of(self, table_id: str) -> str | None:
        return await self._db(self.store.rematch_of, table_id)

    async def claim(
        self,
        table_id: str,
        seat: int | None,
        name: str,
        token_hash: str,
        now: float,
        notify: Note | None = None,
    ) -> int:
        return await self._db(self.store.claim_seat, table_id, seat, name, token_hash, now, notify)

    async def set_takeover(
        self,
        table_id: str,
        seat: int,
        agent: str | None,
        now: float,
        cutoff: float | None = None,
        notify: Note | None = None,
    ) -> bool:
        return await self._db(self.store.set_takeover, table_id, seat, agent, now, cutoff, notify)

    async def touch(self, seats: Sequence[tuple[str, int]], now: float) -> None:
        await self._db(self.store.touch, list(seats), now)

    async def touch_unfinished(self, now: float) -> None:
        await self._db(self.store.touch_running, now)

    async def abandoned(self, cutoff: float) -> list[tuple[str, int]]:
        return await self._read(self.store.abandoned, cutoff)


__all__ = ["ActionLog", "MemoryLog", "SeatBook", "Storage", "StoreLog"]
