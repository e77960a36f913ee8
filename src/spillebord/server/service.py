"""The table service: live tables in memory over an :class:`~.actionlog.ActionLog`.

It loads a table (replaying its log), applies an action (:meth:`TableService.submit`),
catches up with actions other workers stored (:meth:`TableService.catch_up`) and says what a
seat sees (:meth:`TableService.client_state`). An action is applied on a copy of the table,
appended to the log with its sequence number (the log refuses a number already taken), and
only then swapped in and announced: nothing is acknowledged or sent that is not committed.

Who hears of a change is not its business: :attr:`TableService.on_change` (called with the
table's lock held, in sequence order: broadcasting) and :attr:`TableService.on_moved`
(after: scheduling bots) are filled in by the hub.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from spillebord.core import Action, AnyGame, Event, IllegalAction, State, registry
from spillebord.core.errors import GameOver, SpillebordError, UnknownGame
from spillebord.store import NewAction, SeatRec, SeqConflict, TableRec
from spillebord.tables import RECORD_FORMAT, RECORD_VERSION, RecordError, Table

from .actionlog import ActionLog
from .bus import Notes
from .clock import Clock
from .errors import NotFound, Stale, StorageFailed, Unavailable
from .metrics import Metrics
from .wire import LastAction, LegalAction, PlayerInfo, StateMsg

log = logging.getLogger("spillebord.server")

SLOW_COMMIT = 0.2
"""Seconds: an append slower than this is logged."""


@dataclass(eq=False, slots=True)
class LegalCache:
    """The legal list of one state as the wire carries it, and each action by its canonical
    text: built once per state (every socket of the seat, a sync, gets the same list), and an
    ``act`` that sends one of these texts back is found without parsing."""

    state: State[Any]
    entries: list[LegalAction]
    by_text: dict[str, Action]


@dataclass(eq=False)
class LiveTable:
    """A table in memory: the :class:`~spillebord.tables.Table` (the one place that
    validates and applies actions) with its seats and the events of its last action."""

    id: str
    game: AnyGame
    table: Table
    seats: list[SeatRec]
    public: bool
    created: float
    changed: float
    """Monotonic time of the last change."""
    events: list[Event] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sync_pending: bool = False
    closed: bool = False
    """Closed after ``idle_hours`` without a person: kept as a record, never played again."""
    ended: list[float] | None = None
    """The outcome of a game ended outside its rules (a seat lost on time), or None."""
    undo: int = 0
    """How many of the last actions the seat to act may take back, one at a time: each was its
    own, reversible (:meth:`~spillebord.core.State.reversible`: no chance drawn, nothing
    hidden revealed), and left it to act again."""
    undone: int = 0
    """How many actions were taken back at this table so far (the store's audit rows of it):
    sent with every state and, when an ``act`` carries it, checked, so that an act resent
    after an undo (the same ``seq`` again) is told from a new one."""
    full: bool = False
    """No seat is free (a seat once taken is never free again: a latch, so that ``status``,
    read several times per action, does not scan the seats every time)."""
    legal_cache: LegalCache | None = None
    """The legal list of the seat to act as sent, for the present state only."""

    @property
    def status(self) -> str:
        if self.table.state.to_act is None or self.ended is not None:
            return "over"
        if self.closed:
            return "closed"
        if not self.full:
            if any(s.free for s in self.seats):
                return "open"
            self.full = True
        return "running"

    @property
    def seq(self) -> int:
        return len(self.table.log)

    @property
    def is_over(self) -> bool:
        return self.table.state.to_act is None or self.ended is not None

    def outcome(self) -> tuple[float, ...] | None:
        """The normalized outcome once over (of the rules, or of a loss on time)."""
        return tuple(self.ended) if self.ended is not None else self.table.state.outcome()

    @property
    def bots_only(self) -> bool:
        """No seat is a person's (a table of bots; its pace is throttled)."""
        return all(s.bot is not None for s in self.seats)

    def agent_of(self, seat: int) -> str | None:
        """The agent playing ``seat`` (configured, or taking over), or None for a person."""
        s = self.seats[seat]
        return s.bot or s.takeover

    def set_seats(self, seats: list[SeatRec]) -> None:
        self.seats = seats
        self.full = False
        self.table.players = [s.name or "" for s in seats]


def stored_record(rec: TableRec) -> dict[str, Any]:
    """The replay record of a stored table (format of :meth:`Table.to_record`), from what is
    stored alone: no replay, so it also serves a table this server cannot replay."""
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": rec.game,
        "engine": rec.engine,
        "seats": rec.seats,
        "seed": rec.seed,
        "options": rec.options,
        "players": [s.name or s.bot or "" for s in rec.seat_recs],
        "actions": [{"seat": a.seat, "action": a.action} for a in rec.actions],
        "outcome": rec.outcome,
        "scores": rec.scores,
        "truncated": rec.truncated,
        **({"salt": rec.salt, "commitment": rec.commitment} if rec.salt is not None else {}),
    }


