"""Tune the switch rule of Touché's search (``games/touche/rollsearch.py``) offline.

    python tools/touche_switch.py --collect --first 700 --positions 60 --every 7 --out a.jsonl
    python tools/touche_switch.py --analyse a.jsonl b.jsonl --budget 180

``--collect``: positions of heuristic-against-heuristic matches (two seats, default options;
every ``every``-th play decision with a choice, matches from seed ``first``). At each, from one
of the seat's determinizations (as the arena hands it), the search's candidates at the widest
(``--width``: the heuristic's move and its next best by the heuristic's scores) are played
out ``rounds`` times with the search's own paired playouts (``RolloutSearchAgent.paired``:
the same determinization and random stream for every candidate). Then each candidate is
valued from the *true* hands (``tools/touche_choice_test.playout``: the piles re-drawn, the
heuristic on both sides to the end of the current game, the match's chance; ``evals`` times,
the same draws for every candidate). One row a position: the search's rounds and the true
values.

``--analyse``: for each rule (shortlist width, ``SWITCH_Z``) and each position, the search at
``budget`` playouts (``budget // width`` rounds) is simulated 40 times by drawing its rounds
(without replacement) from the row, choosing as ``RolloutSearchAgent.act`` does (the best
mean, if its paired difference to the heuristic's move is above ``z`` standard errors). Its
choice is valued by the true values (measured apart from the search's rounds, so unbiased):
the gain in the match's chance over the heuristic's move. Printed: the mean gain a decision
and its difference to the rule the search has (width 5 at 180, z 1.0), with the standard error
of that difference over positions (paired: the same positions and true values).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from switching import held_out_worth, mean_se, paired, simulate
from touche_choice_test import playout, positions


def collect(first: int, n: int, every: int, width: int, rounds: int, evals: int, out: str) -> None:
    from spillebord.core import Rng
    from spillebord.games.touche import GAME
    from spillebord.games.touche.bots import HeuristicAgent
    from spillebord.games.touche.rollsearch import RolloutSearchAgent

    agent = RolloutSearchAgent(GAME)
    bot = HeuristicAgent(GAME)
    t0 = time.process_time()
    for i, st in enumerate(positions(first, n, every)):
        seat = st.to_act
        assert seat is not None
        if not RolloutSearchAgent.covers(st):
            continue
        rng = Rng(first * 1000 + i)
        view = st.determinize(seat, rng)
        scored = agent.heuristic.scores(view, seat)
        base = agent.heuristic.act(view, seat, rng.spawn())
        order = sorted(range(len(scored)), key=lambda j: -scored[j][1])
        cands = [base, *[scored[j][0] for j in order if scored[j][0] != base][: width - 1]]
        if len(cands) < 2:
            continue
        vals = [agent.paired(view, seat, cands, rng.next64()) for _ in range(rounds)]
        true = [[playout(st, seat, a, 7919 * e + i, bot) for a in cands] for e in range(evals)]
        row = {
            "first": first,
            "i": i,
            "nlegal": len(scored),
            "cands": [str(a) for a in cands],
            "vals": vals,
            "true": [sum(t[j] for t in true) / evals for j in range(len(cands))],
            "true_se": [mean_se([t[j] - t[0] for t in true])[1] for j in range(len(cands))],
        }
        with open(out, "a") as f:
            f.write(json.dumps(row) + "\n")
        print(f"position {i}: {len(cands)} candidates, {time.process_time() - t0:.0f} CPU s", flush=True)


def choose(sample: list[list[float]], k: int, z: float) -> int:
    """``RolloutSearchAgent.act`` on these rounds: the best mean, kept if its paired difference
    to the heuristic's move (candidate 0) is above ``z`` standard errors."""
    r = len(sample)
    means = [sum(v[j] for v in sample) / r for j in range(k)]
    best = max(range(k), key=lambda j: means[j])
    if best == 0 or r < 2:
        return 0
    ds = [v[best] - v[0] for v in sample]
    m = sum(ds) / r
    var = max(0.0, sum(x * x for x in ds) / r - m * m) / (r - 1)
    return best if m > z * math.sqrt(var) and m > 0 else 0


def gains(
    rows: list[dict[str, Any]], budget: int, width: int, z: float, held_out: bool = False
) -> tuple[list[float], float]:
    """Each position's mean gain over 40 simulated searches, and the share of departures. The
    gain is in the true values, or with ``held_out`` in the search's own playout value on the
    rounds the simulated search did not draw (as ``tools/partners_switch.py``)."""
    return simulate(
        rows,
        width,
        lambda row, k: min(len(row["vals"]) - 1, max(2, budget // k)),
        lambda sample, k: choose(sample, k, z),
        held_out_worth if held_out else (lambda row, c, sample: row["true"][c] - row["true"][0]),
    )


def analyse(paths: list[str], budget: int, held_out: bool) -> None:
    rows = []
    for p in paths:
        with open(p) as f:
            rows += [json.loads(line) for line in f]
    what = "the search's playout value on held-out rounds" if held_out else "the match's chance (true hands)"
    print(f"{len(rows)} positions, {budget} playouts; gains in {what}")
    best = [max(r["true"]) - r["true"][0] for r in rows]
    print(
        f"the best candidate by its true value (biased up): {sum(best) / len(best) * 1000:+.2f}e-3 a decision"
    )
    base, share = gains(rows, budget, 5, 1.0, held_out)
    print(
        f"width 5, z 1.0 (the search): {sum(base) / len(base) * 1000:+.2f}e-3 a decision"
        f" (se {mean_se(base)[1] * 1000:.2f}e-3), departs {share:.0%}"
    )
    for width in (2, 3, 4, 5):
        for z in (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0):
            p, share = gains(rows, budget, width, z, held_out)
            m, se = paired(p, base)
            print(
                f"width {width}, z {z}: {sum(p) / len(p) * 1000:+.2f}e-3 a decision (departs {share:.0%})"
                f"  difference {m * 1000:+.2f}e-3 ± {se * 1000:.2f}e-3"
            )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--collect", action="store_true")
    ap.add_argument("--first", type=int, default=700)
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--width", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=160)
    ap.add_argument("--evals", type=int, default=64)
    ap.add_argument("--out", default="touche_switch.jsonl")
    ap.add_argument("--analyse", nargs="*")
    ap.add_argument("--budget", type=int, default=180)
    ap.add_argument("--held-out", action="store_true", help="gains in playout value, not the true hands'")
    a = ap.parse_args()
    if a.collect:
        collect(a.first, a.positions, a.every, a.width, a.rounds, a.evals, a.out)
    if a.analyse:
        analyse(a.analyse, a.budget, a.held_out)


if __name__ == "__main__":
    main()
