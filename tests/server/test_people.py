"""Accounts, sessions, "my tables", ratings and chat: the people service in process on a
real SQLite file and on PostgreSQL (SPILLEBORD_TEST_PG), with a fake clock."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import event, select

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from test_server_support import pg_database
from test_timecontrol import server

from spillebord.server.clock import FakeClock
from spillebord.server.errors import BadRequest, Conflict
from spillebord.server.hub import Hub
from spillebord.server.people import CHAT_MAX, Forbidden, People, TooMany, Unauthorized
from spillebord.server.presence import Conn
from spillebord.store.people import T_ACCOUNTS, T_SESSIONS, T_SETTINGS

T = TypeVar("T")


@pytest.fixture(params=["sqlite", pytest.param("pg", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tables.sqlite3'}"
        return
    with pg_database() as url:
        yield url.replace("postgresql://", "postgresql+psycopg://", 1)


def run(body: Callable[[Hub, People, FakeClock], Coroutine[Any, Any, T]], url: str) -> T:
    async def main() -> T:
        clock = FakeClock()
        async with server(url, clock) as (hub, people):
            return await body(hub, people, clock)

    return asyncio.run(main())


def rows(people: People, table: Any) -> list[Any]:
    with people.db._begin() as c:
        return list(c.execute(select(table)))


async def play_out(hub: Hub, tid: str, pick: Callable[[int, list[str]], str] | None = None) -> None:
    """Play the table to its end, each seat choosing with ``pick`` (default: its first legal)."""
    lt = await hub.service.get(tid)
    while not lt.is_over:
        seat = lt.table.to_act
        assert seat is not None
        legal = [str(a) for a in lt.table.state.legal()]
        await hub.service.submit(lt, seat, pick(seat, legal) if pick else legal[0])


# --------------------------------------------------------------------------- accounts


def test_register_stores_an_argon2id_hash_and_a_hashed_session(db_url: str) -> None:
    async def body(hub: Hub, people: People, clock: FakeClock) -> None:
        acc, token = await people.register("Ann Lee", "correct horse", "10.0.0.1")
        (row,) = rows(people, T_ACCOUNTS)
        assert row.name == "Ann Lee" and row.pw_hash.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
        assert "correct horse" not in row.pw_hash
        (sess,) = rows(people, T_SESSIONS)
        assert sess.token_hash == hashlib.sha256(token.encode()).hexdigest() != token
        assert len(token) >= 43  # 32 random bytes
        assert (await people.account(token)) == acc
        with pytest.raises(Conflict, match="taken"):
            await people.register("ann lee", "another one", "10.0.0.2")  # names ignore case
        with pytest.raises(BadRequest, match="8 to 1024"):
            await people.register("Bob", "short", "10.0.0.1")
        with pytest.raises(BadRequest, match="a name has"):
            await people.register("<script>", "long enough", "10.0.0.1")
        # A session ends after 30 days.
        clock.advance(30 * 86400 + 1)
        assert await people.account(token) is None

    run(body, db_url)


def test_login_logout_and_logout_everywhere(db_url: str) -> None:
    async def body(hub: Hub, people: People, clock: FakeClock) -> None:
        await people.register("Ann", "correct horse", "10.0.0.1")
        _, laptop = await people.login("ANN", "correct horse", "10.0.0.1")
        _, phone = await people.login("Ann", "correct horse", "10.0.0.9")
        with pytest.raises(Unauthorized, match="wrong name or password"):
            await people.login("Ann", "wrong horse", "10.0.0.1")
        with pytest.raises(Unauthorized, match="wrong name or password"):
            await people.login("Nobody", "correct horse", "10.0.0.1")
        assert await people.logout(laptop) == 1
        assert await people.account(laptop) is None and await people.account(phone) is not None
        _, laptop = await people.login("Ann", "correct horse", "10.0.0.1")
        assert await people.logout(phone, everywhere=True) == 3  # the first, the laptop, the phone
        assert await people.account(laptop) is None and await people.account(phone) is None

    run(body, db_url)


def test_login_is_limited_per_name_and_per_address(db_url: str) -> None:
    async def body(hub: Hub, people: People, clock: FakeClock) -> None:
        await people.register("Ann", "correct horse", "10.0.0.1")
        for _ in range(5):
            with pytest.raises(Unauthorized):
                await people.login("Ann", "guess", "10.0.0.66")
        # The name is locked, even with the right password, even from another address.
        with pytest.raises(TooMany, match="try again in 15 minutes"):
            await people.login("ann", "correct horse", "10.0.0.1")
        clock.advance(15 * 60)
        await people.login("Ann", "correct horse", "10.0.0.1")
        # One address trying many names: locked after 20 failures.
        for i in range(20):
            with pytest.raises(Unauthorized):
                await people.login(f"name{i}", "guess", "10.0.0.77")
        with pytest.raises(TooMany):
            await people.login("Ann", "correct horse", "10.0.0.77")
        await people.login("Ann", "correct horse", "10.0.0.1")  # other addresses are not

    run(body, db_url)


# --------------------------------------------------------------------------- my tables


def test_my_tables_put_my_turn_first_and_finished_games_last_with_their_record(db_url: str) -> None:
    async def body(hub: Hub, people: People, clock: FakeClock) -> None:
        acc, session = await people.register("Ann", "correct horse", "10.0.0.1")
        made = []
        for _ in range(3):
            extras = people.extras("toy", {}, None, None, True, "players")
            tid, seat, token = await hub.lobby.create(
                "toy", 2, {}, None, True, None, "Ann", settings=extras.settings
            )
            await people.created(tid, seat, token, extras, session)
            s1, t1 = await hub.lobby.join(tid, None, "Bob")
            await people.joined(tid, s1, t1, None)  # Bob has no account
            made.append((tid, token))
            clock.advance(1)
        mine = await people.my_tables(acc)
        assert {m["table"] for m in mine} == {t for t, _ in made}
        assert all(
            m["seat"] == 0 and m["token"] == tok
            for m, (_, tok) in zip(sorted(mine, key=lambda m: m["table"]), sorted(made), strict=True)
        )
        # Finish the first table; make it Bob's turn at the second.
        await play_out(hub, made[0][0])
        lt1 = await hub.service.get(made[1][0])
        if lt1.table.to_act == 0:
            await hub.service.submit(lt1, 0, str(lt1.table.state.legal()[0]))
        mine = await people.my_tables(acc)
        kinds = [(m["table"], m["your_turn"], m["status"]) for m in mine]
        assert kinds[-1] == (made[0][0], False, "over")
        assert mine[-1]["record"] == f"/api/tables/{made[0][0]}/record" and mine[-1]["outcome"] is not None
        your = [m["your_turn"] for m in mine]
        assert your == sorted(your, reverse=True)  # my turn first
        assert (made[1][0], False, "running") in kinds

    run(body, db_url)


def test_a_tables_settings_leave_memory_with_the_table_and_come_back_from_the_store(db_url: str) -> None:
    """A long-running server keeps each table's settings only while it holds the table."""

    async def body(hub: Hub, people: People, clock: FakeClock) -> None:
        extras = people.extras("toy", {}, None, None, True, "seated")
        tid, seat, token = await hub.lobby.create(
            "toy", 2, {}, None, True, None, "Ann", settings=extras.settings
        )
        await people.created(tid, seat, token, extras, None)
        s1, t1 = await hub.lobby.join(tid, None, "Bob")
        await people.joined(tid, s1, t1, None)
        await play_out(hub, tid)
        assert tid in people.settings
        clock.advance(hub.cfg.evict_after + 1)
        hub.maintenance.evict()
        assert tid not in hub.service.tables and tid not in people.settings
        again = await people._table_settings(tid)
        assert again is not None and again.chat == "seated"

    run(body, db_url)


