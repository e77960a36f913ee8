"""The bot runner: bots play their seats through :func:`spillebord.ai.decide` (a
determinization from their own seat, a thinking :class:`~spillebord.ai.Budget`), on a
thread pool, never on the event loop; their moves go through the table service like
anyone's. A bot over its budget, or failing, plays a random legal move instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

from spillebord.ai import Agent, Budget, decide, make_agent
from spillebord.core import Rng, State
from spillebord.core.errors import SpillebordError

from .clock import Clock
from .errors import Config, Stale
from .metrics import Metrics
from .service import LiveTable, TableService

log = logging.getLogger("spillebord.server")

T = TypeVar("T")


def _mix(seed: int, n: int) -> int:
    return int.from_bytes(hashlib.blake2b(f"{seed}:{n}".encode(), digest_size=8).digest(), "big")


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
        key = (lt.id, seat, name)
        agent = self.agents.get(key)
        if agent is None:
            agent = self.agents[key] = make_agent(name, lt.game)
        return agent

    @staticmethod
    def _choose(agent: Agent, state: State[Any], rng: Rng, budget: Budget) -> str:
        return str(decide(agent, state, rng, budget))

    async def think(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` where bots think, off the event loop, and return its result.

        For work on behalf of a seat that is not a move (hints, reviews): ``fn`` should be a
        module-level function of picklable arguments, so that it can run in a worker process.
        """
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, fn, *args)

    async def _think(self, agent: Agent, state: State[Any], rng: Rng) -> str:
        loop = asyncio.get_running_loop()
        t0 = self.clock.monotonic()
        try:
            return await asyncio.wait_for(
                loop.run_in_executor(self.executor, self._choose, agent, state, rng, self.budget),
                self.cfg.bot_budget,
            )
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
                state = lt.table.state.copy()
                rng = Rng(_mix(lt.table.seed, n) + failures)
                try:
                    if failures >= 2:
                        raise RuntimeError("the agent keeps failing")
                    agent = self.agent(lt, seat, name)
                    if bots_only:
                        async with self.bot_only:
                            text = await self._think(agent, state, rng)
                    else:
                        text = await self._think(agent, state, rng)
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
                    await self.service.submit(lt, seat, text, seq=n, by="bot")
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
        """A table left memory: drop its agents."""
        for key in [k for k in self.agents if k[0] == table_id]:
            del self.agents[key]

    async def stop(self) -> None:
        self.closing = True
        tasks = list(self.tasks.values())
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t


__all__ = ["BotRunner"]
