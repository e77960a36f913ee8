"""Benchmark: a Metscri bot against random bots, and random-play speed.

Run: ``PYTHONPATH=src python tests/games/metscri/bench_metscri.py [games] [seats] [agent] [KEY=VALUE ...]``
(default 200 four-seat games of the full rules with the ``max_rounds=200`` safeguard; the bot
sits in every seat in turn). Not a test: pytest does not collect it.
"""

from __future__ import annotations

import sys
import time

from spillebord.core import Rng
from spillebord.core.options import build
from spillebord.games.metscri import GAME
from spillebord.testing import play_match


def speed(seconds: float = 5.0, seats: int = 4) -> float:
    """Random-play decisions per second (legal + choice + play) under the quick options."""
    opts = build(GAME.Options, GAME.quick_options)
    n = games = 0
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        s = GAME.new(seats, games, opts)
        r = Rng(games)
        while s.to_act is not None:
            s.play(r.choice(s.legal()))
            n += 1
        games += 1
    return n / (time.perf_counter() - t)


def match(games: int, seats: int, agent: str, options: dict[str, str]) -> tuple[int, int]:
    """Outright wins of ``agent`` (its seat rotating) against random bots."""
    wins = 0
    for g in range(games):
        hero = g % seats
        m = play_match(GAME, [agent if i == hero else "random" for i in range(seats)], 10_000 + g, options)
        wins += m.outcome[hero] == 1.0
    return wins, games


if __name__ == "__main__":
    args = sys.argv[1:]
    games = int(args[0]) if args else 200
    seats = int(args[1]) if len(args) > 1 else 4
    agent = args[2] if len(args) > 2 else "heuristic"
    options = dict(a.split("=", 1) for a in args[3:]) or {"max_rounds": "200"}
    print(f"random play: {speed():,.0f} decisions/s (4 seats, quick options)")
    t = time.perf_counter()
    w, n = match(games, seats, agent, options)
    print(
        f"{agent} vs random, {seats} seats, {options}: {w}/{n} outright wins = {w / n:.0%}"
        f" ({time.perf_counter() - t:.0f} s)"
    )
