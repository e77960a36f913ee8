"""Unit tests of the server's parts, in process: the table service on the in-memory action log
(and on SQLite, and PostgreSQL when SPILLEBORD_TEST_PG is set, through the same protocol),
presence and takeover on a fake clock, the bot runner, the wire format.

No sockets here: a connection is a :class:`~spillebord.server.presence.Conn` whose queue the
test reads. The end-to-end tests (real uvicorn, websockets) are in test_server_*.py.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import threading
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import ExitStack, asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from test_server_support import PG, pg_database

import spillebord.ai.registry as ai_registry
from spillebord.ai import Budget, Needs, best_agent
from spillebord.core import (
    Action,
    AnyGame,
    GameKind,
    GameOver,
    IllegalAction,
    NotYourTurn,
    Rng,
    State,
    rank_outcome,
    registry,
)
from spillebord.server import wire
from spillebord.server.actionlog import MemoryLog, Storage, StoreLog
from spillebord.server.api import handle_message
from spillebord.server.clock import FakeClock
from spillebord.server.errors import Config, Conflict, Stale, StorageFailed, Unavailable
from spillebord.server.hub import Hub
from spillebord.server.presence import Conn
from spillebord.server.service import LiveTable
from spillebord.store import ActionRec, SeatTaken, Store
from spillebord.tables import Table
from toygame import TOY, ToyGame

T = TypeVar("T")


class TruncToy(ToyGame):
    """The toy game with a decision bound of 3: every game stops there, truncated."""

    id = "toytrunc"
    title = "Truncated toy"
    kind = GameKind(hidden_information=True, chance=True, public_actions=True, max_decisions=3)


registry.register(TOY)


@pytest.fixture
def trunc_toy(monkeypatch: pytest.MonkeyPatch) -> TruncToy:
    game = TruncToy()
    monkeypatch.setitem(registry._GAMES, game.id, game)
    return game


class RecorderAgent:
    """Plays the first legal action and notes how it was asked (thread, budget)."""

    name = "recorder"
    needs: ClassVar[Needs] = Needs(determinization=True, budget=True)
    calls: ClassVar[list[tuple[str, Budget | None]]] = []

    def __init__(self, game: AnyGame) -> None:
        self.game = game

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        RecorderAgent.calls.append((threading.current_thread().name, budget))
        return state.legal()[0]


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> type[RecorderAgent]:
    monkeypatch.setitem(ai_registry._AGENTS, "recorder", RecorderAgent)
    RecorderAgent.calls.clear()
    return RecorderAgent


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


# --------------------------------------------------------------------------- storages

STORAGES = ["memory", "sqlite", pytest.param("pg", marks=[pytest.mark.postgres])]


class Storages:
    """Fresh storages of one kind; ``again()`` opens another handle on the same data (a new
    server process on the same database)."""

    def __init__(self, kind: str, tmp: Path, stack: ExitStack) -> None:
        self.kind = kind
        self.memory = MemoryLog()
        if kind == "sqlite":
            self.url = f"sqlite:///{tmp / 'tables.sqlite3'}"
        elif kind == "pg":
            if not PG:
                pytest.skip("PostgreSQL tests need SPILLEBORD_TEST_PG")
            self.url = stack.enter_context(pg_database()).replace("postgresql://", "postgresql+psycopg://", 1)
        self.stores: list[Store] = []
        stack.callback(self.dispose)

    def again(self) -> Storage:
        if self.kind == "memory":
            return self.memory
        store = Store(self.url)
        self.stores.append(store)
        return StoreLog(store)

    def set_engine(self, table_id: str, engine: int) -> None:
        """Pretend the table was stored by another engine version of its game."""
        if self.kind == "memory":
            self.memory.tables[table_id].engine = engine
            return
        store = Store(self.url)
        try:
            with store.engine.begin() as c:
                from sqlalchemy import text

                c.execute(
                    text("UPDATE sb_tables SET engine = :e WHERE id = :t"), {"e": engine, "t": table_id}
                )
        finally:
            store.dispose()

    def dispose(self) -> None:
        for s in self.stores:
            s.dispose()


@pytest.fixture(params=STORAGES)
def storages(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storages]:
    with ExitStack() as stack:
        yield Storages(request.param, tmp_path, stack)


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Storages]:
    with ExitStack() as stack:
        yield Storages("memory", tmp_path, stack)


@asynccontextmanager
async def running(storage: Storage, clock: FakeClock | None = None, **config: Any) -> AsyncIterator[Hub]:
    # These tests replay known deals: the creator's seed is accepted (never on a real server).
    hub = Hub(
        storage,
        # (idle_hours=0: some tables here are stored with timestamps of 1970.)
        Config(**{"client_seeds": True, "bot_only_delay": 0.0, "idle_hours": 0, **config}),
        clock=clock or FakeClock(),
    )
    await hub.start(maintain=False)
    assert hub.recovering is not None
    await hub.recovering  # (a real server serves meanwhile; these tests look at the result)
    try:
        yield hub
    finally:
        await hub.stop()


# --------------------------------------------------------------------------- helpers


async def two_people(hub: Hub, game: str = "toy", hand_size: int = 3, seed: int = 7) -> tuple[str, list[str]]:
    tid, seat, token = await hub.lobby.create(game, 2, {"hand_size": hand_size}, None, True, seed, "Ann")
    assert seat == 0 and token is not None
    seat1, token1 = await hub.lobby.join(tid, None, "Bob")
    assert seat1 == 1
    return tid, [token, token1]


def drain(conn: Conn) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


async def connect(hub: Hub, lt: LiveTable, seat: int | None) -> Conn:
    async def never(_text: str) -> None:
        raise AssertionError("the test reads the queue")

    conn = Conn(seat, never)
    await hub.presence.connect(lt, conn)
    return conn


async def play(hub: Hub, lt: LiveTable, n: int | None = None) -> list[tuple[int, str]]:
    """Play the first legal action ``n`` times (None: to the end), with sequence numbers."""
    played = []
    while not lt.is_over and (n is None or len(played) < n):
        seat = lt.table.to_act
        assert seat is not None
        text = lt.table.legal_texts()[0]
        await hub.service.submit(lt, seat, text, lt.seq)
        played.append((seat, text))
    return played


async def until(pred: Callable[[], bool], timeout: float = 15) -> None:
    """Wait (real time: bots think on threads) until ``pred()``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not pred():
        if loop.time() > deadline:
            raise TimeoutError("condition not reached")
        await asyncio.sleep(0.01)


