"""Seats are private: full games of EVERY registered game over websockets, every message to
every seat inspected against a server-independent replay.

All seats are people (the test plays random legal moves for them), so that every seat has
a socket; a spectator watches too. For each message: its view is exactly ``view(seat)`` of
the replay at that sequence number, a determinization from that seat gives the same view (so
nothing in it depends on what the seat cannot see), legal actions go to the seat to act and
nobody else, and the last action's text goes to others only for games whose actions are public.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from test_server_support import Client, Server, server_on

from spillebord.core import Rng, registry
from spillebord.server.wire import PlayerInfo
from spillebord.tables import Table
from toygame import TOY

registry.register(TOY)
GAMES = registry.all_games()


def canon(x: Any) -> str:
    return json.dumps(x, sort_keys=True, ensure_ascii=False)


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with server_on("sqlite", tmp_path_factory.mktemp("secrets")) as s:
        yield s


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_every_game_reveals_nothing_to_other_seats(srv: Server, game: Any) -> None:
    n = game.seats.start
    seed = 20261122
    t = srv.create(game=game.id, seats=n, options=dict(game.quick_options), seed=seed, name="P0")
    tid = t["table"]
    tokens = [t["token"]] + [srv.join(tid, name=f"P{i}")["token"] for i in range(1, n)]
    clients: dict[int | None, Client] = {s: srv.ws(tid, tok) for s, tok in enumerate(tokens)}
    clients[None] = srv.ws(tid)
    ref = Table.create(game, n, seed, dict(game.quick_options))
    rng = Rng(99)
    expected: dict[int, dict[int | None, str]] = {}  # seq -> seat -> canonical view
    legal_at: dict[int, list[str]] = {}
    acted: dict[int, tuple[int, str]] = {}

    def remember(seq: int) -> None:
        state = ref.state
        views: dict[int | None, str] = {None: canon(state.view(None))}
        for seat in range(n):
            v = canon(state.view(seat))
            d = state.determinize(seat, rng.spawn())
            assert canon(d.view(seat)) == v, f"seat {seat}'s view depends on hidden information"
            views[seat] = v
        expected[seq] = views
        legal_at[seq] = ref.legal_texts()

    def check(seat: int | None, msg: dict[str, Any]) -> None:
        assert msg["type"] == "state" and msg["seat"] == seat and msg["game"] == game.id
        seq = msg["seq"]
        assert seq in expected, f"a message for seq {seq} that the replay has not reached"
        got, want = canon(msg["view"]), expected[seq][seat]
        if got != want:
            at = next((i for i, (x, y) in enumerate(zip(got, want, strict=False)) if x != y), 0)
            raise AssertionError(
                f"seat {seat} at {seq} was sent other than its view: ...{got[max(0, at - 80) : at + 80]}... "
                f"instead of ...{want[max(0, at - 80) : at + 80]}..."
            )
        if seat is not None and msg["to_act"] == seat and msg["status"] == "running":
            assert [x["text"] for x in msg["legal"]] == legal_at[seq]
        else:
            assert msg["legal"] == [], f"seat {seat} was sent another seat's legal actions"
        if msg["last"] is not None:
            a_seat, a_text = acted[seq - 1]
            assert msg["last"]["seat"] == a_seat
            if seat == a_seat or game.kind.public_actions:
                assert msg["last"]["action"] == a_text
            else:
                assert msg["last"]["action"] is None
        json.dumps(msg["events"])  # events are public by contract
        if msg["to_act"] is not None:  # scores may rest on hidden cards: none while it runs
            assert msg["outcome"] is None and msg["scores"] is None, "scores sent while the game runs"

    checked = {s: 0 for s in clients}

    def drain_to(seq: int) -> dict[int | None, dict[str, Any]]:
        out = {}
        for seat, c in clients.items():
            msg = c.state_at(seq, timeout=30)
            out[seat] = msg
            for m in c.messages[checked[seat] :]:
                if m["type"] == "state":
                    check(seat, m)
                elif m["type"] == "players":  # who is there: nothing of the game
                    assert set(m) == {"type", "seq", "players"}, m
                    assert all(set(p) == set(PlayerInfo.__annotations__) for p in m["players"]), m
                else:
                    raise AssertionError(f"unexpected message {m}")
            checked[seat] = len(c.messages)
        return out

    seq = 0
    remember(0)
    while True:
        states = drain_to(seq)
        to_act = ref.to_act
        if to_act is None:
            break
        assert all(s["to_act"] == to_act for s in states.values())
        choice = rng.choice(states[to_act]["legal"])["text"]
        clients[to_act].act(choice, seq)
        ref.act(to_act, choice)
        acted[seq] = ref.log[-1]
        seq += 1
        remember(seq)
        assert seq <= game.max_decisions
    final = states[0]
    assert final["outcome"] == list(ref.outcome() or []) and final["outcome"]
    assert final["scores"] == list(ref.scores()) and final["truncated"] == ref.state.truncated
    rec = srv.get(f"/api/tables/{tid}/record").json()
    assert [(a["seat"], a["action"]) for a in rec["actions"]] == ref.log
    for c in clients.values():
        c.close()
