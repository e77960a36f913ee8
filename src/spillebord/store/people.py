"""What the store keeps of people (SQLAlchemy 2 models on the tables' :class:`~.db.Base`, so
:meth:`~.db.Store.create_all` creates them with the others): accounts and their sessions, the
seats an account holds, per-table settings (time control, rated, chat), the tables' clocks,
chat lines and ratings.

:class:`PeopleStore` is its repository: synchronous, reads no clock (every time is given),
and runs each unit of work in one of the store's transactions.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import (
    Boolean,
    Connection,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from .db import T_SEATS, T_TABLES, Base, Store
from .records import DEFAULT_SETTINGS, Note, Settings, StoreError


class AccountRow(Base):
    __tablename__ = "sb_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    """The name folded to lower case: names differing only in case are one name."""
    pw_hash: Mapped[str] = mapped_column(Text)
    """The Argon2id hash in PHC form (parameters and salt included)."""
    created: Mapped[float] = mapped_column(Float)


class SessionRow(Base):
    __tablename__ = "sb_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 of the session token (the token itself is only in the cookie)."""
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("sb_accounts.id", ondelete="CASCADE"), index=True
    )
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float)


class AccountSeatRow(Base):
    __tablename__ = "sb_account_seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("sb_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("sb_accounts.id", ondelete="CASCADE"), index=True
    )
    token: Mapped[str] = mapped_column(String(64))
    """The seat's token, handed to the account's other devices (the seat's own hash is in sb_seats)."""


