"""Hints and reviews over HTTP: only for the seat to act (its token), not at a table that
switched them off, fair (from the asking seat's knowledge only), and reviews of finished games
computed in the background, with progress, and cached."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_server_support import Server, server_on

from spillebord.ai.review import VERDICTS
from spillebord.core import Rng, registry
from spillebord.server.analysis import compute_hint, review_decision, review_positions
from spillebord.testing import OnlyWhatTheSeatSees, play_match
from toygame import TOY

registry.register(TOY)

SMALL = ["--hint-iterations", "120", "--review-iterations", "60", "--review-samples", "8"]
VERDICT_NAMES = {"forced", "best", "good"} | {name for _, name in VERDICTS}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with server_on("sqlite", tmp_path_factory.mktemp("analysis"), extra=SMALL) as s:
        yield s


def my_turn(srv: Server, table: str, token: str) -> dict[str, Any]:
    c = srv.ws(table, token)
    try:
        return c.until(lambda m: m["type"] == "state" and m["to_act"] == m["seat"], current=True)
    finally:
        c.close()


def finished(srv: Server, game: str, bots: list[str], **kw: Any) -> dict[str, Any]:
    t = srv.create(game=game, seats=len(bots), bots=bots, **kw)
    deadline = time.monotonic() + 60
    while srv.get(f"/api/tables/{t['table']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return t


# --------------------------------------------------------------------------- hints


def test_hint_gives_the_seat_to_act_three_actions_with_chances(srv: Server) -> None:
    t = srv.create(game="toy", seats=2, seed=7, name="Ann", bots=[None, "random"])
    assert srv.get(f"/api/tables/{t['table']}/hints").json()["hints"] is True
    st = my_turn(srv, t["table"], t["token"])
    r = srv.post(f"/api/tables/{t['table']}/hint", {"token": t["token"]})
    assert r.status_code == 200, r.text
    body = r.json()
    legal = {a["text"] for a in st["legal"]}
    assert body["seat"] == t["seat"] and body["seq"] == st["seq"]
    assert len(body["hints"]) == min(3, len(legal))
    assert all(h["action"] in legal and 0.0 <= h["chance"] <= 1.0 for h in body["hints"])
    assert len({h["action"] for h in body["hints"]}) == len(body["hints"])
    # Asked again at the same position: the same answer (kept, not thought about again).
    assert srv.post(f"/api/tables/{t['table']}/hint", {"token": t["token"]}).json() == body


def test_hint_is_refused_to_a_wrong_token_and_to_the_seat_not_to_act(srv: Server) -> None:
    t = srv.create(game="toy", seats=2, seed=7, name="Ann")
    j = srv.join(t["table"], name="Bob")
    r = srv.post(f"/api/tables/{t['table']}/hint", {"token": "not-a-token"})
    assert r.status_code == 403 and "no seat" in r.json()["detail"]
    assert srv.post(f"/api/tables/{t['table']}/hint", {}).status_code == 422
    c = srv.ws(t["table"], t["token"])
    st = c.until(lambda m: m["type"] == "state", current=True)
    c.close()
    waiting = j["token"] if st["to_act"] == t["seat"] else t["token"]
    r = srv.post(f"/api/tables/{t['table']}/hint", {"token": waiting})
    assert r.status_code == 409 and "not your turn" in r.json()["detail"]


def test_hint_is_refused_when_the_table_switched_hints_off(srv: Server) -> None:
    t = srv.create(game="toy", seats=2, seed=7, name="Ann", bots=[None, "random"], hints=False)
    assert srv.get(f"/api/tables/{t['table']}/hints").json()["hints"] is False
    my_turn(srv, t["table"], t["token"])
    r = srv.post(f"/api/tables/{t['table']}/hint", {"token": t["token"]})
    assert r.status_code == 403 and "switched off" in r.json()["detail"]


def test_hint_is_refused_once_the_game_is_over(srv: Server) -> None:
    t = srv.create(game="toy", seats=2, seed=7, name="Ann", bots=[None, "random"])
    c = srv.ws(t["table"], t["token"])
    st = c.until(lambda m: m["type"] == "state", current=True)
    while st["to_act"] is not None:
        if st["to_act"] == st["seat"]:
            c.act(st["legal"][0]["text"], st["seq"])
        st = c.until(lambda m, n=st["seq"]: m["type"] == "state" and m["seq"] > n)
    c.close()
    r = srv.post(f"/api/tables/{t['table']}/hint", {"token": t["token"]})
    assert r.status_code == 409


def test_a_hint_uses_only_the_asking_seat_s_knowledge() -> None:
    # Every state the seat cannot tell apart from the real one (the other hand resampled) gets
    # exactly the same hint: nothing hidden from the seat enters it. (The toy game's
    # determinize does not depend on where the unseen cards lie; see the next test for the others.)
    m = play_match(TOY, ["random", "random"], seed=11)
    state = TOY.new(2, 11, None)
    state.play(TOY.parse(state, m.actions[0][1]))
    seat = state.to_act
    assert seat is not None
    want = compute_hint(TOY, state, seat, 5, 120, 0.0)
    assert len(want) == 3
    for k in range(4):
        assert compute_hint(TOY, state.determinize(seat, Rng(100 + k)), seat, 5, 120, 0.0) == want


@pytest.mark.parametrize("game_id", ["kasino", "touche", "revir", "metscri", "88", "fuldrigger", "partners"])
def test_a_hint_reads_the_true_state_only_through_the_seat_s_determinizations(game_id: str) -> None:
    game = registry.get(game_id)
    seats = 4 if game_id == "partners" else 2
    m = play_match(game, ["random"] * seats, seed=11)
    state = game.new(seats, 11, None)
    for _, text in m.actions[:3]:
        state.play(game.parse(state, text))
    seat = state.to_act
    assert seat is not None
    guard = OnlyWhatTheSeatSees(state, seat)
    tips = compute_hint(game, guard, seat, 5, 30, 0.0)  # type: ignore[arg-type]
    assert 1 <= len(tips) <= 3 and guard.calls == {"legal", "determinize"}
    assert {t["action"] for t in tips} <= {str(a) for a in state.legal()}


def test_a_review_decision_uses_only_the_reviewed_seat_s_knowledge() -> None:
    m = play_match(TOY, ["random", "random"], seed=4)
    todo = review_positions(TOY, 2, 4, None, list(m.actions), 1)
    for index, state, played in todo:
        a = review_decision(TOY, index, state, played, 1, 60, 0.0, 8, 3)
        b = review_decision(TOY, index, state.determinize(1, Rng(index)), played, 1, 60, 0.0, 8, 3)
        assert a == b


# --------------------------------------------------------------------------- reviews


def test_review_of_a_finished_game_runs_with_progress_and_is_cached(srv: Server) -> None:
    t = finished(srv, "toy", ["random", "lowest"], seed=5)
    tid = t["table"]
    record = srv.get(f"/api/tables/{tid}/record").json()
    mine = [i for i, a in enumerate(record["actions"]) if a["seat"] == 1]
    assert srv.get(f"/api/tables/{tid}/review?seat=1").json()["status"] == "none"
    first = srv.post(f"/api/tables/{tid}/review", {"seat": 1}).json()
    assert first["status"] in ("running", "done")
    seen = [first]
    deadline = time.monotonic() + 60
    while seen[-1]["status"] == "running":
        assert time.monotonic() < deadline, seen[-1]
        time.sleep(0.05)
        seen.append(srv.get(f"/api/tables/{tid}/review?seat=1").json())
    done = seen[-1]
    assert done["status"] == "done", done
    assert done["done"] == done["total"] == len(mine)
    for r in seen[:-1]:
        assert r["total"] is None or 0 <= r["done"] <= r["total"]
    decisions = done["decisions"]
    assert [d["index"] for d in decisions] == mine
    for d in decisions:
        assert d["played"] == record["actions"][d["index"]]["action"]
        assert d["verdict"] in VERDICT_NAMES and d["loss"] >= 0
        assert d["played_json"] is not None and d["best_json"] is not None
    # From the cache now: at once, and the same.
    again = srv.post(f"/api/tables/{tid}/review", {"seat": 1}).json()
    assert again["status"] == "done" and again["decisions"] == decisions


def test_review_is_refused_while_the_game_runs_and_for_a_seat_not_at_the_table(srv: Server) -> None:
    t = srv.create(game="toy", seats=2, seed=7, name="Ann", bots=[None, "random"])
    r = srv.post(f"/api/tables/{t['table']}/review", {"seat": 0})
    assert r.status_code == 409 and "over" in r.json()["detail"]
    done = finished(srv, "toy", ["random", "random"], seed=6)
    assert srv.post(f"/api/tables/{done['table']}/review", {"seat": 5}).status_code == 400
    assert srv.get("/api/tables/nosuchtable/review?seat=0").status_code == 404


def test_one_hint_at_a_time_per_seat() -> None:
    # In process, with a hub whose thinking waits until the test lets it finish.
    import asyncio
    from types import SimpleNamespace

    from starlette.exceptions import HTTPException

    from spillebord.server import Config
    from spillebord.server.analysis import Analysis

    async def scenario() -> None:
        release = asyncio.Event()
        calls = []

        async def think(fn: Any, *args: Any) -> Any:
            calls.append(fn)
            await release.wait()
            return [{"action": "play 1", "chance": 0.5, "visits": 1}]

        async def seat_for_token(_lt: Any, token: str) -> int | None:
            return 0 if token == "t0" else None

        state = SimpleNamespace(copy=lambda: state)
        lt = SimpleNamespace(
            id="T", is_over=False, status="running", seq=4, game=TOY,
            table=SimpleNamespace(to_act=0, state=state), agent_of=lambda _s: None,
        )  # fmt: skip

        async def get(_tid: str) -> Any:
            return lt

        hub = SimpleNamespace(
            cfg=Config(), service=SimpleNamespace(get=get),
            presence=SimpleNamespace(seat_for_token=seat_for_token), bots=SimpleNamespace(think=think),
        )  # fmt: skip
        a = Analysis(hub)  # type: ignore[arg-type]
        first = asyncio.create_task(a.hint("T", "t0"))
        await asyncio.sleep(0.01)
        with pytest.raises(HTTPException) as e:
            await a.hint("T", "t0")
        assert e.value.status_code == 429 and (e.value.headers or {}).get("Retry-After")
        release.set()
        got = await first
        assert got["hints"][0]["action"] == "play 1" and got["seq"] == 4
        assert await a.hint("T", "t0") == got and len(calls) == 1  # the same position: kept
        lt.seq, lt.table.to_act = 5, 1
        with pytest.raises(HTTPException) as e:
            await a.hint("T", "t0")
        assert e.value.status_code == 409

    asyncio.run(scenario())
