"""The hub: live tables in memory, their connections, bots and abandoned seats.

One hub per server process. A live table is a :class:`~spillebord.tables.Table` (the one
place that validates and applies actions) plus its seats and connections. An action is
applied on a copy of the table, stored (sequence number checked by the database in the same
transaction), and only then swapped in and broadcast: nothing is acknowledged or sent that
is not committed. Other workers learn of it through the bus and catch up from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from spillebord.ai import decide, make_agent
from spillebord.core import Game, IllegalAction, Rng, registry
from spillebord.core.errors import GameOver, SpillebordError
from spillebord.core.options import to_dict as options_to_dict
from spillebord.store import AsyncPgAppender, SeatRec, SeqConflict, Store, TableRec
from spillebord.tables import RECORD_FORMAT, RECORD_VERSION, Table

log = logging.getLogger("spillebord.server")
T = TypeVar("T")


class NotFound(SpillebordError):
    """No such table."""


class Stale(SpillebordError):
    """The client acted on an old state."""


class BadRequest(SpillebordError):
    """A request that does not make sense."""


@dataclass
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


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _mix(seed: int, n: int) -> int:
    return int.from_bytes(hashlib.blake2b(f"{seed}:{n}".encode(), digest_size=8).digest(), "big")


def public_actions(game: Game[Any]) -> bool:
    """Whether a game's action texts are public information.

    Action texts can carry secrets (a card passed face down, a sealed bid), so by default they
    go to the acting seat only; everyone else learns what happened from the events, which the
    contract makes public. A game whose actions are all public says ``public_actions = True``.
    """
    return bool(getattr(game, "public_actions", False))


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


@dataclass
class LiveTable:
    id: str
    game: Game[Any]
    table: Table
    seats: list[SeatRec]
    public: bool
    created: float
    events: list[dict[str, Any]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: dict[int | None, set[Conn]] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    agents: dict[tuple[int, str], Any] = field(default_factory=dict)
    changed: float = field(default_factory=time.monotonic)
    sync_pending: bool = False

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name == "seats":  # seats are replaced, never edited, where it matters: cache this
            object.__setattr__(self, "has_free", any(s.free for s in value))

    @property
    def status(self) -> str:
        if self.table.state.to_act is None:
            return "over"
        if self.has_free:
            return "open"
        return "running"

    @property
    def seq(self) -> int:
        return len(self.table.log)

    def agent_of(self, seat: int) -> str | None:
        s = self.seats[seat]
        return s.bot or s.takeover

    def agent(self, seat: int, name: str, budget: float | None = None) -> Any:
        key = (seat, name)
        if key not in self.agents:
            agent = make_agent(name, self.game)
            # Agents that search (ISMCTS) take a time budget; leave room for the rest.
            if budget is not None and hasattr(agent, "budget"):
                with contextlib.suppress(Exception):
                    agent.budget = budget * 0.8
            self.agents[key] = agent
        return self.agents[key]

    def local_conns(self, seat: int | None) -> int:
        return sum(1 for c in self.conns.get(seat, ()) if not c.closed)


def _json(x: Any) -> str:
    return json.dumps(x, ensure_ascii=False, separators=(",", ":"))


class Hub:
    INLINE_BOT = 0.002
    """Bots whose decisions take less than this (on average, seconds) run on the event loop."""

    def __init__(self, store: Store, config: Config, worker_id: str, multi: bool) -> None:
        self.store = store
        self.cfg = config
        self.worker_id = worker_id
        self.multi = multi
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}
        self.db_exec = ThreadPoolExecutor(1 if store.is_sqlite else 4, thread_name_prefix="sb-db")
        self.cpu_exec = ThreadPoolExecutor(max(1, config.bot_threads), thread_name_prefix="sb-bot")
        self._tasks: set[asyncio.Task[Any]] = set()
        self._maint: asyncio.Task[None] | None = None
        self.closing = False
        t = config.takeover_after
        self.tick = max(0.1, min(0.5, t / 4)) if t > 0 else 0.5
        self.heartbeat = max(self.tick, min(10.0, t / 3)) if t > 0 else 10.0
        self._last_hb = 0.0
        self.agent_cost: dict[tuple[str, str], float] = {}
        self._ckpt_task: asyncio.Future[None] | None = None
        self.appender: AsyncPgAppender | None = None

    # ----------------------------------------------------------------- plumbing

    async def db(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        if self.store.is_sqlite:
            # SQLite is a local file: a commit in WAL mode takes tens of microseconds, far less
            # than handing the work to a thread (and waiting for the GIL to come back).
            return fn(*args, **kw)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db_exec, partial(fn, *args, **kw))

    async def cpu(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.cpu_exec, partial(fn, *args))

    def spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    def _note(self, kind: str, table_id: str, **kw: Any) -> dict[str, Any] | None:
        if not self.multi:
            return None
        return {"k": kind, "t": table_id, "w": self.worker_id, **kw}

    async def start(self) -> None:
        await self.db(self.store.create_all)
        if self.store.is_pg:
            self.appender = AsyncPgAppender(self.store.url)
            await self.appender.start()
        await self.recover()
        # Everything loaded so far (modules, rebuilt tables) lives as long as the process:
        # keep it out of the collector's way, and collect the oldest generation less often.
        gc.collect()
        gc.freeze()
        gc.set_threshold(10_000, 20, 50)
        self._watch_gc()
        self._maint = asyncio.create_task(self._maintain())

    async def stop(self) -> None:
        self.closing = True
        tasks = [t for t in [self._maint] if t is not None]
        tasks += [lt.bot_task for lt in self.tables.values() if lt.bot_task is not None]
        tasks += list(self._tasks)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        for lt in self.tables.values():
            for conns in lt.conns.values():
                for c in conns:
                    c.close()
        if self.appender is not None:
            await self.appender.close()
        self.cpu_exec.shutdown(wait=False, cancel_futures=True)
        self.db_exec.shutdown(wait=True)

    # ----------------------------------------------------------------- loading

    def _build(self, rec: TableRec) -> LiveTable:
        """Rebuild a table by replaying its stored actions (the last one separately, for its events)."""
        game = registry.get(rec.game)
        names = [s.name or s.bot or "" for s in rec.seat_recs]
        record = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": rec.game,
            "seats": rec.seats,
            "seed": rec.seed,
            "options": rec.options,
            "players": names,
            "actions": [{"seat": seat, "action": text} for _, seat, text, _ in rec.actions],
        }
        n = len(rec.actions)
        table = Table.from_record(record, upto=max(0, n - 1))
        events: list[dict[str, Any]] = []
        if n:
            _, seat, text, _ = rec.actions[-1]
            events = table.act(seat, text)
        return LiveTable(rec.id, game, table, rec.seat_recs, rec.public, rec.created, events)

    async def get(self, table_id: str) -> LiveTable:
        lt = self.tables.get(table_id)
        if lt is not None:
            return lt
        fut = self._loading.get(table_id)
        if fut is not None:
            return await asyncio.shield(fut)
        fut = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            rec = await self.db(self.store.load_table, table_id)
            if rec is None:
                raise NotFound(f"no table {table_id!r}")
            lt = await self.cpu(self._build, rec)
            self.tables[table_id] = lt
            fut.set_result(lt)
            return lt
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: no warning when nobody else waited
            raise
        finally:
            del self._loading[table_id]

    async def recover(self) -> None:
        """Rebuild every unfinished table by replay, and let its bots play on."""
        await self.db(self.store.touch_running)
        ids = await self.db(self.store.unfinished_ids)
        for tid in ids:
            try:
                lt = await self.get(tid)
            except Exception as e:
                log.error("table %s does not replay: %s", tid, e)
                continue
            self.schedule_bots(lt)
        if ids:
            log.info("rebuilt %d unfinished tables", len(ids))

    # ----------------------------------------------------------------- lobby

    async def create(
        self,
        game_id: str,
        seats: int | None,
        options: dict[str, Any] | None,
        bots: Sequence[str | None] | None,
        public: bool,
        seed: int | None,
        name: str | None,
    ) -> tuple[str, int | None, str | None]:
        game = registry.get(game_id)
        n = game.seats.start if seats is None else seats
        game.check_seats(n)
        bot_list = list(bots) if bots is not None else [None] * n
        if len(bot_list) != n:
            raise BadRequest(f"bots: give one entry per seat ({n}), not {len(bot_list)}")
        for b in bot_list:
            if b is not None:
                make_agent(b, game)  # an unknown agent fails here, readably
        if seed is None:
            seed = secrets.randbits(62)
        elif not 0 <= seed < 2**63:
            raise BadRequest("seed must be between 0 and 2**63 - 1")
        table = Table.create(game, n, seed, options or {})
        now = time.time()
        seat_recs = [SeatRec(i, name=b, bot=b, seen=now) for i, b in enumerate(bot_list)]
        token = None
        my_seat = next((i for i, b in enumerate(bot_list) if b is None), None)
        if my_seat is not None:
            token = secrets.token_urlsafe(24)
            seat_recs[my_seat].token_hash = token_hash(token)
            seat_recs[my_seat].name = (name or "").strip()[:80] or f"Player {my_seat + 1}"
        table.players = [s.name or "" for s in seat_recs]
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        lt = LiveTable(table_id, game, table, seat_recs, public, now)
        rec = TableRec(
            id=table_id,
            game=game.id,
            seats=n,
            seed=seed,
            options=options_to_dict(table.options),
            public=public,
            status=lt.status,
            n_actions=0,
            result=None,
            created=now,
            updated=now,
            seat_recs=seat_recs,
        )
        await self.db(self.store.create_table, rec)
        self.tables[table_id] = lt
        self.schedule_bots(lt)
        return table_id, my_seat, token

    async def join(self, table_id: str, seat: int | None, name: str) -> tuple[int, str]:
        lt = await self.get(table_id)
        if lt.table.is_over:
            from spillebord.store import SeatTaken

            raise SeatTaken("the game is over")
        token = secrets.token_urlsafe(24)
        name = (name or "").strip()[:80]
        got = await self.db(
            self.store.claim_seat,
            table_id,
            seat,
            name or "Player",
            token_hash(token),
            self._note("s", table_id),
        )
        await self.reload_seats(lt)
        return got, token

    async def reload_seats(self, lt: LiveTable, bots: bool = True) -> None:
        """Read the seats again (a join, a takeover); ``bots``: start this table's bots here
        if they are to play (not when another worker told us: it drives them)."""
        seats = await self.db(self.store.load_seats, lt.id)
        async with lt.lock:
            lt.seats = seats
            lt.table.players = [s.name or "" for s in seats]
            self.broadcast(lt)
        if bots:
            self.schedule_bots(lt)

    def players(self, lt: LiveTable) -> list[dict[str, Any]]:
        now = time.time()
        out = []
        for s in lt.seats:
            agent = s.bot or s.takeover
            connected = lt.local_conns(s.seat) > 0
            if not connected and self.multi and s.token_hash and s.seen is not None:
                connected = now - s.seen < 2.5 * self.heartbeat and s.takeover is None
            out.append(
                {
                    "seat": s.seat,
                    "name": s.name or (f"Player {s.seat + 1}" if agent is None else agent),
                    "bot": agent,
                    "connected": bool(agent) or connected,
                    "free": s.free,
                    "takeover": s.takeover is not None,
                }
            )
        return out

    def summary(self, lt: LiveTable) -> dict[str, Any]:
        res = lt.table.result()
        return {
            "table": lt.id,
            "game": lt.game.id,
            "title": lt.game.title,
            "seats": lt.table.seats,
            "status": lt.status,
            "free_seats": [s.seat for s in lt.seats if s.free],
            "players": self.players(lt),
            "created": lt.created,
            "public": lt.public,
            "seq": lt.seq,
            "to_act": lt.table.to_act,
            "result": list(res) if res is not None else None,
        }

    def summary_rec(self, rec: TableRec) -> dict[str, Any] | None:
        lt = self.tables.get(rec.id)
        if lt is not None:
            return self.summary(lt)
        try:
            game = registry.get(rec.game)
        except SpillebordError:
            return None
        now = time.time()
        players = []
        for s in rec.seat_recs:
            agent = s.bot or s.takeover
            recent = s.token_hash is not None and s.seen is not None and now - s.seen < 2.5 * self.heartbeat
            players.append(
                {
                    "seat": s.seat,
                    "name": s.name or (f"Player {s.seat + 1}" if agent is None else agent),
                    "bot": agent,
                    "connected": bool(agent) or (self.multi and recent and s.takeover is None),
                    "free": s.free,
                    "takeover": s.takeover is not None,
                }
            )
        return {
            "table": rec.id,
            "game": rec.game,
            "title": game.title,
            "seats": rec.seats,
            "status": rec.status,
            "free_seats": [s.seat for s in rec.seat_recs if s.free],
            "players": players,
            "created": rec.created,
            "public": rec.public,
            "seq": rec.n_actions,
            "to_act": None,
            "result": rec.result,
        }

    # ----------------------------------------------------------------- messages

    def state_message(self, lt: LiveTable, seat: int | None) -> str:
        table = lt.table
        state = table.state
        to_act = state.to_act
        legal: list[dict[str, Any]] = []
        if seat is not None and seat == to_act and lt.status == "running" and lt.agent_of(seat) is None:
            legal = [{"text": str(a), "label": a.label(), "json": a.to_json()} for a in state.legal()]
        last = None
        if table.log:
            a_seat, a_text = table.log[-1]
            last = {"seat": a_seat, "action": a_text if (seat == a_seat or public_actions(lt.game)) else None}
        res = state.result()
        return _json(
            {
                "type": "state",
                "seq": len(table.log),
                "seat": seat,
                "game": lt.game.id,
                "view": state.view(seat),
                "to_act": to_act,
                "legal": legal,
                "events": lt.events,
                "result": list(res) if res is not None else None,
                "players": self.players(lt),
                "last": last,
                "table": lt.id,
                "status": lt.status,
            }
        )

    def broadcast(self, lt: LiveTable) -> None:
        """Send every connection of the table its seat's state (call with ``lt.lock`` held)."""
        for seat, conns in list(lt.conns.items()):
            live = [c for c in conns if not c.closed]
            if not live:
                continue
            try:
                msg = self.state_message(lt, seat)
            except Exception:  # an engine bug must not take the table (or the socket) down
                log.exception("table %s: cannot build the state for seat %s", lt.id, seat)
                msg = _json({"type": "error", "message": "the server could not show this state"})
            for c in live:
                c.put(msg)

    async def connect(self, lt: LiveTable, conn: Conn) -> None:
        async with lt.lock:
            lt.conns.setdefault(conn.seat, set()).add(conn)
            seat = conn.seat
            if seat is not None:
                s = lt.seats[seat]
                if s.takeover is not None:  # the player is back: the bot leaves the seat
                    s.takeover = None
                    await self.db(self.store.set_takeover, lt.id, seat, None, None, self._note("s", lt.id))
                else:
                    await self.db(self.store.touch, [(lt.id, seat)])
                s.seen = time.time()
            self.broadcast(lt)

    async def disconnect(self, lt: LiveTable, conn: Conn) -> None:
        conn.close()
        async with lt.lock:
            conns = lt.conns.get(conn.seat)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del lt.conns[conn.seat]
            if conn.seat is not None and lt.local_conns(conn.seat) == 0:
                with contextlib.suppress(Exception):
                    await self.db(self.store.touch, [(lt.id, conn.seat)])
            if not self.closing:
                self.broadcast(lt)

    async def seat_for_token(self, lt: LiveTable, token: str) -> int | None:
        h = token_hash(token)
        for s in lt.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat
        # Joined through another worker a moment ago? Look in the database.
        seats = await self.db(self.store.load_seats, lt.id)
        if any(s.token_hash == h for s in seats):
            await self.reload_seats(lt)
            for s in lt.seats:
                if s.token_hash == h:
                    return s.seat
        return None

    # ----------------------------------------------------------------- playing

    async def submit(self, lt: LiveTable, seat: int, text: str, seq: int | None = None) -> None:
        """Apply ``text`` for ``seat``: validated, stored, then broadcast. Raises readable errors."""
        for _attempt in range(5):
            async with lt.lock:
                n = lt.seq
                if seq is not None and seq != n:
                    raise Stale(f"stale: the table is at action {n}, your action was for {seq}")
                if lt.table.is_over:
                    raise GameOver(f"{lt.game.title}: the game is over")
                if lt.status == "open" and self.multi:  # joined through another worker just now?
                    lt.seats = await self.db(self.store.load_seats, lt.id)
                    lt.table.players = [s.name or "" for s in lt.seats]
                if lt.status == "open":
                    free = ", ".join(str(s.seat) for s in lt.seats if s.free)
                    raise IllegalAction(f"waiting for players (free seats: {free})")
                cand = dataclasses.replace(lt.table, state=lt.table.state.copy(), log=list(lt.table.log))
                try:
                    events = cand.act(seat, text)
                except SpillebordError:
                    raise
                except Exception:
                    log.exception("%s engine failed on %r", lt.game.id, text)
                    raise IllegalAction(
                        f"{lt.game.title}: the server could not apply {text!r} (engine error); "
                        "nothing changed"
                    ) from None
                acting, canon = cand.log[-1]
                res = cand.result()
                status = "over" if cand.is_over else "running"
                try:
                    note = self._note("a", lt.id, s=n)
                    if self.appender is not None:
                        await self.appender.append(lt.id, n, acting, canon, status, res, note)
                    else:
                        await self.db(self.store.append_action, lt.id, n, acting, canon, status, res, note)
                except SeqConflict:
                    # Another worker stored action n first: catch up and try again.
                    await self._sync_locked(lt)
                    self.broadcast(lt)
                    if seq is not None:
                        raise Stale(
                            f"stale: another action was applied first (the table is at {lt.seq})"
                        ) from None
                    continue
                lt.table = cand
                lt.events = events
                lt.changed = time.monotonic()
                self.broadcast(lt)
            self.schedule_bots(lt)
            return
        raise Stale("the table is busy; try again")

    async def _sync_locked(self, lt: LiveTable) -> bool:
        """Apply actions stored by other workers (call with ``lt.lock`` held)."""
        rows = await self.db(self.store.actions_since, lt.id, lt.seq)
        if not rows:
            return False
        cand = dataclasses.replace(lt.table, state=lt.table.state.copy(), log=list(lt.table.log))
        events = lt.events
        try:
            for seq, seat, text, _ in rows:
                if seq != len(cand.log):
                    raise RuntimeError(f"gap in the log at {seq}")
                events = cand.act(seat, text)
        except Exception as e:
            log.error("table %s: stored actions do not apply (%s); rebuilding", lt.id, e)
            rec = await self.db(self.store.load_table, lt.id)
            if rec is None:
                return False
            fresh = await self.cpu(self._build, rec)
            cand, events = fresh.table, fresh.events
        lt.table = cand
        lt.events = events
        lt.changed = time.monotonic()
        return True

    async def sync(self, lt: LiveTable) -> None:
        if lt.sync_pending:
            return
        lt.sync_pending = True
        async with lt.lock:
            lt.sync_pending = False
            if await self._sync_locked(lt):
                self.broadcast(lt)

    def on_bus(self, msg: dict[str, Any]) -> None:
        if msg.get("w") == self.worker_id:
            return
        lt = self.tables.get(str(msg.get("t")))
        if lt is None:
            return
        kind = msg.get("k")
        if kind == "a":
            s = msg.get("s")
            if isinstance(s, int) and s >= lt.seq:
                self.spawn(self.sync(lt))
        elif kind == "s":
            self.spawn(self.reload_seats(lt, bots=False))

    async def resync_all(self) -> None:
        for lt in list(self.tables.values()):
            await self.sync(lt)
            await self.reload_seats(lt, bots=False)

    # ----------------------------------------------------------------- bots

    def schedule_bots(self, lt: LiveTable) -> None:
        if self.closing or (lt.bot_task is not None and not lt.bot_task.done()):
            return
        if lt.status != "running":
            return
        s = lt.table.to_act
        if s is None or lt.agent_of(s) is None:
            return
        lt.bot_task = asyncio.create_task(self._bot_loop(lt))

    def _choose(self, agent: Any, state: Any, rng: Rng) -> tuple[str, float]:
        """The bot's move and the time it took to decide (thread time, not waiting)."""
        t0 = time.thread_time()
        text = str(decide(agent, state, rng))
        return text, time.thread_time() - t0

    async def _bot_loop(self, lt: LiveTable) -> None:
        failures = 0
        try:
            while not self.closing and lt.status == "running":
                seat = lt.table.to_act
                if seat is None:
                    return
                name = lt.agent_of(seat)
                if name is None:
                    return
                if self.cfg.bot_delay > 0:
                    await asyncio.sleep(self.cfg.bot_delay)
                    if lt.table.to_act != seat or lt.agent_of(seat) != name:
                        continue
                n = lt.seq
                state = lt.table.state.copy()
                rng = Rng(_mix(lt.table.seed, n) + failures)
                try:
                    agent = lt.agent(seat, name, self.cfg.bot_budget)
                    if failures >= 2:
                        raise RuntimeError("the agent keeps failing")
                    key = (lt.game.id, name)
                    cost = self.agent_cost.get(key)
                    if cost is not None and cost < self.INLINE_BOT:
                        # A bot this quick (random, a cheap heuristic) decides right here: a
                        # thread would cost more than the decision.
                        t0 = time.perf_counter()
                        text = str(decide(agent, state, rng))
                        dt = time.perf_counter() - t0
                        await asyncio.sleep(0)
                    else:
                        text, dt = await asyncio.wait_for(
                            self.cpu(self._choose, agent, state, rng), self.cfg.bot_budget
                        )
                    self.agent_cost[key] = dt if cost is None else 0.8 * cost + 0.2 * dt
                except TimeoutError:
                    log.warning(
                        "table %s: %s bot over its %.1fs budget; random move",
                        lt.id,
                        name,
                        self.cfg.bot_budget,
                    )
                    text = str(rng.choice(list(state.legal())))
                except Exception:
                    log.exception("table %s: %s bot failed; random move", lt.id, name)
                    text = str(rng.choice(list(state.legal())))
                if lt.agent_of(seat) != name or lt.seq != n:
                    continue  # the player came back, or someone else moved meanwhile
                try:
                    await self.submit(lt, seat, text, seq=n)
                    failures = 0
                except Stale:
                    # Someone else moved first: another worker drives this table's bots now
                    # (the next local action, or the stall watchdog, starts ours again).
                    return
                except SpillebordError as e:
                    failures += 1
                    log.warning("table %s: bot move %r refused: %s", lt.id, text, e)
                    if failures > 5:
                        return
                    await asyncio.sleep(0.05 * failures)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: bot loop failed", lt.id)

    # ----------------------------------------------------------------- upkeep

    @staticmethod
    def _watch_gc() -> None:
        """Log garbage collections long enough to be felt as latency."""
        started: list[float] = []

        def cb(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                started[:] = [time.perf_counter()]
            elif started:
                dt = time.perf_counter() - started[0]
                if dt > 0.1:
                    gen = info.get("generation")
                    log.warning("garbage collection (generation %s) took %.0f ms", gen, dt * 1000)

        gc.callbacks.append(cb)

    async def _maintain(self) -> None:
        while not self.closing:
            t0 = time.perf_counter()
            await asyncio.sleep(self.tick)
            lag = time.perf_counter() - t0 - self.tick
            if lag > 0.25:
                log.warning("the event loop was blocked for %.0f ms", lag * 1000)
            try:
                await self.maintain_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("maintenance failed")

    async def maintain_once(self) -> None:
        now = time.time()
        if self.store.is_sqlite and (self._ckpt_task is None or self._ckpt_task.done()):
            loop = asyncio.get_running_loop()
            self._ckpt_task = loop.run_in_executor(self.db_exec, self.store.checkpoint)
        if now - self._last_hb >= self.heartbeat:
            self._last_hb = now
            live = [
                (lt.id, s)
                for lt in self.tables.values()
                for s in lt.conns
                if s is not None and lt.local_conns(s)
            ]
            if live:
                await self.db(self.store.touch, live, now)
        if self.cfg.takeover_after > 0:
            cutoff = now - self.cfg.takeover_after
            for tid, seat in await self.db(self.store.abandoned, cutoff):
                lt0 = self.tables.get(tid)
                if lt0 is not None and lt0.local_conns(seat):
                    continue
                try:
                    lt = await self.get(tid)
                except Exception:
                    continue
                agent = lt.game.best_bot
                if await self.db(self.store.set_takeover, tid, seat, agent, cutoff, self._note("s", tid)):
                    log.info("table %s: seat %d abandoned; %s takes over", tid, seat, agent)
                    async with lt.lock:
                        lt.seats[seat].takeover = agent
                        self.broadcast(lt)
                    self.schedule_bots(lt)
        mono = time.monotonic()
        for lt in list(self.tables.values()):
            if lt.status == "running" and (lt.bot_task is None or lt.bot_task.done()):
                s = lt.table.to_act
                if s is not None and lt.agent_of(s) is not None and mono - lt.changed > self.cfg.stall_after:
                    self.schedule_bots(lt)
            elif (
                lt.status == "over"
                and not any(lt.local_conns(s) for s in list(lt.conns))
                and mono - lt.changed > self.cfg.evict_after
            ):
                del self.tables[lt.id]
