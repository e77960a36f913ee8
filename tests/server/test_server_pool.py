"""Bots think in worker processes (issue 15.6): off the event loop and its GIL, a place in the
pool at a time, in turn across tables; a dead worker costs a random move, and the pool is
rebuilt; the pool shuts down with the server. Thread mode (``bot_processes=0``) stays for
in-process tests."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

import pytest

from spillebord.ai import Budget
from spillebord.core import Rng, registry
from spillebord.server.actionlog import MemoryLog
from spillebord.server.bots import ThinkPool, analyse_seat, choose
from spillebord.server.clock import FakeClock
from spillebord.server.errors import Config
from spillebord.server.hub import Hub
from toygame import TOY

registry.register(TOY)

T = TypeVar("T")
TESTS = Path(__file__).resolve().parents[1]


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def crash() -> None:  # a worker that dies (a segfault, the OOM killer)
    os._exit(3)


def slow(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


async def until(cond: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.02)


def test_work_runs_in_another_process_and_the_pool_shuts_down() -> None:
    async def body() -> None:
        with ThreadPoolExecutor(1) as threads:
            pool = ThinkPool(1, threads, 1)
            assert pool.size == 1
            pids = {await pool.run(os.getpid) for _ in range(3)}
            assert len(pids) == 1 and os.getpid() not in pids  # one worker, made once
            workers = pool._pool
            assert workers is not None
            procs = list(workers._processes.values())  # type: ignore[attr-defined]
            await pool.shutdown()
            assert all(not p.is_alive() for p in procs)
            with pytest.raises(RuntimeError):
                await pool.run(os.getpid)

    run(body())


def test_a_dead_worker_fails_its_job_and_the_pool_is_rebuilt() -> None:
    async def body() -> None:
        with ThreadPoolExecutor(1) as threads:
            pool = ThinkPool(1, threads, 1)
            first = await pool.run(os.getpid)
            with pytest.raises(BrokenProcessPool):
                await pool.run(crash)
            await asyncio.sleep(0)  # (the pool is dropped by a callback on the loop)
            second = await pool.run(os.getpid)
            assert second != first and pool.rebuilt == 1
            await pool.shutdown()

    run(body())


def test_no_more_jobs_run_than_the_pool_holds_and_they_wait_in_turn() -> None:
    async def body() -> None:
        order: list[int] = []
        running = 0
        most = 0

        def job(i: int) -> int:
            nonlocal running, most
            running += 1
            most = max(most, running)
            time.sleep(0.01)
            order.append(i)
            running -= 1
            return i

        with ThreadPoolExecutor(4) as threads:
            pool = ThinkPool(0, threads, 1)  # thread mode, one place
            assert pool.size == 1
            results = await asyncio.gather(*(pool.run(job, i) for i in range(8)))
        assert results == list(range(8))
        assert order == list(range(8)) and most == 1

    run(body())


def test_a_job_over_its_time_keeps_its_place_until_it_ends() -> None:
    async def body() -> None:
        with ThreadPoolExecutor(4) as threads:
            pool = ThinkPool(0, threads, 1)
            job = await pool.start(slow, 0.3)
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(asyncio.wrap_future(job), 0.05)
            assert pool.gate.locked()  # the worker is still busy: nobody else starts
            t0 = time.monotonic()
            await pool.run(os.getpid)
            assert time.monotonic() - t0 > 0.1

    run(body())


def test_choose_and_analyse_are_picklable_module_functions() -> None:
    import pickle

    game = registry.get("kasino")
    state = game.new(2, 1)
    args = pickle.loads(pickle.dumps(("random", state, Rng(2), Budget(iterations=10))))
    assert choose(*args) in [str(a) for a in state.legal()]
    seat = state.to_act
    top = analyse_seat("level5", state, seat, Rng(3), Budget(iterations=30))
    assert 1 <= len(top) <= 3 and {s.action for s in top} <= {str(a) for a in state.legal()}


@pytest.mark.parametrize("game", ["kasino", "toy"])
def test_searching_bots_play_in_worker_processes(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The toy game is not one of spillebord's: the workers register it as the server does
    # (``--register DIR:module:ATTR`` puts it in SPILLEBORD_REGISTER).
    monkeypatch.setenv("SPILLEBORD_REGISTER", f"{TESTS}:toygame:TOY")

    async def body() -> None:
        cfg = Config(bot_processes=1, client_seeds=True, idle_hours=0, bot_budget=0.3)
        hub = Hub(MemoryLog(), cfg, clock=FakeClock())
        await hub.start(maintain=False)
        try:
            g = registry.get(game)
            tid, seat, _ = await hub.lobby.create(
                game, 2, dict(g.quick_options), [None, "level5"], True, 4, "A"
            )
            assert seat == 0
            lt = await hub.service.get(tid)
            bot_moves = 0
            while not lt.is_over and bot_moves < 2:
                if lt.table.to_act == 0:
                    await hub.service.submit(lt, 0, lt.table.legal_texts()[0], lt.seq)
                else:
                    n = lt.seq
                    await until(lambda n=n: lt.seq > n)  # type: ignore[misc]
                    bot_moves += 1
            assert hub.bots.pool._pool is not None  # the bot thought in a worker
            assert hub.bots.pool.rebuilt == 0
        finally:
            await hub.stop()
        assert hub.bots.pool._pool is None and hub.bots.pool.closed

    run(body())


def test_bots_that_do_not_search_think_on_threads() -> None:
    async def body() -> None:
        cfg = Config(bot_processes=1, bot_only_delay=0.0, client_seeds=True, idle_hours=0)
        hub = Hub(MemoryLog(), cfg, clock=FakeClock())
        await hub.start(maintain=False)
        try:
            tid, _, _ = await hub.lobby.create("toy", 2, {}, ["level1", "random"], True, 4, None)
            lt = await hub.service.get(tid)
            await until(lambda: lt.is_over)
            assert hub.bots.pool._pool is None  # no worker process was needed
        finally:
            await hub.stop()

    run(body())


def test_analyse_a_seat_in_the_pool() -> None:
    async def body() -> None:
        cfg = Config(bot_processes=1, client_seeds=True, idle_hours=0, bot_budget=5)
        hub = Hub(MemoryLog(), cfg, clock=FakeClock())
        await hub.start(maintain=False)
        try:
            g = registry.get("kasino")
            tid, _, _ = await hub.lobby.create("kasino", 2, dict(g.quick_options), None, True, 4, "Ann")
            lt = await hub.service.get(tid)
            s = lt.table.to_act
            assert s is not None
            top = await hub.bots.analyse(lt, s, Budget(iterations=30))
            assert 1 <= len(top) <= 3
            assert {x.action for x in top} <= set(lt.table.legal_texts())
        finally:
            await hub.stop()

    run(body())


def test_a_bot_whose_worker_dies_plays_a_random_move_and_the_pool_is_rebuilt() -> None:
    import signal

    async def body() -> None:
        cfg = Config(bot_processes=1, client_seeds=True, idle_hours=0, bot_budget=30)
        hub = Hub(MemoryLog(), cfg, clock=FakeClock())
        await hub.start(maintain=False)
        try:
            g = registry.get("kasino")
            tid, _, _ = await hub.lobby.create(
                "kasino", 2, dict(g.quick_options), [None, "ismcts"], True, 4, "A"
            )
            lt = await hub.service.get(tid)
            while lt.table.to_act != 1 or len(lt.table.legal_texts()) < 2:
                assert lt.table.to_act == 0, "the bot moved without thinking"
                await hub.service.submit(lt, 0, lt.table.legal_texts()[0], lt.seq)
            n = lt.seq
            await until(lambda: hub.bots.pool._pool is not None and hub.bots.pool.gate.locked())
            workers = hub.bots.pool._pool
            assert workers is not None
            await until(lambda: bool(workers._processes))  # type: ignore[attr-defined]
            for pid in list(workers._processes):  # type: ignore[attr-defined]
                os.kill(pid, signal.SIGKILL)
            await until(lambda: lt.seq > n)  # a random move, long before the 30 s budget
            assert hub.bots.pool.rebuilt == 1
            assert os.getpid() not in (await hub.bots.think(os.getpid),)  # a new pool works
        finally:
            await hub.stop()

    run(body())
