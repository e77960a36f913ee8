"""Fit Touché's search value (``games/touche/bots.py``, ``W_MOVER`` and ``W_OTHER``) on self-play.

    python tools/fit_touche_value.py --games 3000 --first 1000 --epsilon 0.1 --out a.jsonl
    python tools/fit_touche_value.py --fit a.jsonl                     # needs numpy

The heuristic plays itself (two seats, default options, ``epsilon`` random moves, as in the
search's playouts); at every other decision of the play phase one row: the side to act's
features and the other side's (``side_features``), the games each has won in the match, the
old evaluation, and who won the current game and the match. The fit is a logistic regression
of "the side to act wins the current game" (drawn games left out) with an intercept (the
tempo), by Newton's method; half the matches (by parity) are held out. The match value then
follows from the game's chance and the match score (``match_chance``); the log-likelihood of
the match's winner is printed for it and for the old value (the logistic of the evaluation
over 10 000), on the held-out half.
"""

from __future__ import annotations

import argparse
import json

from logistic import fit_logistic, log_likelihood

from spillebord.ai.playout import epsilon_greedy
from spillebord.games.touche import GAME
from spillebord.games.touche.bots import FEATURES, HeuristicAgent, evaluate, side_features


def generate(first: int, games: int, epsilon: float, out: str) -> None:
    policy = epsilon_greedy(HeuristicAgent(GAME).act, epsilon)
    with open(out, "w") as f:
        for seed in range(first, first + games):
            s = GAME.new(2, seed)
            rows: list[list[object]] = []
            k = 0
            while s.to_act is not None:
                if s.phase == "play":
                    k += 1
                    if k % 2 == 0:
                        seat = s.to_act
                        me = s.side_of[seat]
                        rows.append(
                            [
                                seed,
                                s.game_no,
                                me,
                                side_features(s, me),
                                side_features(s, 1 - me),
                                s.match_wins[me],
                                s.match_wins[1 - me],
                                evaluate(s, seat),
                            ]
                        )
                s.play(policy(s, s.rng))
            out_ = s.outcome()
            assert out_ is not None
            winners = {no: w for no, (_, w, _) in enumerate(s.games, start=1)}
            for r in rows:
                me = r[2]
                w = winners[r[1]]  # type: ignore[index]
                game_y = -1 if w < 0 else int(w == me)
                match_y = out_[s.side_of.index(me)]  # type: ignore[arg-type]
                f.write(json.dumps([*r, game_y, match_y]) + "\n")


def fit(paths: list[str]) -> None:
    import numpy as np

    from spillebord.games.touche.bots import match_chance

    rows = []
    for path in paths:
        with open(path) as f:
            rows.extend(json.loads(line) for line in f)
    seed = np.array([r[0] for r in rows])
    fm = np.array([r[3] for r in rows], dtype=float)
    fo = np.array([r[4] for r in rows], dtype=float)
    wm = np.array([r[5] for r in rows])
    wo = np.array([r[6] for r in rows])
    ev = np.array([r[7] for r in rows], dtype=float)
    gy = np.array([r[8] for r in rows], dtype=float)
    my = np.array([r[9] for r in rows], dtype=float)
    x = np.concatenate([np.ones((len(rows), 1)), fm, fo], 1)
    names = ["tempo", *(f"mover.{n}" for n in FEATURES), *(f"other.{n}" for n in FEATURES)]
    train = seed % 2 == 0
    decided = gy >= 0

    def newton(sel: np.ndarray) -> np.ndarray:
        return fit_logistic(x[sel], gy[sel])

    ll = log_likelihood

    beta = newton(train & decided)
    test = ~train & decided
    pg = 1 / (1 + np.exp(-(x @ beta)))
    print(f"{len(rows)} positions of {len(set(seed.tolist()))} matches")
    print(f"held-out game log-likelihood a position: fitted {ll(pg[test], gy[test]):.4f}")
    old = 1 / (1 + np.exp(-ev / 10_000))
    print(f"  the old evaluation / 10 000 for the game: {ll(old[test], gy[test]):.4f}")
    pm = np.array([match_chance(p, int(a), int(b), 3) for p, a, b in zip(pg, wm, wo, strict=True)])
    ho = ~train
    print(f"held-out match log-likelihood: fitted {ll(pm[ho], my[ho]):.4f}, old {ll(old[ho], my[ho]):.4f}")
    full = newton(decided)
    print("all data:")
    for n, v in zip(names, full, strict=True):
        print(f"  {n:18s} {v:+.3f}")


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
