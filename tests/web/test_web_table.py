"""The table people come back to, in a real Chromium: names instead of seats, a whole game in
Danish with no English game text, the game's own end summary, rematch, the log after a reload,
the replay viewer and the rules pages."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from test_web_games import create_from_lobby

# English words of Kasino's table that a Danish page must not show (its own terms, "sidsten",
# "svup", "Bordet", stay in the original on purpose).
ENGLISH = [
    "trails", "takes", "builds", "raise", "Round", "round ", "hand ", "stock", "pts", "points", "dealer",
    "cards", "Cards", "Spades", "Aces", "Sweeps", "Game over", "Winner", "Won by", "Your turn", "Waiting",
    "Last move", "Match points", "table is empty", "target", "player", "seat", "Seat", "Greedy", "Random",
    "(bot)", "you)", "Rematch", "Replay", "Rules", "New table", "Score", "Players",
]  # fmt: skip


def texts_of(page: Any) -> str:
    return str(page.evaluate(
        "() => ['board', 'turn', 'result', 'players', 'actions', 'log', 'last-move']"
        ".map(id => document.getElementById(id).innerText).join('\\n')"
    ))  # fmt: skip


def test_a_whole_kasino_game_in_danish_then_rematch_reload_and_replay(
    danish: Any, quick_server_url: str, artifacts: Path
) -> None:
    page = danish
    server_url = quick_server_url
    create_from_lobby(page, server_url, "kasino")
    table = page.url.rsplit("/", 1)[1]
    seen: set[str] = set()
    rng = random.Random(4)
    moves = 0
    while page.evaluate("document.body.dataset.over") != "true" and moves < 400:
        page.wait_for_function(
            "document.body.dataset.over === 'true' || document.body.dataset.myturn === 'true'", timeout=60_000
        )
        text = texts_of(page)
        seen |= {w for w in ENGLISH if w in text}
        if page.evaluate("document.body.dataset.over") == "true":
            break
        seq = page.evaluate("document.body.dataset.seq")
        buttons = page.locator("#actions .action")
        buttons.nth(rng.randrange(buttons.count())).click()
        page.wait_for_function(f"document.body.dataset.seq !== '{seq}'", timeout=60_000)
        moves += 1
    page.wait_for_selector("#summary")
    text = texts_of(page)
    seen |= {w for w in ENGLISH if w in text}
    page.screenshot(path=str(artifacts / "kasino-da-final.png"), full_page=True)
    assert not seen, f"English on the Danish page: {sorted(seen)}"
    # People, not seats: my name, and the bot's persona with its level, in Danish.
    players = page.inner_text("#players")
    assert "Tester (dig)" in players and re.search(r"\w+ \w+ \(robot\)", players), players
    assert "Spillet er slut" in page.inner_text("#turn")
    # The game's own summary: Kasino's categories under Danish labels, the totals as the scores.
    rows = page.eval_on_selector_all("#summary tr[data-key]", "rs => rs.map(r => r.dataset.key)")
    assert rows == ["cards", "spades", "aces", "big_casino", "little_casino", "sweeps", "total"]
    assert "Spar" in page.inner_text("#summary") and "Svup" in page.inner_text("#summary")
    last = page.evaluate("window.sbLast")
    totals = page.eval_on_selector_all("#summary tr.total td", "tds => tds.map(t => Number(t.textContent))")
    assert totals == last["scores"]
    # A reload keeps the whole log.
    before = page.eval_on_selector_all("#log li", "ls => ls.map(l => l.innerText)")
    page.reload()
    page.wait_for_selector("#summary")
    after = page.eval_on_selector_all("#log li", "ls => ls.map(l => l.innerText)")
    assert after == before and len(after) >= last["seq"]
    assert page.eval_on_selector("#log li", "l => l.dataset.seq") == str(last["seq"])
    # The replay viewer steps the finished game, as a spectator and as my seat.
    page.goto(f"{server_url}/replay/{table}")
    page.wait_for_selector("body[data-step='0']")
    page.click("#next")
    page.wait_for_selector("body[data-step='1']")
    assert page.inner_text("#last-move").strip()
    page.click("#last")
    page.wait_for_selector(f"body[data-step='{last['seq']}']")
    page.select_option("#seat", "0")
    page.click("#first")
    page.wait_for_selector("body[data-step='0']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-step='1']")
    page.screenshot(path=str(artifacts / "kasino-replay.png"), full_page=True)
    # Rematch: the same seats at a new table, one click.
    page.goto(f"{server_url}/table/{table}")
    page.click("#rematch")
    page.wait_for_url(re.compile(r".*/table/(?!" + re.escape(table) + r"$)[^/]+$"))
    page.wait_for_selector("body[data-seq]")
    new = page.url.rsplit("/", 1)[1]
    assert new != table
    old_info = httpx.get(f"{server_url}/api/tables/{table}").json()
    new_info = httpx.get(f"{server_url}/api/tables/{new}").json()
    assert [(p["name"], p["bot"]) for p in new_info["players"]] == [
        (p["name"], p["bot"]) for p in old_info["players"]
    ]
    assert page.evaluate("window.sbLast.seat") == 0
    assert not page.js_errors, page.js_errors


def test_names_in_players_log_and_prompts(page: Any, server_url: str) -> None:
    """Two bots of one level are told apart; the log speaks of people; joining asks a name."""
    page.goto(server_url + "/")
    page.click('.game[data-game="kasino"]')
    page.select_option("#seats", "3")
    page.select_option('#seat-kinds select[data-seat="1"]', "greedy")
    page.select_option('#seat-kinds select[data-seat="2"]', "greedy")
    page.fill("#name", "Ann")
    page.click("#create-btn")
    page.wait_for_url("**/table/**")
    # The server draws the deal, so Ann may be first to act (an empty log): then she plays.
    page.wait_for_selector("#log li, body[data-myturn='true']", timeout=30_000)
    if not page.query_selector("#log li"):
        page.locator("#actions .action").first.click()
    page.wait_for_function("document.querySelectorAll('#log li').length > 0", timeout=30_000)
    names = page.eval_on_selector_all("#players .player", "ps => ps.map(p => p.innerText)")
    assert names[0].startswith("Ann (you)")
    assert "(bot)" in names[1] and "(bot)" in names[2] and names[1] != names[2], names
    log = page.inner_text("#log")
    assert "seat 0" not in log.lower() and ("Ann" in log or "(bot)" in log), log
    # A table with a free seat: the visitor is asked a name before taking it.
    t = httpx.post(f"{server_url}/api/tables", json={"game": "kasino", "seats": 2, "name": "Bea"}).json()
    page.goto(f"{server_url}/table/{t['table']}")
    page.wait_for_selector("#join-name")
    page.fill("#join-name", "Carl")
    page.click('#join button[data-seat="1"]')
    page.wait_for_function("window.sbLast && window.sbLast.seat === 1", timeout=30_000)
    page.wait_for_function("document.getElementById('players').innerText.includes('Carl (you)')")
    assert "Bea" in page.inner_text("#players")
    if page.evaluate("document.body.dataset.myturn") != "true":
        assert "Bea" in page.inner_text("#turn")
    assert not page.js_errors, page.js_errors


def test_rules_pages_linked_from_lobby_and_table(page: Any, server_url: str, artifacts: Path) -> None:
    page.goto(server_url + "/")
    page.wait_for_selector(".rules-of")
    assert page.locator(".rules-of").count() == 7
    page.click('.rules-of[data-rules="touche"]')
    page.wait_for_selector("#rules h1")
    assert "Touché" in page.inner_text("#rules h1")
    page.screenshot(path=str(artifacts / "rules-touche.png"))
    t = httpx.post(f"{server_url}/api/tables", json={"game": "revir", "seats": 2, "name": "Ann"}).json()
    page.goto(f"{server_url}/table/{t['table']}")
    page.wait_for_selector("body[data-seq]")
    assert page.get_attribute("#rules-link", "href") == "/rules/revir"
    assert not page.js_errors, page.js_errors


def test_keyboard_focus_and_the_tab_title_follow_the_turn(page: Any, server_url: str) -> None:
    """Acting from the keyboard keeps the focus in the controls across updates, and the tab
    title says when it is my turn."""
    create_from_lobby(page, server_url, "kasino")
    for _ in range(3):
        page.wait_for_function("document.body.dataset.myturn === 'true'", timeout=60_000)
        assert "Your turn" in page.title()
        seq = page.evaluate("document.body.dataset.seq")
        page.focus("#actions .action")
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.body.dataset.seq !== '{seq}'", timeout=60_000)
        page.wait_for_function(
            "document.body.dataset.over === 'true' || document.body.dataset.myturn === 'true'", timeout=60_000
        )
        if page.evaluate("document.body.dataset.over") == "true":
            break
        focused = page.evaluate("document.activeElement.closest('#actions, #board, #turn') !== null")
        assert focused, page.evaluate("document.activeElement.outerHTML.slice(0, 200)")
    assert page.locator("#sound").count() == 1
    assert not page.js_errors, page.js_errors
