"""How alike the two games of a duplicate deal stay when the bots differ a little (an offline
measure for the engines' addressed dice: Metscri version 2, Fuldrigger version 4).

    python tools/duplicate_dice.py fuldrigger --deals 1200 --noise 0.004 --out new.txt
    PYTHONPATH=OLD_TREE/src python tools/duplicate_dice.py fuldrigger --deals 1200 --noise 0.004 --out old.txt
    python tools/duplicate_dice.py --compare new.txt old.txt

A deal is two games from one seed: the game's best bot (``planner``, ``trader``) against a copy
of itself that errs (Metscri: flips a roll-or-stop decision; Fuldrigger: plays a random legal
action) at ``noise`` of its decisions, once in each seating. Each seat has its own decision RNG,
the same in both games, and the errors come from one stream per game, so without an error the
two games are the same game with the seats swapped. The bot's margin over the deal (the mean
of its score less the copy's over the two games) then measures the copy's errors plus the luck
that the two games did not share. ``--compare`` takes two runs of the same deals (one per
engine) and gives the ratio of the variances of that margin, with a bootstrap interval over
the deals: below one, the engine's deals keep more of their luck in common, and the arena
needs that many times fewer deals for the same precision.
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

BEST = {"metscri": "planner", "fuldrigger": "trader"}


def play(
    gid: str, seed: int, noisy_seat: int, noise: float, options: dict[str, Any]
) -> tuple[float, list[float]]:
    """One game: the best bot in both seats, ``noisy_seat``'s copy erring. Its outcome for
    seat 0 and the scores."""
    from spillebord.ai import decide, make_agent
    from spillebord.core import Rng, registry
    from spillebord.core.options import build

    game = registry.get(gid)
    s = game.new(2, seed, build(game.Options, options))
    bot = make_agent(BEST[gid], game)
    rngs = [Rng(seed * 10 + 1), Rng(seed * 10 + 2)]
    err = Rng(seed * 10 + 3)
    while s.to_act is not None:
        seat = s.to_act
        a = decide(bot, s, rngs[seat])
        if seat == noisy_seat:
            legal = s.legal()
            if gid == "metscri":
                from spillebord.games.metscri.data import ROLL

                if s.phase == ROLL and len(legal) == 2 and err.random() < noise:  # type: ignore[attr-defined]
                    a = legal[0] if a == legal[1] else legal[1]
            elif len(legal) > 1 and err.random() < noise:
                a = err.choice(legal)
        s.play(a)
    outcome = s.outcome()
    assert outcome is not None
    return outcome[0], list(s.scores())


def run(gid: str, first: int, deals: int, noise: float, options: dict[str, Any], out: str) -> None:
    from rich.progress import track

    with open(out, "w") as f:
        for seed in track(range(first, first + deals), description=f"{gid}: deals"):
            a_out, a = play(gid, seed, 1, noise, options)  # the bot in seat 0
            b_out, b = play(gid, seed, 0, noise, options)  # the bot in seat 1
            points = a_out + (1.0 - b_out)
            margin = ((a[0] - a[1]) + (b[1] - b[0])) / 2
            kind = "split" if points == 1.0 else "won" if points > 1.0 else "lost"
            f.write(f"{seed} {kind} {margin}\n")
            f.flush()


def read(path: str) -> dict[int, tuple[str, float]]:
    rows = {}
    with open(path) as f:
        for line in f:
            seed, kind, margin = line.split()
            rows[int(seed)] = (kind, float(margin))
    return rows


def compare(new_path: str, old_path: str) -> None:
    new, old = read(new_path), read(old_path)
    seeds = sorted(new.keys() & old.keys())
    if len(seeds) < 10:
        raise ValueError(f"{len(seeds)} deals in both; a variance needs 10 or more")
    for name, rows in (("new", new), ("old", old)):
        kinds = [rows[s][0] for s in seeds]
        margins = [rows[s][1] for s in seeds]
        split = "/".join(str(kinds.count(k)) for k in ("won", "split", "lost"))
        mean, sd = statistics.mean(margins), statistics.pstdev(margins)
        print(f"{name}: {len(seeds)} deals, won/split/lost {split}, margin {mean:.1f} ± sd {sd:.1f}")

    def ratio(ss: list[int]) -> float:
        return statistics.pvariance([new[s][1] for s in ss]) / statistics.pvariance([old[s][1] for s in ss])

    rng = random.Random(1)
    samples = ([rng.choice(seeds) for _ in seeds] for _ in range(2000))
    # a resample of identical deals has no variance: left out
    boot = sorted(ratio(ss) for ss in samples if statistics.pvariance([old[s][1] for s in ss]) > 0)
    if len(boot) < 1000:
        raise ValueError("the old run's deal margins hardly vary: no ratio to give")
    lo, hi = boot[int(0.025 * len(boot))], boot[int(0.975 * len(boot)) - 1]
    interval = f"95% bootstrap {lo:.3f}-{hi:.3f}"
    print(f"variance of the deal margin, new / old: {ratio(seeds):.3f} ({interval})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", nargs="?", choices=sorted(BEST))
    p.add_argument("--first", type=int, default=1, help="the first deal's seed")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--noise", type=float, default=0.004, help="share of the copy's decisions that err")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    p.add_argument("--out", help="where the deals go, one line each: seed, won/split/lost, margin")
    p.add_argument("--compare", nargs=2, metavar=("NEW", "OLD"), help="two runs of the same deals")
    a = p.parse_args()
    if a.compare:
        try:
            compare(*a.compare)
        except (OSError, ValueError) as e:
            p.error(f"cannot compare {a.compare[0]} and {a.compare[1]}: {e}")
        return
    if a.game is None or a.out is None:
        p.error("give a game and --out (or --compare NEW OLD)")
    bad = [o for o in a.option if "=" not in o]
    if bad:
        p.error(f"an option is NAME=VALUE, not {bad[0]!r}")
    from spillebord.core import SpillebordError, registry
    from spillebord.core.options import build

    options = dict(o.split("=", 1) for o in a.option)
    try:
        build(registry.get(a.game).Options, options)
    except SpillebordError as e:
        p.error(str(e))
    run(a.game, a.first, a.deals, a.noise, options, a.out)


if __name__ == "__main__":
    main()
