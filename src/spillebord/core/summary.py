"""The end summary of a game: how its final numbers came about, as structured data.

Every game's ``summary`` module has ``summary(state) -> Summary``: a pure function of the
final state (no I/O), rows of per-seat figures under keys the web client translates
(``web/texts/<game>.json``, ``"summary"``). The row named by ``total`` is the game's own score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict


class Row(TypedDict):
    key: str
    """What the figures are (a translation key, e.g. ``"spades"``)."""
    values: list[float]
    """One figure per seat."""


class Summary(TypedDict):
    rows: list[Row]
    total: str
    """The key of the row that is the game's own score."""


def row(key: str, values: Sequence[float]) -> Row:
    return Row(key=key, values=[float(v) for v in values])


def summary_of(state: Any) -> Summary | None:
    """The summary of ``state``'s game from its ``summary`` module, or None for a game without
    one (a plug-in game, the tests' toys)."""
    import importlib

    mod_name = type(state).__module__.rsplit(".", 1)[0] + ".summary"
    try:
        mod = importlib.import_module(mod_name)
    except ImportError:
        return None
    fn = getattr(mod, "summary", None)
    return None if fn is None else fn(state)


__all__ = ["Row", "Summary", "row", "summary_of"]
