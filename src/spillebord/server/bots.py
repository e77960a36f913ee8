"""The bot runner: bots play their seats through :func:`spillebord.ai.decide` (a
determinization from their own seat, a thinking :class:`~spillebord.ai.Budget`), never on the
event loop: in worker processes (:class:`ThinkPool`, ``Config.bot_processes``), or on the
server's threads in thread mode (in-process tests). Their moves go through the table service
like anyone's. A bot over its budget, failing, or whose worker died, plays a random legal move
instead (and a dead pool is rebuilt).

Never more bots think at once than the pool holds: the others wait for a place, in turn
across tables (first come, first served), so that a table of thinking bots cannot delay the
people or the other tables.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from spillebord.ai import Agent, Budget, decide, make_agent
from spillebord.ai.random_agent import RandomAgent
from spillebord.core import Action, Rng, State
from spillebord.core.errors import SpillebordError

from .clock import Clock
from .errors import Config, Stale
from .metrics import Metrics
from .service import LiveTable, TableService

log = logging.getLogger("spillebord.server")

T = TypeVar("T")


def _mix(seed: int, n: int) -> int:
    return int.from_bytes(hashlib.blake2b(f"{seed}:{n}".encode(), digest_size=8).digest(), "big")


# ----------------------------------------------------------------------- in the workers

_WORKER = threading.local()
"""A worker's agents, made once per (game, agent name) and thread (agents are not shared
between threads in thread mode)."""


def _worker_init(specs: str) -> None:
    """Start of a worker process: register the server's extra games (``DIR:module:ATTR;…``)
    and import every game. (Not niced: on a shared machine a niced worker got a third of a
    core's share and the bots crawled; the event loop has a core of its own, as there are
    cores less one workers.)"""
    import importlib
    import sys

    from spillebord.core import registry

    for spec in filter(None, specs.split(";")):
        path, mod, attr = spec.rsplit(":", 2)
        if path not in sys.path:
            sys.path.insert(0, path)
        registry.register(getattr(importlib.import_module(mod), attr))
    registry.all_games()


def worker_agent(name: str, state: State[Any]) -> Agent:
    """The agent ``name`` for the state's game, made once per process."""
    agents: dict[tuple[str, str], Agent] | None = getattr(_WORKER, "agents", None)
    if agents is None:
        agents = _WORKER.agents = {}
    key = (state.game.id, name)
    agent = agents.get(key)
    if agent is None:
        agent = agents[key] = make_agent(name, state.game)
    return agent


def choose(name: str, state: State[Any], rng: Rng, budget: Budget) -> str:
    """A bot's move (in a worker): the agent ``name`` decides from the acting seat's
    determinization of ``state``. Module-level and of picklable arguments."""
    return str(decide(worker_agent(name, state), state, rng, budget))


def analyse_seat(name: str, state: State[Any], seat: int, rng: Rng, budget: Budget) -> list[Any]:
    """The agent ``name``'s top three for ``seat`` (hints): from that seat's knowledge only
    (the state is determinized from ``seat`` before the search sees it)."""
    from spillebord.ai.review import hint

    agent = worker_agent(name, state)
    return list(hint(agent, state.determinize(seat, rng), seat, rng, budget))  # type: ignore[arg-type]


def searches(agent: Agent) -> bool:
    """Does the agent search (think for its budget)? Those think in the worker processes;
    the others (random, greedy, the game's heuristics, levels 1–3) on the server's threads."""
    return agent.needs.budget and getattr(agent, "search", True) is not None


# ----------------------------------------------------------------------- the pool


