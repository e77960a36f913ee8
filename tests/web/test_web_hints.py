"""Hints in a real Chromium: on a table with a bot, "Hint" shows three moves with their
chances of winning and marks the suggested one in the list of moves, by mouse and by keyboard,
and the table plays on; a table whose creator switched hints off in the lobby has no button
and the server refuses.

A server of its own (small search budgets, the toy game registered)."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_web_games import create_from_lobby
from webserver import TESTS, LoopbackServer

SMALL = ["--hint-iterations", "150", "--review-iterations", "60", "--review-samples", "8"]


class AnalysisServer(LoopbackServer):
    """With small hint and review budgets and the toy game registered."""

    args = (
        *["--bot-delay", "0", "--bot-only-delay", "0", "--log-level", "warning", *SMALL],
        *["--creates-per-minute", "1000", "--open-tables", "1000"],
        *["--register", f"{TESTS}:toygame:TOY"],
    )


@pytest.fixture(scope="module")
def analysis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AnalysisServer]:
    tmp = tmp_path_factory.mktemp("analysis-web")
    srv = AnalysisServer(tmp / "tables.sqlite3", tmp / "server.log")
    srv.start()
    yield srv
    srv.stop()


def seat_token(page: Any, table: str) -> dict[str, Any]:
    return page.evaluate(f"JSON.parse(localStorage.getItem('sb:token:{table}'))")  # type: ignore[no-any-return]


def body_data(page: Any) -> dict[str, str]:
    """The page's over, seq and myturn in one read: table.js sets them together for each state,
    but the bot answers within milliseconds (bot delay 0), so separate reads can straddle a
    state (over read at one, seq at the final one: a wait for a seq that never comes)."""
    return page.evaluate("({...document.body.dataset})")  # type: ignore[no-any-return]


def table_id(page: Any) -> str:
    return str(page.url.rstrip("/").rsplit("/", 1)[-1])


def test_hint_shows_three_moves_with_chances_and_the_table_plays_on(
    page: Any, analysis_server: AnalysisServer, artifacts: Path
) -> None:
    create_from_lobby(page, analysis_server.url, "toy")
    page.wait_for_function("document.body.dataset.myturn === 'true'", timeout=30_000)
    page.wait_for_selector("#hint-btn", state="visible")
    seq = page.evaluate("document.body.dataset.seq")
    page.click("#hint-btn")
    page.wait_for_selector("#hint-list li", timeout=30_000)
    items = page.locator("#hint-list li")
    assert items.count() == 3
    texts = [items.nth(i).text_content() or "" for i in range(3)]
    assert all(re.search(r"\b\d{1,3}%", x) for x in texts), texts
    suggested = items.nth(0).get_attribute("data-action")
    legal = page.evaluate("window.sbLast.legal.map(a => a.text)")
    assert {items.nth(i).get_attribute("data-action") for i in range(3)} <= set(legal)
    hinted = page.locator("#actions .action.hinted")
    assert hinted.count() == 1 and hinted.get_attribute("data-action") == suggested
    page.screenshot(path=str(artifacts / "hint-toy.png"), full_page=True)
    # The page stays usable: play the suggested move; the table moves on and the hint goes.
    hinted.click()
    page.wait_for_function(f"document.body.dataset.seq !== '{seq}'", timeout=30_000)
    page.wait_for_function("!document.querySelector('#hint-list')", timeout=10_000)
    assert page.locator("#actions .action.hinted").count() == 0
    # By keyboard: "?" at our next turn (or the button with Enter) asks again.
    page.wait_for_function(
        "document.body.dataset.myturn === 'true' || document.body.dataset.over === 'true'", timeout=30_000
    )
    if page.evaluate("document.body.dataset.myturn") == "true":
        page.focus("#hint-btn")
        page.keyboard.press("Enter")
        page.wait_for_selector("#hint-list li", timeout=30_000)
        n = len(page.evaluate("window.sbLast.legal"))
        assert page.locator("#hint-list li").count() == min(3, n)
    # Played to its end, the end screen links to this seat's review.
    while (data := body_data(page))["over"] != "true":
        if data["myturn"] == "true":
            page.locator("#actions .action").first.click()
        page.wait_for_function(f"document.body.dataset.seq !== '{data['seq']}'", timeout=30_000)
    link = page.wait_for_selector("#review-link")
    seat = seat_token(page, table_id(page))["seat"]
    assert link.get_attribute("href") == f"/review/{table_id(page)}?seat={seat}"
    assert not page.js_errors, page.js_errors


def test_a_table_with_hints_off_shows_no_button_and_the_server_refuses(
    page: Any, analysis_server: AnalysisServer
) -> None:
    page.goto(analysis_server.url + "/")
    page.click('.game[data-game="toy"]')
    page.uncheck("#hints")
    page.fill("#name", "Tester")
    page.click("#create-btn")
    page.wait_for_url("**/table/**")
    page.wait_for_function("document.body.dataset.myturn === 'true'", timeout=30_000)
    page.wait_for_selector("#hints-off")
    assert page.locator("#hint-btn").count() == 0
    page.keyboard.press("?")
    page.wait_for_timeout(200)
    assert page.locator("#hint-list").count() == 0
    tid = table_id(page)
    tok = seat_token(page, tid)
    r = httpx.post(f"{analysis_server.url}/api/tables/{tid}/hint", json={"token": tok["token"]})
    assert r.status_code == 403 and "off" in r.json()["detail"]
    assert not page.js_errors, page.js_errors


def test_hint_and_review_work_under_the_csp(strict_page: Any, analysis_server: AnalysisServer) -> None:
    page = strict_page
    url = analysis_server.url
    create_from_lobby(page, url, "toy")
    page.wait_for_selector('body[data-myturn="true"] #hint-btn', state="visible", timeout=30_000)
    page.click("#hint-btn")
    page.wait_for_selector("#hint-list li", timeout=30_000)
    assert page.locator("#actions .action.hinted").count() == 1
    done = httpx.post(url + "/api/tables", json={"game": "toy", "seats": 2, "bots": ["random", "random"]})
    tid = done.json()["table"]
    deadline = time.monotonic() + 30
    while httpx.get(f"{url}/api/tables/{tid}").json()["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    page.goto(f"{url}/review/{tid}?seat=0")
    page.wait_for_selector('body[data-review="done"] #review-table', timeout=60_000)
    assert not page.csp_errors, page.csp_errors
    assert not page.js_errors, page.js_errors