def candidate(table: Table) -> Table:
    """A copy of ``table`` to try an action on (its state copied, its log a new list; the
    rest shared), made directly: ``dataclasses.replace`` costs more than the state's copy."""
    return Table(
        table.game,
        table.seats,
        table.seed,
        table.options,
        table.state.copy(),
        list(table.log),
        table.players,
        table.salt,
    )


def tracked_act(
    table: Table, seat: int | None, text: str, undo: int, action: Action | None = None
) -> tuple[list[Event], int]:
    """``table.act(seat, text)``, and the undo depth after it given the depth ``undo`` before
    (see :attr:`LiveTable.undo`): one more if the action was reversible and its seat acts
    again, else 0. ``action``: ``text`` already parsed in this state (see :meth:`Table.act`)."""
    state = table.state
    acting = state.to_act
    rev = False
    if acting is not None and type(state).reversible is not State.reversible:  # the game opted in
        with contextlib.suppress(SpillebordError):  # act raises the readable error
            rev = state.reversible(action if action is not None else table.game.parse(state, text))
    events = table.act(seat, text, action)
    return events, (undo + 1 if rev and table.state.to_act == acting else 0)


def replay_tracked(record: dict[str, Any], actions: int) -> tuple[Table, list[Event], int]:
    """The table after the first ``actions`` of ``record``, the events of the last of them and
    its undo depth (only the last seat's own run of actions is replayed step by step)."""
    entries = record["actions"][:actions]
    run = 0
    if entries:
        last_seat = entries[-1]["seat"]
        while run < len(entries) and entries[-1 - run]["seat"] == last_seat:
            run += 1
    table = Table.from_record(record, upto=len(entries) - run)
    events: list[Event] = []
    undo = 0
    for e in entries[len(entries) - run :]:
        events, undo = tracked_act(table, e["seat"], e["action"], undo)
    return table, events, undo


def unplayable(rec: TableRec) -> str | None:
    """Why this server cannot replay a stored table (without trying), or None."""
    try:
        game = registry.get(rec.game)
    except UnknownGame:
        return f"table {rec.id} is a game of {rec.game!r}, which this server does not have"
    if rec.engine != game.version:
        return (
            f"table {rec.id} was played on engine version {rec.engine} of {game.title}, and this server "
            f"has version {game.version}: it cannot be replayed exactly, so it is kept as it was stored "
            f"(a finished table keeps its record and result; the Spillebord release that recorded it "
            f"can resume an unfinished one)"
        )
    return None


