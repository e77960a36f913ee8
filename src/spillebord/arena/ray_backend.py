"""Playing a tournament on Ray: the same batches as the process pool, as Ray tasks.

``ray`` is an optional extra (``pip install 'spillebord[cluster]'``). ``address`` is a Ray
address (``ray://host:10001``, ``auto``), or ``True`` / ``"local"`` to start a Ray instance on
this machine (what CI tests; Ray 2.60 has no in-process local mode any more). Ray's workers are
fresh processes: they see the games of the installed package, not games registered at run
time. Games are
batched (many games per task) and at most ``2 × CPUs`` tasks are in flight, so a cluster is
kept busy without flooding the scheduler.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from spillebord.core.errors import SpillebordError

from .play import Job, batches, drive, play_batch
from .schedule import GameSpec


def run_ray(
    job: Job,
    specs: Sequence[GameSpec],
    skip: Callable[[GameSpec], bool],
    workers: int,
    address: str | bool,
    batch: int,
    on_result: Callable[[dict[str, Any]], None],
) -> None:
    try:
        import ray
    except ImportError:
        raise SpillebordError("Ray is not installed: pip install 'spillebord[cluster]'") from None
    started = False
    if not ray.is_initialized():
        if address is True or address == "local":
            ray.init(
                num_cpus=max(1, workers),
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
        else:
            ray.init(address=str(address), log_to_driver=False, logging_level=logging.ERROR)
        started = True
    try:
        task = ray.remote(num_cpus=1)(play_batch)
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        cpus = int(resources.get("CPU", workers)) or 1

        def wait_some(pending: list[Any]) -> tuple[list[list[dict[str, Any]]], list[Any]]:
            done, rest = ray.wait(pending, num_returns=1)
            return [ray.get(ref) for ref in done], list(rest)

        drive(
            batches(specs, batch), skip, 2 * cpus, lambda chunk: task.remote(job, chunk), wait_some, on_result
        )
    finally:
        if started:
            ray.shutdown()
