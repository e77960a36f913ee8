"""Tune the switch rule of Partners' search (``games/partners/search.py``) offline.

    python tools/partners_switch.py --collect --first 9000 --games 5 --every 5 --rounds 160 --out pos.jsonl
    python tools/partners_switch.py --analyse pos.jsonl --budget 75

``--collect``: the ``partners`` bot plays itself at four seats; every ``every``-th decision
of the play phase with two legal moves or more, the search's candidates at the widest (the
bot's move and the next five by one-ply value) are played out ``rounds`` times on the same
determinizations of the seat to act with the same playout seeds (exactly the search's paired
playouts), and one row is written: the candidates' values, round by round.

``--analyse``: for each rule (width, ``SWITCH_Z``, ``SWITCH_MARGIN``) and each position, the
search at ``budget`` playouts is simulated 40 times by drawing its rounds (without replacement)
from the row; its choice is valued by the mean paired gain over the bot's move on the rounds it
did not draw (an unbiased estimate of the gain in playout value). Printed: the mean gain a
decision and its difference to the rule the search had (width 4, 1.5 standard errors) with
the standard error of that difference over positions.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from switching import held_out_worth, paired, simulate, switch_to


def collect(first: int, games: int, every: int, rounds: int, out: str) -> None:
    from spillebord.core import Rng, registry
    from spillebord.games.partners import bots as PB
    from spillebord.games.partners.search import MAX_WIDTH, PartnersSearchAgent

    game = registry.get("partners")
    agent = PartnersSearchAgent(game, PB.PartnersBot(game), PB.one_ply)
    bot = PB.PartnersBot(game)
    with open(out, "w") as f:
        for seed in range(first, first + games):
            s: Any = game.new(4, seed)
            rng = Rng(seed * 7 + 1)
            n = 0
            while s.to_act is not None:
                seat = s.to_act
                if s.phase != "exchange" and len(s.legal()) > 1 and n % every == 0:
                    view = s.determinize(seat, rng)
                    legal = list(view.legal())
                    base = PB.one_ply(view, legal)
                    bots_move = bot.act(view, seat, rng)
                    order = sorted(range(len(legal)), key=lambda i: -base[i])
                    others = [legal[i] for i in order if legal[i] != bots_move]
                    cands = [bots_move, *others[: MAX_WIDTH - 1]]
                    vals = []
                    for _ in range(rounds):
                        d = s.determinize(seat, rng)
                        pseed = rng.next64()
                        vals.append([agent._playout(d, seat, a, Rng(pseed)) for a in cands])
                    row = {"seed": seed, "n": n, "nlegal": len(legal), "vals": vals}
                    f.write(json.dumps(row) + "\n")
                s.play(bot.act(s, seat, rng))
                n += 1


def gains(rows: list[dict[str, Any]], budget: int, width: int, z: float, margin: float) -> list[float]:
    """Each position's mean held-out gain over 40 simulated searches (``budget // width`` rounds)."""
    per, _ = simulate(
        rows,
        width,
        lambda row, k: max(2, budget // k),
        lambda sample, k: switch_to(sample, k, z, margin),
        held_out_worth,
    )
    return per


def analyse(path: str, budget: int) -> None:
    with open(path) as f:
        rows = [json.loads(line) for line in f]
    print(f"{len(rows)} positions, {budget} playouts")
    base = gains(rows, budget, 4, 1.5, 0.005)
    print(f"width 4, z 1.5, margin 0.005: {sum(base) / len(base) * 1000:.2f}e-3 a decision")
    for width in (3, 4, 5, 6):
        for z in (0.0, 0.5, 1.0, 1.5, 2.0):
            p = gains(rows, budget, width, z, 0.005)
            m, se = paired(p, base)
            print(
                f"width {width}, z {z}: {sum(p) / len(p) * 1000:.2f}e-3"
                f"  difference {m * 1000:+.2f}e-3 ± {se * 1000:.2f}e-3"
            )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--collect", action="store_true")
    ap.add_argument("--first", type=int, default=9000)
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--every", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=160)
    ap.add_argument("--out", default="partners_switch.jsonl")
    ap.add_argument("--analyse")
    ap.add_argument("--budget", type=int, default=75)
    a = ap.parse_args()
    if a.collect:
        collect(a.first, a.games, a.every, a.rounds, a.out)
    if a.analyse:
        analyse(a.analyse, a.budget)


if __name__ == "__main__":
    main()
