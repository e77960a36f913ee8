"""Per-call costs of the hot state methods, measured at mid-game positions.

``copy()``, ``determinize(seat)`` and ``view(seat)`` run millions of times in search bots and
the arena; :func:`call_costs` reports each in microseconds of CPU time per call
(``time.process_time``), so ``spillebord bench`` and ``benchmarks/side_by_side.py`` report the
same figures. Positions are halfway through seeded random games; the seat is the one to act
(the seat a bot determinizes for).
"""

from __future__ import annotations

import time
from typing import Any

from spillebord.core import AnyGame, Rng, State


def mid_game_positions(game: AnyGame, seats: int, options: Any, n: int, seed: int = 0) -> list[State[Any]]:
    """``n`` positions, each halfway (in decisions) through a random game of seed ``seed + i``."""
    out: list[State[Any]] = []
    for i in range(n):
        rng = Rng(seed + i)
        state = game.new(seats, seed + i, options)
        length = 0
        while state.to_act is not None:
            state.play(rng.choice(state.legal()))
            length += 1
        rng = Rng(seed + i)
        state = game.new(seats, seed + i, options)
        for _ in range(length // 2):
            state.play(rng.choice(state.legal()))
        if state.to_act is not None:
            out.append(state)
    return out


def call_costs(
    game: AnyGame, seats: int, options: Any, positions: int = 20, repeat: int = 200, seed: int = 0
) -> dict[str, float]:
    """Microseconds (CPU) per call of ``copy``, ``determinize`` and ``view`` at mid-game positions.

    Each call is repeated ``repeat`` times on each of ``positions`` positions; the figure is the
    mean over all calls (keys ``copy_us``, ``determinize_us``, ``view_us``).
    """
    states = mid_game_positions(game, seats, options, positions, seed)
    clock = time.process_time
    rng = Rng(seed)
    totals = {"copy_us": 0.0, "determinize_us": 0.0, "view_us": 0.0}
    calls = 0
    for s in states:
        seat = s.to_act if s.to_act is not None else 0
        copy, determinize, view = s.copy, s.determinize, s.view
        t0 = clock()
        for _ in range(repeat):
            copy()
        t1 = clock()
        for _ in range(repeat):
            determinize(seat, rng)
        t2 = clock()
        for _ in range(repeat):
            view(seat)
        t3 = clock()
        totals["copy_us"] += t1 - t0
        totals["determinize_us"] += t2 - t1
        totals["view_us"] += t3 - t2
        calls += repeat
    return {k: round(v / calls * 1e6, 2) if calls else 0.0 for k, v in totals.items()}
