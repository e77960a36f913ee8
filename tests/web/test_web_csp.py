"""The web client under the server's Content-Security-Policy, enforced: every game's table is
drawn and played for a few moves with nothing refused, the token never appears in a URL, and
the table page shows the deal's commitment."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_web_games import GAMES


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_table_works_under_the_csp(strict_page: Any, server_url: str, game: Any) -> None:
    page = strict_page
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(server_url + "/")
    page.click(f'.game[data-game="{game.id}"]')
    page.check("#quick")
    page.click("#create-btn")
    page.wait_for_url("**/table/**")
    page.wait_for_selector("body[data-seq]")
    page.wait_for_selector("#board > *")
    tid = page.url.rsplit("/", 1)[1]
    commitment = httpx.get(f"{server_url}/api/tables/{tid}").json()["commitment"]
    assert page.text_content("#commitment") == commitment and len(commitment) == 64
    # A few moves through the list (the waits here use selectors, which the CSP allows).
    for _ in range(3):
        if page.get_attribute("body", "data-over") == "true":
            break
        page.wait_for_selector("body[data-myturn='true'], body[data-over='true']", timeout=60_000)
        if page.get_attribute("body", "data-over") == "true":
            break
        seq = page.get_attribute("body", "data-seq")
        page.locator("#actions .action").first.click()
        page.wait_for_selector(f"body:not([data-seq='{seq}'])", timeout=60_000)
    token = page.evaluate(f"JSON.parse(localStorage.getItem('sb:token:{tid}')).token")
    assert sockets and all(token not in u and "token" not in u for u in sockets), sockets
    assert not page.csp_errors, page.csp_errors
    assert not page.js_errors, page.js_errors


def test_rules_replay_and_leaderboard_pages_work_under_the_csp(strict_page: Any, server_url: str) -> None:
    page = strict_page
    page.goto(server_url + "/rules/kasino")
    page.wait_for_selector("h1, h2")
    assert "Kasino" in (page.text_content("body") or "")
    created = httpx.post(f"{server_url}/api/tables", json={"game": "kasino", "bots": [None, "random"]}).json()
    page.goto(f"{server_url}/replay/{created['table']}")
    page.wait_for_load_state("networkidle")
    page.goto(server_url + "/leaderboard")
    page.wait_for_load_state("networkidle")
    assert not page.csp_errors, page.csp_errors
    assert not page.js_errors, page.js_errors
