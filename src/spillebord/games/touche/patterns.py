"""Pattern detection (R6.1): which qualifying pattern instances a side has completed.

Detection is incremental: after a placement on cell x only the precomputed instances through x
(``data.THROUGH``) are examined; :func:`complete_through` and the brute-force
:func:`complete_scan` are tested against each other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from .data import (
    CELL_CARD,
    CELLS,
    EMPTY,
    FREE_CELLS,
    GRADES,
    INSTANCES,
    IS_FREE,
    NEIGHBOURS,
    OTHERS,
    SIZE,
    THROUGH,
    TYPE_RANGES,
)

Getter = Callable[[Sequence[int]], Any]
"""``itemgetter(*cells)``: the marks on several cells as one tuple, in one C call."""


def qualifying_mask(grade: int, crowned_types: int, distinct: bool) -> int:
    """Bitmask of pattern types that count for a side (R4.1)."""
    mask = 0
    for t in GRADES[grade][0]:
        mask |= 1 << t
    if grade == 5 and distinct:
        mask &= ~crowned_types
    return mask


MASKS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(qualifying_mask(grade, ctypes, bool(distinct)) if grade else 0 for ctypes in range(16))
        for grade in range(6)
    )
    for distinct in (0, 1)
)
"""``MASKS[distinct][grade][crowned_types]``: :func:`qualifying_mask`, computed once."""


Group = tuple[tuple[int, tuple[tuple[int, tuple[int, ...]], ...]], ...]
"""Instances through a cell x, grouped by their first cell among x's neighbours (every
instance has one: patterns are king-connected): ``((neighbour, ((instance id, its remaining
cells), …)), …)``. An instance is complete for a side holding x when its neighbour and its
remaining cells all hold the side's marker; the neighbour test rejects whole groups at once."""


def _group(cell: int, t: int) -> Group:
    neighbours = NEIGHBOURS[cell]
    groups: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    for k, others in zip(THROUGH[t][cell], OTHERS[t][cell], strict=True):
        for first in neighbours:
            if first in others:
                break
        groups.setdefault(first, []).append((k, tuple(c for c in others if c != first)))
    return tuple((n, tuple(groups[n])) for n in neighbours if n in groups)


THROUGH_GROUPS: tuple[tuple[Group, ...], ...] = tuple(
    tuple(_group(x, t) if CELL_CARD[x] else () for x in range(SIZE * SIZE)) for t in range(4)
)
"""``THROUGH_GROUPS[type][cell]``: the instances of ``type`` through ``cell`` (:data:`Group`)."""

FREE_GROUPS: tuple[dict[int, Group], ...] = tuple(
    {
        cell: tuple(g for t in range(4) if mask >> t & 1 for g in THROUGH_GROUPS[t][cell])
        for cell in FREE_CELLS
    }
    for mask in range(16)
)
"""``FREE_GROUPS[mask][free cell]``: the instances of the types in ``mask`` through the FREE cell
(a neighbour may head one group per type)."""

CELL_MARKS: Getter = itemgetter(*CELLS)
"""The marks on the 112 board cells, in :data:`~.data.CELLS` order."""
FREE_MARKS: Getter = itemgetter(*FREE_CELLS)
"""The marks on the FREE cells, in :data:`~.data.FREE_CELLS` order."""
FREE_NEIGHBOURS: tuple[Getter, ...] = tuple(itemgetter(*NEIGHBOURS[c]) for c in FREE_CELLS)
"""The marks on each FREE cell's neighbours (a quick rejection: no neighbour, no pattern)."""


Via = tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]
"""Per FREE cell ``f`` (ascending) of the instances through a cell ``x`` and ``f``: ``(f, (the
instance's cells other than x and f, …))``."""


def _via_by_type() -> list[list[dict[int, list[tuple[int, ...]]]]]:
    acc: list[list[dict[int, list[tuple[int, ...]]]]] = [[{} for _ in range(SIZE * SIZE)] for _ in range(4)]
    for f in FREE_CELLS:
        for t in range(4):
            for k in THROUGH[t][f]:
                cells = INSTANCES[k][1]
                for x in cells:
                    if x != f:
                        acc[t][x].setdefault(f, []).append(tuple(c for c in cells if c not in (x, f)))
    return acc


