"""Train a small policy on Kasino and show it beating the random bot in the arena.

    pip install 'spillebord[rl]'
    python examples/train_kasino.py                 # about a minute of CPU
    python examples/train_kasino.py --games 500 --arena 100   # a quicker look

The policy is linear softmax over the action tokens (numpy only): logits = W·observation + b,
masked to the legal tokens; it plays seat 0 of a two-player Kasino to 5 points against the
random bot through the Gymnasium environment (``spillebord.envs.single_agent``) and learns by
REINFORCE with a running-mean baseline, from the outcome alone (1 win, 0 loss). Then the arena
plays it against ``random`` with rotating seats and duplicate deals, and prints its score with a
95% interval: an interval above 0.5 means it is stronger than random.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from spillebord.ai import register_agent
from spillebord.arena import BotSpec, Tournament, run
from spillebord.envs import single_agent
from spillebord.envs.agent import PolicyAgent

GAME, OPTIONS = "kasino", {"target": 5}


class LinearPolicy:
    """Softmax over the legal tokens of W·x + b (x: the observation, mostly zeros)."""

    def __init__(self, obs_size: int, actions: int, seed: int) -> None:
        self.w = np.zeros((actions, obs_size), dtype=np.float32)
        self.b = np.zeros(actions, dtype=np.float32)
        self.rng = np.random.default_rng(seed)

    def probs(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        legal = np.flatnonzero(mask)
        nz = np.flatnonzero(x)
        logits = self.w[np.ix_(legal, nz)] @ x[nz] + self.b[legal]
        p = np.exp(logits - logits.max())
        return legal, nz, p / p.sum()

    def sample(self, x: np.ndarray, mask: np.ndarray) -> tuple[int, tuple[np.ndarray, ...]]:
        legal, nz, p = self.probs(x, mask)
        i = int(self.rng.choice(len(legal), p=p))
        return int(legal[i]), (legal, nz, x[nz], p, np.int64(i))

    def greedy(self, x: np.ndarray, mask: np.ndarray) -> int:
        legal, _, p = self.probs(x, mask)
        return int(legal[int(np.argmax(p))])

    def update(self, trace: list[tuple[np.ndarray, ...]], advantage: float, lr: float) -> None:
        for legal, nz, xs, p, i in trace:
            g = -p
            g[int(i)] += 1.0  # d log pi / d logits, on the legal tokens
            self.w[np.ix_(legal, nz)] += (lr * advantage) * np.outer(g, xs)
            self.b[legal] += (lr * advantage) * g


def train(games: int, seed: int, lr: float) -> LinearPolicy:
    env = single_agent(GAME, opponents=["random"], options=OPTIONS)
    size = env.observation_space["observation"].shape[0]
    policy = LinearPolicy(size, int(env.action_space.n), seed)
    baseline, wins = 0.5, []
    t0 = time.process_time()
    for g in range(games):
        obs, _ = env.reset(seed=seed * 1_000_003 + g)
        trace, done, reward = [], False, 0.0
        while not done:
            mask = obs["action_mask"]
            if mask.sum() == 1:  # nothing to learn from a forced token
                token = int(np.flatnonzero(mask)[0])
            else:
                token, step = policy.sample(obs["observation"], mask)
                trace.append(step)
            obs, reward, term, trunc, _ = env.step(token)
            done = term or trunc
        policy.update(trace, reward - baseline, lr)
        baseline += 0.02 * (reward - baseline)
        wins.append(reward)
        if (g + 1) % max(1, games // 10) == 0:
            recent = np.mean(wins[-max(1, games // 10) :])
            print(
                f"  game {g + 1:5d}: mean outcome of the last games {recent:.2f}"
                f"  ({time.process_time() - t0:.0f} s)"
            )
    return policy


def main() -> None:
    p = argparse.ArgumentParser(description="Train a linear policy on Kasino, then measure it in the arena.")
    p.add_argument("--games", type=int, default=2000, help="training games against random")
    p.add_argument("--arena", type=int, default=300, help="arena games against random")
    p.add_argument("--lr", type=float, default=0.05, help="learning rate")
    p.add_argument("--seed", type=int, default=1, help="seed of training and arena")
    args = p.parse_args()

    # before training (all weights zero) the policy is uniform over the legal tokens
    rng = np.random.default_rng(args.seed)
    untrained_score = arena("untrained", lambda x, m: int(rng.choice(np.flatnonzero(m))), args)

    print(f"training on {GAME} {OPTIONS} for {args.games} games against random …")
    policy = train(args.games, args.seed, args.lr)
    lo, _ = arena("linear", policy.greedy, args)
    print("stronger than random" if lo > 0.5 else "not shown stronger than random", end="; ")
    print(
        "better than before training" if lo > untrained_score[1] else "not shown better than before training"
    )


def arena(name: str, policy: Any, args: argparse.Namespace) -> tuple[float, float]:
    """The policy's score against random in the arena, with its 95% interval."""
    agent = PolicyAgent(GAME, policy, seats=2, options=OPTIONS, name=name)
    register_agent(name, lambda game: agent)
    t = Tournament(
        GAME, (BotSpec(name), BotSpec("random")), games=args.arena, options=OPTIONS, seed=args.seed
    )
    report = run(t, workers=1)  # in this process: the trained agent lives here
    b = report.bots[name]
    lo, hi = b.interval
    print(
        f"arena, {name}, {b.games} games against random: "
        f"score {b.score:.3f}, 95% interval [{lo:.3f}, {hi:.3f}]"
    )
    return lo, hi


if __name__ == "__main__":
    main()
