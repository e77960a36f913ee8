"""Shared test set-up: Hypothesis profiles, the slow marker, and the toy game."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile(
    "default", deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to test a stale compiled module (``tools/compile.py`` builds ``*.so`` next to the
    ``.py``; Python imports the ``.so``, so an edited ``.py`` would silently not be tested)."""
    src = Path(__file__).resolve().parents[1] / "src" / "spillebord"
    stale = [
        so
        for so in src.rglob("*.so")
        if (py := so.with_name(so.name.split(".", 1)[0] + ".py")).exists()
        and py.stat().st_mtime > so.stat().st_mtime
    ]
    if stale:
        names = ", ".join(str(p.relative_to(src.parent)) for p in stale)
        pytest.exit(
            f"compiled module(s) older than their source: {names} — rebuild with "
            "`python tools/compile.py` or remove them with `python tools/compile.py --clean`",
            returncode=2,
        )


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="run tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """In CI (``CI=true``) a test skipped for a missing service or program (PostgreSQL,
    Chromium) fails instead: CI installs them all, so a skip there hides a broken set-up.
    Slow tests skipped without ``--runslow`` are the one exception."""
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") == "true" and report.skipped and "slow" not in item.keywords:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where every service must be there: {reason}"
