"""Persistence of tables (SQLAlchemy 2): an SQLite file by default, PostgreSQL by URL.

A stored table is exactly what rebuilds it: game, options, seat count, seed, the seats
(name, bot, a hash of the seat token) and the action log, one row per action with a
per-table sequence number. ``(table_id, seq)`` is the primary key of the log, so two
concurrent submissions of "action number n" for one table insert exactly once: the second
gets :class:`SeqConflict` and must resynchronise.

Everything here is synchronous; the server calls it from a small thread pool (one thread,
one connection for SQLite: the one writer of the process).

Durability: SQLite runs in WAL mode with ``synchronous=NORMAL``. A committed transaction is
then in the WAL file when ``commit`` returns, so it survives the process being killed
(``kill -9``), which is what we promise (acknowledged actions are never lost to a server
crash). Only a power cut / OS crash could lose the last transactions, which NORMAL accepts
in exchange for not fsyncing every commit.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs
from sqlalchemy import (
    BigInteger,
    Boolean,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    make_url,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from spillebord.core.errors import SpillebordError

NOTIFY_CHANNEL = "spillebord"
log = logging.getLogger("spillebord.store")


class StoreError(SpillebordError):
    """A database URL we cannot use, or a stored table that is not there."""


class SeqConflict(Exception):
    """Another action was stored first under this sequence number."""


class SeatTaken(SpillebordError):
    """The seat asked for is taken (or the table is full)."""


# --------------------------------------------------------------------------- models


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "sb_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    seats: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[str] = mapped_column(Text)
    """JSON of the options dict."""
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    status: Mapped[str] = mapped_column(String(10), index=True)
    """open (free seats) | running | over"""
    n_actions: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)


class SeatRow(Base):
    __tablename__ = "sb_seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("sb_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(80), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    """The agent configured for this seat at creation (None: a human seat)."""
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    takeover: Mapped[str | None] = mapped_column(String(40), nullable=True)
    """The agent playing an abandoned human seat (None: not taken over)."""
    seen: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Last time a connection of this seat was known alive (heartbeat)."""