def test_default_settings_are_not_stored_and_read_back_as_the_defaults(db_url: str) -> None:
    """A table with no clock, unrated and chat for "players" (what most tables are) stores no
    settings row, one transaction less a table; read back after its eviction it has those
    settings. A table with another setting stores its row."""

    async def body(hub: Hub, people: People, clock: FakeClock) -> None:
        plain = people.extras("toy", {}, None, None, False, "players")
        tid, seat, token = await hub.lobby.create(
            "toy", 2, {}, None, True, None, "Ann", settings=plain.settings
        )
        await people.created(tid, seat, token, plain, None)
        other = people.extras("toy", {}, None, None, False, "off")
        tid2, seat2, token2 = await hub.lobby.create(
            "toy", 2, {}, None, True, None, "Cy", settings=other.settings
        )
        await people.created(tid2, seat2, token2, other, None)
        assert [r.table_id for r in rows(people, T_SETTINGS)] == [tid2]
        s1, t1 = await hub.lobby.join(tid, None, "Bob")
        await people.joined(tid, s1, t1, None)
        await play_out(hub, tid)
        clock.advance(hub.cfg.evict_after + 1)
        hub.maintenance.evict()
        assert tid not in people.settings
        assert await people.table_settings(tid) == {"clock": None, "rated": False, "chat": "players"}
        assert await people._policy(tid) == "players"
        assert (await people.table_settings(tid2))["chat"] == "off"

    run(body, db_url)


