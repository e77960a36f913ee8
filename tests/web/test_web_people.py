"""Accounts, clocks, chat and turn notifications in a real Chromium: a person registers on
one browser (a context of its own: its own cookies and storage), creates a real-time table
from the lobby, logs in on a second browser context and finds the seat and "my tables"
there; the clock shows and counts down; chat reaches the other player as text, never HTML."""

from __future__ import annotations

import uuid
from typing import Any

import httpx


def register(page: Any, url: str, name: str, password: str, login: bool = False) -> None:
    page.goto(url + "/me")
    page.fill("#acc-name", name)
    page.fill("#acc-password", password)
    page.click("#login-btn" if login else "#register-btn")
    page.wait_for_selector("#logout")


def test_registered_person_finds_seat_and_my_tables_on_a_second_browser(
    browser: Any, server_url: str
) -> None:
    name, password = "p" + uuid.uuid4().hex[:8], "correct horse battery"
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    phone = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    try:
        page = laptop.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        register(page, server_url, name, password)
        # A real-time table of Kasino for two people, with chat, from the lobby.
        page.goto(server_url + "/")
        page.click('.game[data-game="kasino"]')
        page.check("#quick")
        page.fill("#name", name)
        page.select_option('select[name="seat-1"]', "")
        page.select_option("#tc-mode", "realtime")
        page.fill("#tc-bank", "5")
        page.fill("#tc-inc", "3")
        page.click("#create-btn")
        page.wait_for_url("**/table/**")
        table = page.url.rsplit("/", 1)[1]
        settings = httpx.get(f"{server_url}/api/tables/{table}/settings").json()
        best = next(g for g in httpx.get(f"{server_url}/api/games").json() if g["id"] == "kasino")["best_bot"]
        assert settings["clock"] == {
            "mode": "realtime",
            "bank": 300.0,
            "increment": 3.0,
            "on_timeout": "bot",
            "bot": best,  # the game's best bot unless another is chosen
        }
        assert settings["chat"] == "players" and settings["rated"] is True
        # Someone without an account takes the other seat (over HTTP: a third device).
        bob = httpx.post(f"{server_url}/api/tables/{table}/join", json={"name": "Bob"}).json()
        page.wait_for_selector("#clocks .clock.running")
        first = page.locator("#clocks .clock.running").get_attribute("data-left")
        assert first is not None and 290 <= int(first) <= 300
        page.wait_for_function(
            "(() => { const c = document.querySelector('#clocks .clock.running');"
            f" return c && +c.dataset.left < {int(first)}; }})()",
            timeout=10_000,
        )

        # The second browser: nothing of the seat is stored there until the person logs in.
        other = phone.new_page()
        other.on("pageerror", lambda e: errors.append(str(e)))
        register(other, server_url, name, password, login=True)
        row = other.locator(f'#my-tables tr[data-table="{table}"]')
        row.wait_for()
        to_act = httpx.get(f"{server_url}/api/tables/{table}").json()["to_act"]
        assert ("your-turn" in (row.get_attribute("class") or "")) is (to_act == 0)
        row.locator("a").first.click()
        other.wait_for_url(f"**/table/{table}")
        other.wait_for_selector("body[data-seq]")
        assert other.evaluate("window.sbLast.seat") == 0  # the person's own seat, on this device
        other.wait_for_selector("#clocks .clock")

        # Chat: the phone writes markup; Bob's socket and the laptop get it as text.
        bob_ws = httpx.post(
            f"{server_url}/api/tables/{table}/chat/read", json={"since": 0, "token": bob["token"]}
        )
        assert bob_ws.status_code == 200 and bob_ws.json() == []
        other.fill("#chat-text", "<img src=x onerror=\"document.body.dataset.pwned='1'\"> hi")
        other.click("#chat-form button")
        page.wait_for_selector("#chat-lines li")
        li = page.locator("#chat-lines li .text").first
        assert li.inner_text() == "<img src=x onerror=\"document.body.dataset.pwned='1'\"> hi"
        assert page.locator("#chat-lines img").count() == 0
        assert page.evaluate("document.body.dataset.pwned") is None
        for i in range(6):
            other.fill("#chat-text", f"line {i}")
            other.click("#chat-form button")
        other.wait_for_function("document.getElementById('chat-error').textContent.includes('too many')")
        assert errors == []
    finally:
        laptop.close()
        phone.close()


def test_turn_in_another_table_shows_in_the_title_and_as_a_notification(
    browser: Any, server_url: str
) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    ctx.add_init_script(
        """
        window.sbTurnPoll = 300;
        window.sbNotes = [];
        window.Notification = class {
          static permission = "granted";
          static requestPermission() { return Promise.resolve("granted"); }
          constructor(title, opts) { window.sbNotes.push(opts.body); }
        };
        """
    )
    try:
        page = ctx.new_page()
        register(page, server_url, "n" + uuid.uuid4().hex[:8], "correct horse battery")
        page.wait_for_timeout(700)  # the first look at my tables: none is waiting for me
        assert page.evaluate("window.sbNotes") == [] and not page.title().startswith("(")
        # A table where it is my turn, made through this browser's session (its cookies).
        r = ctx.request.post(
            f"{server_url}/api/tables",
            data={"game": "kasino", "seats": 2, "bots": [None, "random"], "name": "Me"},
        )
        assert r.ok
        table = r.json()["table"]
        if httpx.get(f"{server_url}/api/tables/{table}").json()["to_act"] != 0:
            page.wait_for_timeout(1500)  # the bot moves first: then it is mine
        page.wait_for_function("document.title.startsWith('(1) ')", timeout=10_000)
        page.wait_for_function("window.sbNotes.length === 1")
        assert page.evaluate("window.sbNotes") == ["Kasino: your turn"]
    finally:
        ctx.close()


def test_real_time_bank_runs_out_in_the_browser_and_the_seat_loses(browser: Any, server_url: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    try:
        page = ctx.new_page()
        page.goto(server_url + "/")
        clock = {"mode": "realtime", "bank": 10, "on_timeout": "lose"}
        made = page.evaluate(
            """async (clock) => {
              const body = { game: "kasino", seats: 2, bots: [null, "random"], name: "Slow", clock };
              const r = await fetch("/api/tables", {
                method: "POST", headers: { "content-type": "application/json" },
                body: JSON.stringify(body) });
              const res = await r.json();
              const seat = { seat: res.seat, token: res.token };
              localStorage.setItem(`sb:token:${res.table}`, JSON.stringify(seat));
              return res;
            }""",
            clock,
        )
        page.goto(f"{server_url}/table/{made['table']}")
        page.wait_for_function("document.body.dataset.myturn === 'true'", timeout=20_000)
        page.wait_for_selector('#clocks .clock.running[data-seat="0"]')
        # Nobody plays seat 0: its ten seconds run out, and it loses.
        page.wait_for_function("document.body.dataset.over === 'true'", timeout=30_000)
        last = page.evaluate("window.sbLast")
        assert last["outcome"] == [0.0, 1.0] and last["status"] == "over" and last["legal"] == []
        assert last["clock"] is None or last["clock"]["running"] is None
        assert not page.locator("#result").is_hidden()
        info = httpx.get(f"{server_url}/api/tables/{made['table']}").json()
        assert info["status"] == "over" and info["outcome"] == [0.0, 1.0]
    finally:
        ctx.close()
