"""``python -m spillebord.server``: the server without the CLI (tests and benchmarks use it).

``--register DIR:module:ATTR`` registers an extra game first (e.g. the tests' toy game).
Every setting of :class:`~spillebord.server.Config` is an option (``--creates-per-minute``,
``--client-seeds`` for tests that need a known deal, …).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from typing import Any

from spillebord.core.errors import SpillebordError

from . import Config, register_spec, serve


def _flag(value: str) -> bool:
    return value.lower() in ("1", "true", "yes", "on")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m spillebord.server")
    p.add_argument("--db", default=None, help="database URL or SQLite file")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=8000, help="port to listen on")
    p.add_argument("--workers", type=int, default=1, help="worker processes (PostgreSQL for >1)")
    p.add_argument("--log-level", default="info", help="uvicorn's log level")
    p.add_argument("--register", action="append", default=[], help="DIR:module:ATTR of an extra game")
    defaults = Config(bot_delay=0.6, bot_processes=-1)
    for f in dataclasses.fields(Config):
        default = getattr(defaults, f.name)
        name = "--" + f.name.replace("_", "-")
        if isinstance(default, bool):
            p.add_argument(
                name, nargs="?", const=True, default=default, type=_flag, help=f"(default {default})"
            )
        else:
            p.add_argument(name, type=type(default), default=default, help=f"(default {default})")
    a = p.parse_args(argv)
    for spec in a.register:
        register_spec(spec)
    if a.register:
        os.environ["SPILLEBORD_REGISTER"] = ";".join(a.register)  # for --workers
    settings: dict[str, Any] = {f.name: getattr(a, f.name) for f in dataclasses.fields(Config)}
    try:
        serve(a.db, a.host, a.port, a.workers, config=Config(**settings), log_level=a.log_level)
    except SpillebordError as e:  # one readable line, no traceback
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
