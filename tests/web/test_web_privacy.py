"""Two people at one table in two browser contexts: neither page ever shows the other's hand."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest


def hand_of(page: Any) -> list[str]:
    return list(page.evaluate("(window.sbLast && window.sbLast.view && window.sbLast.view.hand) || []"))


# The last state message with only this deal's events: a card of the other hand may have been
# played in an earlier deal (public then) and be dealt again (Kasino deals the whole pack anew).
SINCE_THE_DEAL = """(() => {
  const m = window.sbLast || {};
  const events = m.events || [];
  let deal = -1;
  events.forEach((e, i) => { if (e.kind === "deal") deal = i; });
  return JSON.stringify(Object.assign({}, m, {events: events.slice(deal + 1)}));
})()"""


def same_position(a: Any, b: Any) -> None:
    """Wait until both pages show the same seq. One action can bring several state messages
    (a play, then the next deal), so either page may be ahead when we look: wait for the
    laggard to reach the leader (an equality wait on a page already past it never ends)."""
    for _ in range(100):
        sa, sb = (int(p.evaluate("document.body.dataset.seq")) for p in (a, b))
        if sa == sb:
            return
        lead = max(sa, sb)
        for p in (a, b):
            p.wait_for_function("t => Number(document.body.dataset.seq) >= t", arg=lead, timeout=30_000)
    raise AssertionError("the two pages never settled on one position")


def test_two_people_never_see_each_others_hand(browser: Any, server_url: str, artifacts: Path) -> None:
    pytest.importorskip("spillebord.games.kasino")
    # bypass_csp: wait_for_function evaluates strings, which the server's CSP forbids
    # (test_web_csp.py drives the client with the policy enforced).
    a_ctx, b_ctx = browser.new_context(bypass_csp=True), browser.new_context(bypass_csp=True)
    a, b = a_ctx.new_page(), b_ctx.new_page()
    a.goto(server_url + "/")
    a.click('.game[data-game="kasino"]')
    a.check("#quick")
    a.select_option('[data-seat="1"]', "")  # seat 1: a person, not a bot
    a.fill("#name", "Anna")
    a.click("#create-btn")
    a.wait_for_url("**/table/**")
    b.goto(a.url)
    with b.expect_navigation():  # joining reloads the page as the seated person
        b.click('#join button[data-seat="1"]')
    b.wait_for_selector("body[data-seq]")
    a.wait_for_selector("body[data-seq]")
    rng = random.Random(3)
    moves = 0
    while True:
        # Compare the two pages at the same position: a page that lags a message behind still
        # holds a card the other has played since (public by then).
        same_position(a, b)
        for me, other in ((a, b), (b, a)):
            other_hand = hand_of(other)
            html = me.content()
            seen = me.evaluate(SINCE_THE_DEAL)
            for card in other_hand:
                assert f'"{card}"' not in seen, f"{card} of the other hand reached this page"
                assert f'data-id="{card}"' not in html
        if a.evaluate("document.body.dataset.over") == "true":
            break
        mover = a if a.evaluate("document.body.dataset.myturn") == "true" else b
        if mover.evaluate("document.body.dataset.myturn") != "true":
            a.wait_for_timeout(100)
            continue
        seq = mover.evaluate("document.body.dataset.seq")
        buttons = mover.locator("#actions .action")
        buttons.nth(rng.randrange(buttons.count())).click()
        for p in (a, b):
            p.wait_for_function(f"document.body.dataset.seq !== '{seq}'", timeout=30_000)
        moves += 1
        if moves == 6:
            a.screenshot(path=str(artifacts / "privacy-anna.png"), full_page=True)
            b.screenshot(path=str(artifacts / "privacy-bo.png"), full_page=True)
        assert moves < 2000
    a.wait_for_selector("#final-result")
    b.wait_for_selector("#final-result")
    a_ctx.close()
    b_ctx.close()
