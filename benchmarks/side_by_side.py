"""Spillebord's engines beside OpenSpiel's, in one process (a benchmark, not a test).

The same driver loop for every engine: a new game, then a uniformly random legal action until
the end. CPU seconds (``time.process_time``), rounds interleaved across engines, the median of
the rounds per engine. Printed: decisions per CPU second and the ratio to OpenSpiel's
``python_block_dominoes`` (pure Python). OpenSpiel deals through chance nodes (sampled by
their probabilities), which are not decisions; a second ratio counts them as if they were
(its actions per CPU second), the stricter comparison, since a Spillebord game deals inside
``new()``. Then ``copy()``, ``determinize(seat)`` and
``view(seat)`` in µs per call at mid-game positions (see :mod:`spillebord.testing.speed`).

    pip install -e '.[bench]'          # open_spiel, a benchmark-only dependency
    python benchmarks/side_by_side.py  # 3 rounds of about 1 CPU second per engine
    python benchmarks/side_by_side.py --only partners touche --json

``--src DIR`` imports Spillebord from another checkout's ``src`` (to compare two versions, run
this script for each in separate processes, interleaved).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

OPENSPIEL = ("python_block_dominoes", "python_team_dominoes", "hearts", "euchre")
BASELINE = "python_block_dominoes"


Run = Callable[[int], tuple[int, int]]


def _spillebord_engines(only: list[str] | None) -> dict[str, Run]:
    """Name -> a function that plays one random game from a seed: (decisions, actions)."""
    from spillebord.core import Rng, registry
    from spillebord.core.options import build

    engines: dict[str, Run] = {}
    variants: list[tuple[str, str, dict[str, Any]]] = []
    for gid in registry.ids():
        game = registry.get(gid)
        variants.append((gid, gid, {}))
        if gid == "metscri":
            variants.append((f"{gid} (quick)", gid, dict(game.quick_options)))
    for name, gid, loose in variants:
        if only and gid not in only and name not in only:
            continue
        game = registry.get(gid)
        opts = build(game.Options, loose)

        def run(seed: int, game: Any = game, opts: Any = opts) -> tuple[int, int]:
            rng = Rng(seed)
            state = game.new(2, seed, opts)
            k = 0
            while state.to_act is not None:
                state.play(rng.choice(state.legal()))
                k += 1
            return k, k

        engines[name] = run
    return engines


def _openspiel_engines() -> dict[str, Run]:
    try:
        import pyspiel
        from open_spiel.python import games as _python_games  # noqa: F401  (registers python_*)
    except ImportError:
        sys.exit("open_spiel is missing: pip install 'spillebord[bench]' (or pip install open_spiel)")
    engines: dict[str, Run] = {}
    for gid in OPENSPIEL:
        game = pyspiel.load_game(gid)

        def run(seed: int, game: Any = game) -> tuple[int, int]:
            rng = random.Random(seed)
            state = game.new_initial_state()
            k = n = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(actions, probs)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    k += 1
                n += 1
            return k, n

        engines[gid] = run
    return engines


def measure(run: Run, seconds: float, seed: int) -> tuple[int, int, float]:
    """Play games from ``seed`` on until ``seconds`` of CPU time: (decisions, actions, CPU s)."""
    clock = time.process_time
    decisions = actions = i = 0
    spent = 0.0
    while spent < seconds:
        t0 = clock()
        d, a = run(seed + i)
        spent += clock() - t0
        decisions += d
        actions += a
        i += 1
    return decisions, actions, spent


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3, help="Interleaved rounds (median reported).")
    p.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per engine per round.")
    p.add_argument("--only", nargs="*", help="Spillebord games to run (default: all seven).")
    p.add_argument("--no-openspiel", action="store_true", help="Leave OpenSpiel out (no ratios).")
    p.add_argument("--no-calls", action="store_true", help="Skip the copy/determinize/view costs.")
    p.add_argument("--src", help="Import Spillebord from this src directory (another checkout).")
    p.add_argument("--json", action="store_true", help="Print one JSON object instead of tables.")
    args = p.parse_args()
    if args.src:
        sys.path.insert(0, args.src)

    engines: dict[str, Run] = {}
    if not args.no_openspiel:
        engines.update(_openspiel_engines())
    engines.update(_spillebord_engines(args.only))

    rates: dict[str, list[float]] = {name: [] for name in engines}
    decision_rates: dict[str, list[float]] = {name: [] for name in engines}
    for r in range(args.rounds):
        for name, run in engines.items():  # every engine once per round: load drifts hit all alike
            d, a, s = measure(run, args.seconds, seed=1000 * r)
            rates[name].append(a / s)
            decision_rates[name].append(d / s)
    median = {name: statistics.median(v) for name, v in rates.items()}
    median_decisions = {name: statistics.median(v) for name, v in decision_rates.items()}
    base = median_decisions.get(BASELINE)
    base_actions = median.get(BASELINE)

    calls: dict[str, dict[str, float]] = {}
    if not args.no_calls:
        from spillebord.core import registry
        from spillebord.core.options import build

        try:
            from spillebord.testing.speed import call_costs
        except ImportError:  # --src of an older checkout: measure with this checkout's helper
            import importlib.util
            from pathlib import Path

            path = Path(__file__).resolve().parents[1] / "src/spillebord/testing/speed.py"
            spec = importlib.util.spec_from_file_location("_speed", path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            call_costs = module.call_costs

        for name in engines:
            if name in OPENSPIEL:
                continue
            gid = name.split(" ")[0]
            game = registry.get(gid)
            loose = dict(game.quick_options) if name.endswith("(quick)") else {}
            calls[name] = call_costs(game, 2, build(game.Options, loose))

    compiled = sorted(  # extension modules (tools/compile.py) instead of .py files
        n.removeprefix("spillebord.")
        for n, m in list(sys.modules.items())
        if n.startswith("spillebord.")
        and not n.endswith("__mypyc")
        and str(getattr(m, "__file__", "")).endswith((".so", ".pyd"))
    )
    compiled_line = "compiled: " + (", ".join(compiled) if compiled else "none (pure Python)")
    if args.json:
        print(compiled_line, file=sys.stderr)
        print(
            json.dumps(
                {
                    name: {
                        "actions_per_s": round(median[name]),
                        "decisions_per_s": round(median_decisions[name]),
                        "rounds": [round(x) for x in rates[name]],
                        **({"ratio": round(median_decisions[name] / base, 2)} if base else {}),
                        **(
                            {"ratio_to_actions": round(median_decisions[name] / base_actions, 2)}
                            if base_actions
                            else {}
                        ),
                        **calls.get(name, {}),
                    }
                    for name in engines
                }
            )
        )
        return
    print(f"random play, 2 seats, {args.rounds} interleaved rounds of {args.seconds} CPU s, medians")
    print(compiled_line)
    print(
        f"{'engine':<24}{'decisions/CPU-s':>16}{'actions/CPU-s':>15}"
        f"{'× ' + BASELINE:>26}{'× its actions/CPU-s':>21}"
    )
    for name in engines:
        d = median_decisions[name]
        ratio = f"{d / base:.2f}" if base else "-"
        strict = f"{d / base_actions:.2f}" if base_actions else "-"
        print(f"{name:<24}{d:>16,.0f}{median[name]:>15,.0f}{ratio:>26}{strict:>21}")
    if calls:
        print()
        print(f"{'per call, µs (CPU)':<24}{'copy':>10}{'determinize':>14}{'view':>10}{'det/copy':>10}")
        for name, c in calls.items():
            ratio = c["determinize_us"] / c["copy_us"] if c["copy_us"] else float("nan")
            print(
                f"{name:<24}{c['copy_us']:>10.2f}{c['determinize_us']:>14.2f}{c['view_us']:>10.2f}{ratio:>10.1f}"
            )


if __name__ == "__main__":
    main()
