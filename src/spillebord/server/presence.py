"""Presence: who is connected to which seat, the heartbeat that says so to the other
workers, and the takeover of abandoned seats by a bot (and their return to the person).

A connection (:class:`Conn`) is one websocket with its outgoing queue. :meth:`Presence.broadcast`
sends every connection of a table its seat's state (the service calls it with the table's
lock held, so messages go out in sequence order).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from collections.abc import Awaitable, Callable

from spillebord.ai import best_agent
from spillebord.store import SeatRec

from .actionlog import Storage
from .bus import Notes
from .clock import Clock
from .errors import Config
from .service import LiveTable, TableService
from .wire import PlayerInfo, PlayersMsg, encode, error

log = logging.getLogger("spillebord.server")


SEEN_FRESH = 1.0
"""Seconds: a seat stored as seen this recently (its table created just now, its creator
connecting) is not written again when it connects: the stored time is already about now,
and the heartbeat writes it while the socket stays. One store round trip less per table."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Conn:
    """One websocket (a seat or a spectator) with its outgoing queue."""

    MAX_QUEUE = 2000

    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]]) -> None:
        self.seat = seat
        self._send = send
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def put(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() > self.MAX_QUEUE:  # a client that does not read: drop it
            self.close()
            return
        self.queue.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    async def sender(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                return
            await self._send(text)


class Presence:
    def __init__(
        self,
        service: TableService,
        storage: Storage,
        clock: Clock,
        config: Config,
        notes: Notes,
    ) -> None:
        self.service = service
        self.book = storage
        self.clock = clock
        self.cfg = config
        self.notes = notes
        self.conns: dict[str, dict[int | None, set[Conn]]] = {}
        self.on_seats: list[Callable[[LiveTable], None]] = []
        """Called after a table's seats changed here (a bot took a seat over): its bots may play."""
        self.keeps: list[Callable[[str], bool]] = []
        """Whether a table's absent people keep their seats (a time control rules them, not
        ``takeover_after``)."""
        self._last_heartbeat = float("-inf")
        self.closing = False

    # ----------------------------------------------------------------- connections

    def local_conns(self, table_id: str, seat: int | None) -> int:
        return sum(1 for c in self.conns.get(table_id, {}).get(seat, ()) if not c.closed)

    def watched(self, table_id: str) -> bool:
        """Whether anyone (a seat or a spectator) is connected to the table here."""
        return any(not c.closed for conns in self.conns.get(table_id, {}).values() for c in conns)

    async def connect(self, lt: LiveTable, conn: Conn) -> None:
        """Add a connection; it gets its seat's state at once (a person coming back gets the
        seat back from the bot that took it over)."""
        async with lt.lock:
            self.conns.setdefault(lt.id, {}).setdefault(conn.seat, set()).add(conn)
            seat = conn.seat
            if seat is not None:
                s = lt.seats[seat]
                now = self.clock.time()
                try:
                    if s.takeover is not None:  # the player is back: the bot leaves the seat
                        s.takeover = None
                        note = self.notes.note("s", lt.id)
                        await self.book.set_takeover(lt.id, seat, None, now, notify=note)
                    elif s.seen is None or now - s.seen >= SEEN_FRESH:
                        await self.book.touch([(lt.id, seat)], now)
                except Exception as e:  # the database is busy: the socket is served all the same
                    log.warning(
                        "table %s: seat %d connected, not yet recorded (%s)",
                        lt.id,
                        seat,
                        e,
                        extra={"table": lt.id},
                    )
                s.seen = now
            # The newcomer gets the whole state; the others only hear who is there now.
            players = self.players(lt)
            conn.put(self._message(lt, conn.seat, players))
            self.announce_players(lt, players, skip=conn)

    async def disconnect(self, lt: LiveTable, conn: Conn) -> None:
        conn.close()
        async with lt.lock:
            table_conns = self.conns.get(lt.id, {})
            conns = table_conns.get(conn.seat)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del table_conns[conn.seat]
            if not table_conns:
                self.conns.pop(lt.id, None)
            # (The time a person left is for running tables, which can be abandoned; at an
            # over table it is a transaction for nothing, the last of each finished game.)
            if conn.seat is not None and not lt.is_over and self.local_conns(lt.id, conn.seat) == 0:
                with contextlib.suppress(Exception):
                    await self.book.touch([(lt.id, conn.seat)], self.clock.time())
            if not self.closing:
                self.announce_players(lt, self.players(lt))

    def send_state(self, lt: LiveTable, conn: Conn) -> None:
        """Send one connection its seat's current state (a client asked to sync)."""
        conn.put(self._message(lt, conn.seat, self.players(lt)))

    def _message(self, lt: LiveTable, seat: int | None, players: list[PlayerInfo]) -> str:
        try:
            return encode(self.service.client_state(lt, seat, players))
        except Exception:  # an engine bug must not take the table (or the socket) down
            log.exception("table %s: cannot build the state for seat %s", lt.id, seat)
            return error("the server could not show this state")

    def broadcast(self, lt: LiveTable) -> None:
        """Send every connection of the table its seat's state (call with ``lt.lock`` held)."""
        table_conns = self.conns.get(lt.id)
        if not table_conns:
            return
        players = self.players(lt)
        for seat, conns in list(table_conns.items()):
            live = [c for c in conns if not c.closed]
            if not live:
                continue
            msg = self._message(lt, seat, players)
            for c in live:
                c.put(msg)

    def announce_players(self, lt: LiveTable, players: list[PlayerInfo], skip: Conn | None = None) -> None:
        """Tell every connection of the table who is there (a small ``players`` message: a
        connect or a disconnect changes nothing else)."""
        table_conns = self.conns.get(lt.id)
        if not table_conns:
            return
        msg = encode(PlayersMsg(type="players", seq=lt.seq, players=players))
        for conns in table_conns.values():
            for c in conns:
                if c is not skip and not c.closed:
                    c.put(msg)

    def close_all(self) -> None:
        self.closing = True
        for table_conns in self.conns.values():
            for conns in table_conns.values():
                for c in conns:
                    c.close()

    # ----------------------------------------------------------------- who is there

    def _player(self, s: SeatRec, connected_here: bool, now: float) -> PlayerInfo:
        agent = s.bot or s.takeover
        connected = connected_here
        if not connected and self.notes.multi and s.token_hash and s.seen is not None:
            # Connected to another worker? Its heartbeat says so.
            connected = now - s.seen < 2.5 * self.cfg.heartbeat and s.takeover is None
        return PlayerInfo(
            seat=s.seat,
            name=s.name or (f"Player {s.seat + 1}" if agent is None else agent),
            bot=agent,
            connected=bool(agent) or connected,
            free=s.free,
            takeover=s.takeover is not None,
        )

    def players(self, lt: LiveTable) -> list[PlayerInfo]:
        now = self.clock.time()
        return [self._player(s, self.local_conns(lt.id, s.seat) > 0, now) for s in lt.seats]

    def players_of(self, seats: list[SeatRec]) -> list[PlayerInfo]:
        """The players of a table not in memory here (from its stored seats)."""
        now = self.clock.time()
        return [self._player(s, False, now) for s in seats]

    async def seat_for_token(self, lt: LiveTable, token: str) -> int | None:
        h = token_hash(token)
        for s in lt.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat
        # Joined through another worker a moment ago? Look in the database.
        seats = await self.book.seats(lt.id)
        if any(s.token_hash == h for s in seats):
            await self.reload_seats(lt)
            for s in lt.seats:
                if s.token_hash == h:
                    return s.seat
        return None

    async def reload_seats(self, lt: LiveTable, bots: bool = True) -> None:
        """Read the seats again (a join, a takeover); ``bots``: let this table's bots play here
        (not when another worker told us: it drives them)."""
        seats = await self.book.seats(lt.id)
        async with lt.lock:
            lt.set_seats(seats)
            self.broadcast(lt)
        if bots:
            for fn in self.on_seats:
                fn(lt)

    # ----------------------------------------------------------------- upkeep

    async def fresh_start(self) -> None:
        """Server start: every seated person gets a full grace period before a takeover."""
        await self.book.touch_unfinished(self.clock.time())

    async def heartbeat(self) -> None:
        """Tell the database (so the other workers) which seats have a connection here."""
        now = self.clock.time()
        if now - self._last_heartbeat < self.cfg.heartbeat:
            return
        self._last_heartbeat = now
        live = [
            (tid, s)
            for tid, table_conns in self.conns.items()
            for s in table_conns
            if s is not None and self.local_conns(tid, s)
        ]
        if live:
            await self.book.touch(live, now)

    async def take_over(self) -> None:
        """A bot (the game's best agent) takes every seat left without a connection for
        ``takeover_after`` seconds; the person gets it back by connecting again."""
        if self.cfg.takeover_after <= 0:
            return
        now = self.clock.time()
        cutoff = now - self.cfg.takeover_after
        for tid, seat in await self.book.abandoned(cutoff):
            if tid in self.service.unavailable or self.local_conns(tid, seat):
                continue
            if any(keep(tid) for keep in self.keeps):
                continue
            try:
                lt = await self.service.get(tid)
            except Exception:
                continue
            agent = best_agent(lt.game)
            note = self.notes.note("s", tid)
            if await self.book.set_takeover(tid, seat, agent, now, cutoff, note):
                log.info("table %s: seat %d abandoned; %s takes over", tid, seat, agent)
                async with lt.lock:
                    lt.seats[seat].takeover = agent
                    self.broadcast(lt)
                for fn in self.on_seats:
                    fn(lt)


__all__ = ["Conn", "Presence", "token_hash"]
