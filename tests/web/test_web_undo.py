"""Undo in a real Chromium: in Fuldrigger a ship sails one square, the Undo button (and Ctrl+Z)
takes the step back, and the ship is where it was; no Undo where nothing may be taken back."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from test_web_fuldrigger import create_from_lobby, to_free_phase

# A sail step onto a square without a hazard (no die is rolled): the engine calls it reversible.
CALM_SAIL = """() => (window.sbLast.legal || []).filter((a) => a.json.kind === 'sail'
  && !/\\((?!port\\))/.test(a.label)).map((a) => a.text)"""


def ship_at(page: Any, sid: str) -> str:
    return str(page.evaluate(f"window.sbLast.view.ships.find((s) => s.id === '{sid}').at"))


def step(page: Any, text: str) -> None:
    seq = page.evaluate("document.body.dataset.seq")
    page.click(f'#actions .action[data-action="{text}"]')
    page.wait_for_function(f"document.body.dataset.seq !== '{seq}' && !document.body.dataset.pending")


def test_fuldrigger_sail_a_square_and_undo_it(page: Any, server_url: str, artifacts: Path) -> None:
    acts: list[dict[str, Any]] = []  # the act messages the client sends

    def on_frame(payload: str | bytes) -> None:
        if isinstance(payload, str) and '"act"' in payload:
            acts.append(json.loads(payload))

    page.on("websocket", lambda ws: ws.on("framesent", on_frame))
    create_from_lobby(page, server_url)
    to_free_phase(page)
    assert page.is_hidden("#undo")  # nothing of this turn to take back yet
    calm = page.evaluate(CALM_SAIL)
    assert calm, page.evaluate("window.sbLast.legal.map((a) => a.label)")
    first = calm[0]
    sid, to = first.split()[1], first.split()[2]
    home = ship_at(page, sid)
    seq0 = int(page.evaluate("document.body.dataset.seq"))
    step(page, first)
    assert ship_at(page, sid) == to and page.evaluate("window.sbLast.undo") == 1
    assert page.is_visible("#undo")
    page.screenshot(path=str(artifacts / "fuldrigger-undo-before.png"), full_page=True)
    # a second calm step of the same move, if there is one, is taken back by Ctrl+Z
    more = [t for t in page.evaluate(CALM_SAIL) if t.split()[1] == sid]
    if more:
        step(page, more[0])
        assert page.evaluate("window.sbLast.undo") == 2
        page.locator("#board").click(position={"x": 2, "y": 2})  # focus out of any text box
        page.keyboard.press("Control+z")
        page.wait_for_function(
            f"document.body.dataset.seq === '{seq0 + 1}' && !document.body.dataset.pending"
        )
        assert ship_at(page, sid) == to and page.evaluate("window.sbLast.undo") == 1
    page.click("#undo")
    page.wait_for_function(f"document.body.dataset.seq === '{seq0}' && !document.body.dataset.pending")
    assert ship_at(page, sid) == home and page.evaluate("window.sbLast.undo") == 0
    assert page.is_hidden("#undo")
    # the log shows no trace of the step taken back, after a reload too
    page.wait_for_function(f"!document.querySelector('#log li[data-seq=\"{seq0 + 1}\"]')")
    page.reload()
    page.wait_for_function(f"document.body.dataset.seq === '{seq0}'")
    assert ship_at(page, sid) == home and page.is_hidden("#undo")
    assert not page.query_selector(f'#log li[data-seq="{seq0 + 1}"]')
    # and the ship can sail the same step again (the act names the state after the undos by
    # its undone count: the first act, were it resent now, would be stale)
    step(page, first)
    assert ship_at(page, sid) == to
    undone = page.evaluate("window.sbLast.undone")
    assert undone >= 1 and acts[-1] == {"type": "act", "action": first, "seq": seq0, "undone": undone}
    assert next(a["undone"] for a in acts if a["seq"] == seq0 and a["action"] == first) == 0
    page.screenshot(path=str(artifacts / "fuldrigger-undo-after.png"), full_page=True)
    assert not page.js_errors, page.js_errors


def test_no_undo_in_a_game_without_reversible_actions(page: Any, server_url: str) -> None:
    page.goto(server_url + "/")
    page.click('.game[data-game="kasino"]')
    page.fill("#name", "Tester")
    page.click("#create-btn")
    page.wait_for_url("**/table/**")
    page.wait_for_function("document.body.dataset.myturn === 'true'", timeout=60_000)
    seq = page.evaluate("document.body.dataset.seq")
    page.click("#actions .action >> nth=0")
    page.wait_for_function(f"document.body.dataset.seq !== '{seq}'")
    assert page.is_hidden("#undo") and page.evaluate("window.sbLast.undo") == 0
    assert re.fullmatch(r"\d+", page.evaluate("document.body.dataset.seq"))
    assert not page.js_errors, page.js_errors
