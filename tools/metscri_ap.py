"""Where Metscri's bots spend their action points: AP by phase, lost turns, groups and points.

    python tools/metscri_ap.py --bots gatherer,gatherer --seeds 1 4
    python tools/metscri_ap.py --bots gatherer,gatherer --seeds 1 4 --set PLAN_CLAIMS=False

Each seed is one two-seat game, the first bot in seat 0; the agents' random stream is
``Rng(seed)``. ``--set NAME=VALUE`` sets a constant of ``games/metscri/bots.py`` for both bots
(a Python literal). Printed per seat, summed over the games: turns, turns lost to a lower roll
(R7), AP spent on each kind of action (Move, Enter, Turn, Spy, Invest) and how many, spies of
cards the seat already knew that it did not reveal (R20), groups collected, their points, and
wins.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from metscri_support import parse_setting


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--bots", default="gatherer,gatherer", help="the two agents, seat 0 and seat 1")
    p.add_argument("--seeds", type=int, nargs=2, default=(1, 4), metavar=("FIRST", "LAST"))
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a constant of bots.py")
    a = p.parse_args(argv)
    names = a.bots.split(",")
    if len(names) != 2 or a.seeds[0] > a.seeds[1]:
        p.error("--bots takes two agents, --seeds FIRST <= LAST")
    from spillebord.ai import agent_names, decide, make_agent
    from spillebord.core import Rng, registry
    from spillebord.games.metscri import bots as MB
    from spillebord.games.metscri.actions import Collect, Reveal, Spy

    game = registry.get("metscri")
    for n in names:
        if n not in agent_names(game):
            p.error(f"unknown Metscri agent {n!r}")
    for pair in a.set:
        try:
            setattr(MB, *parse_setting(pair))
        except ValueError as e:
            p.error(str(e))
    totals = [Counter[str](), Counter[str]()]
    for seed in range(a.seeds[0], a.seeds[1] + 1):
        agents = [make_agent(n, game) for n in names]
        s = game.new(2, seed)
        rng = Rng(seed)
        pending_known: int | None = None  # the square of a spy on a card the seat knew
        while s.to_act is not None:
            seat = s.to_act
            t = totals[seat]
            act = decide(agents[seat], s, rng)
            if pending_known is not None and not isinstance(act, Reveal):
                t["known spies not revealed"] += 1
            pending_known = None
            if isinstance(act, Spy) and act.square in MB.known_tops(s, seat):
                pending_known = act.square
            ap, points = s.ap, s.points[seat]
            s.play(act)
            kind = type(act).__name__
            if str(act) == "stop":
                t["turns"] += 1
            elif str(act) == "roll" and s.to_act != seat and s.outcome() is None:
                t["turns"] += 1
                t["turns lost"] += 1
            elif kind in ("Move", "Enter", "Turn", "Spy", "Invest"):
                t[f"AP {kind}"] += ap - s.ap
                t[f"n {kind}"] += 1
            elif isinstance(act, Collect):
                t["groups"] += 1
                t["points"] += s.points[seat] - points
        out = s.outcome()
        for seat in (0, 1):
            totals[seat]["games"] += 1
            totals[seat]["wins"] += out[seat] if out is not None else 0
    for seat, name in enumerate(names):
        print(f"seat {seat} ({name}): " + ", ".join(f"{k} {v:g}" for k, v in sorted(totals[seat].items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
