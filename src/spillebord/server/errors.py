"""The server's own errors and its configuration."""

from __future__ import annotations

from dataclasses import dataclass

from spillebord.core.errors import SpillebordError


class NotFound(SpillebordError):
    """No such table."""


class Stale(SpillebordError):
    """The client acted on an old state (its sequence number is behind the table's)."""


class BadRequest(SpillebordError):
    """A request that does not make sense."""


class Conflict(SpillebordError):
    """A request that cannot be served in the table's present state (a record while it runs)."""


class Unavailable(SpillebordError):
    """A stored table this server cannot replay: recorded on another engine version of its
    game, a game this server does not have, or a log that does not replay. It is left in the
    database exactly as it was; the message says why."""

    def __init__(self, table_id: str, message: str) -> None:
        super().__init__(message)
        self.table_id = table_id


class StorageFailed(SpillebordError):
    """The database did not take an action (it was not applied)."""


@dataclass(frozen=True)
class Config:
    takeover_after: float = 120.0
    """Seconds without a connection before a bot takes an abandoned seat over (0: never)."""
    bot_budget: float = 2.0
    """Thinking budget of a bot per move, in seconds (a random legal move when exceeded)."""
    bot_delay: float = 0.0
    """Pause before each bot move (so that people can follow)."""
    bot_threads: int = 4
    stall_after: float = 5.0
    """A bot turn nobody played for this long is (re)started by this worker (crashed peer)."""
    evict_after: float = 300.0
    """A finished table nobody watches is dropped from memory after this long."""

    @property
    def tick(self) -> float:
        """Seconds between two maintenance rounds."""
        t = self.takeover_after
        return max(0.1, min(0.5, t / 4)) if t > 0 else 0.5

    @property
    def heartbeat(self) -> float:
        """Seconds between two heartbeats of this worker's connected seats."""
        t = self.takeover_after
        return max(self.tick, min(10.0, t / 3)) if t > 0 else 10.0


__all__ = ["BadRequest", "Config", "Conflict", "NotFound", "Stale", "StorageFailed", "Unavailable"]
