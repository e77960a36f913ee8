"""Metscri's search kit, before and after the playouts that weigh only the entries next to a
possible group partner (a benchmark, not a test).

The same six positions (decisions 120, 240 and 359 of two games of the planner against
itself, seeds 0 and 1) are searched with each kit, interleaved twice: the old one (the full
one-ply heuristic as playout policy, one ply over every action as prior) and the registered
one. Printed: ISMCTS iterations per CPU second (``time.process_time``).

    python benchmarks/metscri_playouts.py          # 20 iterations a position
    python benchmarks/metscri_playouts.py 40
"""

from __future__ import annotations

import dataclasses
import sys
import time

from spillebord.ai import Budget, IsmctsAgent, bots_for, decide, make_agent, register_bots
from spillebord.ai.playout import epsilon_greedy
from spillebord.core import Rng, State, registry
from spillebord.games.metscri import bots as metscri_bots


def positions() -> list[State[object]]:
    game = registry.get("metscri")
    out: list[State[object]] = []
    for seed in range(2):
        s = game.new(2, seed)
        rng = Rng(seed)
        planner = make_agent("planner", game)
        for n in range(360):
            if s.to_act is None:
                break
            if n in (120, 240, 359):
                out.append(s.copy())
            s.play(decide(planner, s, rng))
    return out


def main() -> None:
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    game = registry.get("metscri")
    new = bots_for(game)
    old = dataclasses.replace(
        new,
        rollout=epsilon_greedy(metscri_bots.HeuristicAgent(game).act, 0.1),
        prior=metscri_bots.full_prior,
    )
    pos = positions()
    for name, kit in (("old", old), ("new", new), ("old", old), ("new", new)):
        register_bots(game, kit)
        t = time.process_time()
        for i, s in enumerate(pos):
            seat = s.to_act
            assert seat is not None
            d = s.determinize(seat, Rng(i))
            IsmctsAgent(game).analyse(d, seat, Rng(i), Budget(iterations=iterations))
        dt = time.process_time() - t
        print(f"{name}: {iterations * len(pos) / dt:.1f} iterations per CPU second ({len(pos)} positions)")
    register_bots(game, new)


if __name__ == "__main__":
    main()
