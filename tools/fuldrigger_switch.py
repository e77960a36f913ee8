"""Tune the switch rule of Fuldrigger's search (``games/fuldrigger/search.py``) offline.

Written for the search on the trader (sessions 12-16; docs/bots.md has its figures). Since
session 19 the search plays from the raider's moves and defers sailing to the raider
(``bots.defer``); this tool still collects trader games and passes the trader as the base, so
its positions have no trade war in them.

    python tools/fuldrigger_switch.py --collect --first 9000 --games 6 --every 16 --rounds 40 \
        --true 24 --out pos.jsonl
    python tools/fuldrigger_switch.py --analyse pos.jsonl --budget 80

``--collect``: the trader plays itself (two seats); every ``every``-th decision the search
covers (a free decision the trader would not sail, with an alternative of the search's kinds),
the search's candidates at the widest (the trader's move and the next four by one ply) are

* played out ``rounds`` times on the same determinizations of the seat to act, exactly the
  search's paired playouts (``FuldriggerSearchAgent._playout``: the trader on both sides, two
  rounds, the game's value), and
* played out ``true`` times from the **true** state (the real chance deck; only the future dice
  are fresh, the same for every candidate in a round), ``--true-turns`` turns deep (default 12:
  six rounds, three times the search's horizon), valued by the game's value.

``--analyse``: for each rule (width, ``SWITCH_Z``) and each position, the search at ``budget``
iterations (``budget * 40`` playout decisions, so as many rounds as the candidates' playouts
fit) is simulated 40 times by drawing its rounds from the row's search playouts; its choice is
valued by the true rollouts' mean gain over the trader's move. Printed: the mean true gain a
decision, how often the search left the trader's move, and the difference to the rule the
search had (width 3 at 80 iterations, 1.5 standard errors) with its standard error over
positions (paired).
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from switching import mean_se, paired, simulate, switch_to, true_means


def collect(
    first: int, games: int, every: int, rounds: int, true: int, true_turns: int, horizons: list[int], out: str
) -> None:
    from spillebord.ai import bots_for
    from spillebord.core import Rng, registry
    from spillebord.games.fuldrigger import bots as FB
    from spillebord.games.fuldrigger.search import KINDS, MAX_WIDTH, FuldriggerSearchAgent

    game = registry.get("fuldrigger")
    kit = bots_for(game)
    assert kit.value is not None
    value = kit.value
    trader = FB.TraderAgent(game)
    agent = FuldriggerSearchAgent(game, FB.TraderAgent(game), FB.defer)
    no_rng = Rng(0)

    def true_playout(s: Any, seat: int, action: Any, pseed: int) -> float:
        c = s.copy()
        c.rng = Rng(pseed)
        c._legal = None
        turn = c.turn
        c.play(action)
        ended = 0
        while True:
            if c.turn != turn:
                ended += 1
                turn = c.turn
                if true_turns and ended >= true_turns:
                    break
            who = c.to_act
            if who is None:
                break
            c.play(trader.act(c, who, no_rng))
        return float(value(c)[seat])

    with open(out, "a") as f:
        for seed in range(first, first + games):
            s: Any = game.new(2, seed)
            rng = Rng(seed * 7 + 1)
            n = 0
            dec = 0
            while s.to_act is not None:
                seat = s.to_act
                if s.phase == "free" and len(s.legal()) > 1 and not FB.defer(s, seat):
                    view = s.determinize(seat, rng)
                    legal = list(view.legal())
                    first_move = trader.act(view, seat, rng)
                    others = [a for a in legal if a != first_move and str(a).split(" ", 1)[0] in KINDS]
                    if others:
                        if n % every == 0:
                            base = agent._one_ply(view, seat, others)
                            order = sorted(range(len(others)), key=lambda i: -base[i])
                            cands = [first_move, *[others[i] for i in order][: MAX_WIDTH - 1]]
                            vals: dict[int, list[list[float]]] = {h: [] for h in horizons}
                            lens = {h: [0] * len(cands) for h in horizons}
                            for _ in range(rounds):
                                d = s.determinize(seat, rng)
                                for h in horizons:
                                    row = []
                                    for j, a in enumerate(cands):
                                        v, m = agent._playout(d, seat, a, h)
                                        row.append(v)
                                        lens[h][j] += m
                                    vals[h].append(row)
                            tv = []
                            for _ in range(true):
                                pseed = rng.next64()
                                tv.append([true_playout(s, seat, a, pseed) for a in cands])
                            rec = {
                                "seed": seed,
                                "decision": dec,
                                "round": s.round,
                                "cands": [str(a) for a in cands],
                                "lens": [x / rounds for x in lens[horizons[0]]],
                                "vals": vals[horizons[0]],
                                **{f"lens_h{h}": [x / rounds for x in lens[h]] for h in horizons[1:]},
                                **{f"vals_h{h}": vals[h] for h in horizons[1:]},
                                "true": tv,
                            }
                            f.write(json.dumps(rec) + "\n")
                            f.flush()
                        n += 1
                s.play(trader.act(s, seat, rng))
                dec += 1


def gains(
    rows: list[dict[str, Any]], budget: int, width: int, z: float, margin: float
) -> tuple[list[float], float]:
    """The true gain a position (mean of 40 simulated searches) and the share of switches. A
    round costs the candidates' playout decisions, an iteration 40 of them."""
    return simulate(
        rows,
        width,
        lambda row, k: min(len(row["vals"]), max(2, math.ceil(budget * 40 / sum(row["lens"][:k])))),
        lambda sample, k: switch_to(sample, k, z, margin),
        lambda row, c, sample: (t := true_means(row))[c] - t[0],
    )


