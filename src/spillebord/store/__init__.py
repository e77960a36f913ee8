"""Persistence of tables (SQLAlchemy 2): an SQLite file by default, PostgreSQL by URL.

* :mod:`.records`: what is stored, as plain values (tables, seats, actions) and the errors;
* :mod:`.db`: the schema and :class:`Store` (synchronous; SQLite's one append path);
* :mod:`.people`: accounts, sessions, clocks, chat and ratings (:class:`PeopleStore`);
* :mod:`.pg`: :class:`AsyncPgAppender`, PostgreSQL's one append path (batched group commit).

The server reaches all of it through its action-log protocol
(:class:`spillebord.server.actionlog.StoreLog`).
"""

from .analysis import AnalysisStore  # its model joins Base: created with the others
from .db import (
    NOTIFY_CHANNEL,
    ActionRow,
    Base,
    SeatRow,
    Store,
    TableRow,
    default_sqlite_path,
    hold_sqlite,
    libpq_url,
    release_sqlite,
    resolve_url,
)
from .people import PeopleStore  # its models join Base: created with the others
from .pg import AsyncPgAppender
from .records import (
    DEFAULT_SETTINGS,
    ActionRec,
    NewAction,
    Note,
    SeatRec,
    SeatTaken,
    SeqConflict,
    Settings,
    StoreError,
    TableRec,
)

__all__ = [
    "DEFAULT_SETTINGS",
    "NOTIFY_CHANNEL",
    "ActionRec",
    "ActionRow",
    "AnalysisStore",
    "AsyncPgAppender",
    "Base",
    "NewAction",
    "Note",
    "PeopleStore",
    "SeatRec",
    "SeatRow",
    "SeatTaken",
    "SeqConflict",
    "Settings",
    "Store",
    "StoreError",
    "TableRec",
    "TableRow",
    "default_sqlite_path",
    "hold_sqlite",
    "libpq_url",
    "release_sqlite",
    "resolve_url",
]
