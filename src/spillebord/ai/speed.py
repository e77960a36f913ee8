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


def _player(game: AnyGame) -> Any:
    """One move of the game's playout policy (or, without one, its best bot)."""
    policy = bots_for(game).rollout
    if policy is not None:
        return policy
    bot = make_agent(best_agent(game), game)
    return lambda state, rng: decide(bot, state, rng)


def midgame(game: AnyGame, seats: int, seed: int, options: dict[str, Any] | None = None) -> State[Any]:
    """The position half way through a game the game's playout policy (or, without one, its
    best bot) plays against itself (``seed``)."""
    opts = build_options(game.Options, options or {})
    move = _player(game)

    def replay(stop: int | None) -> tuple[State[Any], int]:
        state = game.new(seats, seed, opts)
        rng = Rng(seed ^ 0x5EED)
        n = 0
        while state.to_act is not None and (stop is None or n < stop):
            state.play(move(state, rng))
            n += 1
        return state, n

    _, length = replay(None)
    state, _ = replay(length // 2)
    return state


SEARCHED_WITHIN = 400
"""Decisions from half way on within which a position the agent searches is looked for."""


def iterations_per_second(
    game: AnyGame,
    seats: int | None = None,
    seeds: int = 3,
    iterations: int = 300,
    options: dict[str, Any] | None = None,
    agent: str = "ismcts",
) -> float:
    """Median over ``seeds`` mid-game positions of ``agent``'s iterations per CPU second
    (``iterations`` each, after one short warm-up search). The position is the first from half
    way on that the agent searches: a game's own search may leave a decision to its bot without
    a single iteration (Fuldrigger's sailing, a move with one legal action), and a rate over no
    work is no rate. The iterations are those the agent reports (``last_iterations``)."""
    n = seats or game.seats.start
    bot = make_agent(agent, game)
    analyse = getattr(bot, "analyse", None)
    if analyse is None:
        raise TypeError(f"{agent} does not search")
    move = _player(game)
    rates: list[float] = []
    for seed in range(seeds):
        state = midgame(game, n, seed, options)
        rng = Rng(seed ^ 0x5EED)
        for _ in range(SEARCHED_WITHIN):
            seat = state.to_act
            if seat is None:
                break
            d = state.determinize(seat, Rng(seed))
            analyse(d, seat, Rng(seed), Budget(iterations=max(1, iterations // 10)))
            if getattr(bot, "last_iterations", 1) > 0:
                t0 = time.process_time()
                analyse(d, seat, Rng(seed), Budget(iterations=iterations))
                dt = time.process_time() - t0
                done = getattr(bot, "last_iterations", iterations)
                rates.append(done / dt if dt > 0 else float("inf"))
                break
            state.play(move(state, rng))
    if not rates:
        raise ValueError(f"{agent} searched no position of {game.title} from half way on")
    return statistics.median(rates)
