"""The load benchmark (``benchmarks/server_load.py``) still runs: a few tables for a few
seconds on each database, a real server on a loopback port and its websocket clients.

Its figures are not checked here (speed is measured, never asserted): only that it plays,
measures and reports without an error, so that the issue's command keeps working."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

PG = os.environ.get("SPILLEBORD_TEST_PG")
ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^(sqlite|pg)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+(\d+)$", re.M)


@pytest.mark.slow
@pytest.mark.parametrize("db", ["sqlite", pytest.param("pg", marks=pytest.mark.postgres)])
def test_the_load_benchmark_plays_and_reports(db: str) -> None:
    args = ["--tables", "4", "--db", db, "--seconds", "3", "--warmup", "2", "--think", "0.05"]
    if db == "pg":
        if not PG:
            pytest.skip("PostgreSQL tests need SPILLEBORD_TEST_PG")
        args += ["--pg", PG]
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "server_load.py"), *args],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    rows = ROW.findall(out.stdout)
    assert len(rows) == 1, out.stdout
    kind, tables, actions_s, moves, _p50, _p99, _games, errors = rows[0]
    assert (kind, tables, errors) == (db, "4", "0")
    assert int(actions_s) > 0 and int(moves) > 0
    assert "s of the window: games ended" in out.stdout
