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
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.routing import APIRoute
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route
from starlette.staticfiles import StaticFiles

from spillebord.core import registry
from spillebord.core.errors import SpillebordError, UnknownGame
from spillebord.store import SeatTaken

from . import wire
from .errors import Busy, Conflict, NotFound, Stale, StorageFailed, TooMany, Unavailable
from .hub import Hub
from .metrics import CONTENT_TYPE
from .people import SESSION_COOKIE
from .presence import Conn
from .service import LiveTable
from .wire import Created, CreateTable, ErrorOut, GameInfo, Health, HistoryEntry, Join, Joined, TableInfo

log = logging.getLogger("spillebord.server")

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut},
    404: {"model": ErrorOut},
    409: {"model": ErrorOut},
    413: {"model": ErrorOut},
    422: {"model": ErrorOut},
    429: {"model": ErrorOut},
    503: {"model": ErrorOut},
}

# --------------------------------------------------------------------------- errors


def _status_of(e: Exception) -> int:
    if isinstance(e, TooMany):
        return 429
    if isinstance(e, (Busy, StorageFailed)):
        return 503
    if isinstance(e, (UnknownGame, NotFound)):
        return 404
    if isinstance(e, (SeatTaken, Conflict, Unavailable)):
        return 409
    return 400


def install_errors(app: FastAPI) -> None:
    @app.exception_handler(SpillebordError)
    async def _spillebord(_req: Request, e: SpillebordError) -> JSONResponse:
        headers = {"Retry-After": str(max(1, round(e.retry_after)))} if isinstance(e, TooMany) else None
        if isinstance(e, (Busy, StorageFailed)):
            headers = {"Retry-After": "1"}
        return JSONResponse({"detail": str(e)}, status_code=_status_of(e), headers=headers)

    @app.exception_handler(DBAPIError)
    async def _database(_req: Request, e: DBAPIError) -> JSONResponse:
        # Locked (SQLite) or a lost connection (PostgreSQL): nothing was changed; try again.
        log.warning("database error: %s", str(e.orig).strip().splitlines()[0] if e.orig else e)
        hub = getattr(_req.app.state, "get_hub", None)
        if hub is not None:
            hub().metrics.db_errors.labels("request").inc()
        return JSONResponse(
            {"detail": "the database is busy; nothing changed: try again"},
            status_code=503,
            headers={"Retry-After": "1"},
        )

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
    async def _http(req: Request, e: StarletteHTTPException) -> JSONResponse:
        headers = dict(e.headers or {})
        if e.status_code == 405:
            # Every method the path answers (Starlette names only its first route's).
            headers["Allow"] = ", ".join(allowed_methods(req))
        return JSONResponse({"detail": str(e.detail)}, status_code=e.status_code, headers=headers)


def allowed_methods(req: Request) -> list[str]:
    """The methods some route answers at this request's path."""
    methods: set[str] = set()
    todo: list[Any] = list(req.app.routes)
    while todo:
        route = todo.pop()
        inner = getattr(route, "original_router", None)  # an included router
        if inner is not None:
            todo.extend(inner.routes)
        elif isinstance(route, APIRoute | Route) and route.matches(req.scope)[0] != Match.NONE:
            methods |= set(route.methods or ())
    if "GET" in methods:
        methods.add("HEAD")
    return sorted(methods)


# --------------------------------------------------------------------------- routes


def make_router(get_hub: Callable[[], Hub]) -> APIRouter:
    r = APIRouter()

    # First: routes are tried in order (twice per request, the app's and this router's), and
    # every table opens one of these; a websocket route never matches an HTTP request, and
    # it is the only websocket route, so its place changes nothing else.
    @r.websocket("/ws/tables/{table_id}")
    async def ws_table(ws: WebSocket, table_id: str) -> None:
        await play_socket(get_hub(), ws, table_id)

    @r.get("/healthz", response_model=Health, tags=["meta"])
    async def healthz() -> Health:
        return Health(ok=True)

    @r.get("/metrics", tags=["meta"], response_class=PlainTextResponse)
    async def metrics() -> Response:
        """Prometheus text format: actions, action→update latency, tables by status, sockets,
        bot thinking time, database errors, refused requests."""
        return Response(get_hub().metrics.render(), media_type=CONTENT_TYPE)

    @r.get("/api/games", response_model=list[GameInfo], tags=["lobby"])
    async def games() -> list[GameInfo]:
        return get_hub().lobby.games()

    @r.get("/api/games/{game_id}/board", responses=ERRORS, tags=["lobby"])
    async def board(game_id: str) -> dict[str, Any]:
        """Static public data to draw a game (its printed board: map, price lists, card texts)."""
        return registry.get(game_id).board_data()

    @r.post("/api/tables", response_model=Created, responses=ERRORS, tags=["lobby"])
    async def create_table(body: CreateTable, request: Request) -> Created:
        """A new table. Bounded per client address: ``--creates-per-minute`` and
        ``--open-tables`` (429 with ``Retry-After`` above them)."""
        hub = get_hub()
        client = request.client.host if request.client else "?"

        def still_open(tid: str) -> bool:
            lt = hub.service.tables.get(tid)
            return lt is not None and lt.status in ("open", "running")

        try:
            hub.limits.check_create(client, still_open)
        except TooMany:
            hub.metrics.refused.labels("creates").inc()
            raise
        people = getattr(request.app.state, "people", None)
        extras = (
            people.extras(body.game, body.options, body.seed, body.clock, body.rated, body.chat)
            if people is not None
            else None
        )
        lobby = hub.lobby
        tid, seat, token = await lobby.create(
            body.game,
            body.seats,
            body.options,
            body.bots,
            body.public,
            body.seed,
            body.name,
            settings=extras.settings if extras is not None else None,
        )
        hub.limits.created_table(client, tid)
        if people is not None and extras is not None:  # settings, the creator's account, clocks
            await people.created(tid, seat, token, extras, request.cookies.get(SESSION_COOKIE))
        analysis = getattr(request.app.state, "analysis", None)
        if analysis is not None:  # hints on or off
            await analysis.created(tid, body.hints)
        return Created(table=tid, seat=seat, token=token, commitment=lobby.commitment(tid))

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
CLOSE_TRY_AGAIN = 1013
CLOSE_TOO_MANY = 4429


