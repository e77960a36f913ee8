"""The web table's additions to the API: the public log after a reload, each game's end summary,
rematch, the replay viewer's step view, recent games and the rules pages (SQLite server)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_server_support import Server, play_out, server_on

from spillebord.core import registry
from spillebord.tables import Table


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with server_on("sqlite", tmp_path_factory.mktemp("extras")) as s:
        yield s


def finished(srv: Server, game: str, seats: int, bots: list[str | None], **kw: Any) -> dict[str, Any]:
    t = srv.create(game=game, seats=seats, bots=bots, seed=3, **kw)
    deadline = time.monotonic() + 60
    while srv.get(f"/api/tables/{t['table']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    return t


def test_log_gives_every_action_with_its_public_events(srv: Server) -> None:
    t = finished(srv, "kasino", 2, ["random", "greedy"], options={"target": 5})
    log = srv.get(f"/api/tables/{t['table']}/log").json()
    record = srv.get(f"/api/tables/{t['table']}/record").json()
    assert [e["action"] for e in log] == [a["action"] for a in record["actions"]]
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    # The events are the engine's own: replaying the record gives the same.
    table = Table.from_record(record, upto=0)
    for entry, a in zip(log, record["actions"], strict=True):
        assert entry["events"] == table.act(None, a["action"])


def test_log_hides_another_seats_hidden_actions_while_the_game_runs(srv: Server) -> None:
    t = srv.create(game="toy", seats=2, seed=7, name="Ann", bots=[None, "random"])
    time.sleep(0.3)
    log = srv.get(f"/api/tables/{t['table']}/log").json()
    hist = srv.get(f"/api/tables/{t['table']}/history").json()
    assert [e["action"] for e in log] == [e["action"] for e in hist]


def test_summary_is_the_games_own_and_only_at_the_end(srv: Server) -> None:
    t = finished(srv, "fuldrigger", 2, ["random", "random"], options={"rounds_limit": 2})
    info = srv.get(f"/api/tables/{t['table']}").json()
    s = srv.get(f"/api/tables/{t['table']}/summary").json()["summary"]
    rows = {r["key"]: r["values"] for r in s["rows"]}
    assert s["total"] == "wealth" and rows["wealth"] == info["scores"]
    for i in range(2):
        parts = rows["cash"][i] + rows["ships"][i] + rows["fortresses"][i] + rows["goods"][i]
        assert parts == rows["wealth"][i]
    live = srv.create(game="kasino", seats=2, name="Ann", bots=[None, "random"])
    r = srv.get(f"/api/tables/{live['table']}/summary")
    assert r.status_code == 409 and "over" in r.json()["detail"]


def test_rematch_same_seats_new_table_new_seed(srv: Server) -> None:
    t = srv.create(game="toy", seats=2, seed=7, name="Ann")
    j = srv.join(t["table"], name="Bob")
    r = srv.post(f"/api/tables/{t['table']}/rematch", {"token": t["token"]})
    assert r.status_code == 409  # not over yet
    play_out(srv, t["table"], [t["token"], j["token"]])
    r1 = srv.post(f"/api/tables/{t['table']}/rematch", {"token": t["token"]}).json()
    r2 = srv.post(f"/api/tables/{t['table']}/rematch", {"token": j["token"]}).json()
    again = srv.post(f"/api/tables/{t['table']}/rematch", {"token": t["token"]}).json()
    assert r1["table"] == r2["table"] == again["table"] != t["table"]
    assert (r1["seat"], r2["seat"]) == (0, 1) and r1["token"] == again["token"] != r2["token"]
    new = srv.get(f"/api/tables/{r1['table']}").json()
    assert [p["name"] for p in new["players"]] == ["Ann", "Bob"] and new["status"] == "running"
    assert srv.get(f"/api/tables/{t['table']}/rematch").json()["table"] == r1["table"]
    bad = srv.post(f"/api/tables/{t['table']}/rematch", {"token": "nope"})
    assert bad.status_code == 400


def test_step_view_replays_a_finished_game_for_any_seat(srv: Server) -> None:
    t = finished(srv, "kasino", 2, ["random", "random"], options={"target": 5})
    record = srv.get(f"/api/tables/{t['table']}/record").json()
    n = len(record["actions"])
    for k in (0, 1, n // 2, n):
        for seat in (None, 0, 1):
            q = "" if seat is None else f"?seat={seat}"
            got = srv.get(f"/api/tables/{t['table']}/step/{k}{q}").json()
            assert got["steps"] == n and got["step"] == k
            assert got["view"] == Table.from_record(record, upto=k).view(seat)
    assert srv.get(f"/api/tables/{t['table']}/step/{n + 1}").status_code == 400


def test_step_view_of_a_running_game_is_a_spectators(srv: Server) -> None:
    t = srv.create(game="kasino", seats=2, name="Ann", bots=[None, "random"])
    assert srv.get(f"/api/tables/{t['table']}/step/0?seat=0").status_code == 409
    got = srv.get(f"/api/tables/{t['table']}/step/0").json()
    assert got["seat"] is None and got["view"]["hand"] is None


def test_recent_lists_finished_public_games(srv: Server) -> None:
    t = finished(srv, "kasino", 2, ["random", "random"], options={"target": 5})
    recent = srv.get("/api/recent").json()
    assert t["table"] in [x["table"] for x in recent]
    assert all(x["status"] == "over" for x in recent)


@pytest.mark.parametrize("game", ["kasino", "88", "fuldrigger"])
def test_rules_page_renders_the_shipped_rules(srv: Server, game: str) -> None:
    r = srv.get(f"/rules/{game}")
    assert r.status_code == 200 and "<h1>" in r.text and registry.get(game).title in r.text
    html = srv.get(f"/api/games/{game}/rules").json()["html"]
    assert "<script" not in html.lower()


def test_shipped_rules_are_the_docs() -> None:
    """The package's rules are docs/rules itself (a link: one text, never a stale copy)."""
    from spillebord.server.extras import RULES_DIR

    root = Path(__file__).resolve().parents[2]
    assert RULES_DIR.resolve() == (root / "docs" / "rules").resolve()
    for game in registry.all_games():
        if type(game).__module__.startswith("spillebord.games."):
            assert (RULES_DIR / f"{game.id}.md").is_file(), game.id


def test_texts_are_served_per_game(srv: Server) -> None:
    texts = srv.get("/api/games/kasino/texts").json()
    assert texts["events"]["trail"]["da"] == "{seat|p} udsmider {card|c}"
    assert srv.get("/api/games/toy/texts").json() == {}
