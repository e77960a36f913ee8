"""Random games of one engine, for instruction counts (callgrind), which load does not change.

    PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/playout.py partners 30 30

plays WARM games (seeds 1000…) to fill the engine's tables and memos, then N games (seeds
0…N-1): ``game.new(2, seed)`` and uniformly random legal actions to the end, the loop of
``side_by_side.py``. Run it again with N = 0 and subtract: the difference is the cost of the
N games with warm caches. Prints the number of decisions played.
"""

from __future__ import annotations

import sys

from spillebord.core import Rng, registry
from spillebord.core.options import build


def main() -> None:
    gid, warm, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    game = registry.get(gid)
    opts = build(game.Options, {})
    decisions = 0
    for seed in [*range(1000, 1000 + warm), *range(n)]:
        rng = Rng(seed)
        state = game.new(2, seed, opts)
        while state.to_act is not None:
            state.play(rng.choice(state.legal()))
            decisions += 1
    print(decisions)


if __name__ == "__main__":
    main()
