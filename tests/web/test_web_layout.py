"""Every game fits the screen: at 1280×800 and at 390×844 (a phone), on our turn, the turn
indicator, an action and something to click on the board are inside the viewport without
scrolling; the board is labelled for screen readers; axe-core finds no serious or critical
accessibility violation. Screenshots of every game at both sizes go to test-artifacts/layout/."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_web_games import GAMES, create_from_lobby

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}

IN_VIEW = """sel => {
  const vw = innerWidth, vh = innerHeight;
  return [...document.querySelectorAll(sel)].some(el => {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) return false;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x > vw || y > vh) return false;
    const top = document.elementFromPoint(x, y);
    return !!top && (el === top || el.contains(top) || top.contains(el));
  });
}"""


def serious_violations(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))"
    )
    return list(result)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_hand_and_controls_fit_the_screen(page: Any, server_url: str, artifacts: Path, game: Any) -> None:
    out = artifacts / "layout"
    out.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    create_from_lobby(page, server_url, game.id)
    page.wait_for_function("document.body.dataset.myturn === 'true'", timeout=60_000)
    problems = []
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(150)
        page.screenshot(path=str(out / f"{game.id}-{size}.png"))
        checks = (("turn", "#turn"), ("an action", "#actions .action"), ("the board", "#board .clickable"))
        for what, sel in checks:
            if what == "the board" and page.locator(sel).count() == 0:
                continue  # nothing on the board to click at this decision (a list choice)
            if not page.evaluate(IN_VIEW, sel):
                problems.append(f"{size}: {what} ({sel}) is not in the viewport")
    assert page.get_attribute("#board", "aria-label"), "the board has no label for screen readers"
    if page.evaluate("Number(document.body.dataset.seq)") > 0:
        # The last move is marked: said above the board (and marked on it where it names a place).
        assert page.inner_text("#last-move").strip(), "no last move shown"
    assert not problems, problems
    violations = serious_violations(page)
    assert not violations, violations
    assert not page.js_errors, page.js_errors


COVERED = """() => [...document.querySelectorAll('.fuldrigger-map .clickable')].filter(el => {
  const r = el.getBoundingClientRect();
  if (!r.width || r.bottom < 0 || r.top > innerHeight) return false;
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !(top && (el.contains(top) || top.closest('.clickable')));
}).map(el => {
  const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const g = top && top.closest('g');
  return el.dataset.id + ' under ' + (g ? g.outerHTML.slice(0, 160) : top && top.outerHTML.slice(0, 120));
})"""


TOPMOST = """() => [...document.querySelectorAll('.fuldrigger-map .clickable')].map((el, i) => {
  const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top && el.contains(top) && top.closest('.clickable') === el ? i : -1;
}).filter(i => i >= 0)"""


def test_fuldrigger_ships_never_swallow_a_click_on_a_legal_square(
    page: Any, quick_server_url: str, artifacts: Path
) -> None:
    """Whatever stands on a legal square (a ship, a label), a click on it reaches the square."""
    import random

    page.set_viewport_size({"width": 1600, "height": 1300})
    create_from_lobby(page, quick_server_url, "fuldrigger")
    rng = random.Random(11)
    checked = 0
    for _ in range(24):
        page.wait_for_function(
            "document.body.dataset.over === 'true' || document.body.dataset.myturn === 'true'", timeout=60_000
        )
        if page.evaluate("document.body.dataset.over") == "true":
            break
        covered = page.evaluate(COVERED)
        assert not covered, f"clicks on {covered} land on something else"
        checked += page.locator(".fuldrigger-map .clickable").count()
        seq = page.evaluate("document.body.dataset.seq")
        # Click one that is on top at its centre (a clickable ship on a legal square is a choice
        # of its own: the fuldrigger renderer decides which of the two a click means).
        free = page.evaluate(TOPMOST)
        if free and rng.random() < 0.7:
            page.locator(".fuldrigger-map .clickable").nth(rng.choice(free)).click()
        unsent = f"document.body.dataset.pending !== 'true' && document.body.dataset.seq === '{seq}'"
        if page.evaluate(unsent):
            buttons = page.locator("#actions .action")
            buttons.nth(rng.randrange(buttons.count())).click()
        page.wait_for_function(f"document.body.dataset.seq !== '{seq}'", timeout=60_000)
    page.screenshot(path=str(artifacts / "layout" / "fuldrigger-ships.png"))
    assert checked > 0
    assert not page.js_errors, page.js_errors


SHOWN_THOUGH_HIDDEN = (
    "() => [...document.querySelectorAll('[hidden]')]"
    ".filter(e => getComputedStyle(e).display !== 'none').map(e => e.outerHTML.slice(0, 100))"
)


def test_what_is_hidden_stays_hidden_on_every_page(page: Any, server_url: str) -> None:
    # `.button { display: inline-block }` beat the `hidden` attribute: an unfinished game's
    # replay offered its review (in English), and empty boxes took room at the table.
    import httpx

    create_from_lobby(page, server_url, "kasino")
    table = page.url
    pages = {"table, seated at the start": table}
    t = httpx.post(server_url + "/api/tables", json={"game": "kasino", "bots": ["greedy", "random"]}).json()
    pages["table, watching"] = f"{server_url}/table/{t['table']}"
    pages["replay of a game still running"] = f"{server_url}/replay/{t['table']}"
    pages["review of a game still running"] = f"{server_url}/review/{t['table']}?seat=0"
    pages["lobby"] = server_url + "/"
    for name, url in pages.items():
        page.goto(url)
        page.wait_for_load_state("networkidle")
        assert page.evaluate(SHOWN_THOUGH_HIDDEN) == [], name
    page.goto(pages["replay of a game still running"])
    page.wait_for_load_state("networkidle")
    assert not page.is_visible("#review-link")
    assert not page.js_errors, page.js_errors
