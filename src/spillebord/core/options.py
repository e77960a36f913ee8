"""Table options: every reading of an unclear rule is a field of a game's ``Options``.

A game's ``Options`` is a frozen dataclass whose fields carry their help text::

    @dataclass(frozen=True, slots=True)
    class Options:
        value_mode: Literal["either", "hand_high_table_low"] = opt(
            "either", "D1: two-valued cards use either value anywhere, or high in hand / low on table")

This module turns such a class into a schema (for ``spillebord games``, the lobby and the
web form) and builds instances from loose ``KEY=VALUE`` input with clear errors.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from .errors import OptionError

T = TypeVar("T")


def opt(default: Any, help: str, **metadata: Any) -> Any:
    """A dataclass field with a default and a help text (shown to players)."""
    return dataclasses.field(default=default, metadata={"help": help, **metadata})


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    # get_type_hints evaluates every annotation: once per Options class, not once per table.
    return typing.get_type_hints(cls)


def _describe(tp: Any) -> tuple[str, list[Any] | None, bool]:
    """(kind, choices, optional) for a field type."""
    optional = False
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        optional = len(args) != len(get_args(tp))
        tp = args[0] if len(args) == 1 else tp
        origin = get_origin(tp)
    if origin is Literal:
        return "choice", list(get_args(tp)), optional
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return "choice", [m.value for m in tp], optional
    if tp is bool:
        return "bool", None, optional
    if tp is int:
        return "int", None, optional
    if tp is float:
        return "float", None, optional
    return "str", None, optional


def schema(options_cls: type) -> list[dict[str, Any]]:
    """One JSON-ready entry per option: name, kind, default, choices, optional, help."""
    hints = _hints(options_cls)
    out = []
    for f in dataclasses.fields(options_cls):
        kind, choices, optional = _describe(hints[f.name])
        default = f.default if f.default is not dataclasses.MISSING else None
        if isinstance(default, enum.Enum):
            default = default.value
        entry: dict[str, Any] = {
            "name": f.name,
            "kind": kind,
            "default": default,
            "optional": optional,
            "help": f.metadata.get("help", ""),
        }
        if choices is not None:
            entry["choices"] = choices
        for k in ("min", "max"):
            if k in f.metadata:
                entry[k] = f.metadata[k]
        out.append(entry)
    return out


_TRUE = {"1", "true", "yes", "on", "y", "t"}
_FALSE = {"0", "false", "no", "off", "n", "f"}


def _coerce(name: str, tp: Any, value: Any, meta: Mapping[str, Any]) -> Any:
    kind, choices, optional = _describe(tp)
    if value is None or (isinstance(value, str) and value.lower() in ("none", "null") and optional):
        if optional:
            return None
        raise OptionError(f"option {name!r} needs a value")
    try:
        if kind == "bool":
            if isinstance(value, bool):
                return value
            s = str(value).strip().lower()
            if s in _TRUE:
                return True
            if s in _FALSE:
                return False
            raise ValueError
        if kind == "int":
            if isinstance(value, bool):
                raise ValueError
            v: Any = int(value)
        elif kind == "float":
            v = float(value)
        elif kind == "choice":
            assert choices is not None
            for c in choices:
                if value == c or str(value) == str(c):
                    v = c
                    break
            else:
                raise OptionError(
                    f"option {name!r} must be one of {', '.join(map(str, choices))}, not {value!r}"
                )
            inner = tp
            if get_origin(tp) in (Union, types.UnionType):
                inner = next(a for a in get_args(tp) if a is not type(None))
            if isinstance(inner, type) and issubclass(inner, enum.Enum):
                v = inner(v)
            return v
        else:
            v = str(value)
    except OptionError:
        raise
    except (TypeError, ValueError):
        raise OptionError(f"option {name!r} must be {kind_word(kind)}, not {value!r}") from None
    lo, hi = meta.get("min"), meta.get("max")
    if lo is not None and v < lo:
        raise OptionError(f"option {name!r} must be at least {lo}, not {v}")
    if hi is not None and v > hi:
        raise OptionError(f"option {name!r} must be at most {hi}, not {v}")
    return v


def kind_word(kind: str) -> str:
    return {"bool": "true or false", "int": "a whole number", "float": "a number"}.get(kind, "text")


def build(options_cls: type[T], values: Mapping[str, Any] | None = None) -> T:
    """An ``options_cls`` from loose values (strings from a command line, JSON from a form).

    Unknown names and badly typed values raise :class:`OptionError` naming the option.
    """
    values = dict(values or {})
    hints = _hints(options_cls)  # type: ignore[arg-type]  # classes are hashable
    fields = {f.name: f for f in dataclasses.fields(options_cls)}  # type: ignore[arg-type]
    unknown = sorted(set(values) - set(fields))
    if unknown:
        raise OptionError(
            f"unknown option{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
            f"known: {', '.join(fields) or 'none'}"
        )
    kwargs = {k: _coerce(k, hints[k], v, fields[k].metadata) for k, v in values.items()}
    try:
        return options_cls(**kwargs)
    except (TypeError, ValueError) as e:  # __post_init__ validation of a game
        raise OptionError(str(e)) from None


def to_dict(options: Any) -> dict[str, Any]:
    """JSON-ready dict of an options instance (enums by value)."""
    out = {}
    for f in dataclasses.fields(options):
        v = getattr(options, f.name)
        out[f.name] = v.value if isinstance(v, enum.Enum) else v
    return out


def parse_pairs(pairs: list[str] | None) -> dict[str, str]:
    """``["target=11", "value_mode=either"]`` → dict; raises OptionError on a malformed pair."""
    out: dict[str, str] = {}
    for p in pairs or []:
        if "=" not in p:
            raise OptionError(f"options are KEY=VALUE, not {p!r}")
        k, v = p.split("=", 1)
        out[k.strip()] = v.strip()
    return out
