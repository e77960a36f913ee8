"""The search bot's decisions at a few fixed positions: their CPU time and their choices.

    python benchmarks/search_decisions.py touche --iterations 720
    PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/search_decisions.py touche --iterations 360

Each position comes from a game of the game's best bot against itself (seed, decisions
played), as listed below; ``ismcts`` then decides there for the seat to act (``--decisions``
in a row, playing its own choices), from that seat's determinization, with an iteration
budget, so the choices are deterministic: the printed
choices of two versions of the code must agree, and their instruction counts (callgrind, run
twice at two budgets and subtracted) compare the search's cost without the set-up.
"""

from __future__ import annotations

import argparse
import time

from spillebord.ai import Budget
from spillebord.ai.registry import best_agent, decide, make_agent
from spillebord.core import Rng, registry
from spillebord.core.options import build

POSITIONS = ((7, 20), (3, 60), (11, 120), (5, 90))
"""(seed, decisions played by the best bot) of each position."""


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", help="A game id (spillebord games).")
    p.add_argument("--iterations", type=int, default=720, help="The search's budget a decision.")
    p.add_argument("--seats", type=int, default=2)
    p.add_argument(
        "--decisions",
        type=int,
        default=1,
        help="Decisions in a row from each position (the search plays its own).",
    )
    a = p.parse_args()
    game = registry.get(a.game)
    opts = build(game.Options, {})
    bot = make_agent(best_agent(game), game)
    states = []
    for seed, n in POSITIONS:
        state = game.new(a.seats, seed, opts)
        rng = Rng(seed)
        for _ in range(n):
            if state.to_act is None:
                break
            state.play(decide(bot, state, rng))
        if state.to_act is not None:
            states.append(state)
    search = make_agent("ismcts", game)
    t = time.process_time()
    choices = []
    for s in states:
        for k in range(a.decisions):
            if s.to_act is None:
                break
            choice = decide(search, s, Rng(1 + k), Budget(iterations=a.iterations))
            choices.append(str(choice))
            s.play(choice)
    cpu = time.process_time() - t
    print(f"{a.game}: {len(choices)} decisions at {a.iterations} iterations in {cpu:.2f} CPU s")
    for c in choices:
        print(" ", c)


if __name__ == "__main__":
    main()
