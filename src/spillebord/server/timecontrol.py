"""Time controls: a table's clocks (pure logic) and the keeper that runs them on the server.

A time control is chosen when a table is created:

* **real-time** (``realtime``): every player has a bank of seconds; their clock runs while
  they are to decide, and each decision they make adds an increment (Fischer's clock);
* **turn-based** (``turn``): every decision must come within a limit (hours or days).

The server's :class:`~.clock.Clock` is authoritative. Only a person's decision is timed: a
bot's seat has no clock, and a forced decision (exactly one legal action, like a forced pass)
is played by the server at once and costs no time. What the clocks are (banks, whose clock
runs, since when) is stored after every change as wall-clock times, so a restart loses no
time and grants none: the running clock kept running while the server was down.

On timeout the table's rule applies: ``bot`` — an agent (the table's bot level) takes the
seat until its person comes back (a person whose bank ran out gets ``RETURN_GRACE`` seconds
a decision, plus the increment); ``lose`` — the game ends at once with that seat's side last.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from spillebord.ai import best_agent, make_agent
from spillebord.core import AnyGame
from spillebord.core.errors import SpillebordError
from spillebord.core.game import Teams, win_outcome

from .errors import BadRequest
from .service import LiveTable
from .wire import StateMsg

log = logging.getLogger("spillebord.server")

Mode = Literal["realtime", "turn"]
Rule = Literal["bot", "lose"]

RETURN_GRACE = 10.0
"""Seconds a decision for a person whose real-time bank has run out (after they come back)."""
BANK_RANGE = (10.0, 24 * 3600.0)
INCREMENT_RANGE = (0.0, 3600.0)
PER_DECISION_RANGE = (60.0, 30 * 86400.0)


def _number(d: Mapping[str, Any], key: str, default: float, lo: float, hi: float, unit: str) -> float:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise BadRequest(f"clock: {key} must be a number of seconds")
    if not lo <= v <= hi:
        raise BadRequest(f"clock: {key} must be between {lo:g} and {hi:g} seconds ({unit})")
    return float(v)


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A table's time control (chosen at creation, never changed)."""

    mode: Mode
    bank: float = 0.0
    """Real-time: seconds each player starts with."""
    increment: float = 0.0
    """Real-time: seconds added to a player's bank after each of their decisions."""
    per_decision: float = 0.0
    """Turn-based: seconds allowed for each decision."""
    on_timeout: Rule = "bot"
    bot: str | None = None
    """The agent taking a timed-out seat (None: the game's best)."""

    @classmethod
    def parse(cls, d: Mapping[str, Any], game: AnyGame) -> TimeControl:
        """From the JSON a client sends; :class:`BadRequest` with a readable reason."""
        if not isinstance(d, Mapping):
            raise BadRequest(
                "clock: give an object such as {'mode': 'realtime', 'bank': 300, 'increment': 5}"
            )
        known = {"mode", "bank", "increment", "per_decision", "on_timeout", "bot"}
        extra = sorted(set(d) - known)
        if extra:
            raise BadRequest(f"clock: unknown field {', '.join(extra)} (known: {', '.join(sorted(known))})")
        mode = d.get("mode")
        rule = d.get("on_timeout", "bot")
        if rule not in ("bot", "lose"):
            raise BadRequest("clock: on_timeout is 'bot' (a bot takes the seat) or 'lose' (the seat loses)")
        bot = d.get("bot")
        if bot is not None:
            if not isinstance(bot, str):
                raise BadRequest("clock: bot is the name of an agent")
            make_agent(bot, game)  # an unknown agent fails here, readably
        if mode == "realtime":
            return cls(
                "realtime",
                bank=_number(d, "bank", 300.0, *BANK_RANGE, "10 s to 24 h"),
                increment=_number(d, "increment", 0.0, *INCREMENT_RANGE, "0 to 1 h"),
                on_timeout=rule,
                bot=bot,
            )
        if mode == "turn":
            return cls(
                "turn",
                per_decision=_number(d, "per_decision", 86400.0, *PER_DECISION_RANGE, "1 minute to 30 days"),
                on_timeout=rule,
                bot=bot,
            )
        raise BadRequest("clock: mode is 'realtime' (bank + increment) or 'turn' (a limit per decision)")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"mode": self.mode, "on_timeout": self.on_timeout, "bot": self.bot}
        if self.mode == "realtime":
            d |= {"bank": self.bank, "increment": self.increment}
        else:
            d["per_decision"] = self.per_decision
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TimeControl:
        """From what :meth:`to_dict` stored (trusted)."""
        return cls(
            d["mode"],
            float(d.get("bank", 0.0)),
            float(d.get("increment", 0.0)),
            float(d.get("per_decision", 0.0)),
            d.get("on_timeout", "bot"),
            d.get("bot"),
        )


