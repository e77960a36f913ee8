"""Fit the value of Fuldrigger's search (``games/fuldrigger/bots.py``: ``search_value``) on the
trader's self-play: at the start of every turn, the features of ``bots.value_features`` for
both seats (each seat's point of view: the differences to the opponent) and who won.

    PYTHONPATH=src python tools/fit_fuldrigger_value.py --games 300

prints the weights (ducats of wealth ahead, of half the profit in the holds, of ships ahead
times the rounds left, of fortresses ahead times the rounds left) divided by the first, the
scale (ducats ahead that make a 73% favourite) and the log-likelihood a position against the
evaluation's logistic alone (``bots.SCALE``), on the last fifth of the games held out.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from logistic import fit_logistic, log_likelihood, sigmoid

from spillebord.ai import make_agent
from spillebord.core import Rng, registry
from spillebord.games.fuldrigger import bots as B
from spillebord.games.fuldrigger.rules import FuldriggerState


def positions(seed: int) -> tuple[list[list[float]], list[float]]:
    game = registry.get("fuldrigger")
    trader = make_agent("trader", game)
    s = game.new(2, seed)
    assert isinstance(s, FuldriggerState)
    rng = Rng(seed)
    xs: list[list[float]] = []
    turn = s.turn
    while s.to_act is not None:
        if s.turn != turn:
            turn = s.turn
            xs.append(B.value_features(s, 0))
        s.play(trader.act(s, s.to_act, rng))
    out = s.outcome()
    assert out is not None
    return xs, [out[0]] * len(xs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--first", type=int, default=1000)
    a = ap.parse_args()
    rows: list[list[float]] = []
    ys: list[float] = []
    game_of: list[int] = []
    for g in range(a.games):
        xs, y = positions(a.first + g)
        for x, v in zip(xs, y, strict=True):  # both seats' points of view
            rows += [x, [-f for f in x]]
            ys += [v, 1.0 - v]
            game_of += [g, g]
    x = np.array(rows)
    y = np.array(ys)
    train = np.array(game_of) < a.games * 4 // 5
    beta = fit_logistic(x[train], y[train])
    print("weights / the wealth's:", (beta / beta[0]).round(3).tolist(), "scale:", round(1 / beta[0], 1))
    held = ~train
    fitted = log_likelihood(sigmoid(x[held] @ beta), y[held])
    print("held-out log-likelihood a position, fitted:", round(fitted, 4))
    base = sigmoid((x[held, 0] + x[held, 1]) / B.SCALE)
    print("the evaluation's logistic (scale", B.SCALE, "):", round(log_likelihood(base, y[held]), 4))
    print("positions:", len(y), "games:", a.games)


if __name__ == "__main__":
    main()
