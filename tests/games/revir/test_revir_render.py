"""The Revir terminal picture draws the farm, the clock, the players and a fight."""

from __future__ import annotations

from rich.console import Console

from spillebord.games.revir import GAME, Bid, Fight, Stay, build_position
from spillebord.games.revir.render import render


def text_of(view: dict[str, object], seat: int | None) -> str:
    console = Console(width=140, record=True, color_system=None)
    console.print(render(view, seat))
    return console.export_text()


def test_render_shows_farm_clock_and_players() -> None:
    s = GAME.new(3, 1)
    out = text_of(s.view(0), 0)
    for word in ("GP Gårdsp", "KA Källar", "Kortklockan", "husdörren", "P1 (you)", "bank", "🐈1"):
        assert word in out


def test_render_fight_hides_the_pending_bid() -> None:
    s = build_position(visible=("E14",), cats={0: "LO", 1: "GP"}, owners={"LO": 1}, stones=(9, 9))
    s.play(Stay())
    s.play(Fight("LO"))
    s.play(Bid(7))
    assert "[hidden]" in text_of(s.view(1), 1)
    assert "(7)" in text_of(s.view(0), 0)
    assert "door open" in text_of(s.view(None), None)
