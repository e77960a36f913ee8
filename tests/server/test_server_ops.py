"""What operators see and what nobody should: /metrics in the Prometheus text format, log lines
with the table id and never a token, tokens out of URLs, presence as small messages."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from test_server_support import Server
from test_service import connect, drain, two_people
from websockets.sync.client import connect as ws_connect

from spillebord.core import registry
from spillebord.server import create_app
from spillebord.server.actionlog import MemoryLog
from spillebord.server.clock import FakeClock
from spillebord.server.errors import Config
from spillebord.server.hub import Hub
from spillebord.server.logs import redact
from toygame import TOY

registry.register(TOY)


def _families(text: str) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    out: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            out.setdefault(s.name, {})[tuple(sorted(s.labels.items()))] = s.value
    return out


def test_metrics_in_prometheus_text_format(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "t.sqlite3"), bot_only_delay=0.0)
    with TestClient(app) as c:
        t = c.post("/api/tables", json={"game": "toy", "seats": 2, "name": "Ann"}).json()
        c.post(f"/api/tables/{t['table']}/join", json={"name": "Bob"})
        with c.websocket_connect(
            f"/ws/tables/{t['table']}", subprotocols=["spillebord", f"token.{t['token']}"]
        ) as ws:
            st = ws.receive_json()
            assert st["seat"] == 0
            ws.send_json({"type": "act", "action": st["legal"][0]["text"], "seq": 0})
            assert ws.receive_json()["seq"] == 1
            r = c.get("/metrics")
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
            m = _families(r.text)
        assert m["spillebord_actions_total"][(("by", "person"),)] == 1
        assert m["spillebord_action_latency_seconds_count"][()] == 1
        assert m["spillebord_tables"][(("status", "running"),)] == 1
        assert m["spillebord_sockets"][()] == 1
        assert "spillebord_bot_thinking_seconds" in r.text and "spillebord_database_errors" in r.text
        # A refused request is counted.
        c.post("/api/tables", content=b"x" * 200_000, headers={"content-type": "application/json"})
        assert (
            _families(c.get("/metrics").text)["spillebord_refused_requests_total"][(("reason", "body"),)] == 1
        )


def test_presence_changes_are_small_messages(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "t.sqlite3"), bot_only_delay=0.0)
    with TestClient(app) as c:
        t = c.post("/api/tables", json={"game": "toy", "seats": 2, "name": "Ann"}).json()
        j = c.post(f"/api/tables/{t['table']}/join", json={"name": "Bob"}).json()
        url = f"/ws/tables/{t['table']}"
        with c.websocket_connect(url, subprotocols=["spillebord", f"token.{t['token']}"]) as a:
            assert a.receive_json()["type"] == "state"
            with c.websocket_connect(url, subprotocols=["spillebord", f"token.{j['token']}"]) as b:
                assert b.receive_json()["type"] == "state"  # the newcomer: the whole state
                msg = a.receive_json()  # the others: who is there, nothing more
                assert msg["type"] == "players" and msg["seq"] == 0 and set(msg) == {"type", "seq", "players"}
                assert msg["players"][1]["connected"] is True
                assert len(json.dumps(msg)) < 600


def test_a_disconnect_is_a_small_message_too() -> None:
    async def body() -> None:
        hub = Hub(MemoryLog(), Config(client_seeds=True), clock=FakeClock())
        await hub.start(maintain=False)
        try:
            tid, _ = await two_people(hub)
            lt = await hub.service.get(tid)
            a, b = await connect(hub, lt, 0), await connect(hub, lt, 1)
            drain(a)
            await hub.presence.disconnect(lt, b)
            (left,) = drain(a)
            assert left["type"] == "players" and left["players"][1]["connected"] is False
        finally:
            await hub.stop()

    asyncio.run(body())


def test_redact_blanks_tokens() -> None:
    line = '127.0.0.1:5 - "WebSocket /ws/tables/abc?token=SECRET-123_x" [accepted] token.OTHER_9'
    clean = redact(line)
    assert "SECRET" not in clean and "OTHER" not in clean and clean.count("[redacted]") == 2


def test_no_token_in_any_log_line(tmp_path: Path) -> None:
    """A server at info level: create, join, play through the subprotocol and (deprecated) the
    query string, make errors happen. No token appears in its output; its lines carry the
    table id as key=value."""
    srv = Server(str(tmp_path / "t.sqlite3"), tmp_path / "s.log")
    srv.args[srv.args.index("--log-level") + 1] = "info"
    srv.start()
    try:
        t = srv.create(game="toy", seats=2, name="Ann")
        j = srv.join(t["table"], name="Bob")
        a = srv.ws(t["table"], t["token"])
        st = a.state_at(0)
        a.act(st["legal"][0]["text"], 0)
        a.state_at(1)
        # An old client with the token in its URL is still served, and not logged.
        url = f"{srv.ws_url}/ws/tables/{t['table']}?token={j['token']}"
        with ws_connect(url, open_timeout=10) as old:
            assert json.loads(old.recv(timeout=10))["seat"] == 1
        srv.ws(t["table"], "not-a-token").error()
        a.close()
    finally:
        srv.stop()
    out = srv.output()
    assert "WebSocket" in out and "[redacted]" in out  # the access lines are there, blanked
    for token in (t["token"], j["token"]):
        assert token not in out
    lines = [x for x in out.splitlines() if x.strip()]
    print(f"\n{len(lines)} log lines, 0 tokens; e.g. {lines[-1][:120]}")
    assert all("level=" in x for x in lines if x[:4].isdigit())