# --------------------------------------------------------------------------- submit


def test_submit_commits_then_announces(storages: Storages) -> None:
    async def body() -> None:
        clock = FakeClock()
        storage = storages.again()
        async with running(storage, clock) as hub:
            tid, _ = await two_people(hub)
            lt = await hub.service.get(tid)
            a = await connect(hub, lt, 0)
            first = drain(a)
            assert [m["seq"] for m in first] == [0] and first[0]["legal"]
            spec = await connect(hub, lt, None)  # everyone hears of a new connection (presence)
            assert [m["seq"] for m in drain(a)] == [0]
            assert drain(spec)[0]["legal"] == []
            text = first[0]["legal"][0]["text"]
            clock.advance(5)
            await hub.service.submit(lt, 0, text, 0)
            assert await storage.read(tid) == [ActionRec(0, 0, text, clock.time())]
            rec = await storage.load(tid)
            assert rec is not None and rec.n_actions == 1 and rec.status == "running" and rec.outcome is None
            got, seen = drain(a), drain(spec)
            assert [m["seq"] for m in got] == [1] and [m["seq"] for m in seen] == [1]
            assert got[0]["last"] == {"seat": 0, "action": text} == seen[0]["last"]  # toy actions are public
            assert got[0]["events"][0]["kind"] == "play"
            assert got[0]["outcome"] is None and got[0]["scores"] is None and got[0]["truncated"] is False

    run(body())


def test_nothing_is_announced_that_is_not_committed(memory: Storages) -> None:
    async def body() -> None:
        storage = memory.memory
        async with running(storage) as hub:
            tid, _ = await two_people(hub)
            lt = await hub.service.get(tid)
            a = await connect(hub, lt, 0)
            drain(a)
            text = lt.table.legal_texts()[0]
            storage.fail_next_append = ConnectionError("the database went away")
            with pytest.raises(StorageFailed, match="nothing changed"):
                await hub.service.submit(lt, 0, text, 0)
            assert lt.seq == 0 and drain(a) == [] and await storage.read(tid) == []
            await hub.service.submit(lt, 0, text, 0)  # the same action, once the database is back
            assert lt.seq == 1 and [m["seq"] for m in drain(a)] == [1]

    run(body())


def test_stale_seq_wrong_seat_and_bad_actions_change_nothing(storages: Storages) -> None:
    async def body() -> None:
        storage = storages.again()
        async with running(storage) as hub:
            tid, _ = await two_people(hub)
            lt = await hub.service.get(tid)
            a = await connect(hub, lt, 0)
            drain(a)
            legal = lt.table.legal_texts()
            before = lt.table.state.copy()
            with pytest.raises(Stale, match="stale"):
                await hub.service.submit(lt, 0, legal[0], 3)
            with pytest.raises(NotYourTurn, match="turn"):
                await hub.service.submit(lt, 1, legal[0], 0)
            with pytest.raises(IllegalAction, match="not a legal action"):
                await hub.service.submit(lt, 0, "play 99", 0)
            with pytest.raises(IllegalAction):
                await hub.service.submit(lt, 0, "fold")
            assert lt.seq == 0 and lt.table.state == before
            assert await storage.read(tid) == [] and drain(a) == []

    run(body())


