"""More than one worker on PostgreSQL: two server processes on one database serve the same
tables; an action through one reaches the clients of the other (LISTEN/NOTIFY), and two
concurrent submissions of the same turn through both apply exactly once. Also ``--workers 2``."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_server_support import PG, Client, Server, pg_database

pytestmark = [pytest.mark.postgres, pytest.mark.skipif(not PG, reason="needs SPILLEBORD_TEST_PG")]


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    tmp = tmp_path_factory.mktemp("pg")
    with pg_database() as url:
        one = Server(url, tmp / "one.log").start()
        two = Server(url, tmp / "two.log").start()
        try:
            yield one, two
        finally:
            one.stop()
            two.stop()


def test_two_workers_see_each_others_actions(pair: tuple[Server, Server]) -> None:
    one, two = pair
    t = one.create(game="toy", seats=2, options={"hand_size": 4}, seed=5, name="Ann")
    tid = t["table"]
    assert tid in {x["table"] for x in two.get("/api/tables").json()}
    j = two.join(tid, name="Bob")  # joined through the other worker
    a, b = one.ws(tid, t["token"]), two.ws(tid, j["token"])
    spec = two.ws(tid)
    clients = {0: a, 1: b}
    seq = 0
    while True:
        st = a.state_at(seq)
        assert b.state_at(seq)["seq"] == seq and spec.state_at(seq)["seq"] == seq
        if st["to_act"] is None:
            break
        c = clients[st["to_act"]]
        # (the join through the other worker may reach this one a moment later)
        ready = c.until(
            lambda m, n=seq: m["type"] == "state" and m["seq"] == n and m["legal"], 10, current=True
        )
        c.act(ready["legal"][0]["text"], seq)
        seq += 1
    assert seq == 8 and b.state["outcome"] == a.state["outcome"] is not None  # type: ignore[index]
    assert len(one.get(f"/api/tables/{tid}/history").json()) == 8
    assert two.get(f"/api/tables/{tid}").json()["status"] == "over"
    for c in [a, b, spec]:
        c.close()


def test_concurrent_submissions_through_two_workers_apply_once(pair: tuple[Server, Server]) -> None:
    one, two = pair
    for round_ in range(3):
        t = one.create(game="toy", seats=2, seed=100 + round_)
        tid = t["table"]
        one.join(tid, name="Bob")
        c1, c2 = one.ws(tid, t["token"]), two.ws(tid, t["token"])
        legal = [x["text"] for x in c1.state_at(0)["legal"]]
        c2.state_at(0)
        barrier = threading.Barrier(2)

        def send(c: Client, action: str, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            c.act(action, 0)

        th = [threading.Thread(target=send, args=(c, legal[i % len(legal)])) for i, c in enumerate([c1, c2])]
        for x in th:
            x.start()
        for x in th:
            x.join()
        s1, s2 = c1.state_at(1), c2.state_at(1)
        assert s1["seq"] == s2["seq"] == 1
        assert s1["view"] == s2["view"]
        time.sleep(0.3)
        c1.quiet(0.1)
        c2.quiet(0.1)
        errors = [m for c in (c1, c2) for m in c.messages if m["type"] == "error"]
        assert len(errors) == 1 and "stale" in errors[0]["message"]
        assert len(two.get(f"/api/tables/{tid}/history").json()) == 1
        c1.close()
        c2.close()


def test_bots_driven_by_one_worker_are_seen_on_the_other(pair: tuple[Server, Server]) -> None:
    one, two = pair
    t = one.create(game="toy", seats=3, options={"hand_size": 4}, bots=["random", "greedy", "random"])
    w = two.ws(t["table"])
    final = w.until(lambda m: m["type"] == "state" and m["outcome"] is not None, timeout=20)
    assert final["seq"] == 12
    w.close()


def test_uvicorn_workers_2(tmp_path: Path) -> None:
    """``--workers 2``: uvicorn's processes built by the factory from the environment."""
    with pg_database() as url:
        srv = Server(url, tmp_path / "w.log")
        srv.args += ["--workers", "2"]
        srv.start(timeout=120)
        try:
            seen = set()
            for _ in range(3):
                t = srv.create(game="toy", seats=2, options={"hand_size": 4}, bots=["random", "greedy"])
                w = srv.ws(t["table"])
                final = w.until(lambda m: m["type"] == "state" and m["outcome"] is not None, timeout=20)
                assert final["seq"] == 8
                seen.add(t["table"])
                w.close()
            listed = srv.get("/api/tables").json()
            assert not seen & {x["table"] for x in listed}  # finished tables are not listed
            assert "Workers: 2" in srv.output()
        finally:
            srv.stop()
