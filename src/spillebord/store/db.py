"""The database (SQLAlchemy 2): an SQLite file by default, PostgreSQL by URL.

A stored table is exactly what rebuilds it: game, engine version, options, seat count, seed,
the seats (name, bot, a hash of the seat token) and the action log, one row per action with
a per-table sequence number. ``(table_id, seq)`` is the primary key of the log, so two
concurrent submissions of "action number n" for one table insert exactly once: the second
gets :class:`SeqConflict` and must resynchronise.

Everything here is synchronous and reads no clock: every timestamp is given by the caller.
The server's :class:`~spillebord.server.actionlog.StoreLog` calls it from threads, never on
the event loop: on SQLite one thread writes (one connection) and another reads (a second
connection: in WAL mode a reader never waits for a writer), so a write lock held by another
process for seconds delays no read, and a write gives up after ``busy_timeout``.

Appending an action has one path per database: :meth:`Store.append_action` on SQLite (two
statements and a commit on the driver's connection), and
:class:`~spillebord.store.pg.AsyncPgAppender` on PostgreSQL (batched group commit).

Durability: SQLite runs in WAL mode with ``synchronous=NORMAL``. A committed transaction is
then in the WAL file when ``commit`` returns, so it survives the process being killed
(``kill -9``), which is what we promise (acknowledged actions are never lost to a server
crash). Only a power cut / OS crash could lose the last transactions, which NORMAL accepts
in exchange for not fsyncing every commit.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, cast

import platformdirs
from sqlalchemy import (
    BigInteger,
    Boolean,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    Row,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    false,
    func,
    insert,
    inspect,
    make_url,
    select,
    text,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .records import (
    DEFAULT_SETTINGS,
    ActionRec,
    NewAction,
    Note,
    SeatRec,
    SeatTaken,
    SeqConflict,
    StoreError,
    TableRec,
)

NOTIFY_CHANNEL = "spillebord"


# --------------------------------------------------------------------------- schema


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "sb_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    engine: Mapped[int] = mapped_column(Integer, default=1, server_default=text("1"))
    """The game's engine version (``Game.version``) the table is played on."""
    seats: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[str] = mapped_column(Text)
    """JSON of the options dict."""
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    status: Mapped[str] = mapped_column(String(10), index=True)
    """open (free seats) | running | over | closed (idle too long; kept as a record)"""
    n_actions: Mapped[int] = mapped_column(Integer, default=0)
    outcome: Mapped[str | None] = mapped_column(Text, nullable=True)
    """JSON list: the normalized outcome, once over."""
    scores: Mapped[str | None] = mapped_column(Text, nullable=True)
    """JSON list: the game's own final scores, once over."""
    truncated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)
    salt: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The salt of the seed's commitment (revealed with the seed once the game is over)."""
    commitment: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """sha256 of ``"{seed}:{salt}"``, published at creation."""


class SeatRow(Base):
    __tablename__ = "sb_seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("sb_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(80), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    takeover: Mapped[str | None] = mapped_column(String(40), nullable=True)
    seen: Mapped[float | None] = mapped_column(Float, nullable=True)


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


class UndoneRow(Base):
    """An action taken back (undo inside a turn): deleted from ``sb_actions``, so that the log
    stays exactly what rebuilds the table, and kept here as an audit trail."""

    __tablename__ = "sb_undone"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("sb_tables.id", ondelete="CASCADE"), index=True
    )
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    created: Mapped[float] = mapped_column(Float)
    """When the action was stored."""
    undone: Mapped[float] = mapped_column(Float)
    """When it was taken back."""


class RematchRow(Base):
    """A finished table and its rematch (one per table: the primary key makes two workers that
    start one at once agree on the first)."""

    __tablename__ = "sb_rematches"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("sb_tables.id", ondelete="CASCADE"), primary_key=True
    )
    rematch_id: Mapped[str] = mapped_column(String(32))


T_TABLES = cast(Table, TableRow.__table__)
T_SEATS = cast(Table, SeatRow.__table__)
T_ACTIONS = cast(Table, ActionRow.__table__)
T_UNDONE = cast(Table, UndoneRow.__table__)
T_REMATCHES = cast(Table, RematchRow.__table__)

