"""``python -m spillebord.server``: the server without the CLI (tests and benchmarks use it).

``--register DIR:module:ATTR`` registers an extra game first (e.g. the tests' toy game).
"""

from __future__ import annotations

import argparse
import os

from . import register_spec, serve


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m spillebord.server")
    p.add_argument("--db", default=None)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--takeover-after", type=float, default=120.0)
    p.add_argument("--bot-budget", type=float, default=2.0)
    p.add_argument("--bot-delay", type=float, default=0.6)
    p.add_argument("--log-level", default="info")
    p.add_argument("--register", action="append", default=[], help="DIR:module:ATTR of an extra game")
    a = p.parse_args(argv)
    for spec in a.register:
        register_spec(spec)
    if a.register:
        os.environ["SPILLEBORD_REGISTER"] = ";".join(a.register)  # for --workers
    serve(
        a.db,
        a.host,
        a.port,
        a.workers,
        takeover_after=a.takeover_after,
        bot_budget=a.bot_budget,
        bot_delay=a.bot_delay,
        log_level=a.log_level,
    )


if __name__ == "__main__":
    main()
