"""What operators see: ``GET /metrics`` in the Prometheus text format (prometheus_client).

Counters and histograms are updated where things happen (an action stored, a bot's thought,
a database error, a request refused); the gauges (tables by status, connected sockets) are
read from the hub when Prometheus scrapes. Each app has its own registry (tests run several).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_THINK_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.actions = Counter("spillebord_actions", "Actions stored and applied", ["by"], registry=r)
        self.action_latency = Histogram(
            "spillebord_action_latency_seconds",
            "From an action's arrival to the update sent to the table's sockets (stored first)",
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.bot_thinking = Histogram(
            "spillebord_bot_thinking_seconds",
            "A bot's thinking time per move",
            buckets=_THINK_BUCKETS,
            registry=r,
        )
        self.db_errors = Counter(
            "spillebord_database_errors", "Database operations that failed (busy, lost)", ["op"], registry=r
        )
        self.refused = Counter(
            "spillebord_refused_requests", "Requests refused at a bound (413, 429)", ["reason"], registry=r
        )
        self.tables_closed = Counter(
            "spillebord_tables_closed_idle", "Tables closed for idleness", registry=r
        )
        self._gauges: Callable[[], dict[str, Any]] | None = None
        self._by: dict[str, Any] = {}
        """``actions`` per label, looked up once (``labels()`` costs more than the count)."""
        r.register(_Live(self))

    def count_action(self, by: str, latency: float) -> None:
        """One action stored and applied (``by``: person or bot), ``latency`` seconds after
        it arrived."""
        child = self._by.get(by)
        if child is None:
            child = self._by[by] = self.actions.labels(by)
        child.inc()
        self.action_latency.observe(latency)

    def bind(self, gauges: Callable[[], dict[str, Any]]) -> None:
        """Where the gauges are read at scrape time: ``{"tables": {status: n}, "sockets": n,
        "bots_running": n}``."""
        self._gauges = gauges

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _Live(Collector):
    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        read = self.metrics._gauges
        values: dict[str, Any] = (
            read() if read is not None else {"tables": {}, "sockets": 0, "bots_running": 0}
        )
        tables = GaugeMetricFamily("spillebord_tables", "Tables in memory by status", labels=["status"])
        for status in ("open", "running", "over", "closed"):
            tables.add_metric([status], float(values["tables"].get(status, 0)))
        yield tables
        yield GaugeMetricFamily("spillebord_sockets", "Connected websockets", value=float(values["sockets"]))
        yield GaugeMetricFamily(
            "spillebord_bot_tables_running",
            "Tables whose bots are playing now",
            value=float(values["bots_running"]),
        )


__all__ = ["CONTENT_TYPE", "Metrics"]
