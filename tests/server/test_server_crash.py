"""Persistence you can trust: kill -9 the server in the middle of games, restart it, and
every acknowledged action is there and play continues (bots included)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_server_support import Server, db_params, pg_database


@pytest.mark.parametrize("kind", db_params())
def test_kill9_mid_game_then_restart(kind: str, tmp_path: Path) -> None:
    if kind == "pg":
        with pg_database() as url:
            run_crash(url, tmp_path)
    else:
        run_crash(str(tmp_path / "tables.sqlite3"), tmp_path)


def run_crash(db: str, tmp_path: Path) -> None:
    srv = Server(db, tmp_path / "a.log", bot_delay=0.03).start()
    try:
        # A table of two people, and bot tables that keep playing while we kill the server.
        t = srv.create(game="toy", seats=2, options={"hand_size": 4}, seed=21, name="Ann")
        j = srv.join(t["table"], name="Bob")
        tid = t["table"]
        tokens = {0: t["token"], 1: j["token"]}
        bots = [
            srv.create(
                game="toy", seats=3, options={"hand_size": 4}, bots=["random", "greedy", "random"], seed=i
            )["table"]
            for i in range(4)
        ]
        watchers = {b: srv.ws(b) for b in bots}
        clients = {s: srv.ws(tid, tok) for s, tok in tokens.items()}
        acked: list[tuple[int, str]] = []
        for seq in range(3):
            st = clients[0].state_at(seq)
            c = clients[st["to_act"]]
            action = c.state_at(seq)["legal"][0]["text"]
            c.act(action, seq)
            c.state_at(seq + 1)  # acknowledged: the new state came back
            acked.append((st["to_act"], action))
        # The bots' acknowledged actions: whatever the watchers were shown.
        time.sleep(0.1)
        seen = {}
        for b, w in watchers.items():
            w.quiet(0.05)
            seen[b] = w.state["seq"] if w.state else 0
        srv.kill9()
    except BaseException:
        srv.stop()
        raise
    for c in [*clients.values(), *watchers.values()]:
        c.close()

    srv2 = Server(db, tmp_path / "b.log", bot_delay=0.0, port=srv.port).start()
    try:
        hist = srv2.get(f"/api/tables/{tid}/history").json()
        assert isinstance(hist, list), (hist, srv2.output()[-3000:])
        # (While the game runs the texts are private; the record below has them.)
        assert [(h["seq"], h["seat"]) for h in hist] == [(i, a[0]) for i, a in enumerate(acked)]
        for b in bots:
            h = srv2.get(f"/api/tables/{b}/history").json()
            assert len(h) >= seen[b], f"table {b}: {seen[b]} actions were shown, {len(h)} stored"
        # Play continues: the people reconnect with their tokens, the bots finish their games.
        clients = {s: srv2.ws(tid, tok) for s, tok in tokens.items()}
        seq = len(acked)
        while True:
            st = clients[0].state_at(seq)
            assert st["seq"] == seq
            if st["to_act"] is None:
                break
            c = clients[st["to_act"]]
            c.act(c.state_at(seq)["legal"][0]["text"], seq)
            seq += 1
        assert seq == 8 and st["outcome"] is not None
        for b in bots:
            w = srv2.ws(b)
            final = w.until(lambda m: m["type"] == "state" and m["outcome"] is not None, timeout=20)
            assert final["seq"] == 12
            w.close()
        rec = srv2.get(f"/api/tables/{tid}/record").json()
        assert [(a["seat"], a["action"]) for a in rec["actions"]][: len(acked)] == acked
        for c in clients.values():
            c.close()
    finally:
        srv2.stop()
