"""Hints and game reviews in the browser (:mod:`spillebord.ai.review` behind HTTP).

* A **hint**: the seat to act asks (with its seat token) for the strongest bot's choice and
  its next two, with their estimated chances of winning. The search runs from that seat's
  knowledge only: it samples ``state.determinize(seat)``, exactly as the seat's bot would, so
  nothing another seat holds enters it. One hint at a time per seat, a bounded budget
  (``hint_iterations``, ``hint_seconds``), and none at a table whose creator switched hints off.
* A **review** of a finished game (reviewing a running one would leak what the search sees
  in later positions): for each decision of one seat, the played action, the search's best
  and the estimated loss, with mistakes and blunders marked. It runs as a background job
  (progress polled by the page), one decision at a time, and the result is kept in the
  database (``sb_analysis``), keyed by table, seat, engine version and budget.

All search work goes through :meth:`~.bots.BotRunner.think` (off the event loop, where the bots
think) with module-level functions of picklable arguments.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from fastapi import APIRouter
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from spillebord.ai import Budget
from spillebord.ai.review import hint, hint_analyst, positions, review_game
from spillebord.core import Action, AnyGame, Rng, State
from spillebord.core.errors import SpillebordError
from spillebord.store import AnalysisStore

from .errors import Config, Unavailable
from .hub import Hub
from .service import LiveTable

log = logging.getLogger("spillebord.server")

T = TypeVar("T")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

REVIEW_VERSION = 1
"""Part of every cached review's key: raise it when the review's method changes."""


# --------------------------------------------------------------------------- the work (off the loop)


def compute_hint(
    game: AnyGame, state: State[Any], seat: int, seed: int, iterations: int, seconds: float
) -> list[dict[str, Any]]:
    """The top three actions for ``seat`` with their chances of winning: the search samples
    only ``state.determinize(seat)``, so the answer is the same for every state ``seat``
    cannot tell apart from this one. A fresh analyst each time (no memory of other calls)."""
    budget = _budget(iterations, seconds)
    tips = hint(hint_analyst(game), state, seat, Rng(seed), budget, top=3)
    return [{"action": t.action, "chance": round(t.chance, 4), "visits": t.visits} for t in tips]


def review_positions(
    game: AnyGame, seats: int, seed: int, options: Any, actions: list[tuple[int, str]], seat: int
) -> list[tuple[int, State[Any], Action]]:
    """Each decision of ``seat`` in a finished game: (index, state before it, action played)."""
    return positions(game, seats, seed, options, actions, seat)


def review_decision(
    game: AnyGame,
    index: int,
    state: State[Any],
    played: Action,
    seat: int,
    iterations: int,
    seconds: float,
    samples: int,
    seed: int,
) -> dict[str, Any]:
    """The review of one decision (see :func:`~spillebord.ai.review.review_game`), with the
    JSON forms of the played and the best action (the page labels them in its language)."""
    budget = _budget(iterations, seconds)
    (j,) = review_game(game, [(index, state, played)], seat, hint_analyst(game), budget, samples, seed)
    out = j.to_json()
    out["played_json"] = _json_of(game, state, j.played)
    out["best_json"] = _json_of(game, state, j.best)
    return out


def _budget(iterations: int, seconds: float) -> Budget:
    """Iterations (reproducible), or with 0 the Master level's own budget capped by ``seconds``."""
    return Budget(iterations=iterations) if iterations > 0 else Budget(seconds=seconds or None)


def _json_of(game: AnyGame, state: State[Any], text: str) -> dict[str, Any] | None:
    try:
        data = game.parse(state, text).to_json()
    except (SpillebordError, ValueError, AttributeError):
        return None
    return data if isinstance(data, dict) else None


def _mix(*parts: object) -> int:
    raw = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "big")


# --------------------------------------------------------------------------- the service


def _refuse(status: int, detail: str, retry_after: float | None = None) -> HTTPException:
    headers = {"Retry-After": str(max(1, round(retry_after)))} if retry_after is not None else None
    return HTTPException(status, detail, headers=headers)


@dataclass
class ReviewJob:
    table_id: str
    seat: int
    status: str = "running"
    """running | done | failed"""
    done: int = 0
    total: int | None = None
    decisions: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    task: asyncio.Task[None] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "seat": self.seat,
            "done": self.done,
            "total": self.total,
        }
        if self.status == "done":
            out["decisions"] = self.decisions
        if self.error:
            out["error"] = self.error
        return out


