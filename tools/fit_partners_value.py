"""Fit Partners' search value (``games/partners/bots.py``, W_EVAL …) on self-play.

    python tools/fit_partners_value.py --games 2000 --first 1000 --out partners.jsonl
    python tools/fit_partners_value.py --fit partners.jsonl      # needs numpy

The playout policy (the ``partners`` bot, 10% random moves) plays itself at four seats,
default options; every third decision one row: the features of :func:`features` (partnership
0's side) and the winning partnership. The fit is a logistic regression without intercept by
Newton's method; half the games (by parity) are held out, and the log-likelihood a position is
printed next to the hand-set value's (the evaluation over 300).

On 3 000 games (seeds 1000-3999, 267 000 positions): held out -0.612 a position against -0.645
for the evaluation over 300, with W_EVAL 0.867, W_EVAL2 -0.160, W_HOME 0.131, W_CIRCLE -0.016,
W_DONE 0.982, W_LAGGARD 0.322, W_CARDS 0.058, W_TURN 0.005. The search with it scored 0.550
(0.342-0.742) against ``partners`` on the 20 games of seed 1 where the hand-set value scored
0.650, so it was not adopted (docs/bots.md).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from logistic import fit_logistic, log_likelihood, sigmoid

from spillebord.ai import bots_for
from spillebord.core import Rng, State, registry
from spillebord.games.partners.bots import VALUE_SCALE, piece_value, team_value
from spillebord.games.partners.data import CIRCLE, HOUSE, team
from spillebord.games.partners.rules import PartnersState

FEATURES = ("eval", "eval2", "home", "circle", "done", "laggard", "cards", "turn")
"""The fitted value's features (:func:`features`), in the order of their weights."""


def features(state: PartnersState, t: int) -> list[float]:
    """Partnership ``t``'s side of the public race (its figure minus the other's): the
    evaluation over 300 and its signed square, pieces home, pieces in the circle, colours
    finished, the laggard's progress (its least advanced piece, over 80), cards in the
    partners' hands, and +1 when one of its colours is to play."""
    pos = state.pos
    ev = team_value(state, t) / VALUE_SCALE
    f = [ev, ev * abs(ev), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    for c in range(4):
        sign = 1.0 if team(c) == t else -1.0
        pcs = pos[c]
        home = sum(1 for p in pcs if p >= HOUSE)
        f[2] += sign * home
        f[3] += sign * sum(1 for p in pcs if p == CIRCLE)
        f[4] += sign * (home == len(pcs))
        f[5] += sign * min(piece_value(c, p) for p in pcs) / 80.0
        f[6] += sign * len(state.hands[c])
    if state.turn is not None:
        f[7] = 1.0 if team(state.turn) == t else -1.0
    return f


def generate(first: int, games: int, every: int, out: str) -> None:
    game = registry.get("partners")
    policy = bots_for(game).rollout
    assert policy is not None
    with open(out, "w") as f:
        for seed in range(first, first + games):
            s = game.new(4, seed)
            assert isinstance(s, PartnersState)
            rng = Rng(seed)
            rows = []
            n = 0
            while s.to_act is not None:
                if n % every == 0 and s.winner is None:
                    rows.append([team_value(s, 0) / VALUE_SCALE, *features(s, 0)])
                st: State[Any] = s
                st.play(policy(s, rng))
                n += 1
            if s.winner is None or s.winner < 0:
                continue
            y = 1 if s.winner == 0 else 0
            for r in rows:
                f.write(json.dumps([seed, y, r]) + "\n")


def fit(paths: list[str]) -> None:
    import numpy as np

    rows = []
    for p in paths:
        with open(p) as f:
            rows += [json.loads(line) for line in f]
    seeds = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows], dtype=float)
    base = np.array([r[2][0] for r in rows])
    x = np.array([r[2][1:] for r in rows], dtype=float)
    train, test = seeds % 2 == 0, seeds % 2 == 1

    w = fit_logistic(x[train], y[train], steps=30)

    def ll(z: np.ndarray, yy: np.ndarray) -> float:
        return log_likelihood(sigmoid(z), yy)

    print(f"{len(rows)} positions, {len(set(seeds.tolist()))} games")
    for name, v in zip(FEATURES, w, strict=True):
        print(f"W_{name.upper()} = {v:.4f}")
    print(
        f"held out: fitted {ll(x[test] @ w, y[test]):.4f}, hand-set (eval/300) {ll(base[test], y[test]):.4f}"
    )
    print(f"training: fitted {ll(x[train] @ w, y[train]):.4f}, hand-set {ll(base[train], y[train]):.4f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--first", type=int, default=1000)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--out")
    ap.add_argument("--fit", nargs="*")
    a = ap.parse_args()
    if a.fit:
        fit(a.fit)
    else:
        generate(a.first, a.games, a.every, a.out)


if __name__ == "__main__":
    main()
