"""Shared helpers of the server tests (no tests here): a real server in a subprocess on a
loopback port, real websocket clients, a fresh PostgreSQL database per session."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

TESTS = Path(__file__).resolve().parents[1]
PG = os.environ.get("SPILLEBORD_TEST_PG")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m spillebord.server`` in a subprocess, with the toy game registered."""

    def __init__(
        self,
        db: str,
        log: Path,
        takeover_after: float = 0,
        bot_delay: float = 0.0,
        bot_budget: float = 2.0,
        port: int | None = None,
        client_seeds: bool = True,
        limits: bool = False,
        extra: list[str] | None = None,
    ) -> None:
        self.db = db
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.args = [
            sys.executable,
            "-m",
            "spillebord.server",
            "--db",
            db,
            "--port",
            str(self.port),
            "--takeover-after",
            str(takeover_after),
            "--bot-delay",
            str(bot_delay),
            "--bot-budget",
            str(bot_budget),
            "--log-level",
            "warning",
            "--register",
            f"{TESTS}:toygame:TOY",
            # Tests replay known deals; the seed attack test starts a server without this.
            "--client-seeds",
            str(client_seeds),
            # Bot-only tables at full speed unless a test looks at the throttle.
            "--bot-only-delay",
            "0",
        ]
        if not limits:  # the flood tests keep the bounds; the others create many tables at once
            self.args += ["--creates-per-minute", "100000", "--open-tables", "100000"]
            self.args += ["--posts-per-minute", "100000", "--connects-per-minute", "100000"]
        self.args += extra or []
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60) -> Server:
        out = open(self.log, "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(self.args, stdout=out, stderr=subprocess.STDOUT)
        out.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).json() == {"ok": True}:
                    return self
            except (httpx.HTTPError, ValueError):
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log.read_text()[-3000:]}")

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    # -------------------------------------------------------------- HTTP helpers

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.url + path, timeout=30)

    def post(self, path: str, body: Any) -> httpx.Response:
        return httpx.post(self.url + path, json=body, timeout=30)

    def create(self, **body: Any) -> dict[str, Any]:
        r = self.post("/api/tables", body)
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def join(self, table: str, **body: Any) -> dict[str, Any]:
        r = self.post(f"/api/tables/{table}/join", body)
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def ws(self, table: str, token: str | None = None) -> Client:
        """A socket of ``table``: with ``token``, playing its seat (the token travels as a
        subprotocol, as the web client sends it, never in the URL)."""
        url = f"{self.ws_url}/ws/tables/{table}"
        protocols = [Subprotocol("spillebord")] + ([Subprotocol(f"token.{token}")] if token else [])
        return Client(connect(url, open_timeout=10, max_size=2**24, subprotocols=protocols).__enter__())


class Client:
    """A websocket client that keeps the last state it was sent."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.state: dict[str, Any] | None = None
        self.messages: list[dict[str, Any]] = []

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        msg = json.loads(self.conn.recv(timeout=timeout))
        assert isinstance(msg, dict) and next(iter(msg)) == "type", msg
        self.messages.append(msg)
        if msg["type"] == "state":
            self.state = msg
        return msg  # type: ignore[no-any-return]

    def send(self, obj: Any) -> None:
        self.conn.send(obj if isinstance(obj, str) else json.dumps(obj))

    def act(self, action: str, seq: int | None = None) -> None:
        msg: dict[str, Any] = {"type": "act", "action": action}
        if seq is not None:
            msg["seq"] = seq
        self.send(msg)

    def until(self, pred: Any, timeout: float = 15, current: bool = False) -> dict[str, Any]:
        """Read messages until one satisfies ``pred`` (or the last state does, with ``current``)."""
        if current and self.state is not None and pred(self.state):
            return self.state
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message; last: {self.messages[-3:]}")
            msg = self.recv(timeout=left)
            if pred(msg):
                return msg

    def state_at(self, seq: int, timeout: float = 15) -> dict[str, Any]:
        if self.state is not None and self.state["seq"] >= seq:
            return self.state
        return self.until(lambda m: m["type"] == "state" and m["seq"] >= seq, timeout)

    def error(self, timeout: float = 10) -> str:
        return str(self.until(lambda m: m["type"] == "error", timeout)["message"])

    def quiet(self, wait: float = 0.3) -> list[dict[str, Any]]:
        """Everything that arrives within ``wait`` seconds."""
        got = []
        try:
            while True:
                got.append(self.recv(timeout=wait))
        except TimeoutError:
            return got

    def close(self) -> None:
        self.conn.close()


@contextmanager
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database (dropped at the end), so that no test sees another's tables."""
    if not PG:
        pytest.skip("PostgreSQL tests need SPILLEBORD_TEST_PG")
    import psycopg

    name = "sbtest_" + uuid.uuid4().hex[:10]
    with psycopg.connect(PG, autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    base, _, _db = PG.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(PG, autocommit=True) as c:
            c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def pg_url() -> Iterator[str]:
    with pg_database() as url:
        yield url


def db_params() -> list[Any]:
    return ["sqlite", pytest.param("pg", marks=pytest.mark.postgres)]


@pytest.fixture(params=db_params())
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL: an SQLite file in tmp_path, or (if configured) the session's PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "tables.sqlite3")
    return str(request.getfixturevalue("pg_url"))


@contextmanager
def server_on(kind: str, tmp: Path, **kw: Any) -> Iterator[Server]:
    """A started server on a fresh database of ``kind`` ("sqlite" or "pg"), stopped at the end."""
    with ExitStack() as stack:
        db = str(tmp / "tables.sqlite3") if kind == "sqlite" else stack.enter_context(pg_database())
        srv = start_server(db, tmp, **kw)
        stack.callback(srv.stop)
        yield srv


def start_server(db: str, tmp_path: Path, **kw: Any) -> Server:
    return Server(db, tmp_path / f"server-{uuid.uuid4().hex[:6]}.log", **kw).start()


def play_out(srv: Server, table: str, tokens: list[str]) -> None:
    """Play the toy game to its end with both seats' tokens (first legal action each time)."""
    a, b = srv.ws(table, tokens[0]), srv.ws(table, tokens[1])
    st = a.recv()
    while st["to_act"] is not None:
        c = a if st["to_act"] == 0 else b
        seq = st["seq"]
        mine = c.until(lambda m, s=seq: m["type"] == "state" and m["seq"] == s and m["legal"], current=True)
        c.act(mine["legal"][0]["text"], mine["seq"])
        st = a.until(lambda m, s=st["seq"]: m["type"] == "state" and m["seq"] > s)
    a.close()
    b.close()
