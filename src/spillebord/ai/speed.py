"""How fast the search thinks: ISMCTS iterations per CPU second at mid-game.

Iterations per second are a search bot's strength, and they depend on the position (a long
playout early, a short one near the end), so they are measured at one reproducible mid-game
position per seed: the game's playout policy plays every seat to the end, and the position half
way through that game is searched. CPU time of this process (``time.process_time``): one
core's throughput, which a busy machine distorts less than wall time.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from spillebord.core import AnyGame, Rng, State
from spillebord.core.options import build as build_options

from .agent import Budget
from .registry import best_agent, bots_for, decide, make_agent


def midgame(game: AnyGame, seats: int, seed: int, options: dict[str, Any] | None = None) -> State[Any]:
    """The position half way through a game the game's playout policy (or, without one, its
    best bot) plays against itself (``seed``)."""
    opts = build_options(game.Options, options or {})
    policy = bots_for(game).rollout
    bot = make_agent(best_agent(game), game)

    def replay(stop: int | None) -> tuple[State[Any], int]:
        state = game.new(seats, seed, opts)
        rng = Rng(seed ^ 0x5EED)
        n = 0
        while state.to_act is not None and (stop is None or n < stop):
            state.play(policy(state, rng) if policy is not None else decide(bot, state, rng))
            n += 1
        return state, n

    _, length = replay(None)
    state, _ = replay(length // 2)
    return state


def iterations_per_second(
    game: AnyGame,
    seats: int | None = None,
    seeds: int = 3,
    iterations: int = 300,
    options: dict[str, Any] | None = None,
    agent: str = "ismcts",
) -> float:
    """Median over ``seeds`` mid-game positions of ``agent``'s iterations per CPU second
    (``iterations`` each, after one short warm-up search)."""
    n = seats or game.seats.start
    bot = make_agent(agent, game)
    analyse = getattr(bot, "analyse", None)
    if analyse is None:
        raise TypeError(f"{agent} does not search")
    rates: list[float] = []
    for seed in range(seeds):
        state = midgame(game, n, seed, options)
        seat = state.to_act
        assert seat is not None
        d = state.determinize(seat, Rng(seed))
        analyse(d, seat, Rng(seed), Budget(iterations=max(1, iterations // 10)))
        t0 = time.process_time()
        analyse(d, seat, Rng(seed), Budget(iterations=iterations))
        dt = time.process_time() - t0
        rates.append(iterations / dt if dt > 0 else float("inf"))
    return statistics.median(rates)