def test_game_over(storages: Storages) -> None:
    async def body() -> None:
        storage = storages.again()
        async with running(storage) as hub:
            tid, _ = await two_people(hub)
            lt = await hub.service.get(tid)
            a = await connect(hub, lt, 0)
            played = await play(hub, lt)
            assert len(played) == 6 and lt.is_over and lt.status == "over"
            with pytest.raises(GameOver, match="over"):
                await hub.service.submit(lt, 0, "play 1")
            last = drain(a)[-1]
            state = lt.table.state
            assert last["outcome"] == list(state.outcome() or ()) and sum(last["outcome"]) == pytest.approx(1)
            assert last["scores"] == list(state.scores()) and sum(last["scores"]) == 3
            assert last["legal"] == [] and last["to_act"] is None and last["status"] == "over"
            rec = await storage.load(tid)
            assert rec is not None and rec.status == "over" and rec.n_actions == 6
            assert rec.outcome == last["outcome"] and rec.scores == last["scores"] and rec.truncated is False
            record = await hub.lobby.record(tid)
            assert record["outcome"] == last["outcome"] and record["engine"] == TOY.version
            assert [(x["seat"], x["action"]) for x in record["actions"]] == played
            with pytest.raises(SeatTaken):
                await hub.lobby.join(tid, None, "Late")

    run(body())


def test_truncated_game_is_over_and_says_so(memory: Storages, trunc_toy: TruncToy) -> None:
    async def body() -> None:
        async with running(memory.memory) as hub:
            tid, _ = await two_people(hub, game="toytrunc")
            lt = await hub.service.get(tid)
            a = await connect(hub, lt, 1)
            played = await play(hub, lt)
            assert len(played) == 3 and lt.is_over and lt.table.state.truncated
            last = drain(a)[-1]
            assert last["truncated"] is True and last["status"] == "over"
            assert last["events"][-1]["kind"] == "truncated"
            # Ranked by the game's own scores (tricks so far).
            scores = last["scores"]
            assert last["outcome"] == list(rank_outcome(scores, ((0,), (1,))))
            rec = await memory.memory.load(tid)
            assert rec is not None and rec.truncated and rec.status == "over"
            info = await hub.lobby.info(tid)
            assert info.truncated and info.outcome == last["outcome"] and info.scores == scores

    run(body())


# --------------------------------------------------------------------------- concurrency


def test_concurrent_same_seat_submissions_apply_once(storages: Storages) -> None:
    async def body() -> None:
        storage = storages.again()
        async with running(storage) as hub:
            tid, _ = await two_people(hub)
            lt = await hub.service.get(tid)
            legal = lt.table.legal_texts()
            # Two sockets of one seat send the same turn at once: one applies, one is stale.
            results = await asyncio.gather(
                hub.service.submit(lt, 0, legal[0], 0),
                hub.service.submit(lt, 0, legal[1], 0),
                return_exceptions=True,
            )
            errors = [r for r in results if r is not None]
            assert len(errors) == 1 and isinstance(errors[0], Stale)
            assert len(await storage.read(tid)) == 1 and lt.seq == 1
            # Without sequence numbers, the second is judged on the new state: not its turn.
            legal = lt.table.legal_texts()
            results = await asyncio.gather(
                hub.service.submit(lt, 1, legal[0]),
                hub.service.submit(lt, 1, legal[0]),
                return_exceptions=True,
            )
            errors = [r for r in results if r is not None]
            assert len(errors) == 1 and isinstance(errors[0], NotYourTurn)
            assert len(await storage.read(tid)) == 2 and lt.seq == 2

    run(body())


def test_two_workers_on_one_log_apply_a_turn_once(storages: Storages) -> None:
    """Two servers on one database: the log refuses the second "action 0"; its server
    catches up and says stale."""

    async def body() -> None:
        s1, s2 = storages.again(), storages.again()
        async with running(s1) as one, running(s2) as two:
            tid, _ = await two_people(one)
            lt1, lt2 = await one.service.get(tid), await two.service.get(tid)
            legal = lt1.table.legal_texts()
            results = await asyncio.gather(
                one.service.submit(lt1, 0, legal[0], 0),
                two.service.submit(lt2, 0, legal[-1], 0),
                return_exceptions=True,
            )
            errors = [r for r in results if r is not None]
            assert len(errors) == 1 and isinstance(errors[0], Stale), results
            assert len(await s1.read(tid)) == 1
            await one.service.catch_up(lt1)
            await two.service.catch_up(lt2)
            assert lt1.seq == lt2.seq == 1 and lt1.table.state == lt2.table.state

    run(body())


