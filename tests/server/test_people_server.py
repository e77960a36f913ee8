"""Accounts, clocks and chat end to end: a real server in a subprocess (SQLite file, and
PostgreSQL when SPILLEBORD_TEST_PG is set), HTTP clients with their own cookie jars (two
devices), websockets."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_server_support import Server, db_params, pg_database, server_on, start_server


@pytest.fixture(scope="module", params=db_params())
def srv(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with server_on(request.param, tmp_path_factory.mktemp("people")) as s:
        yield s


def device(srv: Server) -> httpx.Client:
    """A browser of its own: its own cookies."""
    return httpx.Client(base_url=srv.url, timeout=30)


def test_second_device_logs_in_and_finds_the_seat_and_my_tables(srv: Server) -> None:
    with device(srv) as laptop, device(srv) as phone:
        r = laptop.post("/api/account/register", json={"name": "Ann", "password": "correct horse"})
        assert r.status_code == 200 and r.json() == {"logged_in": True, "name": "Ann"}
        cookie = r.headers["set-cookie"]
        assert "sb_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert "Secure" not in cookie  # plain http here; https gets Secure
        t = laptop.post("/api/tables", json={"game": "toy", "seats": 2, "name": "Ann"}).json()
        srv.join(t["table"], name="Bob")
        assert phone.get("/api/account/me").json() == {"logged_in": False, "name": None}
        assert phone.get("/api/me/tables").status_code == 401
        r = phone.post("/api/account/login", json={"name": "ann", "password": "correct horse"})
        assert r.status_code == 200 and r.json()["name"] == "Ann"
        mine = phone.get("/api/me/tables").json()
        assert [(m["table"], m["seat"], m["token"]) for m in mine] == [(t["table"], 0, t["token"])]
        assert mine[0]["your_turn"] is (mine[0]["to_act"] == 0)
        # The phone plays the seat with the token it was given.
        ws = srv.ws(t["table"], mine[0]["token"])
        state = ws.until(lambda m: m["type"] == "state")
        assert state["seat"] == 0 and state["clock"] is None
        ws.close()
        # Log out everywhere, from the phone: the laptop's session ends too.
        assert phone.post("/api/account/logout-everywhere").json() == {"logged_in": False, "name": None}
        assert laptop.get("/api/account/me").json()["logged_in"] is False
        assert laptop.get("/api/me/tables").status_code == 401


def test_login_limit_answers_429_in_one_line(srv: Server) -> None:
    with device(srv) as c:
        assert (
            c.post("/api/account/register", json={"name": "Cid", "password": "correct horse"}).status_code
            == 200
        )
        for _ in range(5):
            r = c.post("/api/account/login", json={"name": "Cid", "password": "nope nope"})
            assert r.status_code == 401 and r.json() == {"detail": "wrong name or password"}
        r = c.post("/api/account/login", json={"name": "Cid", "password": "correct horse"})
        assert r.status_code == 429 and r.json()["detail"].startswith("too many failed logins")


def test_chat_over_http_reaches_the_table_and_is_limited(srv: Server) -> None:
    t = srv.create(game="toy", seats=2, name="Ann", bots=[None, "random"], chat="players")
    watcher = srv.ws(t["table"])
    watcher.until(lambda m: m["type"] == "state")
    r = srv.post(
        f"/api/tables/{t['table']}/chat", {"text": "<img src=x onerror=alert(1)>", "token": t["token"]}
    )
    assert r.status_code == 200 and r.json()["text"] == "<img src=x onerror=alert(1)>"
    msg = watcher.until(lambda m: m["type"] == "chat")
    assert msg["lines"][0]["text"] == "<img src=x onerror=alert(1)>" and msg["lines"][0]["name"] == "Ann"
    r = srv.post(f"/api/tables/{t['table']}/chat", {"text": "hello"})
    assert r.status_code == 403
    codes = [
        srv.post(f"/api/tables/{t['table']}/chat", {"text": f"n{i}", "token": t["token"]}).status_code
        for i in range(5)
    ]
    assert codes == [200, 200, 200, 200, 429]
    lines = srv.post(f"/api/tables/{t['table']}/chat/read", {"since": 0}).json()
    assert [x["text"] for x in lines][1:] == ["n0", "n1", "n2", "n3"]
    assert srv.get(f"/api/tables/{t['table']}/settings").json() == {
        "clock": None,
        "rated": True,
        "chat": "players",
    }
    watcher.close()


def test_create_refuses_a_bad_clock_without_creating_a_table(srv: Server) -> None:
    before = len(srv.get("/api/tables").json())
    r = srv.post("/api/tables", {"game": "toy", "clock": {"mode": "realtime", "bank": 1}})
    assert r.status_code == 400 and "bank must be between 10" in r.json()["detail"]
    assert len(srv.get("/api/tables").json()) == before


@pytest.mark.parametrize("kind", db_params())
def test_turn_based_table_survives_a_kill_and_restart_with_its_deadline(kind: str, tmp_path: Path) -> None:
    if kind == "pg":
        with pg_database() as url:
            restart_keeps_the_deadline(url, tmp_path)
    else:
        restart_keeps_the_deadline(str(tmp_path / "tables.sqlite3"), tmp_path)


def restart_keeps_the_deadline(db: str, tmp_path: Path) -> None:
    srv = start_server(db, tmp_path)
    try:
        clock = {"mode": "turn", "per_decision": 3 * 86400, "on_timeout": "lose"}
        t = srv.create(game="toy", seats=2, name="Ann", clock=clock)
        j = srv.join(t["table"], name="Bob")
        ws = srv.ws(t["table"], j["token"])
        state = ws.until(
            lambda m: m["type"] == "state" and m["clock"] is not None and m["clock"]["running"] == 0
        )
        deadline = state["clock"]["deadline"]
        assert state["clock"]["mode"] == "turn"
        assert deadline == pytest.approx(state["clock"]["now"] + 3 * 86400, abs=5)
        ws.close()
        srv.kill9()
        srv = Server(db, tmp_path / "again.log").start()
        ws = srv.ws(t["table"], j["token"])
        state = ws.until(lambda m: m["type"] == "state" and m["clock"] is not None)
        assert state["clock"]["running"] == 0 and state["clock"]["deadline"] == deadline
        assert srv.get(f"/api/tables/{t['table']}/settings").json()["clock"]["per_decision"] == 3 * 86400
        ws.close()
    finally:
        srv.stop()
