"""Undo inside a turn, in process: the table service takes back the last action of the seat to
act where the engine says it is reversible (no chance drawn, nothing hidden revealed), on the
in-memory log and on SQLite; the log loses the action (the store keeps an audit row), every
socket hears of the new state, and a reload shows the shortened log."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
sys.path.insert(0, str(Path(__file__).parents[1] / "core"))
from test_service import STORAGES, Storages, connect, drain, run, running, until
from test_undo import sailing_policy

from spillebord.core import GameOver, IllegalAction
from spillebord.server import wire
from spillebord.server.api import handle_message
from spillebord.server.errors import Stale
from spillebord.server.hub import Hub
from spillebord.server.service import LiveTable
from spillebord.store import Store
from spillebord.tables import Table

SEED = 5


@pytest.fixture(params=STORAGES)
def storages(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storages]:
    with ExitStack() as stack:
        yield Storages(request.param, tmp_path, stack)


def states(conn: Any) -> list[dict[str, Any]]:
    return [m for m in drain(conn) if m["type"] == "state"]


def script(seed: int = SEED, steps: int = 400) -> list[tuple[int, str, int]]:
    """A Fuldrigger game of two sailors: (seat, action, undo depth after it) per action."""
    table = Table.create("fuldrigger", 2, seed)
    rnd = random.Random(seed)
    out = []
    depth = 0
    for _ in range(steps):
        if table.is_over:
            break
        a = sailing_policy(rnd, table.state)
        seat = table.to_act
        assert seat is not None
        rev = table.state.reversible(a)
        table.act(seat, str(a))
        depth = depth + 1 if rev and table.to_act == seat else 0
        out.append((seat, str(a), depth))
    return out


SCRIPT = script()


def first(pred: Any) -> int:
    """The number of actions to play to reach the first point where ``pred(i)`` holds."""
    return next(i + 1 for i in range(len(SCRIPT)) if pred(i))


async def table_of_two(hub: Hub) -> tuple[LiveTable, list[str]]:
    tid, seat, token = await hub.lobby.create("fuldrigger", 2, {}, None, True, SEED, "Ann")
    assert seat == 0 and token is not None
    _, token1 = await hub.lobby.join(tid, None, "Bob")
    return await hub.service.get(tid), [token, token1]


async def play_to(hub: Hub, lt: LiveTable, n: int) -> None:
    while lt.seq < n:
        seat, text, depth = SCRIPT[lt.seq]
        await hub.service.submit(lt, seat, text, lt.seq)
        assert lt.undo == depth, (lt.seq, text)


def test_the_script_has_what_the_tests_need() -> None:
    assert any(d >= 2 for _, _, d in SCRIPT)  # two steps of one move to take back
    # a hazard roll by the same seat in the middle of its turn (a chance draw: no undo after it)
    assert any(
        SCRIPT[i][2] == 0
        and SCRIPT[i - 1][2] > 0
        and SCRIPT[i][0] == SCRIPT[i - 1][0]
        and SCRIPT[i][1].startswith("sail")
        for i in range(1, len(SCRIPT))
    )


def test_undo_takes_back_the_last_step_announces_and_reloads(storages: Storages) -> None:
    n = first(lambda i: SCRIPT[i][2] >= 2)
    seat = SCRIPT[n - 1][0]

    async def body() -> None:
        storage = storages.again()
        async with running(storage) as hub:
            lt, _ = await table_of_two(hub)
            await play_to(hub, lt, n - 1)
            before = lt.table.state.copy()
            await play_to(hub, lt, n)
            mine, other = await connect(hub, lt, seat), await connect(hub, lt, 1 - seat)
            assert states(mine)[-1]["undo"] == 2 and states(other)[-1]["undo"] == 0
            with pytest.raises(Stale):
                await hub.service.undo(lt, seat, n - 1)
            with pytest.raises(IllegalAction, match="seat to act"):
                await hub.service.undo(lt, 1 - seat, n)
            await hub.service.undo(lt, seat, n)
            assert lt.seq == n - 1 and lt.table.state == before and lt.undo == 1
            got = states(mine)
            assert [m["seq"] for m in got] == [n - 1] and got[0]["undo"] == 1
            assert [m["seq"] for m in states(other)] == [n - 1]
            assert [a.action for a in await storage.read(lt.id)] == [t for _, t, _ in SCRIPT[: n - 1]]
            hist = await hub.lobby.history(lt.id)
            assert len(hist) == n - 1
        if storages.kind == "memory":
            assert [a.action for _, a, _ in storages.memory.undone] == [SCRIPT[n - 1][1]]
        else:
            store = Store(storages.url)
            try:
                assert [(a.seq, a.action) for a, _ in store.undone(lt.id)] == [(n - 1, SCRIPT[n - 1][1])]
            finally:
                store.dispose()
        # A restarted server on the same database: the shortened log, the same undo depth.
        async with running(storages.again()) as hub2:
            lt2 = await hub2.service.get(lt.id)
            assert lt2.seq == n - 1 and lt2.table.state == before and lt2.undo == 1
            log = await hub2.lobby.history(lt.id)
            assert [e.seat for e in log] == [s for s, _, _ in SCRIPT[: n - 1]]
            # play the step again: the same table as before the undo
            await hub2.service.submit(lt2, seat, SCRIPT[n - 1][1], n - 1)
            assert lt2.undo == 2 and lt2.table.state == Table.from_record(lt2.table.to_record()).state
            await hub2.service.undo(lt2, seat, n)
            await hub2.service.undo(lt2, seat, n - 1)
            assert lt2.undo == 0 and lt2.seq == n - 2
            with pytest.raises(IllegalAction, match="nothing to take back"):
                await hub2.service.undo(lt2, seat, n - 2)

    run(body())


def test_undo_is_refused_after_a_chance_draw(storages: Storages) -> None:
    # the seat goes on after a step that rolled a hazard die: nothing before it can be taken back
    n = first(
        lambda i: (
            i > 0
            and SCRIPT[i][2] == 0
            and SCRIPT[i - 1][2] > 0
            and SCRIPT[i][0] == SCRIPT[i - 1][0]
            and SCRIPT[i][1].startswith("sail")
        )
    )
    seat = SCRIPT[n - 1][0]

    async def body() -> None:
        async with running(storages.again()) as hub:
            lt, _ = await table_of_two(hub)
            await play_to(hub, lt, n)
            assert lt.table.to_act == seat and lt.undo == 0
            with pytest.raises(IllegalAction, match="nothing to take back"):
                await hub.service.undo(lt, seat, n)
            assert lt.seq == n

    run(body())


def test_undo_is_refused_once_another_seat_acted(storages: Storages) -> None:
    # the seat to act sailed reversibly earlier, then the other seat acted: nothing of either
    # seat can be taken back now (the other's action is not the seat's, and the other is not to act)
    n = first(
        lambda i: (
            i + 1 < len(SCRIPT)
            and SCRIPT[i + 1][0] != SCRIPT[i][0]
            and any(d > 0 and s == SCRIPT[i + 1][0] for s, _, d in SCRIPT[:i])
        )
    )
    seat = SCRIPT[n][0]

    async def body() -> None:
        async with running(storages.again()) as hub:
            lt, _ = await table_of_two(hub)
            await play_to(hub, lt, n)
            assert lt.table.to_act == seat and lt.table.log[-1][0] != seat and lt.undo == 0
            for s in (0, 1):
                with pytest.raises(IllegalAction):
                    await hub.service.undo(lt, s, n)
            assert lt.seq == n

    run(body())


def test_undo_is_refused_for_a_bot_seat_and_at_the_end(storages: Storages) -> None:
    n = first(lambda i: SCRIPT[i][2] >= 1)
    seat = SCRIPT[n - 1][0]

    async def body() -> None:
        async with running(storages.again()) as hub:
            lt, _ = await table_of_two(hub)
            await play_to(hub, lt, n)
            assert lt.undo >= 1
            lt.seats[seat].takeover = "random"  # a bot took the seat over (not scheduled here)
            with pytest.raises(IllegalAction, match="bot"):
                await hub.service.undo(lt, seat, n)
            assert hub.service.client_state(lt, seat, [])["undo"] == 0
            lt.seats[seat].takeover = None
            assert hub.service.client_state(lt, seat, [])["undo"] == lt.undo
            lt.ended = [1.0, 0.0]  # lost on time
            with pytest.raises(GameOver):
                await hub.service.undo(lt, seat, n)

    run(body())


def test_a_game_without_reversible_actions_never_offers_undo(storages: Storages) -> None:
    async def body() -> None:
        async with running(storages.again()) as hub:
            tid, _, _ = await hub.lobby.create("kasino", 2, {}, None, True, 3, "Ann")
            await hub.lobby.join(tid, None, "Bob")
            lt = await hub.service.get(tid)
            for _ in range(6):
                seat = lt.table.to_act
                assert seat is not None
                await hub.service.submit(lt, seat, lt.table.legal_texts()[0], lt.seq)
                assert lt.undo == 0 and hub.service.client_state(lt, lt.table.to_act, [])["undo"] == 0
                with pytest.raises(IllegalAction):
                    await hub.service.undo(lt, lt.table.to_act or 0, lt.seq)

    run(body())


def act_msg(text: str, seq: int, undone: int | None = None) -> str:
    msg: dict[str, Any] = {"type": "act", "action": text, "seq": seq}
    if undone is not None:
        msg["undone"] = undone
    return json.dumps(msg)


def test_a_resent_act_after_an_undo_is_refused_and_a_new_one_applies(storages: Storages) -> None:
    """Ann acts at seq n-1, takes it back (the table is at n-1 again), and her first act message
    arrives again (a retry after a dropped socket, her second socket): the seq alone cannot
    tell it from a new act, the count of undone actions it carries can. It is refused as stale
    and changes nothing; a new act made on the state after the undo applies; the count
    outlives a restart (it is the table's rows of ``sb_undone``)."""
    n = first(lambda i: SCRIPT[i][2] >= 1)
    seat, text, _ = SCRIPT[n - 1]

    async def body() -> None:
        storage = storages.again()
        async with running(storage) as hub:
            lt, _ = await table_of_two(hub)
            await play_to(hub, lt, n - 1)
            mine = await connect(hub, lt, seat)
            state = states(mine)[-1]
            assert state["seq"] == n - 1 and state["undone"] == 0
            sent = act_msg(text, n - 1, state["undone"])
            assert await handle_message(hub, lt, mine, sent) is None
            assert lt.seq == n and states(mine)[-1]["undone"] == 0
            await hub.service.undo(lt, seat, n)
            after = states(mine)[-1]
            assert after["seq"] == n - 1 and after["undone"] == 1
            before = lt.table.state.copy()
            # The same message again: refused as stale, nothing changes.
            reply = await handle_message(hub, lt, mine, sent)
            assert reply is not None and json.loads(reply)["type"] == "error"
            assert json.loads(reply)["message"].startswith("stale")
            assert lt.seq == n - 1 and lt.table.state == before and lt.undo == 0
            assert states(mine) == []
            assert [a.action for a in await storage.read(lt.id)] == [t for _, t, _ in SCRIPT[: n - 1]]
            with pytest.raises(Stale):
                await hub.service.submit(lt, seat, text, n - 1, undone=0)
            # A new act on the state after the undo (the same step, chosen again) applies.
            assert await handle_message(hub, lt, mine, act_msg(text, n - 1, after["undone"])) is None
            assert lt.seq == n and states(mine)[-1]["seq"] == n
            # ...and a retry of that one is acknowledged with the state, as any retry.
            assert await handle_message(hub, lt, mine, act_msg(text, n - 1, after["undone"])) is None
            assert lt.seq == n and [m["seq"] for m in states(mine)] == [n]
            await hub.service.undo(lt, seat, n)
            assert lt.undone == 2
        # A restarted server counts the undone actions from the store.
        async with running(storages.again()) as hub2:
            lt2 = await hub2.service.get(lt.id)
            assert lt2.seq == n - 1 and lt2.undone == 2
            mine = await connect(hub2, lt2, seat)
            assert states(mine)[-1]["undone"] == 2
            for stale in (0, 1):
                reply = await handle_message(hub2, lt2, mine, act_msg(text, n - 1, stale))
                assert reply is not None and json.loads(reply)["message"].startswith("stale")
            assert lt2.seq == n - 1
            assert await handle_message(hub2, lt2, mine, act_msg(text, n - 1, 2)) is None
            assert lt2.seq == n

    run(body())


def test_an_act_without_the_undone_count_works_as_before(storages: Storages) -> None:
    # Old clients send no "undone": the seq alone decides, as before.
    n = first(lambda i: SCRIPT[i][2] >= 1)
    seat, text, _ = SCRIPT[n - 1]

    async def body() -> None:
        async with running(storages.again()) as hub:
            lt, _ = await table_of_two(hub)
            await play_to(hub, lt, n - 1)
            mine = await connect(hub, lt, seat)
            assert await handle_message(hub, lt, mine, act_msg(text, n - 1)) is None
            await hub.service.undo(lt, seat, n)
            assert await handle_message(hub, lt, mine, act_msg(text, n - 1)) is None
            assert lt.seq == n and lt.undone == 1

    run(body())


def test_a_resent_undo_after_the_step_was_played_again_is_refused(storages: Storages) -> None:
    # The same ambiguity for an undo (POST .../undo {seq, undone}): Ann takes a step back,
    # plays it again, and her first undo request arrives again: with its undone count it is
    # stale, and the step stays.
    n = first(lambda i: SCRIPT[i][2] >= 1)
    seat, text, _ = SCRIPT[n - 1]

    async def body() -> None:
        async with running(storages.again()) as hub:
            lt, _ = await table_of_two(hub)
            await play_to(hub, lt, n)
            await hub.service.undo(lt, seat, n, undone=0)
            await hub.service.submit(lt, seat, text, n - 1, undone=1)
            with pytest.raises(Stale, match="taken back"):
                await hub.service.undo(lt, seat, n, undone=0)
            assert lt.seq == n and lt.undone == 1
            await hub.service.undo(lt, seat, n, undone=1)
            assert lt.seq == n - 1 and lt.undone == 2

    run(body())


def test_the_undone_count_of_an_act_message_is_checked() -> None:
    assert wire.parse(act_msg("pass", 3)) == wire.Act("pass", 3)
    assert wire.parse(act_msg("pass", 3, 2)) == wire.Act("pass", 3, 2)
    for bad in ('"2"', "-1", "true", "1.5"):
        raw = f'{{"type": "act", "action": "pass", "seq": 3, "undone": {bad}}}'
        with pytest.raises(wire.WireError, match="undone"):
            wire.parse(raw)


def test_another_worker_rebuilds_after_an_undo(tmp_path: Path) -> None:
    """An undo on one worker reaches the others through the bus ("u"): they rebuild the table
    from the shortened log and tell their own clients."""
    n = first(lambda i: SCRIPT[i][2] >= 1)
    seat = SCRIPT[n - 1][0]

    async def body() -> None:
        with ExitStack() as stack:
            storage = Storages("memory", tmp_path, stack).memory
            async with running(storage) as one, running(storage) as two:
                one.notes.multi = two.notes.multi = True
                one.notes.worker_id, two.notes.worker_id = "one", "two"
                storage.listeners += [one.on_bus, two.on_bus]
                lt1, _ = await table_of_two(one)
                await play_to(one, lt1, n)
                lt2 = await two.service.get(lt1.id)
                assert lt2.seq == n and lt2.undo == lt1.undo >= 1
                watcher = await connect(two, lt2, seat)
                drain(watcher)
                await one.service.undo(lt1, seat, n)
                await until(lambda: lt2.seq == n - 1)
                assert lt2.table.state == lt1.table.state and lt2.undo == lt1.undo
                assert lt2.undone == lt1.undone == 1
                assert [m["seq"] for m in states(watcher)] == [n - 1]

    run(body())