def test_other_workers_actions_reach_this_ones_clients(memory: Storages) -> None:
    """Notifications of the shared log make a worker catch up and tell its own clients."""

    async def body() -> None:
        storage = memory.memory
        async with running(storage) as one, running(storage) as two:
            one.notes.multi = two.notes.multi = True
            one.notes.worker_id, two.notes.worker_id = "one", "two"
            storage.listeners += [one.on_bus, two.on_bus]
            tid, _ = await two_people(one)
            lt1, lt2 = await one.service.get(tid), await two.service.get(tid)
            watcher = await connect(two, lt2, None)
            drain(watcher)
            await one.service.submit(lt1, 0, lt1.table.legal_texts()[0], 0)
            await until(lambda: lt2.seq == 1)
            assert [m["seq"] for m in drain(watcher)] == [1]
            assert lt2.table.state == lt1.table.state

    run(body())


# --------------------------------------------------------------------------- sync


def test_sync_after_reconnect(storages: Storages) -> None:
    async def body() -> None:
        storage = storages.again()
        async with running(storage) as hub:
            tid, tokens = await two_people(hub, hand_size=4)
            lt = await hub.service.get(tid)
            a = await connect(hub, lt, 0)
            await hub.presence.disconnect(lt, a)
            await play(hub, lt, 3)
            assert await hub.presence.seat_for_token(lt, tokens[0]) == 0
            assert await hub.presence.seat_for_token(lt, "not-a-token") is None
            again = await connect(hub, lt, 0)
            (msg,) = drain(again)
            assert msg["seq"] == 3 and msg["seat"] == 0 and msg["view"] == lt.table.view(0)
            # A client may also ask for its state at any time.
            assert await handle_message(hub, lt, again, '{"type": "sync"}') is None
            assert drain(again) == [msg]
            assert await handle_message(hub, lt, again, '{"type": "ping"}') == wire.PONG

    run(body())


def test_restart_rebuilds_tables_by_replay(storages: Storages) -> None:
    async def body() -> None:
        async with running(storages.again()) as hub:
            tid, _ = await two_people(hub, hand_size=4)
            lt = await hub.service.get(tid)
            await play(hub, lt, 3)
            state, events = lt.table.state.copy(), lt.events
        async with running(storages.again()) as hub2:
            assert tid in hub2.service.tables  # recovered at start: it is not over
            lt2 = await hub2.service.get(tid)
            assert lt2.seq == 3 and lt2.table.state == state and lt2.events == events
            await play(hub2, lt2)
            assert lt2.is_over

    run(body())


# --------------------------------------------------------------------------- bots


def test_bot_turn(storages: Storages) -> None:
    async def body() -> None:
        storage = storages.again()
        async with running(storage) as hub:
            tid, seat, _ = await hub.lobby.create("toy", 2, {}, [None, "greedy"], True, 5, "Ann")
            lt = await hub.service.get(tid)
            a = await connect(hub, lt, 0)
            assert seat == 0 and lt.status == "running"
            while not lt.is_over:
                if lt.table.to_act == 0:
                    await hub.service.submit(lt, 0, lt.table.legal_texts()[0], lt.seq)
                else:
                    n = lt.seq
                    await until(lambda n=n: lt.seq > n)
            seats = [x.seat for x in await storage.read(tid)]
            assert 1 in seats and len(seats) == 6
            # The bot's seat never gets legal actions; the person's state shows the bot.
            msgs = drain(a)
            assert all(m["legal"] == [] for m in msgs if m["to_act"] == 1)
            assert msgs[-1]["players"][1]["bot"] == "greedy"

    run(body())


def test_bots_decide_on_threads_with_a_budget(memory: Storages, recorder: type[RecorderAgent]) -> None:
    async def body() -> None:
        async with running(memory.memory, bot_budget=1.5) as hub:
            tid, seat, token = await hub.lobby.create("toy", 2, {}, ["recorder", "random"], True, 1, None)
            assert seat is None and token is None
            lt = await hub.service.get(tid)
            await until(lambda: lt.is_over)
            assert len(await memory.memory.read(tid)) == 6
        assert len(RecorderAgent.calls) == 3
        main = threading.main_thread().name
        for thread, budget in RecorderAgent.calls:
            assert thread != main and thread.startswith("sb-cpu")
            assert budget == Budget(seconds=1.5 * 0.8)

    run(body())


