"""An independent reference for Partners movement, written straight from the rules
(docs/rules/partners.md R5.2–R5.5, R6.5), step by step and without the engine's code: the
tests compare the engine's legal moves with it."""

from __future__ import annotations

from spillebord.games.partners.data import START_FIELD

Board = tuple[tuple[int, ...], ...]


def ref_forward(pos: Board, c: int, p: int, n: int) -> int | None:
    """Rule 5.2.3 / 5.5 step by step; None when a step is illegal."""
    if p < 0:
        return None
    occupied_starts = {START_FIELD[d] for d in range(4) if START_FIELD[d] in pos[d]}
    own_house = {q for q in pos[c] if q >= 60} - {p}
    cur = p
    for _ in range(n):
        if cur >= 60:  # inside the house: one circle deeper, never onto or past a piece
            if cur + 1 > 63 or cur + 1 in own_house:
                return None
            cur += 1
            continue
        nxt = (cur + 1) % 60
        if nxt == START_FIELD[c]:  # own start field reached from behind: into H1
            if 60 in own_house:
                return None
            cur = 60
            continue
        if nxt % 15 == 0:  # a foreign start field: blocked when occupied, never counted
            if nxt in occupied_starts:
                return None
            nxt += 1
        cur = nxt
    return cur


def ref_backward(pos: Board, c: int, p: int, n: int) -> int | None:
    """Rule 5.2.5: backwards on the track only, own start field skipped."""
    if p < 0 or p >= 60:
        return None
    occupied_starts = {START_FIELD[d] for d in range(4) if START_FIELD[d] in pos[d] and d != c}
    cur = p
    for _ in range(n):
        nxt = (cur - 1) % 60
        if nxt % 15 == 0:
            if nxt in occupied_starts:
                return None
            nxt = (nxt - 1) % 60
        cur = nxt
    return cur


def ref_land(pos: Board, c: int, frm: int, to: int) -> Board:
    """Rule 5.3: a lone foreign piece is knocked out; a foreign pair knocks the mover out."""
    new = [list(x) for x in pos]
    new[c].remove(frm)
    dest = to
    if 0 <= to < 60:
        for o in range(4):
            if o != c and to in new[o]:
                if new[o].count(to) == 1:
                    new[o][new[o].index(to)] = -1
                else:
                    dest = -1
    new[c].append(dest)
    return tuple(tuple(sorted(x)) for x in new)


def ref_split_sequences(
    pos: Board, seat: int, r: int, used: tuple[tuple[int, int], ...]
) -> list[list[tuple[int, int, int]]]:
    """Every complete split 7 (rule 6.5) from here, as lists of (from, steps, to)."""
    mine_home = all(p >= 60 for p in pos[seat])
    a = (seat + 2) % 4 if mine_home else seat
    out: list[list[tuple[int, int, int]]] = []
    for p in sorted(set(pos[a])):
        if p < 0 or pos[a].count(p) <= used.count((a, p)):
            continue
        for s in range(1, r + 1):
            e = ref_forward(pos, a, p, s)
            if e is None:
                continue
            new = ref_land(pos, a, p, e)
            t = seat % 2
            won = all(q >= 60 for q in new[t] + new[t + 2])
            switched = a == seat and all(q >= 60 for q in new[seat])
            moved = e if e in new[a] else -1
            if s == r or won:
                out.append([(p, s, e)])
                continue
            subs = ref_split_sequences(new, seat, r - s, (*used, (a, moved)))
            if subs:
                out.extend([(p, s, e), *sub] for sub in subs)
            elif switched:
                out.append([(p, s, e)])  # the remainder lapses
    return out
