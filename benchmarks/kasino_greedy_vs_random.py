"""Kasino: the greedy agent against the random agent, two seats, alternating seats.

Both bots are asked the fair way (``spillebord.ai.decide``: a determinization from their own
seat). A game is won by the higher final total (games run to the target, default 21).

    python benchmarks/kasino_greedy_vs_random.py --games 200 --seed 1
"""

from __future__ import annotations

import argparse
import time

from spillebord.ai import decide, make_agent
from spillebord.core import Rng, registry
from spillebord.core.options import build as build_options


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], help="KEY=VALUE table option")
    args = ap.parse_args()
    game = registry.get("kasino")
    opts = build_options(game.Options, dict(kv.split("=", 1) for kv in args.option))
    greedy, rand = make_agent("greedy", game), make_agent("random", game)
    wins = draws = 0
    points = [0.0, 0.0]
    t0 = time.perf_counter()
    for i in range(args.games):
        seed = args.seed * 100_003 + i
        g_seat = i % 2
        agents = [greedy, rand] if g_seat == 0 else [rand, greedy]
        state = game.new(2, seed, opts)
        rng = Rng(seed ^ 0xA5A5)
        while state.to_act is not None:
            state.play(decide(agents[state.to_act], state, rng))
        res = state.result()
        assert res is not None
        mine, theirs = res[g_seat], res[1 - g_seat]
        points[0] += mine
        points[1] += theirs
        if mine > theirs:
            wins += 1
        elif mine == theirs:
            draws += 1
    dt = time.perf_counter() - t0
    n = args.games
    print(
        f"greedy vs random, {n} two-seat games (seed {args.seed}): greedy won {wins} "
        f"({100 * wins / n:.1f}%), drew {draws}, lost {n - wins - draws}; "
        f"mean points {points[0] / n:.1f} vs {points[1] / n:.1f}; {dt:.1f}s"
    )


if __name__ == "__main__":
    main()
