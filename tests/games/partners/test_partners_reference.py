"""Partners: the engine's forward/backward moves and split 7s against an independent reference
written straight from rules R5.2–R5.5 and R6.5 (I6, I11: replaying each path, nothing passes an
occupied foreign start field or an occupied house circle), sound and complete over random games."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))

from partners_helpers import board, make, sq
from partners_reference import ref_backward, ref_forward, ref_split_sequences

from spillebord.games.partners import GAME, Move, PartnersState, Seven
from spillebord.games.partners.data import CARD_TYPES
from spillebord.testing import random_walk


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
    for s in random_walk(GAME, 4, seed, check=False):
        assert isinstance(s, PartnersState)
        if s.phase == "play" and s.to_act is not None:
            _check_moves(s)


def test_reference_agrees_on_spec_cases() -> None:
    assert ref_forward(board("Y@Y12"), 0, sq("Y12"), 5) == sq("R3")
    assert ref_forward(board("Y@Y12 R@RS"), 0, sq("Y12"), 5) is None
    assert ref_forward(board("Y@G13"), 0, sq("G13"), 3) == sq("YH2")
    assert ref_backward(board("Y@YS"), 0, sq("YS"), 4) == sq("G11")
    assert ref_backward(board("Y@R2 R@RS"), 0, sq("R2"), 4) is None


@settings(max_examples=5)
@given(seed=st.integers(0, 2**32 - 1))
def test_split_seven_matches_the_reference(seed: int) -> None:
    checked = 0
    for s in random_walk(GAME, 4, seed, check=False):
        assert isinstance(s, PartnersState)
        seat = s.to_act
        if seat is None or checked >= 40:
            break
        if s.phase == "split" or (s.phase == "play" and "S7" in s.hands[seat]):
            r, used = (s.split_left, s.split_used) if s.phase == "split" else (7, ())
            seqs = ref_split_sequences(s.pos, seat, r, used)
            firsts = {seq[0] for seq in seqs}
            got = {(m.frm, m.steps, m.to) for m in s.legal() if isinstance(m, Seven)}
            assert got == firsts
            checked += 1


def test_split_reference_on_spec_cases() -> None:
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
