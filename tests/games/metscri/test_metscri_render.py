"""The Metscri terminal picture draws every view (seat and spectator) readably."""

from __future__ import annotations

import json

from rich.console import Console

from spillebord.core import Rng
from spillebord.games.metscri import GAME, MetscriOptions
from spillebord.games.metscri.render import card_text, render


def _draw(view: dict[str, object], seat: int | None) -> str:
    console = Console(width=110, record=True, color_system=None)
    console.print(render(view, seat))
    return console.export_text()


def test_render_board_hand_and_known_cards() -> None:
    s = GAME.new(3, 4, MetscriOptions(target=8, max_rounds=3))
    rng = Rng(3)
    while s.to_act is not None:
        for seat in (None, 0, 1, 2):
            v = s.view(seat)
            json.dumps(v)
            text = _draw(v, seat)
            assert "r3" in text and "c6" in text and "buy" in text
            if seat is not None:
                assert "Your hand" in text
            for name, sq in v["board"].items():  # type: ignore[union-attr]
                for entry in sq["cards"][-1:]:
                    if entry["card"] and entry["up"]:
                        assert card_text(entry["card"], True).plain in text, name
        s.play(rng.choice(s.legal()))
    assert "Game over" in _draw(s.view(None), None)


def test_card_text_forms() -> None:
    assert card_text("9Ha", True).plain == "[9♥]"
    assert card_text("10Cb", False).plain == "(10♣)"
    assert card_text(None, False).plain == "[##]"