def test_a_table_and_its_settings_are_stored_in_one_transaction(db_url: str) -> None:
    """The settings row goes in with the table and its seats (it used to be a second
    transaction a table, a fifth of the database threads' time while a wave of new tables
    opened at 1,000 tables on PostgreSQL)."""

    async def body(hub: Hub, people: People, clock: FakeClock) -> None:
        commits: list[object] = []

        def count(conn: object) -> None:
            commits.append(conn)

        engine = people.db.store.engine
        event.listen(engine, "commit", count)
        try:
            extras = people.extras("toy", {}, None, None, True, "off")
            tid, seat, token = await hub.lobby.create(
                "toy", 2, {}, [None, "random"], True, None, "Ann", settings=extras.settings
            )
            await people.created(tid, seat, token, extras, None)
        finally:
            event.remove(engine, "commit", count)
        assert len(commits) == 1
        assert [(r.table_id, r.clock, bool(r.rated), r.chat) for r in rows(people, T_SETTINGS)] == [
            (tid, None, True, "off")
        ]
        people.forget(tid)  # read back from the database
        assert await people.table_settings(tid) == {"clock": None, "rated": True, "chat": "off"}

    run(body, db_url)


def test_with_other_workers_only_a_table_with_a_free_seat_looks_up_its_accounts_at_its_end(
    db_url: str,
) -> None:
    """Another worker may link a seat to an account only by a join, which takes a free seat:
    a rated table created full here by someone without an account ends with no look-up of its
    seats' accounts; one with a free seat looks them up (the join may have been elsewhere)."""

    async def body(hub: Hub, people: People, clock: FakeClock) -> None:
        hub.notes.multi = True
        looked_up: list[str] = []
        real = people.db.seat_accounts

        def seat_accounts(table_id: str) -> dict[int, int]:
            looked_up.append(table_id)
            return real(table_id)

        people.db.seat_accounts = seat_accounts  # type: ignore[method-assign]
        extras = people.extras("toy", {}, None, None, True, "players")
        full, seat, token = await hub.lobby.create(
            "toy", 2, {}, [None, "random"], True, None, "Ann", settings=extras.settings
        )
        await people.created(full, seat, token, extras, None)
        open_, seat, token = await hub.lobby.create(
            "toy", 2, {}, None, True, None, "Ann", settings=extras.settings
        )
        await people.created(open_, seat, token, extras, None)
        s1, t1 = await hub.lobby.join(open_, None, "Bob")
        await people.joined(open_, s1, t1, None)
        for tid in (full, open_):
            await play_out(hub, tid)
            await _settled(people)
        assert looked_up == [open_]

    run(body, db_url)


# --------------------------------------------------------------------------- ratings


def test_rated_game_updates_both_ratings_once(db_url: str) -> None:
    async def body(hub: Hub, people: People, clock: FakeClock) -> None:
        _, ann = await people.register("Ann", "correct horse", "10.0.0.1")
        _, bob = await people.register("Bob", "battery staple", "10.0.0.2")
        extras = people.extras("toy", {}, None, None, True, "players")
        assert extras.rated
        tid, seat, token = await hub.lobby.create(
            "toy", 2, {}, None, True, None, "Ann", settings=extras.settings
        )
        await people.created(tid, seat, token, extras, ann)
        s1, t1 = await hub.lobby.join(tid, None, "Bob")
        await people.joined(tid, s1, t1, bob)
        # A deal the server draws (a rated table has no chosen seed): either may win.
        await play_out(hub, tid, lambda seat, legal: legal[-1] if seat == 0 else legal[0])
        lt = await hub.service.get(tid)
        outcome = lt.outcome()
        assert outcome is not None and outcome[0] != outcome[1]  # the toy game has no draws of 2
        winner, loser = ("Ann", "Bob") if outcome[0] > outcome[1] else ("Bob", "Ann")
        await _settled(people)
        board = await people.leaderboard("toy")
        assert [(r["name"], r["kind"], r["games"]) for r in board] == [
            (winner, "person", 1),
            (loser, "person", 1),
        ]
        assert board[0]["mu"] > 25 > board[1]["mu"]
        assert board[0]["sigma"] < 25 / 3 and board[1]["sigma"] < 25 / 3
        before = board
        assert not await people.rate(lt)  # once per table
        assert await people.leaderboard("toy") == before

    run(body, db_url)


