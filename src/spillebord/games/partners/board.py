"""Movement on the Partners board: steps, walks, landings (R5), as pure functions.

A *board* is ``pos``: a tuple of four sorted tuples, the positions of each colour's pieces
(see :mod:`.data` for the encoding). Everything here is a pure function of it, so the rules
module, the split-7 search and the bot share one implementation.
"""

from __future__ import annotations

from bisect import insort

from .data import CIRCLE, HOUSE, HOUSE_SIZE, SEGMENT, START_FIELD, TRACK, partner

Board = tuple[tuple[int, ...], ...]

BLOCKED = -2
"""A step that would pass a foreign start field holding its owner's piece (5.4): illegal."""
OBSTRUCTED = -3
"""A step that runs into an occupied house circle or past H4 (5.5): illegal, or bounce (D7)."""


def blockers(pos: Board) -> tuple[bool, bool, bool, bool]:
    """``blk[d]``: colour d has a piece on its own start field S_d (so it blocks others, 5.4)."""
    return (
        START_FIELD[0] in pos[0],
        START_FIELD[1] in pos[1],
        START_FIELD[2] in pos[2],
        START_FIELD[3] in pos[3],
    )


def house_mask(pieces: tuple[int, ...]) -> int:
    """Bit k set: house circle H(k+1) of this colour is occupied."""
    m = 0
    for p in pieces:
        if p >= HOUSE:
            m |= 1 << (p - HOUSE)
    return m