class TableService:
    def __init__(
        self,
        log: ActionLog,
        clock: Clock,
        notes: Notes,
        executor: Executor | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.log = log
        self.metrics = metrics or Metrics()
        self._slow: tuple[float, int] = (-1e9, 0)
        """(when the last slow-commit warning was written, slow commits since): under load
        one line a second says how many, rather than one line per action."""
        self.clock = clock
        self.notes = notes
        self.executor = executor
        """Where tables are rebuilt by replay (None: on the event loop)."""
        self.tables: dict[str, LiveTable] = {}
        self.unavailable: dict[str, str] = {}
        """Tables that cannot be replayed here, and why."""
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}
        self.on_change: list[Callable[[LiveTable], None]] = []
        self.on_moved: list[Callable[[LiveTable], None]] = []
        self.on_dropped: list[Callable[[str], None]] = []
        """Told the id of a table this worker no longer holds (evicted after its end, or
        closed): what others keep per table can go (it is reloaded if the table is asked for)."""
        self.extras: list[Callable[[LiveTable, StateMsg], None]] = []
        """Add to a state message what other parts keep of a table (its clocks)."""

    # ----------------------------------------------------------------- loading

    def build(self, rec: TableRec) -> LiveTable:
        """Rebuild a table by replaying its log (the last action separately, for its events).
        :class:`Unavailable` if it cannot be replayed; nothing is kept of a failed replay."""
        reason = unplayable(rec)
        if reason is not None:
            raise Unavailable(rec.id, reason)
        record = stored_record(rec)
        try:
            table, events, undo = replay_tracked(record, len(rec.actions))
        except (RecordError, SpillebordError) as e:
            raise Unavailable(rec.id, f"table {rec.id} does not replay: {e}") from None
        except Exception as e:
            log.exception("table %s: the engine failed in replay", rec.id)
            raise Unavailable(rec.id, f"table {rec.id} does not replay (engine error: {e})") from None
        lt = LiveTable(
            rec.id,
            table.game,
            table,
            rec.seat_recs,
            rec.public,
            rec.created,
            self.clock.monotonic(),
            events,
            closed=rec.status == "closed",
            undo=undo,
            undone=rec.undone,
        )
        if rec.status == "over" and table.state.to_act is not None:
            lt.ended = list(rec.outcome or [0.0] * rec.seats)  # ended on time
        return lt

    async def _build(self, rec: TableRec) -> LiveTable:
        if self.executor is None:
            return self.build(rec)
        return await asyncio.get_running_loop().run_in_executor(self.executor, self.build, rec)

    async def get(self, table_id: str) -> LiveTable:
        """The live table (loaded and replayed on first use); :class:`NotFound`,
        :class:`Unavailable`."""
        lt = self.tables.get(table_id)
        if lt is not None:
            return lt
        if table_id in self.unavailable:
            raise Unavailable(table_id, self.unavailable[table_id])
        fut = self._loading.get(table_id)
        if fut is not None:
            return await asyncio.shield(fut)
        fut = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            rec = await self.log.load(table_id)
            if rec is None:
                raise NotFound(f"no table {table_id!r}")
            try:
                lt = await self._build(rec)
            except Unavailable as e:
                self.unavailable[table_id] = str(e)
                raise
            self.tables[table_id] = lt
            fut.set_result(lt)
            return lt
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: no warning when nobody else waited
            raise
        finally:
            del self._loading[table_id]

    def add(self, lt: LiveTable) -> None:
        """A table just created (and stored)."""
        self.tables[lt.id] = lt
        self._moved(lt)

    def evict(self, table_id: str) -> None:
        self.tables.pop(table_id, None)
        self._dropped(table_id)

    def close(self, table_id: str) -> LiveTable | None:
        """A table was closed in the database (idle): mark it, announce it, drop it."""
        lt = self.tables.pop(table_id, None)
        if lt is not None:
            lt.closed = True
            self._changed(lt)
        self._dropped(table_id)
        return lt

    def _dropped(self, table_id: str) -> None:
        for fn in self.on_dropped:
            fn(table_id)

    async def recover(self) -> list[LiveTable]:
        """Rebuild every unfinished table by replay and let it go on (after the server's start,
        in the background: a table asked for meanwhile is loaded at once). A table that cannot
        be replayed is left as stored and marked unavailable."""
        out = []
        for tid in await self.log.unfinished():
            await asyncio.sleep(0)  # requests go first
            try:
                lt = await self.get(tid)
            except Unavailable as e:
                log.warning("%s", e)
                continue
            except Exception as e:
                log.error("table %s cannot be loaded: %s", tid, e)
                continue
            out.append(lt)
            self._moved(lt)
        if out:
            log.info("rebuilt %d unfinished tables", len(out))
        return out

    # ----------------------------------------------------------------- playing

    def _changed(self, lt: LiveTable) -> None:
        for fn in self.on_change:
            fn(lt)

    def _moved(self, lt: LiveTable) -> None:
        for fn in self.on_moved:
            fn(lt)

    async def submit(
        self,
        lt: LiveTable,
        seat: int,
        text: str,
        seq: int | None = None,
        by: str = "person",
        chosen: tuple[State[Any], Action] | None = None,
        undone: int | None = None,
    ) -> None:
        """Apply ``text`` for ``seat``: validated, committed, then announced. Raises readable
        errors (:class:`Stale`, :class:`~spillebord.core.IllegalAction` and its kinds,
        :class:`StorageFailed`) and then nothing has changed. ``by``: "person" or "bot" (the
        metrics' label). ``chosen``: (a state, ``text`` as one of its legal actions): a bot's
        choice, used (not parsed again) only if the table is still at that very state.
        ``undone``: the table's :attr:`LiveTable.undone` in the state the action was made on
        (None: not checked); with ``seq`` it names that state even across an undo."""
        arrived = self.clock.monotonic()
        for _attempt in range(5):
            async with lt.lock:
                n = lt.seq
                if seq is not None and seq != n:
                    raise Stale(f"stale: the table is at action {n}, your action was for {seq}")
                if undone is not None and undone != lt.undone:
                    raise Stale(
                        f"stale: an action was taken back since your action was made (the table is "
                        f"at action {n} after {lt.undone} taken back, your action was made after {undone})"
                    )
                if lt.is_over:
                    raise GameOver(f"{lt.game.title}: the game is over")
                if lt.closed:
                    raise GameOver(
                        f"{lt.game.title}: this table was closed after a long time without players "
                        "(its record is kept)"
                    )
                if lt.status == "open" and self.notes.multi:  # joined through another worker just now?
                    lt.set_seats(await self.log.seats(lt.id))
                if lt.status == "open":
                    free = ", ".join(str(s.seat) for s in lt.seats if s.free)
                    raise IllegalAction(f"waiting for players (free seats: {free})")
                live = lt.table.state
                known: Action | None = None
                if chosen is not None and chosen[0] is live:
                    known = chosen[1]
                else:  # a text sent back from the legal list we sent for this state?
                    cache = lt.legal_cache
                    if cache is not None and cache.state is live:
                        known = cache.by_text.get(text)
                cand = candidate(lt.table)
                try:
                    events, undo = tracked_act(cand, seat, text, lt.undo, known)
                except SpillebordError:
                    raise
                except Exception:
                    log.exception("%s engine failed on %r", lt.game.id, text)
                    raise IllegalAction(
                        f"{lt.game.title}: the server could not apply {text!r} (engine error); "
                        "nothing changed"
                    ) from None
                acting, canon = cand.log[-1]
                state = cand.state
                over = state.to_act is None
                outcome = state.outcome() if over else None
                action = NewAction(
                    table_id=lt.id,
                    seq=n,
                    seat=acting,
                    action=canon,
                    status="over" if over else "running",
                    time=self.clock.time(),
                    outcome=outcome,
                    scores=state.scores() if over else None,
                    truncated=state.truncated,
                )
                t0 = self.clock.monotonic()
                try:
                    await self.log.append(action, self.notes.note("a", lt.id, s=n))
                except SeqConflict:
                    # Another worker stored action n first: catch up and try again.
                    await self._catch_up_locked(lt)
                    if seq is not None:
                        raise Stale(
                            f"stale: another action was applied first (the table is at {lt.seq})"
                        ) from None
                    continue
                except Exception as e:
                    self.metrics.db_errors.labels("append").inc()
                    log.warning(
                        "table %s: storing action %d failed (%s)",
                        lt.id,
                        n,
                        str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__,
                        extra={"table": lt.id},
                    )
                    raise StorageFailed(
                        f"the server could not store {canon!r} ({type(e).__name__}); "
                        "nothing changed: try again"
                    ) from None
                dt = self.clock.monotonic() - t0
                if dt > SLOW_COMMIT:
                    last, count = self._slow
                    now = self.clock.monotonic()
                    if now - last >= 1.0:
                        more = f" ({count} more slow ones since the last warning)" if count else ""
                        log.warning(
                            "table %s: storing an action took %.0f ms%s",
                            lt.id,
                            dt * 1000,
                            more,
                            extra={"table": lt.id},
                        )
                        self._slow = (now, 0)
                    else:
                        self._slow = (last, count + 1)
                lt.table = cand
                lt.events = events
                lt.undo = undo
                lt.changed = self.clock.monotonic()
                self._changed(lt)
                self.metrics.count_action(by, self.clock.monotonic() - arrived)
            self._moved(lt)
            return
        raise Stale("the table is busy; try again")

    def applied(self, lt: LiveTable, seat: int, text: str, seq: int) -> bool:
        """Whether ``text`` is the action ``seat`` stored as number ``seq`` (a retry)."""
        if not 0 <= seq < len(lt.table.log):
            return False
        acting, canon = lt.table.log[seq]
        return acting == seat and canon.lower() == " ".join(text.split()).lower()

    async def _catch_up_locked(self, lt: LiveTable) -> bool:
        """Apply the actions other workers stored (call with ``lt.lock`` held); whether any."""
        rows = await self.log.read(lt.id, lt.seq)
        if not rows:
            return False
        cand = candidate(lt.table)
        events, undo = lt.events, lt.undo
        try:
            for a in rows:
                if a.seq != len(cand.log):
                    raise RecordError(f"gap in the log at {a.seq}")
                events, undo = tracked_act(cand, a.seat, a.action, undo)
        except Exception as e:
            log.error("table %s: stored actions do not apply (%s); rebuilding", lt.id, e)
            rec = await self.log.load(lt.id)
            if rec is None:
                return False
            fresh = await self._build(rec)
            cand, events, undo = fresh.table, fresh.events, fresh.undo
            lt.undone = fresh.undone
        lt.table = cand
        lt.events = events
        lt.undo = undo
        lt.changed = self.clock.monotonic()
        self._changed(lt)
        return True

    async def undo(self, lt: LiveTable, seat: int, seq: int | None = None, undone: int | None = None) -> None:
        """Take back the last action of ``seat``'s turn (undo): allowed while ``seat`` is to act
        and its last action was reversible (:attr:`LiveTable.undo`), never for a seat a bot
        plays. The action leaves the log (kept in the store's audit trail), the table is
        rebuilt by replay from the shortened log, and the new state is announced. ``seq`` and
        ``undone`` (None: not checked) name the state the undo was asked on, as in
        :meth:`submit`. Readable errors (:class:`Stale`, :class:`~spillebord.core.IllegalAction`,
        :class:`StorageFailed`) and then nothing has changed."""
        async with lt.lock:
            n = lt.seq
            title = lt.game.title
            if seq is not None and seq != n:
                raise Stale(f"stale: the table is at action {n}, your undo was for {seq}")
            if undone is not None and undone != lt.undone:
                raise Stale(
                    f"stale: an action was taken back since (the table is at action {n} after "
                    f"{lt.undone} taken back, your undo was asked after {undone})"
                )
            if lt.is_over:
                raise GameOver(f"{title}: the game is over")
            if lt.closed:
                raise GameOver(f"{title}: this table was closed")
            if lt.agent_of(seat) is not None:
                raise IllegalAction(f"{title}: a bot is playing seat {seat}; it cannot take back actions")
            if lt.table.state.to_act != seat:
                raise IllegalAction(f"{title}: only the seat to act may take back its last action")
            if lt.undo <= 0 or not lt.table.log or lt.table.log[-1][0] != seat:
                raise IllegalAction(
                    f"{title}: nothing to take back (only your own actions of this turn that drew "
                    "no chance and revealed nothing hidden)"
                )
            record = lt.table.to_record()
            try:
                if self.executor is None:
                    table, events, _ = replay_tracked(record, n - 1)
                else:
                    loop = asyncio.get_running_loop()
                    table, events, _ = await loop.run_in_executor(
                        self.executor, replay_tracked, record, n - 1
                    )
            except Exception as e:
                log.exception("table %s: replay for an undo failed", lt.id)
                raise IllegalAction(
                    f"{title}: the server could not take the action back ({e}); nothing changed"
                ) from None
            try:
                await self.log.undo(lt.id, n - 1, self.clock.time(), self.notes.note("u", lt.id, s=n - 1))
            except SeqConflict:
                await self._catch_up_locked(lt)
                raise Stale(f"stale: another action was applied first (the table is at {lt.seq})") from None
            except Exception as e:
                self.metrics.db_errors.labels("undo").inc()
                log.warning("table %s: storing an undo failed (%s)", lt.id, type(e).__name__)
                raise StorageFailed(
                    f"the server could not store the undo ({type(e).__name__}); nothing changed: try again"
                ) from None
            lt.table = table
            lt.events = events
            lt.undo -= 1
            lt.undone += 1
            lt.changed = self.clock.monotonic()
            self._changed(lt)

    async def reload(self, lt: LiveTable) -> None:
        """Rebuild a table from the store (another worker took an action back)."""
        async with lt.lock:
            rec = await self.log.load(lt.id)
            if rec is None:
                return
            fresh = await self._build(rec)
            lt.table, lt.events, lt.undo = fresh.table, fresh.events, fresh.undo
            lt.undone = fresh.undone
            lt.changed = self.clock.monotonic()
            self._changed(lt)

    async def catch_up(self, lt: LiveTable) -> None:
        """Apply what other workers stored since this table's last action (a notice came).

        Bots are not scheduled here: the worker that stored the action drives them (and the
        stall watchdog takes over if it dies)."""
        if lt.sync_pending:
            return
        lt.sync_pending = True
        async with lt.lock:
            lt.sync_pending = False
            await self._catch_up_locked(lt)

    # ----------------------------------------------------------------- clients

    def client_state(self, lt: LiveTable, seat: int | None, players: list[PlayerInfo]) -> StateMsg:
        """Everything ``seat`` (None: a spectator) may know of the table now, and nothing more."""
        table = lt.table
        state = table.state
        to_act = state.to_act
        legal: list[LegalAction] = []
        if seat is not None and seat == to_act and lt.status == "running" and lt.agent_of(seat) is None:
            cache = lt.legal_cache
            if cache is None or cache.state is not state:
                by_text: dict[str, Action] = {}
                entries: list[LegalAction] = []
                for a in state.legal():
                    text = str(a)
                    by_text[text] = a
                    entries.append(LegalAction(text=text, label=a.label(), json=a.to_json()))
                cache = lt.legal_cache = LegalCache(state, entries, by_text)
            legal = cache.entries
        last: LastAction | None = None
        if table.log:
            a_seat, a_text = table.log[-1]
            shown = seat == a_seat or lt.game.kind.public_actions
            last = LastAction(seat=a_seat, action=a_text if shown else None)
        outcome = lt.outcome()
        msg = StateMsg(
            type="state",
            seq=len(table.log),
            seat=seat,
            game=lt.game.id,
            view=state.view(seat),
            to_act=to_act,
            legal=legal,
            events=lt.events,
            outcome=list(outcome) if outcome is not None else None,
            # Scores while the game runs may rest on what some seat cannot see: only at the end.
            scores=list(state.scores()) if outcome is not None else None,
            truncated=state.truncated,
            players=players,
            last=last,
            table=lt.id,
            status=lt.status,
            clock=None,
            undo=lt.undo if legal else 0,
            undone=lt.undone,
        )
        for fn in self.extras:
            fn(lt, msg)
        return msg


__all__ = ["LiveTable", "TableService", "stored_record", "unplayable"]
