"""Fit 88's round-end model (``games/eightyeight/roundsearch.py``, W_PEGS …) on self-play.

    python tools/fit_eightyeight_round_end.py --games 3000 --first 1000 --epsilon 0.1 --out a.jsonl
    python tools/fit_eightyeight_round_end.py --games 2000 --first 5000 --epsilon 0.3 --out b.jsonl
    python tools/fit_eightyeight_round_end.py --fit a.jsonl b.jsonl      # needs numpy

The heuristic plays itself (two seats, default options, ``epsilon`` random moves); at every
round's end one row: the pegs, the next setter, each panel's expected best distance and
exact-hit chance, the next round's expected result and the other's chance of hitting alone,
and the game's result for seat 0. The fit is a logistic regression without intercept, from the
next setter's side, by Newton's method; half the games (by parity) are held out.
"""

from __future__ import annotations

import argparse
import json

from logistic import fit_logistic, log_likelihood, sigmoid

from spillebord.ai.playout import epsilon_greedy
from spillebord.games.eightyeight import GAME
from spillebord.games.eightyeight.bots import HeuristicAgent
from spillebord.games.eightyeight.roundsearch import next_round, panel_features

FEATURES = ("pegs", "last", "setter", "ex_setter", "ex_other", "next", "win_setter", "win_other")
"""In the order of W_PEGS, W_LAST, W_SETTER, W_EX_SETTER, W_EX_OTHER, W_NEXT, W_WIN_SETTER,
W_WIN_OTHER."""


def generate(first: int, games: int, epsilon: float, out: str) -> None:
    policy = epsilon_greedy(HeuristicAgent(GAME).act, epsilon)
    with open(out, "w") as f:
        for seed in range(first, first + games):
            s = GAME.new(2, seed)
            rows = []
            seen = 0
            while s.to_act is not None:
                s.play(policy(s, s.rng))
                if s.round_no != seen and s.to_act is not None:
                    seen = s.round_no
                    comp = s.opts.deck_composition
                    ns = s.setter
                    a, b = s.panels[ns], s.panels[1 - ns]
                    assert a is not None and b is not None
                    _, ex_a = panel_features(s.geo, a, comp)
                    _, ex_b = panel_features(s.geo, b, comp)
                    result, alone = next_round(s.geo, a, b, comp)
                    rows.append([seed, ns, s.pegs[ns], s.pegs[1 - ns], ex_a, ex_b, result, alone])
            outcome = s.outcome()
            assert outcome is not None
            for r in rows:
                f.write(json.dumps([*r, outcome[r[1]]]) + "\n")  # the next setter's result


def fit(paths: list[str], track: int = 10) -> None:
    import numpy as np

    rows = []
    for path in paths:
        with open(path) as f:
            rows.extend(json.loads(line) for line in f)
    a = np.array(rows, dtype=float)
    seed, _, ps, po, ex_s, ex_o, result, alone, y = a.T
    w = track - 1
    last_s, last_o = (ps == w).astype(float), (po == w).astype(float)
    x = np.stack(
        [ps - po, last_s - last_o, np.ones_like(y), ex_s, ex_o, result, last_s * ex_s, last_o * alone], 1
    )
    train = seed % 2 == 0

    beta = fit_logistic(x[train], y[train])
    held_out = log_likelihood(sigmoid(x[~train] @ beta), y[~train])
    print(f"{len(y)} positions; held-out log-likelihood a position {held_out:.4f}")
    print(
        "all data:",
        " ".join(f"{k}={v:.3f}" for k, v in zip(FEATURES, fit_logistic(x, y), strict=True)),
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--first", type=int, default=1000)
    ap.add_argument("--epsilon", type=float, default=0.1)
    ap.add_argument("--out")
    ap.add_argument("--fit", nargs="*")
    args = ap.parse_args()
    if args.fit:
        fit(args.fit)
    else:
        generate(args.first, args.games, args.epsilon, args.out)


if __name__ == "__main__":
    main()