class Analysis:
    """Hints and reviews of one server process (beside its hub)."""

    def __init__(self, hub: Hub, db: AnalysisStore | None = None) -> None:
        self.hub = hub
        self.db = db
        self.memory: dict[tuple[str, str], str] = {}
        """(table, key) → value when there is no database (tests on a memory log)."""
        self.hints_setting: dict[str, bool] = {}
        self.hinting: set[tuple[str, int]] = set()
        self.last_hint: dict[tuple[str, int], tuple[int, dict[str, Any]]] = {}
        self.jobs: dict[tuple[str, str], ReviewJob] = {}
        self.review_slots = asyncio.Semaphore(max(1, hub.cfg.review_jobs))

    @property
    def cfg(self) -> Config:
        return self.hub.cfg

    async def _get(self, table_id: str, key: str) -> str | None:
        if self.db is None:
            return self.memory.get((table_id, key))
        return await asyncio.to_thread(self.db.get, table_id, key)

    async def _put(self, table_id: str, key: str, value: str) -> None:
        if self.db is None:
            self.memory[(table_id, key)] = value
            return
        await asyncio.to_thread(self.db.put, table_id, key, value)

    async def _live(self, table_id: str) -> LiveTable:
        try:
            return await self.hub.service.get(table_id)
        except Unavailable as e:
            raise _refuse(409, str(e)) from None

    # ----------------------------------------------------------------- hints

    async def created(self, table_id: str, hints: bool) -> None:
        """A table was created: keep its hints setting (on unless the creator said otherwise)."""
        self.hints_setting[table_id] = hints
        if not hints:  # on is the default: nothing to store
            await self._put(table_id, "hints", "off")

    async def hints_on(self, table_id: str) -> bool:
        if len(self.hints_setting) > 100_000:  # a long-running server: read them again
            self.hints_setting.clear()
        on = self.hints_setting.get(table_id)
        if on is None:
            on = self.hints_setting[table_id] = (await self._get(table_id, "hints")) != "off"
        return on

    async def hint(self, table_id: str, token: str | None) -> dict[str, Any]:
        lt = await self._live(table_id)
        seat = await self.hub.presence.seat_for_token(lt, token) if token else None
        if seat is None:
            raise _refuse(403, "this token holds no seat at this table: hints are for the players")
        if not await self.hints_on(table_id):
            raise _refuse(403, "hints are switched off at this table")
        if lt.is_over or lt.status != "running":
            raise _refuse(409, "hints are given while the game runs")
        if lt.table.to_act != seat:
            raise _refuse(409, "a hint is for the seat to act, and it is not your turn")
        if lt.agent_of(seat) is not None:
            raise _refuse(409, "a bot is playing this seat")
        key = (table_id, seat)
        seq = lt.seq
        last = self.last_hint.get(key)
        if last is not None and last[0] == seq:
            return last[1]
        if key in self.hinting:
            raise _refuse(429, "a hint for this seat is being worked out: wait for it", 2)
        self.hinting.add(key)
        try:
            state = lt.table.state.copy()  # what the seat's bot would get: it determinizes from it
            tips = await self.hub.bots.think(
                compute_hint,
                lt.game,
                state,
                seat,
                # A secret seed: the engines' determinize draws from the unseen cards in the order
                # they really lie, so with a seed a player could know, the answer would be a
                # function of that order. Drawn afresh, it is not (kept per position below).
                secrets.randbits(62),
                self.cfg.hint_iterations,
                self.cfg.hint_seconds,
            )
        finally:
            self.hinting.discard(key)
        out = {"seat": seat, "seq": seq, "hints": tips}
        if len(self.last_hint) > 10_000:  # a long-running server: forget the old ones
            self.last_hint.clear()
        self.last_hint[key] = (seq, out)
        return out

    # ----------------------------------------------------------------- reviews

    def review_key(self, lt: LiveTable, seat: int) -> str:
        c = self.cfg
        budget = f"{c.review_iterations}it-{c.review_seconds}s-{c.review_samples}p"
        return f"review:{seat}:{lt.game.version}:{budget}:v{REVIEW_VERSION}"

    async def _review_table(self, table_id: str, seat: int) -> LiveTable:
        lt = await self._live(table_id)
        if not lt.is_over:
            raise _refuse(
                409,
                "a review is made once the game is over (during the game it would give hidden cards away)",
            )
        if not 0 <= seat < lt.table.seats:
            raise _refuse(400, f"seat must be between 0 and {lt.table.seats - 1}")
        return lt

    async def review(self, table_id: str, seat: int, start: bool) -> dict[str, Any]:
        """The review of ``seat``'s decisions: done (from the cache), being computed (with its
        progress), or (``start``) started now."""
        lt = await self._review_table(table_id, seat)
        key = self.review_key(lt, seat)
        job = self.jobs.get((table_id, key))
        if job is not None:
            return job.to_json()
        cached = await self._get(table_id, key)
        if cached is not None:
            decisions = json.loads(cached)
            return {"status": "done", "seat": seat, "done": len(decisions), "total": len(decisions),
                    "decisions": decisions}  # fmt: skip
        if not start:
            return {"status": "none", "seat": seat, "done": 0, "total": None}
        job = self.jobs[(table_id, key)] = ReviewJob(table_id, seat)
        job.task = asyncio.create_task(self._run(lt, seat, key, job))
        return job.to_json()

    async def _run(self, lt: LiveTable, seat: int, key: str, job: ReviewJob) -> None:
        c = self.cfg
        t = lt.table
        try:
            async with self.review_slots:
                todo = await self.hub.bots.think(
                    review_positions, lt.game, t.seats, t.seed, t.options, list(t.log), seat
                )
                job.total = len(todo)
                for index, state, played in todo:
                    j = await self.hub.bots.think(
                        review_decision,
                        lt.game,
                        index,
                        state,
                        played,
                        seat,
                        c.review_iterations,
                        c.review_seconds,
                        c.review_samples,
                        _mix(lt.id, seat, index) % 1_000_000_007,
                    )
                    job.decisions.append(j)
                    job.done += 1
            await self._put(lt.id, key, json.dumps(job.decisions))
            job.status = "done"
        except asyncio.CancelledError:
            job.status, job.error = "failed", "the server stopped"
            raise
        except Exception as e:
            log.exception("table %s: review of seat %d failed", lt.id, seat)
            job.status, job.error = "failed", f"the review failed: {type(e).__name__}"
        finally:
            if job.status == "done":
                self.jobs.pop((lt.id, key), None)  # the cache answers from now on
            else:
                # Failed: the next request starts again (after a moment, not in a loop).
                asyncio.get_running_loop().call_later(30, self.jobs.pop, (lt.id, key), None)

    async def stop(self) -> None:
        tasks = [j.task for j in self.jobs.values() if j.task is not None and not j.task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):  # it was cancelled
                await task