def test_takeover_of_an_abandoned_seat_and_back(memory: Storages) -> None:
    async def body() -> None:
        clock = FakeClock()
        storage = memory.memory
        async with running(storage, clock, takeover_after=10) as hub:
            tid, _ = await two_people(hub, hand_size=4, seed=1)
            lt = await hub.service.get(tid)
            a, b = await connect(hub, lt, 0), await connect(hub, lt, 1)
            assert lt.table.to_act == 0
            await hub.presence.disconnect(lt, a)  # Ann leaves at her turn
            clock.advance(5)
            await hub.maintenance.once()
            assert lt.seats[0].takeover is None  # not yet
            clock.advance(6)
            await hub.maintenance.once()  # Bob's heartbeat keeps his seat; Ann's is abandoned
            assert lt.seats[0].takeover == best_agent(TOY) and lt.seats[1].takeover is None
            assert storage.tables[tid].seat_recs[0].takeover == best_agent(TOY)
            await until(lambda: lt.table.to_act == 1)  # the bot played Ann's turn
            msgs = drain(b)
            assert any(m["players"][0]["takeover"] for m in msgs)
            assert (await storage.read(tid))[0].seat == 0
            # Ann is back: her seat is hers again.
            a = await connect(hub, lt, 0)
            assert lt.seats[0].takeover is None and storage.tables[tid].seat_recs[0].takeover is None
            back = drain(a)[-1]
            assert back["players"][0]["takeover"] is False and back["players"][0]["bot"] is None

    run(body())


def test_leaving_records_when_at_a_running_table_only(memory: Storages) -> None:
    """The time a person leaves is stored while the table runs (it can be abandoned), not
    after its end (a transaction for nothing)."""

    async def body() -> None:
        clock = FakeClock()
        storage = memory.memory
        async with running(storage, clock) as hub:
            tid, _ = await two_people(hub, hand_size=2, seed=1)
            lt = await hub.service.get(tid)
            a, b = await connect(hub, lt, 0), await connect(hub, lt, 1)
            clock.advance(5)
            await hub.presence.disconnect(lt, a)
            assert storage.tables[tid].seat_recs[0].seen == clock.time()  # left a running table
            a = await connect(hub, lt, 0)
            while not lt.is_over:
                seat = lt.table.to_act
                assert seat is not None
                await hub.service.submit(lt, seat, lt.table.legal_texts()[0])
            before = storage.tables[tid].seat_recs[1].seen
            clock.advance(5)
            await hub.presence.disconnect(lt, b)
            assert storage.tables[tid].seat_recs[1].seen == before  # over: not written

    run(body())


def test_stalled_bot_turn_is_restarted(memory: Storages) -> None:
    async def body() -> None:
        clock = FakeClock()
        async with running(memory.memory, clock, stall_after=5) as hub:
            tid, _, _ = await hub.lobby.create("toy", 2, {}, [None, "random"], True, 3, "Ann")
            lt = await hub.service.get(tid)
            hub.bots.closing = True  # no bot loop starts: as if the worker driving it had died
            await hub.service.submit(lt, 0, lt.table.legal_texts()[0], 0)
            hub.bots.closing = False
            assert lt.table.to_act == 1 and not hub.bots.busy(tid)
            clock.advance(4)
            await hub.maintenance.once()
            assert not hub.bots.busy(tid) and lt.seq == 1  # not stalled yet
            clock.advance(2)
            await hub.maintenance.once()
            await until(lambda: lt.seq >= 2)

    run(body())


# --------------------------------------------------------------------------- maintenance


def test_finished_tables_are_evicted_and_reloaded(memory: Storages) -> None:
    async def body() -> None:
        clock = FakeClock()
        async with running(memory.memory, clock, evict_after=60) as hub:
            tid, _ = await two_people(hub)
            lt = await hub.service.get(tid)
            await play(hub, lt)
            watcher = await connect(hub, lt, None)
            clock.advance(61)
            await hub.maintenance.once()
            assert tid in hub.service.tables  # someone watches
            await hub.presence.disconnect(lt, watcher)
            await hub.maintenance.once()
            assert tid not in hub.service.tables
            again = await hub.service.get(tid)
            assert again is not lt and again.table.state == lt.table.state

    run(body())


def test_times_come_from_the_clock(memory: Storages) -> None:
    async def body() -> None:
        clock = FakeClock(start=1_900_000_000.0)
        async with running(memory.memory, clock) as hub:
            tid, _ = await two_people(hub)
            rec = await memory.memory.load(tid)
            assert rec is not None and rec.created == 1_900_000_000.0
            clock.advance(42)
            lt = await hub.service.get(tid)
            await play(hub, lt, 1)
            assert [a.time for a in await memory.memory.read(tid)] == [1_900_000_042.0]
            history = await hub.lobby.history(tid)
            assert [h.time for h in history] == [1_900_000_042.0]

    run(body())


