"""Load benchmark of the table server (not a test): N concurrent tables on loopback.

Each table has one person, played by a websocket client of this script (a random legal
move after thinking ``--think`` seconds on average), and bots in the other seats, played by
the server (``--bot``: random, level1 … level5, …). When a game ends its client opens a new
table, so N tables are always live; the first starts are spread over ``--stagger`` seconds.
Reported: actions per second (people and bots, every stored action), the p50/p99 latency from
sending an action to receiving the state that includes it, the server's CPU per action (its
bot worker processes included), and the CPU the clients and every other process used meanwhile
(``/proc/stat``), with the load average: on a shared machine the p99 shows the others first.
Per 5 s of the window it also prints the games that ended and the p99 of the actions measured
then: the first games end in a wave (their starts were spread over ``--stagger`` seconds
only), and the new tables that follow are where a run's tail usually is.

    python benchmarks/server_load.py --tables 1000 --db sqlite pg --seconds 20 --think 1
    python benchmarks/server_load.py --tables 50 --bot level5 --db sqlite --seconds 120

The server runs in its own process (``python -m spillebord.server``); on a 2-core machine the
clients of this script share the CPU with it, so the figures are conservative. This script's
own garbage collector is paused while measuring (``--client-gc`` lets it run): its pauses
would delay all 1,000 clients at once, which 1,000 browsers would not. ``--profile
FILE`` writes a cProfile of the server's event loop (read it with ``python -m pstats``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect
from websockets.typing import Subprotocol

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop for the clients, as the server has (uvicorn's standard extra): on 2 cores the
    clients' CPU is taken from the server's, and 1,000 browsers would not be on its machine."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.latency_at: list[float] = []  # when each latency was measured (perf_counter)
        self.ends: list[float] = []  # when each game seen ending in the window ended
        self.t0 = 0.0  # the window's start
        self.actions = 0  # every action seen applied (people and bots), counted once per table
        self.human = 0
        self.games = 0
        self.tables = 0  # tables left (a game ended, or --leave-after moves made)
        self.errors = 0
        self.error_kinds: dict[str, int] = {}
        self.measuring = False
        self.client_lag: list[float] = []  # how late this script's own loop woke (seconds)
        self.client_gc: list[float] = []  # this script's own garbage collections (seconds)


async def loop_lag(stats: Stats, stop: asyncio.Event, every: float = 0.005) -> None:
    """How late this script's event loop wakes from a short sleep: a latency measured here
    includes the clients' own delay, so the p99 of this lag says how much of the reported p99
    is the benchmark's, not the server's."""
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(every)
        if stats.measuring:
            stats.client_lag.append(max(0.0, time.perf_counter() - t - every))


def watch_gc(stats: Stats) -> None:
    """Time this script's garbage collections (they delay every client's receive at once)."""
    start = [0.0]

    def cb(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            start[0] = time.perf_counter()
        elif stats.measuring:
            stats.client_gc.append(time.perf_counter() - start[0])

    gc.callbacks.append(cb)


async def server_latency(http: httpx.AsyncClient, base: str) -> dict[str, float]:
    """The server's own histogram of action latency (arrival to stored and applied, every
    action: people's and bots'), cumulative counts by upper bound, from ``GET /metrics``."""
    r = await http.get(f"{base}/metrics")
    out: dict[str, float] = {}
    for line in r.text.splitlines():
        if line.startswith("spillebord_action_latency_seconds_bucket"):
            le = line.split('le="', 1)[1].split('"', 1)[0]
            out[le] = float(line.rsplit(" ", 1)[1])
    return out


async def play_table(
    http: httpx.AsyncClient,
    base: str,
    ws_base: str,
    game: str,
    seats: int,
    options: dict[str, Any],
    bot: str,
    stats: Stats,
    stop: asyncio.Event,
    rng: random.Random,
    think: float,
    gate: asyncio.Semaphore,
    delay: float = 0.0,
    leave_after: int | None = None,
) -> None:
    if delay > 0:  # staggered starts: the tables do not all open (and deal) at once
        await asyncio.sleep(delay)
    while not stop.is_set():
        try:
            async with gate:  # open tables a few at a time, not 500 handshakes at once
                r = await http.post(
                    f"{base}/api/tables",
                    json={
                        "game": game,
                        "seats": seats,
                        "options": options,
                        "bots": [None] + [bot] * (seats - 1),
                        "public": True,
                        "name": "bench",
                    },
                )
                r.raise_for_status()
                t = r.json()
                ws = await connect(
                    f"{ws_base}/ws/tables/{t['table']}",
                    subprotocols=[Subprotocol("spillebord"), Subprotocol(f"token.{t['token']}")],
                    max_size=2**24,
                    open_timeout=120,
                    compression=None,
                )
            async with ws:
                await play_game(ws, stats, stop, rng, think, leave_after)
            if stats.measuring:
                stats.tables += 1
        except Exception as e:  # count it and open another table
            stats.errors += 1
            stats.error_kinds[type(e).__name__] = stats.error_kinds.get(type(e).__name__, 0) + 1
            await asyncio.sleep(1)


async def play_game(
    ws: Any,
    stats: Stats,
    stop: asyncio.Event,
    rng: random.Random,
    think: float,
    leave_after: int | None = None,
) -> None:
    """Play one table to its end (``leave_after``: leave it after that many person moves, as
    soon as the state that includes the last came: 0 leaves on the first state)."""
    last_seq = 0
    moves = 0
    pending: tuple[int, float] | None = None
    while not stop.is_set():
        try:
            async with asyncio.timeout(2):  # (``wait_for`` made a task for every message)
                raw = await ws.recv()
        except TimeoutError:
            continue
        msg = orjson.loads(raw)
        if msg["type"] == "error":
            stats.errors += 1
            stats.error_kinds["refused"] = stats.error_kinds.get("refused", 0) + 1
            pending = None
            continue
        if msg["type"] != "state":
            continue
        seq = msg["seq"]
        if stats.measuring and seq > last_seq:
            stats.actions += seq - last_seq
        last_seq = max(last_seq, seq)
        if pending is not None and seq > pending[0]:
            if stats.measuring:
                now = time.perf_counter()
                stats.latencies.append(now - pending[1])
                stats.latency_at.append(now)
                stats.human += 1
            pending = None
        if leave_after is not None and moves >= leave_after and pending is None:
            return
        if msg["outcome"] is not None:
            if stats.measuring:
                stats.games += 1
                stats.ends.append(time.perf_counter())
            return
        if msg["legal"] and pending is None:
            if think > 0:  # a person thinks a little (uniform in [0.5, 1.5] x think)
                await asyncio.sleep(think * (0.5 + rng.random()))
            action = rng.choice(msg["legal"])["text"]
            pending = (seq, time.perf_counter())
            moves += 1
            await ws.send(orjson.dumps({"type": "act", "action": action, "seq": seq}).decode())


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), children (workers) included."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    return total


def proc_cpu(pid: int) -> float:
    """User + system CPU time of one process (Linux /proc), in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