# --------------------------------------------------------------------------- routes


class HintIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(description="the seat's token (in the body: never in a URL)")


class ReviewIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(description="whose decisions to review")


def make_analysis_router(get_analysis: Callable[[], Analysis]) -> APIRouter:
    r = APIRouter()

    @r.get("/api/tables/{table_id}/hints", tags=["analysis"])
    async def hints_setting(table_id: str) -> dict[str, Any]:
        """Whether the table gives hints (its creator may have switched them off)."""
        a = get_analysis()
        await a._live(table_id)
        return {"hints": await a.hints_on(table_id), "iterations": a.cfg.hint_iterations}

    @r.post("/api/tables/{table_id}/hint", tags=["analysis"])
    async def ask_hint(table_id: str, body: HintIn) -> dict[str, Any]:
        """The strongest bot's choice for the seat to act and its next two, each with its
        estimated chance of winning, from that seat's knowledge only. 403: not a seat's token,
        or hints are off; 409: not this seat's turn; 429: a hint for this seat is on its way."""
        return await get_analysis().hint(table_id, body.token)

    @r.post("/api/tables/{table_id}/review", tags=["analysis"])
    async def start_review(table_id: str, body: ReviewIn) -> dict[str, Any]:
        """Start (or find) the review of a seat's decisions in a finished game (409 while it
        runs). ``status``: running (``done`` of ``total`` decisions), done (with
        ``decisions``) or failed."""
        return await get_analysis().review(table_id, body.seat, start=True)

    @r.get("/api/tables/{table_id}/review", tags=["analysis"])
    async def get_review(table_id: str, seat: int) -> dict[str, Any]:
        """The review's progress or result (``status`` none: not started)."""
        return await get_analysis().review(table_id, seat, start=False)

    @r.get("/review/{table_id}", include_in_schema=False)
    async def review_page(table_id: str) -> FileResponse:
        return FileResponse(WEB_DIR / "review.html", media_type="text/html")

    return r


__all__ = [
    "Analysis",
    "ReviewJob",
    "compute_hint",
    "make_analysis_router",
    "review_decision",
    "review_positions",
]
