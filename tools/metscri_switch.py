"""Tune the switch rule of Metscri's search (``games/metscri/search.py``) offline.

    python tools/metscri_switch.py --collect --first 9000 --games 2 --every 12 \
        --rounds 48 --truth 48 --out pos.jsonl
    python tools/metscri_switch.py --analyse pos.jsonl --budget 25

``--collect``: the planner plays itself at two seats; every ``every``-th searched decision (not
a roll, two legal actions or more), the search's candidates at the widest (the planner's move
and the next ``MAX_WIDTH - 1`` by one ply) are

* played out ``rounds`` times exactly as the search does: each round one determinization of
  the seat to act and one playout seed shared by every candidate (the search's samples), and
* played out ``truth`` times from the TRUE state (each round one playout seed shared by every
  candidate): the candidates' true values, up to the playouts' noise;

one row a position: both tables of values, round by round.

``--analyse``: for each rule (width, ``SWITCH_Z``) and each position, the search at ``budget``
playouts is simulated 40 times by drawing its rounds (without replacement) from the search's
table; its choice is valued by the true table: the mean paired gain over the planner's move.
Printed: the mean gain a decision (in chance of winning) with its standard error over
positions, and how often the search leaves the planner's move.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from switching import mean_se, simulate, switch_to, true_means


def collect(first: int, games: int, every: int, rounds: int, truth: int, out: str, limit: int) -> None:
    from spillebord.core import Rng, registry
    from spillebord.games.metscri import bots as MB
    from spillebord.games.metscri.search import MAX_WIDTH, MetscriSearchAgent

    game = registry.get("metscri")
    agent = MetscriSearchAgent(game, MB.PlannerAgent(game), MB.prior, MB.defer, value=MB.relative_value)
    planner = MB.PlannerAgent(game)
    with open(out, "w") as f:
        for seed in range(first, first + games):
            s: Any = game.new(2, seed)
            rng = Rng(seed * 7 + 1)
            n = 0
            while s.to_act is not None and n < limit:
                seat = s.to_act
                if not MB.defer(s, seat) and len(s.legal()) > 1:
                    if n % every == 0:
                        view = s.determinize(seat, rng)
                        cands, _ = agent.candidates(view, seat, rng, MAX_WIDTH)
                        vals = []
                        for _ in range(rounds):
                            d = s.determinize(seat, rng)
                            pseed = rng.next64()
                            vals.append([agent.playout(d, seat, a, Rng(pseed)) for a in cands])
                        true = []
                        for _ in range(truth):
                            pseed = rng.next64()
                            true.append([agent.playout(s, seat, a, Rng(pseed)) for a in cands])
                        row = {
                            "seed": seed,
                            "n": n,
                            "phase": int(s.phase),
                            "nlegal": len(s.legal()),
                            "cands": [str(a) for a in cands],
                            "vals": vals,
                            "true": true,
                        }
                        f.write(json.dumps(row) + "\n")
                        f.flush()
                    n += 1
                s.play(planner.act(s, seat, rng))


def gains(
    rows: list[dict[str, Any]], budget: int, width: int, z: float, margin: float
) -> tuple[list[float], float]:
    """Each position's mean true gain over 40 simulated searches, and the share of switches."""
    return simulate(
        rows,
        width,
        lambda row, k: min(len(row["vals"]), max(2, budget // k)),
        lambda sample, k: switch_to(sample, k, z, margin) if k > 1 else 0,
        lambda row, c, sample: (t := true_means(row))[c] - t[0],
    )


def analyse(path: str, budget: int) -> None:
    with open(path) as f:
        rows = [json.loads(line) for line in f]
    print(f"{len(rows)} positions, {budget} playouts")
    oracle = 0.0
    for r in rows:
        means = true_means(r)
        oracle += max(means) - means[0]
    print(f"oracle (the best candidate by the true table, width 4): {oracle / len(rows) * 1000:.2f}e-3")
    for width in (2, 3, 4):
        for z in (0.0, 0.5, 1.0, 1.5, 2.0, 3.0):
            p, sw = gains(rows, budget, width, z, 0.005)
            m, se = mean_se(p)
            print(f"width {width}, z {z}: {m * 1000:+.2f}e-3 ± {se * 1000:.2f}e-3, switched {sw:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--collect", action="store_true")
    ap.add_argument("--first", type=int, default=9000)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--every", type=int, default=9)
    ap.add_argument("--rounds", type=int, default=48)
    ap.add_argument("--truth", type=int, default=48)
    ap.add_argument("--limit", type=int, default=10**9, help="searched decisions a game at most")
    ap.add_argument("--out", default="metscri_switch.jsonl")
    ap.add_argument("--analyse")
    ap.add_argument("--budget", type=int, default=25)
    a = ap.parse_args()
    if a.collect:
        collect(a.first, a.games, a.every, a.rounds, a.truth, a.out, a.limit)
    if a.analyse:
        analyse(a.analyse, a.budget)


if __name__ == "__main__":
    main()
