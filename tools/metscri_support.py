"""Metscri's bots with one setting of the evaluation against another, in one process.

    python tools/metscri_support.py --support 1.0 --against 0.0 --seeds 1 40 --workers 2
    python tools/metscri_support.py --support 1.0 --against 1.0 --bots planner,heuristic --seeds 1 24
    python tools/metscri_support.py --set PLAN_CLAIMS=True --bots gatherer,gatherer --seeds 1 100

The evaluation (``games/metscri/bots.py``) adds ``W_SUPPORT`` x 0.5 for each of up to two hand
cards that could join a face-down card only the seat knows (``--support``, ``--against``); any
other module constant of it is set with ``--set NAME=VALUE`` (the first bot) and
``--against-set NAME=VALUE`` (the second), a Python literal. The arena cannot seat one bot with
two values of a module constant, so this script sets them before each decision to the deciding
seat's values. The figures of sessions 16-20 were measured before ``PLAN_CLAIMS`` (on since
session 21): add ``--set PLAN_CLAIMS=False --against-set PLAN_CLAIMS=False`` to play them
again. W_NEXT, NEXT_KEEP and NEXT_HIDDEN (session 26) weigh in the stager's evaluation only
(``StagerAgent.staging``): set them with ``--bots stager,...``; on any other bot they change
nothing. Session 26's screens set them on the gatherer, which read them then: the same games
are ``--bots stager,gatherer`` with the settings (the module's values are the confirmed ones).
Each seed is one deal played twice, the seats swapped (the first bot seats 0 then 1); the
agents' random stream is ``Rng(seed * 7 + game)``. A game still going
after ``--cap`` decisions (a finished game takes 900-1,600) is reported as stalled and scored
a half.

A setting no decision turns on plays the very games of the module's own value: W_OPP (no
action changes the opponent's points, so it weighs only in the search's value) and W_PLAN
from 6 to 12 did (session 23). Their game lines are then the same line for line as a run of
``--set NAME=<the module's value>``, and the score is the seats' and the random streams', not the
setting's: compare the lines (``diff``) before reading a score.

Printed: a line per game (seed, the first bot's seat, decisions, its score, the M-points, the
cards in hand at the end), then the first bot's score over all games with its 95% Wilson
interval, the interval read deal by deal (``arena.stats.deal_interval``), the deals it won on
balance, split and lost, and the number of stalled games.
"""

from __future__ import annotations

import argparse
import ast
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

Settings = dict[str, Any]


def parse_setting(pair: str) -> tuple[str, Any]:
    """``NAME=VALUE`` as (the name, the value): NAME a constant of ``games/metscri/bots.py`` (an
    upper-case name it has), VALUE a Python literal; ValueError with what is wrong otherwise."""
    from spillebord.games.metscri import bots as MB

    name, sep, text = pair.partition("=")
    if not sep or not name.isupper() or not hasattr(MB, name):
        raise ValueError(f"{pair!r}: give NAME=VALUE with a constant of games/metscri/bots.py")
    try:
        return name, ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise ValueError(f"{pair!r}: the value is not a Python literal") from None


def play_deal(
    args: tuple[int, Settings, Settings, str, str, int],
) -> list[tuple[int, int, int, float, bool, str]]:
    """Both games of one deal: (seed, first bot's seat, decisions, its score, stalled, line)."""
    seed, support, against, first, second, cap = args
    from spillebord.ai import decide, make_agent
    from spillebord.core import Rng, registry
    from spillebord.games.metscri import bots as MB

    game = registry.get("metscri")
    out = []
    for seat_a in (0, 1):
        names = [first, second] if seat_a == 0 else [second, first]
        weights = [support, against] if seat_a == 0 else [against, support]
        agents = [make_agent(n, game) for n in names]
        s: Any = game.new(2, seed)
        rng = Rng(seed * 7 + seat_a)
        n = 0
        while s.to_act is not None and n < cap:
            seat = s.to_act
            for name, val in weights[seat].items():
                setattr(MB, name, val)
            s.play(decide(agents[seat], s, rng))
            n += 1
        res = s.outcome()
        stalled = res is None
        score = 0.5 if res is None else float(res[seat_a])
        pts = s.points
        hands = [len(h) for h in s.hands]
        line = (
            f"seed {seed} seat {seat_a} decisions {n} score {score} "
            f"points {pts[seat_a]}-{pts[1 - seat_a]} hands {hands[seat_a]}-{hands[1 - seat_a]}"
            + (" STALLED" if stalled else "")
        )
        out.append((seed, seat_a, n, score, stalled, line))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--support", type=float, help="W_SUPPORT of the first bot (default: the module's)")
    p.add_argument("--against", type=float, help="W_SUPPORT of the second bot (default: the module's)")
    p.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="a constant of the first bot's"
    )
    p.add_argument(
        "--against-set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a constant of the second bot's",
    )
    p.add_argument(
        "--bots", default="planner,planner", help="the two agents, first,second (default planner,planner)"
    )
    p.add_argument(
        "--seeds", type=int, nargs=2, default=(1, 40), metavar=("FIRST", "LAST"), help="deals, inclusive"
    )
    p.add_argument("--cap", type=int, default=4000, help="decisions before a game counts as stalled")
    p.add_argument("--workers", type=int, default=1)
    a = p.parse_args(argv)
    names = a.bots.split(",")
    if len(names) != 2 or a.seeds[0] > a.seeds[1] or a.workers < 1 or a.cap < 1:
        p.error("--bots takes two agents, --seeds FIRST <= LAST, --workers and --cap at least 1")
    from spillebord.games.metscri import bots as MB

    def settings(pairs: list[str], support: float | None) -> Settings:
        out: Settings = {}
        for pair in pairs:
            try:
                name, val = parse_setting(pair)
            except ValueError as e:
                p.error(str(e))
            out[name] = val
        if support is not None:
            out["W_SUPPORT"] = support
        # both bots set every constant either sets, so no value is left from the other seat
        return out

    first_set, second_set = settings(a.set, a.support), settings(a.against_set, a.against)
    for name in set(first_set) | set(second_set):
        first_set.setdefault(name, getattr(MB, name))
        second_set.setdefault(name, getattr(MB, name))
    from spillebord.ai import agent_names
    from spillebord.arena.stats import deal_interval, deal_split, wilson
    from spillebord.core import registry

    known = agent_names(registry.get("metscri"))
    for n in names:
        if n not in known:
            p.error(f"unknown Metscri agent {n!r}; choose from {', '.join(known)}")
    jobs = [
        (seed, first_set, second_set, names[0], names[1], a.cap) for seed in range(a.seeds[0], a.seeds[1] + 1)
    ]
    total = 0.0
    games = stalled = 0
    deals: list[float] = []
    with ProcessPoolExecutor(a.workers) as pool:
        for deal in pool.map(play_deal, jobs):
            for _, _, _, score, st, line in deal:
                print(line, flush=True)
                total += score
                games += 1
                stalled += st
            deals.append(sum(g[3] for g in deal) / len(deal))
    lo, hi = wilson(total / games, games)
    by_deals = deal_interval(deals)
    read = f"{by_deals[0]:.3f}-{by_deals[1]:.3f}" if by_deals is not None else "too few deals"
    won, split, lost = deal_split(d - 0.5 for d in deals)
    print(
        f"{names[0]} with {first_set} against {names[1]} with {second_set}: "
        f"{total:g} of {games} games, {total / games:.3f} ({lo:.3f}-{hi:.3f}); by deals {read}, "
        f"deals {won}/{split}/{lost}; stalled {stalled}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