def fstep(c: int, p: int, blk: tuple[bool, ...], hm: int, skip_house: bool = False, n: int = 14) -> int:
    """One forward step (5.2.3) of a colour-``c`` piece on ``p``; start fields are never counted.

    Returns the new position, :data:`BLOCKED` or :data:`OBSTRUCTED`. ``hm`` is c's house mask
    without the moving piece. ``skip_house`` passes c's own start field instead of entering
    (only with ``house_entry=optional``). ``n`` is the number of numbered squares per segment
    (option ``fields_per_segment``, D4); with fewer than 14 the squares c(n+1)…c14 do not exist.
    """
    if p >= HOUSE:
        k = p - HOUSE + 1
        if k >= HOUSE_SIZE or (hm >> k) & 1:
            return OBSTRUCTED
        return p + 1
    j = p + 1
    if j == TRACK:
        j = 0
    while True:
        k = j % SEGMENT
        if k == 0:
            o = j // SEGMENT
            if o == c:
                if not skip_house:
                    return OBSTRUCTED if hm & 1 else HOUSE
            elif blk[o]:
                return BLOCKED
            j += 1
        elif k > n:  # a square that does not exist on a smaller board: on to the next start field
            j = (j // SEGMENT + 1) * SEGMENT
            if j == TRACK:
                j = 0
        else:
            return j


def bstep(c: int, p: int, blk: tuple[bool, ...], hm: int, n: int = 14) -> int:
    """One backward step (5.2.5). From H1 (only with ``bounce``) the piece goes back onto the track."""
    if p >= HOUSE:
        k = p - HOUSE
        if k == 0:
            return (START_FIELD[c] - SEGMENT) % TRACK + n
        if (hm >> (k - 1)) & 1:
            return OBSTRUCTED
        return p - 1
    j = (p - 1) % TRACK
    while True:
        k = j % SEGMENT
        if k == 0:
            o = j // SEGMENT
            if o != c and blk[o]:
                return BLOCKED
            j = (j - 1) % TRACK
        elif k > n:
            j = j - k + n
        else:
            return j


def walk(
    c: int,
    p: int,
    n: int,
    blk: tuple[bool, ...],
    hm: int,
    optional: bool = False,
    bounce: bool = False,
    size: int = 14,
) -> list[int]:
    """Every position a colour-``c`` piece on ``p`` can end on after exactly ``n`` forward steps.

    Empty when the move is illegal. More than one end only with ``optional`` house entry.
    ``hm`` is c's house mask (the moving piece's own bit is removed here).
    """
    if p == CIRCLE:
        return []
    if p >= HOUSE:
        hm &= ~(1 << (p - HOUSE))
    if not optional and not bounce:  # the default rules: one path, no choices
        while n:
            p = fstep(c, p, blk, hm, False, size)
            if p < 0:
                return []
            n -= 1
        return [p]
    outs: list[int] = []
    stack = [(p, n, 1)]
    while stack:
        q, m, d = stack.pop()
        ok = True
        while m:
            if d == 1:
                r = fstep(c, q, blk, hm, False, size)
                if optional and q < HOUSE and r in (HOUSE, OBSTRUCTED):
                    r2 = fstep(c, q, blk, hm, True, size)
                    if r2 >= 0:
                        stack.append((r2, m - 1, 1))
                if r == OBSTRUCTED and bounce:
                    d = -1
                    continue
                if r < 0:
                    ok = False
                    break
                q = r
            else:
                r = bstep(c, q, blk, hm, size)
                if r < 0:
                    ok = False
                    break
                q = r
            m -= 1
        if ok and q not in outs:
            outs.append(q)
    return outs


_PATHS: dict[tuple[int, int, int, tuple[bool, ...], int, int], tuple[int, ...]] = {}


def path(c: int, p: int, nmax: int, blk: tuple[bool, ...], hm: int, size: int = 14) -> tuple[int, ...]:
    """Default rules only (mandatory entry, no bounce): the positions after 1, 2, … steps, up
    to ``nmax`` steps or the first illegal step. ``path(...)[n - 1]`` is the end of an n-step move.
    Memoised: it depends only on its arguments."""
    key = (c, p, nmax, blk, hm, size)
    got = _PATHS.get(key)
    if got is not None:
        return got
    out: list[int] = []
    if p != CIRCLE:
        q = p
        h = hm & ~(1 << (p - HOUSE)) if p >= HOUSE else hm
        while len(out) < nmax:
            q = fstep(c, q, blk, h, False, size)
            if q < 0:
                break
            out.append(q)
    if len(_PATHS) > 500_000:
        _PATHS.clear()
    res = _PATHS[key] = tuple(out)
    return res


def bwalk(c: int, p: int, n: int, blk: tuple[bool, ...], size: int = 14) -> int:
    """The end of ``n`` backward steps (5.7) from track position ``p``, or :data:`BLOCKED`."""
    if p < 0 or p >= HOUSE:
        return BLOCKED
    while n:
        p = bstep(c, p, blk, 0, size)
        if p < 0:
            return BLOCKED
        n -= 1
    return p


def occupant(pos: Board, sq: int, but: int = -1) -> tuple[int, int]:
    """(colour, count) of the pieces on track square ``sq`` (colour -1 if empty), ignoring colour ``but``."""
    for o in range(4):
        if o == but:
            continue
        k = pos[o].count(sq)
        if k:
            return o, k
    return -1, 0


_OTHERS = tuple(tuple(o for o in range(4) if o != c) for c in range(4))
"""The colours other than ``c``, in order (a tuple to loop over: no range object, no test)."""


def land(pos: Board, c: int, frm: int, to: int) -> tuple[Board, int, bool]:
    """Move one colour-``c`` piece from ``frm`` to ``to`` and resolve the landing (5.3).

    Returns (new board, colour knocked out or -1, whether the mover itself was knocked out).
    """
    new = [*pos]  # (displays, not list(): no call)
    knocked = -1
    self_out = False
    if 0 <= to < TRACK:
        for o in _OTHERS[c]:  # occupant(), inlined: one colour at most stands on a square
            if to in pos[o]:
                theirs = pos[o]
                if theirs.count(to) >= 2:
                    self_out = True
                else:
                    rest = [*theirs]
                    rest.remove(to)
                    rest.insert(0, CIRCLE)  # the smallest position: the order stays sorted
                    new[o] = tuple(rest)
                    knocked = o
                break
    mine = [*pos[c]]
    mine.remove(frm)
    insort(mine, CIRCLE if self_out else to)  # one C call for append and sort
    new[c] = tuple(mine)
    return tuple(new), knocked, self_out


def swap(pos: Board, c1: int, p1: int, c2: int, p2: int) -> Board:
    """Exchange the squares of two lone pieces (6.4.2): no knock-out, no house, no blocking."""
    if c1 == c2:
        return pos
    new = list(pos)
    a = list(pos[c1])
    a[a.index(p1)] = p2
    a.sort()
    b = list(pos[c2])
    b[b.index(p2)] = p1
    b.sort()
    new[c1], new[c2] = tuple(a), tuple(b)
    return tuple(new)


def home(pieces: tuple[int, ...]) -> bool:
    """Every piece of the colour is in its house (5.5.7)."""
    return pieces[0] >= HOUSE  # sorted: the smallest position is in the house


def active_colour(pos: Board, seat: int) -> int:
    """The colour a seat moves (5.1): its own while one of its pieces is outside the house."""
    return partner(seat) if home(pos[seat]) else seat


def team_home(pos: Board, t: int) -> bool:
    """Partnership ``t`` (0: Yellow+Blue, 1: Red+Green) has all its pieces home (9.1)."""
    return home(pos[t]) and home(pos[t + 2])


# --------------------------------------------------------------------------- move tables

Step = tuple[int, int, int]
"""(end, passed, house): where n forward steps end on an empty board, the bits of the foreign
start fields passed on the way (``1 << colour``) and the bits of the own house circles
stepped on (``1 << k`` for H(k+1))."""

_STEPS: dict[tuple[int, int], tuple[tuple[Step, ...], ...]] = {}


def steps_table(c: int, size: int = 14) -> tuple[tuple[Step, ...], ...]:
    """Default rules (mandatory entry, no bounce): ``steps_table(c)[p + 1][n - 1]`` describes
    an n-step forward move of a colour-``c`` piece on ``p`` (CIRCLE, track or house), up to
    14 steps; the tuple ends where the walk runs past H4. The move is legal exactly when
    ``passed & blocker_bits(pos) == 0`` and ``house & house_mask(pieces) == 0``: the same walk
    as :func:`fstep` with the board's blockers and house read off afterwards (a piece never
    steps on a circle behind it, so its own bit does not matter). Built once per colour."""
    key = (c, size)
    got = _STEPS.get(key)
    if got is not None:
        return got
    rows: list[tuple[Step, ...]] = [()]  # CIRCLE
    for p in range(HOUSE + HOUSE_SIZE):
        if p < TRACK and p % SEGMENT > size:
            rows.append(())  # a square the smaller board lacks: no piece stands there
            continue
        ends = path(c, p, 14, (False, False, False, False), 0, size)
        # the walk with one foreign blocker is the free walk cut short where it passes it
        cut = [
            len(path(c, p, 14, tuple(k == o for k in range(4)), 0, size)) if o != c else 14 for o in range(4)
        ]
        out: list[Step] = []
        for i, q in enumerate(ends):
            passed = sum(1 << o for o in range(4) if cut[o] <= i)
            house = sum(1 << (e - HOUSE) for e in ends[: i + 1] if e >= HOUSE)
            out.append((q, passed, house))
        rows.append(tuple(out))
    res = _STEPS[key] = tuple(rows)
    return res


_BACK: dict[tuple[int, int, int], tuple[tuple[int, int] | None, ...]] = {}


def back_table(c: int, n: int, size: int = 14) -> tuple[tuple[int, int] | None, ...]:
    """``back_table(c, n)[p + 1]``: (end, passed) of ``n`` backward steps from track square
    ``p`` (:func:`bwalk`), the move legal when ``passed & blocker_bits(pos) == 0``; ``None``
    off the track."""
    key = (c, n, size)
    got = _BACK.get(key)
    if got is not None:
        return got
    rows: list[tuple[int, int] | None] = [None]
    for p in range(HOUSE + HOUSE_SIZE):
        if p >= TRACK or p % SEGMENT > size:
            rows.append(None)
            continue
        passed = 0
        for o in range(4):
            if o == c:
                continue
            blk = tuple(k == o for k in range(4))
            if bwalk(c, p, n, blk, size) < 0:
                passed |= 1 << o
        rows.append((bwalk(c, p, n, (False, False, False, False), size), passed))
    res = _BACK[key] = tuple(rows)
    return res


def blocker_bits(pos: Board) -> int:
    """:func:`blockers` as bits: ``1 << d`` when colour d has a piece on its own start field."""
    return (
        (START_FIELD[0] in pos[0])
        | (START_FIELD[1] in pos[1]) << 1
        | (START_FIELD[2] in pos[2]) << 2
        | (START_FIELD[3] in pos[3]) << 3
    )


PathRow = list[tuple[int, ...] | None]
PathTable = list[PathRow | None]
_PATH_LISTS: list[PathTable | None] = [None] * 64
"""``_PATH_LISTS[c << 4 | size]``: :func:`path_table` of colour ``c`` and ``size`` fields a
segment (at most 14), by list index (no key tuple to build and hash)."""


def path_table(c: int, size: int = 14) -> PathTable:
    """Default rules: the memo of :func:`legal_path` for colour ``c``, by list index (small
    ints: no int is made for a key, and a list index costs less than a dict look-up):
    ``path_table(c, size)[blk << 4 | hm]`` is None or :func:`path_row` of those blocker bits
    and house mask, whose entry ``p + 1`` is the path from square ``p`` or None (not yet made:
    :func:`legal_path` fills it)."""
    tbl = _PATH_LISTS[c << 4 | size]
    if tbl is None:
        tbl = _PATH_LISTS[c << 4 | size] = [None] * 256
    return tbl


def path_row(c: int, k: int, size: int = 14) -> PathRow:
    """``path_table(c, size)[k]`` (``k``: the blocker bits << 4 | the house mask), made if missing."""
    tbl = _PATH_LISTS[c << 4 | size] or path_table(c, size)
    row = tbl[k]
    if row is None:
        row = tbl[k] = [None] * (HOUSE + HOUSE_SIZE + 1)
    return row


def legal_path(c: int, p: int, blk: int, hm: int, size: int = 14) -> tuple[int, ...]:
    """:func:`path` from the step table: the ends of 1, 2, … up to 14 forward steps of a
    colour-``c`` piece on ``p`` until the first illegal step, with the blockers as bits
    (:func:`blocker_bits`) and ``hm`` the colour's whole house mask. Memoised per square,
    blockers and house (at most 65 × 16 × 16 paths a colour, :func:`path_table`)."""
    k = blk << 4 | hm
    row = (_PATH_LISTS[c << 4 | size] or path_table(c, size))[k] or path_row(c, k, size)
    got = row[p + 1]
    if got is None:
        bits = blk | hm << 4 | _WHOLE
        for m, ends in (_CUT_LISTS[c << 4 | size] or _cuts(c, size))[p + 1]:
            if m & bits:
                got = row[p + 1] = ends
                break
    assert got is not None  # the last cut always matches
    return got


_WHOLE = 1 << 8
"""A mask bit no step sets: the last cut of :func:`_cuts` (the whole walk) always matches."""
Cuts = tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]
_CUT_LISTS: list[Cuts | None] = [None] * 64
"""``_CUT_LISTS[c << 4 | size]``: :func:`_cuts` of colour ``c``, by list index (no key tuple)."""


def _cuts(c: int, size: int) -> Cuts:
    """``_CUT_LISTS[c << 4 | size][p + 1]``: for each step of :func:`steps_table`'s row where its mask
    ``passed | house << 4`` grows, (that mask, the ends before the step), then
    (:data:`_WHOLE`, every end). The masks only grow along a walk (start fields passed, house
    circles stepped on), so the legal path for blockers and house ``bits`` is the first cut
    whose mask meets them: at most a few prefixes a square, shared by every board that
    yields them (filling the memo of :func:`legal_path` builds no tuple)."""
    rows = []
    for row in steps_table(c, size):
        ends = tuple(e for e, _, _ in row)
        cuts = []
        prev = 0
        for i, (_e, passed, house) in enumerate(row):
            m = passed | house << 4
            if m != prev:
                cuts.append((m, ends[:i]))
                prev = m
        cuts.append((_WHOLE, ends))
        rows.append(tuple(cuts))
    got = _CUT_LISTS[c << 4 | size] = tuple(rows)
    return got