@dataclass(slots=True)
class Clocks:
    """The clocks of one table: a bank per seat, and at most one clock running."""

    banks: list[float]
    """Real-time: seconds left per seat when its clock is not running (turn-based: unused)."""
    seat: int | None = None
    """The seat whose clock runs (None: none runs: a bot, a forced decision, the game is over)."""
    since: float | None = None
    """Wall-clock time the running clock started."""
    seq: int = 0
    """The table's action count when the clocks last changed."""
    timed_out: list[int] = field(default_factory=list)
    """Seats whose time ran out, in order."""
    starts: list[float] = field(default_factory=list)
    """Turn-based: when the running seat's earlier decisions of its turn that may still be
    taken back started (wall-clock times, oldest first; one per action of the table's undo
    depth): an undo resumes that decision's clock rather than granting a fresh allowance."""

    @classmethod
    def new(cls, control: TimeControl, seats: int) -> Clocks:
        return cls([control.bank if control.mode == "realtime" else 0.0] * seats)

    def allowance(self, control: TimeControl, seat: int) -> float:
        """The seconds ``seat`` has for its decision when its clock starts."""
        if control.mode == "turn":
            return control.per_decision
        bank = self.banks[seat]
        return bank if bank > 0 else max(control.increment, RETURN_GRACE)

    def deadline(self, control: TimeControl) -> float | None:
        """When the running clock runs out (wall-clock time), or None."""
        if self.seat is None or self.since is None:
            return None
        return self.since + self.allowance(control, self.seat)

    def remaining(self, control: TimeControl, seat: int, now: float) -> float:
        """Seconds ``seat`` has now (its clock running or not)."""
        if seat == self.seat and self.since is not None:
            return max(0.0, self.since + self.allowance(control, seat) - now)
        return control.per_decision if control.mode == "turn" else self.banks[seat]

    def start(self, seat: int | None, now: float, seq: int) -> None:
        """Start ``seat``'s clock (None: run none). Call :meth:`stop` first."""
        self.seat = seat
        self.since = now if seat is not None else None
        self.seq = seq

    def stop(self, control: TimeControl, now: float, decided: bool = True) -> None:
        """Stop the running clock at ``now``: its seat is charged the time used and, when it
        ``decided`` (a decision, not a takeover), gets the increment."""
        seat, since = self.seat, self.since
        if seat is not None and since is not None and control.mode == "realtime":
            left = max(0.0, self.allowance(control, seat) - max(0.0, now - since))
            self.banks[seat] = left + (control.increment if decided else 0.0)
        self.seat = None
        self.since = None

    def carry(self, control: TimeControl, seat: int | None, since: float | None, undo: int) -> None:
        """After a decision of ``seat`` whose clock ran from ``since`` (call after :meth:`stop`
        and :meth:`start`): turn-based, when the decision may be taken back (``undo``: the
        table's undo depth after it) and the same seat's clock runs again, keep when that
        decision started, for :meth:`take_back`; otherwise there is nothing to resume."""
        if (
            control.mode == "turn"
            and undo > 0
            and since is not None
            and seat is not None
            and seat == self.seat
        ):
            self.starts = [*self.starts, since][-undo:]
        else:
            self.starts = []

    def take_back(self, control: TimeControl, now: float, back: int = 1) -> float | None:
        """The running seat took its last ``back`` decisions back (undo): its clock stops
        charging the time used, with no increment, and the increment each decision earned is
        revoked, so the bank is what it would be had the seat kept thinking (an act and its
        undo gain no time). Turn-based: when the decision now to be made again started (pass
        it to :meth:`resume` once its clock runs again), or None if that is not known."""
        seat = self.seat
        self.stop(control, now, decided=False)
        if seat is not None and control.mode == "realtime":
            self.banks[seat] = max(0.0, self.banks[seat] - back * control.increment)
        if control.mode != "turn" or back < 1 or len(self.starts) < back:
            self.starts = []
            return None
        resumed = self.starts[-back]
        del self.starts[-back:]
        return resumed

    def resume(self, since: float) -> None:
        """The running clock continues a decision that started at ``since`` (after an undo):
        the time already used on it still counts."""
        if self.seat is not None:
            self.since = since

    def expired(self, control: TimeControl, now: float) -> int | None:
        """The seat whose clock has run out at ``now``, or None."""
        d = self.deadline(control)
        return self.seat if d is not None and now >= d else None

    def time_out(self, control: TimeControl) -> int | None:
        """The running seat's time is up: its bank is empty and its clock stops."""
        seat = self.seat
        if seat is None:
            return None
        if control.mode == "realtime":
            self.banks[seat] = 0.0
        self.timed_out.append(seat)
        self.seat = None
        self.since = None
        self.starts = []
        return seat

    def to_dict(self) -> dict[str, Any]:
        return {
            "banks": list(self.banks),
            "seat": self.seat,
            "since": self.since,
            "seq": self.seq,
            "timed_out": list(self.timed_out),
            "starts": list(self.starts),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Clocks:
        return cls(
            [float(x) for x in d["banks"]],
            d.get("seat"),
            d.get("since"),
            int(d.get("seq", 0)),
            [int(x) for x in d.get("timed_out", [])],
            [float(x) for x in d.get("starts", [])],
        )

    def info(self, control: TimeControl, now: float) -> dict[str, Any]:
        """What clients are shown (``clock`` of a state message)."""
        return {
            "mode": control.mode,
            "on_timeout": control.on_timeout,
            "running": self.seat,
            "remaining": [self.remaining(control, s, now) for s in range(len(self.banks))],
            "deadline": self.deadline(control),
            "now": now,
        }


def forfeit_outcome(teams: Teams, seats: int, loser: int, scores: Sequence[float]) -> tuple[float, ...]:
    """The normalized outcome when ``loser``'s side loses on time: its side is last (0), and
    the other sides are ranked by their scores so far (the best side wins, ties share)."""
    others = [i for i, side in enumerate(teams) if loser not in side]
    if not others:
        return tuple([0.0] * seats)
    best = {i: max(scores[s] for s in teams[i]) for i in others}
    top = max(best.values())
    return win_outcome([i for i in others if best[i] == top], teams, seats)


# --------------------------------------------------------------------------- the keeper


class ClockStore:
    """Where the keeper keeps its clocks (a :class:`~spillebord.store.PeopleStore` through
    the people service's runner)."""

    async def save(self, table_id: str, state: dict[str, Any], now: float) -> None:
        raise NotImplementedError

    async def end(self, table_id: str, outcome: Sequence[float], scores: Sequence[float], now: float) -> bool:
        raise NotImplementedError


class TimeKeeper:
    """Runs the clocks of the timed tables of one server process.

    Hooks: :meth:`on_change` (an action was committed: the clocks move; the service calls it
    before the state is broadcast, so every state carries its clocks), :meth:`extra` (adds
    ``clock`` to a state message), :meth:`keeps` (an absent person keeps a seat with a clock:
    the time control, not the takeover timer, rules it), :meth:`check` (the periodic round:
    timeouts and clocks to start)."""

    def __init__(self, hub: Any, store: ClockStore) -> None:
        from .hub import Hub

        self.hub: Hub = hub
        self.store = store
        self.controls: dict[str, TimeControl] = {}
        self.clocks: dict[str, Clocks] = {}
        self.on_over: list[Callable[[LiveTable], Coroutine[Any, Any, None]]] = []
        """Called when a seat's loss on time ended a table (ratings)."""
        self._task: asyncio.Task[None] | None = None
        self._saving: dict[str, asyncio.Task[None]] = {}

    # ----------------------------------------------------------------- wiring

    def install(self) -> None:
        service = self.hub.service
        service.on_change.insert(0, self.on_change)
        service.extras.append(self.extra)
        self.hub.presence.keeps.append(self.keeps)

    def keeps(self, table_id: str) -> bool:
        return table_id in self.controls

    def extra(self, lt: LiveTable, msg: StateMsg) -> None:
        control = self.controls.get(lt.id)
        clocks = self.clocks.get(lt.id)
        if control is not None and clocks is not None:
            msg["clock"] = clocks.info(control, self.hub.clock.time())

    async def add(self, lt: LiveTable, control: TimeControl, state: dict[str, Any] | None = None) -> None:
        """Run the clocks of ``lt`` (a new table, or one rebuilt with its stored clocks)."""
        clocks = Clocks.from_dict(state) if state is not None else Clocks.new(control, lt.table.seats)
        self.controls[lt.id] = control
        self.clocks[lt.id] = clocks
        if state is not None and clocks.seq < lt.seq:
            # The server stopped between an action and its clocks being stored: the running
            # clock stopped at the first action missed, the next starts at the last one.
            rows = await self.hub.storage.read(lt.id, clocks.seq)
            if rows:
                clocks.stop(control, rows[0].time)
                clocks.starts = []  # the actions missed are not known to be undoable
                clocks.start(None, rows[-1].time, lt.seq)
                self._start_next(lt, control, clocks, rows[-1].time)
        async with lt.lock:
            if state is None:
                self._start_next(lt, control, clocks, self.hub.clock.time())
            self.hub.presence.broadcast(lt)
        self._save(lt.id)

    def forget(self, table_id: str) -> None:
        self.controls.pop(table_id, None)
        self.clocks.pop(table_id, None)

    # ----------------------------------------------------------------- moving the clocks

    def _timed_seat(self, lt: LiveTable) -> int | None:
        """The seat whose clock should run now: a person (not a bot, not taken over) to decide."""
        if lt.status != "running":
            return None
        seat = lt.table.to_act
        if seat is None or lt.agent_of(seat) is not None:
            return None
        return seat

    def _start_next(self, lt: LiveTable, control: TimeControl, clocks: Clocks, now: float) -> None:
        seat = self._timed_seat(lt)
        if seat is not None:
            legal = lt.table.state.legal()
            if len(legal) == 1:
                # A forced decision costs no time: the server plays it.
                clocks.start(None, now, lt.seq)
                self.hub.spawn(self._play_forced(lt, seat, str(legal[0]), lt.seq))
                return
        clocks.start(seat, now, lt.seq)

    async def _play_forced(self, lt: LiveTable, seat: int, text: str, seq: int) -> None:
        with contextlib.suppress(SpillebordError):  # someone moved first: nothing to do
            await self.hub.service.submit(lt, seat, text, seq=seq)

    def on_change(self, lt: LiveTable) -> None:
        """An action was committed or taken back (here or by another worker): the clocks
        move."""
        control = self.controls.get(lt.id)
        clocks = self.clocks.get(lt.id)
        if control is None or clocks is None or clocks.seq == lt.seq:
            return
        now = self.hub.clock.time()
        seat, since = clocks.seat, clocks.since
        if lt.seq < clocks.seq:  # an undo: the seq went back
            resumed = clocks.take_back(control, now, clocks.seq - lt.seq)
            self._start_next(lt, control, clocks, now)
            if resumed is not None and clocks.seat == seat:
                # The decision taken back is made again: its clock goes on (no fresh allowance).
                clocks.resume(resumed)
        else:
            clocks.stop(control, now)
            self._start_next(lt, control, clocks, now)
            clocks.carry(control, seat, since, lt.undo)
        self._save(lt.id)

    def _save(self, table_id: str) -> None:
        control = self.controls.get(table_id)
        clocks = self.clocks.get(table_id)
        if control is None or clocks is None:
            return
        state = clocks.to_dict()
        prev = self._saving.get(table_id)

        async def save() -> None:
            if prev is not None:  # in order: a later state is never overwritten by an earlier one
                with contextlib.suppress(BaseException):
                    await prev
            await self.store.save(table_id, state, self.hub.clock.time())

        task = asyncio.get_running_loop().create_task(save())
        self._saving[table_id] = task

        def done(t: asyncio.Task[None]) -> None:
            if self._saving.get(table_id) is t:
                del self._saving[table_id]
            if not t.cancelled() and t.exception() is not None:
                log.error("table %s: storing its clocks failed", table_id, exc_info=t.exception())

        task.add_done_callback(done)

    async def flush(self) -> None:
        """Wait until every clock change is stored."""
        while self._saving:
            await asyncio.gather(*list(self._saving.values()), return_exceptions=True)

    # ----------------------------------------------------------------- the round

    async def check(self) -> None:
        """Apply the rule to every clock that has run out; start the clocks that should run
        (a person back in a seat a bot held)."""
        now = self.hub.clock.time()
        for tid in list(self.controls):
            await self.check_table(tid, now)

    async def check_table(self, tid: str, now: float | None = None) -> None:
        """:meth:`check` for one table (a seat was just taken: its clock may start)."""
        now = self.hub.clock.time() if now is None else now
        control = self.controls.get(tid)
        clocks = self.clocks.get(tid)
        lt = self.hub.service.tables.get(tid)
        if control is None or clocks is None or lt is None:
            return
        if lt.is_over:
            self.forget(tid)
            return
        seat = clocks.expired(control, now)
        if seat is not None:
            await self._time_out(lt, control, clocks, seat, now)
            return
        want = self._timed_seat(lt)
        if want != clocks.seat and clocks.seq == lt.seq:
            async with lt.lock:
                clocks.stop(control, now, decided=False)
                clocks.starts = []  # another seat's clock, or a fresh start: nothing to resume
                self._start_next(lt, control, clocks, now)
                # Stored before anyone is told: no action follows a clock started here (a
                # seat taken, a person back), so a crash between the message and a later save
                # left the turn untimed after a restart (the action log's seq could not tell).
                self._save(tid)
                saving = self._saving.get(tid)
                if saving is not None:
                    with contextlib.suppress(Exception):  # a failed save is logged by its task
                        await asyncio.shield(saving)
                self.hub.presence.broadcast(lt)

    async def _time_out(
        self, lt: LiveTable, control: TimeControl, clocks: Clocks, seat: int, now: float
    ) -> None:
        hub = self.hub
        if control.on_timeout == "lose":
            state = lt.table.state
            scores = state.scores()
            outcome = forfeit_outcome(lt.game.teams(lt.table.seats), lt.table.seats, seat, scores)
            if not await self.store.end(lt.id, outcome, scores, now):
                return  # another worker ended it
            async with lt.lock:
                clocks.time_out(control)
                lt.ended = list(outcome)
                lt.changed = hub.clock.monotonic()
                hub.presence.broadcast(lt)
            log.info("table %s: seat %d lost on time", lt.id, seat)
            self._save(lt.id)
            self.forget(lt.id)
            for fn in self.on_over:
                await fn(lt)
            return
        agent = control.bot or best_agent(lt.game)
        await hub.storage.set_takeover(lt.id, seat, agent, now, notify=hub.notes.note("s", lt.id))
        async with lt.lock:
            clocks.time_out(control)
            lt.seats[seat].takeover = agent
            hub.presence.broadcast(lt)
        log.info("table %s: seat %d out of time; %s takes the seat", lt.id, seat, agent)
        self._save(lt.id)
        for on_seats in hub.presence.on_seats:
            on_seats(lt)

    def start(self, tick: float = 0.5) -> None:
        async def run() -> None:
            while True:
                await asyncio.sleep(tick)  # real time: a FakeClock is moved by the tests
                try:
                    await self.check()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("time control round failed")

        self._task = asyncio.get_running_loop().create_task(run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        await self.flush()


__all__ = ["RETURN_GRACE", "Clocks", "TimeControl", "TimeKeeper", "forfeit_outcome"]