# Columns added since the first schema, with the SQL that adds them to an older database.
# (``result`` of the first schema, the old final scores, is left in place and copied into
# ``scores`` for finished tables.)
_UPGRADES = {
    "engine": "ALTER TABLE sb_tables ADD COLUMN engine INTEGER NOT NULL DEFAULT 1",
    "outcome": "ALTER TABLE sb_tables ADD COLUMN outcome TEXT",
    "scores": "ALTER TABLE sb_tables ADD COLUMN scores TEXT",
    "truncated": "ALTER TABLE sb_tables ADD COLUMN truncated BOOLEAN NOT NULL DEFAULT false",
    "salt": "ALTER TABLE sb_tables ADD COLUMN salt VARCHAR(64)",
    "commitment": "ALTER TABLE sb_tables ADD COLUMN commitment VARCHAR(64)",
}

# The statements of the hot paths, built once (SQLAlchemy then reuses their compiled form).
_SELECT_SEATS = select(T_SEATS).where(T_SEATS.c.table_id == bindparam("t")).order_by(T_SEATS.c.seat)
_TOUCH = (
    update(T_SEATS)
    .where(T_SEATS.c.table_id == bindparam("t"), T_SEATS.c.seat == bindparam("s"))
    .values(seen=bindparam("now"))
)
_INSERT_TABLE = insert(T_TABLES)
_INSERT_SEATS = insert(T_SEATS)
# (The settings' table is the people's, defined in :mod:`.people` on the same metadata.)
_INSERT_SETTINGS = text(
    "INSERT INTO sb_table_settings (table_id, clock, rated, chat) VALUES (:table_id, :clock, :rated, :chat)"
)
_SQLITE_INSERT_ACTION = "INSERT INTO sb_actions (table_id, seq, seat, action, created) VALUES (?, ?, ?, ?, ?)"
_SQLITE_UPDATE_TABLE = (
    "UPDATE sb_tables SET status = ?, n_actions = ?, outcome = ?, scores = ?, truncated = ?, updated = ? "
    "WHERE id = ?"
)


def dumps_list(xs: Sequence[float] | None) -> str | None:
    return json.dumps(list(xs)) if xs is not None else None


def _loads_list(s: str | None) -> list[float] | None:
    if not s:
        return None
    v = json.loads(s)
    return [float(x) for x in v] if isinstance(v, list) else None


def _table_rec(r: Row[Any]) -> TableRec:
    return TableRec(
        id=r.id,
        game=r.game,
        seats=r.seats,
        seed=r.seed,
        options=json.loads(r.options or "{}"),
        public=bool(r.public),
        status=r.status,
        created=r.created,
        updated=r.updated,
        engine=int(r.engine),
        n_actions=r.n_actions,
        outcome=_loads_list(r.outcome),
        scores=_loads_list(r.scores),
        truncated=bool(r.truncated),
        salt=r.salt,
        commitment=r.commitment,
    )


def _seat_rec(r: Row[Any]) -> SeatRec:
    return SeatRec(r.seat, r.name, r.bot, r.token_hash, r.takeover, r.seen)


