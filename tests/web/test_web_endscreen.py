"""The end screen in a real Chromium: the game's own scores, who won (from the outcome), a
truncated game said to be so, and a stored table of another engine version explained.

A server of its own with the toy games registered (the other browser tests serve only the
real games)."""

from __future__ import annotations

import random
import sqlite3
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_web_games import create_from_lobby, play_by_clicks
from webserver import TESTS, LoopbackServer


class ToyServer(LoopbackServer):
    args = (
        *["--bot-delay", "0", "--log-level", "warning"],
        *["--register", f"{TESTS}:toygame:TOY", "--register", f"{TESTS / 'web'}:webtoys:TRUNC"],
    )


@pytest.fixture()
def toy_server(tmp_path: Path) -> Iterator[ToyServer]:
    srv = ToyServer(tmp_path / "toys.sqlite3", tmp_path / "server.log")
    srv.start()
    yield srv
    srv.stop()


def final_rows(page: Any) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#final-result tr", "rows => rows.map(r => [...r.children].map(c => c.textContent))"
    )


@pytest.mark.parametrize("game", ["toy", "toytrunc"])
def test_end_screen_shows_scores_and_the_winner(
    page: Any, toy_server: ToyServer, artifacts: Path, game: str
) -> None:
    create_from_lobby(page, toy_server.url, game)
    play_by_clicks(page, random.Random(7), artifacts, f"endscreen-{game}")
    page.wait_for_selector("#final-result")
    page.screenshot(path=str(artifacts / f"endscreen-{game}.png"), full_page=True)
    last = page.evaluate("window.sbLast")
    header, *rows = final_rows(page)
    assert len(rows) == 2 and header[:2] == ["Players", "Score"]
    # The game's own numbers (tricks), and the stars where the outcome says so.
    assert [float(r[1]) for r in rows] == last["scores"]
    for r, o in zip(rows, last["outcome"], strict=True):
        assert ("★" in r[2]) == (o > 0)
    verdict = page.text_content("#verdict")
    assert verdict.startswith("Won by" if max(last["outcome"]) == 1 else "A draw between")
    assert page.locator("#truncated").count() == (1 if game == "toytrunc" else 0)
    if game == "toytrunc":
        assert last["truncated"] is True and "decision bound" in page.text_content("#truncated")
    assert "result" not in last
    assert not page.js_errors, page.js_errors


def test_a_table_of_another_engine_version_is_explained(
    page: Any, toy_server: ToyServer, artifacts: Path
) -> None:
    base = toy_server.url
    live = httpx.post(base + "/api/tables", json={"game": "toy", "seats": 2, "name": "Ann"}).json()["table"]
    done = httpx.post(
        base + "/api/tables", json={"game": "toy", "seats": 2, "bots": ["random", "greedy"]}
    ).json()
    deadline = time.monotonic() + 20
    while httpx.get(f"{base}/api/tables/{done['table']}").json()["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    toy_server.stop()
    with sqlite3.connect(toy_server.db) as c:
        c.execute("UPDATE sb_tables SET engine = engine + 1")
    c.close()
    toy_server.start()
    page.goto(f"{base}/table/{live}")
    page.wait_for_selector("#unavailable")
    assert "engine version 2" in page.text_content("#unavailable")
    page.goto(f"{base}/table/{done['table']}")
    page.wait_for_selector("#final-result")
    assert "engine version 2" in page.text_content("#unavailable")
    page.screenshot(path=str(artifacts / "endscreen-archived.png"), full_page=True)
    assert len(final_rows(page)) == 3
    assert not page.js_errors, page.js_errors
