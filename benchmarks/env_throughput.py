"""Environment throughput (not a test): steps per second *with observations*, every game beside
PettingZoo's classic environments and OpenSpiel's Hearts.

    python benchmarks/env_throughput.py                 # every contestant, 5 rounds of 1 s each
    python benchmarks/env_throughput.py --rounds 9 --seconds 2 --only kasino texas_holdem

One process; the contestants run interleaved (round 1 of each, then round 2 of each, …), each
round for about ``--seconds`` of CPU time; the figure is the median of the rounds' rates in
CPU time. A step is one agent step that gets an observation and its action mask and plays a
random legal action (one token of a Spillebord action, one move of connect four, one bet of
poker); resets count in the time, not in the steps. OpenSpiel Hearts: one decision of a
player with its ``information_state_tensor`` (chance nodes sampled, not counted).

Needs ``pip install 'spillebord[bench]'`` for PettingZoo's poker (rlcard, pygame); a
contestant whose package is missing is listed as skipped.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

GAMES = ["metscri", "88", "touche", "revir", "partners", "kasino", "fuldrigger"]
CLASSIC = ["texas_holdem", "leduc_holdem", "connect_four"]


def _aec_runner(make: Callable[[], Any]) -> Callable[[float], tuple[int, float]]:
    """Steps of a PettingZoo AEC env with random legal actions for ``seconds`` of CPU time."""
    env = make()
    rng = np.random.default_rng(1)
    seed = [0]

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        t0 = time.process_time()
        while time.process_time() - t0 < seconds:
            seed[0] += 1
            env.reset(seed=seed[0])
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
                steps += 1
        return steps, time.process_time() - t0

    return run


def _hearts_runner() -> Callable[[float], tuple[int, float]]:
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = np.random.default_rng(1)

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        t0 = time.process_time()
        while time.process_time() - t0 < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                    continue
                state.information_state_tensor()
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
                steps += 1
        return steps, time.process_time() - t0

    return run


def _spiel_runner(game_id: str) -> Callable[[float], tuple[int, float]]:
    """Our OpenSpiel game, the same loop as Hearts."""
    import pyspiel

    import spillebord.envs.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(f"spillebord_{game_id}")
    rng = np.random.default_rng(1)

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        t0 = time.process_time()
        while time.process_time() - t0 < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                state.information_state_tensor()
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
                steps += 1
        return steps, time.process_time() - t0

    return run


def contestants(only: list[str] | None, spiel: bool) -> dict[str, Callable[[float], tuple[int, float]] | str]:
    """Name → runner, or → the reason it is skipped."""
    out: dict[str, Callable[[float], tuple[int, float]] | str] = {}
    wanted = set(only or [])

    def want(name: str) -> bool:
        return not wanted or name in wanted or name.split(" ")[0] in wanted

    from spillebord.envs import env as spillebord_env

    for g in GAMES:
        if want(g):
            out[g] = _aec_runner(lambda g=g: spillebord_env(g))
        if spiel and want(f"{g} (openspiel)"):
            out[f"{g} (openspiel)"] = _spiel_runner(g)
    for name in CLASSIC:
        if not want(name):
            continue
        try:
            import importlib

            version = {"texas_holdem": "v4", "leduc_holdem": "v4", "connect_four": "v3"}[name]
            mod = importlib.import_module(f"pettingzoo.classic.{name}_{version}")
            out[f"pettingzoo {name}"] = _aec_runner(mod.env)
        except ImportError as e:
            out[f"pettingzoo {name}"] = f"skipped ({e.name} missing: pip install 'spillebord[bench]')"
    if want("hearts"):
        out["openspiel hearts"] = _hearts_runner()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds (the median is reported)")
    p.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per contestant per round")
    p.add_argument("--only", nargs="*", help="contestants to run (game ids, texas_holdem, hearts …)")
    p.add_argument("--openspiel", action="store_true", help="also our games through OpenSpiel")
    args = p.parse_args(argv)
    runners = contestants(args.only, args.openspiel)
    rates: dict[str, list[float]] = {k: [] for k, r in runners.items() if not isinstance(r, str)}
    for r in range(args.rounds):
        for name, run in runners.items():
            if isinstance(run, str):
                continue
            steps, cpu = run(args.seconds)
            rates[name].append(steps / cpu)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    card = [
        statistics.median(rates[k])
        for k in ("pettingzoo texas_holdem", "pettingzoo leduc_holdem")
        if k in rates
    ]
    ref = max(card) if card else None
    print(f"| environment | steps/s (median of {args.rounds}) | × best PettingZoo card env |")
    print("|---|---:|---:|")
    for name, run in runners.items():
        if isinstance(run, str):
            print(f"| {name} | {run} | |")
            continue
        med = statistics.median(rates[name])
        ratio = f"{med / ref:.1f}×" if ref else ""
        print(f"| {name} | {med:,.0f} | {ratio} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