PG_ADMIN: str | None = None
"""The PostgreSQL server URL (``--pg``), to find the backends of a benchmark's database."""


def db_backends(db: str) -> list[int]:
    """Process ids of PostgreSQL's backends connected to database ``db`` (the server's
    connections: its appenders, its listener, its pool)."""
    if PG_ADMIN is None:
        return []
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as c:
        return [int(r[0]) for r in c.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (db,))]


def machine_cpu_seconds() -> float:
    """CPU time used by every process on the machine (Linux /proc/stat: user, nice, system,
    irq, softirq, steal), in seconds."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
        user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    except (OSError, ValueError):
        return float("nan")
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


async def run_load(
    base: str,
    n: int,
    seconds: float,
    game: str,
    seats: int,
    options: dict[str, Any],
    bot: str,
    warmup: float,
    pid: int | None = None,
    think: float = 0.0,
    stagger: float = 0.0,
    db_name: str | None = None,
    leave_after: int | None = None,
    client_gc: bool = False,
) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    ws_base = base.replace("http://", "ws://")
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        gate = asyncio.Semaphore(16)
        tasks = [
            asyncio.create_task(
                play_table(
                    http,
                    base,
                    ws_base,
                    game,
                    seats,
                    options,
                    bot,
                    stats,
                    stop,
                    random.Random(i),
                    think,
                    gate,
                    stagger * i / n,
                    leave_after,
                )
            )
            for i in range(n)
        ]
        lag = asyncio.create_task(loop_lag(stats, stop))
        watch_gc(stats)
        await asyncio.sleep(warmup)
        h0 = await server_latency(http, base)
        if not client_gc:
            # 1,000 people are 1,000 browsers, not one process: this script's own collections
            # (every client's parsed states at once, pauses of up to 250 ms) are not the
            # server's latency. Paused while measuring; what they would have freed is counted.
            gc.disable()
        stats.measuring = True
        t0 = stats.t0 = time.perf_counter()
        c0 = cpu_seconds(pid) if pid else 0.0
        backends = db_backends(db_name) if db_name else []
        d0 = sum(map(proc_cpu, backends))
        m0 = time.process_time()
        a0 = machine_cpu_seconds()
        await asyncio.sleep(seconds)
        stats.client_cpu = time.process_time() - m0  # type: ignore[attr-defined]
        stats.machine_cpu = machine_cpu_seconds() - a0  # type: ignore[attr-defined]
        stats.measuring = False
        elapsed = time.perf_counter() - t0
        if not client_gc:
            gc.enable()
            stats.client_garbage = gc.collect()  # type: ignore[attr-defined]
        h1 = await server_latency(http, base)
        stats.server_hist = {k: h1[k] - h0.get(k, 0.0) for k in h1}  # type: ignore[attr-defined]
        stats.server_cpu = (cpu_seconds(pid) - c0) if pid else float("nan")  # type: ignore[attr-defined]
        stats.db_cpu = sum(map(proc_cpu, backends)) - d0 if backends else float("nan")  # type: ignore[attr-defined]
        stop.set()
        await lag
        done, pending = await asyncio.wait(tasks, timeout=10)
        for t in pending:
            t.cancel()
        for t in done:
            if t.exception() is not None:
                stats.errors += 1
    stats.elapsed = elapsed  # type: ignore[attr-defined]
    return stats


def start_server(
    db: str,
    port: int,
    log: Path,
    register: bool,
    processes: int | None = None,
    profile: str | None = None,
    settings: list[str] | None = None,
) -> subprocess.Popen[bytes]:
    args = [
        sys.executable,
        "-m",
        "spillebord.server",
        "--db",
        db,
        "--port",
        str(port),
        "--bot-delay",
        "0",
        "--takeover-after",
        "0",
        "--log-level",
        "warning",
        # One client address opens every table here: the per-client bounds would refuse it.
        "--creates-per-minute",
        "0",
        "--open-tables",
        "0",
        "--posts-per-minute",
        "0",
        "--connects-per-minute",
        "0",
    ]
    if processes is not None:
        args += ["--bot-processes", str(processes)]
    if register:
        args += ["--register", f"{TESTS}:toygame:TOY"]
    for setting in settings or []:
        name, _, value = setting.partition("=")
        args += ["--" + name.replace("_", "-"), value]
    out = open(log, "ab")  # noqa: SIM115
    env = dict(os.environ)
    if profile:
        env["SPILLEBORD_PROFILE"] = profile
    proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit("server did not start")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, nargs="+", default=[100, 500], help="live tables (one run each)")
    p.add_argument("--db", nargs="+", default=["sqlite", "pg"], help="sqlite, pg, or a database URL")
    p.add_argument(
        "--pg",
        default=os.environ.get("SPILLEBORD_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test"),
        help="PostgreSQL server URL (a fresh database is created in it and dropped)",
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a server setting (spillebord.server.Config), e.g. --set gc_full_every=0 (repeatable)",
    )
    p.add_argument("--game", default="kasino", help="the game every table plays")
    p.add_argument("--seats", type=int, default=None, help="seats per table (default: the game's least)")
    p.add_argument(
        "--bot", default="random", help="the server's bot in the other seats (random, level1 … level5, …)"
    )
    p.add_argument("--seconds", type=float, default=20, help="length of the measured run")
    p.add_argument("--warmup", type=float, default=10, help="seconds before measuring (tables open)")
    p.add_argument(
        "--stagger",
        type=float,
        default=None,
        help="spread the tables' first start over this many seconds (default: 80%% of --warmup)",
    )
    p.add_argument(
        "--bot-processes",
        type=int,
        default=None,
        help="the server's bot worker processes (default: the server's, cores less one; 0: threads)",
    )
    p.add_argument(
        "--profile",
        default=None,
        help="write a cProfile of the server's event loop to this file (per run: PATH.DB.TABLES)",
    )
    p.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="a person's mean thinking time per move in seconds (0: as fast as possible)",
    )
    p.add_argument(
        "--leave-after",
        type=int,
        default=None,
        metavar="N",
        help="the person leaves each table after N moves and opens another (0: on its first state): "
        "the cost of a table's life (create, connect, close) per table, with few actions",
    )
    p.add_argument(
        "--client-gc",
        action="store_true",
        help="let this script's garbage collector run while measuring (by default it is paused "
        "then: its pauses, up to 250 ms at 1,000 tables, delay every client at once)",
    )
    a = p.parse_args()

    global PG_ADMIN
    PG_ADMIN = a.pg
    sys.path.insert(0, str(TESTS))
    from spillebord.core import registry

    try:
        g = registry.get(a.game)
        register = False
    except Exception:
        from toygame import TOY

        g = TOY
        register = True
        print(f"(no game {a.game!r} here; using the toy game)")
    seats = a.seats or g.seats.start
    options = dict(g.quick_options)
    print(
        f"game {g.id}, {seats} seats (1 person + {seats - 1} {a.bot} bots), quick options {options}, "
        f"person thinks {a.think:g} s on average"
    )
    print(
        f"{'db':8} {'tables':>6} {'actions/s':>10} {'person moves':>12} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'games':>6} {'errors':>6}"
    )
    tmp = Path(tempfile.mkdtemp(prefix="sb-load-"))
    for kind in a.db:
        for n in a.tables:
            created_db = None
            if kind == "sqlite":
                db = str(tmp / f"load-{n}.sqlite3")
            elif kind == "pg":
                import psycopg

                created_db = "sbload_" + uuid.uuid4().hex[:8]
                with psycopg.connect(a.pg, autocommit=True) as c:
                    c.execute(f"CREATE DATABASE {created_db}")
                db = a.pg.rpartition("/")[0] + "/" + created_db
            else:
                db = kind
            port = free_port()
            profile = f"{a.profile}.{kind[:8]}.{n}" if a.profile else None
            proc = start_server(
                db, port, tmp / f"server-{kind}-{n}.log", register, a.bot_processes, profile, a.set
            )
            try:
                with asyncio.Runner(loop_factory=loop_factory()) as runner:
                    stats = runner.run(
                        run_load(
                            f"http://127.0.0.1:{port}",
                            n,
                            a.seconds,
                            g.id,
                            seats,
                            options,
                            a.bot,
                            a.warmup,
                            proc.pid,
                            a.think,
                            a.warmup * 0.8 if a.stagger is None else a.stagger,
                            created_db,
                            a.leave_after,
                            a.client_gc,
                        )
                    )
            finally:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                if created_db:
                    import psycopg

                    with psycopg.connect(a.pg, autocommit=True) as c:
                        c.execute(f"DROP DATABASE IF EXISTS {created_db} WITH (FORCE)")
            el = stats.elapsed  # type: ignore[attr-defined]
            lat = stats.latencies
            p50, p99 = pct(lat, 50) * 1000, pct(lat, 99) * 1000
            print(
                f"{kind[:8]:8} {n:>6} {stats.actions / el:>10.0f} {stats.human:>12} "
                f"{p50:>8.1f} {p99:>8.1f} {stats.games:>6} {stats.errors:>6}",
                flush=True,
            )
            cpu = stats.server_cpu  # type: ignore[attr-defined]
            if a.leave_after is not None:
                print(
                    f"         {stats.tables} tables left ({stats.tables / el:.0f}/s): server CPU "
                    f"{cpu / max(1, stats.tables) * 1000:.2f} ms per table",
                    flush=True,
                )
            if stats.error_kinds:
                print(f"         errors: {stats.error_kinds}")
            if lat:
                ccpu = stats.client_cpu  # type: ignore[attr-defined]
                dbcpu = stats.db_cpu  # type: ignore[attr-defined]
                # The database's backends serve this server: they are its cost, not others' load.
                other = stats.machine_cpu - cpu - ccpu - (dbcpu if dbcpu == dbcpu else 0.0)  # type: ignore[attr-defined]
                per = cpu / max(1, stats.actions) * 1000
                print(
                    f"         mean {statistics.mean(lat) * 1000:.1f} ms, max {max(lat) * 1000:.1f} ms; "
                    f"server CPU {cpu / el * 100:.0f}% of a core ({per:.2f} ms per action), "
                    f"clients {ccpu / el * 100:.0f}%, other processes {other / el * 100:.0f}% "
                    f"(of {os.cpu_count()} cores); load average {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
                # The benchmark's own share: its loop's lateness and its collections.
                cl, cg = stats.client_lag, stats.client_gc
                if cl:
                    print(
                        f"         clients' loop lag p50 {pct(cl, 50) * 1000:.1f} ms, "
                        f"p99 {pct(cl, 99) * 1000:.1f} ms, "
                        f"max {max(cl) * 1000:.1f} ms; their collections {len(cg)}, "
                        f"{sum(cg) * 1000:.0f} ms in all, the longest {max(cg, default=0) * 1000:.1f} ms"
                        + (
                            f" (paused while measuring: {stats.client_garbage} objects collected after)"  # type: ignore[attr-defined]
                            if not a.client_gc
                            else ""
                        ),
                        flush=True,
                    )
                hist = stats.server_hist  # type: ignore[attr-defined]
                total = hist.get("+Inf", 0.0)
                if total:
                    shares = ", ".join(
                        f"{100 * (1 - hist[le] / total):.2f}% over {float(le) * 1000:g} ms"
                        for le in ("0.025", "0.05", "0.1")
                        if le in hist
                    )
                    print(
                        f"         server's own latency (arrival to stored and applied, "
                        f"{total:.0f} actions of people and bots): {shares}",
                        flush=True,
                    )
                # Games end and tables open in waves while the first games' starts are not
                # yet spread: a wave in the window shows here, with its p99 beside it.
                slices = max(1, round(el / 5))
                width = el / slices
                ends = [0] * slices
                by: list[list[float]] = [[] for _ in range(slices)]
                for t in stats.ends:
                    ends[min(slices - 1, int((t - stats.t0) / width))] += 1
                for t, x in zip(stats.latency_at, lat, strict=True):
                    by[min(slices - 1, int((t - stats.t0) / width))].append(x)
                print(
                    f"         per {width:.0f} s of the window: games ended "
                    + " ".join(f"{e:>5}" for e in ends)
                    + ", p99 ms "
                    + " ".join(f"{pct(b, 99) * 1000:>5.0f}" if b else "    -" for b in by),
                    flush=True,
                )
                # The server logs collections long enough to be felt (maintenance.tune_gc):
                # a p99 far above the p50 on a quiet machine is often one of these.
                logged = (tmp / f"server-{kind}-{n}.log").read_text(errors="replace")
                pauses = [float(m) for m in re.findall(r"garbage collection .*? took (\d+) ms", logged)]
                if pauses:
                    print(
                        f"         server: {len(pauses)} long garbage collections "
                        f"(the longest {max(pauses):.0f} ms)",
                        flush=True,
                    )
                # PostgreSQL: its backends serving this server (not in "other processes")
                if dbcpu == dbcpu:
                    print(
                        f"         database backends {dbcpu / el * 100:.0f}% of a core "
                        f"({dbcpu / max(1, stats.actions) * 1000:.2f} ms per action)",
                        flush=True,
                    )
                if other / el > 0.2:
                    print(
                        "         note: not a quiet machine (other processes used the CPU during the run); "
                        "the server's event loop waited for a core: the p99 shows it first",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
