"""The server's guard: bounds per client, and what every HTTP answer carries.

* :class:`Limits`: sliding one-minute windows per client address (table creations, other
  writes, websocket connections) and the unfinished tables each address created; over a
  bound, :class:`~.errors.TooMany` (429 with ``Retry-After``).
* :class:`GuardMiddleware` (pure ASGI, so it also sees websockets): a request body over
  ``max_body`` gets 413 before it is read; every HTTP answer gets the security headers
  (:data:`SECURITY_HEADERS`); a websocket whose ``Origin`` is another site is refused.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException

from .clock import Clock
from .errors import Config, TooMany
from .metrics import Metrics

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

WINDOW = 60.0
"""Seconds of the sliding windows (the bounds are per minute)."""

CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""The web client loads only its own scripts and styles and talks only to its own server (the
renderers' SVG uses style attributes, which are allowed; no script is inline); no page of
this server may be framed (clickjacking)."""

# The API documentation pages (/docs, /redoc) load Swagger UI / ReDoc from a CDN with an
# inline script: they get a CSP that allows exactly that.
DOCS_CSP = (
    "default-src 'self'; img-src 'self' data: https://fastapi.tiangolo.com; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; worker-src blob:; "
    "connect-src 'self'; frame-ancestors 'none'"
)

SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]


class Window:
    """Events of the last :data:`WINDOW` seconds per key."""

    def __init__(self, limit: int, clock: Clock) -> None:
        self.limit = limit
        self.clock = clock
        self.hits: dict[str, deque[float]] = {}

    def hit(self, key: str) -> float | None:
        """Count one event for ``key``; None if within the bound, else the seconds to wait."""
        if self.limit <= 0:
            return None
        now = self.clock.monotonic()
        q = self.hits.setdefault(key, deque())
        while q and now - q[0] >= WINDOW:
            q.popleft()
        if len(q) >= self.limit:
            return WINDOW - (now - q[0])
        q.append(now)
        if len(self.hits) > 10_000:  # forget quiet clients
            for k in [k for k, v in self.hits.items() if not v or now - v[-1] >= WINDOW]:
                del self.hits[k]
        return None


class Limits:
    """The per-client bounds of :class:`~.errors.Config`."""

    def __init__(self, config: Config, clock: Clock) -> None:
        self.cfg = config
        self.creates = Window(config.creates_per_minute, clock)
        self.posts = Window(config.posts_per_minute, clock)
        self.connects = Window(config.connects_per_minute, clock)
        self.created: dict[str, list[str]] = {}
        """Per client address, the tables it created (pruned of finished ones when counted)."""

    def check_create(self, client: str, still_open: Callable[[str], bool]) -> None:
        """May ``client`` create a table now? :class:`TooMany` if not."""
        mine = self.created.get(client)
        if mine is not None and self.cfg.open_tables > 0:
            mine[:] = [t for t in mine if still_open(t)]
            if self.cfg.open_tables > 0 and len(mine) >= self.cfg.open_tables:
                raise TooMany(
                    f"you have {len(mine)} unfinished tables, the most this server allows "
                    f"(--open-tables {self.cfg.open_tables}): finish or leave one first"
                )
        wait = self.creates.hit(client)
        if wait is not None:
            raise TooMany(
                f"too many new tables: at most {self.cfg.creates_per_minute} a minute; "
                f"try again in {wait:.0f} s",
                wait,
            )

    def created_table(self, client: str, table_id: str) -> None:
        if self.cfg.open_tables > 0:  # (no bound: nothing to count, nor to prune per create)
            self.created.setdefault(client, []).append(table_id)

    def check_connect(self, client: str) -> None:
        wait = self.connects.hit(client)
        if wait is not None:
            raise TooMany(
                f"too many connections: at most {self.cfg.connects_per_minute} a minute; "
                f"try again in {wait:.0f} s",
                wait,
            )


def client_of(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "?"


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers") or ():
        if k == name:
            return bytes(v).decode("latin-1")
    return None


def same_origin(scope: Scope) -> bool:
    """A websocket's ``Origin`` (if any: browsers always send it) is the served host itself.
    Another site's page must not open sockets with a visitor's cookies or stored tokens."""
    origin = _header(scope, b"origin")
    if origin is None:
        return True  # not a browser (a bot, a script): nothing to protect against
    host = _header(scope, b"host")
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return host is not None and netloc.lower() == host.lower()


class GuardMiddleware:
    def __init__(self, app: ASGIApp, config: Config, posts: Window, metrics: Metrics) -> None:
        self.app = app
        self.cfg = config
        self.posts = posts
        self.metrics = metrics

    async def _reply(self, send: Send, status: int, detail: str, headers: list[tuple[bytes, bytes]]) -> None:
        body = json.dumps({"detail": detail}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *headers,
                    *SECURITY_HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not same_origin(scope):
                self.metrics.refused.labels("origin").inc()
                # Refused before the handshake completes: the browser sees a failed connection.
                await send({"type": "websocket.close", "code": 4403, "reason": "origin not allowed"})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.cfg.max_body
        too_large = f"the request body is larger than {limit} bytes"
        length = _header(scope, b"content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            self.metrics.refused.labels("body").inc()
            await self._reply(send, 413, too_large, [(b"connection", b"close")])
            return
        if scope.get("method") not in ("GET", "HEAD", "OPTIONS"):
            wait = self.posts.hit(client_of(scope))
            if wait is not None:
                self.metrics.refused.labels("posts").inc()
                detail = f"too many requests: at most {self.cfg.posts_per_minute} a minute"
                await self._reply(send, 429, detail, [(b"retry-after", str(max(1, round(wait))).encode())])
                return
        path = str(scope.get("path", ""))
        csp = (DOCS_CSP if path in ("/docs", "/redoc") else CSP).encode()
        received = 0

        async def counted() -> Message:
            # A body without Content-Length (chunked) is counted as it arrives.
            nonlocal received
            msg = await receive()
            if msg["type"] == "http.request":
                received += len(msg.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return msg

        async def with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                headers = list(msg.get("headers") or [])
                headers += [*SECURITY_HEADERS, (b"content-security-policy", csp)]
                msg = {**msg, "headers": headers}
            await send(msg)

        await self.app(scope, counted, with_headers)


class BodyTooLarge(HTTPException):
    """A chunked body went over ``max_body`` while it was read (413, answered by the app's
    HTTP error handler; FastAPI passes HTTP exceptions from the body's reading through)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, detail=f"the request body is larger than {limit} bytes")


__all__ = ["CSP", "GuardMiddleware", "Limits", "Window", "client_of", "same_origin"]
