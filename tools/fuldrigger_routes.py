"""What choosing a ship's route could gain over the trader's (an offline measure for
Fuldrigger's search, which leaves sailing to the trader).

    python tools/fuldrigger_routes.py --first 9100 --games 3 --every 12 --rounds 40 --true 24 \
        --out routes.jsonl
    python tools/fuldrigger_switch.py --analyse routes.jsonl --budget 80

The trader plays itself (two seats); every ``every``-th free decision where the trader sails one
of its ships, the candidates are the trader's route (its target, recomputed at every step) and
up to three other routes for that ship, imposed on the trader for the rest of the playout
(``TraderAgent.routes``): a loaded ship's next best markets (by the trader's own sale value),
an empty ship's next best hauls (port and good, by the trader's profit per risk-weighted
square). Each is played out ``rounds`` times on the same determinizations of the seat (as the
search would: two rounds, the game's value or the outcome) and ``true`` times from the true
state (fresh dice, ``--true-turns`` turns, the game's value). The rows have the format of
``tools/fuldrigger_switch.py``, whose ``--analyse`` simulates the search's switch rule on them
and prints the true gain a decision.
"""

from __future__ import annotations

import argparse
import json
from typing import Any


def collect(first: int, games: int, every: int, rounds: int, true: int, true_turns: int, out: str) -> None:
    from spillebord.ai import bots_for
    from spillebord.core import Rng, registry
    from spillebord.games.fuldrigger import bots as FB
    from spillebord.games.fuldrigger.data import CODES, DIST, INDEX, PRICES

    game = registry.get("fuldrigger")
    kit = bots_for(game)
    assert kit.value is not None
    value = kit.value
    trader = FB.TraderAgent(game)
    router = FB.TraderAgent(game)
    no_rng = Rng(0)

    def routes_for(st: Any, s: Any) -> list[tuple[int, str | None]]:
        plan = FB.plan_for(st.reefs[s.owner])
        out: list[tuple[float, tuple[int, str | None]]] = []
        if s.load is not None:
            g = s.load.good
            for c in FB.SELLERS[g]:
                ci = INDEX[c]
                if st.opts.min_transport_mode == "port_distance":
                    if DIST[INDEX[s.load.origin]][ci] < 10:
                        continue
                elif s.load.odo + plan.steps[ci][s.node] < 10:
                    continue
                if st.trade_blocked(c) and s.node == ci:
                    continue
                net = st.sale_price(c, g, s.owner) - (st.fee() if st.fee_to(c, s.owner) is not None else 0)
                out.append((net - FB.LAMBDA * plan.cost[ci][s.node], (ci, None)))
        else:
            cash = st.cash[s.owner]
            seen: set[tuple[int, str]] = set()
            for b, g, _c, profit, haul in plan.trades:
                if st.supply[g] <= 0 or cash < PRICES[b][g][0] + 10:
                    continue
                bi = INDEX[b]
                rate = profit / (plan.cost[bi][s.node] + haul + 2.0)
                if rate > 0:
                    out.append((rate, (bi, g)))
                    seen.add((bi, g))
        out.sort(key=lambda x: -x[0])
        uniq: list[tuple[int, str | None]] = []
        for _v, r in out:
            if r not in uniq:
                uniq.append(r)
        return uniq

    def playout(
        d: Any, seat: int, route: tuple[str, tuple[int, str | None]] | None, turns: int
    ) -> tuple[float, int]:
        c = d.copy()
        router.routes = {route[0]: route[1]} if route is not None else {}
        turn = c.turn
        ended = 0
        n = 0
        while True:
            if c.turn != turn:
                ended += 1
                turn = c.turn
                if turns and ended >= turns:
                    break
            who = c.to_act
            if who is None:
                break
            c.play(router.act(c, who, no_rng))
            n += 1
        router.routes = {}
        out = c.outcome()
        if out is not None and turns == 4:
            return float(out[seat]), n
        return float(value(c)[seat]), n

    with open(out, "a") as f:
        for seed in range(first, first + games):
            s: Any = game.new(2, seed)
            rng = Rng(seed * 7 + 3)
            n = 0
            dec = 0
            while s.to_act is not None:
                seat = s.to_act
                if s.phase == "free" and len(s.legal()) > 1:
                    view = s.determinize(seat, rng)
                    move = str(trader.act(view, seat, rng))
                    if move.startswith("sail "):
                        ship = next(x for x in view.ships_of(seat) if x.id == move.split()[1])
                        routes = routes_for(view, ship)
                        t = FB.target(view, ship)
                        alts = [r for r in routes if r[0] != t][:3]
                        if alts and n % every == 0:
                            cands: list[tuple[str, tuple[int, str | None]] | None] = [
                                None,
                                *[(ship.id, r) for r in alts],
                            ]
                            vals = []
                            lens = [0] * len(cands)
                            for _ in range(rounds):
                                d = s.determinize(seat, rng)
                                row = []
                                for j, cand in enumerate(cands):
                                    v, m = playout(d, seat, cand, 4)
                                    row.append(v)
                                    lens[j] += m
                                vals.append(row)
                            tv = []
                            for _ in range(true):
                                pseed = rng.next64()
                                row = []
                                for cand in cands:
                                    c0 = s.copy()
                                    c0.rng = Rng(pseed)
                                    c0._legal = None
                                    row.append(playout(c0, seat, cand, true_turns)[0])
                                tv.append(row)
                            names = [move] + [
                                f"route {ship.id} {CODES[r[0]]} {r[1] or 'sell ' + ship.load.good}"
                                for _sid, r in (c for c in cands[1:] if c is not None)
                            ]
                            rec = {
                                "seed": seed,
                                "decision": dec,
                                "round": s.round,
                                "cands": names,
                                "lens": [x / rounds for x in lens],
                                "vals": vals,
                                "true": tv,
                            }
                            f.write(json.dumps(rec) + "\n")
                            f.flush()
                        if alts:
                            n += 1
                s.play(trader.act(s, seat, rng))
                dec += 1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--first", type=int, default=9100)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--every", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--true", type=int, default=24)
    ap.add_argument("--true-turns", type=int, default=12)
    ap.add_argument("--out", default="fuldrigger_routes.jsonl")
    a = ap.parse_args()
    collect(a.first, a.games, a.every, a.rounds, a.true, a.true_turns, a.out)


if __name__ == "__main__":
    main()