class ActionRow(Base):
    __tablename__ = "sb_actions"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("sb_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    """0 for the first action: the number of actions applied before this one."""
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    created: Mapped[float] = mapped_column(Float)


T_TABLES = TableRow.__table__
T_SEATS = SeatRow.__table__
T_ACTIONS = ActionRow.__table__

_PG_APPEND_SQL = """
    WITH ins AS (
        INSERT INTO sb_actions (table_id, seq, seat, action, created)
        VALUES (%(t)s, %(q)s, %(s)s, %(a)s, %(now)s)
        RETURNING seq
    ), upd AS (
        UPDATE sb_tables SET status = %(status)s, n_actions = %(n)s, result = %(result)s, updated = %(now)s
        WHERE id = %(t)s AND EXISTS (SELECT 1 FROM ins)
        RETURNING id
    )
    SELECT CASE WHEN %(p)s = '' THEN NULL ELSE pg_notify(%(ch)s, %(p)s) END FROM ins
"""

_PG_APPEND = text(
    """
    WITH ins AS (
        INSERT INTO sb_actions (table_id, seq, seat, action, created) VALUES (:t, :q, :s, :a, :now)
        RETURNING seq
    ), upd AS (
        UPDATE sb_tables SET status = :status, n_actions = :n, result = :result, updated = :now
        WHERE id = :t AND EXISTS (SELECT 1 FROM ins)
        RETURNING id
    )
    SELECT CASE WHEN :p = '' THEN NULL ELSE pg_notify(:ch, :p) END FROM ins
    """
)

# The statements of the hot path, built once (SQLAlchemy then reuses their compiled form).
_INSERT_ACTION = insert(T_ACTIONS).values(
    table_id=bindparam("t"),
    seq=bindparam("q"),
    seat=bindparam("s"),
    action=bindparam("a"),
    created=bindparam("now"),
)
_UPDATE_AFTER_ACTION = (
    update(T_TABLES)
    .where(T_TABLES.c.id == bindparam("t"))
    .values(
        status=bindparam("status"),
        n_actions=bindparam("n"),
        result=bindparam("result"),
        updated=bindparam("now"),
    )
)
_SELECT_SEATS = select(T_SEATS).where(T_SEATS.c.table_id == bindparam("t")).order_by(T_SEATS.c.seat)
_TOUCH = (
    update(T_SEATS)
    .where(T_SEATS.c.table_id == bindparam("t"), T_SEATS.c.seat == bindparam("s"))
    .values(seen=bindparam("now"))
)


# --------------------------------------------------------------------------- records


@dataclass
class SeatRec:
    seat: int
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    takeover: str | None = None
    seen: float | None = None

    @property
    def free(self) -> bool:
        return self.bot is None and self.token_hash is None


@dataclass
class TableRec:
    id: str
    game: str
    seats: int
    seed: int
    options: dict[str, Any]
    public: bool
    status: str
    n_actions: int
    result: list[float] | None
    created: float
    updated: float
    seat_recs: list[SeatRec] = field(default_factory=list)
    actions: list[tuple[int, int, str, float]] = field(default_factory=list)
    """(seq, seat, action text, time)"""


def _table_rec(r: Any) -> TableRec:
    return TableRec(
        id=r.id,
        game=r.game,
        seats=r.seats,
        seed=r.seed,
        options=json.loads(r.options or "{}"),
        public=bool(r.public),
        status=r.status,
        n_actions=r.n_actions,
        result=json.loads(r.result) if r.result else None,
        created=r.created,
        updated=r.updated,
    )


def _seat_rec(r: Any) -> SeatRec:
    return SeatRec(r.seat, r.name, r.bot, r.token_hash, r.takeover, r.seen)


# --------------------------------------------------------------------------- URLs


def default_sqlite_path() -> Path:
    return Path(platformdirs.user_data_dir("spillebord")) / "spillebord.sqlite3"


def resolve_url(db: str | None) -> tuple[str, str]:
    """(SQLAlchemy URL, a location to print) for ``--db``: None (the default SQLite file),
    a file path, ``sqlite:///path`` or ``postgresql://user@host/db``."""
    if not db:
        path = default_sqlite_path()
        return f"sqlite:///{path}", str(path)
    if db.startswith(("postgresql://", "postgres://")):
        url = "postgresql+psycopg://" + db.split("://", 1)[1]
    elif db.startswith("postgresql+psycopg://"):
        url = db
    elif db.startswith("sqlite:"):
        u = make_url(db)
        if not u.database or u.database == ":memory:":
            raise StoreError("an in-memory SQLite database would lose every table: give a file")
        return db, str(Path(u.database).resolve())
    elif "://" not in db:
        path = Path(db).expanduser().resolve()
        return f"sqlite:///{path}", str(path)
    else:
        raise StoreError(f"unsupported database URL {db!r}: use a file path, sqlite:/// or postgresql://")
    return url, make_url(url).render_as_string(hide_password=True)


def libpq_url(url: str) -> str:
    """The plain ``postgresql://`` form (for psycopg's own connections, LISTEN)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


# --------------------------------------------------------------------------- the store


class Store:
    """Repository of tables, seats and actions over one SQLAlchemy engine."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_pg = url.startswith("postgresql")
        self.is_sqlite = url.startswith("sqlite")
        # SQLite: one connection (the one writer of the process); a lock keeps threads off it
        # at the same time. PostgreSQL: a small pool.
        self._lock: threading.Lock | None = threading.Lock() if self.is_sqlite else None
        self._conn: Connection | None = None
        self._ckpt: sqlite3.Connection | None = None
        self.engine: Engine
        if self.is_sqlite:
            path = make_url(url).database
            if path:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            self.engine = create_engine(
                url,
                connect_args={"check_same_thread": False, "timeout": 30},
                pool_size=1,
                max_overflow=0,
            )

            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn: Any, _rec: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                # Durable against a crash of the process (see the module doc).
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.execute("PRAGMA busy_timeout=30000")
                # No checkpoint (the one step that fsyncs) inside a commit on the event loop:
                # :meth:`checkpoint` does it from a thread of its own.
                cur.execute("PRAGMA wal_autocheckpoint=0")
                cur.close()

        elif self.is_pg:
            self.engine = create_engine(url, pool_size=4, max_overflow=4, pool_pre_ping=True)
            self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        else:
            raise StoreError(f"unsupported database {url!r}")

    # Every unit of work runs in one transaction, serialised on SQLite.
    @contextmanager
    def _begin(self) -> Iterator[Any]:
        if self._lock is None:
            with self.engine.begin() as c:
                yield c
            return
        with self._lock:
            conn = self._sqlite_conn()
            with conn.begin():
                yield conn

    def _sqlite_conn(self) -> Connection:
        """The process's one SQLite connection (opened on first use, kept; lock held)."""
        if self._conn is None:
            self._conn = self.engine.connect()
        return self._conn

    def checkpoint(self) -> None:
        """Copy the WAL into the database file (SQLite), without blocking the writer.

        Runs on its own connection, from a thread: the writer's commits never wait for the
        disk. A no-op on PostgreSQL."""
        if not self.is_sqlite:
            return
        if self._ckpt is None:
            path = make_url(self.url).database
            self._ckpt = sqlite3.connect(path, check_same_thread=False, timeout=30)
        with suppress(sqlite3.Error):  # busy: the next one will do
            self._ckpt.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def create_all(self) -> None:
        if self.is_pg:
            # Several workers start at once: one creates the schema, the others wait.
            with self.engine.begin() as c:
                c.execute(text("SELECT pg_advisory_xact_lock(724242)"))
                Base.metadata.create_all(c)
        else:
            with self._begin() as c:
                Base.metadata.create_all(c)

    def dispose(self) -> None:
        if self._ckpt is not None:
            self._ckpt.close()
            self._ckpt = None
        if self._lock is not None:
            with self._lock:
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None
        self.engine.dispose()

    def _notify(self, c: Any, payload: dict[str, Any] | None) -> None:
        if payload is not None and self.is_pg:
            # Sent by PostgreSQL only when (and if) this transaction commits.
            c.execute(text("SELECT pg_notify(:ch, :p)"), {"ch": NOTIFY_CHANNEL, "p": json.dumps(payload)})

    def notify(self, payload: dict[str, Any]) -> None:
        if self.is_pg:
            with self._begin() as c:
                self._notify(c, payload)

    # ----------------------------------------------------------------- tables

    def create_table(self, rec: TableRec, notify: dict[str, Any] | None = None) -> None:
        with self._begin() as c:
            c.execute(
                insert(T_TABLES).values(
                    id=rec.id,
                    game=rec.game,
                    seats=rec.seats,
                    seed=rec.seed,
                    options=json.dumps(rec.options),
                    public=rec.public,
                    status=rec.status,
                    n_actions=0,
                    result=None,
                    created=rec.created,
                    updated=rec.updated,
                )
            )
            c.execute(
                insert(T_SEATS),
                [
                    {
                        "table_id": rec.id,
                        "seat": s.seat,
                        "name": s.name,
                        "bot": s.bot,
                        "token_hash": s.token_hash,
                        "takeover": None,
                        "seen": s.seen,
                    }
                    for s in rec.seat_recs
                ],
            )
            self._notify(c, notify)

    def load_table(self, table_id: str, with_actions: bool = True) -> TableRec | None:
        with self._begin() as c:
            row = c.execute(select(T_TABLES).where(T_TABLES.c.id == table_id)).first()
            if row is None:
                return None
            rec = _table_rec(row)
            rec.seat_recs = [
                _seat_rec(r)
                for r in c.execute(
                    select(T_SEATS).where(T_SEATS.c.table_id == table_id).order_by(T_SEATS.c.seat)
                )
            ]
            if with_actions:
                rec.actions = [
                    (r.seq, r.seat, r.action, r.created)
                    for r in c.execute(
                        select(T_ACTIONS).where(T_ACTIONS.c.table_id == table_id).order_by(T_ACTIONS.c.seq)
                    )
                ]
            return rec

    def load_seats(self, table_id: str) -> list[SeatRec]:
        with self._begin() as c:
            return [_seat_rec(r) for r in c.execute(_SELECT_SEATS, {"t": table_id})]

    def actions_since(self, table_id: str, seq: int) -> list[tuple[int, int, str, float]]:
        with self._begin() as c:
            return [
                (r.seq, r.seat, r.action, r.created)
                for r in c.execute(
                    select(T_ACTIONS)
                    .where(T_ACTIONS.c.table_id == table_id, T_ACTIONS.c.seq >= seq)
                    .order_by(T_ACTIONS.c.seq)
                )
            ]

    def unfinished_ids(self) -> list[str]:
        with self._begin() as c:
            return [
                r.id
                for r in c.execute(
                    select(T_TABLES.c.id).where(T_TABLES.c.status != "over").order_by(T_TABLES.c.created)
                )
            ]

    def list_tables(
        self, statuses: Sequence[str] = ("open", "running"), public_only: bool = True, limit: int = 1000
    ) -> list[TableRec]:
        with self._begin() as c:
            q = select(T_TABLES).where(T_TABLES.c.status.in_(list(statuses)))
            if public_only:
                q = q.where(T_TABLES.c.public.is_(True))
            rows = [_table_rec(r) for r in c.execute(q.order_by(T_TABLES.c.created.desc()).limit(limit))]
            if not rows:
                return rows
            by_id = {r.id: r for r in rows}
            for s in c.execute(
                select(T_SEATS).where(T_SEATS.c.table_id.in_(list(by_id))).order_by(T_SEATS.c.seat)
            ):
                by_id[s.table_id].seat_recs.append(_seat_rec(s))
            return rows

    # ----------------------------------------------------------------- actions

    def append_action(
        self,
        table_id: str,
        seq: int,
        seat: int,
        action: str,
        status: str,
        result: Sequence[float] | None,
        notify: dict[str, Any] | None = None,
    ) -> float:
        """Store action number ``seq``; :class:`SeqConflict` if that number is taken."""
        now = time.time()
        if self._lock is not None:
            return self._append_sqlite(table_id, seq, seat, action, status, result, now)
        if self.is_pg:
            return self._append_pg(table_id, seq, seat, action, status, result, now, notify)
        with self._begin() as c:
            try:
                c.execute(_INSERT_ACTION, {"t": table_id, "q": seq, "s": seat, "a": action, "now": now})
            except IntegrityError:
                raise SeqConflict(f"action {seq} of table {table_id} is already stored") from None
            c.execute(
                _UPDATE_AFTER_ACTION,
                {
                    "t": table_id,
                    "status": status,
                    "n": seq + 1,
                    "result": json.dumps(list(result)) if result is not None else None,
                    "now": now,
                },
            )
            self._notify(c, notify)
        return now

    @staticmethod
    def _append_params(
        table_id: str,
        seq: int,
        seat: int,
        action: str,
        status: str,
        result: Sequence[float] | None,
        now: float,
        notify: dict[str, Any] | None,
    ) -> dict[str, Any]:
        return {
            "t": table_id,
            "q": seq,
            "s": seat,
            "a": action,
            "now": now,
            "status": status,
            "n": seq + 1,
            "result": json.dumps(list(result)) if result is not None else None,
            "ch": NOTIFY_CHANNEL,
            "p": json.dumps(notify) if notify is not None else "",
        }

    def _append_pg(
        self,
        table_id: str,
        seq: int,
        seat: int,
        action: str,
        status: str,
        result: Sequence[float] | None,
        now: float,
        notify: dict[str, Any] | None,
    ) -> float:
        """The hot path on PostgreSQL: one statement (its own transaction) inserts the action,
        updates the table and queues the notification, which is sent when it commits. A taken
        sequence number fails the whole statement: nothing is applied."""
        params = self._append_params(table_id, seq, seat, action, status, result, now, notify)
        with self._autocommit.connect() as c:
            try:
                c.execute(_PG_APPEND, params)
            except IntegrityError:
                raise SeqConflict(f"action {seq} of table {table_id} is already stored") from None
        return now

    def _append_sqlite(
        self,
        table_id: str,
        seq: int,
        seat: int,
        action: str,
        status: str,
        result: Sequence[float] | None,
        now: float,
    ) -> float:
        """The hot path on SQLite, straight on the driver's connection: two statements and a
        commit (SQLAlchemy's bookkeeping would cost more than the database work)."""
        assert self._lock is not None
        res = json.dumps(list(result)) if result is not None else None
        t0 = time.perf_counter()
        with self._lock:
            raw = self._sqlite_conn().connection.driver_connection
            assert raw is not None
            try:
                raw.execute(
                    "INSERT INTO sb_actions (table_id, seq, seat, action, created) VALUES (?, ?, ?, ?, ?)",
                    (table_id, seq, seat, action, now),
                )
                raw.execute(
                    "UPDATE sb_tables SET status = ?, n_actions = ?, result = ?, updated = ? WHERE id = ?",
                    (status, seq + 1, res, now, table_id),
                )
                raw.commit()
            except sqlite3.IntegrityError:
                raw.rollback()
                raise SeqConflict(f"action {seq} of table {table_id} is already stored") from None
            except BaseException:
                raw.rollback()
                raise
        dt = time.perf_counter() - t0
        if dt > 0.2:
            log.warning("storing an action took %.0f ms", dt * 1000)
        return now

    # ----------------------------------------------------------------- seats

    def claim_seat(
        self,
        table_id: str,
        seat: int | None,
        name: str,
        token_hash: str,
        notify: dict[str, Any] | None = None,
    ) -> int:
        """Give a free human seat (``seat`` or the first free one) to ``token_hash``."""
        now = time.time()
        with self._begin() as c:
            rows = [
                _seat_rec(r)
                for r in c.execute(
                    select(T_SEATS).where(T_SEATS.c.table_id == table_id).order_by(T_SEATS.c.seat)
                )
            ]
            if not rows:
                raise StoreError(f"no table {table_id!r}")
            if seat is not None:
                if not 0 <= seat < len(rows):
                    raise StoreError(f"this table has seats 0–{len(rows) - 1}, not {seat}")
                candidates = [seat]
            else:
                candidates = [r.seat for r in rows if r.free]
            got = None
            for s in candidates:
                res = c.execute(
                    update(T_SEATS)
                    .where(
                        T_SEATS.c.table_id == table_id,
                        T_SEATS.c.seat == s,
                        T_SEATS.c.bot.is_(None),
                        T_SEATS.c.token_hash.is_(None),
                    )
                    .values(name=name, token_hash=token_hash, seen=now)
                )
                if res.rowcount == 1:
                    got = s
                    break
            if got is None:
                raise SeatTaken(f"seat {seat} is taken" if seat is not None else "the table is full")
            free_left = sum(1 for r in rows if r.free and r.seat != got)
            if free_left == 0:
                c.execute(
                    update(T_TABLES)
                    .where(T_TABLES.c.id == table_id, T_TABLES.c.status == "open")
                    .values(status="running", updated=now)
                )
            self._notify(c, notify)
            return got

    def set_takeover(
        self,
        table_id: str,
        seat: int,
        agent: str | None,
        cutoff: float | None = None,
        notify: dict[str, Any] | None = None,
    ) -> bool:
        """Set (or clear, ``agent=None``) the bot playing an abandoned seat.

        With ``cutoff``, only if the seat is still not taken over and was last seen before it
        (so that one worker only does it)."""
        now = time.time()
        with self._begin() as c:
            q = update(T_SEATS).where(T_SEATS.c.table_id == table_id, T_SEATS.c.seat == seat)
            if cutoff is not None:
                q = q.where(T_SEATS.c.takeover.is_(None), T_SEATS.c.seen < cutoff)
            res = c.execute(q.values(takeover=agent, seen=now))
            if res.rowcount == 1:
                self._notify(c, notify)
            return res.rowcount == 1

    def touch(self, seats: Iterable[tuple[str, int]], now: float | None = None) -> None:
        """Heartbeat: these seats have a live connection."""
        now = time.time() if now is None else now
        items = [{"t": t, "s": s, "now": now} for t, s in seats]
        if not items:
            return
        with self._begin() as c:
            c.execute(_TOUCH, items)

    def touch_running(self, now: float | None = None) -> None:
        """Give every seated human of an unfinished table a fresh start (server start)."""
        now = time.time() if now is None else now
        with self._begin() as c:
            ids = select(T_TABLES.c.id).where(T_TABLES.c.status != "over").scalar_subquery()
            c.execute(update(T_SEATS).where(T_SEATS.c.table_id.in_(ids)).values(seen=now))

    def abandoned(self, cutoff: float) -> list[tuple[str, int]]:
        """Human seats of running tables, seated, not taken over, last seen before ``cutoff``."""
        with self._begin() as c:
            q = (
                select(T_SEATS.c.table_id, T_SEATS.c.seat)
                .join(T_TABLES, T_TABLES.c.id == T_SEATS.c.table_id)
                .where(
                    T_TABLES.c.status == "running",
                    T_SEATS.c.bot.is_(None),
                    T_SEATS.c.token_hash.is_not(None),
                    T_SEATS.c.takeover.is_(None),
                    T_SEATS.c.seen < cutoff,
                )
            )
            return [(r.table_id, r.seat) for r in c.execute(q)]

    def delete_table(self, table_id: str) -> None:
        with self._begin() as c:
            c.execute(delete(T_ACTIONS).where(T_ACTIONS.c.table_id == table_id))
            c.execute(delete(T_SEATS).where(T_SEATS.c.table_id == table_id))
            c.execute(delete(T_TABLES).where(T_TABLES.c.id == table_id))


_PG_APPEND_BATCH_SQL = (
    """
    WITH data AS (
        SELECT * FROM unnest(
            %(t)s::text[], %(q)s::int[], %(s)s::int[], %(a)s::text[], %(now)s::float8[],
            %(status)s::text[], %(n)s::int[], %(result)s::text[], %(p)s::text[]
        ) AS d(t, q, s, a, now, status, n, result, p)
    ), ins AS (
        INSERT INTO sb_actions (table_id, seq, seat, action, created)
        SELECT t, q, s, a, now FROM data
        ON CONFLICT DO NOTHING
        RETURNING table_id, seq
    ), upd AS (
        UPDATE sb_tables SET status = d.status, n_actions = d.n, result = d.result, updated = d.now
        FROM data d JOIN ins ON ins.table_id = d.t AND ins.seq = d.q
        WHERE sb_tables.id = d.t
        RETURNING sb_tables.id
    )
    SELECT ins.table_id, ins.seq,
           CASE WHEN d.p = '' THEN NULL ELSE pg_notify('"""
    + NOTIFY_CHANNEL
    + """', d.p) END
    FROM ins JOIN data d ON d.t = ins.table_id AND d.q = ins.seq
"""
)


class AsyncPgAppender:
    """The hot path on PostgreSQL: actions from every table of this process are stored in
    batches, one statement (and so one transaction, one WAL flush) per batch, from psycopg
    async connections without threads. A batch takes whatever waits when a connection is free,
    so under light load it is one action and under heavy load it is many (group commit).

    Each action is inserted with ``ON CONFLICT DO NOTHING``: the ones that come back were
    stored (and their tables updated, their notifications queued for the commit); the others
    found their sequence number taken, :class:`SeqConflict`.
    """

    def __init__(self, url: str, connections: int = 8, max_batch: int = 256) -> None:
        self.conninfo = libpq_url(url)
        self.connections = connections
        self.max_batch = max_batch
        self._queue: Any = None
        self._conns: Any = None
        self._all: list[Any] = []
        self._task: Any = None
        self._running: set[Any] = set()

    async def start(self) -> None:
        import asyncio

        import psycopg

        self._queue = asyncio.Queue()
        self._conns = asyncio.Queue()
        for _ in range(self.connections):
            conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
            self._all.append(conn)
            self._conns.put_nowait(conn)
        self._task = asyncio.create_task(self._run())

    async def append(
        self,
        table_id: str,
        seq: int,
        seat: int,
        action: str,
        status: str,
        result: Sequence[float] | None,
        notify: dict[str, Any] | None = None,
    ) -> float:
        import asyncio

        fut = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(((table_id, seq, seat, action, status, result, notify), fut))
        return await fut  # type: ignore[no-any-return]

    async def _run(self) -> None:
        import asyncio

        while True:
            first = await self._queue.get()
            conn = await self._conns.get()
            batch = [first]
            while len(batch) < self.max_batch and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            task = asyncio.create_task(self._store(conn, batch))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def _store(self, conn: Any, batch: list[Any]) -> None:
        import psycopg

        now = time.time()
        cols: dict[str, list[Any]] = {
            k: [] for k in ("t", "q", "s", "a", "now", "status", "n", "result", "p")
        }
        for (table_id, seq, seat, action, status, result, notify), _ in batch:
            cols["t"].append(table_id)
            cols["q"].append(seq)
            cols["s"].append(seat)
            cols["a"].append(action)
            cols["now"].append(now)
            cols["status"].append(status)
            cols["n"].append(seq + 1)
            cols["result"].append(json.dumps(list(result)) if result is not None else None)
            cols["p"].append(json.dumps(notify) if notify is not None else "")
        try:
            try:
                if conn.closed:
                    self._all.remove(conn)
                    conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
                    self._all.append(conn)
                cur = await conn.execute(_PG_APPEND_BATCH_SQL, cols)
                stored = {(r[0], r[1]) for r in await cur.fetchall()}
            except Exception as e:
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(e)
                return
            for (table_id, seq, *_), fut in batch:
                if fut.done():
                    continue
                if (table_id, seq) in stored:
                    fut.set_result(now)
                else:
                    fut.set_exception(SeqConflict(f"action {seq} of table {table_id} is already stored"))
        finally:
            self._conns.put_nowait(conn)

    async def close(self) -> None:
        import asyncio

        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await self._task
        for conn in self._all:
            with suppress(Exception):
                await conn.close()
        self._all.clear()


__all__ = [
    "NOTIFY_CHANNEL",
    "ActionRow",
    "AsyncPgAppender",
    "Base",
    "SeatRec",
    "SeatRow",
    "SeatTaken",
    "SeqConflict",
    "Store",
    "StoreError",
    "TableRec",
    "TableRow",
    "default_sqlite_path",
    "libpq_url",
    "resolve_url",
]
