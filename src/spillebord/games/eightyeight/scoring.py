"""Scoring of one round (docs/rules/88.md, R13–R18): pure functions of the distances.

Both the rules (:mod:`.rules`) and the bots (:mod:`.bots`) use them.
"""

from __future__ import annotations

from collections.abc import Sequence


def peg_awards(d: Sequence[int], setter: int, target: int, stack: bool = False) -> tuple[int, ...]:
    """R14: steps awarded per seat from the final distances ``d`` (before the R15 cap).

    Exact hitters get 1 (2 when the target is 88); by default (B5 "exact-first") nothing
    else is awarded in such a round. Otherwise the setter wins unless a non-setter is
    strictly closer; a unique closest non-setter wins; two or more tied closest non-setters
    make a draw. With ``stack`` the round-win step is added in every round.
    """
    n = len(d)
    awards = [0] * n
    exact = [s for s in range(n) if d[s] == 0]
    for s in exact:
        awards[s] = 2 if target == 88 else 1
    if exact and not stack:
        return tuple(awards)
    others = [s for s in range(n) if s != setter]
    m = min(d[o] for o in others)
    if d[setter] <= m:
        awards[setter] += 1
    else:
        best = [o for o in others if d[o] == m]
        if len(best) == 1:
            awards[best[0]] += 1
    return tuple(awards)


def apply_pegs(
    pegs: Sequence[int],
    awards: Sequence[int],
    d: Sequence[int],
    setter: int,
    track: int,
    contenders_only: bool = False,
) -> tuple[tuple[int, ...], int | None]:
    """R15: move the pegs; the last hole only by an exact hit, alone on target or as setter.

    Returns the new pegs and the winner (or None). A player who may not take the last hole
    stops at the second-to-last one.
    """
    n = len(pegs)
    exact = [s for s in range(n) if d[s] == 0]
    if contenders_only:
        exact = [s for s in exact if pegs[s] + awards[s] >= track]
    new = list(pegs)
    winner = None
    for s in range(n):
        a = awards[s]
        if not a:
            continue
        if pegs[s] + a < track:
            new[s] = pegs[s] + a
        elif d[s] == 0 and (exact == [s] or s == setter) and winner is None:
            new[s] = track
            winner = s
        else:
            new[s] = max(pegs[s], track - 1)
    return tuple(new), winner


def penalty_points(d: Sequence[int], setter: int) -> tuple[int, ...]:
    """R17: penalty points per seat from the differences ``d`` (lowest total wins)."""
    n = len(d)
    others = [s for s in range(n) if s != setter]
    m = min(d[o] for o in others)
    q = list(d)
    if d[setter] <= m:
        q[setter] = 0
    if d[setter] == 0:
        for o in others:
            q[o] = 2 * d[o]
    return tuple(q)


__all__ = ["apply_pegs", "peg_awards", "penalty_points"]
