"""Two people at one table in two browser contexts: neither page ever shows the other's hand."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest


def hand_of(page: Any) -> list[str]:
    return list(page.evaluate("(window.sbLast && window.sbLast.view && window.sbLast.view.hand) || []"))


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
    b.click('#join button[data-seat="1"]')
    b.wait_for_selector("body[data-seq]")
    a.wait_for_selector("body[data-seq]")
    rng = random.Random(3)
    moves = 0
    while True:
        # Compare the two pages at the same position: a page that lags a message behind still
        # holds a card the other has played since (public by then).
        a.wait_for_function(
            "s => document.body.dataset.seq === s",
            arg=b.evaluate("document.body.dataset.seq"),
            timeout=30_000,
        )
        b.wait_for_function(
            "s => document.body.dataset.seq === s",
            arg=a.evaluate("document.body.dataset.seq"),
            timeout=30_000,
        )
        for me, other in ((a, b), (b, a)):
            other_hand = hand_of(other)
            html = me.content()
            seen = me.evaluate("JSON.stringify(window.sbLast || {})")
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
