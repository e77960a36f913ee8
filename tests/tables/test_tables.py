"""Tables validate, apply and record; records replay to the same state."""

from __future__ import annotations

import json

import pytest

from spillebord.core import GameOver, IllegalAction, NotYourTurn, OptionError, Rng, UnknownGame, registry
from spillebord.tables import RecordError, Table
from toygame import TOY

registry.register(TOY)


def play_out(table: Table, seed: int = 0) -> None:
    rng = Rng(seed)
    while not table.is_over:
        table.act(table.to_act, rng.choice(table.legal_texts()))


def test_create_validates_game_seats_and_options() -> None:
    with pytest.raises(UnknownGame, match="no game 'chess'"):
        Table.create("chess", 2)
    with pytest.raises(OptionError, match="2–3 players, not 5"):
        Table.create("toy", 5)
    with pytest.raises(OptionError, match="unknown option"):
        Table.create("toy", 2, options={"colour": "red"})
    t = Table.create("toy", 2, 1, {"hand_size": "2"})
    assert t.options.hand_size == 2


def test_bad_actions_change_nothing() -> None:
    t = Table.create("toy", 2, seed=3)
    before = t.state.copy()
    other = 1 - t.to_act
    with pytest.raises(NotYourTurn, match="it is seat 0's turn, not seat 1's"):
        t.act(other, t.legal_texts()[0])
    with pytest.raises(IllegalAction):
        t.act(t.to_act, "play 99")
    with pytest.raises(IllegalAction):
        t.act(t.to_act, "   ")
    assert t.state == before and t.log == []


def test_actions_after_the_end_are_refused() -> None:
    t = Table.create("toy", 2, seed=3)
    play_out(t)
    with pytest.raises(GameOver):
        t.act(None, "play 1")


def test_record_round_trips_and_replays_to_an_equal_state() -> None:
    t = Table.create("toy", 3, seed=11, players=["ann", "random", "greedy"])
    play_out(t, 5)
    rec = json.loads(t.to_json())
    assert rec["format"] == "spillebord-record" and rec["game"] == "toy"
    assert rec["outcome"] == list(t.outcome() or ()) and rec["scores"] == list(t.scores())
    assert rec["engine"] == t.game.version
    again = Table.from_record(rec)
    assert again.state == t.state
    assert again.players == ["ann", "random", "greedy"]
    half = Table.from_record(rec, upto=4)
    assert len(half.log) == 4


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({}, "not a Spillebord game record"),
        ({"format": "spillebord-record", "game": "toy"}, "missing or has a bad field"),
        (
            {
                "format": "spillebord-record",
                "game": "toy",
                "seats": 2,
                "seed": 0,
                "actions": [{"seat": 0, "action": "play 99"}],
            },
            "action 1 of the record does not replay",
        ),
    ],
)
def test_bad_records_are_explained(record: dict[str, object], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Table.from_record(record)


def test_from_json_rejects_garbage() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        Table.from_json("{nope")


def test_a_record_of_another_engine_version_is_refused_not_half_applied() -> None:
    t = Table.create("toy", 2, seed=4)
    play_out(t, 1)
    rec = t.to_record()
    rec["engine"] = t.game.version + 1
    with pytest.raises(RecordError, match=r"engine version 2.*cannot be replayed exactly"):
        Table.from_record(rec)


def test_a_record_without_an_engine_version_is_of_version_1() -> None:
    t = Table.create("toy", 2, seed=4)
    play_out(t, 1)
    rec = t.to_record()
    del rec["engine"]
    assert Table.from_record(rec).state == t.state
