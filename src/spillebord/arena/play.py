"""Playing scheduled games: one at a time, in a worker process, or in a Ray task.

A worker gets a batch of :class:`GameSpec` and returns plain dicts (cheap to pickle, written
as they are to the results file). Every decision goes through the shared match loop, so every
bot sees only its own seat.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from spillebord.ai import Agent, make_agent
from spillebord.core import registry
from spillebord.testing import play_match

from .schedule import BotSpec, GameSpec


@dataclass(frozen=True, slots=True)
class Job:
    """What every game of a tournament shares."""

    game: str
    seats: int
    options: dict[str, Any]
    bots: tuple[BotSpec, ...]


def play_one(job: Job, spec: GameSpec, agents: dict[int, Agent] | None = None) -> dict[str, Any]:
    """Play one scheduled game; its result line (outcome, scores, the actions for replay)."""
    game = registry.get(job.game)
    agents = agents if agents is not None else {}
    players: list[Agent] = []
    for b in spec.seat_bots:
        if b not in agents:
            agents[b] = make_agent(job.bots[b].agent, game)
        players.append(agents[b])
    budgets = [job.bots[b].budget for b in spec.seat_bots]
    t0 = time.process_time()
    m = play_match(game, players, spec.seed, job.options, budgets=budgets, agent_seed=spec.agent_seed)
    return {
        "index": spec.index,
        "pairing": list(spec.pairing),
        "deal": spec.deal,
        "rotation": spec.rotation,
        "seed": spec.seed,
        "agent_seed": spec.agent_seed,
        "seat_bots": list(spec.seat_bots),
        "outcome": list(m.outcome),
        "scores": list(m.scores),
        "decisions": m.decisions,
        "truncated": m.truncated,
        "cpu_seconds": round(time.process_time() - t0, 4),
        "actions": [[s, a] for s, a in m.actions],
    }


def play_games(job: Job, specs: Sequence[GameSpec]) -> Iterator[dict[str, Any]]:
    """Play a batch of games in this process, yielding each as it ends (agents are made once
    per batch). On Ray a generator task: the arena gets each game while the batch plays on."""
    agents: dict[int, Agent] = {}
    for spec in specs:
        yield play_one(job, spec, agents)


_STREAM: Any = None
"""A pool worker's queue to the arena (:func:`stream_to`), inherited when the worker starts."""


def stream_to(queue: Any) -> None:
    """A pool worker's initializer: :func:`play_streamed` sends each game on ``queue``."""
    global _STREAM
    _STREAM = queue


def play_streamed(job: Job, specs: Sequence[GameSpec]) -> int:
    """:func:`play_games` in a pool worker, each game sent to the arena as it ends (so the
    results file and the progress follow every game, and a stopped run loses only the games in
    hand, however long a batch takes); returns the number of games."""
    agents: dict[int, Agent] = {}
    for spec in specs:
        try:
            r = play_one(job, spec, agents)
        except BaseException:
            # The mark follows this worker's earlier games on the stream (one process's puts
            # keep their order): the arena reads them all before it raises the error.
            _STREAM.put({"failed": spec.index})
            raise
        _STREAM.put(r)
    return len(specs)


Handle = TypeVar("Handle")


def batches(specs: Sequence[GameSpec], size: int) -> Iterator[list[GameSpec]]:
    for i in range(0, len(specs), size):
        yield list(specs[i : i + size])


def drive(
    chunks: Iterator[list[GameSpec]],
    skip: Callable[[GameSpec], bool],
    limit: int,
    submit: Callable[[list[GameSpec]], Handle],
    wait_some: Callable[[list[Handle]], tuple[list[list[dict[str, Any]]], list[Handle]]],
    on_result: Callable[[dict[str, Any]], None],
) -> None:
    """Keep at most ``limit`` batches in flight (a pool's futures, Ray's object refs), hand
    each finished game to ``on_result``, and submit no game that ``skip`` rules out by then
    (a pair the sequential test has decided)."""
    pending: list[Handle] = []
    exhausted = False
    while pending or not exhausted:
        while not exhausted and len(pending) < limit:
            chunk = next(chunks, None)
            if chunk is None:
                exhausted = True
                break
            todo = [s for s in chunk if not skip(s)]
            if todo:
                pending.append(submit(todo))
        if not pending:
            continue
        finished, pending = wait_some(pending)
        for results in finished:
            for r in results:
                on_result(r)
