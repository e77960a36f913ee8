"""The precomputed movement tables and the split-7 shortcuts agree with the plain rules.

:func:`board.steps_table`, :func:`board.legal_path` and :func:`board.back_table` replace the
step-by-step walks (:func:`board.path`, :func:`board.bwalk`) in the hot paths: here they are
compared with them on every square, blocker set and house for every board size. The split-7
parts the engine offers (worked out with shortcuts, :func:`rules.seven_parts`) are compared
with a plain recursive search over :func:`rules.split_parts` at the 7s of random games.
"""

from __future__ import annotations

import pytest

from spillebord.core import Rng
from spillebord.core.options import build
from spillebord.games.partners import GAME
from spillebord.games.partners import board as B
from spillebord.games.partners import rules as R

SIZES = (14, 10, 4)


@pytest.mark.parametrize("size", SIZES)
def test_tables_walk_as_the_step_functions(size: int) -> None:
    for c in range(4):
        for p in [-1, *range(64)]:
            if 0 <= p < 60 and p % 15 > size:
                continue
            for bits in range(16):
                blk = tuple(bool(bits >> k & 1) for k in range(4))
                for hm in range(16):
                    assert B.legal_path(c, p, bits, hm, size) == B.path(c, p, 14, blk, hm, size)
                if 0 <= p < 60:
                    for n in (4, 1):
                        end = B.bwalk(c, p, n, blk, size)
                        row = B.back_table(c, n, size)[p + 1]
                        assert row is not None
                        assert (end if end >= 0 else None) == (row[0] if not row[1] & bits else None)
                else:
                    assert B.back_table(c, 4, size)[p + 1] is None


def test_blocker_bits_are_the_blockers() -> None:
    pos = ((0, 3, 61, 62), (-1, 15, 20, 20), (30, 31, 40, 63), (-1, -1, 44, 46))
    assert B.blocker_bits(pos) == sum(1 << d for d, b in enumerate(B.blockers(pos)) if b) == 0b0111


def _ref_viable(pos: B.Board, seat: int, r: int, used: tuple[tuple[int, int], ...], size: int) -> bool:
    for part in R.split_parts(pos, seat, r, used, False, False, size):
        if _ref_ok(pos, seat, r, used, part, size):
            return True
    return False


def _ref_ok(
    pos: B.Board,
    seat: int,
    r: int,
    used: tuple[tuple[int, int], ...],
    part: tuple[int, int, int, int],
    size: int,
) -> bool:
    rem = r - part[2]
    if rem == 0:
        return True
    new, _ko, _so, used2, switched, won = R.apply_part(pos, seat, part, used)
    return won or switched or _ref_viable(new, seat, rem, used2, size)


@pytest.mark.parametrize("loose", [{}, {"pieces_per_colour": 2}, {"fields_per_segment": 8}])
def test_seven_parts_match_a_plain_search(loose: dict[str, int]) -> None:
    o = build(GAME.Options, loose)
    size = o.fields_per_segment
    checked = 0
    for seed in range(40):
        rng = Rng(seed)
        s = GAME.new(4, seed, o)
        while s.to_act is not None:
            seat = s.turn
            assert seat is not None
            if s.phase == "split" or (s.phase == "play" and "S7" in s.hands[seat]):
                r, used = (s.split_left, s.split_used) if s.phase == "split" else (7, ())
                # the engine's memos must not decide for themselves
                R._VIABLE.clear()
                R._FINISH.clear()
                R._SEVEN_LISTS.clear()
                got = R.seven_parts(s.pos, seat, r, used, o)
                want = [
                    part
                    for part in R.split_parts(s.pos, seat, r, used, False, False, size)
                    if _ref_ok(s.pos, seat, r, used, part, size)
                ]
                assert got == want, (s.pos, seat, r, used)
                checked += 1
            s.play(rng.choice(s.legal()))
    assert checked > 100


