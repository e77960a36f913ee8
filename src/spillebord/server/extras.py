"""What the web table adds to the lobby API: the full public log after a reload, the end summary,
rematch, the replay viewer's view at step k, recent finished games and the rules of each game.

Additive: new routes over the hub's existing parts (nothing here changes how a table is played).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from spillebord.core import registry
from spillebord.core.errors import SpillebordError
from spillebord.core.summary import summary_of
from spillebord.store import SeatTaken
from spillebord.tables import Table
from spillebord.texts import game_texts

from .errors import BadRequest, Conflict, NotFound, Unavailable
from .hub import Hub
from .service import LiveTable
from .wire import TableInfo

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
RULES_DIR = WEB_DIR / "rules"
"""The rules of each game as shipped with the package (copies of ``docs/rules``)."""


class LogEntry(BaseModel):
    seq: int = Field(description="the action's number (1 for the first)")
    seat: int
    action: str | None = Field(description="its text, where this seat may see it")
    events: list[dict[str, Any]] = Field(description="the public events it caused")


class RematchIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(description="the token of a seat at the finished table")


class RematchOut(BaseModel):
    table: str
    seat: int | None = None
    token: str | None = None


class UndoIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seq: int = Field(ge=0, description="the seq of the state you undo from (stale if the table moved on)")
    undone: int | None = Field(
        default=None,
        ge=0,
        description="the undone count of that state (optional: stale if an action was taken back since)",
    )


class UndoOut(BaseModel):
    seq: int = Field(description="the table's action count after the undo")
    undo: int = Field(description="how many more actions this seat may still take back")


class StepView(BaseModel):
    step: int
    steps: int
    seat: int | None = Field(description="whose view (null: a spectator's)")
    view: dict[str, Any]
    to_act: int | None
    events: list[dict[str, Any]]
    last: dict[str, Any] | None


@dataclass
class Rematches:
    """The token of each seat already claimed at a rematch (this process's memory, so that a
    seat asking twice gets its seat back; the link finished table → rematch is in the store)."""

    tokens: dict[tuple[str, int], str] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def _replay_log(record: dict[str, Any], public: bool, seat: int | None) -> list[LogEntry]:
    """Every action of ``record`` with its public events, by replaying it from the start (off
    the event loop, on a snapshot: the table plays on meanwhile)."""
    table = Table.from_record(record, upto=0)
    out: list[LogEntry] = []
    for i, a in enumerate(record["actions"]):
        s, text = a["seat"], a["action"]
        events = table.act(None, text)
        shown = public or s == seat
        out.append(LogEntry(seq=i + 1, seat=s, action=text if shown else None, events=events))
    return out


@lru_cache(maxsize=16)
def rules_html(game_id: str) -> str:
    """The rules of a game as HTML (markdown-it in its safe "commonmark" preset, raw HTML off)."""
    from markdown_it import MarkdownIt

    path = RULES_DIR / f"{game_id}.md"
    if not path.is_file():
        raise NotFound(f"no rules for {game_id!r}")
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    return str(md.render(path.read_text(encoding="utf-8")))


RULES_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} — rules — Spillebord</title>
<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/app.css"></head>
<body><header class="bar"><a class="brand" href="/">Spillebord</a>
<span class="tagline">{title}</span></header>
<main class="rules-page" id="rules">{body}</main></body></html>"""


