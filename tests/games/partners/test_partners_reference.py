"""Partners: the engine's forward/backward moves against an independent reference written
straight from spec 5.2–5.5 (I6, I11: replaying each path, nothing passes an occupied foreign
start field or an occupied house circle), sound and complete over random games."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))

from spillebord.core import Rng
from spillebord.games.partners import GAME
from spillebord.games.partners.data import CARD_TYPES, START_FIELD
from spillebord.games.partners.rules import Move, PartnersState

Board = tuple[tuple[int, ...], ...]


def ref_forward(pos: Board, c: int, p: int, n: int) -> int | None:
    """Spec 5.2.3 / 5.5 step by step; None when a step is illegal."""
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
    """Spec 5.2.5: backwards on the track only, own start field skipped."""
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


def _check_moves(s: PartnersState) -> None:
    seat = s.to_act
    assert seat is not None
    a = s.active(seat)
    legal = {m for m in s.legal() if isinstance(m, Move)}
    expected = set()
    for card in set(s.hands[seat]):
        t = CARD_TYPES[card]
        for p in set(s.pos[a]):
            for v in t.forward:
                e = ref_forward(s.pos, a, p, v)
                if e is not None:
                    expected.add(Move(card, v, a, p, e))
            if t.backward:
                e = ref_backward(s.pos, a, p, t.backward)
                if e is not None:
                    expected.add(Move(card, -t.backward, a, p, e))
    assert legal == expected


@settings(max_examples=6)
@given(seed=st.integers(0, 2**32 - 1))
def test_moves_match_the_reference(seed: int) -> None:
    s = GAME.new(4, seed)
    rng = Rng(seed)
    while s.to_act is not None:
        if s.phase == "play":
            _check_moves(s)
        s.play(rng.choice(s.legal()))


def test_reference_agrees_on_spec_cases() -> None:
    from partners_helpers import board, sq

    assert ref_forward(board("Y@Y12"), 0, sq("Y12"), 5) == sq("R3")
    assert ref_forward(board("Y@Y12 R@RS"), 0, sq("Y12"), 5) is None
    assert ref_forward(board("Y@G13"), 0, sq("G13"), 3) == sq("YH2")
    assert ref_backward(board("Y@YS"), 0, sq("YS"), 4) == sq("G11")
    assert ref_backward(board("Y@R2 R@RS"), 0, sq("R2"), 4) is None


def ref_land(pos: Board, c: int, frm: int, to: int) -> Board:
    """Spec 5.3: a lone foreign piece is knocked out; a foreign pair knocks the mover out."""
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
    """Every complete split 7 (spec 6.5) from here, as lists of (from, steps, to)."""
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


@settings(max_examples=5)
@given(seed=st.integers(0, 2**32 - 1))
def test_split_seven_matches_the_reference(seed: int) -> None:
    from spillebord.games.partners.rules import Seven

    s = GAME.new(4, seed)
    rng = Rng(seed)
    checked = 0
    while s.to_act is not None and checked < 40:
        seat = s.to_act
        if s.phase == "split" or (s.phase == "play" and "S7" in s.hands[seat]):
            r, used = (s.split_left, s.split_used) if s.phase == "split" else (7, ())
            seqs = ref_split_sequences(s.pos, seat, r, used)
            firsts = {seq[0] for seq in seqs}
            got = {(m.frm, m.steps, m.to) for m in s.legal() if isinstance(m, Seven)}
            assert got == firsts
            checked += 1
        s.play(rng.choice(s.legal()))


def test_split_reference_on_spec_cases() -> None:
    from partners_helpers import make

    from spillebord.games.partners.rules import Seven

    for pieces in (
        "Y@Y3 Y@Y10 R@RS",
        "Y@YH2 Y@YH3 Y@YH4 Y@G12 B@B1",
        "Y@YH2 Y@YH3 Y@YH4 Y@G12",
        "Y@YH2 Y@YH3 Y@YH4 Y@G12 B@BH2 B@BH3 B@BH4 B@R11",
        "Y@Y1 Y@Y5 R@Y8 R@Y8",
        "Y@G10 Y@G11 Y@YH3 B@B1 B@B2",
    ):
        s = make(pieces, ["S7"])
        firsts = {seq[0] for seq in ref_split_sequences(s.pos, 0, 7, ())}
        assert {(m.frm, m.steps, m.to) for m in s.legal() if isinstance(m, Seven)} == firsts
