"""The figures: scores with Wilson intervals and intervals read deal by deal, OpenSkill ratings,
a sequential test."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


def wilson(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a mean score over ``n`` games (draws count half); at the
    default ``z`` a 95% interval. Honest at the edges (a 20-0 score is not [1, 1])."""
    if n <= 0:
        return (0.0, 1.0)
    p = min(max(score, 0.0), 1.0)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def student_t(df: int, z: float = Z95) -> float:
    """Student's t quantile with ``df`` degrees of freedom at the normal quantile ``z``
    (Cornish-Fisher's expansion to the third term: 2.093 at 19, within 0.001 of the table
    from 9 degrees of freedom on; the arena reads no interval from fewer than 20 deals)."""
    z3, z5, z7 = z**3, z**5, z**7
    return (
        z
        + (z3 + z) / (4 * df)
        + (5 * z5 + 16 * z3 + 3 * z) / (96 * df**2)
        + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df**3)
    )


MIN_INTERVAL_DEALS = 20
"""No interval read deal by deal under this many deals: the spread of fewer is no estimate."""


def deal_interval(deal_scores: Sequence[float]) -> tuple[float, float] | None:
    """The 95% interval of the first bot's mean score read **deal by deal** (duplicate play:
    each deal's score is its mean over the deal's games, one per rotation of the seats): the
    mean ± Student's t times the deals' standard error, as chess engine testing reads game
    pairs. A deal's games are one draw, not two: the seat its cards and dice favour wins one
    of them whoever plays it, so the games' own interval (:func:`wilson`, which counts each
    game as a draw) is wider than the spread of the deals shows, and narrower where a deal's
    games go the same way for other reasons. ``None`` under :data:`MIN_INTERVAL_DEALS` deals
    or when every deal scored the same (no spread to estimate)."""
    read = mean_interval(deal_scores)
    if read is None:
        return None
    mean, half = read
    return (max(0.0, mean - half), min(1.0, mean + half))


def mean_interval(xs: Sequence[float]) -> tuple[float, float] | None:
    """The mean of per-deal figures and the half-width of its 95% interval (Student's t times
    the standard error); ``None`` under :data:`MIN_INTERVAL_DEALS` figures or with no spread."""
    n = len(xs)
    if n < MIN_INTERVAL_DEALS:
        return None
    mean = math.fsum(xs) / n
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    if var <= 0.0:
        return None
    return mean, student_t(n - 1) * math.sqrt(var / n)


class Scored:
    """A score over games (wins plus shares of draws) and its 95% interval, for the figures
    that count ``points`` over ``games``."""

    points: float
    games: int

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.games)


@dataclass(frozen=True, slots=True)
class SprtResult:
    """A sequential probability ratio test of "the first bot scores ``p1``" (H1) against "it
    scores ``p0``" (H0), on per-deal mean scores (a normal approximation, as chess engine
    testing does with game pairs)."""

    llr: float
    lower: float
    upper: float
    deals: int

    @property
    def verdict(self) -> str | None:
        """``"H1"`` (stronger), ``"H0"`` (not stronger by the margin) or ``None`` (go on)."""
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return None


def deal_split(edges: Iterable[float]) -> tuple[int, int, int]:
    """The deals the first bot won on balance, split and lost, from its mean points over each
    deal's games less what an equal opponent leaves it (one over the number of sides). With
    duplicate play a split deal went to the seat its cards and dice favoured, not to a bot."""
    won = lost = n = 0
    for e in edges:
        n += 1
        won += e > 1e-9
        lost += e < -1e-9
    return won, n - won - lost, lost


MIN_DEALS = 8
"""No verdict before this many deals: the variance of fewer is no estimate."""


def sprt(deal_scores: Sequence[float], p0: float, p1: float, confidence: float) -> SprtResult:
    """The log-likelihood ratio of H1 (mean ``p1``) against H0 (mean ``p0``) after these
    per-deal scores, with error rates ``alpha = beta = 1 - confidence``."""
    alpha = beta = 1.0 - confidence
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n = len(deal_scores)
    if n < MIN_DEALS:
        return SprtResult(0.0, lower, upper, n)
    mean = sum(deal_scores) / n
    var = sum((x - mean) ** 2 for x in deal_scores) / (n - 1)
    var = max(var, 0.01)  # a run of identical deals must not make the test certain at once
    llr = n * (p1 - p0) * (2 * mean - p0 - p1) / (2 * var)
    return SprtResult(llr, lower, upper, n)
