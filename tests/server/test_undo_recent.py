"""Recent games and rematch links live in the database, not in a process's memory: a server
restarted on the same SQLite file still lists the finished games (newest first, a page at a
time) and still knows, and joins, a rematch started before the restart."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from test_server_support import Server, play_out, start_server


def finished_toy(srv: Server, seed: int) -> tuple[str, list[str]]:
    t = srv.create(game="toy", seats=2, seed=seed, name="Ann")
    j = srv.join(t["table"], name="Bob")
    play_out(srv, t["table"], [t["token"], j["token"]])
    return t["table"], [t["token"], j["token"]]


def ids(rows: list[dict[str, Any]]) -> list[str]:
    return [r["table"] for r in rows]


def test_recent_games_and_rematch_survive_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "tables.sqlite3")
    srv = start_server(db, tmp_path)
    try:
        games = [finished_toy(srv, seed) for seed in (1, 2, 3)]
        private = srv.create(game="toy", seats=2, seed=4, name="Eve", public=False)
        running = srv.create(game="toy", seats=2, seed=5, name="Max")
        newest_first = [g[0] for g in reversed(games)]
        assert ids(srv.get("/api/recent").json())[:3] == newest_first
        # the first seat starts the rematch of the oldest game before the restart
        r0 = srv.post(f"/api/tables/{games[0][0]}/rematch", {"token": games[0][1][0]}).json()
    finally:
        srv.stop()
    srv = start_server(db, tmp_path)
    try:
        recent = srv.get("/api/recent").json()
        assert ids(recent) == newest_first
        assert all(r["status"] == "over" and r["outcome"] is not None for r in recent)
        assert private["table"] not in ids(recent) and running["table"] not in ids(recent)
        assert [p["name"] for p in recent[0]["players"]] == ["Ann", "Bob"]
        # pages
        assert ids(srv.get("/api/recent?limit=2").json()) == newest_first[:2]
        assert ids(srv.get("/api/recent?limit=2&offset=2").json()) == newest_first[2:]
        assert srv.get("/api/recent?limit=0").status_code == 422
        # the rematch started before the restart is still the rematch; the second seat joins it
        assert srv.get(f"/api/tables/{games[0][0]}/rematch").json()["table"] == r0["table"]
        r1 = srv.post(f"/api/tables/{games[0][0]}/rematch", {"token": games[0][1][1]}).json()
        assert r1["table"] == r0["table"] and r1["seat"] == 1 and r1["token"]
        new = srv.get(f"/api/tables/{r0['table']}").json()
        assert [p["name"] for p in new["players"]] == ["Ann", "Bob"] and new["status"] == "running"
        # the first seat asking again after the restart: its seat is taken, said readably
        again = srv.post(f"/api/tables/{games[0][0]}/rematch", {"token": games[0][1][0]})
        assert again.status_code == 409 and "claimed" in again.json()["detail"]
        # a rematch of another game, started after the restart, works as before
        r2 = srv.post(f"/api/tables/{games[1][0]}/rematch", {"token": games[1][1][0]}).json()
        r3 = srv.post(f"/api/tables/{games[1][0]}/rematch", {"token": games[1][1][1]}).json()
        assert r2["table"] == r3["table"] not in (r0["table"], games[1][0]) and (r2["seat"], r3["seat"]) == (
            0,
            1,
        )
    finally:
        srv.stop()
