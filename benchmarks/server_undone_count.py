"""What the ``undone`` count costs a table's load (not a test): ``Store.load_table`` on SQLite
(its seats, its log and, since the undo fix, the count of its ``sb_undone`` rows) against the
count's query alone, interleaved, in CPU time (the database is in process).

    python benchmarks/server_undone_count.py                  # 7 rounds of 500 loads each
    python benchmarks/server_undone_count.py --rounds 9 --loads 1000

50 tables of 100 actions each, 3 of them taken back and played again per table. The count is
read once per table load (a server's start, a table's first use, a rebuild after another
worker's undo), never per action.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import func, select

from spillebord.store import NewAction, SeatRec, Store, TableRec
from spillebord.store.db import T_UNDONE

TABLES = 50


def fill(store: Store) -> None:
    for k in range(TABLES):
        tid = f"t{k}"
        rec = TableRec(tid, "toy", 2, 1, {}, True, "running", 0.0, 0.0, seat_recs=[SeatRec(0), SeatRec(1)])
        store.create_table(rec)
        for i in range(100):
            store.append_action(NewAction(tid, i, i % 2, f"play {i}", "running", float(i)))
        for _ in range(3):
            store.undo_action(tid, 99, 1.0)
            store.append_action(NewAction(tid, 99, 1, "play 99", "running", 2.0))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--loads", type=int, default=500)
    args = ap.parse_args()
    store = Store(f"sqlite:///{Path(tempfile.mkdtemp()) / 'tables.sqlite3'}")
    store.create_all()
    fill(store)
    first = store.load_table("t0")
    assert first is not None and first.undone == 3
    count_q = select(func.count()).select_from(T_UNDONE)

    def load() -> None:
        for k in range(args.loads):
            store.load_table(f"t{k % TABLES}")

    def count() -> None:
        for k in range(args.loads):
            with store._reading() as c:
                c.execute(count_q.where(T_UNDONE.c.table_id == f"t{k % TABLES}")).scalar_one()

    runs: dict[str, Callable[[], None]] = {"load_table": load, "the count alone": count}
    res: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, fn in runs.items():
            t0 = time.process_time()
            fn()
            res[name].append((time.process_time() - t0) / args.loads * 1e6)
    for name, xs in res.items():
        rounds = ", ".join(f"{x:.0f}" for x in xs)
        print(f"{name}: median {statistics.median(xs):.0f} µs of CPU a table ({rounds})")
    store.dispose()


if __name__ == "__main__":
    main()
