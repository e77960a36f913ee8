"""HTTP lobby and the websocket of live play (the wire protocol of the web client)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles

from spillebord.ai import agent_names
from spillebord.core import registry
from spillebord.core.errors import SpillebordError, UnknownGame
from spillebord.core.options import schema as options_schema
from spillebord.store import SeatTaken, StoreError

from .hub import BadRequest, Conn, Hub, NotFound, Stale, public_actions

log = logging.getLogger("spillebord.server")

MAX_MESSAGE = 16 * 1024


# --------------------------------------------------------------------------- models


class GameInfo(BaseModel):
    id: str
    title: str
    summary: str
    seats: list[int] = Field(description="[min, max] players")
    languages: list[str]
    options: list[dict[str, Any]] = Field(description="schema of the game's options")
    quick_options: dict[str, Any]
    bots: list[str]
    best_bot: str


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str
    seats: int | None = Field(None, description="number of players (default: the game's minimum)")
    options: dict[str, Any] = Field(default_factory=dict)
    bots: list[str | None] | None = Field(
        None, description="one per seat: an agent name, or null for a person"
    )
    public: bool = True
    seed: int | None = None
    name: str | None = Field(None, max_length=80, description="the creator's name")


class Created(BaseModel):
    table: str
    seat: int | None = Field(description="the creator's seat (the first human seat), if any")
    token: str | None = Field(description="secret token of that seat: keep it to act and to reconnect")


class Player(BaseModel):
    seat: int
    name: str
    bot: str | None
    connected: bool
    free: bool = False
    takeover: bool = False


class TableInfo(BaseModel):
    table: str
    game: str
    title: str
    seats: int
    status: str = Field(description="open | running | over")
    free_seats: list[int]
    players: list[Player]
    created: float = Field(description="Unix time")
    public: bool = True
    seq: int = Field(0, description="actions applied so far")
    to_act: int | None = None
    result: list[float] | None = None


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None
    name: str = Field("", max_length=80)


class Joined(BaseModel):
    seat: int
    token: str


class HistoryEntry(BaseModel):
    seq: int
    seat: int
    action: str | None = Field(description="canonical text (null where it is not public yet)")
    time: float


class Health(BaseModel):
    ok: bool


class ErrorOut(BaseModel):
    detail: str


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut},
    404: {"model": ErrorOut},
    409: {"model": ErrorOut},
    422: {"model": ErrorOut},
}


# --------------------------------------------------------------------------- errors


def _status_of(e: Exception) -> int:
    if isinstance(e, (UnknownGame, NotFound)):
        return 404
    if isinstance(e, SeatTaken):
        return 409
    return 400


def install_errors(app: FastAPI) -> None:
    @app.exception_handler(SpillebordError)
    async def _spillebord(_req: Request, e: SpillebordError) -> JSONResponse:
        return JSONResponse({"detail": str(e)}, status_code=_status_of(e))

    @app.exception_handler(RequestValidationError)
    async def _validation(_req: Request, e: RequestValidationError) -> JSONResponse:
        parts = []
        for err in e.errors():
            loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            parts.append(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")))
        return JSONResponse({"detail": "; ".join(parts) or "invalid request"}, status_code=422)

    @app.exception_handler(Exception)
    async def _internal(_req: Request, e: Exception) -> JSONResponse:
        log.error("request failed", exc_info=e)
        return JSONResponse({"detail": "internal server error (logged on the server)"}, status_code=500)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_req: Request, e: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"detail": str(e.detail)}, status_code=e.status_code)


# --------------------------------------------------------------------------- routes


def game_info(game: Any) -> dict[str, Any]:
    return {
        "id": game.id,
        "title": game.title,
        "summary": game.summary,
        "seats": [game.seats.start, game.seats.stop - 1],
        "languages": list(game.languages),
        "options": options_schema(game.Options),
        "quick_options": dict(game.quick_options),
        "bots": agent_names(game),
        "best_bot": game.best_bot,
    }


def make_router(get_hub: Any) -> APIRouter:
    r = APIRouter()

    @r.get("/healthz", response_model=Health, tags=["meta"])
    async def healthz() -> dict[str, Any]:
        return {"ok": True}

    @r.get("/api/games", response_model=list[GameInfo], tags=["lobby"])
    async def games() -> list[dict[str, Any]]:
        return [game_info(g) for g in registry.all_games()]

    @r.get("/api/games/{game_id}/board", responses=ERRORS, tags=["lobby"])
    async def board(game_id: str) -> dict[str, Any]:
        """Static public data to draw a game (its printed board: map, price lists, card texts)."""
        return registry.get(game_id).board_data()

    @r.post("/api/tables", response_model=Created, responses=ERRORS, tags=["lobby"])
    async def create_table(body: CreateTable) -> dict[str, Any]:
        hub: Hub = get_hub()
        tid, seat, token = await hub.create(
            body.game, body.seats, body.options, body.bots, body.public, body.seed, body.name
        )
        return {"table": tid, "seat": seat, "token": token}

    @r.get("/api/tables", response_model=list[TableInfo], tags=["lobby"])
    async def list_tables() -> list[dict[str, Any]]:
        hub: Hub = get_hub()
        recs = await hub.db(hub.store.list_tables)
        out = []
        for rec in recs:
            s = hub.summary_rec(rec)
            if s is not None:
                out.append(s)
        return out

    @r.get("/api/tables/{table_id}", response_model=TableInfo, responses=ERRORS, tags=["lobby"])
    async def get_table(table_id: str) -> dict[str, Any]:
        hub: Hub = get_hub()
        return hub.summary(await hub.get(table_id))

    @r.post("/api/tables/{table_id}/join", response_model=Joined, responses=ERRORS, tags=["lobby"])
    async def join(table_id: str, body: Join) -> dict[str, Any]:
        hub: Hub = get_hub()
        try:
            seat, token = await hub.join(table_id, body.seat, body.name)
        except StoreError as e:
            raise BadRequest(str(e)) from None
        return {"seat": seat, "token": token}

    @r.get("/api/tables/{table_id}/record", responses=ERRORS, tags=["lobby"])
    async def record(table_id: str) -> dict[str, Any]:
        """The replay JSON of a finished game (while it runs, the seed would give hidden cards away)."""
        hub: Hub = get_hub()
        lt = await hub.get(table_id)
        if not lt.table.is_over:
            return JSONResponse(  # type: ignore[return-value]
                {"detail": "the record is available once the game is over"}, status_code=409
            )
        return lt.table.to_record()

    @r.get(
        "/api/tables/{table_id}/history", response_model=list[HistoryEntry], responses=ERRORS, tags=["lobby"]
    )
    async def history(table_id: str) -> list[dict[str, Any]]:
        """Every action so far with its seat, sequence number and time. While the game runs,
        action texts are shown only for games whose actions are public."""
        hub: Hub = get_hub()
        lt = await hub.get(table_id)
        rows = await hub.db(hub.store.actions_since, table_id, 0)
        show = lt.table.is_over or public_actions(lt.game)
        return [{"seq": q, "seat": s, "action": a if show else None, "time": t} for q, s, a, t in rows]

    @r.websocket("/ws/tables/{table_id}")
    async def ws_table(ws: WebSocket, table_id: str) -> None:
        await play_socket(get_hub(), ws, table_id)

    return r


def mount_web(app: FastAPI, web_dir: Path) -> None:
    """The static web client: ``/`` → index.html, ``/table/{id}`` → table.html (or index.html),
    ``/static/*`` → files. Looked up per request: the files may arrive after the server starts."""

    def page(*names: str) -> Response:
        for n in names:
            p = web_dir / n
            if p.is_file():
                return FileResponse(p, media_type="text/html")
        return JSONResponse({"detail": "the web client is not installed"}, status_code=404)

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return page("index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return page("table.html", "index.html")

    app.mount("/static", StaticFiles(directory=web_dir, check_dir=False), name="static")


# --------------------------------------------------------------------------- websocket


def _err(message: str) -> str:
    return json.dumps({"type": "error", "message": message}, ensure_ascii=False)


async def play_socket(hub: Hub, ws: WebSocket, table_id: str) -> None:
    await ws.accept()
    try:
        lt = await hub.get(table_id)
    except SpillebordError as e:
        await ws.send_text(_err(str(e)))
        await ws.close(code=4404)
        return
    token = ws.query_params.get("token")
    seat: int | None = None
    if token:
        seat = await hub.seat_for_token(lt, token)
        if seat is None:
            await ws.send_text(_err("this token holds no seat at this table"))
            await ws.close(code=4403)
            return
    conn = Conn(seat, ws.send_text)
    sender = asyncio.create_task(conn.sender())
    await hub.connect(lt, conn)
    try:
        while not conn.closed:
            recv = asyncio.ensure_future(ws.receive())
            done, _ = await asyncio.wait({recv, sender}, return_when=asyncio.FIRST_COMPLETED)
            if recv not in done:  # the sender stopped (client too slow or gone)
                recv.cancel()
                break
            msg = recv.result()
            if msg["type"] == "websocket.disconnect":
                break
            raw = msg.get("text")
            if raw is None and msg.get("bytes") is not None:
                try:
                    raw = msg["bytes"].decode("utf-8")
                except UnicodeDecodeError:
                    conn.put(_err("messages are JSON text"))
                    continue
            reply = await handle_message(hub, lt, conn, raw or "")
            if reply is not None:
                conn.put(reply)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await hub.disconnect(lt, conn)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(sender, 2)
        sender.cancel()
        with contextlib.suppress(BaseException):
            await ws.close()


FIELDS = {"act": {"type", "action", "seq"}, "ping": {"type"}}


async def handle_message(hub: Hub, lt: Any, conn: Conn, raw: str) -> str | None:
    """The reply to one client message (None when the state broadcast is the answer)."""
    if len(raw.encode("utf-8")) > MAX_MESSAGE:
        return _err(f"message too large (at most {MAX_MESSAGE // 1024} KiB)")
    try:
        msg = json.loads(raw)
    except ValueError:
        return _err('not JSON: send {"type": "act", "action": "..."} or {"type": "ping"}')
    if not isinstance(msg, dict):
        return _err('a message is a JSON object with a "type"')
    kind = msg.get("type")
    if kind not in FIELDS:
        return _err(f'unknown message type {kind!r}: use "act" or "ping"')
    extra = sorted(set(msg) - FIELDS[kind])
    if extra:
        return _err(f"unknown field{'s' if len(extra) > 1 else ''} for {kind!r}: {', '.join(extra)}")
    if kind == "ping":
        return json.dumps({"type": "pong"})
    action = msg.get("action")
    seq = msg.get("seq")
    if not isinstance(action, str) or not action.strip():
        return _err('"action" must be the text of an action')
    if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
        return _err('"seq" must be a whole number')
    if conn.seat is None:
        return _err("spectators cannot act")
    if lt.agent_of(conn.seat) is not None:
        return _err("a bot is playing this seat")
    try:
        await hub.submit(lt, conn.seat, action, seq)
    except Stale as e:
        return _err(str(e))
    except SpillebordError as e:
        return _err(str(e))
    return None
