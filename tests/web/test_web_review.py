"""The review page in a real Chromium: a short finished game's review shows its progress, then
the table of decisions (move, played, best, loss, verdict) with the bad ones marked; it is
linked from the end screen, the replay viewer and the recent games; axe-core finds no serious
or critical accessibility violation on it; a running game's review is refused."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_web_hints import AnalysisServer
from test_web_layout import serious_violations


@pytest.fixture(scope="module")
def analysis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AnalysisServer]:
    tmp = tmp_path_factory.mktemp("review-web")
    srv = AnalysisServer(tmp / "tables.sqlite3", tmp / "server.log")
    srv.start()
    yield srv
    srv.stop()


VERDICTS = {"forced", "best", "good", "inaccuracy", "mistake", "blunder"}


def finished_game(url: str, bots: list[str], seed: int | None = None) -> str:
    body: dict[str, Any] = {"game": "toy", "seats": len(bots), "bots": bots, "options": {"hand_size": 4}}
    tid = str(httpx.post(url + "/api/tables", json=body).json()["table"])
    deadline = time.monotonic() + 30
    while httpx.get(f"{url}/api/tables/{tid}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return tid


def test_review_page_shows_progress_then_the_decisions_with_verdicts(
    page: Any,
    analysis_server: AnalysisServer,
    artifacts: Path,
) -> None:
    url = analysis_server.url
    tid = finished_game(url, ["random", "lowest"])
    record = httpx.get(f"{url}/api/tables/{tid}/record").json()
    mine = [i for i, a in enumerate(record["actions"]) if a["seat"] == 1]
    page.goto(f"{url}/review/{tid}?seat=1")
    page.wait_for_function("document.body.dataset.review === 'done'", timeout=60_000)
    progress = page.evaluate("window.sbReviewProgress")
    assert progress, "the page showed no progress before the table"
    assert all(total is None or 0 <= done <= total for done, total in progress)
    assert page.locator("#progress-box").is_hidden()
    rows = page.locator("#review-table tbody tr")
    assert rows.count() == len(mine)
    shown = [int(rows.nth(i).get_attribute("data-index") or -1) for i in range(rows.count())]
    assert shown == mine
    for i in range(rows.count()):
        row = rows.nth(i)
        v = row.get_attribute("data-verdict")
        assert v in VERDICTS
        cells = row.locator("td")
        assert cells.nth(0).text_content() == str(mine[i] + 1)
        assert cells.nth(1).text_content().startswith(record["actions"][mine[i]]["action"])
        if v in ("inaccuracy", "mistake", "blunder"):
            assert cells.nth(1).locator(".mark").count() == 1  # ?!, ? or ??
            assert cells.nth(4).text_content().endswith("%")
    headers = page.eval_on_selector_all("#review-table th", "hs => hs.map(h => h.textContent)")
    assert headers == ["Move", "Played", "Best", "Chance", "Loss", "Verdict"]
    assert "decisions" in (page.text_content("#review-summary") or "")
    page.screenshot(path=str(artifacts / "review-toy.png"), full_page=True)
    problems = serious_violations(page)
    assert not problems, problems
    # A second visit: from the cache at once (no progress at all).
    page.reload()
    page.wait_for_function("document.body.dataset.review === 'done'", timeout=10_000)
    assert page.evaluate("window.sbReviewProgress") == []
    assert not page.js_errors, page.js_errors


def test_review_is_linked_from_the_replay_and_the_recent_games_and_refused_while_running(
    page: Any,
    analysis_server: AnalysisServer,
) -> None:
    url = analysis_server.url
    tid = finished_game(url, ["random", "random"])
    page.goto(f"{url}/replay/{tid}")
    page.wait_for_selector("#review-link:not([hidden])")
    page.select_option("#seat", "1")
    page.wait_for_function("document.getElementById('review-link').href.endsWith('seat=1')")
    page.click("#review-link")
    page.wait_for_url(f"**/review/{tid}?seat=1")
    page.wait_for_function("document.body.dataset.review === 'done'", timeout=60_000)
    page.goto(url + "/")
    page.wait_for_selector(f'#recent tr[data-table="{tid}"] a.review-link')
    # A game that runs: refused, said so.
    live = httpx.post(url + "/api/tables", json={"game": "toy", "seats": 2, "name": "Ann"}).json()["table"]
    page.goto(f"{url}/review/{live}?seat=0")
    page.wait_for_function("document.body.dataset.review === 'refused'")
    assert "over" in (page.text_content("#error") or "")
    assert not page.js_errors, page.js_errors
