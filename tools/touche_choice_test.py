"""Does Touché's search choose better than the heuristic? A position-level test.

    python tools/touche_choice_test.py --positions 60 --budget 880 --evals 160

Positions: every ``--every``-th play decision of heuristic-against-heuristic matches (two
seats, default options; seeds from ``--seed``). At each the search (``ismcts``, handed one of
the seat's determinizations, as the arena does) decides with ``--budget`` playouts. Where its
move differs from the heuristic's, both moves are played out ``--evals`` times from the *true*
hands, the piles' order re-drawn (the same draws for both moves: paired), the heuristic on
both sides to the end of the current game, and valued by the match's chance (the game won or
lost and the match score, ``bots.value``). Printed: positions, departures, and the mean gain
of the departures in the match's chance for the seat (with its standard error), and the mean
gain a decision (all positions). A search that only departs where it gains scores above the
heuristic in the arena; one whose departures lose on average scores below.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

from spillebord.ai import Budget, make_agent
from spillebord.core import Action, Rng
from spillebord.games.touche import GAME, rollsearch
from spillebord.games.touche.bots import HeuristicAgent, value
from spillebord.games.touche.rules import ToucheState


def positions(first: int, n: int, every: int) -> list[ToucheState]:
    bot = HeuristicAgent(GAME)
    out: list[ToucheState] = []
    seed = first
    while len(out) < n:
        s = GAME.new(2, seed)
        rng = Rng(seed ^ 0xC0FFEE)
        k = 0
        while s.to_act is not None and len(out) < n:
            if s.phase == "play" and len(s.legal()) > 1:
                k += 1
                if k % every == 0:
                    out.append(s.copy())
            s.play(bot.act(s, s.to_act, rng))
        seed += 1
    return out


def playout(state: ToucheState, seat: int, action: Action, seed: int, bot: HeuristicAgent) -> float:
    s = state.copy()
    s.piles_unordered = True
    s.pooled = (1 << s.seats) - 1
    s.rng = Rng(seed)
    rng = Rng(seed ^ 0xBEEF)
    games = len(s.games)
    s.play(action)
    while s.to_act is not None and len(s.games) == games:
        s.play(bot.act(s, s.to_act, rng))
    return value(s)[seat]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--every", type=int, default=9)
    ap.add_argument("--seed", type=int, default=500)
    ap.add_argument("--budget", type=int, default=880)
    ap.add_argument("--evals", type=int, default=160)
    ap.add_argument("--out", default=None, help="one JSON line a departure")
    ap.add_argument("--set", action="append", default=[], help="NAME=VALUE: a constant of rollsearch")
    args = ap.parse_args()
    for kv in args.set:
        name, val = kv.split("=")
        assert hasattr(rollsearch, name), name
        setattr(rollsearch, name, type(getattr(rollsearch, name))(val))
    bot = HeuristicAgent(GAME)
    search: Any = make_agent("ismcts", GAME)
    gains: list[float] = []
    n = 0
    t0 = time.process_time()
    for i, st in enumerate(positions(args.seed, args.positions, args.every)):
        seat = st.to_act
        assert seat is not None
        rng = Rng(args.seed * 1000 + i)
        search.act(st.determinize(seat, rng), seat, rng, Budget(iterations=args.budget))
        assert search.last_choice is not None
        base, choice = search.last_choice
        n += 1
        if choice == base:
            continue
        d = [
            playout(st, seat, choice, 7919 * j + i, bot) - playout(st, seat, base, 7919 * j + i, bot)
            for j in range(args.evals)
        ]
        g = sum(d) / len(d)
        gains.append(g)
        print(f"position {i}: {base} -> {choice}: gain {g:+.4f}", flush=True)
        if args.out:
            with open(args.out, "a") as f:
                f.write(json.dumps({"i": i, "base": str(base), "choice": str(choice), "gain": g}) + "\n")
    m = sum(gains) / len(gains) if gains else 0.0
    se = (
        math.sqrt(sum((x - m) ** 2 for x in gains) / (len(gains) - 1) / len(gains)) if len(gains) > 1 else 0.0
    )
    print(
        f"budget {args.budget}: {n} positions, {len(gains)} departures, "
        f"mean gain a departure {m:+.4f} (se {se:.4f}), won {sum(g > 0 for g in gains)} lost "
        f"{sum(g < 0 for g in gains)}; mean gain a decision {sum(gains) / max(1, n):+.4f}; "
        f"{time.process_time() - t0:.0f} CPU s"
    )


if __name__ == "__main__":
    main()
