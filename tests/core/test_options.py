"""Options: schema for lobbies, and KEY=VALUE input turned into typed values with clear errors."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Literal

import pytest

from spillebord.core import OptionError, opt
from spillebord.core.options import build, parse_pairs, schema, to_dict


class Mode(enum.Enum):
    A = "a"
    B = "b"


@dataclass(frozen=True, slots=True)
class Opts:
    target: int = opt(21, "points to win", min=1, max=99)
    sweeps: bool = opt(True, "sweeps cancel")
    value_mode: Literal["either", "high_low"] = opt("either", "D1")
    mode: Mode = opt(Mode.A, "an enum")
    rounds: int | None = opt(None, "optional limit")
    ratio: float = opt(0.5, "a float")


def test_schema_lists_every_field_with_help_and_choices() -> None:
    s = {e["name"]: e for e in schema(Opts)}
    assert s["target"] == {
        "name": "target",
        "kind": "int",
        "default": 21,
        "optional": False,
        "help": "points to win",
        "min": 1,
        "max": 99,
    }
    assert s["value_mode"]["choices"] == ["either", "high_low"]
    assert s["mode"]["choices"] == ["a", "b"] and s["mode"]["default"] == "a"
    assert s["rounds"]["optional"] is True


def test_build_coerces_strings() -> None:
    o = build(
        Opts,
        {
            "target": "11",
            "sweeps": "no",
            "value_mode": "high_low",
            "mode": "b",
            "rounds": "3",
            "ratio": "0.25",
        },
    )
    assert o == Opts(11, False, "high_low", Mode.B, 3, 0.25)
    assert build(Opts, {"rounds": "none"}).rounds is None
    assert to_dict(o)["mode"] == "b"


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"colour": "red"}, "unknown option colour"),
        ({"target": "many"}, "'target' must be a whole number"),
        ({"target": "0"}, "at least 1"),
        ({"target": "100"}, "at most 99"),
        ({"sweeps": "maybe"}, "'sweeps' must be true or false"),
        ({"value_mode": "low"}, "must be one of either, high_low"),
        ({"target": True}, "whole number"),
    ],
)
def test_bad_values_are_named(values: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        build(Opts, values)


def test_parse_pairs() -> None:
    assert parse_pairs(["a=1", " b = x=y "]) == {"a": "1", "b": "x=y"}
    with pytest.raises(OptionError, match="KEY=VALUE"):
        parse_pairs(["novalue"])
