"""Bounds everywhere (issue 19): request bodies, creations and open tables per client, option
ranges that cap a game's length, the lobby's size, idle tables, bot-only tables, and a start
that serves before it has rebuilt every old table. Each bound is a setting of ``Config``."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))

from spillebord.core import registry
from spillebord.server import create_app
from spillebord.server.actionlog import MemoryLog
from spillebord.server.clock import FakeClock
from spillebord.server.errors import Config
from spillebord.server.hub import Hub
from spillebord.store import SeatRec, TableRec
from toygame import TOY

registry.register(TOY)


@pytest.fixture
def client(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    settings: dict[str, Any] = getattr(request, "param", {})
    app = create_app(str(tmp_path / "t.sqlite3"), bot_only_delay=0.0, **settings)
    with TestClient(app) as c:
        yield c


# --------------------------------------------------------------------------- HTTP bounds


def test_a_10MB_body_gets_413_whether_announced_or_chunked(client: TestClient) -> None:
    big = b"x" * (10 * 1024 * 1024)
    r = client.post("/api/tables", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "larger than" in r.json()["detail"]

    def chunks() -> Iterator[bytes]:
        for _ in range(160):
            yield b"x" * 65536

    r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "larger than" in r.json()["detail"]
    # A small body is served as before.
    assert client.post("/api/tables", json={"game": "toy", "seats": 2}).status_code == 200


@pytest.mark.parametrize("client", [{"creates_per_minute": 5}], indirect=True)
def test_a_creation_flood_meets_429_with_retry_after(client: TestClient) -> None:
    codes = [client.post("/api/tables", json={"game": "toy", "seats": 2}).status_code for _ in range(12)]
    print(f"\ncreation flood: {codes.count(200)} accepted, {codes.count(429)} refused with 429 of 12")
    assert codes[:5] == [200] * 5 and set(codes[5:]) == {429}
    r = client.post("/api/tables", json={"game": "toy", "seats": 2})
    assert 1 <= int(r.headers["retry-after"]) <= 60 and "at most 5 a minute" in r.json()["detail"]


@pytest.mark.parametrize("client", [{"open_tables": 3, "creates_per_minute": 100}], indirect=True)
def test_open_tables_per_client_are_bounded(client: TestClient) -> None:
    codes = [client.post("/api/tables", json={"game": "toy", "seats": 2}).status_code for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]
    assert "3 unfinished tables" in client.post("/api/tables", json={"game": "toy"}).json()["detail"]


@pytest.mark.parametrize("client", [{"posts_per_minute": 10}], indirect=True)
def test_a_join_flood_meets_429(client: TestClient) -> None:
    codes = [client.post("/api/tables/nope/join", json={}).status_code for _ in range(15)]
    assert codes[:10] == [404] * 10 and set(codes[10:]) == {429}


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("metscri", {"max_rounds": 10**6}),
        ("fuldrigger", {"rounds_limit": 10**9}),
        ("revir", {"max_turns": 0}),
        ("touche", {"match_games": 1001}),
        ("kasino", {"target": 1000}),
        ("88", {"max_rounds": 5000}),
    ],
)
def test_endless_options_cannot_be_created(client: TestClient, game: str, options: dict[str, Any]) -> None:
    r = client.post("/api/tables", json={"game": game, "options": options})
    assert r.status_code == 400, r.text
    assert "on this server" in r.json()["detail"] and "how long" in r.json()["detail"]


def test_the_lobby_schema_shows_the_servers_ranges(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    opt = {o["name"]: o for o in games["fuldrigger"]["options"]}
    assert opt["rounds_limit"]["max"] == 60
    assert client.post("/api/tables", json={"game": "fuldrigger", "options": {"rounds_limit": 40}}).is_success


@pytest.mark.parametrize("client", [{"lobby_limit": 4}], indirect=True)
def test_the_lobby_lists_at_most_lobby_limit_tables(client: TestClient) -> None:
    made = [client.post("/api/tables", json={"game": "toy", "seats": 2}).json()["table"] for _ in range(6)]
    listed = [t["table"] for t in client.get("/api/tables").json()]
    assert listed == made[::-1][:4]  # the newest


# --------------------------------------------------------------------------- headers


def test_security_headers_on_every_answer(client: TestClient) -> None:
    for path in ("/", "/api/games", "/api/tables/nope", "/static/app.css"):
        r = client.get(path)
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], path
        assert r.headers["x-frame-options"] == "DENY", path
    # The API docs load Swagger UI from its CDN: their CSP allows that, and still no framing.
    docs = client.get("/docs").headers["content-security-policy"]
    assert "cdn.jsdelivr.net" in docs and "frame-ancestors 'none'" in docs


def test_405_says_what_is_allowed(client: TestClient) -> None:
    r = client.delete("/api/tables")
    assert r.status_code == 405 and set(r.headers["allow"].replace(" ", "").split(",")) == {
        "GET",
        "HEAD",
        "POST",
    }


def test_a_websocket_from_another_site_is_refused(client: TestClient) -> None:
    tid = client.post("/api/tables", json={"game": "toy", "seats": 2}).json()["table"]
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect) as e,
        client.websocket_connect(f"/ws/tables/{tid}", headers={"origin": "https://evil.example"}),
    ):
        pass
    assert e.value.code == 4403
    # The served host itself is fine (and so is a client that sends no Origin).
    with client.websocket_connect(f"/ws/tables/{tid}", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "state"


# --------------------------------------------------------------------------- tables in time


def test_idle_tables_are_closed_and_kept_as_records() -> None:
    async def body() -> None:
        clock = FakeClock()
        hub = Hub(MemoryLog(), Config(client_seeds=False, idle_hours=24), clock=clock)
        await hub.start(maintain=False)
        try:
            tid, _, _ = await hub.lobby.create("toy", 2, {}, None, True, None, "Ann")
            await hub.lobby.join(tid, None, "Bob")
            lt = hub.service.tables[tid]
            await hub.service.submit(lt, 0, lt.table.legal_texts()[0], 0)
            clock.advance(23 * 3600)
            assert await hub.maintenance.close_idle() == []
            clock.advance(2 * 3600)
            assert await hub.maintenance.close_idle() == [tid]
            info = await hub.lobby.info(tid)
            assert info.status == "closed" and info.seed is not None and info.salt is not None
            record = await hub.lobby.record(tid)
            assert len(record["actions"]) == 1 and record["commitment"] == info.commitment
            assert tid not in [t.table for t in await hub.lobby.listing()]
            lt = await hub.service.get(tid)
            with pytest.raises(Exception, match="closed"):
                await hub.service.submit(lt, 1, lt.table.legal_texts()[0], 1)
        finally:
            await hub.stop()

    asyncio.run(body())


def test_bot_only_tables_are_throttled() -> None:
    async def body() -> None:
        clock = FakeClock()
        hub = Hub(MemoryLog(), Config(bot_only_delay=0.5, bot_delay=0.0), clock=clock)
        await hub.start(maintain=False)
        try:
            t0 = clock.monotonic()
            tid, _, _ = await hub.lobby.create("toy", 2, {}, ["random", "random"], True, None, None)
            lt = hub.service.tables[tid]
            for _ in range(2000):
                if lt.is_over:
                    break
                await asyncio.sleep(0.001)
            assert lt.is_over
            # Every move of a table of bots waited its 0.5 s (a person's table: bot_delay, 0).
            assert clock.monotonic() - t0 >= 0.5 * lt.seq
        finally:
            await hub.stop()

    asyncio.run(body())


def test_start_serves_before_every_old_table_is_rebuilt() -> None:
    async def body() -> None:
        log = MemoryLog()
        for i in range(200):
            rec = TableRec(f"t{i}", "toy", 2, i, {}, True, "running", 0.0, 0.0, engine=TOY.version)
            rec.seat_recs = [SeatRec(0, "a", token_hash="x"), SeatRec(1, "b", token_hash="y")]
            await log.create(rec)
        hub = Hub(log, Config(idle_hours=0), clock=FakeClock())
        await hub.start(maintain=False)
        try:
            assert hub.recovering is not None and not hub.recovering.done()
            # A table asked for now is loaded at once, ahead of the others.
            lt = await hub.service.get("t150")
            assert lt.seq == 0
            await hub.recovering
            assert len(hub.service.tables) == 200
        finally:
            await hub.stop()

    asyncio.run(body())
