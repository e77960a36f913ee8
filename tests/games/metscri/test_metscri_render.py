"""The Metscri terminal picture draws every view (seat and spectator) readably."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console

from spillebord.games.metscri import GAME
from spillebord.games.metscri.render import card_text, render
from spillebord.testing import random_walk


def _draw(view: dict[str, Any], seat: int | None) -> str:
    console = Console(width=110, record=True, color_system=None)
    console.print(render(view, seat))
    return console.export_text()


def test_render_board_hand_and_known_cards() -> None:
    s = None
    for s in random_walk(GAME, 3, 4, {"target": 8, "max_rounds": 3}):
        for seat in (None, 0, 1, 2):
            v = s.view(seat)
            json.dumps(v)
            text = _draw(v, seat)
            assert "r3" in text and "c6" in text and "buy" in text
            if seat is not None:
                assert "Your hand" in text
            for name, sq in v["board"].items():
                for entry in sq["cards"][-1:]:
                    if entry["card"] and entry["up"]:
                        assert card_text(entry["card"], True).plain in text, name
    assert s is not None and s.to_act is None
    assert "Game over" in _draw(s.view(None), None)


def test_card_text_forms() -> None:
    assert card_text("9Ha", True).plain == "[9♥]"
    assert card_text("10Cb", False).plain == "(10♣)"
    assert card_text(None, False).plain == "[##]"