class TableSettingsRow(Base):
    __tablename__ = "sb_table_settings"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("sb_tables.id", ondelete="CASCADE"), primary_key=True
    )
    clock: Mapped[str | None] = mapped_column(Text, nullable=True)
    """JSON of the time control (None: no clock)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    chat: Mapped[str] = mapped_column(String(10), default="players")
    """players (seated players write, spectators read) | seated (spectators do not read) | off"""


class ClockRow(Base):
    __tablename__ = "sb_clocks"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("sb_tables.id", ondelete="CASCADE"), primary_key=True
    )
    state: Mapped[str] = mapped_column(Text)
    """JSON of :class:`~spillebord.server.timecontrol.Clocks` (banks, running seat, its start)."""
    updated: Mapped[float] = mapped_column(Float)


class ChatRow(Base):
    __tablename__ = "sb_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("sb_tables.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    time: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    __tablename__ = "sb_ratings"

    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    player: Mapped[str] = mapped_column(String(60), primary_key=True)
    """``a:<account id>`` for a person, ``bot:<agent>`` for a bot."""
    name: Mapped[str] = mapped_column(String(80))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[float] = mapped_column(Float)


class RatedRow(Base):
    """A finished table whose result went into the ratings (once: its key says so)."""

    __tablename__ = "sb_rated"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("sb_tables.id", ondelete="CASCADE"), primary_key=True
    )
    time: Mapped[float] = mapped_column(Float)


def _t(model: type[Base]) -> Table:
    return cast(Table, model.__table__)


T_ACCOUNTS = _t(AccountRow)
T_SESSIONS = _t(SessionRow)
T_ACCOUNT_SEATS = _t(AccountSeatRow)
T_SETTINGS = _t(TableSettingsRow)
T_CLOCKS = _t(ClockRow)
T_CHAT = _t(ChatRow)
T_RATINGS = _t(RatingRow)
T_RATED = _t(RatedRow)


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    pw_hash: str


@dataclass(frozen=True, slots=True)
class ChatLine:
    id: int
    seat: int
    name: str
    text: str
    time: float


@dataclass(frozen=True, slots=True)
class MySeat:
    """A seat an account holds, with what is said of its table."""

    table_id: str
    seat: int
    token: str
    game: str
    status: str
    created: float
    updated: float
    outcome: list[float] | None


@dataclass(frozen=True, slots=True)
class RatingRec:
    player: str
    name: str
    mu: float
    sigma: float
    games: int


class NameTaken(StoreError):
    """Registration under a name someone has."""


class PeopleStore:
    """Accounts, sessions, account seats, table settings, clocks, chat and ratings."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        # The store's own transaction: on SQLite its one connection, under its lock.
        with self.store._begin() as c:
            yield c

    # ----------------------------------------------------------------- accounts

    def create_account(self, name: str, pw_hash: str, now: float) -> int:
        try:
            with self._begin() as c:
                res = c.execute(
                    insert(T_ACCOUNTS).values(
                        name=name, name_key=name.casefold(), pw_hash=pw_hash, created=now
                    )
                )
                pk = res.inserted_primary_key
                assert pk is not None
                return int(pk[0])
        except IntegrityError:
            raise NameTaken(f"the name {name!r} is taken") from None

    def account_by_name(self, name: str) -> Account | None:
        with self._begin() as c:
            r = c.execute(select(T_ACCOUNTS).where(T_ACCOUNTS.c.name_key == name.casefold())).first()
            return Account(r.id, r.name, r.pw_hash) if r is not None else None

    def set_password_hash(self, account_id: int, pw_hash: str) -> None:
        with self._begin() as c:
            c.execute(update(T_ACCOUNTS).where(T_ACCOUNTS.c.id == account_id).values(pw_hash=pw_hash))

    # ----------------------------------------------------------------- sessions

    def add_session(self, token_hash: str, account_id: int, now: float, expires: float) -> None:
        with self._begin() as c:
            c.execute(
                insert(T_SESSIONS).values(
                    token_hash=token_hash, account_id=account_id, created=now, expires=expires
                )
            )

    def session_account(self, token_hash: str, now: float) -> Account | None:
        with self._begin() as c:
            r = c.execute(
                select(T_ACCOUNTS)
                .join(T_SESSIONS, T_SESSIONS.c.account_id == T_ACCOUNTS.c.id)
                .where(T_SESSIONS.c.token_hash == token_hash, T_SESSIONS.c.expires > now)
            ).first()
            return Account(r.id, r.name, r.pw_hash) if r is not None else None

    def drop_session(self, token_hash: str) -> None:
        with self._begin() as c:
            c.execute(delete(T_SESSIONS).where(T_SESSIONS.c.token_hash == token_hash))

    def drop_sessions(self, account_id: int) -> int:
        """Log out everywhere: every session of the account; how many there were."""
        with self._begin() as c:
            return int(c.execute(delete(T_SESSIONS).where(T_SESSIONS.c.account_id == account_id)).rowcount)

    # ----------------------------------------------------------------- seats of an account

    def link_seat(self, account_id: int, table_id: str, seat: int, token: str) -> None:
        with self._begin() as c:
            c.execute(
                insert(T_ACCOUNT_SEATS).values(
                    table_id=table_id, seat=seat, account_id=account_id, token=token
                )
            )

    def seat_accounts(self, table_id: str) -> dict[int, int]:
        """Seat → account id, for the seats of a table that accounts hold."""
        with self._begin() as c:
            q = select(T_ACCOUNT_SEATS.c.seat, T_ACCOUNT_SEATS.c.account_id).where(
                T_ACCOUNT_SEATS.c.table_id == table_id
            )
            return {r.seat: r.account_id for r in c.execute(q)}

    def my_seats(self, account_id: int, limit: int = 200) -> list[MySeat]:
        with self._begin() as c:
            q = (
                select(
                    T_ACCOUNT_SEATS.c.table_id,
                    T_ACCOUNT_SEATS.c.seat,
                    T_ACCOUNT_SEATS.c.token,
                    T_TABLES.c.game,
                    T_TABLES.c.status,
                    T_TABLES.c.created,
                    T_TABLES.c.updated,
                    T_TABLES.c.outcome,
                )
                .join(T_TABLES, T_TABLES.c.id == T_ACCOUNT_SEATS.c.table_id)
                .where(T_ACCOUNT_SEATS.c.account_id == account_id)
                .order_by(T_TABLES.c.updated.desc())
                .limit(limit)
            )
            return [
                MySeat(
                    r.table_id,
                    r.seat,
                    r.token,
                    r.game,
                    r.status,
                    r.created,
                    r.updated,
                    json.loads(r.outcome) if r.outcome else None,
                )
                for r in c.execute(q)
            ]

    # ----------------------------------------------------------------- settings and clocks

    def settings(self, table_id: str) -> Settings | None:
        with self._begin() as c:
            r = c.execute(select(T_SETTINGS).where(T_SETTINGS.c.table_id == table_id)).first()
            if r is None:
                return None
            return Settings(json.loads(r.clock) if r.clock else None, bool(r.rated), r.chat)

    def timed_tables(self) -> list[str]:
        """Unfinished tables with a time control."""
        with self._begin() as c:
            q = (
                select(T_SETTINGS.c.table_id)
                .join(T_TABLES, T_TABLES.c.id == T_SETTINGS.c.table_id)
                .where(T_SETTINGS.c.clock.is_not(None), T_TABLES.c.status != "over")
            )
            return [r.table_id for r in c.execute(q)]

    def save_clock(self, table_id: str, state: dict[str, Any], now: float) -> None:
        data = json.dumps(state)
        with self._begin() as c:
            n = c.execute(
                update(T_CLOCKS).where(T_CLOCKS.c.table_id == table_id).values(state=data, updated=now)
            ).rowcount
            if n == 0:
                c.execute(insert(T_CLOCKS).values(table_id=table_id, state=data, updated=now))

    def load_clock(self, table_id: str) -> dict[str, Any] | None:
        with self._begin() as c:
            r = c.execute(select(T_CLOCKS.c.state).where(T_CLOCKS.c.table_id == table_id)).first()
            return cast(dict[str, Any], json.loads(r.state)) if r is not None else None

    def end_table(
        self,
        table_id: str,
        outcome: Sequence[float],
        scores: Sequence[float],
        now: float,
        notify: Note | None = None,
    ) -> bool:
        """End a table outside its rules (a seat lost on time); False if it was over already."""
        with self._begin() as c:
            done = (
                c.execute(
                    update(T_TABLES)
                    .where(T_TABLES.c.id == table_id, T_TABLES.c.status != "over")
                    .values(
                        status="over",
                        outcome=json.dumps(list(outcome)),
                        scores=json.dumps(list(scores)),
                        updated=now,
                    )
                ).rowcount
                == 1
            )
            if done:
                self.store._notify(c, notify)
            return done

    # ----------------------------------------------------------------- chat

    def add_chat(
        self,
        table_id: str,
        seat: int,
        name: str,
        text: str,
        now: float,
        notify: Callable[[ChatLine], Note | None] | None = None,
    ) -> ChatLine:
        """Store a line; ``notify`` makes the notice (with the line) the other workers hear."""
        with self._begin() as c:
            res = c.execute(
                insert(T_CHAT).values(table_id=table_id, seat=seat, name=name, text=text, time=now)
            )
            pk = res.inserted_primary_key
            assert pk is not None
            line = ChatLine(int(pk[0]), seat, name, text, now)
            if notify is not None:
                self.store._notify(c, notify(line))
            return line

    def chat(self, table_id: str, since: int = 0, limit: int = 200) -> list[ChatLine]:
        """The last ``limit`` lines after line id ``since``, oldest first."""
        with self._begin() as c:
            q = (
                select(T_CHAT)
                .where(T_CHAT.c.table_id == table_id, T_CHAT.c.id > since)
                .order_by(T_CHAT.c.id.desc())
                .limit(limit)
            )
            rows = [ChatLine(r.id, r.seat, r.name, r.text, r.time) for r in c.execute(q)]
            return rows[::-1]

    # ----------------------------------------------------------------- ratings

    def ratings(self, game: str, players: Sequence[str]) -> dict[str, RatingRec]:
        with self._begin() as c:
            q = select(T_RATINGS).where(T_RATINGS.c.game == game, T_RATINGS.c.player.in_(list(players)))
            return {r.player: RatingRec(r.player, r.name, r.mu, r.sigma, r.games) for r in c.execute(q)}

    def apply_ratings(self, table_id: str, game: str, new: Sequence[RatingRec], now: float) -> bool:
        """Store the ratings a finished table gave, once per table (False: it was rated already)."""
        with self._begin() as c:
            if c.execute(select(T_RATED.c.table_id).where(T_RATED.c.table_id == table_id)).first():
                return False
            c.execute(insert(T_RATED).values(table_id=table_id, time=now))
            for r in new:
                values = {"name": r.name, "mu": r.mu, "sigma": r.sigma, "games": r.games, "updated": now}
                n = c.execute(
                    update(T_RATINGS)
                    .where(T_RATINGS.c.game == game, T_RATINGS.c.player == r.player)
                    .values(**values)
                ).rowcount
                if n == 0:
                    c.execute(insert(T_RATINGS).values(game=game, player=r.player, **values))
            return True

    def leaderboard(self, game: str, limit: int = 100) -> list[RatingRec]:
        """Ranked by the conservative estimate mu - 3 sigma (what OpenSkill calls ordinal)."""
        with self._begin() as c:
            q = (
                select(T_RATINGS)
                .where(T_RATINGS.c.game == game)
                .order_by((T_RATINGS.c.mu - 3 * T_RATINGS.c.sigma).desc())
                .limit(limit)
            )
            return [RatingRec(r.player, r.name, r.mu, r.sigma, r.games) for r in c.execute(q)]

    def seat_names(self, table_id: str) -> dict[int, str | None]:
        with self._begin() as c:
            q = select(T_SEATS.c.seat, T_SEATS.c.name).where(T_SEATS.c.table_id == table_id)
            return {r.seat: r.name for r in c.execute(q)}


__all__ = [
    "DEFAULT_SETTINGS",
    "Account",
    "AccountRow",
    "AccountSeatRow",
    "ChatLine",
    "ChatRow",
    "ClockRow",
    "MySeat",
    "NameTaken",
    "PeopleStore",
    "RatedRow",
    "RatingRec",
    "RatingRow",
    "SessionRow",
    "Settings",
    "TableSettingsRow",
]
