"""A table's life through the whole app, in process (not a test): no sockets, but FastAPI,
its middleware and routing, the lobby, the store (SQLite) and the websocket endpoint.

Each table is created as ``benchmarks/server_load.py`` does (``POST /api/tables``: Kasino,
quick options, the person in seat 0, a random bot), its websocket opened with the seat's
token, and then the person either leaves on the first state (``--moves 0``: the cost of a
table's life alone: create, connect, the first state, close) or plays a random legal move
on each state until the game ends (``--moves -1``: that cost, the game's actions and its end:
results, ratings). One table at a time, the deals fixed (the same seeds in the same order),
so the same run does the same work: the CPU time it prints is the process's (noisy under
load); count instructions with callgrind for a figure that load does not disturb:

    valgrind --tool=callgrind python benchmarks/server_lifecycle.py --tables 200
    valgrind --tool=callgrind python benchmarks/server_lifecycle.py --tables 0

(per table: the difference of the two totals over the tables; ``--tables 0`` is the start,
the imports and the first table, which warms the caches).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any

from spillebord.server import create_app

SETTINGS: dict[str, Any] = {
    # As benchmarks/server_load.py starts the server: one client address opens every table.
    "bot_delay": 0.0,
    "takeover_after": 0.0,
    "creates_per_minute": 0,
    "open_tables": 0,
    "posts_per_minute": 0,
    "connects_per_minute": 0,
}


async def post(app: Any, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    raw = json.dumps(body).encode()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(raw)).encode()),
        ],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    sent = False
    status = 0
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": raw, "more_body": False}
        await asyncio.Event().wait()  # never: the request is whole
        raise AssertionError

    async def send(msg: dict[str, Any]) -> None:
        nonlocal status
        if msg["type"] == "http.response.start":
            status = msg["status"]
        elif msg["type"] == "http.response.body":
            chunks.append(msg.get("body", b""))

    await app(scope, receive, send)
    return status, json.loads(b"".join(chunks))


async def play(app: Any, table: str, token: str, moves: int, rng: random.Random) -> int:
    """One websocket at ``table`` with ``token``: the person's moves until it leaves
    (``moves`` made, or the game over); how many states it got."""
    path = f"/ws/tables/{table}"
    scope = {
        "type": "websocket",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "scheme": "ws",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1")],
        "subprotocols": ["spillebord", f"token.{token}"],
        "client": ("127.0.0.1", 5001),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    inbox.put_nowait({"type": "websocket.connect"})
    states = 0
    made = 0
    pending: int | None = None

    async def receive() -> dict[str, Any]:
        return await inbox.get()

    async def send(msg: dict[str, Any]) -> None:
        nonlocal states, made, pending
        if msg["type"] != "websocket.send":
            return
        m = json.loads(msg["text"])
        if m["type"] == "error":
            raise SystemExit(f"refused: {m}")
        if m["type"] != "state":
            return
        states += 1
        if pending is not None and m["seq"] <= pending:
            return  # not yet the state with our move
        pending = None
        if m["outcome"] is not None or (moves >= 0 and made >= moves):
            inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})
            return
        if m["legal"]:
            text = rng.choice(m["legal"])["text"]
            made += 1
            pending = m["seq"]
            inbox.put_nowait(
                {
                    "type": "websocket.receive",
                    "text": json.dumps({"type": "act", "action": text, "seq": m["seq"]}),
                }
            )

    await app(scope, receive, send)
    return states


class FixedDeals:
    """The lobby's ``secrets`` with the deals' seeds drawn from a fixed sequence: the same run
    deals the same games (and the bots, seeded from them, play the same moves), so two trees
    do the same work. Tokens and ids stay random (their values change no work)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def randbits(self, k: int) -> int:
        return self.rng.getrandbits(k)

    def __getattr__(self, name: str) -> Any:
        return getattr(secrets, name)


async def run(tables: int, moves: int, profile: str | None = None) -> None:
    from spillebord.server import lobby

    lobby.secrets = FixedDeals(1)  # type: ignore[assignment]
    tmp = Path(tempfile.mkdtemp(prefix="sb-life-"))
    app = create_app(str(tmp / "life.sqlite3"), **SETTINGS)
    rng = random.Random(7)
    body = {
        "game": "kasino",
        "seats": 2,
        "options": {"target": 5},
        "bots": [None, "random"],
        "public": True,
        "name": "bench",
    }
    async with app.router.lifespan_context(app):
        states = 0
        t0 = 0.0
        profiler = None
        for i in range(tables + 1):  # the first warms the caches (not counted)
            if i == 1:
                t0 = time.process_time()
                states = 0
                if profile:
                    import cProfile

                    profiler = cProfile.Profile(time.thread_time)  # the loop's thread only
                    profiler.enable()
            status, created = await post(app, "/api/tables", body)
            if status != 200:
                raise SystemExit(f"create: {status} {created}")
            states += await play(app, created["table"], created["token"], moves, rng)
            await asyncio.sleep(0)
        cpu = time.process_time() - t0
        if profiler is not None and profile:
            profiler.disable()
            profiler.dump_stats(profile)
        per = cpu / max(1, tables) * 1000
        print(f"{tables} tables, {states} states sent, {cpu:.2f} s CPU, {per:.2f} ms per table")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200, help="tables, one after the other")
    p.add_argument(
        "--moves", type=int, default=0, help="the person's moves before leaving (-1: play to the end)"
    )
    p.add_argument(
        "--profile", default=None, help="write a cProfile of the counted tables (the loop's thread) here"
    )
    a = p.parse_args()
    asyncio.run(run(a.tables, a.moves, a.profile))


if __name__ == "__main__":
    main()
