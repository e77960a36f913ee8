"""Fuldrigger in a real Chromium: an offer of any sum through the number box, and no ship ever
takes the click meant for a legal square."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def create_from_lobby(page: Any, url: str) -> None:
    """A quick two-seat Fuldrigger table: us in seat 0, a bot in seat 1."""
    page.goto(url + "/")
    page.click('.game[data-game="fuldrigger"]')
    page.check("#quick")
    page.fill("#name", "Tester")
    page.click("#create-btn")
    page.wait_for_url("**/table/**")
    page.wait_for_selector("body[data-seq]")


# Every clickable thing on the map whose centre is covered by something else (a ship over a
# legal square): the click would not reach it.
COVERED = """() => [...document.querySelectorAll('#board svg .clickable')].filter((el) => {
  el.scrollIntoView({block: 'center', inline: 'center'});
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return !(hit && el.contains(hit));
}).map((el) => el.dataset.id)"""

# Ships that cannot be clicked but would still catch clicks (drawn over squares and ports).
CATCHING_SHIPS = """() => [...document.querySelectorAll('#board svg g.ship:not(.clickable)')]
  .filter((el) => getComputedStyle(el).pointerEvents !== 'none').length"""


def to_free_phase(page: Any) -> None:
    """Play our seat's first decisions (home city, negotiation windows) by the first button,
    until our own free phase."""
    for _ in range(60):
        page.wait_for_function("document.body.dataset.myturn === 'true'", timeout=60_000)
        if page.evaluate("window.sbLast.view.phase") == "free":
            return
        seq = page.evaluate("document.body.dataset.seq")
        texts = page.eval_on_selector_all("#actions .action", "els => els.map(e => e.dataset.action)")
        pick = next((t for t in texts if t in ("pass", "home LON", "home AMS")), texts[0])
        page.click(f'#actions .action[data-action="{pick}"]')
        page.wait_for_function(f"document.body.dataset.seq !== '{seq}'", timeout=60_000)
    raise AssertionError("never reached our free phase")


def test_fuldrigger_offer_of_any_sum_by_the_number_box(
    page: Any, quick_server_url: str, artifacts: Path
) -> None:
    create_from_lobby(page, quick_server_url)
    to_free_phase(page)
    # The map: every legal square and ship can be clicked where it is drawn, and the other
    # seat's ships (not ours to click) let clicks through to the squares below them.
    assert page.evaluate("document.querySelectorAll('#board svg g.ship:not(.clickable)').length") >= 3
    assert page.evaluate(CATCHING_SHIPS) == 0
    assert page.evaluate(COVERED) == []
    page.click('#actions .action[data-action="offer 1"]')
    page.wait_for_function("window.sbLast.view.draft && document.body.dataset.myturn === 'true'")
    assert page.evaluate(COVERED) == []
    page.fill("input.fd-cash-give", "37")
    page.click("button.fd-cash-add-give")  # 37 is sent as 'give cash 30', then 'give cash 7'
    page.wait_for_function("window.sbLast.view.draft && window.sbLast.view.draft.from_gives.cash === 37")
    page.fill("input.fd-cash-ask", "9")
    page.click("button.fd-cash-add-ask")
    page.wait_for_function("window.sbLast.view.draft.to_gives.cash === 9")
    page.screenshot(path=str(artifacts / "fuldrigger-draft.png"), full_page=True)
    assert "37" in page.inner_text("#board") and not page.js_errors, page.js_errors