def _action_rec(r: Row[Any]) -> ActionRec:
    return ActionRec(r.seq, r.seat, r.action, r.created)


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
    """The plain ``postgresql://`` form (for psycopg's own connections: LISTEN, the appender)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


# --------------------------------------------------------------------------- one server per file

_HELD: dict[str, Any] = {}


def hold_sqlite(path: str) -> None:
    """Claim an SQLite file for this process (a lock on ``PATH.lock``, held until the process
    ends or :func:`release_sqlite`): two servers on one file would each keep tables in memory
    and split their view of them. :class:`StoreError` if another process holds it."""
    key = str(Path(path).resolve())
    if key in _HELD:
        return
    try:
        import fcntl
    except ImportError:  # not on POSIX: nothing to hold it with
        return
    lock = Path(key + ".lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    f = open(lock, "a+")  # noqa: SIM115 (held open for the life of the server)
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        pid = f.read().strip() or "?"
        f.close()
        raise StoreError(
            f"another Spillebord server (pid {pid}) is serving {key}: an SQLite file serves one "
            "server process; stop that one, or use PostgreSQL (--db postgresql://…) for several"
        ) from None
    f.seek(0)
    f.truncate()
    f.write(str(os.getpid()))
    f.flush()
    _HELD[key] = f


def release_sqlite(path: str) -> None:
    f = _HELD.pop(str(Path(path).resolve()), None)
    if f is not None:
        f.close()


# --------------------------------------------------------------------------- the store


def _sqlite_store(raw: sqlite3.Connection, a: NewAction) -> None:
    """The two statements that store one action and move its table on (no commit)."""
    raw.execute(_SQLITE_INSERT_ACTION, (a.table_id, a.seq, a.seat, a.action, a.time))
    raw.execute(
        _SQLITE_UPDATE_TABLE,
        (a.status, a.seq + 1, dumps_list(a.outcome), dumps_list(a.scores), a.truncated, a.time, a.table_id),
    )


class Store:
    """Repository of tables, seats and actions over one SQLAlchemy engine (synchronous)."""

    def __init__(self, url: str, busy_timeout: float = 5.0) -> None:
        self.url = url
        self.busy_timeout = busy_timeout
        """Seconds an SQLite write waits for a lock held by another process before it fails
        (and the client is told to try again)."""
        self.is_pg = url.startswith("postgresql")
        self.is_sqlite = url.startswith("sqlite")
        # SQLite: one connection (the one writer of the process); a lock keeps threads off it
        # at the same time. PostgreSQL: a small pool.
        self._lock: threading.Lock | None = threading.Lock() if self.is_sqlite else None
        self._conn: Connection | None = None
        # SQLite in WAL mode: readers never wait for the writer, so reads have a connection of
        # their own (a write waiting on another process's lock delays no read).
        self._rlock = threading.Lock()
        self._rconn: Connection | None = None
        self._ckpt: sqlite3.Connection | None = None
        self.engine: Engine
        if self.is_sqlite:
            self.path = make_url(url).database or ""
            if self.path:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self.engine = create_engine(
                url,
                connect_args={"check_same_thread": False, "timeout": busy_timeout},
                pool_size=2,
                max_overflow=0,
            )

            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn: Any, _rec: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                # Durable against a crash of the process (see the module doc).
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
                # No checkpoint (the one step that fsyncs) inside a commit on the event loop:
                # :meth:`checkpoint` does it from a thread of its own.
                cur.execute("PRAGMA wal_autocheckpoint=0")
                cur.close()

        elif self.is_pg:
            self.engine = create_engine(url, pool_size=4, max_overflow=4, pool_pre_ping=True)
        else:
            raise StoreError(f"unsupported database {url!r}")

    # Every unit of work runs in one transaction, serialised on SQLite.
    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        if self._lock is None:
            with self.engine.begin() as c:
                yield c
            return
        with self._lock:
            conn = self._sqlite_conn()
            with conn.begin():
                yield conn

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        """A read-only unit of work: on SQLite on the reading connection (WAL: it sees the last
        commit and never waits for a writer), on PostgreSQL from the pool."""
        if self._lock is None:
            with self.engine.begin() as c:
                yield c
            return
        with self._rlock:
            if self._rconn is None:
                self._rconn = self.engine.connect()
            with self._rconn.begin():
                yield self._rconn

    def _sqlite_conn(self) -> Connection:
        """The process's one SQLite connection (opened on first use, kept; lock held)."""
        if self._conn is None:
            self._conn = self.engine.connect()
        return self._conn

    def _notify(self, c: Connection, note: Note | None) -> None:
        if note is not None and self.is_pg:
            # Sent by PostgreSQL only when (and if) this transaction commits.
            c.execute(text("SELECT pg_notify(:ch, :p)"), {"ch": NOTIFY_CHANNEL, "p": json.dumps(note)})

    def checkpoint(self) -> None:
        """Copy the WAL into the database file (SQLite), without blocking the writer.

        Runs on its own connection, from a thread: the writer's commits never wait for the
        disk. A no-op on PostgreSQL."""
        if not self.is_sqlite:
            return
        if self._ckpt is None:
            self._ckpt = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        with suppress(sqlite3.Error):  # busy: the next one will do
            self._ckpt.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def create_all(self) -> None:
        """Create the schema, or bring an older one up to date (columns added since)."""
        if self.is_pg:
            # Several workers start at once: one creates the schema, the others wait.
            with self.engine.begin() as c:
                c.execute(text("SELECT pg_advisory_xact_lock(724242)"))
                Base.metadata.create_all(c)
                self._upgrade(c)
        else:
            with self._begin() as c:
                Base.metadata.create_all(c)
                self._upgrade(c)

    @staticmethod
    def _upgrade(c: Connection) -> None:
        have = {col["name"] for col in inspect(c).get_columns("sb_tables")}
        missing = [name for name in _UPGRADES if name not in have]
        for name in missing:
            c.execute(text(_UPGRADES[name]))
        if "scores" in missing and "result" in have:
            c.execute(text("UPDATE sb_tables SET scores = result WHERE status = 'over'"))

    def dispose(self) -> None:
        if self._ckpt is not None:
            self._ckpt.close()
            self._ckpt = None
        if self._lock is not None:
            with self._lock:
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None
            with self._rlock:
                if self._rconn is not None:
                    self._rconn.close()
                    self._rconn = None
        self.engine.dispose()

    # ----------------------------------------------------------------- tables

    def create_table(self, rec: TableRec, notify: Note | None = None) -> None:
        """A new table with its seats and its settings, in one transaction."""
        with self._begin() as c:
            # (parameters to statements built once: ``insert().values(...)`` made a new
            # statement a table, and its cache key cost more than the insert, 0.3 ms here)
            c.execute(
                _INSERT_TABLE,
                {
                    "id": rec.id,
                    "game": rec.game,
                    "engine": rec.engine,
                    "seats": rec.seats,
                    "seed": rec.seed,
                    "options": json.dumps(rec.options),
                    "public": rec.public,
                    "status": rec.status,
                    "n_actions": 0,
                    "outcome": None,
                    "scores": None,
                    "truncated": False,
                    "created": rec.created,
                    "updated": rec.updated,
                    "salt": rec.salt,
                    "commitment": rec.commitment,
                },
            )
            c.execute(
                _INSERT_SEATS,
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
            st = rec.settings
            if st is not None and st != DEFAULT_SETTINGS:  # (no row reads as the defaults)
                clock = json.dumps(st.clock) if st.clock is not None else None
                c.execute(
                    _INSERT_SETTINGS, {"table_id": rec.id, "clock": clock, "rated": st.rated, "chat": st.chat}
                )
            self._notify(c, notify)

    def load_table(self, table_id: str) -> TableRec | None:
        """A table with its seats and its whole log; None if there is no such table."""
        with self._reading() as c:
            row = c.execute(select(T_TABLES).where(T_TABLES.c.id == table_id)).first()
            if row is None:
                return None
            rec = _table_rec(row)
            rec.seat_recs = [_seat_rec(r) for r in c.execute(_SELECT_SEATS, {"t": table_id})]
            rec.actions = [
                _action_rec(r)
                for r in c.execute(
                    select(T_ACTIONS).where(T_ACTIONS.c.table_id == table_id).order_by(T_ACTIONS.c.seq)
                )
            ]
            # Tells an act resent after an undo from a new one at the same seq (the server's
            # ``undone`` count); sb_undone is indexed by table.
            rec.undone = int(
                c.execute(
                    select(func.count()).select_from(T_UNDONE).where(T_UNDONE.c.table_id == table_id)
                ).scalar_one()
            )
            return rec

    def load_seats(self, table_id: str) -> list[SeatRec]:
        with self._reading() as c:
            return [_seat_rec(r) for r in c.execute(_SELECT_SEATS, {"t": table_id})]

    def actions_since(self, table_id: str, seq: int) -> list[ActionRec]:
        with self._reading() as c:
            return [
                _action_rec(r)
                for r in c.execute(
                    select(T_ACTIONS)
                    .where(T_ACTIONS.c.table_id == table_id, T_ACTIONS.c.seq >= seq)
                    .order_by(T_ACTIONS.c.seq)
                )
            ]

    def unfinished_ids(self) -> list[str]:
        with self._reading() as c:
            return [
                r.id
                for r in c.execute(
                    select(T_TABLES.c.id)
                    .where(T_TABLES.c.status.in_(("open", "running")))
                    .order_by(T_TABLES.c.created)
                )
            ]

    def close_idle(self, cutoff: float, now: float) -> list[str]:
        """Close the unfinished tables created before ``cutoff`` at which no person has been
        seen since (status ``closed``: kept, with their log, as records). Their ids."""
        with self._begin() as c:
            people_seen = (
                select(T_SEATS.c.table_id)
                .where(
                    T_SEATS.c.bot.is_(None),
                    T_SEATS.c.token_hash.is_not(None),
                    T_SEATS.c.seen >= cutoff,
                )
                .scalar_subquery()
            )
            where = (
                T_TABLES.c.status.in_(("open", "running")),
                T_TABLES.c.created < cutoff,
                T_TABLES.c.id.not_in(people_seen),
            )
            ids = [r.id for r in c.execute(select(T_TABLES.c.id).where(*where))]
            if ids:
                c.execute(update(T_TABLES).where(T_TABLES.c.id.in_(ids)).values(status="closed", updated=now))
            return ids

    def list_tables(
        self, statuses: Sequence[str] = ("open", "running"), public_only: bool = True, limit: int = 1000
    ) -> list[TableRec]:
        """Tables (with their seats, without their logs), newest first."""
        with self._reading() as c:
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

    def append_action(self, a: NewAction) -> None:
        """Store action number ``a.seq`` (SQLite; PostgreSQL appends through
        :class:`~spillebord.store.pg.AsyncPgAppender`); :class:`SeqConflict` if that number
        is taken, and then nothing is stored.

        Straight on the driver's connection: two statements and a commit (SQLAlchemy's
        bookkeeping would cost more than the database work)."""
        if self._lock is None:
            raise StoreError("on PostgreSQL actions are appended by AsyncPgAppender")
        with self._lock:
            raw = self._sqlite_conn().connection.driver_connection
            assert isinstance(raw, sqlite3.Connection)
            try:
                _sqlite_store(raw, a)
                raw.commit()
            except sqlite3.IntegrityError:
                raw.rollback()
                raise SeqConflict(f"action {a.seq} of table {a.table_id} is already stored") from None
            except BaseException:
                raw.rollback()
                raise

    def undo_action(self, table_id: str, seq: int, now: float, notify: Note | None = None) -> ActionRec:
        """Take back action number ``seq``, the table's last: deleted from the log (which stays
        exactly what rebuilds the table) and kept in ``sb_undone``; the stored action.
        :class:`SeqConflict` if it is not the last (another action came first)."""
        with self._begin() as c:
            row = c.execute(
                select(T_ACTIONS).where(T_ACTIONS.c.table_id == table_id, T_ACTIONS.c.seq == seq)
            ).first()
            last = c.execute(select(T_TABLES.c.n_actions).where(T_TABLES.c.id == table_id)).scalar()
            if row is None or last != seq + 1:
                raise SeqConflict(f"action {seq} of table {table_id} is not its last")
            a = _action_rec(row)
            c.execute(
                insert(T_UNDONE).values(
                    table_id=table_id, seq=seq, seat=a.seat, action=a.action, created=a.time, undone=now
                )
            )
            c.execute(T_ACTIONS.delete().where(T_ACTIONS.c.table_id == table_id, T_ACTIONS.c.seq == seq))
            c.execute(update(T_TABLES).where(T_TABLES.c.id == table_id).values(n_actions=seq, updated=now))
            self._notify(c, notify)
            return a

    def undone(self, table_id: str) -> list[tuple[ActionRec, float]]:
        """The actions taken back at a table (the audit trail), with when, oldest first."""
        with self._reading() as c:
            return [
                (ActionRec(r.seq, r.seat, r.action, r.created), r.undone)
                for r in c.execute(
                    select(T_UNDONE).where(T_UNDONE.c.table_id == table_id).order_by(T_UNDONE.c.id)
                )
            ]

    def finished_tables(self, limit: int = 20, offset: int = 0) -> list[TableRec]:
        """Public finished tables (with seats, without logs), the latest finished first."""
        with self._reading() as c:
            q = (
                select(T_TABLES)
                .where(T_TABLES.c.status == "over", T_TABLES.c.public.is_(True))
                .order_by(T_TABLES.c.updated.desc(), T_TABLES.c.id)
                .limit(limit)
                .offset(offset)
            )
            rows = [_table_rec(r) for r in c.execute(q)]
            if rows:
                by_id = {r.id: r for r in rows}
                for s in c.execute(
                    select(T_SEATS).where(T_SEATS.c.table_id.in_(list(by_id))).order_by(T_SEATS.c.seat)
                ):
                    by_id[s.table_id].seat_recs.append(_seat_rec(s))
            return rows

    def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Record ``rematch_id`` as the rematch of ``table_id`` unless one is recorded; the one
        recorded (the first wins)."""
        from sqlalchemy.exc import IntegrityError

        try:
            with self._begin() as c:
                c.execute(insert(T_REMATCHES).values(table_id=table_id, rematch_id=rematch_id))
            return rematch_id
        except IntegrityError:
            got = self.rematch_of(table_id)
            assert got is not None
            return got

    def rematch_of(self, table_id: str) -> str | None:
        """The rematch recorded for ``table_id``, or None."""
        with self._reading() as c:
            r = c.execute(select(T_REMATCHES.c.rematch_id).where(T_REMATCHES.c.table_id == table_id)).scalar()
            return str(r) if r is not None else None

    def append_actions(self, actions: Sequence[NewAction]) -> list[SeqConflict | None]:
        """Store several actions (of different tables) in one transaction: one commit for
        all (group commit, SQLite). For each action, None, or the :class:`SeqConflict` that
        refused it (the others are stored all the same). Other errors store none of them."""
        if len(actions) == 1:
            try:
                self.append_action(actions[0])
            except SeqConflict as e:
                return [e]
            return [None]
        if self._lock is None:
            raise StoreError("on PostgreSQL actions are appended by AsyncPgAppender")
        with self._lock:
            raw = self._sqlite_conn().connection.driver_connection
            assert isinstance(raw, sqlite3.Connection)
            try:
                for a in actions:
                    _sqlite_store(raw, a)
                raw.commit()
                return [None] * len(actions)
            except sqlite3.IntegrityError:
                raw.rollback()  # a number taken: one at a time, the others are stored
            except BaseException:
                raw.rollback()
                raise
        out: list[SeqConflict | None] = []
        for a in actions:
            try:
                self.append_action(a)
                out.append(None)
            except SeqConflict as e:
                out.append(e)
        return out

    # ----------------------------------------------------------------- seats

    def claim_seat(
        self,
        table_id: str,
        seat: int | None,
        name: str,
        token_hash: str,
        now: float,
        notify: Note | None = None,
    ) -> int:
        """Give a free person's seat (``seat`` or the first free one) to ``token_hash``."""
        with self._begin() as c:
            rows = [_seat_rec(r) for r in c.execute(_SELECT_SEATS, {"t": table_id})]
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
        now: float,
        cutoff: float | None = None,
        notify: Note | None = None,
    ) -> bool:
        """Set (or clear, ``agent=None``) the bot playing an abandoned seat.

        With ``cutoff``, only if the seat is still not taken over and was last seen before it
        (so that one worker only does it)."""
        with self._begin() as c:
            q = update(T_SEATS).where(T_SEATS.c.table_id == table_id, T_SEATS.c.seat == seat)
            if cutoff is not None:
                q = q.where(T_SEATS.c.takeover.is_(None), T_SEATS.c.seen < cutoff)
            done = c.execute(q.values(takeover=agent, seen=now)).rowcount == 1
            if done:
                self._notify(c, notify)
            return done

    def touch(self, seats: Iterable[tuple[str, int]], now: float) -> None:
        """Heartbeat: these seats have a live connection."""
        items = [{"t": t, "s": s, "now": now} for t, s in seats]
        if not items:
            return
        with self._begin() as c:
            c.execute(_TOUCH, items)

    def touch_running(self, now: float) -> None:
        """Give every seated person of an unfinished table a fresh start (server start)."""
        with self._begin() as c:
            ids = select(T_TABLES.c.id).where(T_TABLES.c.status.in_(("open", "running"))).scalar_subquery()
            c.execute(update(T_SEATS).where(T_SEATS.c.table_id.in_(ids)).values(seen=now))

    def abandoned(self, cutoff: float) -> list[tuple[str, int]]:
        """People's seats of running tables, seated, not taken over, last seen before ``cutoff``."""
        with self._reading() as c:
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
