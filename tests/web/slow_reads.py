"""A pytest plugin for hunting read-order races in the browser tests (not loaded by default).

It makes what a loaded machine does now and then happen every time: the test process sleeps
``SLOW_READS_SLEEP`` seconds (0.7) after each ``page.evaluate``, as if descheduled, and the
bots of a :class:`webserver.LoopbackServer` pause ``SLOW_READS_BOT_DELAY`` seconds (0.4)
before each move, so a bot's move lands during that sleep, between two reads of the page:

    PYTHONPATH=src:tests/web pytest -q -p no:cacheprovider -p slow_reads \\
        tests/web/test_web_hints.py -k hint_shows

``SLOW_READS_LOG`` (a file) records each read and what it saw."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

sys.path.insert(0, str(Path(__file__).parent))
import webserver  # (the module the tests import, by the same name)

SLEEP = float(os.environ.get("SLOW_READS_SLEEP", "0.7"))
BOT_DELAY = os.environ.get("SLOW_READS_BOT_DELAY", "0.4")
LOG = os.environ.get("SLOW_READS_LOG")

_evaluate = Page.evaluate
_start = webserver.LoopbackServer.start


def evaluate(self: Page, expression: str, arg: Any = None) -> Any:
    out = _evaluate(self, expression, arg)
    if LOG:
        with open(LOG, "a") as f:
            f.write(f"{os.environ.get('PYTEST_CURRENT_TEST', '')}\t{expression}\t{out!r}\n")
    time.sleep(SLEEP)
    return out


def start(self: webserver.LoopbackServer) -> webserver.LoopbackServer:
    args = list(self.args)
    if "--bot-delay" in args:
        args[args.index("--bot-delay") + 1] = BOT_DELAY
    else:
        args += ["--bot-delay", BOT_DELAY]
    self.args = tuple(args)
    return _start(self)


Page.evaluate = evaluate  # type: ignore[method-assign]
webserver.LoopbackServer.start = start  # type: ignore[method-assign]
