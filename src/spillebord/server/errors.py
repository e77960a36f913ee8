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


class TooMany(SpillebordError):
    """A client over one of the server's bounds (429): too many requests or open tables."""

    def __init__(self, message: str, retry_after: float = 60.0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Busy(SpillebordError):
    """The database is busy or unreachable for a moment: nothing changed, try again (503)."""


@dataclass(frozen=True)
class Config:
    """The server's settings: every bound has a default, an option of ``python -m
    spillebord.server`` (``--hint-seconds``) and a ``spillebord serve`` option (the common ones by
    name, every one as ``--set hint_seconds=5``)."""

    takeover_after: float = 120.0
    """Seconds without a connection before a bot takes an abandoned seat over (0: never)."""
    bot_budget: float = 2.0
    """Thinking budget of a bot per move, in seconds (a random legal move when exceeded)."""
    bot_delay: float = 0.0
    """Pause before each bot move (so that people can follow)."""
    bot_threads: int = 4
    """Threads for the server's own CPU work off the event loop (replaying tables), and for
    bot thinking when :attr:`bot_processes` is 0."""
    bot_processes: int = 0
    """Worker processes bots think in (off the event loop and its GIL): -1 for the machine's
    cores less one (at least 1), 0 for threads in the server's process (in-process tests;
    ``spillebord serve`` defaults to -1). Never more bots think at once than there are workers
    (or threads); waiting bots queue in turn across tables."""
    stall_after: float = 5.0
    """A bot turn nobody played for this long is (re)started by this worker (crashed peer)."""
    evict_after: float = 300.0
    """A finished table nobody watches is dropped from memory after this long."""
    client_seeds: bool = False
    """Accept a seed chosen by the creator (tests and benchmarks only: a creator who knows
    the seed knows every hand). Off, the server draws every seed with :mod:`secrets`."""
    max_body: int = 64 * 1024
    """Largest HTTP request body, in bytes (413 above)."""
    creates_per_minute: int = 20
    """Tables one client address may create per minute (429 above)."""
    posts_per_minute: int = 240
    """HTTP requests other than GET one client address may make per minute (429 above)."""
    connects_per_minute: int = 240
    """Websocket connections one client address may open per minute (refused above)."""
    open_tables: int = 30
    """Unfinished tables one client address may have created (429 above)."""
    lobby_limit: int = 200
    """Most tables the lobby lists (newest first)."""
    idle_hours: float = 24.0
    """An unfinished table no person has been connected to for this long is closed and kept
    as a record (0: never)."""
    bot_only_delay: float = 0.5
    """Least pause before each move of a table with no person at it (bot-only tables are
    throttled so that they cannot crowd people out)."""
    bot_only_running: int = 8
    """Bot-only tables whose bots think at the same time (the others wait their turn)."""
    db_busy_timeout: float = 5.0
    """Seconds an SQLite write waits for a lock held elsewhere before the client is told to
    try again (nothing changed)."""
    hint_iterations: int = 0
    """Search iterations of one hint (the web table's "Hint"); 0: the Master level's own
    budget, stopped early after ``hint_seconds``."""
    hint_seconds: float = 3.0
    """Most seconds a hint thinks when ``hint_iterations`` is 0."""
    review_iterations: int = 400
    """Search iterations per decision of a game review (as ``spillebord review``); 0: the
    Master level's own budget, stopped early after ``review_seconds``."""
    review_seconds: float = 1.0
    """Most seconds a review thinks about one decision when ``review_iterations`` is 0."""
    review_samples: int = 24
    """Playouts comparing the played and the best action in a review."""
    review_jobs: int = 1
    """Reviews computed at the same time by one worker (the others wait their turn)."""
    gc_young: int = 700
    """Objects allocated (less those freed) between two collections of the youngest
    generation (Python's 700). A collection's pause grows with it: old objects that die lower
    the count, so at 1,000 tables 10,000 let the youngest generation hold 10,000-50,000
    objects (pauses up to 55 ms, the middle generation's up to 150 ms, against 16 and 41 ms)."""
    gc_middle: int = 10
    """Collections of the youngest generation between two of the middle one (Python's 10)."""
    gc_old: int = 0
    """Collections of the middle generation between two of the oldest (Python's 10). 0: no
    collection of the oldest generation but the full one every ``gc_full_every`` seconds. At
    1,000 tables each took some 200 ms every 20 s (it looks at every connection's coroutines,
    some 200,000 objects), and found fewer than 1,000 objects of garbage; a pause that long
    was the 99th percentile of the person's wait. With ``gc_full_every`` 0 it is Python's 10."""
    gc_full_every: float = 600.0
    """Seconds between two garbage collections of everything the server holds (a pause of
    some 300 ms at 1,000 tables, where it finds a few hundred objects of garbage). What
    survives one is frozen (:func:`gc.freeze`), so a collection of the oldest generation
    (``gc_old``) would look only at what came since; 0: Python's own collector, which looks
    at everything each time."""

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


__all__ = [
    "BadRequest",
    "Busy",
    "Config",
    "Conflict",
    "NotFound",
    "Stale",
    "StorageFailed",
    "TooMany",
    "Unavailable",
]