@pytest.mark.parametrize("loose", [{}, {"pieces_per_colour": 3}, {"fields_per_segment": 10}])
def test_seven_actions_fresh_and_memoised_match_a_plain_search(loose: dict[str, int]) -> None:
    """legal()'s 7s (``acts``: the one-slice track steps, the list memoised by the colour's
    pieces when no search looked at the rest of the board) are the Seven actions of the plain
    search's parts, worked out afresh and read back from the memo, at every 7 of random games
    (two and four people)."""
    o = build(GAME.Options, loose)
    size = o.fields_per_segment
    checked = 0
    for seed in range(30):
        rng = Rng(seed)
        s = GAME.new(2 + 2 * (seed % 2), seed, o)
        while s.to_act is not None:
            seat = s.turn
            assert seat is not None
            if s.phase == "split" or (s.phase == "play" and "S7" in s.hands[seat]):
                r, used = (s.split_left, s.split_used) if s.phase == "split" else (7, ())
                want = [
                    R._seven_action(*part)
                    for part in R.split_parts(s.pos, seat, r, used, False, False, size)
                    if _ref_ok(s.pos, seat, r, used, part, size)
                ]
                R._VIABLE.clear()
                R._FINISH.clear()
                R._SEVEN_LISTS.clear()
                fresh = list(R._default_seven_parts(s.pos, seat, r, used, size, acts=True))
                R._VIABLE.clear()
                R._FINISH.clear()
                again = list(R._default_seven_parts(s.pos, seat, r, used, size, acts=True))
                assert fresh == again == want, (s.pos, seat, r, used)
                checked += 1
            s.play(rng.choice(s.legal()))
    assert checked > 100


@pytest.mark.parametrize(
    "loose", [{}, {"swap_start_field": True}, {"pieces_per_colour": 2, "fields_per_segment": 6}]
)
def test_blockers_passed_on_by_moves_are_the_boards(loose: dict[str, object]) -> None:
    """legal() keeps the blocker bits of the board it read (``_bits``) and a move passes them
    on to the board it makes: wherever they are read they are the board's own, and the legal
    list is the one worked out without them, at every decision of random games (a copy with
    the cache emptied gives the same list)."""
    o = build(GAME.Options, loose)
    passed_on = 0
    for seed in range(24):
        rng = Rng(seed)
        s = GAME.new(2 + seed % 3, seed, o)
        while s.to_act is not None:
            board, bits = s._bits
            if board is s.pos:
                assert bits == B.blocker_bits(s.pos)
                passed_on += 1
            fresh = s.copy()
            fresh._bits = (None, 0)
            fresh._legal = None
            legal = s.legal()
            assert fresh.legal() == legal
            if s._bits[0] is s.pos:
                assert s._bits[1] == B.blocker_bits(s.pos)
            s.play(rng.choice(legal))
    assert passed_on > 1000


@pytest.mark.parametrize("loose", [{}, {"pieces_per_colour": 3, "fields_per_segment": 6}])
def test_board_cards_are_the_card_tables_under_each_mask(loose: dict[str, object]) -> None:
    """The per-board rows of a card (``_BOARD_CARDS``, rows shared between boards that forbid
    the same moves) hold, for every square, the move of :func:`rules._card_table` exactly when
    its mask misses the board's, after random games fill them."""
    o = build(GAME.Options, loose)
    for seed in range(12):
        rng = Rng(seed)
        s = GAME.new(2 + seed % 3, seed, o)
        while s.to_act is not None:
            s.play(rng.choice(s.legal()))
    checked = 0
    for key, cards in R._BOARD_CARDS.items():
        bm, a, size = key >> 6, (key >> 4) & 3, key & 15
        for card, (pick, picks, _special) in cards.items():
            rows = R._CARD_TABLES[a, size][card][1]
            assert len(picks) == len(rows)
            assert pick is None or pick is picks[0]
            for row, got in zip(rows, picks, strict=True):
                for p in range(-1, len(row) - 1):
                    m, mv = row[p + 1]
                    assert got[p] is (mv if not m & bm else None)
                    checked += 1
    assert checked > 10_000


@pytest.mark.parametrize("starts", [False, True])
@pytest.mark.parametrize("same", [True, False])
def test_swap_lists_are_the_swap_pairs(starts: bool, same: bool) -> None:
    """``_add_swaps`` (lone pieces found by comparing neighbours in the sorted pieces) lists
    exactly :func:`rules.swap_pairs`, in order, on random boards with protected pairs, a third
    piece on a square, start fields, circles and houses."""
    o = R.PartnersOptions(swap_start_field=starts, allow_same_colour_swap=same)
    rng = Rng(7)
    squares = [-1, -1, 0, 15, 30, 45, 60, 61, 62, 63, 3, 3, 3, 20, 20, 44, 58, 59]
    for _ in range(3000):
        pos = tuple(tuple(sorted(squares[rng.randrange(len(squares))] for _ in range(4))) for _ in range(4))
        out: list[R.PartnersAction] = []
        R._add_swaps(out, pos, o)
        got = [(a.c1, a.p1, a.c2, a.p2) for a in out if isinstance(a, R.Swap)]
        assert len(got) == len(out)
        assert got == R.swap_pairs(pos, o)