def make_extras_router(get_hub: Callable[[], Hub]) -> APIRouter:
    r = APIRouter()
    rematches = Rematches()

    async def live(table_id: str) -> LiveTable:
        try:
            return await get_hub().service.get(table_id)
        except Unavailable as e:
            raise Conflict(str(e)) from None

    async def seat_of(lt: LiveTable, token: str | None) -> int | None:
        if not token:
            return None
        return await get_hub().presence.seat_for_token(lt, token)

    @r.get("/api/tables/{table_id}/log", response_model=list[LogEntry], tags=["table"])
    async def table_log(
        table_id: str, token: str | None = Header(default=None, alias="x-seat-token")
    ) -> list[LogEntry]:
        """Every action so far with the public events it caused (the table's log, for a page
        that reloads). Action texts as ``history`` shows them, and a seat's own with its token
        (in the ``x-seat-token`` header: never in a URL)."""
        lt = await live(table_id)
        seat = await seat_of(lt, token)
        record = lt.table.to_record()  # a snapshot: no await between reading the table and this
        public = lt.game.kind.public_actions or lt.is_over
        return await asyncio.to_thread(_replay_log, record, public, seat)

    @r.get("/api/tables/{table_id}/summary", tags=["table"])
    async def table_summary(table_id: str) -> dict[str, Any]:
        """The game's own end summary (``games/<id>/summary.py``): rows of per-seat figures."""
        lt = await live(table_id)
        if not lt.is_over:
            raise Conflict("the summary is available once the game is over")
        s = summary_of(lt.table.state)
        return {"summary": s}

    @r.post("/api/tables/{table_id}/undo", response_model=UndoOut, tags=["table"])
    async def undo(
        table_id: str, body: UndoIn, token: str | None = Header(default=None, alias="x-seat-token")
    ) -> UndoOut:
        """Take back your last action of this turn, where the rules allow it (the state message's
        ``undo`` says how many): only the seat to act, only its own actions since its turn began
        that drew no chance and revealed nothing hidden, never a bot's. The seat's token goes in
        the ``x-seat-token`` header. The new state is sent to every socket of the table."""
        lt = await live(table_id)
        seat = await seat_of(lt, token)
        if seat is None:
            raise BadRequest("this token holds no seat at this table")
        await get_hub().service.undo(lt, seat, body.seq, body.undone)
        return UndoOut(seq=lt.seq, undo=lt.undo)

    @r.get("/api/tables/{table_id}/rematch", response_model=RematchOut, tags=["table"])
    async def get_rematch(table_id: str) -> RematchOut:
        """The rematch of a finished table, if one was started (404 if not)."""
        new = await get_hub().service.log.rematch_of(table_id)
        if new is None:
            raise NotFound("no rematch yet")
        return RematchOut(table=new)

    @r.post("/api/tables/{table_id}/rematch", response_model=RematchOut, tags=["table"])
    async def rematch(table_id: str, body: RematchIn) -> RematchOut:
        """Same game, options, seats, bots and names, a seed the server draws. The first seat to
        ask starts it; every other seat asking with its token gets its own seat there."""
        hub = get_hub()
        lt = await live(table_id)
        if not lt.is_over:
            raise Conflict("a rematch starts once the game is over")
        seat = await seat_of(lt, body.token)
        if seat is None:
            raise BadRequest("this token holds no seat at this table")
        async with rematches.lock:
            store = hub.service.log
            new = await store.rematch_of(table_id)
            if new is None:
                bots = [s.bot for s in lt.seats]
                people = [i for i, b in enumerate(bots) if b is None]
                first = people[0] if people else None
                name = lt.seats[first].name if first is not None else None
                new, got, token = await hub.lobby.create(
                    lt.game.id, lt.table.seats, dict(_opts(lt)), bots, lt.public, None, name
                )
                recorded = await store.set_rematch(table_id, new)
                if recorded == new and got is not None and token is not None:
                    rematches.tokens[(new, got)] = token
                new = recorded  # another worker may have recorded one first
            token = rematches.tokens.get((new, seat))
            if token is None:
                if lt.seats[seat].bot is not None:
                    raise BadRequest("a bot plays this seat")
                try:
                    got, token = await hub.lobby.join(new, seat, lt.seats[seat].name or "")
                except SeatTaken:
                    raise Conflict(
                        f"your seat at the rematch {new} was claimed already (by your first request for "
                        "it); open the rematch from there, or watch it"
                    ) from None
                rematches.tokens[(new, got)] = token
        return RematchOut(table=new, seat=seat, token=token)

    @r.get("/api/tables/{table_id}/step/{step}", response_model=StepView, tags=["table"])
    async def step_view(table_id: str, step: int, seat: int | None = None) -> StepView:
        """The table after its first ``step`` actions, as ``seat`` saw it: any seat once the game
        is over, a spectator's view while it runs."""
        lt = await live(table_id)
        n = lt.seq
        if not 0 <= step <= n:
            raise BadRequest(f"step must be between 0 and {n}")
        if seat is not None and not 0 <= seat < lt.table.seats:
            raise BadRequest(f"seat must be between 0 and {lt.table.seats - 1}")
        if seat is not None and not lt.is_over:
            raise Conflict("a seat's view is shown once the game is over; watch as a spectator")
        record = lt.table.to_record()  # a snapshot, replayed off the event loop
        over = lt.is_over
        public = lt.game.kind.public_actions

        def build() -> StepView:
            t = Table.from_record(record, upto=max(0, step - 1))
            events: list[dict[str, Any]] = []
            last = None
            if step:
                s, text = record["actions"][step - 1]["seat"], record["actions"][step - 1]["action"]
                events = t.act(None, text)
                shown = over or public or s == seat
                last = {"seat": s, "action": text if shown else None}
            return StepView(
                step=step, steps=n, seat=seat, view=t.view(seat), to_act=t.to_act, events=events, last=last
            )

        return await asyncio.to_thread(build)

    @r.get("/api/recent", response_model=list[TableInfo], tags=["lobby"])
    async def recent(
        limit: int = Query(20, ge=1, le=100, description="how many (at most 100)"),
        offset: int = Query(0, ge=0, description="how many of the latest to skip (the next page)"),
    ) -> list[TableInfo]:
        """Public finished games, the latest finished first, from the store (they outlive a
        restart), a page of ``limit`` after ``offset``."""
        hub = get_hub()
        out = []
        for rec in await hub.service.log.recent(limit, offset):
            lt = hub.service.tables.get(rec.id)
            out.append(hub.lobby.summary(lt) if lt is not None else hub.lobby.summary_rec(rec))
        return out

    @r.get("/api/games/{game_id}/rules", tags=["lobby"])
    async def rules(game_id: str) -> dict[str, str]:
        """The rules of a game (from ``docs/rules``) as HTML."""
        game = registry.get(game_id)
        return {"game": game.id, "title": game.title, "html": rules_html(game.id)}

    @r.get("/api/games/{game_id}/texts", tags=["lobby"])
    async def texts(game_id: str) -> dict[str, Any]:
        """The game's texts for the web client in every language (``games/<id>/texts.json``):
        event templates, option labels, end-summary rows, terms (empty for a game without)."""
        return game_texts(game_id)

    @r.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(WEB_DIR / "replay.html", media_type="text/html")

    @r.get("/rules/{game_id}", include_in_schema=False)
    async def rules_page(game_id: str) -> HTMLResponse:
        try:
            game = registry.get(game_id)
            body = rules_html(game.id)
        except SpillebordError as e:
            return HTMLResponse(f"<p>{type(e).__name__}</p>", status_code=404)
        return HTMLResponse(RULES_PAGE.format(title=game.title, body=body))

    return r


def _opts(lt: LiveTable) -> dict[str, Any]:
    from spillebord.core.options import to_dict

    return to_dict(lt.table.options)


__all__ = ["game_texts", "make_extras_router", "rules_html"]
