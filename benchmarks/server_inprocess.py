"""The server's own per-action work, in process (not a test): no sockets, no framework.

N Kasino tables on an in-memory action log, each with one person (this script: a random
legal text from the state it was sent, sent back as an ``act``) and a random bot (the
server's, on the loop). Every table's deal is fixed (seeds 1, 2, …), so the same run does
the same work: count its instructions with callgrind, which a busy machine does not disturb,
and subtract a run with ``--actions 0`` (imports and table creation):

    valgrind --tool=callgrind python benchmarks/server_inprocess.py --tables 100 --actions 3000
    valgrind --tool=callgrind python benchmarks/server_inprocess.py --tables 100 --actions 0

(per action: the difference of the two totals over the actions the first run printed).
The CPU time it prints is the machine's, so noisy under load.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import time
from typing import Any

from spillebord.server.actionlog import MemoryLog
from spillebord.server.api import handle_message
from spillebord.server.errors import Config
from spillebord.server.hub import Hub
from spillebord.server.presence import Conn
from spillebord.server.service import LiveTable


async def run(tables: int, actions: int) -> None:
    hub = Hub(MemoryLog(), Config(bot_delay=0, bot_processes=1, takeover_after=0, client_seeds=True))
    await hub.start(maintain=False)
    rng = random.Random(7)
    seeds = itertools.count(1)

    async def nothing(_text: str) -> None:
        return None

    async def new_table() -> tuple[LiveTable, Conn]:
        tid, seat, _ = await hub.lobby.create(
            "kasino", 2, {"target": 5}, [None, "random"], True, next(seeds), "p"
        )
        lt = await hub.service.get(tid)
        conn = Conn(seat, nothing)
        await hub.presence.connect(lt, conn)
        return lt, conn

    live = [await new_table() for _ in range(tables)]
    t0 = time.process_time()
    start = sum(lt.seq for lt, _ in live)
    finished = 0  # actions of the games that ended
    while finished < actions:
        await asyncio.sleep(0)  # the bots play
        for i, (lt, conn) in enumerate(live):
            last = None
            while not conn.queue.empty():
                text = conn.queue.get_nowait()
                if text is not None:
                    last = text
            if last is None:
                continue
            msg: dict[str, Any] = json.loads(last)
            if msg["type"] != "state":
                continue
            if msg["outcome"] is not None:
                finished += lt.seq
                live[i] = await new_table()
                continue
            if msg["legal"]:
                act = {"type": "act", "action": rng.choice(msg["legal"])["text"], "seq": msg["seq"]}
                reply = await handle_message(hub, lt, conn, json.dumps(act))
                if reply is not None:
                    raise SystemExit(f"refused: {reply}")
        for _ in range(3):
            await asyncio.sleep(0)
    total = finished + sum(lt.seq for lt, _ in live) - start
    cpu = time.process_time() - t0
    print(f"{total} actions, {cpu:.2f} s CPU, {cpu / max(1, total) * 1e6:.1f} us per action")
    await hub.stop()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=100, help="live tables")
    p.add_argument("--actions", type=int, default=3000, help="play until games of this many actions ended")
    a = p.parse_args()
    asyncio.run(run(a.tables, a.actions))


if __name__ == "__main__":
    main()
