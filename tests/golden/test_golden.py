"""Golden playthroughs: every game replays its recorded playthrough identically.

A failure here is either a bug or a deliberate new engine version: then raise the game's
``version`` and write the file again (``python -m spillebord.testing.golden --write GAME``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spillebord.core import registry
from spillebord.testing import golden

FILES = sorted(Path(__file__).parent.glob("*.jsonl"))


def test_every_game_has_a_playthrough() -> None:
    have = {golden.read_header(p)["game"] for p in FILES}
    shipped = {g.id for g in registry.all_games() if type(g).__module__.startswith("spillebord.games.")}
    assert have >= shipped


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_playthrough_replays_identically(path: Path) -> None:
    message = golden.compare(path)
    assert message is None, message


def test_a_changed_engine_shows_as_a_diff(tmp_path: Path) -> None:
    # The comparison must be able to fail: alter one recorded action's events.
    src = next(p for p in FILES if golden.read_header(p)["game"] == "kasino")
    lines = src.read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3].replace('"events":[', '"events":[{"kind":"invented"},', 1)
    bad = tmp_path / src.name
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    message = golden.compare(bad)
    assert message is not None and "line 4" in message and "events" in message