def _via(per_type: list[list[dict[int, list[tuple[int, ...]]]]], mask: int, x: int) -> Via:
    acc: dict[int, list[tuple[int, ...]]] = {}
    for t in range(4):
        if mask >> t & 1:
            for f, rests in per_type[t][x].items():
                acc.setdefault(f, []).extend(rests)
    return tuple((f, tuple(acc[f])) for f in sorted(acc))


_VIA_BY_TYPE = _via_by_type()
FREE_VIA: tuple[tuple[Via, ...], ...] = tuple(
    tuple(_via(_VIA_BY_TYPE, mask, x) if CELL_CARD[x] else () for x in range(SIZE * SIZE))
    for mask in range(16)
)
"""``FREE_VIA[mask][x]``: the FREE cells that share an instance of a type in ``mask`` with cell
``x``, and those instances' other cells (:data:`Via`). A new marker on ``x`` can make only these
FREE cells completing (incremental :func:`completing_frees`)."""


def completing_frees(marks: Sequence[int], side: int, mask: int) -> tuple[int, ...]:
    """The empty FREE cells on which ``side``'s marker would complete an instance of a type in
    ``mask`` (R5.1b: a free space takes only the last marker of a pattern), ascending."""
    out: list[int] = []
    groups = FREE_GROUPS[mask]
    for i, m in enumerate(FREE_MARKS(marks)):
        if m != EMPTY or side not in FREE_NEIGHBOURS[i](marks):
            continue
        cell = FREE_CELLS[i]
        for n, group in groups[cell]:
            if marks[n] == side:
                for _, rest in group:
                    for c in rest:
                        if marks[c] != side:
                            break
                    else:
                        out.append(cell)
                        break
                else:
                    continue
                break
    return tuple(out)


def frees_after(
    marks: Sequence[int], x: int, side: int, mask: int, frees: tuple[int, ...]
) -> tuple[int, ...]:
    """:func:`completing_frees` for ``side`` after its new marker on the non-FREE cell ``x``,
    given ``frees``, the value before it (a new marker only adds completing FREE cells, and only
    those sharing an instance with ``x``)."""
    added: list[int] | None = None
    for f, rests in FREE_VIA[mask][x]:
        if marks[f] != EMPTY or f in frees:
            continue
        for rest in rests:
            for c in rest:
                if marks[c] != side:
                    break
            else:
                if added is None:
                    added = [f]
                else:
                    added.append(f)
                break
    if added is None:
        return frees
    return tuple(sorted((*frees, *added)))


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


def _mask_groups(mask: int, x: int) -> Group:
    by: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    for t in range(4):
        if mask >> t & 1:
            for n, group in THROUGH_GROUPS[t][x]:
                by.setdefault(n, []).extend(group)
    return tuple((n, tuple(by[n])) for n in NEIGHBOURS[x] if n in by)


MASK_GROUPS: tuple[tuple[Group, ...], ...] = tuple(
    tuple(_mask_groups(mask, x) if CELL_CARD[x] else () for x in range(SIZE * SIZE)) for mask in range(16)
)
"""``MASK_GROUPS[mask][cell]``: :data:`THROUGH_GROUPS` of the types in ``mask``, one group per
neighbour."""


def complete_through(marks: Sequence[int], x: int, side: int, mask: int, wild: bool = False) -> list[int]:
    """Incremental detection (R6.1): ids of the qualifying instances through cell ``x``
    whose every cell holds an uncrowned marker of ``side`` (``wild``: or is one empty FREE)."""
    out: list[int] = []
    if not wild:
        if marks[x] != side:
            return out
        for n, group in MASK_GROUPS[mask][x]:
            if marks[n] == side:
                for k, rest in group:
                    for c in rest:
                        if marks[c] != side:
                            break
                    else:
                        out.append(k)
        if len(out) > 1:
            out.sort()  # in instance order, as the brute force finds them
        return out
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
