"""Partners: the rules engine (docs/rules/partners.md; seed text: spilregler.dk, Danish).

The board always has four colour seats (R10.1): Yellow 0, Red 1, Blue 2, Green 3, clockwise;
partners sit opposite (Yellow+Blue against Red+Green). The contract's seats are the 2–4
*people* (R10.2): with 4 each plays one colour; with 2 each plays a whole partnership; with 3
person 0 plays Yellow+Blue and persons 1 and 2 play Red and Green
(:func:`.data.seat_controllers`). ``state.turn`` is the colour seat to act, ``state.to_act`` the
person controlling it; a person's view shows the hands of all the colour seats he plays. The
sides of the contract (:meth:`PartnersGame.teams`) are the people of each partnership: a person
who plays a whole partnership is a side alone.

How the game decomposes into decisions (one action each, ``state.phase`` says which):

* ``exchange`` (bytte kort, R3.3): after every deal each seat, starting with the leader and
  going clockwise, commits one card for its partner: ``give h8``. The commitments are
  simultaneous and hidden: a seat's view shows only its own commitment, the others' only as
  "committed". When all four have committed the cards change hands at once.
* ``play`` (R3.5, R4): the seat to act plays one card and one of its moves:
  ``start h8`` (start move), ``play n5 y12 r3`` (forward/backward move: card, from, to;
  ``play a114=14 ys y14`` names the chosen value of the 1/14), ``swap r3 b7`` (byttekort),
  ``seven y3 2 y5`` (the first part of a split 7: piece, steps, landing square), or
  ``discard`` when no card is usable (R8: the whole hand is laid down).
* ``split`` (delekort, R6.5): the further parts of a split 7, ``seven y10 5 r1``, one
  (piece, steps) decision at a time, until all seven steps are used (or the remainder lapses
  by rule 6.5.6). Only parts that can still be completed under the sum rule are offered.

Deals come in dealer cycles (R3.2): one dealer deals three deals of four cards each from one
shuffle; the leftovers are set aside unseen; then the deal passes left and the new dealer
reshuffles everything.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Iterable, Sequence
from itertools import repeat
from operator import is_
from typing import Any, ClassVar, TypeVar

from spillebord.core import (
    Event,
    GameKind,
    GameOver,
    IllegalAction,
    OptionError,
    Rng,
    Teams,
    state,
    win_outcome,
)
from spillebord.core.game import Game, State, truncated_event  # the defining module: mypyc needs it for bases
from spillebord.core.mypyc import mypyc_attr

from . import board as B
from . import notation
from .actions import Discard, Give, Move, PartnersAction, Seven, Start, StopSplit, Swap
from .data import (
    CARD_ORDER,
    CARD_TYPES,
    CIRCLE,
    COLOURS,
    HOUSE,
    HOUSE_SIZE,
    SEGMENT,
    START_FIELD,
    TRACK,
    partner,
    seat_controllers,
    sort_cards,
    square_id,
    team,
)
from .explain import why_illegal
from .options import MAX_DEALS, PartnersOptions, deals_per_cycle, deck_of
from .view import view as build_view

Board = B.Board
_PATH_LISTS = B._PATH_LISTS

# --------------------------------------------------------------------------- split-7 search

_VIABLE: dict[tuple[Any, ...], bool] = {}


def split_parts(
    pos: Board,
    seat: int,
    r: int,
    used: tuple[tuple[int, int], ...],
    optional: bool,
    bounce: bool,
    size: int,
) -> list[tuple[int, int, int, int]]:
    """Candidate parts (colour, from, steps, to) with 1..r steps, before the sum rule."""
    a = B.active_colour(pos, seat)
    blk = B.blockers(pos)
    hm = B.house_mask(pos[a])
    pmap = _paths_of(a, pos[a], B.blocker_bits(pos), size) if not optional and not bounce else {}
    simple = not optional and not bounce
    out: list[tuple[int, int, int, int]] = []
    prev = -99
    mine = pos[a]
    for p in mine:
        if p in (CIRCLE, prev):
            continue
        prev = p
        if used and mine.count(p) <= used.count((a, p)):
            continue
        if simple:
            # the 14-step path is memoised once for every r (and shared with card_moves)
            for s, e in enumerate(pmap[p][:r], 1):
                out.append((a, p, s, e))
            continue
        for s in range(1, r + 1):
            for e in B.walk(a, p, s, blk, hm, optional, bounce, size):
                out.append((a, p, s, e))
    return out


def apply_part(
    pos: Board, seat: int, part: tuple[int, int, int, int], used: tuple[tuple[int, int], ...]
) -> tuple[Board, int, bool, tuple[tuple[int, int], ...], bool, bool]:
    """(board, knocked colour, mover knocked out, used, switched to the partner, team won)."""
    a, p, _s, e = part
    new, ko, so = B.land(pos, a, p, e)
    used2 = tuple(sorted((*used, (a, CIRCLE if so else e))))
    won = B.team_home(new, team(seat))
    switched = a == seat and B.home(new[seat])
    return new, ko, so, used2, switched, won


def part_ok(
    pos: Board,
    seat: int,
    r: int,
    used: tuple[tuple[int, int], ...],
    part: tuple[int, int, int, int],
    optional: bool,
    bounce: bool,
    size: int,
) -> bool:
    """Rule 6.5.6: after this part the split can be completed exactly, or it may lapse."""
    rem = r - part[2]
    if rem == 0:
        return True
    new, _ko, _so, used2, switched, won = apply_part(pos, seat, part, used)
    return won or switched or viable(new, seat, rem, used2, optional, bounce, size)


def _longest_first(part: tuple[int, int, int, int]) -> int:
    return -part[2]


def _paths_of(a: int, mine: tuple[int, ...], blk: int, size: int) -> dict[int, tuple[int, ...]]:
    """Default rules: each piece square of colour ``a`` (``mine``, start circle left out, in
    order) -> its :func:`.board.path` of up to 14 steps, from the memo of
    :func:`.board.legal_path` (``blk``: the blocker bits, :func:`.board.blocker_bits`)."""
    tbl = _PATH_LISTS[a << 4 | size] or B.path_table(a, size)
    base = blk << 4
    if mine[-1] >= HOUSE:  # a sorted board tuple: B.house_mask(mine), inlined
        for q in mine:
            if q >= HOUSE:
                base |= 1 << (q - HOUSE)
    out: dict[int, tuple[int, ...]] = {}
    row = tbl[base] or B.path_row(a, base, size)
    for p in mine:
        if p != CIRCLE:
            got = row[p + 1]
            out[p] = got if got is not None else B.legal_path(a, p, blk, base & 15, size)
    return out


_HOUSE_SUM_LIST: list[frozenset[tuple[int, int]] | None] = [None] * 256
"""``_HOUSE_SUM_LIST[occ << 4 | free]``: :func:`_house_sums`, by list index (no key tuple)."""


def _house_sums(occ: int, free: int) -> frozenset[tuple[int, int]]:
    """(pieces moved, steps) that the pieces in a house can make in one split, each moving at
    most once (``free``: bits of those not yet used; ``occ``: every occupied circle). In the
    house a piece steps forward onto free circles only (5.5), so the moves depend on nothing
    else. (0, 0) is always in the set."""
    got = _HOUSE_SUM_LIST[occ << 4 | free]
    if got is None:
        out = {(0, 0)}
        for k in range(HOUSE_SIZE):
            if not (free >> k) & 1:
                continue
            for t in range(k + 1, HOUSE_SIZE):
                if (occ >> t) & 1:
                    break
                for m, steps in _house_sums(occ & ~(1 << k) | (1 << t), free & ~(1 << k)):
                    out.add((m + 1, steps + t - k))
        got = _HOUSE_SUM_LIST[occ << 4 | free] = frozenset(out)
    return got


_NO_HOUSE_MOVES = frozenset({(0, 0)})


def viable(
    pos: Board,
    seat: int,
    r: int,
    used: tuple[tuple[int, int], ...],
    optional: bool,
    bounce: bool,
    size: int,
) -> bool:
    """Some sequence of parts uses exactly ``r`` more steps (or ends by a lapse or a win)."""
    if not optional and not bounce:
        # the default rules: the search on the moving colour's pieces alone
        a = seat if pos[seat][0] < HOUSE else seat ^ 2  # B.active_colour
        return _can_finish(a, pos[a], _moved_of(a, used), r, B.blocker_bits(pos), _pair_bits(pos, a), size)
    key = (pos, seat, r, used, optional, bounce, size)
    v = _VIABLE.get(key)
    if v is None:
        parts = sorted(split_parts(pos, seat, r, used, optional, bounce, size), key=_longest_first)
        v = any(part_ok(pos, seat, r, used, part, optional, bounce, size) for part in parts)
        if len(_VIABLE) > 200_000:
            _VIABLE.clear()
        _VIABLE[key] = v
    return v


def _moved_of(a: int, used: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """Where the pieces of colour ``a`` that moved in this split stand (``used``'s squares of
    ``a``, sorted): they may not move again."""
    if not used:
        return ()
    out = [q for c, q in used if c == a]
    out.sort()
    return tuple(out)


def _pair_bits(pos: Board, a: int) -> int:
    """Bits ``1 << q`` of the track squares where another colour than ``a`` has a protected
    pair: a piece of ``a`` landing there goes back to its circle (5.3)."""
    bits = 0
    for o in _OTHERS[a]:
        prev = CIRCLE
        for q in pos[o]:
            if q == prev and 0 <= q < HOUSE:
                bits |= 1 << q
            prev = q
    return bits


def _part_passes(
    a: int,
    mine: tuple[int, ...],
    moved: tuple[int, ...],
    p: int,
    e: int,
    rem: int,
    blk: int,
    pairs: int,
    size: int,
) -> bool:
    """Default rules: :func:`part_ok` of the part that moves colour ``a``'s piece on ``p`` to
    ``e`` with ``rem`` steps left after it (the arguments as :func:`_can_finish`'s)."""
    if not rem:
        return True
    to = CIRCLE if e < HOUSE and (pairs >> e) & 1 else e  # B.land: a pair sends it home
    pcs = [*mine]
    pcs.remove(p)
    insort(pcs, to)
    new = tuple(pcs)
    if new[0] >= HOUSE:  # all of a's pieces home: a switch or a win, the rest may lapse
        return True
    mv = [*moved]
    insort(mv, to)
    return _can_finish(a, new, tuple(mv), rem, blk, pairs, size)


_FINISH: dict[tuple[Any, ...], bool] = {}
""":func:`_can_finish` by its arguments."""


def _can_finish(
    a: int, mine: tuple[int, ...], moved: tuple[int, ...], rem: int, blk: int, pairs: int, size: int
) -> bool:
    """Default rules: can colour ``a`` (its pieces ``mine``; those on ``moved`` already moved
    in this split) use exactly ``rem`` more steps of the 7, or bring all its pieces home on
    the way (a switch to the partner or a win: then the rest may lapse, 6.5.6)?

    This is :func:`viable` on the moving colour alone: in a split only ``a``'s pieces move,
    they cannot land on a start field, so the blockers (``blk``, :func:`.board.blocker_bits`)
    stay as they are for ``a``, a knocked-out piece of another colour changes nothing for
    ``a``, and the protected pairs (``pairs``, :func:`_pair_bits`) stay where they are.
    Memoised by its arguments."""
    key = (a, mine, moved, rem, blk, pairs, size)
    v = _FINISH.get(key)
    if v is not None:
        return v
    tbl = _PATH_LISTS[a << 4 | size] or B.path_table(a, size)
    hm = 0
    if mine[-1] >= HOUSE:
        for q in mine:
            if q >= HOUSE:
                hm |= 1 << (q - HOUSE)
    k0 = blk << 4 | hm
    prow = tbl[k0] or B.path_row(a, k0, size)  # the paths under these blockers and house
    v = False
    cands: list[tuple[int, tuple[int, ...]]] = []
    prev = CIRCLE
    for q in mine:  # each free square once
        if q == prev:
            continue
        prev = q
        if moved and mine.count(q) <= moved.count(q):
            continue
        path = prow[q + 1]
        if path is None:
            path = B.legal_path(a, q, blk, hm, size)
        if len(path) >= rem:  # this piece walks the rest alone
            v = True
            break
        if path:
            cands.append((q, path))
    if not v:
        # every part of each piece: it has fewer steps than ``rem`` here, so some remain
        for q, path in cands:
            for s, e in enumerate(path, 1):
                if _part_passes(a, mine, moved, q, e, rem - s, blk, pairs, size):
                    v = True
                    break
            if v:
                break
    if len(_FINISH) > 200_000:
        _FINISH.clear()
    _FINISH[key] = v
    return v


def seven_parts(
    pos: Board, seat: int, r: int, used: tuple[tuple[int, int], ...], o: PartnersOptions
) -> list[tuple[int, int, int, int]]:
    """The parts of a split 7 (delekort) ``seat`` may play now with ``r`` steps left: those of
    :func:`split_parts` that pass :func:`part_ok` when the split must use all seven (6.5.6)."""
    optional = o.house_entry == "optional"
    bounce = o.house_overshoot == "bounce"
    size = o.fields_per_segment
    if o.split_must_use_all and not optional and not bounce:
        parts = _default_seven_parts(pos, seat, r, used, size)
        assert isinstance(parts, list)  # a fresh list without ``acts``
        return parts
    parts = split_parts(pos, seat, r, used, optional, bounce, size)
    if not o.split_must_use_all:
        return parts
    return [part for part in parts if part_ok(pos, seat, r, used, part, optional, bounce, size)]


def _default_seven_parts(
    pos: Board,
    seat: int,
    r: int,
    used: tuple[tuple[int, int], ...],
    size: int,
    acts: bool = False,
    blk: int = -1,
) -> Sequence[Any]:
    """:func:`seven_parts` under the default rules (mandatory entry, no bounce, all seven used).

    A part that stays on the track changes neither the blockers nor the house of its colour,
    so whether the other free pieces can walk the remaining steps is read off their paths
    from where they stand now (the track split: moves on the track are independent, the
    blockers never change and own pieces never block each other there; only the house does,
    so it decides only while no other path enters the house within the remaining steps, nor
    waits at the occupied entry that a house move could free). It needs only the others'
    total path length: each path counted is at least one step, so k of them share ``need``
    steps, each at least one, exactly when need <= total; the house pieces add any of their
    :func:`_house_sums`. Without house moves the steps a piece may take are then a run of its
    row: those that leave more than the others can walk need the search, the rest up to the
    end are accepted, one slice of :func:`_seven_rows`. :func:`_part_passes` (the search on the
    colour's pieces alone) decides the rest.

    With ``acts`` the list holds the :class:`.actions.Seven` actions
    instead of the parts (legal()'s lists; then it may be the tuple kept in
    :data:`_SEVEN_LISTS`, which callers only read). ``blk``: the board's
    :func:`.board.blocker_bits` when the caller has them (legal() does), else -1."""
    a = seat if pos[seat][0] < HOUSE else seat ^ 2  # B.active_colour
    mine = pos[a]
    if blk < 0:  # the split phase's lists (legal()'s first list passes its own)
        blk = B.blocker_bits(pos)
    # the memo for the whole 7 only: the split phase's key (with the parts used) hardly recurs
    key = None if used else (a, mine, blk & ~(1 << a), r, size, acts)  # a's own blocker bit never stops a
    got = None if key is None else _SEVEN_LISTS.get(key)
    pairs = -1  # _pair_bits, once a search needs it
    if got is not None:
        if type(got) is not dict:
            return got if acts else list(got)
        # a search decided some part: then the list depends on the protected pairs too
        pairs = _pair_bits(pos, a)
        hit = got.get(pairs)
        if hit is not None:
            return hit if acts else list(hit)
    searched = False  # whether a search looked at the protected pairs of the board
    moved = _moved_of(a, used) if used else ()
    tbl = _PATH_LISTS[a << 4 | size] or B.path_table(a, size)
    occ = 0  # B.house_mask(mine)
    if mine[-1] >= HOUSE:
        for q in mine:
            occ |= _HM_BITS[q]
    # each piece square once: its free pieces and its path (_paths_of, in the same pass)
    base = blk << 4
    k0 = base | occ
    prow = tbl[k0] or B.path_row(a, k0, size)  # the paths under these blockers and house
    pmap: dict[int, tuple[int, ...]] = {}
    free: dict[int, int] = {}
    prev = CIRCLE
    for q in mine:
        if q == prev:  # the circle, or a second piece on q (sorted: next to the first)
            if q != CIRCLE:
                free[q] += 1
            continue
        prev = q
        free[q] = 1
        qp = prow[q + 1]
        pmap[q] = qp if qp is not None else B.legal_path(a, q, blk, occ, size)
    hfree = 0
    if used:
        for c, q in used:
            if c == a and q in free:
                free[q] -= 1
        for q, k in free.items():
            if k > 0 and q >= HOUSE:
                hfree |= 1 << (q - HOUSE)
    elif occ:
        hfree = occ  # nothing moved yet: every house piece is free
    house = (_HOUSE_SUM_LIST[occ << 4 | hfree] or _house_sums(occ, hfree)) if hfree else _NO_HOUSE_MOVES
    plain = len(house) == 1  # no house move: the track test is one prefix sum
    entry = (START_FIELD[a] - SEGMENT) % TRACK + size  # the last square before a's own start field
    out: list[Any] = []
    rows = _SEVEN_ROW_LISTS[a << 4 | size] or _seven_rows(a, size)
    # a piece of ``a`` that cannot reach the house in this split (in the circle, or moved to a
    # track square): then no part can bring the colour home, so a split that cannot use its
    # remaining steps cannot end by a switch to the partner or a win either
    stuck = mine[0] == CIRCLE or (bool(used) and any(c == a and 0 <= q < HOUSE for c, q in used))
    todo: Iterable[tuple[int, int]] = free.items()  # the pieces for the general case below
    if plain:
        # no house move and no free piece's path enters the house (the usual case): then for
        # every piece the others' track split accepts every remainder up to their total path
        # length and none above (the general case below with ``reach`` 99, ``longest`` at
        # most that total and ``h`` = ``n``): one sum for all pieces, one slice a piece
        total = 0
        for q, kq in todo:
            if kq > 0:
                qpath = pmap[q]
                if qpath:
                    if qpath[-1] >= HOUSE:
                        break
                    total += len(qpath) * kq
        else:
            for p, k in todo:
                if k <= 0:
                    continue
                path = pmap[p]
                n = len(path)
                if not n:
                    continue
                lo = r - (total - n)  # the others' total: one piece on p less
                if lo < 1:
                    lo = 1
                if n > r:
                    n = r
                if lo <= n:
                    if acts:
                        out += rows[p + 1][lo - 1 : n]
                    else:
                        out += [(a, p, t, path[t - 1]) for t in range(lo, n + 1)]
            todo = ()
    for p, k in todo:
        if k <= 0:
            continue
        path = pmap[p]
        n = len(path)
        if not n:
            continue
        if n > r:
            n = r
        row = rows[p + 1]
        # the other free pieces (p's square once less)
        if not used:  # no piece moved yet: every square has a free piece
            others = [*free]
            if k == 1:
                others.remove(p)
        else:
            others = []  # (a loop: a comprehension is a function call in Python 3.11)
            for q, kq in free.items():
                if kq > (q == p):
                    others.append(q)
        # at most how far each other free piece can walk (the house empty), with
        # multiplicity: made when first needed
        far: list[int] | None = None
        if p >= HOUSE:
            hp = occ & ~(1 << (p - HOUSE))
            for s in range(1, n + 1):
                rem = r - s
                e = path[s - 1]
                if not rem or _walks(a, size, tbl, others, base, hp | 1 << (e - HOUSE)) >= rem:
                    out.append(row[s - 1] if acts else (a, p, s, e))
                    continue
                if stuck:
                    if far is None:
                        far = _far(a, free, others, p, blk, size)
                    if not _shares(far, rem):
                        continue
                searched = True
                if pairs < 0:
                    pairs = _pair_bits(pos, a)
                if _part_passes(a, mine, moved, p, e, rem, blk, pairs, size):
                    out.append(row[s - 1] if acts else (a, p, s, e))
            continue
        # the track split of the other free track pieces, for every remainder at once: their
        # total path length, the fewest steps after which one enters the house, the longest
        total = 0
        # a remainder above ``reach`` lets some other path enter the house: undecided
        reach = 99
        longest = 0
        for q in others:
            qpath = pmap[q]
            nq = len(qpath)
            if nq > longest:
                longest = nq
            if q >= HOUSE:
                continue
            if nq:
                if qpath[-1] >= HOUSE:
                    i = 0
                    while qpath[i] < HOUSE:
                        i += 1
                    if i < reach:
                        reach = i
                total += nq * (free[q] - (q == p))
            if nq < 14 and not plain and (qpath[-1] if nq else q) == entry:
                reach = -1
        h = n  # the steps of p's path on the track: 1..h (a path never leaves the house)
        if path[n - 1] >= HOUSE:
            h = 0
            while path[h] < HOUSE:
                h += 1
        if plain:
            # remainders up to ``top`` are accepted (0; up to reach: the others' total; above
            # reach: one other piece walks them alone, and longest <= total here), those
            # above max(reach, longest) need the search, those in between are refused
            top = total if total < reach else reach
            if longest > top:
                top = longest
            slow = r - (reach if reach > longest else longest)  # steps below this: search
        else:
            top = -1
            slow = h + 1  # every step decided one by one
        s = 1
        while s <= h:
            if s >= slow:  # (plain) the accepted steps, in one slice
                lo = r - top
                if lo < s:
                    lo = s
                if lo <= h:
                    if acts:
                        out += row[lo - 1 : h]
                    else:
                        out += [(a, p, t, path[t - 1]) for t in range(lo, h + 1)]
                break
            rem = r - s
            if not plain:
                if not rem:
                    out.append(row[s - 1] if acts else (a, p, s, path[s - 1]))
                    s += 1
                    continue
                if rem <= reach:
                    for _m, steps in house:
                        if 0 <= rem - steps <= total:
                            out.append(row[s - 1] if acts else (a, p, s, path[s - 1]))
                            break
                    s += 1
                    continue
                if longest >= rem:
                    # another free piece walks the rest alone (part_ok would find it so: the
                    # move changes no blocker, and the house only as ``occ`` says)
                    out.append(row[s - 1] if acts else (a, p, s, path[s - 1]))
                    s += 1
                    continue
            # the others cannot share the rest by the track test: the search decides
            if far is None:
                far = _far(a, free, others, p, blk, size)
            if _shares(far, rem):  # else nor can the colour come home
                e = path[s - 1]
                searched = True
                if pairs < 0:
                    pairs = _pair_bits(pos, a)
                if _part_passes(a, mine, moved, p, e, rem, blk, pairs, size):
                    out.append(row[s - 1] if acts else (a, p, s, e))
            s += 1
        for s in range(h + 1, n + 1):  # the steps that end in the house
            rem = r - s
            e = path[s - 1]
            if not rem or _walks(a, size, tbl, others, base, occ | 1 << (e - HOUSE)) >= rem:
                out.append(row[s - 1] if acts else (a, p, s, e))
                continue
            if stuck:
                if far is None:
                    far = _far(a, free, others, p, blk, size)
                if not _shares(far, rem):
                    continue
            searched = True
            if pairs < 0:
                pairs = _pair_bits(pos, a)
            if _part_passes(a, mine, moved, p, e, rem, blk, pairs, size):
                out.append(row[s - 1] if acts else (a, p, s, e))
    if key is None:
        return out
    if len(_SEVEN_LISTS) > 100_000:
        _SEVEN_LISTS.clear()
        got = None
    kept = tuple(out) if acts else out[:]
    if not searched:
        _SEVEN_LISTS[key] = kept
    else:  # whether a part needs the search depends on the key alone: always a dict here
        if got is None:
            got = _SEVEN_LISTS[key] = {}
        got[pairs] = kept
    return out


_SEVEN_LISTS: dict[tuple[Any, ...], Any] = {}
""":func:`_default_seven_parts` of a whole 7 (no part used yet) by (colour, its pieces, the
others' blocker bits, steps left, board size, ``acts``): the list itself when no search
decided a part (then nothing else on the board mattered: the colour's paths, blockers and
house decide), else a dict by the protected pairs (:func:`_pair_bits`, the one other thing a
search reads). With ``acts`` the tuple of actions (legal()'s callers only read it), else the
list of parts (copied when returned)."""


def _far(a: int, free: dict[int, int], others: list[int], p: int, blk: int, size: int) -> list[int]:
    """How far each free piece but the one on ``p`` can walk at most (its house empty), each
    piece once (``free``: square -> free pieces there)."""
    tbl = _PATH_LISTS[a << 4 | size] or B.path_table(a, size)
    base = blk << 4
    row = tbl[base] or B.path_row(a, base, size)  # the paths with the house empty
    out: list[int] = []
    for q in others:
        got = row[q + 1]
        n = len(got if got is not None else B.legal_path(a, q, blk, 0, size))
        out.append(n)
        m = free[q] - (q == p)
        if m > 1:
            out.extend([n] * (m - 1))
    return out


def _shares(far: list[int], rem: int) -> bool:
    """Pieces that can walk at most ``far`` steps each could together walk ``rem``: the sum
    of ``min(x, rem)`` reaches ``rem``."""
    t = 0
    for x in far:
        t += x if x < rem else rem
        if t >= rem:
            return True
    return False


_SEVEN_ROW_LISTS: list[tuple[tuple[Seven, ...], ...] | None] = [None] * 64
"""``_SEVEN_ROW_LISTS[a << 4 | size]``: :func:`_seven_rows`, by list index (no key tuple)."""


def _seven_rows(a: int, size: int) -> tuple[tuple[Seven, ...], ...]:
    """``_SEVEN_ROW_LISTS[a << 4 | size][p + 1][s - 1]``: the part ``seven`` of colour ``a``'s piece on ``p``
    with ``s`` steps, landing where the walk on an empty board ends (a legal path is a prefix
    of it, :func:`.board.legal_path`)."""
    got = _SEVEN_ROW_LISTS[a << 4 | size] = tuple(
        tuple(_seven_action(a, p, s, st[0]) for s, st in enumerate(row, 1))
        for p, row in enumerate(B.steps_table(a, size), -1)
    )
    return got


def _walks(a: int, size: int, tbl: B.PathTable, squares: list[int], base: int, hm: int) -> int:
    """The longest path (:func:`.board.legal_path`; ``tbl``: its table for colour ``a``) of a
    piece on one of ``squares``, with the blocker bits in ``base`` (shifted left 4) and the
    house mask ``hm``."""
    best = 0
    key = base | hm
    row = tbl[key] or B.path_row(a, key, size)
    for q in squares:
        got = row[q + 1]
        if got is None:
            got = B.legal_path(a, q, base >> 4, hm, size)
        if len(got) > best:
            best = len(got)
    return best


def swap_pairs(pos: Board, o: PartnersOptions) -> list[tuple[int, int, int, int]]:
    """Every legal swap (6.4): two lone pieces on numbered squares (start fields with the option)."""
    lone: list[tuple[int, int]] = []
    for c in range(4):
        pcs = pos[c]
        for p in pcs:
            if p < 0 or p >= HOUSE:
                continue
            if p % 15 == 0 and not o.swap_start_field:
                continue
            if pcs.count(p) == 1:
                lone.append((p, c))
    lone.sort()
    out = []
    for i, (p1, c1) in enumerate(lone):
        for p2, c2 in lone[i + 1 :]:
            if c1 == c2 and not o.allow_same_colour_swap:
                continue
            out.append((c1, p1, c2, p2))
    return out


# --------------------------------------------------------------------------- actions, made once

T = TypeVar("T")


def _interned(cls: Callable[..., T], made: dict[tuple[Any, ...], T] | None = None) -> Callable[..., T]:
    """A maker of ``cls`` actions that returns the one action with the given fields, made the
    first time it is asked for: actions are immutable values, legal() makes several per
    decision, and looking one up costs a tenth of making a frozen dataclass. ``made`` is the
    table (hot loops look it up directly)."""
    if made is None:
        made = {}
    get = made.get

    def make(*fields: Any) -> T:
        a = get(fields)
        if a is None:
            if len(made) > 500_000:  # never in practice: the fields are few small values
                made.clear()
            a = made[fields] = cls(*fields)
        return a

    return make


_give_action = _interned(Give)
_start_action = _interned(Start)
_MOVES: dict[tuple[Any, ...], Move] = {}
_move_action = _interned(Move, _MOVES)
_SEVENS: dict[tuple[Any, ...], Seven] = {}
_seven_action = _interned(Seven, _SEVENS)
_DISCARD = Discard()
_STOP = StopSplit()


def _add_sevens(out: list[PartnersAction], pos: Board, seat: int, o: PartnersOptions) -> None:
    """The ways to play a whole 7 (split or not), interned actions where made before."""
    if o.split_must_use_all and o.house_entry != "optional" and o.house_overshoot != "bounce":
        out += _default_seven_parts(pos, seat, 7, (), o.fields_per_segment, acts=True)
        return
    sevens = _SEVENS.get
    for part in seven_parts(pos, seat, 7, (), o):
        m7 = sevens(part)
        out.append(m7 if m7 is not None else _seven_action(*part))


def _add_swaps(out: list[PartnersAction], pos: Board, o: PartnersOptions) -> None:
    """The swaps a swap card allows (:func:`swap_pairs`, the same order): the lone pieces as
    keys ``p << 2 | colour`` (sorted as the pairs (p, colour) are), each pair's action from
    :data:`_SWAP_ROWS`."""
    tables = _LONE_KEYS[o.swap_start_field]
    lone: list[int] = []
    for c in range(4):
        keys = tables[c]
        # the pieces are sorted: a piece shares its square only with its neighbours, so each
        # key waits for the next piece to differ (no count() over the tuple per piece)
        k = -1
        last = -2  # no square
        for p in pos[c]:
            if p == last:  # a second piece on the square: neither is lone
                k = -1
                continue
            if k >= 0:
                lone.append(k)
            last = p
            k = keys[p]
        if k >= 0:
            lone.append(k)
    lone.sort()
    rows = _SWAP_ROWS
    append = out.append  # (the loop below makes most of a swap card's legal list)
    n = len(lone)
    if o.allow_same_colour_swap:
        for i in range(n - 1):
            k1 = lone[i]
            row = rows[k1]
            for k2 in lone[i + 1 :]:
                act = row[k2]
                if act is None:  # the row is the swaps' only table: no second memo by fields
                    # _swap, inlined (no frame): 30 games after 30 still make some 5,500
                    act = row[k2] = _new_action(Swap)
                    _set_c1(act, k1 & 3)
                    _set_p1(act, k1 >> 2)
                    _set_c2(act, k2 & 3)
                    _set_p2(act, k2 >> 2)
                append(act)
        return
    for i in range(n - 1):
        k1 = lone[i]
        row = rows[k1]
        for k2 in lone[i + 1 :]:
            if not (k1 ^ k2) & 3:  # the same colour
                continue
            act = row[k2]
            if act is None:
                act = row[k2] = _swap(k1, k2)
            append(act)


_new_action = object.__new__  # the slots of a frozen action, set once before anyone sees it
_set_c1: Callable[[Any, Any], None] = vars(Swap)["c1"].__set__
_set_p1: Callable[[Any, Any], None] = vars(Swap)["p1"].__set__
_set_c2: Callable[[Any, Any], None] = vars(Swap)["c2"].__set__
_set_p2: Callable[[Any, Any], None] = vars(Swap)["p2"].__set__


def _swap(k1: int, k2: int) -> Swap:
    """``Swap`` of the pieces with keys ``k1``, ``k2`` (``p << 2 | colour``), its slots set
    directly instead of through the frozen dataclass's ``__init__`` (the same value in about
    half the time, as Kasino makes its captures: a swap card's first lists make many)."""
    act: Swap = _new_action(Swap)
    _set_c1(act, k1 & 3)
    _set_p1(act, k1 >> 2)
    _set_c2(act, k2 & 3)
    _set_p2(act, k2 >> 2)
    return act


_LONE_KEYS = tuple(
    tuple(
        (
            *[p << 2 | c if p < HOUSE and (starts or p % SEGMENT) else -1 for p in range(TRACK + HOUSE_SIZE)],
            -1,
        )
        for c in range(4)
    )
    for starts in (False, True)
)
"""``_LONE_KEYS[swap_start_field][colour][p]``: the key ``p << 2 | colour`` of a piece on ``p``
that a swap may take (a track square; a start field only with the option), else -1 (the
circle, ``p = -1``, is the last entry)."""
_SWAP_ROWS: list[list[Swap | None]] = [[None] * (TRACK << 2) for _ in range(TRACK << 2)]
"""``_SWAP_ROWS[k1][k2]``: the swap of the lone pieces with keys ``p << 2 | colour``, made
when first offered."""


_GIVE_LISTS: dict[tuple[str, ...], tuple[Give, ...]] = {}


def _gives(hand: tuple[str, ...]) -> tuple[Give, ...]:
    """``_GIVE_LISTS[hand]``: the exchange's legal list for a (sorted) hand, one per card type."""
    got = _GIVE_LISTS[hand] = tuple(_give_action(c) for c in dict.fromkeys(hand))
    return got


_NEVER = 256
_HM_BITS = (*[1 << (q - HOUSE) if q >= HOUSE else 0 for q in range(HOUSE + HOUSE_SIZE)], 0)
"""``_HM_BITS[q]``: the bit of house circle ``q`` in :func:`.board.house_mask` (0 off the house;
index -1, the start circle, is the last entry, 0)."""
_HOUSE_BITS = (*[(1 << (q - HOUSE)) << 4 if q >= HOUSE else 0 for q in range(HOUSE + HOUSE_SIZE)], 0)
"""``_HOUSE_BITS[q]``: the bit of house circle ``q`` in the board's mask (0 off the house; index
-1, the start circle, is the last entry, 0)."""
"""A mask bit always set in the board's mask (see :func:`_card_table`): a move that does not exist."""
_NO_TABLES: dict[str, Any] = {}
CardRow = tuple[tuple[int, Move | None], ...]
CardTable = tuple[Start | None, tuple[CardRow, ...], bool, bool]
_CARD_TABLES: dict[tuple[int, int], dict[str, CardTable]] = {}
"""(colour, size) -> card -> :func:`_card_table`."""


def _card_table(card: str, a: int, size: int) -> CardTable:
    """Default rules: what ``card`` can do for colour ``a``, precomputed for every square
    (:func:`.board.steps_table`, :func:`.board.back_table`): (its start action or None, one
    row per forward value and one for its backward move, whether it splits, whether it
    swaps). A row holds ``(mask, move)`` per square ``p + 1``: the move is legal when
    ``mask & (blocker_bits | house_mask << 4 | _NEVER)`` is 0, i.e. it passes no blocker and
    steps on no occupied own house circle (``mask`` is ``_NEVER`` where there is no move)."""
    t = CARD_TYPES[card]
    rows: list[CardRow] = []
    for v in t.forward:
        row: list[tuple[int, Move | None]] = []
        for i, st in enumerate(B.steps_table(a, size)):
            if len(st) >= v:
                e, passed, house = st[v - 1]
                row.append((passed | house << 4, _move_action(card, v, a, i - 1, e)))
            else:
                row.append((_NEVER, None))
        rows.append(tuple(row))
    if t.backward:
        back: list[tuple[int, Move | None]] = []
        for i, b in enumerate(B.back_table(a, t.backward, size)):
            if b is None:
                back.append((_NEVER, None))
            else:
                back.append((b[1], _move_action(card, -t.backward, a, i - 1, b[0])))
        rows.append(tuple(back))
    start = _start_action(card, a) if t.start else None
    res = _CARD_TABLES.setdefault((a, size), {})[card] = (start, tuple(rows), t.split, t.swap)
    return res


Pick = tuple[Move | None, ...]
BoardCard = tuple[Pick | None, tuple[Pick, ...], tuple[Start | None, bool, bool] | None]
_BOARD_CARDS: dict[int, dict[str, BoardCard]] = {}
"""``bm << 6 | colour << 4 | size`` (``bm``: the board's mask, see :func:`_card_table`) ->
card -> :func:`_board_card`."""
_BOARD_LISTS: list[list[dict[str, BoardCard] | None] | None] = [None] * 64
"""``_BOARD_LISTS[colour << 4 | size][bm & 255]``: the dicts of :data:`_BOARD_CARDS`, by list
index (legal() reads them so: no int is made for the key)."""
Choices = tuple[tuple[tuple[int, tuple[int, ...]], ...], int, dict[int, Pick]]
_CHOICES: dict[tuple[str, int, int], tuple[int, dict[int, BoardCard], tuple[Choices, ...]]] = {}
"""(card, colour, size) -> (the union of the masks of its rows' moves; :func:`_board_card`'s
entries by the board's mask and that union; per row of :func:`_card_table`: per mask that some
board meets (not 0), the squares ``p`` whose move has that mask, the union of those masks, and
the row's moves indexed by square ``p`` (the start circle last, as ``p = -1`` indexes it) with
those a board forbids set to None, by the board's mask and the union (0: the row itself))."""


def _board_card(card: str, a: int, size: int, bm: int, cards: dict[str, BoardCard]) -> BoardCard:
    """``cards[card]`` for the board mask ``bm``: (the one row of a card with one row and
    nothing else, else None; per row of :func:`_card_table` the move from each square ``p``
    if it is legal on this board, else None (indexed by ``p``: the start circle, ``p = -1``,
    is the last entry); None for a plain card, else (the start action or None, whether the
    card splits, whether it swaps)). Made once per colour, mask and card."""
    tab = _CARD_TABLES.get((a, size), _NO_TABLES).get(card) or _card_table(card, a, size)
    choices = _CHOICES.get((card, a, size))
    if choices is None:
        made = []
        for row in tab[1]:
            on = row[1:] + row[:1]  # index p: the circle's entry (p + 1 = 0) last
            by_mask: dict[int, list[int]] = {}
            union = 0
            for p, (m, mv) in enumerate(on):
                if m and mv is not None:
                    by_mask.setdefault(m, []).append(p)
                    union |= m
            masked = tuple((m, tuple(ps)) for m, ps in by_mask.items())
            made.append((masked, union, {0: tuple(mv for _, mv in on)}))
        total = 0
        for row_choices in made:
            total |= row_choices[1]
        choices = _CHOICES[card, a, size] = (total, {}, tuple(made))
    total, entries, rows = choices
    # boards that forbid the same moves of the card share its entry, and those that forbid
    # the same moves of a row share one tuple: fewer objects for the garbage collector to
    # visit, each row holding a reference per square
    got = entries.get(bm & total)
    if got is not None:
        cards[card] = got
        return got
    picks = []
    for masked, union, by_board in rows:
        k = bm & union
        shared = by_board.get(k)
        if shared is None:
            pick = list(by_board[0])
            for m, ps in masked:  # the moves this board forbids, grouped by mask (a few a row)
                if m & bm:
                    for p in ps:
                        pick[p] = None
            shared = by_board[k] = tuple(pick)
        picks.append(shared)
    special = None if tab[0] is None and not tab[2] and not tab[3] else (tab[0], tab[2], tab[3])
    got = cards[card] = entries[bm & total] = (
        picks[0] if special is None and len(picks) == 1 else None,
        tuple(picks),
        special,
    )
    return got


# --------------------------------------------------------------------------- state

_NO4: tuple[None, None, None, None] = (None, None, None, None)
_MAX_DECISIONS = MAX_DEALS * (4 + 16 * 7)
"""PartnersGame.kind.max_decisions (see there)."""


@state
class PartnersState(State[PartnersAction]):
    """A Partners position, hidden parts included.

    Fields: ``pos`` (the board, see :mod:`.board`), ``hands`` (sorted card codes per seat),
    ``deck`` (the undealt rest of the dealer cycle, in order; after the third deal it is the
    set-aside pile), ``discard`` (face-up cards of this cycle), ``hdisc`` (face-down discarded
    hands per seat, only with ``discard_visibility=hidden``), ``dealer``, ``deal_no`` (1–3
    within the cycle), ``deals`` (deals so far), ``leader``, ``phase``, ``commits`` (exchange
    commitments), ``gave`` (the card each seat gave this deal), ``gift_zone`` (where the giver
    knows its gift to be: 0 unknown, 1 in the partner's hand, 2 in the partner's face-down
    discard), ``sat_out`` (seats that laid down their hand this deal), ``split_left`` and
    ``split_used`` (the split 7 in progress), ``winner`` (partnership 0/1, -1 draw, None).
    """

    opts: PartnersOptions
    pos: Board
    hands: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    hdisc: tuple[tuple[str, ...], ...]
    dealer: int
    first_dealer: int
    deal_no: int
    deals: int
    leader: int
    phase: str
    commits: tuple[str | None, ...]
    gave: tuple[str | None, ...]
    gift_zone: tuple[int, ...]
    sat_out: tuple[bool, ...]
    split_left: int
    split_used: tuple[tuple[int, int], ...]
    winner: int | None
    turn: int | None
    """The colour seat (0–3) that acts now; ``to_act`` is the person controlling it."""
    ctrl: tuple[int, ...]
    """The person controlling each colour seat (R10; the identity with four people)."""
    deck_unordered: bool
    """Only in a determinized state: the undealt cards' order was not dealt; a deal takes
    them at random (the same law as a shuffled deck, without shuffling cards never dealt)."""
    _legal: tuple[PartnersAction, ...] | None
    """The legal actions now, computed once per decision (a cache, left out of equality)."""
    _bits: tuple[Board | None, int]
    """(a board, its :func:`.board.blocker_bits`): what legal() last found, read again while
    ``pos`` is that very board; a move that neither leaves nor reaches a start field passes
    it on to the board it makes (a cache, left out of equality)."""

    # ------------------------------------------------------------------ contract

    def legal(self) -> tuple[PartnersAction, ...]:
        if self.to_act is None:
            return ()
        legal = self._legal
        if legal is None:
            if self.phase == "play":  # _generate's usual case, inlined
                seat = self.turn
                assert seat is not None
                legal = self._legal = tuple(self.card_moves(seat, self.hands[seat], True))
            elif self.phase == "exchange":  # _generate's other case, inlined
                seat = self.turn
                assert seat is not None
                hand = self.hands[seat]
                legal = self._legal = _GIVE_LISTS.get(hand) or _gives(hand)
            else:
                legal = self._legal = tuple(self._generate())
        return legal

    def scores(self) -> tuple[float, ...]:
        """Per person: how many pieces of the partnership he plays for stand in their houses
        (0–8 with four pieces a colour; both partners score the same). All of them home wins
        the game (R9.1); a game stopped at the decision bound is ranked by this count."""
        home = [0, 0]
        for c in range(4):
            home[c % 2] += sum(p >= HOUSE for p in self.pos[c])
        return tuple(float(home[self.team_of(p)]) for p in range(self.seats))

    def final_outcome(self) -> tuple[float, ...]:
        """The partnership that brought all its pieces home wins (R9.1), both partners alike;
        after ``max_deals`` deals without a winner the game is a draw (R9.2: 0.5 each)."""
        assert self.winner is not None
        sides = (0, 1) if self.winner < 0 else (self.winner,)
        return win_outcome(sides, self.teams(), self.seats)

    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def team_of(self, person: int) -> int:
        """The partnership (0: Yellow+Blue, 1: Red+Green) that ``person`` plays for."""
        return team(self.ctrl.index(person))

    def controlled(self, person: int) -> list[int]:
        """The colour seats ``person`` controls (one with four people)."""
        return [k for k in range(4) if self.ctrl[k] == person]

    def _set_turn(self, seat: int | None) -> None:
        self.turn = seat
        self.to_act = None if seat is None else self.ctrl[seat]

    # ------------------------------------------------------------------ legal moves

    def active(self, seat: int) -> int:
        """The colour ``seat`` moves now (R5.1)."""
        return B.active_colour(self.pos, seat)

    def _generate(self) -> Sequence[PartnersAction]:
        seat = self.turn
        if seat is None:
            return []
        if self.phase == "exchange":
            hand = self.hands[seat]
            return _GIVE_LISTS.get(hand) or _gives(hand)
        o = self.opts
        if self.phase == "split":
            if o.split_must_use_all and o.house_entry != "optional" and o.house_overshoot != "bounce":
                return _default_seven_parts(
                    self.pos, seat, self.split_left, self.split_used, o.fields_per_segment, acts=True
                )
            out: list[PartnersAction] = []
            for part in seven_parts(self.pos, seat, self.split_left, self.split_used, o):
                out.append(_seven_action(*part))
            if not o.split_must_use_all:
                out.append(_STOP)
            return out
        return self.card_moves(seat, self.hands[seat], with_discard=True)

    def card_moves(
        self, seat: int, hand: tuple[str, ...], with_discard: bool = False
    ) -> list[PartnersAction]:
        """Every move ``seat`` could make with the cards in ``hand`` on the current board."""
        o = self.opts
        size = o.fields_per_segment
        pos = self.pos
        a = seat if pos[seat][0] < HOUSE else seat ^ 2  # B.active_colour
        mine = pos[a]
        out: list[PartnersAction] = []
        rules = _LAST_RULES  # the default movement rules? Kept for the last options object
        if rules[0] is not o:
            rules = _movement(o)
        if rules[1]:
            # default rules: every card's moves from the precomputed tables (_card_table)
            # the board's mask less _NEVER (B.blocker_bits(pos) | B.house_mask(mine) << 4):
            # below 256, so every value on the way is a cached small int (none is made)
            bm = 0
            # the squares of the pieces that may move, each once, and their house bits (a
            # loop: dict.fromkeys costs more, and a memo by the pieces more than the loop)
            squares = []
            prev = CIRCLE
            for p in mine:
                if p != prev:
                    squares.append(p)
                    prev = p
                    bm |= _HOUSE_BITS[p]  # 0 off the house
            bits = self._bits
            if bits[0] is pos:  # the blockers of this board, known (_play_move passes them on)
                bm |= bits[1]
            else:  # B.blocker_bits(pos), by tests (blockers are rare)
                blk = 0
                if 0 in pos[0]:
                    blk = 1
                if 15 in pos[1]:
                    blk |= 2
                if 30 in pos[2]:
                    blk |= 4
                if 45 in pos[3]:
                    blk |= 8
                self._bits = (pos, blk)
                bm |= blk
            boards = _BOARD_LISTS[a << 4 | size]  # _BOARD_CARDS by list index, small ints
            if boards is None:
                boards = _BOARD_LISTS[a << 4 | size] = [None] * 256
            cards = boards[bm]
            if cards is None:
                cards = boards[bm] = _BOARD_CARDS.setdefault((bm | _NEVER) << 6 | a << 4 | size, {})
            # each card type once: the hand is sorted, so a second card of a type follows the
            # first (a string comparison a card, where a memo by the hand hashed the tuple)
            last = ""
            for card in hand:
                if card == last:
                    continue
                last = card
                pick, picks, special = cards.get(card) or _board_card(card, a, size, bm | _NEVER, cards)
                if pick is not None:  # a card of one row and nothing else: no loop over rows
                    for p in squares:
                        mv = pick[p]
                        if mv is not None:
                            out.append(mv)
                    continue
                if special is None:
                    for pick in picks:
                        for p in squares:
                            mv = pick[p]
                            if mv is not None:
                                out.append(mv)
                    continue
                start, split, swaps = special
                if start is not None and mine[0] == CIRCLE:
                    out.append(start)
                for pick in picks:
                    for p in squares:
                        mv = pick[p]
                        if mv is not None:
                            out.append(mv)
                if split:
                    if o.split_must_use_all:  # _add_sevens, with the blockers known
                        out += _default_seven_parts(pos, seat, 7, (), size, True, bm & 15)
                    else:
                        _add_sevens(out, pos, seat, o)
                if swaps:
                    _add_swaps(out, pos, o)
            if with_discard and (not out or o.allow_voluntary_discard):
                out.append(_DISCARD)
            return out
        optional = o.house_entry == "optional"
        bounce = o.house_overshoot == "bounce"
        blk_ = B.blockers(pos)
        hm = B.house_mask(mine)
        froms = [p for p in dict.fromkeys(mine) if p != CIRCLE]
        for card in dict.fromkeys(hand):
            t = CARD_TYPES[card]
            if t.start and mine[0] == CIRCLE:
                out.append(_start_action(card, a))
            for v in t.forward:
                for p in froms:
                    for e in B.walk(a, p, v, blk_, hm, optional, bounce, size):
                        out.append(_move_action(card, v, a, p, e))
            if t.backward:
                for p in froms:
                    if p < HOUSE:
                        e = B.bwalk(a, p, t.backward, blk_, size)
                        if e >= 0:
                            out.append(_move_action(card, -t.backward, a, p, e))
            if t.split:
                _add_sevens(out, pos, seat, o)
            if t.swap:
                _add_swaps(out, pos, o)
        if with_discard and (not out or o.allow_voluntary_discard):
            out.append(_DISCARD)
        return out

    # ------------------------------------------------------------------ play

    def apply(self, action: PartnersAction) -> list[Event]:
        """Apply ``action`` for the seat to act. Events name the acting person as ``seat`` and
        the colour seat as ``colour_seat`` (the same with four people)."""
        seat = self.turn
        if self.to_act is None or seat is None:
            raise GameOver("Partners: the game is over")
        legal = self._legal
        if legal is None:
            legal = self.legal()
        # identity first (in C): actions nearly always come from legal() itself, and comparing
        # dataclasses of different types costs two Python calls each
        if not any(map(is_, legal, repeat(action))) and action not in legal:
            raise IllegalAction(f"Partners: {action}: {why_illegal(self, action)}")
        self._legal = None
        return self._dispatch(seat, action)

    def _dispatch(self, seat: int, action: PartnersAction) -> list[Event]:
        """:meth:`apply` once ``action`` is known to be legal (and ``_legal`` dropped)."""
        t = type(action)  # the usual kinds by identity first: one test each, no call
        if t is Give:
            return self._give(seat, action.card)  # type: ignore[union-attr]  # a Give
        if t is Seven:
            return self._seven(seat, action)  # type: ignore[arg-type]  # its events name the person
        if isinstance(action, Move):
            return self._play_move(seat, action)  # its events already name the person
        if isinstance(action, Give):
            return self._give(seat, action.card)  # its events already name the person
        if isinstance(action, Start):
            return self._start(seat, action)  # its events already name the person
        if isinstance(action, Discard):
            return self._discard(seat)  # its events already name the person
        if isinstance(action, Seven):
            return self._seven(seat, action)  # its events already name the person
        if isinstance(action, StopSplit):
            ev: list[Event] = [
                {"kind": "seven_stop", "seat": seat, "text": f"{COLOURS[seat].capitalize()} ends the 7 early"}
            ]
            self.phase = "play"
            self.split_left, self.split_used = 0, ()
            self._next_turn(seat, ev)
        else:  # a swap: a card played face up
            assert isinstance(action, Swap)
            return self._play_swap(seat, action)  # its events already name the person
        if self.seats != 4:
            ctrl = self.ctrl
            for e in ev:
                if "seat" in e:
                    e["colour_seat"] = k = e["seat"]
                    e["seat"] = ctrl[k]
        return ev

    def play(self, action: PartnersAction) -> list[Event]:
        """:meth:`.core.game.State.play` (count the decision, stop at the bound), with the
        bound a constant: random play and search call it once per decision."""
        legal = self._legal
        # an action from the legal list itself (random play, search): no further checks. A
        # loop, not any(map(is_, ...)): the pick is near the front, and the two iterator
        # objects cost more than the loop's few steps
        if legal is None:
            events = self.apply(action)
        else:
            for x in legal:
                if x is action:
                    self._legal = None
                    t = type(action)  # the usual kinds straight to their handlers, then _dispatch
                    if t is Move:
                        events = self._play_move(self.turn, action)  # type: ignore[arg-type]  # a legal list: a seat acts
                    elif t is Give:
                        events = self._give(self.turn, action.card)  # type: ignore[arg-type,union-attr]  # a Give
                    elif t is Seven:
                        events = self._seven(self.turn, action)  # type: ignore[arg-type]  # a Seven
                    elif t is Start:  # (no _dispatch frame and its isinstance calls)
                        events = self._start(self.turn, action)  # type: ignore[arg-type]  # a Start
                    elif t is Discard:
                        events = self._discard(self.turn)  # type: ignore[arg-type]  # a legal list: a seat acts
                    elif t is Swap:
                        events = self._play_swap(self.turn, action)  # type: ignore[arg-type]  # a Swap
                    else:
                        events = self._dispatch(self.turn, action)  # type: ignore[arg-type]
                    break
            else:
                events = self.apply(action)
        self.decisions = d = self.decisions + 1
        if d >= _MAX_DECISIONS and self.to_act is not None:
            self.to_act = None
            self.truncated = True
            events.append(truncated_event(d))
        return events

    def _play_move(self, seat: int, action: Move) -> list[Event]:
        """A forward or backward move: the card goes face up, one piece moves (R5). The events
        name the person as :meth:`apply` does (``_play_card``, ``_move``, ``_check_win`` and
        ``_next_turn`` inlined: every plain decision comes here)."""
        card = action.card
        h0, h1, h2, h3 = hands = self.hands
        hand = hands[seat]
        i = hand.index(card)
        left = hand[:i] + hand[i + 1 :]
        # the four hands built at once (no list, no tuple() call)
        if seat == 0:
            hands = (left, h1, h2, h3)
        elif seat == 1:
            hands = (h0, left, h2, h3)
        elif seat == 2:
            hands = (h0, h1, left, h3)
        else:
            hands = (h0, h1, h2, left)
        self.hands = hands
        self.discard += (card,)
        g = seat ^ 2  # the partner (seat + 2) % 4
        if self.gift_zone[g] == 1 and self.gave[g] == card:
            self.gift_zone = _put(self.gift_zone, g, 0)
        # the squares' ids and the event's text, kept per action (by identity; the entry
        # holds the action, so its id is not reused while the entry lives)
        said = _MOVE_TEXTS.get(id(action))
        if said is None or said[0] is not action:
            said = _move_texts(action)
        c, frm, to = action.colour, action.frm, action.to
        # B.land, inlined: a move ends on the track or in the house, never in a circle
        pos = self.pos
        ko = -1
        so = False
        if to < HOUSE:
            # the other colours unrolled (one at most stands on a square)
            o1, o2, o3 = _OTHERS[c]
            if to in pos[o1]:
                ko = o1
            elif to in pos[o2]:
                ko = o2
            elif to in pos[o3]:
                ko = o3
            if ko >= 0 and pos[ko].count(to) >= 2:
                so = True  # a protected pair: the mover goes back to its circle
                ko = -1
        mine = [*pos[c]]  # (a display, not list(): no call)
        mine.remove(frm)
        insort(mine, CIRCLE if so else to)  # one C call: append and sort cost two and the sort's set-up
        new: Board
        if ko < 0:  # one colour changes: the board as one tuple display (no list, no tuple())
            p0, p1, p2, p3 = pos
            if c == 0:
                new = (tuple(mine), p1, p2, p3)
            elif c == 1:
                new = (p0, tuple(mine), p2, p3)
            elif c == 2:
                new = (p0, p1, tuple(mine), p3)
            else:
                new = (p0, p1, p2, tuple(mine))
        else:
            board = [*pos]
            board[c] = tuple(mine)
            rest = [*pos[ko]]
            rest.remove(to)
            rest.insert(0, CIRCLE)  # the smallest position: the order stays sorted
            board[ko] = tuple(rest)
            new = tuple(board)
        bits = self._bits
        self.pos = new
        if bits[0] is pos and frm % SEGMENT and to % SEGMENT:
            # neither end is a start field (nor is a knocked-out piece's square, ``to``): the
            # blockers stay, and the next legal() reads them
            self._bits = (new, bits[1])
        pos = new
        # the event naming the person (:meth:`apply`'s form), a copy of one made per seat
        # count and colour seat: copying a dict costs half of building it
        k = (self.seats - 2) << 2 | seat
        tpl = said[1][k]
        if tpl is None:
            tpl = _move_event(action, said[1], k)
        ev: list[Event] = [tpl.copy()]
        if ko >= 0:
            ev.append(_KO_EVENTS[ko][to].copy())  # _ko_event(ko, to)
        if so:
            ev.append(_pair_event(c, to))
        # (the later events, knock-outs, a win, a deal, name no seat to rewrite)
        # no partnership all home (B.team_home of each, inlined: a colour is home when its
        # smallest position is in the house): the next seat with cards
        if (pos[0][0] < HOUSE or pos[2][0] < HOUSE) and (pos[1][0] < HOUSE or pos[3][0] < HOUSE):
            ctrl = self.ctrl
            for s in _AFTER[seat]:  # _next_turn (the phase is "play" already)
                if hands[s]:
                    self.turn = s
                    self.to_act = ctrl[s]
                    return ev
            self._end_deal(ev)
            return ev
        self._check_win(ev)  # a partnership is all home: it wins
        return ev

    def _play_swap(self, seat: int, action: Swap) -> list[Event]:
        """The swap card, played face up (R6.4): two lone pieces change squares. The events
        name the person as :meth:`apply` does (the later ones, a win or a deal, name no seat).
        The event is built, not copied as a move's is: few swaps recur."""
        c1, p1, c2, p2 = action.c1, action.p1, action.c2, action.p2
        self._play_card(seat, "SWAP")
        self.pos = B.swap(self.pos, c1, p1, c2, p2)
        text = f"{_NAMES[seat]} plays the swap card: {action.label()}"
        ev: list[Event] = [
            {
                "kind": "swap",
                "seat": seat,
                "card": "SWAP",
                "from": _SQUARE_IDS[c1][p1 + 1],
                "to": _SQUARE_IDS[c2][p2 + 1],
                "text": text,
            }
            if self.seats == 4
            else {
                "kind": "swap",
                "seat": self.ctrl[seat],
                "card": "SWAP",
                "from": _SQUARE_IDS[c1][p1 + 1],
                "to": _SQUARE_IDS[c2][p2 + 1],
                "text": text,
                "colour_seat": seat,
            }
        ]
        if not self._check_win(ev):
            self._next_turn(seat, ev)
        return ev

    def _start(self, seat: int, action: Start) -> list[Event]:
        """A start move (R5.8); the events name the person as :meth:`apply` does."""
        card = action.card
        c = action.colour
        self._play_card(seat, card)
        sf = START_FIELD[c]
        self.pos, ko, _ = B.land(self.pos, c, CIRCLE, sf)
        text = f"{_NAMES[seat]} plays {card}: a {COLOURS[c]} piece comes out"
        ev: list[Event] = [
            {"kind": "start", "seat": seat, "card": card, "to": _SQUARE_IDS[c][sf + 1], "text": text}
            if self.seats == 4
            else {
                "kind": "start",
                "seat": self.ctrl[seat],
                "card": card,
                "to": _SQUARE_IDS[c][sf + 1],
                "text": text,
                "colour_seat": seat,
            }
        ]
        if ko >= 0:
            ev.append(_ko_event(ko, sf))
        if not self._check_win(ev):
            self._next_turn(seat, ev)
        return ev

    def _discard(self, seat: int) -> list[Event]:
        """R8: the whole hand is laid down, face up or (``discard_visibility=hidden``) face down.
        The events name the person as :meth:`apply` does."""
        name = _NAMES[seat]
        hand = self.hands[seat]
        self.hands = _put(self.hands, seat, ())
        self.sat_out = _put(self.sat_out, seat, True)
        g = seat ^ 2  # the partner
        ev: list[Event] = []
        if self.opts.discard_visibility == "public":
            self.discard = (*self.discard, *hand)
            if self.gift_zone[g] == 1:
                self.gift_zone = _put(self.gift_zone, g, 0)
            ev.append(
                {
                    "kind": "discard",
                    "seat": seat,
                    "cards": list(hand),
                    "text": f"{name} has no usable card and lays down {', '.join(hand)}",
                }
            )
        else:
            self.hdisc = _put(self.hdisc, seat, sort_cards((*self.hdisc[seat], *hand)))
            if self.gift_zone[g] == 1:
                self.gift_zone = _put(self.gift_zone, g, 2)
            ev.append(
                {
                    "kind": "discard",
                    "seat": seat,
                    "count": len(hand),
                    "text": f"{name} has no usable card and lays down {len(hand)} cards face down",
                }
            )
        if self.seats != 4:
            e = ev[0]
            e["colour_seat"] = seat
            e["seat"] = self.ctrl[seat]
        self._next_turn(seat, ev)
        return ev

    def _play_card(self, seat: int, card: str) -> None:
        h0, h1, h2, h3 = hands = self.hands
        hand = hands[seat]
        i = hand.index(card)
        left = hand[:i] + hand[i + 1 :]
        # the four hands built at once (no list, no tuple() call), as _play_move does
        if seat == 0:
            self.hands = (left, h1, h2, h3)
        elif seat == 1:
            self.hands = (h0, left, h2, h3)
        elif seat == 2:
            self.hands = (h0, h1, left, h3)
        else:
            self.hands = (h0, h1, h2, left)
        self.discard += (card,)
        g = seat ^ 2  # the partner (seat + 2) % 4
        if self.gift_zone[g] == 1 and self.gave[g] == card:
            self.gift_zone = _put(self.gift_zone, g, 0)

    def _seven(self, seat: int, action: Seven) -> list[Event]:
        """A part of a split 7 (R6.5); the events name the person as :meth:`apply` does."""
        o = self.opts
        if self.phase == "play":
            self._play_card(seat, "S7")
            r = 7
            used: tuple[tuple[int, int], ...] = ()
        else:
            r, used = self.split_left, self.split_used
        a, frm, to = action.colour, action.frm, action.to
        # apply_part, and the landing of _move, done once
        new, ko, so = B.land(self.pos, a, frm, to)
        self.pos = new
        moved = [*used]
        insort(moved, (a, CIRCLE if so else to))  # sorted(), without a tuple to sort
        used2 = tuple(moved)
        switched = a == seat and new[seat][0] >= HOUSE  # B.home
        # the event, a copy of one made per number of people and colour seat (_move_event)
        said = _SEVEN_TEXTS.get(id(action))
        if said is None or said[0] is not action:
            said = _seven_texts(action)
        k = (self.seats - 2) << 2 | seat
        tpl = said[1][k]
        if tpl is None:
            tpl = _seven_event(action, said[1], k)
        ev: list[Event] = [tpl.copy()]
        if ko >= 0:
            ev.append(_ko_event(ko, to))
        if so:
            ev.append(_pair_event(a, to))
        rem = r - action.steps
        if self._check_win(ev):
            self.split_left, self.split_used = 0, ()
            return ev
        lapse = (
            o.split_must_use_all
            and switched
            and not viable(
                new,
                seat,
                rem,
                used2,
                o.house_entry == "optional",
                o.house_overshoot == "bounce",
                o.fields_per_segment,
            )
        )
        if rem > 0 and not lapse:
            self.phase, self.split_left, self.split_used = "split", rem, used2
            return ev
        if rem > 0:
            lapsed: Event = {
                "kind": "seven_lapse",
                "seat": seat,
                "steps": rem,
                "text": f"The remaining {rem} steps of the 7 lapse",
            }
            if self.seats != 4:  # the person, as apply() names him
                lapsed["colour_seat"] = seat
                lapsed["seat"] = self.ctrl[seat]
            ev.append(lapsed)
        self.phase, self.split_left, self.split_used = "play", 0, ()
        self._next_turn(seat, ev)
        return ev

    def _check_win(self, ev: list[Event]) -> bool:
        pos = self.pos
        # B.team_home(pos, t) for t = 0, then 1, inlined (the boards are sorted: a colour is
        # home when its smallest position is in the house)
        if pos[0][0] >= HOUSE and pos[2][0] >= HOUSE:
            t = 0
        elif pos[1][0] >= HOUSE and pos[3][0] >= HOUSE:
            t = 1
        else:
            return False
        self.winner = t
        self._set_turn(None)
        self.phase = "over"
        ev.append(
            {
                "kind": "win",
                "team": t,
                "seats": [t, t + 2],
                "text": f"{COLOURS[t].capitalize()} and {COLOURS[t + 2]} are all home and win",
            }
        )
        return True

    def _give(self, seat: int, card: str) -> list[Event]:
        """A commitment in the exchange; the events name the person as :meth:`apply` does."""
        # the four commitments built at once (no list, no tuple() call), as moves build hands
        c0, c1, c2, c3 = self.commits
        if seat == 0:
            c0 = card
        elif seat == 1:
            c1 = card
        elif seat == 2:
            c2 = card
        else:
            c3 = card
        self.commits = commits = (c0, c1, c2, c3)
        # the event, a copy of the one made per number of people and colour seat
        ev: list[Event] = [_COMMIT_EVENTS[(self.seats - 2) << 2 | seat].copy()]
        # identity tests (``None in`` compares each card with None)
        if c0 is not None and c1 is not None and c2 is not None and c3 is not None:
            hands = []
            for s, hand in enumerate(self.hands):
                given = commits[s]
                got = commits[s ^ 2]  # the partner's gift
                assert given is not None and got is not None
                # the hand's multiset key, the gift's prime out and the partner's in: the new
                # hand is one look-up (the keys of the sorted hands made, _sort_hand)
                key = _HAND_KEYS.get(hand)
                new = None if key is None else _SORTED.get(key // _PRIMES[given] * _PRIMES[got])
                if new is None:
                    h = list(hand)
                    h.remove(given)
                    h.append(got)
                    new = _sort_hand(h)
                hands.append(new)
            self.hands = tuple(hands)
            self.gave = self.commits
            self.gift_zone = (1, 1, 1, 1)
            self.commits = _NO4
            self.phase = "play"
            self._set_turn(self.leader)
            ev.append({"kind": "exchange", "text": "The partners exchange their cards"})
        else:
            self.turn = seat = (seat + 1) % 4
            self.to_act = self.ctrl[seat]
        return ev

    def _next_turn(self, seat: int, ev: list[Event]) -> None:
        self.phase = "play"
        hands = self.hands
        for s in _AFTER[seat]:
            if hands[s]:
                self.turn = s
                self.to_act = self.ctrl[s]
                return
        self._end_deal(ev)

    def _end_deal(self, ev: list[Event]) -> None:
        if self.deals >= self.opts.max_deals:
            self.winner = -1
            self._set_turn(None)
            self.phase = "over"
            ev.append({"kind": "draw", "text": f"No partnership home after {self.deals} deals: a draw"})
            return
        o = self.opts
        last = _LAST_CYCLE  # deals_per_cycle(o), kept for the last options object
        if last[0] is not o:
            last = _cycle(o)
        if self.deal_no >= last[1]:
            self.dealer = (self.dealer + 1) % 4
            ev.append(
                {
                    "kind": "new_cycle",
                    "dealer": self.dealer,
                    "text": f"{COLOURS[self.dealer].capitalize()} gathers and shuffles the cards",
                }
            )
            self._shuffle()
        self._deal(ev)

    def _shuffle(self) -> None:
        deck = list(deck_of(self.opts))
        self.rng.shuffle(deck)
        self.deck = tuple(deck)
        self.deck_unordered = False
        self.discard = ()
        self.hdisc = ((), (), (), ())
        self.deal_no = 0

    def _deal(self, ev: list[Event]) -> None:
        """Four cards each, one at a time clockwise from the dealer's left (R3.1)."""
        deck = self.deck
        i = 0
        hands: Sequence[Sequence[str]]
        if self.deck_unordered:
            dealt: list[list[str]] = [[], [], [], []]
            rest = list(deck)
            randrange = self.rng.randrange
            for _ in range(4):
                for k in range(1, 5):
                    dealt[(self.dealer + k) % 4].append(rest.pop(randrange(len(rest))))
            hands = dealt
            deck = tuple(rest)
        else:
            # card j goes to the seat (dealer + 1 + j) % 4: each hand is a stride of the deck
            d = self.dealer + 1
            strides: list[tuple[str, ...]] = [(), (), (), ()]
            for k in range(4):
                strides[(d + k) % 4] = deck[k:16:4]
            hands = strides
            i = 16
        self.deck = deck[i:]
        self.hands = (_sort_hand(hands[0]), _sort_hand(hands[1]), _sort_hand(hands[2]), _sort_hand(hands[3]))
        self.deal_no += 1
        self.deals += 1
        if self.opts.lead_rule == "dealer_left":
            self.leader = (self.dealer + 1) % 4
        else:
            self.leader = (self.first_dealer + self.deals) % 4
        self.sat_out = (False, False, False, False)
        self.commits = self.gave = _NO4
        self.gift_zone = (0, 0, 0, 0)
        self.phase = "exchange"
        self._set_turn(self.leader)
        ev.append(
            {
                "kind": "deal",
                "dealer": self.dealer,
                "deal": self.deal_no,
                "text": f"{COLOURS[self.dealer].capitalize()} deals (deal {self.deal_no} of the cycle)",
            }
        )

    # ------------------------------------------------------------------ information

    def determinize(self, seat: int, rng: Rng) -> PartnersState:
        """Re-deal everything ``seat`` (a person) cannot see: the other seats' hands (except a card
        it gave and knows its partner still holds), their face-down discards, the undealt and
        set-aside cards, and uncommitted exchange choices.

        The hidden hands and discards get a uniform random choice of the unseen cards; the
        rest is the deck, left unordered: a deal takes its cards at random
        (``deck_unordered``), the same law as a shuffled deck. The unseen cards are dealt from
        one canonical (sorted) order, so the result is a function of what ``seat`` sees and
        ``rng`` only, never of where the hidden cards really are."""
        global _LAST_POOL, _LAST_FORGOTTEN
        s = self.copy()
        ctrl = self.ctrl
        hidden = self.opts.discard_visibility == "hidden"
        hands, hdisc = self.hands, self.hdisc
        roles = _ROLES.get(ctrl)
        others, mine_gave, theirs = (roles if roles is not None else _seat_roles(ctrl))[seat]
        gave, zones = self.gave, self.gift_zone
        if not hidden and not mine_gave and len(others) == 2:
            # the common case (two people: the other side's two hands), dealt straight
            o1, o2 = others
            h1, h2 = hands[o1], hands[o2]
            n1 = len(h1)
            n2 = n1 + len(h2)
            deck = self.deck
            last = _LAST_POOL
            if last[0] is h1 and last[1] is h2 and last[2] is deck:
                unseen: tuple[str, ...] = last[3]
            else:  # the unseen cards in one order that does not depend on where they are
                unseen = tuple(sorted((*h1, *h2, *deck)))
                _LAST_POOL = (h1, h2, deck, unseen)
            deal: list[str] = [*unseen]
            _shuffle_front(rng, deal, n2)
            h1 = tuple(sorted(deal[:n1], key=_ORDER))  # sort_cards
            h2 = tuple(sorted(deal[n1:n2], key=_ORDER))
            new_hands = list(hands)
            new_hands[o1], new_hands[o2] = h1, h2
            s.hands, s.deck = tuple(new_hands), tuple(deal[n2:])
            s.deck_unordered = True
            commits = self.commits
            if commits is not _NO4 and (commits[o1] is not None or commits[o2] is not None):
                redone = list(commits)
                if redone[o1] is not None:
                    redone[o1] = rng.choice(h1)
                if redone[o2] is not None:
                    redone[o2] = rng.choice(h2)
                s.commits = tuple(redone)
            if theirs and (gave is not _NO4 or zones != _NO_ZONES):
                last = _LAST_FORGOTTEN
                if last[0] is gave and last[1] is zones and last[2] is theirs:
                    s.gave, s.gift_zone = last[3]
                else:
                    key = (gave, zones, theirs)
                    gifts = _FORGOTTEN.get(key) or _forget(key)
                    _LAST_FORGOTTEN = (gave, zones, theirs, gifts)
                    s.gave, s.gift_zone = gifts
            s.rng.s = rng.next64()  # rng.spawn() into the copy's own generator
            s._legal = None
            return s
        if hidden:
            pool: list[str] = []
            for o in others:
                pool += hands[o]
                pool += hdisc[o]
        elif len(others) == 2:
            pool = [*hands[others[0]], *hands[others[1]]]
        else:
            pool = [c for o in others for c in hands[o]]
        # known[o] = (card, zone): a card one of my seats gave to o, known to be in o's hand/discard
        known: dict[int, tuple[str, int]] = {}
        if mine_gave and zones != _NO_ZONES:
            for o, k in mine_gave:  # k: o's partner, one of my seats
                g, zone = gave[k], zones[k]
                if zone and g is not None:
                    known[o] = (g, zone)
                    pool.remove(g)
        slots = len(pool)
        pool += self.deck
        pool.sort()  # the unseen cards in one order that does not depend on where they are
        _shuffle_front(rng, pool, slots)
        new_hands = list(hands)
        at = 0
        if not known and not hidden:
            for o in others:
                take = at + len(hands[o])
                new_hands[o] = tuple(sorted(pool[at:take], key=_ORDER))  # sort_cards
                at = take
        else:
            new_hdisc = list(hdisc)
            for o in others:
                g, zone = known.get(o, ("", 0))
                take = len(hands[o]) - (zone == 1)
                got = pool[at : at + take]
                at += take
                if zone == 1:
                    got.append(g)
                new_hands[o] = sort_cards(got)
                if hidden:
                    take = len(hdisc[o]) - (zone == 2)
                    got = pool[at : at + take]
                    at += take
                    if zone == 2:
                        got.append(g)
                    new_hdisc[o] = sort_cards(got)
            s.hdisc = tuple(new_hdisc)
        s.hands, s.deck = tuple(new_hands), tuple(pool[at:])
        s.deck_unordered = True
        commits = self.commits
        if commits != _NO4:
            redone = list(commits)
            for o in others:
                if redone[o] is not None:
                    redone[o] = rng.choice(new_hands[o])
            s.commits = tuple(redone)
        # what the other side gave is unknown to ``seat``
        if theirs and (gave != _NO4 or zones != _NO_ZONES):
            key = (gave, zones, theirs)
            forgotten = _FORGOTTEN.get(key)
            s.gave, s.gift_zone = forgotten if forgotten is not None else _forget(key)
        s.rng.s = rng.next64()  # rng.spawn() into the copy's own generator
        s._legal = None
        return s

    def check(self) -> None:
        o = self.opts
        n = o.pieces_per_colour
        # I1 card conservation
        cards = [*self.deck, *self.discard]
        for h in self.hands:
            cards.extend(h)
        for h in self.hdisc:
            cards.extend(h)
        assert sort_cards(cards) == deck_of(o), "I1: cards are not conserved"
        # I2 piece conservation, I3 start fields, I4 one colour per square, I5 house capacity
        seen: dict[int, int] = {}
        for c in range(4):
            pcs = self.pos[c]
            assert len(pcs) == n, f"I2: {COLOURS[c]} has {len(pcs)} pieces"
            assert list(pcs) == sorted(pcs), "board tuples must be sorted"
            for p in pcs:
                assert CIRCLE <= p < HOUSE + 4, f"I2: bad position {p}"
                if 0 <= p < TRACK:
                    assert p % 15 <= o.fields_per_segment, "a piece on a square the board lacks"
                    assert seen.setdefault(p, c) == c, f"I4: two colours on {square_id(c, p)}"
                    if p % 15 == 0 and not o.swap_start_field:
                        assert p == START_FIELD[c], f"I3: {COLOURS[c]} on a foreign start field"
            house = [p for p in pcs if p >= HOUSE]
            assert len(house) == len(set(house)), "I5: two pieces on one house circle"
        # I8 hand sizes
        for h in self.hands:
            assert len(h) <= 4, "I8: a hand holds more than 4 cards"
        if self.phase == "exchange":
            assert all(len(h) == 4 for h in self.hands), "I8: hands hold 4 cards during the exchange"
        assert self.deals <= o.max_deals
        assert 1 <= self.deal_no <= deals_per_cycle(o)
        if self.truncated:  # stopped at the decision bound: nobody acts, nobody has won
            assert self.to_act is None and self.winner is None
        elif self.turn is None:
            assert self.to_act is None
            assert self.winner is not None and self.phase == "over"
        else:
            assert self.to_act == self.ctrl[self.turn]
            assert self.winner is None
            assert self.hands[self.turn] or self.phase == "split", "the seat to act has cards"
        # I12: a finished team ends the game
        if self.winner is None:
            assert not B.team_home(self.pos, 0) and not B.team_home(self.pos, 1), "I12"


_NAMES = tuple(c.capitalize() for c in COLOURS)
_COMMIT_TEXTS = tuple(f"{_NAMES[k]} chooses a card for {COLOURS[partner(k)]}" for k in range(4))
_COMMIT_EVENTS: tuple[Event, ...] = tuple(
    {"kind": "commit", "seat": k & 3, "text": _COMMIT_TEXTS[k & 3]}
    if k >> 2 == 2
    else {
        "kind": "commit",
        "seat": seat_controllers((k >> 2) + 2)[k & 3],
        "text": _COMMIT_TEXTS[k & 3],
        "colour_seat": k & 3,
    }
    for k in range(12)
)
"""``_COMMIT_EVENTS[(people - 2) << 2 | seat]``: the event of a commitment in the exchange by
colour seat ``seat`` with ``people`` people, as :meth:`PartnersState.apply` names the person
(copied for each commitment)."""
_OTHERS = tuple(tuple(o for o in range(4) if o != c) for c in range(4))
"""The colours other than ``c``, in order."""
_AFTER = tuple(tuple((seat + k) % 4 for k in range(1, 5)) for seat in range(4))
"""The colour seats in turn after ``seat`` (itself last)."""
_SQUARE_IDS = tuple(tuple(square_id(c, p) for p in range(CIRCLE, HOUSE + HOUSE_SIZE)) for c in range(4))
"""``_SQUARE_IDS[c][p + 1]`` is ``square_id(c, p)``."""


_MOVE_TEXTS: dict[int, tuple[Move, list[Event | None]]] = {}
"""``id(move)`` -> (the move, its event as :meth:`PartnersState._play_move` returns it per
number of people and colour seat, index ``(people - 2) << 2 | seat``, made when first
needed)."""


def _move_texts(action: Move) -> tuple[Move, list[Event | None]]:
    """``_MOVE_TEXTS[id(action)]``, made (the events not yet)."""
    if len(_MOVE_TEXTS) > 100_000:  # never with the interned actions (a few thousand)
        _MOVE_TEXTS.clear()
    got = _MOVE_TEXTS[id(action)] = (action, [None] * 12)
    return got


def _move_event(action: Move, events: list[Event | None], k: int) -> Event:
    """``events[k]``: the event of ``action`` played by colour seat ``k & 3`` with
    ``(k >> 2) + 2`` people, made."""
    seat, people = k & 3, (k >> 2) + 2
    ids = _SQUARE_IDS[action.colour]
    card = action.card
    f, t = ids[action.frm + 1], ids[action.to + 1]
    text = f"{_NAMES[seat]} plays {card}: {COLOURS[action.colour]} {f} → {t}"
    ev: Event
    if people == 4:
        ev = {"kind": "move", "seat": seat, "card": card, "from": f, "to": t, "text": text}
    else:
        ev = {
            "kind": "move",
            "seat": seat_controllers(people)[seat],
            "card": card,
            "from": f,
            "to": t,
            "text": text,
            "colour_seat": seat,
        }
    events[k] = ev
    return ev


_SEVEN_TEXTS: dict[int, tuple[Seven, list[Event | None]]] = {}
"""``id(part)`` -> (the part, its event as :meth:`PartnersState._seven` returns it per number of
people and colour seat, index ``(people - 2) << 2 | seat``, made when first needed), as
:data:`_MOVE_TEXTS` for moves."""


def _seven_texts(action: Seven) -> tuple[Seven, list[Event | None]]:
    """``_SEVEN_TEXTS[id(action)]``, made (the events not yet)."""
    if len(_SEVEN_TEXTS) > 100_000:  # never with the interned actions (a few thousand)
        _SEVEN_TEXTS.clear()
    got = _SEVEN_TEXTS[id(action)] = (action, [None] * 12)
    return got


def _seven_event(action: Seven, events: list[Event | None], k: int) -> Event:
    """``events[k]``: the event of the part ``action`` played by colour seat ``k & 3`` with
    ``(k >> 2) + 2`` people (a move's event with the kind ``seven`` and its steps; with fewer
    than four people the person in ``seat`` and the colour seat last)."""
    seat, people = k & 3, (k >> 2) + 2
    ids = _SQUARE_IDS[action.colour]
    f, t = ids[action.frm + 1], ids[action.to + 1]
    ev: Event = {
        "kind": "seven",
        "seat": seat,
        "card": "S7",
        "from": f,
        "to": t,
        "text": f"{_NAMES[seat]} plays S7: {COLOURS[action.colour]} {f} → {t}",
        "steps": action.steps,
    }
    if people != 4:
        ev["colour_seat"] = seat
        ev["seat"] = seat_controllers(people)[seat]
    events[k] = ev
    return ev


_LAST_CYCLE: tuple[Any, int] = (None, 0)
"""(options, :func:`.options.deals_per_cycle` of them) for the last options a deal ended
under: one tuple read and replaced whole (options are immutable)."""


def _cycle(o: PartnersOptions) -> tuple[Any, int]:
    """``_LAST_CYCLE`` for ``o``, made."""
    global _LAST_CYCLE
    got = _LAST_CYCLE = (o, deals_per_cycle(o))
    return got


_LAST_RULES: tuple[Any, bool] = (None, False)
"""(options, whether they keep the default movement rules: mandatory house entry, no bounce)
for the last options legal() listed moves under: one tuple read, no string comparisons."""


def _movement(o: PartnersOptions) -> tuple[Any, bool]:
    """``_LAST_RULES`` for ``o``, made."""
    global _LAST_RULES
    got = _LAST_RULES = (o, o.house_entry != "optional" and o.house_overshoot != "bounce")
    return got


_NO_ZONES = (0, 0, 0, 0)
_FORGOTTEN: dict[Any, tuple[tuple[str | None, ...], tuple[int, ...]]] = {}
"""(gave, gift_zone, seats) -> the two with those seats' gifts forgotten (determinize())."""
_M64 = (1 << 64) - 1


def _forget(key: Any) -> tuple[tuple[str | None, ...], tuple[int, ...]]:
    """``_FORGOTTEN[key]``: (gave, gift_zone) with the gifts of the seats in ``key[2]`` unknown."""
    gave, zones, seats = key
    new_gave, new_zones = list(gave), list(zones)
    for o in seats:
        new_gave[o] = None
        new_zones[o] = 0
    got = _FORGOTTEN[key] = (tuple(new_gave), tuple(new_zones))
    return got


_LAST_FORGOTTEN: tuple[Any, ...] = (None, None, None, None)
"""determinize()'s two-hand case: (gave, gift_zone, seats, :data:`_FORGOTTEN` of them) of the
last call, by identity."""
_LAST_POOL: tuple[Any, ...] = (None, None, None, ())
"""determinize()'s two-hand case: (hand, hand, deck, their cards sorted) of the last call, by
identity (a search determinizes the same state again and again; the tuples are immutable).
One tuple, read once and replaced whole, so that threads determinizing at once (the server's
heuristic bots) never read one call's hands with another's cards."""
_GAMMA = 0x9E3779B97F4A7C15
_ORDER = CARD_ORDER.__getitem__
_SORTED: dict[int, tuple[str, ...]] = {}
"""The product of the cards' :data:`_PRIMES` (one key per multiset of cards: a dealt hand, a
hand after the exchange) -> :func:`.data.sort_cards` of them: 1,820 keys for 4-card hands of
the standard deck's 13 types, and a look-up costs a fraction of a sort with a key function."""
_HAND_KEYS: dict[tuple[str, ...], int] = {}
"""The inverse of :data:`_SORTED`: a sorted hand it made -> its key (the exchange swaps one
prime of the key for another)."""
_PRIMES = dict(
    zip(CARD_TYPES, (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61), strict=False)
)
"""A distinct prime per card type (:data:`.data.CARD_TYPES`)."""
assert len(_PRIMES) == len(CARD_TYPES)


def _sort_hand(hand: Sequence[str]) -> tuple[str, ...]:
    """:func:`.data.sort_cards` of ``hand``, looked up by its cards' prime product (a dealt
    hand, a hand after the exchange)."""
    key = 1
    for c in hand:
        key *= _PRIMES[c]
    got = _SORTED.get(key)
    if got is None:
        if len(_SORTED) > 100_000:  # never: the keys are multisets of a few cards
            _SORTED.clear()
            _HAND_KEYS.clear()
        got = _SORTED[key] = tuple(sorted(hand, key=_ORDER))
        _HAND_KEYS[got] = key
    return got


def _shuffle_front(rng: Rng, seq: list[str], k: int) -> None:
    """``rng.shuffle_front(seq, k)``, the same draws, with the two 64-bit words that a re-deal
    of up to 14 slots from at most 64 cards needs drawn inline (determinize()'s hot loop)."""
    n = len(seq)
    if k <= 0 or k > n or k * n.bit_length() + 40 > 128:
        rng.shuffle_front(seq, k)
        return
    if k * n.bit_length() + 40 <= 64:
        x = rng.next64()
    else:  # Rng.next64() twice, inlined
        s = (rng.s + _GAMMA) & _M64
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        hi = z ^ (z >> 31)
        s = (s + _GAMMA) & _M64
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        rng.s = s
        x = hi << 64 | z ^ (z >> 31)
    for i in range(k):
        x, r = divmod(x, n - i)
        if r:
            r += i
            seq[i], seq[r] = seq[r], seq[i]


Roles = tuple[tuple[int, ...], tuple[tuple[int, int], ...], tuple[int, ...]]
_ROLES: dict[tuple[int, ...], tuple[Roles, ...]] = {}


def _seat_roles(ctrl: tuple[int, ...]) -> tuple[Roles, ...]:
    """For :meth:`PartnersState.determinize`, per person: the colour seats he does not
    control, those of them whose partner he controls (with that partner), and those whose
    partner he does not control either (their gifts are hidden from him). Memoised."""
    out = []
    for person in range(max(ctrl) + 1):
        others = tuple(o for o in range(4) if ctrl[o] != person)
        mine_gave = tuple((o, partner(o)) for o in others if ctrl[partner(o)] == person)
        theirs = tuple(o for o in others if ctrl[partner(o)] != person)
        out.append((others, mine_gave, theirs))
    got = _ROLES[ctrl] = tuple(out)
    return got


def _put(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    """``t``, a tuple by colour seat (four entries), with entry ``i`` set to ``v``: one tuple
    display by seat (no slices, list or unpacking into a new tuple)."""
    t0, t1, t2, t3 = t
    if i == 0:
        return (v, t1, t2, t3)
    if i == 1:
        return (t0, v, t2, t3)
    if i == 2:
        return (t0, t1, v, t3)
    return (t0, t1, t2, v)


def _pair_event(colour: int, sq: int) -> Event:
    """A piece that landed on a protected pair goes back to its circle."""
    return {
        "kind": "knocked_out",
        "colour": COLOURS[colour],
        "square": square_id(colour, sq),
        "text": f"The {COLOURS[colour]} piece landed on a protected pair and goes back to its circle",
    }


def _ko_event(colour: int, sq: int) -> Event:
    """The event of a piece of ``colour`` on track square ``sq`` knocked out (a copy of
    :data:`_KO_EVENTS`' entry)."""
    return _KO_EVENTS[colour][sq].copy()


_KO_EVENTS: tuple[tuple[Event, ...], ...] = tuple(
    tuple(
        {
            "kind": "knocked_out",
            "colour": COLOURS[colour],
            "square": square_id(colour, sq),
            "text": f"The {COLOURS[colour]} piece on {square_id(colour, sq)} is knocked out",
        }
        for sq in range(TRACK)
    )
    for colour in range(4)
)
"""``_KO_EVENTS[colour][sq]``: the event of a piece knocked out of track square ``sq``, made
once (callers copy it: a knock-out happens only on the track)."""


# --------------------------------------------------------------------------- game


@mypyc_attr(allow_interpreted_subclasses=True)
class PartnersGame(Game[PartnersOptions, PartnersState]):
    """Partners (Thomas Bisgaard, 1998): a race of four colours round a ring in two partnerships."""

    id = "partners"
    title = "Partners"
    seats = range(2, 5)
    """2–4 people; the board always has four colour seats (R10: with 2 people each plays a
    whole partnership, with 3 one person plays Yellow+Blue)."""
    kind = GameKind(
        hidden_information=True,
        chance=True,
        public_actions=False,  # "give h8" names the card passed face down
        max_decisions=_MAX_DECISIONS,
        secret_choices=True,  # the partner exchange: four cards committed face down
    )
    """The bound is never reached: the game is a draw after ``max_deals`` (at most 300) deals,
    and a deal has at most 4 exchange decisions and 16 cards of at most 7 decisions each (a 7
    split into seven parts). Games of the ``partners`` bot last some 12–15 deals (about 250
    decisions), random games some 15–25 deals (at most about 500 decisions)."""
    version = 1
    Options = PartnersOptions
    summary = "Race your four pieces home with cards, in two partnerships that swap a card each deal"
    languages = ("en", "da")
    quick_options: ClassVar[dict[str, Any]] = {"pieces_per_colour": 2, "max_deals": 20}

    def new(self, seats: int, seed: int, options: PartnersOptions | None = None) -> PartnersState:
        self.check_seats(seats)
        o = options if options is not None else PartnersOptions()
        if not isinstance(o, PartnersOptions):
            raise OptionError("Partners: options must be PartnersOptions")
        s = PartnersState.__new__(PartnersState)
        s.start(self, seats, Rng(seed))
        s.opts = o
        n = o.pieces_per_colour
        s.pos = tuple((CIRCLE,) * n for _ in range(4))
        s.hands = ((), (), (), ())
        s.discard = ()
        s.hdisc = ((), (), (), ())
        s.deck = ()
        s.deck_unordered = False
        s.deals = 0
        s.deal_no = 0
        s.winner = None
        s.split_left, s.split_used = 0, ()
        s.commits = s.gave = _NO4
        s.gift_zone = (0, 0, 0, 0)
        s.sat_out = (False, False, False, False)
        s._legal = None
        s._bits = (None, 0)
        if o.first_dealer == "random":
            s.dealer = s.rng.randrange(4)
        else:
            s.dealer = _draw_high(s.rng, deck_of(o))
        s.first_dealer = s.dealer
        s.leader = (s.dealer + 1) % 4
        s.phase = "exchange"
        s.ctrl = seat_controllers(seats)
        s._set_turn(s.leader)
        s._shuffle()
        s._deal([])
        return s

    def teams(self, seats: int, options: PartnersOptions | None = None) -> Teams:
        """The people of each partnership (Yellow+Blue, then Red+Green): ``((0, 2), (1, 3))``
        with four people; a person who plays a whole partnership is a side alone
        (``((0,), (1,))`` with two people, ``((0,), (1, 2))`` with three)."""
        return _TEAMS.get(seats) or _teams(seats)

    def parse(self, state: PartnersState, text: str) -> PartnersAction:
        """Any well-formed action text (so that ``play`` can say why an illegal one is refused)."""
        return notation.parse(state, text)


def _teams(people: int) -> Teams:
    ctrl = seat_controllers(people)
    return tuple(tuple(sorted({ctrl[t], ctrl[t + 2]})) for t in (0, 1))


_TEAMS: dict[int, Teams] = {n: _teams(n) for n in range(2, 5)}


def _draw_high(rng: Rng, deck: tuple[str, ...]) -> int:
    """R2.2 ``draw_high``: everyone draws, the highest deals; ties draw again."""
    cands = [0, 1, 2, 3]
    while True:
        cards = list(deck)
        rng.shuffle(cards)
        vals = {s: CARD_TYPES[cards[i]].draw_value for i, s in enumerate(cands)}
        top = max(vals.values())
        cands = [s for s in cands if vals[s] == top]
        if len(cands) == 1:
            return cands[0]


__all__ = [
    "Discard",
    "Give",
    "Move",
    "PartnersAction",
    "PartnersGame",
    "PartnersOptions",
    "PartnersState",
    "Seven",
    "Start",
    "StopSplit",
    "Swap",
    "deals_per_cycle",
    "deck_of",
]