def test_bots_at_rated_tables_are_rated_and_unrated_tables_change_nothing(
    db_url: str,
) -> None:
    async def body(hub: Hub, people: People, clock: FakeClock) -> None:
        _, ann = await people.register("Ann", "correct horse", "10.0.0.1")
        extras = people.extras("toy", {}, None, None, True, "players")
        tid, seat, token = await hub.lobby.create(
            "toy", 2, {}, [None, "random"], True, None, "Ann", settings=extras.settings
        )
        await people.created(tid, seat, token, extras, ann)
        await play_out(hub, tid)
        await _settled(people)
        board = await people.leaderboard("toy")
        assert sorted((r["name"], r["kind"]) for r in board) == [("Ann", "person"), ("random", "bot")]
        assert sum(r["mu"] for r in board) == pytest.approx(50, abs=1e-6)  # PlackettLuce's scale: mu 25
        # Custom options or a chosen deal make a table unrated.
        assert not people.extras("toy", {"hand_size": 2}, None, None, True, "players").rated
        assert not people.extras("toy", {}, 42, None, True, "players").rated
        extras = people.extras("toy", {}, 42, None, True, "players")
        tid, seat, token = await hub.lobby.create(
            "toy", 2, {}, [None, "random"], True, 42, "Ann", settings=extras.settings
        )
        await people.created(tid, seat, token, extras, ann)
        await play_out(hub, tid)
        await _settled(people)
        assert await people.leaderboard("toy") == board

    run(body, db_url)


async def _settled(people: People) -> None:
    for _ in range(50):
        await asyncio.sleep(0.01)
        if not people._tasks:
            return


# --------------------------------------------------------------------------- chat


def test_chat_is_for_seated_players_stored_limited_and_pushed(db_url: str) -> None:
    async def body(hub: Hub, people: People, clock: FakeClock) -> None:
        extras = people.extras("toy", {}, None, None, False, "players")
        tid, seat, token = await hub.lobby.create(
            "toy", 2, {}, [None, "random"], True, None, "Ann", settings=extras.settings
        )
        assert token is not None
        await people.created(tid, seat, token, extras, None)
        lt = await hub.service.get(tid)
        got: dict[str, list[dict[str, Any]]] = {"seat": [], "spectator": []}

        def sink(key: str) -> Callable[[str], Awaitable[None]]:
            async def send(text: str) -> None:
                got[key].append(json.loads(text))

            return send

        seated, watcher = Conn(0, sink("seat")), Conn(None, sink("spectator"))
        for c in (seated, watcher):
            await hub.presence.connect(lt, c)
        line = await people.say(tid, "  <b>hi</b>\x07 there  ", token, None)
        assert line.text == "<b>hi</b> there" and line.name == "Ann" and line.seat == 0  # stored as text
        for c in (seated, watcher):
            msgs = [json.loads(x) for x in _queued(c)]
            assert {"type": "chat", "lines": [people.line_json(line)]} in msgs
        with pytest.raises(Forbidden, match="only the players"):
            await people.say(tid, "hello", None, None)  # a spectator
        with pytest.raises(Forbidden, match="no seat"):
            await people.say(tid, "hello", "not-a-token", None)
        with pytest.raises(BadRequest, match=f"at most {CHAT_MAX}"):
            await people.say(tid, "x" * (CHAT_MAX + 1), token, None)
        with pytest.raises(BadRequest, match="some text"):
            await people.say(tid, " \n ", token, None)
        for i in range(4):
            await people.say(tid, f"line {i}", token, None)
        with pytest.raises(TooMany, match="wait 10 s"):
            await people.say(tid, "one too many", token, None)
        clock.advance(10)
        await people.say(tid, "later", token, None)
        lines = await people.read_chat(tid, 0, None, None)  # spectators read
        assert [x["text"] for x in lines] == [
            "<b>hi</b> there",
            "line 0",
            "line 1",
            "line 2",
            "line 3",
            "later",
        ]
        assert [x["text"] for x in await people.read_chat(tid, lines[-2]["id"], None, None)] == ["later"]

    run(body, db_url)


