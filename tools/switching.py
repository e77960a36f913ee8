"""What the offline switch tunings share (``tools/*_switch.py``, ``tools/fuldrigger_routes.py``).

Each game's paired search keeps its bot's move (candidate 0) unless another candidate is ahead by
``z`` standard errors of the paired differences over the search's rounds. A tuning collects, at
many positions, far more paired rounds than the search affords and a value of every candidate
measured apart from them; then it simulates the search at a budget by drawing its rounds from
the row, and values each simulated choice. This module is that simulation and its statistics;
the tools differ in how a row is collected, how many rounds a budget buys and what a choice is
worth.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from spillebord.ai.playout import paired_switch

Row = dict[str, Any]
Sample = list[list[float]]


def switch_to(sample: Sample, k: int, z: float, margin: float) -> int:
    """The paired searches' switch rule (:func:`spillebord.ai.playout.paired_switch`) on these
    rounds: the candidate with the largest mean paired gain over candidate 0, if that gain is
    above both ``z`` standard errors and ``margin``; else 0."""
    diffs = [0.0] * k
    diffs2 = [0.0] * k
    for v in sample:  # summed round by round, as the searches do
        for j in range(1, k):
            x = v[j] - v[0]
            diffs[j] += x
            diffs2[j] += x * x
    return paired_switch(diffs, diffs2, len(sample), z, margin)


def simulate(
    rows: list[Row],
    width: int,
    rounds: Callable[[Row, int], int],
    choose: Callable[[Sample, int], int],
    worth: Callable[[Row, int, Sample], float],
    searches: int = 40,
) -> tuple[list[float], float]:
    """Each position's mean worth over ``searches`` simulated searches, and the share of them
    that left candidate 0. A search at a row looks at the first ``min(width, candidates)``
    candidates, draws ``rounds(row, k)`` of the row's rounds without replacement, chooses with
    ``choose(sample, k)``, and a choice ``c > 0`` is worth ``worth(row, c, sample)``. Seeded, so
    every rule is judged on the same draws."""
    random.seed(1)
    per = []
    switched = 0
    for row in rows:
        vals = row["vals"]
        k = min(width, len(vals[0]))
        r = rounds(row, k)
        acc = 0.0
        for _ in range(searches):
            sample = [vals[i] for i in random.sample(range(len(vals)), r)]
            c = choose(sample, k)
            if c:
                switched += 1
                acc += worth(row, c, sample)
        per.append(acc / searches)
    return per, switched / (searches * len(rows))


def held_out_worth(row: Row, c: int, sample: Sample) -> float:
    """Candidate ``c``'s mean paired gain over candidate 0 on the row's rounds the simulated
    search did not draw: unbiased by the draw that chose it."""
    vals = row["vals"]
    drawn = sum(v[c] - v[0] for v in sample)
    return ((sum(v[c] for v in vals) - sum(v[0] for v in vals)) - drawn) / (len(vals) - len(sample))


def true_means(row: Row) -> list[float]:
    """Each candidate's mean value over the row's true rollouts (``row["true"]``, a list of rounds)."""
    tv = row["true"]
    return [sum(v[j] for v in tv) / len(tv) for j in range(len(tv[0]))]


def mean_se(xs: list[float]) -> tuple[float, float]:
    """The mean and its standard error (0 with fewer than two values)."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def paired(p: list[float], base: list[float]) -> tuple[float, float]:
    """The mean difference of two rules over the same positions, with its standard error."""
    return mean_se([a - b for a, b in zip(p, base, strict=True)])
