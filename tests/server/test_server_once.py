"""Exactly once: every act carries the seq it was made on, so a retry or a race of two sockets
of one seat applies once (the retry is acknowledged with the state, not refused); and one
SQLite file is served by one server process."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from test_server_support import Server, free_port
from test_service import STORAGES, Storages, connect, drain, run, running, two_people

from spillebord.server.api import handle_message
from spillebord.store import StoreError, hold_sqlite, release_sqlite


@pytest.fixture(params=STORAGES)
def storages(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storages]:
    with ExitStack() as stack:
        yield Storages(request.param, tmp_path, stack)


def test_a_retried_act_is_acknowledged_not_applied_twice(storages: Storages) -> None:
    async def body() -> None:
        storage = storages.again()
        async with running(storage) as hub:
            tid, _ = await two_people(hub)
            lt = await hub.service.get(tid)
            a, a2 = await connect(hub, lt, 0), await connect(hub, lt, 0)
            text = lt.table.legal_texts()[0]
            act = json.dumps({"type": "act", "action": text, "seq": 0})
            # Two sockets of seat 0 send the same act at once, then one retries it.
            replies = await asyncio.gather(
                handle_message(hub, lt, a, act),
                handle_message(hub, lt, a2, act),
                handle_message(hub, lt, a, act),
            )
            assert replies == [None, None, None]  # no error: the duplicates are acknowledged
            assert len(await storage.read(tid)) == 1 and lt.seq == 1
            states = [m for m in drain(a) + drain(a2) if m["type"] == "state"]
            assert states and all(m["seq"] == 1 for m in states if m is states[-1])
            # Another action on an old seq is still stale (it is not a retry).
            other = json.dumps({"type": "act", "action": "play 99", "seq": 0})
            reply = await handle_message(hub, lt, a, other)
            assert reply is not None and "stale" in reply

    run(body())


def test_one_sqlite_file_one_server(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    hold_sqlite(str(db))
    try:
        # A second server process on the same file is refused, in one line, before it serves.
        port = free_port()
        p = subprocess.run(
            [sys.executable, "-m", "spillebord.server", "--db", str(db), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert p.returncode != 0
        assert "another Spillebord server" in p.stderr and "serves one server process" in p.stderr
        assert "Traceback" not in p.stderr
    finally:
        release_sqlite(str(db))
    # Released: a server starts on it.
    srv = Server(str(db), tmp_path / "s.log").start()
    try:
        with pytest.raises(StoreError, match=r"another Spillebord server \(pid \d+\)"):
            _second_holder(db)
    finally:
        srv.stop()


def _second_holder(db: Path) -> None:
    """Try to claim ``db`` from a fresh process (this one may already hold it)."""
    code = (
        "import sys\nfrom spillebord.store import hold_sqlite, StoreError\n"
        f"try:\n    hold_sqlite({str(db)!r})\nexcept StoreError as e:\n    print(e); sys.exit(3)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    if p.returncode == 3:
        raise StoreError(p.stdout.strip())