def test_chat_policies_seated_and_off(db_url: str) -> None:
    async def body(hub: Hub, people: People, clock: FakeClock) -> None:
        for policy in ("seated", "off"):
            extras = people.extras("toy", {}, None, None, False, policy)
            tid, seat, token = await hub.lobby.create(
                "toy", 2, {}, [None, "random"], True, None, "Ann", settings=extras.settings
            )
            await people.created(tid, seat, token, extras, None)
            lt = await hub.service.get(tid)
            watcher = Conn(None, _noop)
            await hub.presence.connect(lt, watcher)
            _queued(watcher)
            if policy == "off":
                with pytest.raises(Forbidden, match="no chat"):
                    await people.say(tid, "hello", token, None)
                assert await people.read_chat(tid, 0, token, None) == []
                continue
            await people.say(tid, "just us", token, None)
            assert not any('"chat"' in x for x in _queued(watcher))  # spectators do not hear it
            with pytest.raises(Forbidden, match="only the players"):
                await people.read_chat(tid, 0, None, None)
            assert [x["text"] for x in await people.read_chat(tid, 0, token, None)] == ["just us"]
        with pytest.raises(BadRequest, match="chat is"):
            people.extras("toy", {}, None, None, False, "everyone")

    run(body, db_url)


async def _noop(_text: str) -> None:
    return None


def _queued(conn: Conn) -> list[str]:
    out = []
    while not conn.queue.empty():
        x = conn.queue.get_nowait()
        if x is not None:
            out.append(x)
    return out


def test_chat_line_reaches_the_sockets_of_another_worker_through_its_notice(tmp_path: Path) -> None:
    async def body() -> None:
        url = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
        clock = FakeClock()
        async with server(url, clock) as (hub, people), server(url, clock) as (other, other_people):
            hub.notes.multi = True  # make the notice (SQLite has no bus: the test carries it)
            other.notes.worker_id = "other"
            extras = people.extras("toy", {}, None, None, False, "seated")
            tid, seat, token = await hub.lobby.create(
                "toy", 2, {}, [None, "random"], True, None, "Ann", settings=extras.settings
            )
            await people.created(tid, seat, token, extras, None)
            there = await other.service.get(tid)
            player, watcher = Conn(0, _noop), Conn(None, _noop)
            for c in (player, watcher):
                await other.presence.connect(there, c)
                _queued(c)
            notes: list[Any] = []
            people.db.store._notify = lambda _c, note: notes.append(note)  # type: ignore[method-assign]
            line = await people.say(tid, "hej", token, None)
            assert [n["k"] for n in notes] == ["c"]  # sent in the line's transaction
            other_people.on_bus(notes[0])
            chats = [m for m in map(json.loads, _queued(player)) if m["type"] == "chat"]
            assert chats == [{"type": "chat", "lines": [people.line_json(line)]}]
            assert not any('"chat"' in x for x in _queued(watcher))  # chat "seated": spectators do not

    asyncio.run(body())


def test_a_rated_game_lost_on_time_counts_for_the_ratings(db_url: str) -> None:
    async def body(hub: Hub, people: People, clock: FakeClock) -> None:
        _, ann = await people.register("Ann", "correct horse", "10.0.0.1")
        _, bob = await people.register("Bob", "battery staple", "10.0.0.2")
        extras = people.extras(
            "toy", {}, None, {"mode": "turn", "per_decision": 3600, "on_timeout": "lose"}, True, "players"
        )
        tid, seat, token = await hub.lobby.create(
            "toy", 2, {}, None, True, None, "Ann", settings=extras.settings
        )
        await people.created(tid, seat, token, extras, ann)
        s1, t1 = await hub.lobby.join(tid, None, "Bob")
        await people.joined(tid, s1, t1, bob)
        lt = await hub.service.get(tid)
        loser = lt.table.to_act
        clock.advance(3600)
        await people.keeper.check()
        assert lt.is_over and loser is not None
        await _settled(people)
        board = await people.leaderboard("toy")
        assert [r["name"] for r in board] == (["Bob", "Ann"] if loser == 0 else ["Ann", "Bob"])
        assert [r["games"] for r in board] == [1, 1]

    run(body, db_url)
