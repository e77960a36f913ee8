"""Every game, created from the lobby and played to its end through clicks in a real Chromium."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from spillebord.core import registry

# The games the server knows: packages of spillebord.games (not test games registered in-process).
GAMES = [g for g in registry.all_games() if type(g).__module__.startswith("spillebord.games.")]


def create_from_lobby(page: Any, url: str, game_id: str, seats: int | None = None) -> None:
    page.goto(url + "/")
    page.click(f'.game[data-game="{game_id}"]')
    if seats is not None:
        page.select_option("#seats", str(seats))
    page.check("#quick")
    page.fill("#name", "Tester")
    page.click("#create-btn")
    page.wait_for_url("**/table/**")
    page.wait_for_selector("body[data-seq]")


def play_by_clicks(page: Any, rng: random.Random, artifacts: Path, name: str, limit: int = 3000) -> int:
    """Play our seat by clicking: on the board where a click settles the move, else in the list."""
    moves = 0
    shot = False
    while True:
        page.wait_for_function(
            "document.body.dataset.over === 'true' || document.body.dataset.myturn === 'true'", timeout=60_000
        )
        if page.evaluate("document.body.dataset.over") == "true":
            break
        seq = page.evaluate("document.body.dataset.seq")
        clickable = page.locator("#board .clickable")
        n = clickable.count()
        if n and rng.random() < 0.6:
            clickable.nth(rng.randrange(n)).click()  # may settle the move, or narrow the list
        sent = page.evaluate(
            f"document.body.dataset.pending === 'true' || document.body.dataset.seq !== '{seq}'"
        )
        if not sent:
            buttons = page.locator("#actions .action")
            buttons.nth(rng.randrange(buttons.count())).click()
        page.wait_for_function(f"document.body.dataset.seq !== '{seq}'", timeout=60_000)
        moves += 1
        if not shot and moves >= 3:
            page.screenshot(path=str(artifacts / f"{name}-midgame.png"), full_page=True)
            shot = True
        assert moves < limit, "the game did not end"
    return moves


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_play_a_whole_game_in_the_browser(
    page: Any, quick_server_url: str, artifacts: Path, game: Any
) -> None:
    create_from_lobby(page, quick_server_url, game.id)
    play_by_clicks(page, random.Random(game.id), artifacts, game.id)
    page.wait_for_selector("#final-result")
    page.screenshot(path=str(artifacts / f"{game.id}-final.png"), full_page=True)
    assert page.locator("#final-result tr").count() >= game.seats.start
    # The game's own end summary, its counted row beside the names.
    page.wait_for_selector("#summary tr.total")
    assert page.locator("#summary tr[data-key]").count() >= 1
    assert not page.js_errors, page.js_errors


def test_lobby_lists_every_game_with_a_picture(page: Any, server_url: str, artifacts: Path) -> None:
    page.goto(server_url + "/")
    page.wait_for_selector(".game")
    ids = page.eval_on_selector_all(".game", "els => els.map(e => e.dataset.game)")
    assert set(ids) == {g.id for g in GAMES}
    page.click(f'.game[data-game="{GAMES[0].id}"]')
    assert page.locator("#options .option").count() >= 1
    page.screenshot(path=str(artifacts / "lobby.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "lobby-phone.png"), full_page=True)
    assert not page.js_errors, page.js_errors
