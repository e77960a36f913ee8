"""The HTTP lobby and the websocket of live play (the messages are in :mod:`.wire`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles

from spillebord.core import registry
from spillebord.core.errors import SpillebordError, UnknownGame
from spillebord.store import SeatTaken

from . import wire
from .errors import Conflict, NotFound, Unavailable
from .hub import Hub
from .people import SESSION_COOKIE
from .presence import Conn
from .service import LiveTable
from .wire import Created, CreateTable, ErrorOut, GameInfo, Health, HistoryEntry, Join, Joined, TableInfo

log = logging.getLogger("spillebord.server")

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
    if isinstance(e, (SeatTaken, Conflict, Unavailable)):
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


def make_router(get_hub: Callable[[], Hub]) -> APIRouter:
    r = APIRouter()

    @r.get("/healthz", response_model=Health, tags=["meta"])
    async def healthz() -> Health:
        return Health(ok=True)

    @r.get("/api/games", response_model=list[GameInfo], tags=["lobby"])
    async def games() -> list[GameInfo]:
        return get_hub().lobby.games()

    @r.get("/api/games/{game_id}/board", responses=ERRORS, tags=["lobby"])
    async def board(game_id: str) -> dict[str, Any]:
        """Static public data to draw a game (its printed board: map, price lists, card texts)."""
        return registry.get(game_id).board_data()

    @r.post("/api/tables", response_model=Created, responses=ERRORS, tags=["lobby"])
    async def create_table(body: CreateTable, request: Request) -> Created:
        people = getattr(request.app.state, "people", None)
        extras = (
            people.extras(body.game, body.options, body.seed, body.clock, body.rated, body.chat)
            if people is not None
            else None
        )
        tid, seat, token = await get_hub().lobby.create(
            body.game, body.seats, body.options, body.bots, body.public, body.seed, body.name
        )
        if people is not None and extras is not None:  # settings, the creator's account, clocks
            await people.created(tid, seat, token, extras, request.cookies.get(SESSION_COOKIE))
        return Created(table=tid, seat=seat, token=token)

    @r.get("/api/tables", response_model=list[TableInfo], tags=["lobby"])
    async def list_tables() -> list[TableInfo]:
        return await get_hub().lobby.listing()

    @r.get("/api/tables/{table_id}", response_model=TableInfo, responses=ERRORS, tags=["lobby"])
    async def get_table(table_id: str) -> TableInfo:
        return await get_hub().lobby.info(table_id)

    @r.post("/api/tables/{table_id}/join", response_model=Joined, responses=ERRORS, tags=["lobby"])
    async def join(table_id: str, body: Join, request: Request) -> Joined:
        seat, token = await get_hub().lobby.join(table_id, body.seat, body.name)
        people = getattr(request.app.state, "people", None)
        if people is not None:  # the account's seat; the clocks may start
            await people.joined(table_id, seat, token, request.cookies.get(SESSION_COOKIE))
        return Joined(seat=seat, token=token)

    @r.get("/api/tables/{table_id}/record", responses=ERRORS, tags=["lobby"])
    async def record(table_id: str) -> dict[str, Any]:
        """The replay JSON of a finished game (409 while it runs: the seed would give hidden cards away)."""
        return await get_hub().lobby.record(table_id)

    @r.get(
        "/api/tables/{table_id}/history", response_model=list[HistoryEntry], responses=ERRORS, tags=["lobby"]
    )
    async def history(table_id: str) -> list[HistoryEntry]:
        """Every action so far with its seat, sequence number and time. While the game runs,
        action texts are shown only for games whose actions are public."""
        return await get_hub().lobby.history(table_id)

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

CLOSE_NOT_FOUND = 4404
CLOSE_FORBIDDEN = 4403
CLOSE_UNAVAILABLE = 4409


async def play_socket(hub: Hub, ws: WebSocket, table_id: str) -> None:
    await ws.accept()
    try:
        lt = await hub.service.get(table_id)
    except SpillebordError as e:
        await ws.send_text(wire.error(str(e)))
        await ws.close(code=CLOSE_UNAVAILABLE if isinstance(e, Unavailable) else CLOSE_NOT_FOUND)
        return
    token = ws.query_params.get("token")
    seat: int | None = None
    if token:
        seat = await hub.presence.seat_for_token(lt, token)
        if seat is None:
            await ws.send_text(wire.error("this token holds no seat at this table"))
            await ws.close(code=CLOSE_FORBIDDEN)
            return
    conn = Conn(seat, ws.send_text)
    sender = asyncio.create_task(conn.sender())
    await hub.presence.connect(lt, conn)
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
            if raw is None:
                raw = msg.get("bytes") or b""
            reply = await handle_message(hub, lt, conn, raw)
            if reply is not None:
                conn.put(reply)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await hub.presence.disconnect(lt, conn)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(sender, 2)
        sender.cancel()
        with contextlib.suppress(BaseException):
            await ws.close()


async def handle_message(hub: Hub, lt: LiveTable, conn: Conn, raw: str | bytes) -> str | None:
    """The reply to one client message (None when the state broadcast is the answer)."""
    try:
        msg = wire.parse(raw)
    except wire.WireError as e:
        return wire.error(str(e))
    if isinstance(msg, wire.Ping):
        return wire.PONG
    if isinstance(msg, wire.Sync):
        hub.presence.send_state(lt, conn)
        return None
    if conn.seat is None:
        return wire.error("spectators cannot act")
    if lt.agent_of(conn.seat) is not None:
        return wire.error("a bot is playing this seat")
    try:
        await hub.service.submit(lt, conn.seat, msg.action, msg.seq)
    except SpillebordError as e:
        return wire.error(str(e))
    return None