# --------------------------------------------------------------------------- engine versions


def test_tables_of_another_engine_version_are_kept_not_replayed(storages: Storages) -> None:
    """A stored table played on another engine version of its game is never replayed (it
    could take another path silently): the server starts, lists it as unavailable with the
    reason, refuses to join or resume it, and leaves it exactly as stored; a finished one
    keeps its result and its record."""

    async def body() -> None:
        async with running(storages.again()) as hub:
            running_id, _ = await two_people(hub)
            lt = await hub.service.get(running_id)
            await play(hub, lt, 2)
            over_id, _ = await two_people(hub, seed=8)
            over = await hub.service.get(over_id)
            played = await play(hub, over)
            outcome, scores = over.table.outcome(), over.table.scores()
        storages.set_engine(running_id, TOY.version + 1)
        storages.set_engine(over_id, TOY.version + 1)
        storage = storages.again()
        async with running(storage) as hub:  # starting does not trip over them
            assert running_id not in hub.service.tables and running_id in hub.service.unavailable
            with pytest.raises(Unavailable, match=f"engine version {TOY.version + 1}"):
                await hub.service.get(running_id)
            info = await hub.lobby.info(running_id)
            assert info.status == "unavailable" and info.note and "engine version" in info.note
            assert info.seq == 2 and info.engine == TOY.version + 1
            listed = {t.table: t for t in await hub.lobby.listing()}
            assert listed[running_id].status == "unavailable"
            with pytest.raises(Conflict, match="engine version"):
                await hub.lobby.join(running_id, None, "Eve")
            with pytest.raises(Conflict, match="once the game is over"):
                await hub.lobby.record(running_id)
            assert len(await hub.lobby.history(running_id)) == 2
            # The finished one: its result and record, from what is stored.
            info = await hub.lobby.info(over_id)
            assert info.status == "over" and info.note and info.outcome == list(outcome or ())
            assert info.scores == list(scores)
            record = await hub.lobby.record(over_id)
            assert record["engine"] == TOY.version + 1 and record["outcome"] == list(outcome or ())
            assert [(x["seat"], x["action"]) for x in record["actions"]] == played
            # Nothing was changed in storage.
            rec = await storage.load(running_id)
            assert rec is not None and rec.n_actions == 2 and rec.status == "running"
            assert rec.engine == TOY.version + 1
            # A client is told why, readably.
            msg = await hub.lobby.info(running_id)
            assert "release that recorded it" in (msg.note or "")

    run(body())


def test_a_log_that_does_not_replay_is_not_half_applied(memory: Storages) -> None:
    async def body() -> None:
        storage = memory.memory
        async with running(storage) as hub:
            tid, _ = await two_people(hub)
            await play(hub, await hub.service.get(tid), 2)
        rec = storage.tables[tid]
        rec.actions[1] = replace(rec.actions[1], action="play 99")  # a corrupted log
        async with running(storage) as hub:
            assert tid not in hub.service.tables
            with pytest.raises(Unavailable, match="does not replay"):
                await hub.service.get(tid)
            assert (await hub.lobby.info(tid)).status == "unavailable"

    run(body())


# --------------------------------------------------------------------------- the store


