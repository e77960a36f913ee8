"""Pattern detection (R6.1): which qualifying pattern instances a side has completed.

Detection is incremental: after a placement on cell x only the precomputed instances through x
(``data.THROUGH``) are examined; :func:`complete_through` and the brute-force
:func:`complete_scan` are tested against each other.
"""

from __future__ import annotations

from collections.abc import Sequence

from .data import EMPTY, GRADES, INSTANCES, IS_FREE, THROUGH, TYPE_RANGES


def qualifying_mask(grade: int, crowned_types: int, distinct: bool) -> int:
    """Bitmask of pattern types that count for a side (R4.1)."""
    mask = 0
    for t in GRADES[grade][0]:
        mask |= 1 << t
    if grade == 5 and distinct:
        mask &= ~crowned_types
    return mask


def _complete(marks: Sequence[int], cells: tuple[int, ...], side: int, wild: bool) -> bool:
    if not wild:
        for c in cells:  # noqa: SIM110  (a plain loop is faster here)
            if marks[c] != side:
                return False
        return True
    frees = 0
    for c in cells:
        m = marks[c]
        if m == side:
            continue
        if m == EMPTY and IS_FREE[c]:
            frees += 1
            if frees > 1:
                return False
            continue
        return False
    return True


def complete_through(marks: Sequence[int], x: int, side: int, mask: int, wild: bool = False) -> list[int]:
    """Incremental detection (R6.1): ids of the qualifying instances through cell ``x``
    whose every cell holds an uncrowned marker of ``side`` (``wild``: or is one empty FREE)."""
    out: list[int] = []
    for t in range(4):
        if mask >> t & 1:
            for k in THROUGH[t][x]:
                if _complete(marks, INSTANCES[k][1], side, wild):
                    out.append(k)
    return out


def complete_scan(marks: Sequence[int], side: int, mask: int, wild: bool = False) -> list[int]:
    """Brute force: every complete qualifying instance for ``side`` anywhere on the board."""
    out: list[int] = []
    for t in range(4):
        if mask >> t & 1:
            for k in TYPE_RANGES[t]:
                if _complete(marks, INSTANCES[k][1], side, wild):
                    out.append(k)
    return out
