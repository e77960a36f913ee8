"""Browser tests: a real server on a loopback port and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = (
    os.environ.get("SPILLEBORD_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
)
ARTIFACTS = Path(
    os.environ.get("SPILLEBORD_ARTIFACTS", Path(__file__).resolve().parents[2] / "test-artifacts")
)

pytestmark = pytest.mark.browser


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(tmp_path_factory: pytest.TempPathFactory, *extra: str) -> Iterator[str]:
    """``spillebord serve`` on a fresh SQLite file and a free loopback port, until the session ends."""
    db = tmp_path_factory.mktemp("web") / "web.sqlite3"
    port = free_port()
    log = open(tmp_path_factory.mktemp("weblog") / "server.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [
            *[
                sys.executable,
                "-m",
                "spillebord.cli",
                "serve",
                "--db",
                f"sqlite:///{db}",
                "--port",
                str(port),
            ],
            # One browser creates every table of the session from one address.
            *["--creates-per-minute", "1000", "--open-tables", "1000"],
            *extra,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                log.close()
                raise RuntimeError("the server did not start: see " + log.name) from None
            time.sleep(0.2)
    yield url
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server as a person meets it: a bot pauses 0.6 s before its move, so it can be followed."""
    yield from _serve(tmp_path_factory)


@pytest.fixture(scope="session")
def quick_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The same server with bots that move at once (``--set bot_delay=0``), for the tests that
    play whole games by clicks: the pause is most of their time and none of what they test."""
    yield from _serve(tmp_path_factory, "--set", "bot_delay=0")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield b
        b.close()


def _open_page(browser: Any, init_script: str | None = None, **context: Any) -> tuple[Any, Any]:
    """A new context and page that records the page's JavaScript errors (``page.js_errors``).
    bypass_csp: Playwright's wait_for_function evaluates its string in the page, which the
    server's Content-Security-Policy (no eval) forbids; test_web_csp.py drives the client with
    the policy enforced."""
    ctx = browser.new_context(bypass_csp=True, **context)
    if init_script is not None:
        ctx.add_init_script(init_script)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.js_errors = errors
    _record_trail(pg)
    return ctx, pg


def _record_trail(pg: Any) -> None:
    """Keep the page's last console lines and websocket frames (``page.trail``), printed when a
    test fails: an intermittent timeout then says what the page last heard and said."""
    trail: deque[str] = deque(maxlen=40)
    t0 = time.monotonic()

    def note(kind: str, text: str) -> None:
        trail.append(f"{time.monotonic() - t0:8.3f}s {kind}: {text[:200]}")

    pg.on("console", lambda m: note(f"console.{m.type}", m.text))

    def on_ws(ws: Any) -> None:
        note("ws", f"open {ws.url}")
        ws.on("framesent", lambda f: note("ws>", f if isinstance(f, str) else "<binary>"))
        ws.on("framereceived", lambda f: note("ws<", f if isinstance(f, str) else "<binary>"))
        ws.on("close", lambda _ws: note("ws", "closed"))

    pg.on("websocket", on_ws)
    pg.trail = trail


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.failed and call.when == "call":
        for name in ("page", "danish"):
            pg = getattr(item, "funcargs", {}).get(name)
            if pg is None or not hasattr(pg, "trail"):
                continue
            try:
                state = pg.evaluate(
                    "JSON.stringify({url: location.href, data: {...document.body.dataset},"
                    " error: (document.getElementById('error') || {}).textContent || ''})"
                )
            except Exception as e:  # the page may be gone or stuck
                state = f"(could not read the page: {e})"
            report.sections.append((f"browser trail ({name})", state + "\n" + "\n".join(pg.trail)))
    return report


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    ctx, pg = _open_page(browser, viewport={"width": 1280, "height": 900})
    yield pg
    ctx.close()


@pytest.fixture()
def danish(browser: Any) -> Iterator[Any]:
    """A page that reads Danish (browser locale and the saved language choice)."""
    ctx, pg = _open_page(
        browser,
        "localStorage.setItem('sb:lang', 'da')",
        viewport={"width": 1280, "height": 800},
        locale="da-DK",
    )
    yield pg
    ctx.close()


@pytest.fixture()
def strict_page(browser: Any) -> Iterator[Any]:
    """A page with the server's Content-Security-Policy enforced; ``csp_errors`` collects what
    the browser refused."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    refused: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    pg.js_errors = errors
    pg.csp_errors = refused
    yield pg
    ctx.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