def analyse(path: str, budget: int, horizon: int | None) -> None:
    with open(path) as f:
        rows = [json.loads(line) for line in f]
    if horizon is not None:  # the search's playouts at another horizon, the same true rollouts
        for r in rows:
            r["vals"], r["lens"] = r[f"vals_h{horizon}"], r[f"lens_h{horizon}"]
    nrounds = [min(len(r["vals"]), max(2, math.ceil(budget * 40 / sum(r["lens"][:3])))) for r in rows]
    avg = sum(nrounds) / len(rows)
    print(f"{len(rows)} positions, {budget} iterations (width 3: {avg:.1f} rounds a decision)")
    # the candidates' true gains: how much there is to win at all, and by kind of alternative
    best = []
    kinds: dict[str, list[float]] = {}
    for r in rows:
        tm = true_means(r)
        best.append(max(tm) - tm[0])
        for j, c in enumerate(r["cands"][1:], 1):
            kinds.setdefault(f"{r['cands'][0].split(' ')[0]} -> {c.split(' ')[0]}", []).append(tm[j] - tm[0])
    print(f"oracle (the best of 5 by its true mean, biased upwards): {sum(best) / len(best) * 1000:.2f}e-3")
    for kind, xs in sorted(kinds.items()):
        m, se = mean_se(xs)
        print(f"  true gain of {kind}: {m * 1000:+.1f}e-3 ± {se * 1000:.1f}e-3 ({len(xs)})")
    base, bsw = gains(rows, budget, 3, 1.5, 0.005)
    print(
        f"width 3, z 1.5, margin 0.005: {sum(base) / len(base) * 1000:.2f}e-3 a decision, switched {bsw:.3f}"
    )
    for width in (2, 3, 4, 5):
        for z in (0.0, 0.5, 1.0, 1.5, 2.0, 3.0):
            p, sw = gains(rows, budget, width, z, 0.005)
            m, se = paired(p, base)
            pm, pse = mean_se(p)
            print(
                f"width {width}, z {z}: {pm * 1000:+.2f}e-3 ± {pse * 1000:.2f}e-3, switched {sw:.3f}"
                f"  difference {m * 1000:+.2f}e-3 ± {se * 1000:.2f}e-3"
            )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--collect", action="store_true")
    ap.add_argument("--first", type=int, default=9000)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--true", type=int, default=24)
    ap.add_argument("--true-turns", type=int, default=12)
    ap.add_argument("--out", default="fuldrigger_switch.jsonl")
    ap.add_argument("--analyse")
    ap.add_argument("--budget", type=int, default=80)
    ap.add_argument(
        "--horizons", default="4", help="the search's horizons to collect (turns), the first the search's own"
    )
    ap.add_argument("--horizon", type=int, help="analyse the playouts collected at this extra horizon")
    a = ap.parse_args()
    if a.collect:
        horizons = [int(x) for x in a.horizons.split(",")]
        collect(a.first, a.games, a.every, a.rounds, a.true, a.true_turns, horizons, a.out)
    if a.analyse:
        analyse(a.analyse, a.budget, a.horizon)


if __name__ == "__main__":
    main()
