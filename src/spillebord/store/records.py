"""What the store keeps, as plain values (no SQL here): a table, its seats, its actions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spillebord.core.errors import SpillebordError

Note = dict[str, Any]
"""A change notice for the other workers (``{"k": kind, "t": table, "w": worker, …}``): sent
with the transaction that makes the change, and only if it commits (PostgreSQL NOTIFY)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """A table's settings chosen at its creation: time control, rated or not, who may chat."""

    clock: dict[str, Any] | None
    rated: bool
    chat: str


DEFAULT_SETTINGS = Settings(clock=None, rated=False, chat="players")
"""A table's settings when it has no row of them (such settings are not stored)."""


class StoreError(SpillebordError):
    """A database URL we cannot use, or a stored table that is not there."""


class SeqConflict(Exception):
    """Another action was stored first under this sequence number."""


class SeatTaken(SpillebordError):
    """The seat asked for is taken (or the table is full)."""


@dataclass
class SeatRec:
    seat: int
    name: str | None = None
    bot: str | None = None
    """The agent configured for this seat at creation (None: a person's seat)."""
    token_hash: str | None = None
    takeover: str | None = None
    """The agent playing an abandoned person's seat (None: not taken over)."""
    seen: float | None = None
    """Last time (Unix seconds) a connection of this seat was known alive (heartbeat)."""

    @property
    def free(self) -> bool:
        return self.bot is None and self.token_hash is None


@dataclass(frozen=True, slots=True)
class ActionRec:
    """One stored action: number ``seq`` (0 for the first) of a table's log."""

    seq: int
    seat: int
    action: str
    time: float


@dataclass(frozen=True, slots=True)
class NewAction:
    """An action to append as number ``seq`` of table ``table_id``, with what it makes of the
    table (its status and, once over, its outcome and scores)."""

    table_id: str
    seq: int
    seat: int
    action: str
    status: str
    time: float
    outcome: tuple[float, ...] | None = None
    scores: tuple[float, ...] | None = None
    truncated: bool = False


@dataclass
class TableRec:
    id: str
    game: str
    seats: int
    seed: int
    options: dict[str, Any]
    public: bool
    status: str
    """open (free seats) | running | over | closed (idle too long; kept as a record)"""
    created: float
    updated: float
    engine: int = 1
    """The game's engine version the table is played on (records of another version are refused)."""
    n_actions: int = 0
    outcome: list[float] | None = None
    """The normalized outcome once over (1 win, 0 loss, shares for draws)."""
    scores: list[float] | None = None
    """The game's own final numbers once over (points, wealth, pegs)."""
    truncated: bool = False
    salt: str | None = None
    """The salt of the seed's commitment (kept secret, like the seed, until the game is over)."""
    commitment: str | None = None
    """sha256 of ``"{seed}:{salt}"``, published when the table is created."""
    seat_recs: list[SeatRec] = field(default_factory=list)
    actions: list[ActionRec] = field(default_factory=list)
    settings: Settings | None = None
    """Stored with the table, in its creation's transaction (None, or the defaults: no row);
    not filled in by a load."""
    undone: int = 0
    """How many actions were taken back at this table (its rows of the undo audit trail):
    filled in with the log by a load, 0 otherwise."""
