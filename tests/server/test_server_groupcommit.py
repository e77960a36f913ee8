"""Group commit (issue 20.4): the actions of many tables that arrive while the writer commits
(SQLite) or while the batch before is stored (PostgreSQL) are stored together, in one
transaction; a refused one (its number taken) refuses only itself."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from spillebord.server.actionlog import StoreLog
from spillebord.store import (
    NOTIFY_CHANNEL,
    AsyncPgAppender,
    NewAction,
    SeatRec,
    SeqConflict,
    Store,
    TableRec,
    libpq_url,
    resolve_url,
)

sys.path.insert(0, str(Path(__file__).parent))
from test_server_support import pg_database


def tables(store: Store, n: int) -> list[str]:
    store.create_all()
    ids = [f"t{i}" for i in range(n)]
    for tid in ids:
        rec = TableRec(tid, "kasino", 2, 1, {}, True, "running", 0.0, 0.0)
        rec.seat_recs = [SeatRec(0, "Ann"), SeatRec(1, None, "random")]
        store.create_table(rec)
    return ids


def act(tid: str, seq: int) -> NewAction:
    return NewAction(table_id=tid, seq=seq, seat=seq % 2, action=f"a{seq}", status="running", time=1.0)


def test_a_batch_is_stored_whole_and_a_conflict_refuses_only_itself(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        a, b, c = tables(store, 3)
        assert store.append_actions([act(a, 0), act(b, 0), act(c, 0)]) == [None, None, None]
        out = store.append_actions([act(a, 1), act(b, 0), act(c, 1)])
        assert out[0] is None and isinstance(out[1], SeqConflict) and out[2] is None
        assert [r.seq for r in store.actions_since(a, 0)] == [0, 1]
        assert [r.action for r in store.actions_since(b, 0)] == ["a0"]
        assert [r.seq for r in store.actions_since(c, 0)] == [0, 1]
        assert store.load_table(c).n_actions == 2  # type: ignore[union-attr]
    finally:
        store.dispose()


def test_concurrent_appends_share_commits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    ids = tables(store, 50)
    batches: list[int] = []
    real = store.append_actions

    def counting(actions: list[NewAction]) -> list[SeqConflict | None]:
        batches.append(len(actions))
        return real(actions)

    monkeypatch.setattr(store, "append_actions", counting)

    async def body() -> None:
        log = StoreLog(store)
        await log.start()
        try:
            for seq in range(3):
                await asyncio.gather(*(log.append(act(t, seq)) for t in ids))
            with pytest.raises(SeqConflict):
                await log.append(act(ids[0], 1))
            for t in ids:
                assert [r.seq for r in await log.read(t)] == [0, 1, 2]
        finally:
            await log.close()

    try:
        asyncio.run(body())
    finally:
        store.dispose()
    assert sum(batches) == 3 * 50 + 1
    assert len(batches) < 3 * 50 / 2  # together, not one commit each


@pytest.mark.postgres
def test_postgresql_batch_stores_once_and_sends_one_notice_list_per_group() -> None:
    """PostgreSQL (AsyncPgAppender): the actions waiting together go in one statement; a taken
    number refuses only its action; the stored ones' notices come as JSON lists (one
    notification per group that fits PostgreSQL's payload limit), and a refused action's
    notice is not sent."""
    import psycopg

    with pg_database() as raw_url:
        url, _ = resolve_url(raw_url)
        store = Store(url)
        ids = tables(store, 60)

        def note(tid: str, seq: int) -> dict[str, object]:
            # ~60 need 3 groups; "æ" is 2 bytes in UTF-8 (the payload limit is in bytes)
            return {"k": "a", "t": tid, "w": "me", "s": seq, "pad": "æ" * 150}

        async def body() -> list[str]:
            heard: list[str] = []
            listener = await psycopg.AsyncConnection.connect(libpq_url(url), autocommit=True)
            await listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
            app = AsyncPgAppender(url)
            await app.start()
            try:
                await asyncio.gather(*(app.append(act(t, 0), note(t, 0)) for t in ids))
                results = await asyncio.gather(
                    app.append(act(ids[0], 1), note(ids[0], 1)),
                    app.append(act(ids[1], 0), note(ids[1], 0)),  # taken
                    app.append(act(ids[2], 1), None),  # nobody to tell
                    app.append(NewAction(ids[3], 1, 1, 'tag ♥10 "på" 7\\æ', "over", 2.5, (1.0, 0.0)), None),
                    return_exceptions=True,
                )
                assert results[0] is None and isinstance(results[1], SeqConflict)
                assert results[2] is None and results[3] is None
                gen = listener.notifies(timeout=2.0)
                async for n in gen:
                    heard.append(n.payload)
            finally:
                await app.close()
                await listener.close()
            return heard

        try:
            heard = asyncio.run(body())
            assert [r.seq for r in store.actions_since(ids[0], 0)] == [0, 1]
            assert [r.action for r in store.actions_since(ids[1], 0)] == ["a0"]
            assert store.load_table(ids[2]).n_actions == 2  # type: ignore[union-attr]
            assert store.actions_since(ids[3], 1)[0].action == 'tag ♥10 "på" 7\\æ'  # as sent
            rec = store.load_table(ids[3])
            assert rec is not None and rec.status == "over" and rec.outcome == [1.0, 0.0]
        finally:
            store.dispose()
    assert all(len(p.encode()) < 8000 for p in heard)
    notices = [n for p in heard for n in json.loads(p)]
    got = sorted((n["t"], n["s"]) for n in notices)
    assert got == sorted([(t, 0) for t in ids] + [(ids[0], 1)])  # each stored one once, no refused one
    assert len(heard) < 60  # together, not one notification each


@pytest.mark.postgres
def test_postgresql_appender_stores_what_waits_at_close_and_outlives_a_failed_batch() -> None:
    """A batch that cannot be stored fails its own actions only: the connection's worker goes
    on with the next batch. ``close`` stores every action already handed over before it
    closes the connection."""
    with pg_database() as raw_url:
        url, _ = resolve_url(raw_url)
        store = Store(url)
        ids = tables(store, 40)

        async def body() -> list[BaseException | None]:
            app = AsyncPgAppender(url)
            await app.start()
            try:
                with pytest.raises(TypeError):  # a notice orjson refuses (an int beyond 64 bits)
                    await app.append(act(ids[0], 0), {"k": "a", "n": 2**70})
                await app.append(act(ids[0], 0), None)  # the worker is still there
                waiting = [asyncio.ensure_future(app.append(act(t, 0), None)) for t in ids[1:]]
                await asyncio.sleep(0)  # handed over, not stored yet
            finally:
                await app.close()
            return list(await asyncio.gather(*waiting, return_exceptions=True))

        try:
            assert asyncio.run(body()) == [None] * 39
            assert all(store.load_table(t).n_actions == 1 for t in ids)  # type: ignore[union-attr]
        finally:
            store.dispose()