def test_an_older_database_is_upgraded_in_place(tmp_path: Path) -> None:
    """A database of the first schema (``result``, no engine version) opens: its tables are
    of engine version 1 and a finished one's old result becomes its scores."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as c:
        c.executescript(
            """
            CREATE TABLE sb_tables (id VARCHAR(32) PRIMARY KEY, game VARCHAR(40), seats INTEGER, seed BIGINT,
                options TEXT, public BOOLEAN, status VARCHAR(10), n_actions INTEGER, result TEXT,
                created FLOAT, updated FLOAT);
            CREATE TABLE sb_seats (table_id VARCHAR(32), seat INTEGER, name VARCHAR(80), bot VARCHAR(40),
                token_hash VARCHAR(64), takeover VARCHAR(40), seen FLOAT, PRIMARY KEY (table_id, seat));
            CREATE TABLE sb_actions (table_id VARCHAR(32), seq INTEGER, seat INTEGER, action TEXT,
                created FLOAT, PRIMARY KEY (table_id, seq));
            INSERT INTO sb_tables VALUES ('done', 'toy', 2, 7, '{}', 1, 'over', 6, '[3.0, 0.0]', 1.0, 2.0);
            INSERT INTO sb_tables VALUES ('live', 'toy', 2, 7, '{}', 1, 'running', 0, NULL, 1.0, 2.0);
            INSERT INTO sb_seats VALUES ('live', 0, 'Ann', NULL, 'h0', NULL, 1.0);
            INSERT INTO sb_seats VALUES ('live', 1, NULL, 'random', NULL, NULL, 1.0);
            """
        )
        # The finished table's log: a whole game of the toy game (seed 7), as stored then.
        done = Table.create(TOY, 2, 7, {})
        while not done.is_over:
            done.act(None, done.legal_texts()[0])
        c.executemany(
            "INSERT INTO sb_actions VALUES ('done', ?, ?, ?, 1.5)",
            [(i, s, a) for i, (s, a) in enumerate(done.log)],
        )
    c.close()

    async def body() -> None:
        store = Store(f"sqlite:///{path}")
        try:
            async with running(StoreLog(store)) as hub:
                rec = await hub.storage.load("done")
                assert rec is not None and rec.engine == 1 and rec.scores == [3.0, 0.0] and not rec.truncated
                done = await hub.lobby.info("done")
                assert done.status == "over" and done.scores == [3.0, 0.0] and done.outcome == [1.0, 0.0]
                assert "live" in hub.service.tables  # engine version 1 = the toy's: replayed
                lt = hub.service.tables["live"]
                await hub.service.submit(lt, 0, lt.table.legal_texts()[0], 0)
        finally:
            store.dispose()

    run(body())


def test_sqlite_append_refuses_a_taken_number(tmp_path: Path) -> None:
    async def body() -> None:
        store = Store(f"sqlite:///{tmp_path / 't.sqlite3'}")
        try:
            async with running(StoreLog(store)) as hub:
                tid, _ = await two_people(hub)
                lt = await hub.service.get(tid)
                await play(hub, lt, 1)
                from spillebord.store import NewAction, SeqConflict

                with pytest.raises(SeqConflict):
                    store.append_action(NewAction(tid, 0, 1, "play 1", "running", 0.0))
                assert len(store.actions_since(tid, 0)) == 1
        finally:
            store.dispose()

    run(body())


# --------------------------------------------------------------------------- the wire


@pytest.mark.parametrize(
    ("raw", "expect"),
    [
        ("this is not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"type": "dance"}', "unknown message type"),
        ('{"type": 3}', "unknown message type"),
        ('{"type": "act", "action": "play 1", "colour": "red"}', "unknown field"),
        ('{"type": "ping", "a": 1, "b": 2}', "unknown fields"),
        ('{"type": "act"}', "action"),
        ('{"type": "act", "action": 5}', "action"),
        ('{"type": "act", "action": "  "}', "action"),
        ('{"type": "act", "action": "play 1", "seq": "zero"}', "seq"),
        ('{"type": "act", "action": "play 1", "seq": true}', "seq"),
        ('{"type": "act", "action": "play 1", "seq": -1}', "seq"),
        ('{"type": "act", "action": "play 1"}', '"seq" is required'),
        (json.dumps({"type": "act", "action": "x" * 20000}), "too large"),
        (b"\xff\xfe", "JSON text"),
    ],
)
def test_wire_refuses_bad_messages_readably(raw: str | bytes, expect: str) -> None:
    with pytest.raises(wire.WireError, match=expect):
        wire.parse(raw)


def test_wire_reads_good_messages() -> None:
    assert wire.parse('{"type": "act", "action": "play 3", "seq": 4}') == wire.Act("play 3", 4)
    assert wire.parse(b'{"type": "act", "action": "play 3", "seq": 0}') == wire.Act("play 3", 0)
    assert wire.parse('{"type": "ping"}') == wire.Ping()
    assert wire.parse('{"type": "sync"}') == wire.Sync()
    assert json.loads(wire.error("no")) == {"type": "error", "message": "no"}
    assert list(json.loads(wire.PONG)) == ["type"]


def test_state_message_fields_and_order(memory: Storages) -> None:
    async def body() -> None:
        async with running(memory.memory) as hub:
            tid, _ = await two_people(hub)
            lt = await hub.service.get(tid)
            msg = hub.service.client_state(lt, 1, hub.presence.players(lt))
            assert next(iter(msg)) == "type" and set(msg) == set(wire.StateMsg.__annotations__)
            assert msg["view"] == lt.table.view(1) and msg["legal"] == [] and msg["to_act"] == 0
            spec = hub.service.client_state(lt, None, hub.presence.players(lt))
            assert spec["view"]["hand"] is None
            ref = Table.create(TOY, 2, 7, {"hand_size": 3})
            assert [x["text"] for x in hub.service.client_state(lt, 0, [])["legal"]] == ref.legal_texts()

    run(body())


def test_handle_message_answers_every_bad_input_with_an_error(memory: Storages) -> None:
    async def body() -> None:
        async with running(memory.memory) as hub:
            tid, _, _ = await hub.lobby.create("toy", 2, {}, [None, "random"], True, 2, "Ann")
            lt = await hub.service.get(tid)
            a, spec = await connect(hub, lt, 0), await connect(hub, lt, None)
            for raw, expect in [
                ("nope", "not JSON"),
                ('{"type": "act", "action": "play 99", "seq": 0}', "not a legal action"),
                ('{"type": "act", "action": "play 1", "seq": 9}', "stale"),
            ]:
                reply = await handle_message(hub, lt, a, raw)
                assert reply is not None and expect in json.loads(reply)["message"]
            text = lt.table.legal_texts()[0]
            reply = await handle_message(hub, lt, spec, json.dumps({"type": "act", "action": text, "seq": 0}))
            assert reply is not None and "spectators cannot act" in reply
            lt.seats[0].takeover = "greedy"
            reply = await handle_message(hub, lt, a, json.dumps({"type": "act", "action": text, "seq": 0}))
            assert reply is not None and "a bot is playing this seat" in reply
            assert lt.seq == 0

    run(body())


# --------------------------------------------------------------------------- the per-action path


def count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, every text the toy game parses, in order."""
    parsed: list[str] = []
    real = ToyGame.parse

    def counting(self: ToyGame, state: Any, text: str) -> Any:
        parsed.append(text)
        return real(self, state, text)

    monkeypatch.setattr(ToyGame, "parse", counting)
    return parsed


