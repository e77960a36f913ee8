"""Experiment: does a trade war pay in Fuldrigger? A round robin of the trader and raiders.

The trader "stays out of trade wars": it never fits a privateer. ``RaiderAgent`` is the
trader at war (``bots.RaiderAgent``: privateers that lie in wait ahead of the opponents'
loaded ships and attack when the expected swing pays). This plays every pair of the bots
named on the same seeds, both seatings, two seats, default options, and prints each pair's
score (the first's), mean wealth margin and attacks a game.

    python tools/fuldrigger_raider.py --seeds 1 100 trader raider:6:0:10 raider:3:1:10

A raider is ``raider:PRIVATEERS:TRADERS:MIN_GAIN`` (the bot's defaults: 6, 0, 10), and
``:norace`` for one whose idle privateers do not chase the race bonuses.
"""

from __future__ import annotations

import argparse
import itertools
import time
from typing import Any

from spillebord.core import Rng, registry
from spillebord.games.fuldrigger import bots as FB
from spillebord.games.fuldrigger.actions import Launch


def make(spec: str, game: Any) -> Any:
    if spec == "trader":
        return FB.TraderAgent(game)
    _, k, t, e, *r = spec.split(":")
    return FB.RaiderAgent(game, int(k), int(t), float(e), races="norace" not in r, cautious="bold" not in r)


def pair(game: Any, a: Any, b: Any, seeds: tuple[int, int]) -> tuple[float, float, float, int]:
    rng = Rng(0)
    score = margin = 0.0
    attacks = games = 0
    for seed in range(seeds[0], seeds[1] + 1):
        for aseat in (0, 1):
            s: Any = game.new(2, seed)
            agents = {aseat: a, 1 - aseat: b}
            n = 0
            while s.to_act is not None and n < 20000:
                who = s.to_act
                m = agents[who].act(s.determinize(who, rng), who, rng)
                attacks += isinstance(m, Launch)
                s.play(m)
                n += 1
            out = s.outcome()
            sc = s.scores()
            score += out[aseat]
            margin += sc[aseat] - sc[1 - aseat]
            games += 1
    return score / games, margin / games, attacks / games, games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bots", nargs="+", help="trader, or raider:PRIVATEERS:TRADERS:MIN_GAIN")
    ap.add_argument("--seeds", type=int, nargs=2, default=(1, 50))
    a = ap.parse_args()
    game = registry.get("fuldrigger")
    try:
        bots = {b: make(b, game) for b in a.bots}
    except ValueError:
        ap.error(f"a bot is trader or raider:PRIVATEERS:TRADERS:MIN_GAIN[:norace][:bold], not {a.bots}")
    for x, y in itertools.combinations(a.bots, 2):
        t0 = time.process_time()
        sc, mg, at, n = pair(game, bots[x], bots[y], a.seeds)
        cpu = time.process_time() - t0
        print(f"{x} vs {y}: {sc:.3f} over {n}, margin {mg:+.0f}, attacks/game {at:.1f}, {cpu:.0f} CPU s")


if __name__ == "__main__":
    main()
