"""Partners: the terminal picture draws every phase without errors and shows the hand."""

from __future__ import annotations

from rich.console import Console

from spillebord.core import Rng
from spillebord.games.partners import GAME, PartnersState
from spillebord.games.partners.render import render
from spillebord.testing import random_walk


def _text(view: dict[str, object], seat: int | None) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(render(view, seat))
    return console.export_text()


def test_render_random_positions() -> None:
    rng = Rng(4)
    phases = set()
    for s in random_walk(GAME, 4, 12, check=False):
        assert isinstance(s, PartnersState)
        if s.to_act is None:
            break
        if s.phase not in phases or rng.random() < 0.03:
            seat = s.to_act
            out = _text(s.view(seat), seat)
            assert "Partners" in out and "Hand:" in out
            assert "▲" in out or any(s.pos[c][-1] == c * 15 for c in range(4))
            _text(s.view(None), None)
            phases.add(s.phase)
    assert "Game over" in _text(s.view(0), 0)
    assert {"exchange", "play"} <= phases
