"""HTTP routes of the people service: accounts and sessions, "my tables", table settings,
chat, leaderboards, and their two pages (``/me``, ``/leaderboard``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from .people import SESSION_COOKIE, SESSION_DAYS, Forbidden, People, TooMany, Unauthorized
from .wire import ErrorOut

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (400, 401, 403, 404, 409, 422, 429)
}


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=80, description="2 to 40 letters, digits, spaces or . ' - _")
    password: str = Field(max_length=1024, description="8 to 1024 characters")


class Me(BaseModel):
    logged_in: bool
    name: str | None = None


class Said(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=4000, description="the line (at most 500 characters once trimmed)")
    token: str | None = Field(default=None, description="the seat's token (or be logged in with the seat)")


class ChatRead(BaseModel):
    model_config = ConfigDict(extra="forbid")
    since: int = 0
    token: str | None = None


def install_people_errors(app: FastAPI) -> None:
    for cls, code in ((TooMany, 429), (Unauthorized, 401), (Forbidden, 403)):

        async def handler(_req: Request, e: Exception, code: int = code) -> JSONResponse:
            return JSONResponse({"detail": str(e)}, status_code=code)

        app.add_exception_handler(cls, handler)


def client_addr(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


def session_of(request: Request) -> str | None:
    return request.cookies.get(SESSION_COOKIE)


def _set_session(request: Request, response: Response, token: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def make_people_router(get_people: Callable[[], People], web_dir: Path) -> APIRouter:
    r = APIRouter()

    @r.post("/api/account/register", response_model=Me, responses=ERRORS, tags=["accounts"])
    async def register(body: Credentials, request: Request, response: Response) -> Me:
        """Create an account and log in (a session cookie)."""
        acc, token = await get_people().register(body.name, body.password, client_addr(request))
        _set_session(request, response, token)
        return Me(logged_in=True, name=acc.name)

    @r.post("/api/account/login", response_model=Me, responses=ERRORS, tags=["accounts"])
    async def login(body: Credentials, request: Request, response: Response) -> Me:
        """Log in (a session cookie); limited per name and per address."""
        acc, token = await get_people().login(body.name, body.password, client_addr(request))
        _set_session(request, response, token)
        return Me(logged_in=True, name=acc.name)

    @r.post("/api/account/logout", response_model=Me, tags=["accounts"])
    async def logout(request: Request, response: Response) -> Me:
        """End this session."""
        await get_people().logout(session_of(request))
        response.delete_cookie(SESSION_COOKIE, path="/")
        return Me(logged_in=False)

    @r.post("/api/account/logout-everywhere", response_model=Me, tags=["accounts"])
    async def logout_everywhere(request: Request, response: Response) -> Me:
        """End every session of this account, on every device."""
        await get_people().logout(session_of(request), everywhere=True)
        response.delete_cookie(SESSION_COOKIE, path="/")
        return Me(logged_in=False)

    @r.get("/api/account/me", response_model=Me, tags=["accounts"])
    async def me(request: Request) -> Me:
        acc = await get_people().account(session_of(request))
        return Me(logged_in=acc is not None, name=acc.name if acc else None)

    @r.get("/api/me/tables", responses=ERRORS, tags=["accounts"])
    async def my_tables(request: Request) -> list[dict[str, Any]]:
        """The account's seats (with their tokens): tables where it is their turn first,
        then running and open ones, then finished games with their replay record."""
        people = get_people()
        acc = await people.account(session_of(request))
        if acc is None:
            raise Unauthorized("log in to see your tables")
        return await people.my_tables(acc)

    @r.get("/api/tables/{table_id}/settings", responses=ERRORS, tags=["lobby"])
    async def settings(table_id: str) -> dict[str, Any]:
        """The table's time control, whether it is rated, and its chat policy."""
        return await get_people().table_settings(table_id)

    @r.post("/api/tables/{table_id}/chat", responses=ERRORS, tags=["chat"])
    async def say(table_id: str, body: Said, request: Request) -> dict[str, Any]:
        """Write a chat line (seated players; 5 lines in 10 seconds at most)."""
        people = get_people()
        line = await people.say(table_id, body.text, body.token, session_of(request))
        return people.line_json(line)

    @r.post("/api/tables/{table_id}/chat/read", responses=ERRORS, tags=["chat"])
    async def read(table_id: str, body: ChatRead, request: Request) -> list[dict[str, Any]]:
        """The chat lines after line ``since`` (a POST: the seat token stays out of URLs)."""
        return await get_people().read_chat(table_id, body.since, body.token, session_of(request))

    @r.get("/api/ratings/{game_id}", responses=ERRORS, tags=["ratings"])
    async def leaderboard(game_id: str) -> list[dict[str, Any]]:
        """People and bots of a game by their OpenSkill rating (ordinal: mu - 3 sigma)."""
        return await get_people().leaderboard(game_id)

    def page(name: str) -> Response:
        p = web_dir / name
        if p.is_file():
            return FileResponse(p, media_type="text/html")
        return JSONResponse({"detail": "the web client is not installed"}, status_code=404)

    @r.get("/me", include_in_schema=False)
    async def me_page() -> Response:
        return page("me.html")

    @r.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> Response:
        return page("leaderboard.html")

    return r


__all__ = ["install_people_errors", "make_people_router", "session_of"]
