"""The terminal speaks the locale's language (``--lang`` defaults from LC_ALL, LC_MESSAGES,
LANG): the command-line tests run without a locale, so that they read English unless a test
sets one, whatever the machine's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
