"""PostgreSQL's append path alone (not a test): the server's appender, no web stack, no game.

N tables append actions as the load benchmark's do (a person's action after thinking
``--think`` seconds on average, then the bot's at once), through
:class:`~spillebord.store.AsyncPgAppender`, with a LISTEN connection reading every
notification as a worker's bus does. Reported per action: the append's p50/p99, the CPU of
the database's own backend processes (read from ``/proc`` for the backends connected to the
benchmark's database: the appender's connections and the listener), this process's CPU,
transactions and notifications. Variants run one after the other in one invocation, each on
a fresh database, so they can be compared side by side:

    python benchmarks/server_pg_append.py --tables 1000 --seconds 15 --variants notify-each notify-batch

The database's CPU per action is the comparable figure on a busy machine; latencies are the
machine's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg

from spillebord.store import NOTIFY_CHANNEL, AsyncPgAppender, NewAction, SeatRec, Store, TableRec
from spillebord.store.db import libpq_url, resolve_url

VARIANTS: dict[str, dict[str, Any]] = {
    # The appender's options of each variant (see AsyncPgAppender); "_no_notify": no notices.
    "default": {},
    "conns1": {"connections": 1},
    "conns2": {"connections": 2},
    "conns8": {"connections": 8},
    "no-notify": {"_no_notify": True},
}


def proc_cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def backends(admin: psycopg.Connection[Any], db: str) -> list[int]:
    return [r[0] for r in admin.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (db,))]


def db_stats(admin: psycopg.Connection[Any], db: str) -> tuple[int, int, int]:
    r = admin.execute(
        "SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database WHERE datname = %s", (db,)
    ).fetchone()
    assert r is not None
    return int(r[0]), int(r[1]), int(r[2])


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else float("nan")


async def run_variant(server: str, name: str, opts: dict[str, Any], a: argparse.Namespace) -> None:
    db = "sbapp_" + uuid.uuid4().hex[:8]
    with psycopg.connect(server, autocommit=True) as c:
        c.execute(f"CREATE DATABASE {db}")
    url = server.rpartition("/")[0] + "/" + db
    sa_url, _ = resolve_url(url)
    store = Store(sa_url)
    admin = psycopg.connect(server, autocommit=True)
    try:
        store.create_all()
        ids = [uuid.uuid4().hex[:12] for _ in range(a.tables)]
        for tid in ids:
            store.create_table(
                TableRec(
                    id=tid,
                    game="kasino",
                    seats=2,
                    seed=1,
                    options={},
                    public=True,
                    status="running",
                    created=0.0,
                    updated=0.0,
                    seat_recs=[SeatRec(0, "p", None, "h", None, 0.0), SeatRec(1, None, "random")],
                )
            )
        no_notify = bool(opts.get("_no_notify"))
        app = AsyncPgAppender(sa_url, **{k: v for k, v in opts.items() if not k.startswith("_")})
        await app.start()
        worker = uuid.uuid4().hex[:10]
        heard = 0
        parsed = 0

        async def listen() -> None:
            nonlocal heard, parsed
            conn = await psycopg.AsyncConnection.connect(libpq_url(sa_url), autocommit=True)
            async with conn:
                await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                async for n in conn.notifies():
                    heard += 1
                    msg = json.loads(n.payload)
                    parsed += len(msg) if isinstance(msg, list) else 1

        lt = asyncio.create_task(listen())
        lat: list[float] = []
        measuring = False
        stop = asyncio.Event()
        count = 0

        async def table(i: int, tid: str) -> None:
            nonlocal count
            rng = random.Random(i)
            await asyncio.sleep(a.think * rng.random())
            seq = 0
            while not stop.is_set():
                await asyncio.sleep(a.think * (0.5 + rng.random()))
                for seat in (0, 1):  # the person, then the bot at once
                    note = None if no_notify else {"k": "a", "t": tid, "w": worker, "s": seq}
                    t0 = time.perf_counter()
                    await app.append(NewAction(tid, seq, seat, "play 5", "running", time.time()), note)
                    if measuring:
                        lat.append(time.perf_counter() - t0)
                        count += 1
                    seq += 1

        async def batches(k: int) -> None:
            # Fixed batches: k actions of k tables at once, the next k when all are stored
            # (one connection: one transaction per k actions, whatever the machine's load).
            nonlocal count
            seqs = dict.fromkeys(ids, 0)
            i = 0
            while not stop.is_set():
                chosen = [ids[(i + j) % len(ids)] for j in range(k)]
                i += k
                t0 = time.perf_counter()
                await asyncio.gather(
                    *(
                        app.append(
                            NewAction(tid, seqs[tid], 0, "play 5", "running", time.time()),
                            None if no_notify else {"k": "a", "t": tid, "w": worker, "s": seqs[tid]},
                        )
                        for tid in chosen
                    )
                )
                if measuring:
                    lat.append(time.perf_counter() - t0)
                    count += k
                for tid in chosen:
                    seqs[tid] += 1

        if a.batch:
            tasks = [asyncio.create_task(batches(a.batch))]
        else:
            tasks = [asyncio.create_task(table(i, t)) for i, t in enumerate(ids)]
        await asyncio.sleep(a.warmup)
        pids = backends(admin, db)
        c0 = sum(proc_cpu(p) for p in pids)
        m0 = time.process_time()
        s0 = db_stats(admin, db)
        h0 = heard
        measuring = True
        t0 = time.perf_counter()
        await asyncio.sleep(a.seconds)
        measuring = False
        el = time.perf_counter() - t0
        dbcpu = sum(proc_cpu(p) for p in pids) - c0
        mine = time.process_time() - m0
        s1 = db_stats(admin, db)
        notes = heard - h0
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        lt.cancel()
        await asyncio.gather(lt, return_exceptions=True)
        plans = []
        for conn in app._all:  # how PostgreSQL planned the appender's prepared statement
            cur = await conn.execute("SELECT generic_plans, custom_plans FROM pg_prepared_statements")
            plans += await cur.fetchall()
        await app.close()
        n = max(1, count)
        print(
            f"{name:14} {count / el:8.0f} {pct(lat, 50) * 1000:7.1f} {pct(lat, 99) * 1000:7.1f} "
            f"{dbcpu / n * 1e6:9.0f} {mine / n * 1e6:9.0f} {(s1[0] - s0[0]) / n:8.3f} {notes / n:8.3f} "
            f"{dbcpu / el * 100:6.0f}% {os.getloadavg()[0]:5.1f}  plans (generic, custom) {plans}",
            flush=True,
        )
    finally:
        store.dispose()
        admin.close()
        with psycopg.connect(server, autocommit=True) as c:
            c.execute(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--pg", default=os.environ.get("SPILLEBORD_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
    )
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=15)
    p.add_argument("--warmup", type=float, default=5)
    p.add_argument("--think", type=float, default=1.0)
    p.add_argument(
        "--batch",
        type=int,
        default=0,
        help="fixed batches of this many actions, one at a time (0: tables at --think)",
    )
    p.add_argument("--rounds", type=int, default=1, help="run the variants this many times, interleaved")
    p.add_argument("--variants", nargs="+", default=["default"], choices=sorted(VARIANTS))
    a = p.parse_args()
    print(
        f"{'variant':14} {'acts/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'db us/act':>9} {'me us/act':>9} "
        f"{'xact/act':>8} {'note/act':>8} {'db cpu':>7} {'load':>5}"
    )
    for _ in range(a.rounds):
        for v in a.variants:
            asyncio.run(run_variant(a.pg, v, VARIANTS[v], a))


if __name__ == "__main__":
    main()
