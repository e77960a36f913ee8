"""One bot against another at any game: seats rotated, score with a 95% Wilson interval.

Every decision goes through the shared match loop (``spillebord.testing.play_match``), so
each bot sees only its own seat. Game ``i`` uses deal ``seed + i // seats``, and each deal is
played once with the first bot in every seat (duplicate deals: luck of the deal cancels out).

    python benchmarks/strength.py kasino greedy random --games 200
    python benchmarks/strength.py metscri planner heuristic --games 40 -o max_rounds=30
"""

from __future__ import annotations

import argparse
import math
import time

from spillebord.core import registry
from spillebord.core.options import parse_pairs
from spillebord.testing import play_match


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a mean score ``score`` over ``n`` games."""
    if n == 0:
        return (0.0, 1.0)
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("bot")
    ap.add_argument("opponent")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seats", type=int, default=None, help="players (default: the game's minimum)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--option", action="append", default=[], help="KEY=VALUE table option")
    args = ap.parse_args()
    game = registry.get(args.game)
    seats = args.seats or game.seats.start
    options = parse_pairs(args.option)
    total = 0.0
    truncated = 0
    own = [0.0, 0.0]
    t0 = time.process_time()
    for i in range(args.games):
        seat = i % seats  # the bot's seat; every other seat plays the opponent
        names = [args.opponent] * seats
        names[seat] = args.bot
        deal = args.seed + i // seats
        m = play_match(game, names, seed=deal, options=options, agent_seed=args.seed * 7919 + i)
        total += m.outcome[seat]
        truncated += m.truncated
        own[0] += m.scores[seat]
        own[1] += sum(m.scores[s] for s in range(seats) if s != seat) / (seats - 1)
    n = args.games
    lo, hi = wilson(total / n, n)
    print(
        f"{game.id}: {args.bot} vs {args.opponent}, {n} games at {seats} seats, seats rotated: "
        f"score {total / n:.3f} (95% CI {lo:.3f}–{hi:.3f}); mean own score {own[0] / n:.1f} vs "
        f"{own[1] / n:.1f}; {truncated} truncated; {time.process_time() - t0:.1f} CPU s"
    )


if __name__ == "__main__":
    main()