SUBPROTOCOL = "spillebord"
TOKEN_PREFIX = "token."


def token_of(ws: WebSocket) -> str | None:
    """The seat token a socket brings: as a subprotocol ``token.TOKEN`` (offered next to
    ``spillebord``; the web client's way: it stays out of URLs and so out of every access
    log), or (deprecated, redacted from the logs) as ``?token=`` in the URL."""
    for p in ws.scope.get("subprotocols") or ():
        if p.startswith(TOKEN_PREFIX):
            return str(p[len(TOKEN_PREFIX) :])
    return ws.query_params.get("token")


async def play_socket(hub: Hub, ws: WebSocket, table_id: str) -> None:
    offered = ws.scope.get("subprotocols") or ()
    # A browser that offers subprotocols needs one chosen; never echo the token back.
    await ws.accept(subprotocol=SUBPROTOCOL if SUBPROTOCOL in offered else None)
    try:
        hub.limits.check_connect(ws.client.host if ws.client else "?")
    except TooMany as e:
        hub.metrics.refused.labels("connects").inc()
        await ws.send_text(wire.error(str(e), retry=True))
        await ws.close(code=CLOSE_TOO_MANY)
        return
    try:
        lt = await hub.service.get(table_id)
    except SpillebordError as e:
        await ws.send_text(wire.error(str(e)))
        await ws.close(code=CLOSE_UNAVAILABLE if isinstance(e, Unavailable) else CLOSE_NOT_FOUND)
        return
    except Exception as e:  # the database is unreachable for a moment: say so, the client retries
        log.warning("table %s cannot be loaded now (%s)", table_id, e, extra={"table": table_id})
        await ws.send_text(wire.error("the table cannot be loaded just now: try again", retry=True))
        await ws.close(code=CLOSE_TRY_AGAIN)
        return
    token = token_of(ws)
    seat: int | None = None
    if token:
        seat = await hub.presence.seat_for_token(lt, token)
        if seat is None:
            await ws.send_text(wire.error("this token holds no seat at this table"))
            await ws.close(code=CLOSE_FORBIDDEN)
            return
    conn = Conn(seat, ws.send_text)
    sender = asyncio.create_task(conn.sender())
    # When the sender stops (the client is too slow, or gone) while this task waits for a
    # message, the wait is cancelled (never while a message is handled: that waits for the
    # database). Cheaper per message than a task and asyncio.wait for each receive.
    me = asyncio.current_task()
    receiving = False
    stopped = False

    def sender_done(_: object) -> None:
        nonlocal stopped
        if receiving and me is not None:
            stopped = True
            me.cancel()

    sender.add_done_callback(sender_done)
    await hub.presence.connect(lt, conn)
    try:
        while not conn.closed and not sender.done():
            receiving = True
            try:
                msg = await ws.receive()
            except asyncio.CancelledError:
                if stopped and me is not None and me.uncancel() == 0:
                    break  # the sender stopped: not a cancellation of this task
                raise
            finally:
                receiving = False
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
        await hub.service.submit(lt, conn.seat, msg.action, msg.seq, undone=msg.undone)
    except Stale as e:
        if hub.service.applied(lt, conn.seat, msg.action, msg.seq):
            # A retry (or a second socket of the seat) of the action stored as number seq:
            # it was applied once; acknowledge it with the current state.
            hub.presence.send_state(lt, conn)
            return None
        return wire.error(str(e))
    except StorageFailed as e:
        return wire.error(str(e), retry=True)
    except SpillebordError as e:
        return wire.error(str(e))
    except Exception as e:  # the database failed under us: the socket stays, the client retries
        log.warning("table %s: an act failed (%s)", lt.id, e, extra={"table": lt.id})
        return wire.error(
            "the server could not take this action just now; nothing changed: try again", retry=True
        )
    return None
