"""A server of a browser test's own: ``python -m spillebord.server`` on a loopback port, with
extra arguments (toy games registered, small search budgets), stopped by the test."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LoopbackServer:
    """Start with :meth:`start` (waits for ``/healthz``), stop with :meth:`stop`."""

    args: tuple[str, ...] = ()
    """Arguments after ``--db`` and ``--port`` (subclasses set theirs)."""

    def __init__(self, db: Path, log: Path) -> None:
        self.db, self.log = db, log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> LoopbackServer:
        args = [sys.executable, "-m", "spillebord.server", "--db", str(self.db), "--port", str(self.port)]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen([*args, *self.args], stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1):
                    return self
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("the server did not start: see " + str(self.log)) from None
                time.sleep(0.2)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
