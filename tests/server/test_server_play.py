"""Lobby endpoints and live play over websockets, on a real server (SQLite, and PostgreSQL
when SPILLEBORD_TEST_PG is set)."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_server_support import Client, Server, db_params, server_on, start_server


@pytest.fixture(scope="module", params=db_params())
def srv(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with server_on(request.param, tmp_path_factory.mktemp("srv")) as s:
        yield s


def two_humans(srv: Server, hand_size: int = 3) -> tuple[str, Client, Client]:
    t = srv.create(game="toy", seats=2, options={"hand_size": hand_size}, seed=7, name="Ann")
    j = srv.join(t["table"], name="Bob")
    assert (t["seat"], j["seat"]) == (0, 1)
    a, b = srv.ws(t["table"], t["token"]), srv.ws(t["table"], j["token"])
    return t["table"], a, b


def mover(clients: list[Client], seq: int) -> Client:
    """The client whose seat is to act at ``seq``."""
    states = [c.state_at(seq) for c in clients]
    to_act = states[0]["to_act"]
    return next(c for c, s in zip(clients, states, strict=True) if s["seat"] == to_act)


# --------------------------------------------------------------------------- lobby


def test_lobby_games_and_health(srv: Server) -> None:
    assert srv.get("/healthz").json() == {"ok": True}
    games = {g["id"]: g for g in srv.get("/api/games").json()}
    toy = games["toy"]
    assert toy["seats"] == [2, 3] and toy["title"] == "Toy"
    assert toy["options"][0]["name"] == "hand_size"
    assert {"random", "greedy"} <= set(toy["bots"])
    assert set(toy) >= {"id", "title", "summary", "seats", "languages", "options", "quick_options", "bots"}
    paths = srv.get("/openapi.json").json()["paths"]
    assert {
        "/api/games",
        "/api/tables",
        "/api/tables/{table_id}/join",
        "/api/tables/{table_id}/record",
        "/api/tables/{table_id}/history",
        "/healthz",
        "/api/games/{game_id}/board",
    } <= set(paths)


def test_the_lobby_says_what_each_level_plays(srv: Server) -> None:
    # The web lobby's line under the seats reads this: at Metscri the Club player and the
    # Expert are other bots (the planner and the gatherer), elsewhere the Expert searches.
    games = {g["id"]: g for g in srv.get("/api/games").json()}
    plays = {g: [(x["agent"], x["plays"], x["iterations"]) for x in games[g]["levels"]] for g in games}
    assert plays["metscri"] == [
        ("level1", "softmax", 0),
        ("level2", "planner", 0),
        ("level3", "planner", 0),
        ("level4", "gatherer", 0),
        ("level5", "search", 100),
    ]
    assert plays["kasino"][2:] == [
        ("level3", "greedy", 0),
        ("level4", "search", 450),
        ("level5", "search", 1800),
    ]
    assert all(len(p) == 5 for p in plays.values())


def test_board_data_is_served_per_game(srv: Server) -> None:
    assert srv.get("/api/games/toy/board").json() == {}
    board = srv.get("/api/games/fuldrigger/board").json()
    assert len(board["ports"]) == 22 and board["reefs"]["TW6"] == "A"
    r = srv.get("/api/games/nosuchgame/board")
    assert r.status_code == 404 and "nosuchgame" in r.json()["detail"]


def test_lobby_create_errors(srv: Server) -> None:
    r = srv.post("/api/tables", {"game": "nosuchgame"})
    assert r.status_code == 404 and "nosuchgame" in r.json()["detail"]
    r = srv.post("/api/tables", {"game": "toy", "options": {"hand_size": 9}})
    assert r.status_code == 400 and "hand_size" in r.json()["detail"]
    r = srv.post("/api/tables", {"game": "toy", "options": {"colour": "red"}})
    assert r.status_code == 400 and "colour" in r.json()["detail"]
    r = srv.post("/api/tables", {"game": "toy", "seats": 7})
    assert r.status_code == 400 and "7" in r.json()["detail"]
    r = srv.post("/api/tables", {"game": "toy", "seats": 2, "bots": [None, "grandmaster"]})
    assert r.status_code == 400 and "grandmaster" in r.json()["detail"]
    r = srv.post("/api/tables", {"game": "toy", "seats": 2, "bots": [None]})
    assert r.status_code == 400 and "one entry per seat" in r.json()["detail"]
    r = srv.post("/api/tables", {"gam": "toy"})
    assert r.status_code == 422 and isinstance(r.json()["detail"], str)
    assert srv.get("/api/tables/nope").status_code == 404
    assert srv.post("/api/tables/nope/join", {"name": "x"}).status_code == 404


def test_lobby_list_join_and_seats(srv: Server) -> None:
    t = srv.create(game="toy", seats=3, bots=[None, None, "random"], name="Ann")
    tid = t["table"]
    assert t["seat"] == 0 and t["token"]
    info = srv.get(f"/api/tables/{tid}").json()
    assert info["status"] == "open" and info["free_seats"] == [1] and info["game"] == "toy"
    assert info["players"][0]["name"] == "Ann" and info["players"][2]["bot"] == "random"
    listed = {x["table"]: x for x in srv.get("/api/tables").json()}
    assert listed[tid]["status"] == "open"
    r = srv.post(f"/api/tables/{tid}/join", {"seat": 0, "name": "Eve"})
    assert r.status_code == 409
    r = srv.post(f"/api/tables/{tid}/join", {"seat": 2, "name": "Eve"})
    assert r.status_code == 409
    j = srv.join(tid, name="Bob")
    assert j["seat"] == 1 and j["token"] != t["token"]
    assert srv.post(f"/api/tables/{tid}/join", {"name": "Eve"}).status_code == 409
    assert srv.get(f"/api/tables/{tid}").json()["status"] == "running"
    # Private tables are not listed but can be opened by id.
    p = srv.create(game="toy", seats=2, public=False)
    assert p["table"] not in {x["table"] for x in srv.get("/api/tables").json()}
    assert srv.get(f"/api/tables/{p['table']}").status_code == 200
    # No record while the game runs (the seed would give the hands away).
    assert srv.get(f"/api/tables/{tid}/record").status_code == 409
    assert srv.get(f"/api/tables/{tid}/history").json() == []


# --------------------------------------------------------------------------- play


def test_full_game_over_websockets(srv: Server) -> None:
    tid, a, b = two_humans(srv)
    spec = srv.ws(tid)
    clients = [a, b]
    seq = 0
    played: list[tuple[int, str]] = []
    while True:
        states = [c.state_at(seq) for c in clients]
        sp = spec.state_at(seq)
        assert all(s["seq"] == seq for s in states)
        if states[0]["to_act"] is None:
            break
        for s in states:
            assert s["type"] == "state" and s["game"] == "toy" and s["view"]["hand"] is not None
            if s["seat"] == s["to_act"]:
                assert s["legal"] and all(set(x) >= {"text", "label", "json"} for x in s["legal"])
            else:
                assert s["legal"] == []
        assert sp["seat"] is None and sp["legal"] == [] and sp["view"]["hand"] is None
        c = mover(clients, seq)
        action = c.state["legal"][-1]["text"]  # type: ignore[index]
        c.act(action, seq)
        played.append((c.state["seat"], action))  # type: ignore[index]
        seq += 1
        nxt = c.state_at(seq)
        assert nxt["last"] == {"seat": played[-1][0], "action": action}
        assert nxt["events"] and nxt["events"][0]["kind"] == "play"
    final = a.state
    assert final is not None and final["outcome"] is not None and len(final["outcome"]) == 2
    # The outcome is normalized (a win is 1, shares sum to 1 between two players); the scores
    # are the game's own numbers (tricks for the toy game: 3 in all).
    assert sum(final["outcome"]) == pytest.approx(1.0) and sum(final["scores"]) == 3
    assert final["truncated"] is False and final["status"] == "over"
    info = srv.get(f"/api/tables/{tid}").json()
    assert info["status"] == "over" and info["outcome"] == final["outcome"]
    assert info["scores"] == final["scores"] and info["truncated"] is False
    assert "result" not in final and "result" not in info
    rec = srv.get(f"/api/tables/{tid}/record").json()
    assert rec["format"] == "spillebord-record" and rec["seed"] == 7
    assert [(x["seat"], x["action"]) for x in rec["actions"]] == played
    hist = srv.get(f"/api/tables/{tid}/history").json()
    assert [(h["seq"], h["seat"], h["action"]) for h in hist] == [
        (i, s, t) for i, (s, t) in enumerate(played)
    ]
    assert all(isinstance(h["time"], float) for h in hist)
    assert tid not in {x["table"] for x in srv.get("/api/tables").json()}
    for c in [a, b, spec]:
        c.close()


def test_bad_messages_get_errors_and_change_nothing(srv: Server) -> None:
    tid, a, b = two_humans(srv)
    spec = srv.ws(tid)
    s0 = a.state_at(0)
    assert s0["to_act"] == 0
    bad: list[tuple[Any, str]] = [
        ("this is not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ({"type": "dance"}, "unknown message type"),
        ({"type": "act", "action": "play 1", "colour": "red"}, "unknown field"),
        ({"type": "act"}, "action"),
        ({"type": "act", "action": 5}, "action"),
        ({"type": "act", "action": "play 1", "seq": "zero"}, "seq"),
        ({"type": "act", "action": "x" * 20000}, "too large"),
        ({"type": "act", "action": "play 1"}, '"seq" is required'),
        ({"type": "act", "action": "play 99", "seq": 0}, "not a legal action"),
        ({"type": "act", "action": "fold", "seq": 0}, "not a legal action"),
        ({"type": "act", "action": s0["legal"][0]["text"], "seq": 3}, "stale"),
    ]
    for msg, expect in bad:
        a.send(msg)
        err = a.error()
        assert expect in err, (msg, err)
        assert "Traceback" not in err
    # Out of turn: seat 1 tries to act at seat 0's turn.
    b.state_at(0)
    b.act(b.state["legal"][0]["text"] if b.state["legal"] else "play 1", 0)  # type: ignore[index]
    assert "turn" in b.error()
    # A spectator never acts.
    spec.state_at(0)
    spec.act(s0["legal"][0]["text"], 0)
    assert "spectators cannot act" in spec.error()
    a.send({"type": "ping"})
    assert a.until(lambda m: m["type"] != "state")["type"] == "pong"
    # Nothing changed: still action 0, and the socket still works.
    assert srv.get(f"/api/tables/{tid}").json()["seq"] == 0
    assert srv.get(f"/api/tables/{tid}/history").json() == []
    a.act(s0["legal"][0]["text"], 0)
    assert a.state_at(1)["seq"] == 1
    for c in [a, b, spec]:
        c.close()


def test_out_of_turn_and_wrong_token_refused(srv: Server) -> None:
    tid, a, b = two_humans(srv)
    s = b.state_at(0)
    assert s["to_act"] == 0 and s["legal"] == []
    hand = s["view"]["hand"]
    b.act(f"play {hand[0]}", 0)
    assert "turn" in b.error()
    b.act(f"play {hand[1]}", 0)
    assert "turn" in b.error()
    # A made-up token holds no seat: the socket says so and closes.
    bad = srv.ws(tid, "not-a-token")
    assert "token" in bad.error()
    with pytest.raises(Exception):  # noqa: B017
        bad.recv(timeout=5)
    # A token of another table does not work here either.
    other = srv.create(game="toy", seats=2)
    bad = srv.ws(tid, other["token"])
    assert "token" in bad.error()
    assert srv.get(f"/api/tables/{tid}").json()["seq"] == 0
    for c in [a, b]:
        c.close()


def test_reconnect_with_token_resumes(srv: Server) -> None:
    t = srv.create(game="toy", seats=2, options={"hand_size": 4}, seed=3, name="Ann")
    j = srv.join(t["table"], name="Bob")
    tokens = {0: t["token"], 1: j["token"]}
    tid = t["table"]
    seq = 0
    for _ in range(3):
        clients = {s: srv.ws(tid, tok) for s, tok in tokens.items()}
        st = clients[0].state_at(seq)
        assert st["seq"] == seq
        hands = {s: c.state_at(seq)["view"]["hand"] for s, c in clients.items()}
        mover_seat = st["to_act"]
        c = clients[mover_seat]
        c.act(c.state["legal"][0]["text"], seq)  # type: ignore[index]
        seq += 1
        after = c.state_at(seq)
        assert len(after["view"]["hand"]) == len(hands[mover_seat]) - 1
        for cl in clients.values():
            cl.close()
    again = srv.ws(tid, tokens[1])
    s = again.state_at(seq)
    assert s["seq"] == seq and s["seat"] == 1
    again.close()


def test_two_concurrent_submissions_apply_once(srv: Server) -> None:
    t = srv.create(game="toy", seats=2, seed=11)
    j = srv.join(t["table"], name="Bob")
    tid = t["table"]
    # Two sockets of the same seat send the same turn at the same moment, many times over.
    c1, c2 = srv.ws(tid, t["token"]), srv.ws(tid, t["token"])
    other = srv.ws(tid, j["token"])
    s = c1.state_at(0)
    legal = [x["text"] for x in s["legal"]]
    barrier = threading.Barrier(2)

    def send(c: Client, action: str) -> None:
        barrier.wait()
        c.act(action, 0)

    th = [threading.Thread(target=send, args=(c, legal[i % len(legal)])) for i, c in enumerate([c1, c2])]
    for x in th:
        x.start()
    for x in th:
        x.join()
    c1.state_at(1)
    c2.state_at(1)
    time.sleep(0.3)
    c1.quiet(0.2)
    c2.quiet(0.2)
    errors = [m for c in (c1, c2) for m in c.messages if m["type"] == "error"]
    hist = srv.get(f"/api/tables/{tid}/history").json()
    assert len(hist) == 1 and hist[0]["seq"] == 0
    assert len(errors) == 1 and "stale" in errors[0]["message"]
    assert other.state_at(1)["seq"] == 1
    for c in [c1, c2, other]:
        c.close()


def test_bots_play_against_a_human(srv: Server) -> None:
    t = srv.create(game="toy", seats=3, bots=[None, "greedy", "random"], seed=5, name="Ann")
    c = srv.ws(t["table"], t["token"])
    while True:
        s = c.until(lambda m: m["type"] == "state" and (m["to_act"] in (0, None)), timeout=20)
        if s["to_act"] is None:
            break
        c.act(s["legal"][0]["text"], s["seq"])
    assert s["outcome"] is not None and len(s["outcome"]) == len(s["scores"]) == 3
    seats = [h["seat"] for h in srv.get(f"/api/tables/{t['table']}/history").json()]
    assert {1, 2} <= set(seats)
    c.close()


def test_a_level_named_by_what_it_is_called_is_seated_as_its_agent(srv: Server) -> None:
    # {"bots": [null, "club"]} is level 3: the table names the agent, which every client
    # shows in its reader's language ("Club", "Klubspiller").
    t = srv.create(game="toy", seats=2, bots=[None, "Club"], seed=5, name="Ann")
    info = srv.get(f"/api/tables/{t['table']}").json()
    assert info["players"][1]["bot"] == "level3"


def test_all_bot_table_plays_itself(srv: Server) -> None:
    t = srv.create(game="toy", seats=2, bots=["random", "greedy"])
    assert t["seat"] is None and t["token"] is None
    spec = srv.ws(t["table"])
    s = spec.until(lambda m: m["type"] == "state" and m["outcome"] is not None, timeout=20)
    assert s["to_act"] is None and s["seq"] == 6
    spec.close()


def test_abandoned_seat_is_taken_over_and_given_back(tmp_path: Path) -> None:
    with server_on("sqlite", tmp_path, takeover_after=1.0) as srv:
        t = srv.create(game="toy", seats=2, options={"hand_size": 4}, seed=1, name="Ann")
        j = srv.join(t["table"], name="Bob")
        tid = t["table"]
        a, b = srv.ws(tid, t["token"]), srv.ws(tid, j["token"])
        s = a.state_at(0)
        assert s["to_act"] == 0
        a.close()  # Ann leaves at her turn; a bot plays for her after about a second
        b.until(lambda m: m["type"] == "state" and m["players"][0]["takeover"], timeout=10)
        st = b.until(lambda m: m["type"] == "state" and m["seq"] >= 1 and m["to_act"] == 1, timeout=10)
        assert st["players"][0]["bot"] is not None
        b.act(st["legal"][0]["text"], st["seq"])
        # Ann comes back: her seat is hers again.
        a = srv.ws(tid, t["token"])
        back = a.until(lambda m: m["type"] == "state" and not m["players"][0]["takeover"], timeout=10)
        assert back["players"][0]["bot"] is None
        b.close()
        a.close()


def test_tables_of_another_engine_version_after_a_restart(tmp_path: Path) -> None:
    """A restart on a database whose tables were played on another engine version of their
    game: the server starts, lists them as unavailable (finished ones keep their result and
    record), says why to a client instead of replaying them, and changes nothing stored."""
    import sqlite3

    db = tmp_path / "tables.sqlite3"
    srv = start_server(str(db), tmp_path)
    try:
        tid, a, b = two_humans(srv)
        for seq in range(2):
            c = mover([a, b], seq)
            c.act(c.state["legal"][0]["text"], seq)  # type: ignore[index]
            c.state_at(seq + 1)
        done = srv.create(game="toy", seats=2, bots=["random", "greedy"], seed=3)["table"]
        w = srv.ws(done)
        final = w.until(lambda m: m["type"] == "state" and m["outcome"] is not None, timeout=20)
        for c in [a, b, w]:
            c.close()
    finally:
        srv.stop()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE sb_tables SET engine = engine + 1")
    conn.close()
    srv = start_server(str(db), tmp_path)
    try:
        info = srv.get(f"/api/tables/{tid}").json()
        assert info["status"] == "unavailable" and "engine version 2" in info["note"] and info["seq"] == 2
        listed = {x["table"]: x for x in srv.get("/api/tables").json()}
        assert listed[tid]["status"] == "unavailable"
        ws = srv.ws(tid)
        assert "engine version 2" in ws.error()
        with pytest.raises(Exception):  # noqa: B017
            ws.recv(timeout=5)  # and the socket is closed
        r = srv.post(f"/api/tables/{tid}/join", {"name": "Eve"})
        assert r.status_code == 409 and "engine version" in r.json()["detail"]
        assert srv.get(f"/api/tables/{tid}/record").status_code == 409
        assert len(srv.get(f"/api/tables/{tid}/history").json()) == 2
        over = srv.get(f"/api/tables/{done}").json()
        assert over["status"] == "over" and over["outcome"] == final["outcome"] and over["note"]
        rec = srv.get(f"/api/tables/{done}/record").json()
        assert rec["engine"] == 2 and rec["outcome"] == final["outcome"] and len(rec["actions"]) == 6
        assert "Traceback" not in srv.output()
    finally:
        srv.stop()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT n_actions, status FROM sb_tables WHERE id = ?", (tid,)).fetchone() == (
            2,
            "running",
        )
    conn.close()
