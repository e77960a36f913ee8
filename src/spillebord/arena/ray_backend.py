"""Playing a tournament on Ray: the same batches as the process pool, as Ray tasks.

``ray`` is an optional extra (``pip install 'spillebord[cluster]'``). ``address`` is a Ray
address (``ray://host:10001``, ``auto``), or ``True`` / ``"local"`` to start a Ray instance on
this machine (what CI tests; Ray 2.60 has no in-process local mode any more). Ray's workers are
fresh processes: they see the games of the installed package, not games registered at run
time. Games are
batched (many games per task) and at most ``2 × CPUs`` tasks are in flight, so a cluster is
kept busy without flooding the scheduler. Each task is a Ray generator: every game comes back
as it ends, so the results file and the progress follow every game, as on the process pool.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

from spillebord.core.errors import SpillebordError

from .play import Job, batches, drive, play_games
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
        task = ray.remote(num_cpus=1)(play_games)  # a generator: a Ray generator task
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        cpus = int(resources.get("CPU", workers)) or 1
        seen: set[int] = set()

        def wait_some(pending: list[Any]) -> tuple[list[list[dict[str, Any]]], list[Any]]:
            ready, _ = ray.wait(pending, num_returns=1)
            got: list[dict[str, Any]] = []
            over = []
            for gen in ready:  # its next game has come, or it has ended
                try:
                    ref = next(cast(Iterator[Any], gen))  # an ObjectRefGenerator
                except StopIteration:
                    over.append(gen)
                    continue
                r = ray.get(ref)  # a bot's error is raised here
                if r["index"] not in seen:  # a retried task (a lost node) plays its games again
                    seen.add(r["index"])
                    got.append(r)
            return [got], [g for g in pending if not any(g is o for o in over)]

        submitted: list[Any] = []

        def submit(chunk: list[GameSpec]) -> Any:
            submitted.append(task.remote(job, chunk))
            return submitted[-1]

        try:
            drive(batches(specs, batch), skip, 2 * cpus, submit, wait_some, on_result)
        except BaseException:
            # a bot's error or a stop ends the run now: a cluster does not play on for nothing
            for gen in submitted:
                try:
                    ray.cancel(gen, force=True)
                except Exception:  # an ended task cannot be cancelled; the rest still are
                    continue
            raise
    finally:
        if started:
            ray.shutdown()