def test_a_sent_legal_text_is_played_without_parsing_it_again(
    memory: Storages, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body() -> None:
        async with running(memory.memory) as hub:
            tid, _ = await two_people(hub)
            lt = await hub.service.get(tid)
            a = await connect(hub, lt, 0)
            first = drain(a)[0]
            parsed = count_parses(monkeypatch)
            # One of the texts the seat was sent: played as the action it names, not parsed.
            await hub.service.submit(lt, 0, first["legal"][0]["text"], 0)
            assert parsed == [] and lt.seq == 1
            # A text the seat was not sent (another spelling, a state it was never shown): parsed.
            text = lt.table.legal_texts()[0]
            await hub.service.submit(lt, 1, "  " + text + " ", 1)
            assert parsed == ["  " + text + " "] and lt.table.log[-1] == (1, text)
            # The list of a state gone is not used for the next: an illegal text stays illegal.
            with pytest.raises(IllegalAction):
                await hub.service.submit(lt, 0, "nonsense", 2)
            assert lt.seq == 2

    run(body())


def test_the_legal_list_is_built_once_per_state_for_every_socket_of_the_seat(memory: Storages) -> None:
    async def body() -> None:
        async with running(memory.memory) as hub:
            tid, _ = await two_people(hub)
            lt = await hub.service.get(tid)
            a, b = await connect(hub, lt, 0), await connect(hub, lt, 0)
            spec, other = await connect(hub, lt, None), await connect(hub, lt, 1)
            players = hub.presence.players(lt)
            one = hub.service.client_state(lt, 0, players)["legal"]
            two = hub.service.client_state(lt, 0, players)["legal"]
            assert one is two and len(one) == 3  # the toy deals 3 cards: 3 legal plays
            assert hub.service.client_state(lt, None, players)["legal"] == []
            assert hub.service.client_state(lt, 1, players)["legal"] == []
            await hub.service.submit(lt, 0, one[0]["text"], 0)
            assert hub.service.client_state(lt, 0, players)["legal"] == []
            assert [len(m["legal"]) for m in drain(other)][-1] == 3
            for c in (a, b, spec):
                drain(c)

    run(body())


def test_a_random_bot_on_the_loop_plays_its_choice_without_parsing(
    memory: Storages, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body() -> None:
        parsed = count_parses(monkeypatch)
        async with running(memory.memory, bot_processes=1, bot_delay=0.0) as hub:
            tid, _, _ = await hub.lobby.create("toy", 2, {}, ["random", "random"], True, 3, None)
            lt = await hub.service.get(tid)
            await until(lambda: lt.is_over)
            assert len(lt.table.log) == 6 and parsed == []
        # The same moves as a random bot deciding on a copy (its draws depend on seed and seq).
        replay = Table.create("toy", 2, 3)
        for seat, text in lt.table.log:
            replay.act(seat, text)
        assert replay.state.outcome() == lt.outcome()

    run(body())


def test_status_open_until_every_seat_is_taken_then_running(memory: Storages) -> None:
    async def body() -> None:
        async with running(memory.memory) as hub:
            tid, _, _ = await hub.lobby.create("toy", 2, {}, None, True, 7, "Ann")
            lt = await hub.service.get(tid)
            assert lt.status == "open" and lt.status == "open"
            await hub.lobby.join(tid, None, "Bob")
            assert lt.status == "running" and lt.full
            await play(hub, lt)
            assert lt.status == "over"

    run(body())