class ThinkPool:
    """Where bots think: ``processes`` worker processes (spawned once, on first use; a broken
    pool is rebuilt), or ``threads`` (the given executor) when ``processes`` is 0. At most
    :attr:`size` jobs run at once; the others wait in turn (FIFO) for a place."""

    def __init__(self, processes: int, threads: Executor, thread_count: int) -> None:
        if processes < 0:
            processes = max(1, (os.cpu_count() or 2) - 1)
        self.processes = processes
        self.threads = threads
        self.size = processes or max(1, thread_count)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._gate: asyncio.Semaphore | None = None
        self.rebuilt = 0
        """Pools rebuilt after a worker died."""
        self.closed = False

    @property
    def gate(self) -> asyncio.Semaphore:
        if self._gate is None:
            self._gate = asyncio.Semaphore(self.size)
        return self._gate

    def _executor(self) -> Executor:
        if not self.processes:
            return self.threads
        if self.closed:
            raise RuntimeError("the bot pool is shut down")
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_init,
                initargs=(os.environ.get("SPILLEBORD_REGISTER", ""),),
            )
        return self._pool

    def _broken(self, pool: Executor) -> None:
        """A worker died: drop the pool (the next job starts a new one)."""
        if pool is self._pool:
            self._pool = None
            self.rebuilt += 1
            log.error("a bot worker process died; the bot pool is rebuilt")
            pool.shutdown(wait=False, cancel_futures=True)

    async def start(self, fn: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
        """Wait for a place, then start ``fn(*args)``; the place is freed when the job ends
        (not when its caller stops waiting: a job over its time still holds its worker)."""
        gate = self.gate
        await gate.acquire()
        loop = asyncio.get_running_loop()
        try:
            ex = self._executor()
            fut = ex.submit(fn, *args)
        except BrokenProcessPool:
            gate.release()
            self._broken(ex)
            raise
        except BaseException:
            gate.release()
            raise

        def done(f: concurrent.futures.Future[T]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(gate.release)
            if not f.cancelled() and isinstance(f.exception(), BrokenProcessPool):
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(self._broken, ex)

        fut.add_done_callback(done)
        return fut

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.wrap_future(await self.start(fn, *args))

    async def shutdown(self) -> None:
        """Stop the workers (the jobs not started are cancelled; running ones may finish)."""
        self.closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.get_running_loop().run_in_executor(
                None, lambda: pool.shutdown(wait=True, cancel_futures=True)
            )


class BotRunner:
    def __init__(
        self,
        service: TableService,
        clock: Clock,
        config: Config,
        executor: Executor,
        metrics: Metrics | None = None,
    ) -> None:
        self.service = service
        self.metrics = metrics or Metrics()
        self.clock = clock
        self.cfg = config
        self.executor = executor
        self.pool = ThinkPool(config.bot_processes, executor, config.bot_threads)
        """Where bots think (processes, or the executor's threads in thread mode)."""
        self.light = ThinkPool(0, executor, config.bot_threads)
        """Where bots that do not search think when searching ones have processes: threads."""
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.agents: dict[tuple[str, int, str], Agent] = {}
        self.closing = False
        self.bot_only = asyncio.Semaphore(max(1, config.bot_only_running))
        """Bot-only tables think a few at a time: they cannot crowd out the people's tables."""

    @property
    def budget(self) -> Budget:
        """What an agent may think per move: most of the server's budget (the rest is the
        margin for the move's own cost)."""
        return Budget(seconds=self.cfg.bot_budget * 0.8)

    def busy(self, table_id: str) -> bool:
        task = self.tasks.get(table_id)
        return task is not None and not task.done()

    def schedule(self, lt: LiveTable) -> None:
        """Start the table's bot loop if a bot is to act and none is running."""
        if self.closing or self.busy(lt.id) or lt.status != "running":
            return
        s = lt.table.to_act
        if s is None or lt.agent_of(s) is None:
            return
        self.tasks[lt.id] = asyncio.create_task(self._loop(lt))

    def agent(self, lt: LiveTable, seat: int, name: str) -> Agent:
        """The agent ``name`` for the table's game (checks that it exists; made once)."""
        key = (lt.game.id, 0, name)
        agent = self.agents.get(key)
        if agent is None:
            agent = self.agents[key] = make_agent(name, lt.game)
        return agent

    async def think(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` where bots think, off the event loop, and return its result.

        For work on behalf of a seat that is not a move (hints, reviews): ``fn`` must be a
        module-level function of picklable arguments (states pickle; games by reference), as
        it runs in a worker process. It waits in turn with the bots for a place in the pool.
        """
        return await self.pool.run(fn, *args)

    async def analyse(
        self, lt: LiveTable, seat: int, budget: Budget | None = None, name: str = "level5"
    ) -> list[Any]:
        """The agent ``name``'s top three for ``seat`` (:func:`spillebord.ai.review.hint`
        suggestions) in the table's present state, from that seat's knowledge only, thought
        in the pool."""
        self.agent(lt, seat, name)  # an unknown agent fails here, on the loop, clearly
        rng = Rng(_mix(lt.table.seed, lt.seq) ^ (seat + 1))
        return await self.think(analyse_seat, name, lt.table.state.copy(), seat, rng, budget or self.budget)

    def on_loop(self, agent: Agent) -> bool:
        """Whether the agent decides on the event loop: one draw from the legal list (no
        determinization) is cheaper than any trip to a thread."""
        return bool(self.pool.processes) and isinstance(agent, RandomAgent)

    async def _think(self, agent: Agent, name: str, state: State[Any], rng: Rng) -> str | Action:
        """The agent's choice: on the loop the action itself, else its text."""
        if self.on_loop(agent):
            return decide(agent, state, rng, self.budget)
        pool = self.pool if searches(agent) or not self.pool.processes else self.light
        # (A bot that does not search decides in a moment: a thread does; a trip to a worker
        # process, the state pickled both ways, would cost more than the move.)
        job = await pool.start(choose, name, state, rng, self.budget)
        t0 = self.clock.monotonic()  # (the time waiting for a place is not thinking)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(job), self.cfg.bot_budget)
        finally:
            self.metrics.bot_thinking.observe(self.clock.monotonic() - t0)

    async def _loop(self, lt: LiveTable) -> None:
        failures = 0
        try:
            while not self.closing and lt.status == "running":
                seat = lt.table.to_act
                if seat is None:
                    return
                name = lt.agent_of(seat)
                if name is None:
                    return
                bots_only = lt.bots_only
                delay = max(self.cfg.bot_delay, self.cfg.bot_only_delay) if bots_only else self.cfg.bot_delay
                if delay > 0:
                    await self.clock.sleep(delay)
                    if lt.table.to_act != seat or lt.agent_of(seat) != name:
                        continue
                n = lt.seq
                live = lt.table.state
                state = live
                rng = Rng(_mix(lt.table.seed, n) + failures)
                chosen: tuple[State[Any], Action] | None = None
                try:
                    if failures >= 2:
                        raise RuntimeError("the agent keeps failing")
                    agent = self.agent(lt, seat, name)
                    # A bot on the loop reads only legal() of the live state (cached there, so
                    # in the copy submit plays on, and its choice needs no parsing); a thread
                    # or a worker process gets its own copy.
                    if not self.on_loop(agent):
                        state = live.copy()
                    if bots_only:
                        async with self.bot_only:
                            got = await self._think(agent, name, state, rng)
                    else:
                        got = await self._think(agent, name, state, rng)
                    if isinstance(got, str):
                        text = got
                    else:
                        chosen = (live, got)
                        text = str(got)
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
                    await self.service.submit(lt, seat, text, seq=n, by="bot", chosen=chosen)
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
                    await self.clock.sleep(0.05 * failures)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: bot loop failed", lt.id)
        finally:
            if self.tasks.get(lt.id) is asyncio.current_task():
                del self.tasks[lt.id]

    def watchdog(self) -> None:
        """Start the bots of tables whose bot turn nobody has played for ``stall_after``
        seconds (the worker that drove them died, or a loop gave up)."""
        now = self.clock.monotonic()
        for lt in list(self.service.tables.values()):
            if lt.status != "running" or self.busy(lt.id):
                continue
            s = lt.table.to_act
            if s is not None and lt.agent_of(s) is not None and now - lt.changed > self.cfg.stall_after:
                self.schedule(lt)

    def forget(self, table_id: str) -> None:
        """A table left memory (agents are per game, not per table: nothing to drop)."""

    async def stop(self) -> None:
        self.closing = True
        tasks = list(self.tasks.values())
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        await self.pool.shutdown()


__all__ = ["BotRunner", "ThinkPool", "analyse_seat", "choose", "searches"]
