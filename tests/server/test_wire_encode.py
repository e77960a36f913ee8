"""The server's JSON writer (``wire.encode``, orjson with the standard library behind it) says
what the standard library says: every state message of random games of every game reads back
the same, and what orjson refuses still encodes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from spillebord.core import Rng, registry
from spillebord.core.options import build
from spillebord.server import wire

STDLIB = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _messages(gid: str, seed: int, decisions: int = 60) -> list[dict[str, Any]]:
    """State messages as the server builds them (a seat's view, its legal list with labels and
    JSON) at each decision of a random game, and a spectator's view."""
    game = registry.get(gid)
    seats = 4 if gid == "partners" else game.seats[0]  # Partners' usual table: four people
    state = game.new(seats, seed, build(game.Options, {}))
    rng = Rng(seed)
    out: list[dict[str, Any]] = []
    for n in range(decisions):
        if state.to_act is None:
            break
        legal = state.legal()
        out.append(
            {
                "type": "state",
                "seq": n,
                "seat": state.to_act,
                "game": gid,
                "view": state.view(state.to_act),
                "legal": [{"text": str(a), "label": a.label(), "json": a.to_json()} for a in legal],
                "outcome": None,
            }
        )
        out.append({"type": "state", "seq": n, "seat": None, "view": state.view(None), "legal": []})
        state.play(rng.choice(legal))
    return out


@pytest.mark.parametrize("gid", sorted(registry.ids()))
def test_every_state_message_reads_back_as_the_standard_library_writes_it(gid: str) -> None:
    for seed in (1, 2):
        for msg in _messages(gid, seed):
            text = wire.encode(msg)  # type: ignore[arg-type]
            assert json.loads(text) == json.loads(STDLIB.encode(msg))
            assert next(iter(json.loads(text))) == "type"  # "type" stays the first key


def test_the_writer_is_compact_and_writes_letters_as_themselves() -> None:
    text = wire.encode({"type": "error", "message": "Spillet er slut: ♠5 på bordet"})
    assert text == '{"type":"error","message":"Spillet er slut: ♠5 på bordet"}'


def test_what_orjson_refuses_is_written_by_the_standard_library() -> None:
    big = {"type": "state", "seq": 1, "view": {"mask": 1 << 70, 3: "x"}}
    assert json.loads(wire.encode(big)) == {"type": "state", "seq": 1, "view": {"mask": 1 << 70, "3": "x"}}  # type: ignore[arg-type]


def test_integer_keys_become_strings_as_the_standard_library_writes_them() -> None:
    msg = {"type": "state", "view": {1: [1, 2], 2: (3, 4)}}
    assert wire.encode(msg) == STDLIB.encode(msg)  # type: ignore[arg-type]
