"""docs/rules/88.md §2 (seven-segment geometry) and the cases of 11.1."""

from __future__ import annotations

import itertools

import pytest

from spillebord.games.eightyeight import data
from spillebord.games.eightyeight.data import (
    ALT,
    L_PAIRS,
    PLACEMENT_SEGS,
    STANDARD,
    counts,
    parse_panel,
    parse_tiling,
    segs,
    tiling_segments,
    tiling_text,
)

G = STANDARD

# §2.5: every tiling of every digit (digit 8 in its four groups).
TILINGS_2_5 = {
    0: "a b c d e f; a b c de f; a b cd e f; ab c d e f; af b c d e; "
    "ab c de f; ab cd e f; af b c de; af b cd e",
    1: "b c",
    2: "a b d e g; a b d eg; a b de g; a bg d e; ab d e g; a bg de; ab d eg; ab de g",
    3: "a b c d g; a b cd g; a b cg d; a bg c d; ab c d g; a bg cd; ab cd g; ab cg d",
    4: "b c f g; b c fg; b cg f; bg c f",
    5: "a c d f g; a c d fg; a cd f g; a cg d f; af c d g; a cd fg; af cd g; af cg d",
    6: "a c d e f g; a c d e fg; a c d eg f; a c de f g; a cd e f g; a cg d e f; af c d e g; "
    "a c de fg; a cd e fg; a cd eg f; a cg de f; af c d eg; af c de g; af cd e g; af cg d e; "
    "af cd eg; af cg de",
    7: "a b c; ab c",
    8: "a b c d e f g; "
    "a b c d e fg; a b c d eg f; a b c de f g; a b cd e f g; a b cg d e f; a bg c d e f; ab c d e f g; "
    "af b c d e g; "
    "a b c de fg; a b cd e fg; a b cd eg f; a b cg de f; a bg c de f; a bg cd e f; ab c d e fg; "
    "ab c d eg f; ab c de f g; ab cd e f g; ab cg d e f; af b c d eg; af b c de g; af b cd e g; "
    "af b cg d e; af bg c d e; "
    "ab c de fg; ab cd e fg; ab cd eg f; ab cg de f; af b cd eg; af b cg de; af bg c de; af bg cd e",
    9: "a b c d f g; a b c d fg; a b cd f g; a b cg d f; a bg c d f; ab c d f g; af b c d g; "
    "a b cd fg; a bg cd f; ab c d fg; ab cd f g; ab cg d f; af b cd g; af b cg d; af bg c d; "
    "ab cd fg; af bg cd",
}

LS_OPTIONS = {
    0: {(0, 6), (1, 4), (2, 2)},
    1: {(0, 2)},
    2: {(0, 5), (1, 3), (2, 1)},
    3: {(0, 5), (1, 3), (2, 1)},
    4: {(0, 4), (1, 2)},
    5: {(0, 5), (1, 3), (2, 1)},
    6: {(0, 6), (1, 4), (2, 2), (3, 0)},
    7: {(0, 3), (1, 1)},
    8: {(0, 7), (1, 5), (2, 3), (3, 1)},
    9: {(0, 6), (1, 4), (2, 2), (3, 0)},
}


def test_2_3_exactly_eight_L_pairs() -> None:
    assert len(L_PAIRS) == 8
    assert set(L_PAIRS) == {"af", "ab", "fg", "eg", "bg", "cg", "de", "cd"}
    assert "bc" not in L_PAIRS and "ef" not in L_PAIRS
    # every L pair is two segments meeting at a corner: exactly the adjacent non-collinear pairs
    corners = {
        "a": ("TL", "TR"),
        "b": ("TR", "MR"),
        "c": ("MR", "BR"),
        "d": ("BL", "BR"),
        "e": ("ML", "BL"),
        "f": ("TL", "ML"),
        "g": ("ML", "MR"),
    }
    horizontal = set("adg")
    pairs = set()
    for x, y in itertools.combinations("abcdefg", 2):
        touch = set(corners[x]) & set(corners[y])
        if touch and ((x in horizontal) != (y in horizontal)):
            pairs.add(x + y)
    assert pairs == set(L_PAIRS)


def test_2_3_fifteen_placements_per_position() -> None:
    assert len(PLACEMENT_SEGS) == 15
    assert sum(1 for s in PLACEMENT_SEGS if s.bit_count() == 1) == 7
    assert sum(1 for s in PLACEMENT_SEGS if s.bit_count() == 2) == 8


@pytest.mark.parametrize("digit", range(10))
def test_2_5_every_digit_tiling(digit: int) -> None:
    expected = {parse_tiling(t) for t in TILINGS_2_5[digit].split(";")}
    assert set(G.tilings[digit]) == expected
    assert {tiling_text(m) for m in G.tilings[digit]} == {t.strip() for t in TILINGS_2_5[digit].split(";")}
    assert {counts(m) for m in G.tilings[digit]} == LS_OPTIONS[digit]


def test_2_5_tiling_counts() -> None:
    assert [len(G.tilings[d]) for d in range(10)] == [9, 1, 8, 8, 4, 8, 17, 2, 33, 17]
    assert sum(len(G.tilings[d]) for d in range(10)) == 107


def test_2_5_eight_by_LS() -> None:
    by = {}
    for m in G.tilings[8]:
        by[counts(m)] = by.get(counts(m), 0) + 1
    assert by == {(0, 7): 1, (1, 5): 8, (2, 3): 16, (3, 1): 8}


def test_2_5_most_L_per_digit_and_2L_plus_S() -> None:
    most = {d: max(counts(m)[0] for m in G.tilings[d]) for d in range(10)}
    assert most == {0: 2, 1: 0, 2: 2, 3: 2, 4: 1, 5: 2, 6: 3, 7: 1, 8: 3, 9: 3}
    for d in range(10):
        n = G.glyphs[d][0].bit_count()
        for m in G.tilings[d]:
            n_l, n_s = counts(m)
            assert 2 * n_l + n_s == n
            assert tiling_segments(m) == G.glyphs[d][0]


def test_2_7_panel_states_6473() -> None:
    assert len(G.panels) == 6473


def test_2_7_every_number_buildable() -> None:
    assert sorted(G.by_number) == list(range(100))
    assert all(G.by_number[n] for n in range(100))


def test_2_7_only_88_uses_all_ten_pieces() -> None:
    full = {G.number(p) for p in G.panels if counts(p) == (4, 6)}
    assert full == {88}
    assert all(counts(p) == (4, 6) for p in G.by_number[88])
    tens_segments = {
        n: G.glyphs[n // 10][0].bit_count() + G.glyphs[n % 10][0].bit_count() for n in range(100)
    }
    assert [n for n, c in tens_segments.items() if c == 14] == [88]


def test_2_7_thirteen_and_twelve_segment_numbers() -> None:
    for n in (8, 68, 80, 86, 89, 98):
        assert {counts(p) for p in G.by_number[n]} == {(4, 5)}, n
    twelve = (0, 6, 9, 28, 38, 58, 60, 66, 69, 82, 83, 85, 90, 96, 99)
    for n in twelve:
        assert {counts(p) for p in G.by_number[n]} == {(3, 6), (4, 4)}, n
    seg = {n: G.glyphs[n // 10][0].bit_count() + G.glyphs[n % 10][0].bit_count() for n in range(100)}
    assert sorted(n for n in range(100) if seg[n] == 12) == sorted(twelve)
    assert sorted(n for n in range(100) if seg[n] == 13) == [8, 68, 80, 86, 89, 98]


def test_2_7_piece_bounds_and_minimal_panels() -> None:
    sizes = {p: sum(counts(p)) for p in G.panels}
    assert max(sizes.values()) == 10 and min(sizes.values()) == 4
    assert {G.number(p) for p, s in sizes.items() if s == 4} == {11, 17, 71, 77}
    assert parse_panel("ab c|ab c") in G.panels
    assert {counts(p) for p in G.by_number[11]} == {(0, 4)}
    assert [
        n for n in range(100) if G.glyphs[n // 10][0].bit_count() + G.glyphs[n % 10][0].bit_count() == 4
    ] == [11]


def test_2_7_88_needs_4L_08_80_need_4L() -> None:
    for n in (88, 8, 80):
        assert min(counts(p)[0] for p in G.by_number[n]) == 4


@pytest.mark.parametrize(
    "text",
    [
        "e f|b c",  # a 1 on the left side
        "b c|",  # blank units
        "ab ab c|b c",  # overlap (the parser refuses a repeated placement) -> checked below
        "bc|b c",  # L on a collinear pair
    ],
)
def test_11_1_invalid_panels(text: str) -> None:
    try:
        p = parse_panel(text)
    except ValueError:
        return
    assert not G.is_valid(p)


def test_11_1_overlapping_pieces_invalid() -> None:
    # an L ab and a straight a on the same digit overlap on segment a
    p = parse_panel("ab a c|b c")
    assert not G.is_valid(p)


def test_11_1_five_L_or_seven_straights_invalid() -> None:
    # 88 with 5 L (impossible: at most 3 per digit, and 3+2 needs 14 = 10+... ) built directly
    five_l = parse_panel("ab cd fg e|ab cg de f")  # 3 L + 3 L = 6 L
    assert counts(five_l)[0] == 6 and not G.is_valid(five_l)
    five = parse_panel("ab cd fg e|ab c de f g")  # 5 L, 3 S
    assert counts(five)[0] == 5 and not G.is_valid(five)
    seven_s = parse_panel("a b c d e f g|b c")  # 81 with 9 straights
    assert counts(seven_s)[1] == 9 and not G.is_valid(seven_s)
    seven = parse_panel("a b c d e f g|ab c")  # 87 with 8 straights
    assert not G.is_valid(seven)


def test_2_2_glyphs_and_the_one_on_the_right() -> None:
    assert G.digit_of_glyph[segs("bc")] == 1
    assert segs("ef") not in G.digit_of_glyph
    assert (
        G.glyphs[6] == (segs("acdefg"),)
        and G.glyphs[9] == (segs("abcdfg"),)
        and G.glyphs[7] == (segs("abc"),)
    )


SUB_SUPER_2_6 = {
    0: ({1, 7}, {8}),
    1: (set(), {0, 3, 4, 7, 8, 9}),
    2: (set(), {8}),
    3: ({1, 7}, {8, 9}),
    4: ({1}, {8, 9}),
    5: (set(), {6, 8, 9}),
    6: ({5}, {8}),
    7: ({1}, {0, 3, 8, 9}),
    8: ({0, 1, 2, 3, 4, 5, 6, 7, 9}, set()),
    9: ({1, 3, 4, 5, 7}, {8}),
}


@pytest.mark.parametrize("digit", range(10))
def test_2_6_glyph_containment(digit: int) -> None:
    g = G.glyphs[digit][0]
    sub = {d for d in range(10) if d != digit and G.glyphs[d][0] & g == G.glyphs[d][0]}
    sup = {d for d in range(10) if d != digit and G.glyphs[d][0] & g == g}
    assert (sub, sup) == SUB_SUPER_2_6[digit]
    # and the tiling tables never go outside them
    for t in G.tilings[digit]:
        for t2 in G.subsets[t]:
            assert G.tiling_info[t2][0] in sub | {digit}
        for t2 in G.supersets[t]:
            assert G.tiling_info[t2][0] in sup | {digit}


def test_B11_alt_glyphs_regenerate_tilings() -> None:
    assert ALT.glyphs[6] == (segs("acdefg"), segs("cdefg"))
    assert segs("cdefg") in ALT.digit_of_glyph and segs("cdefg") not in G.digit_of_glyph
    assert len(ALT.tilings[7]) > len(G.tilings[7])
    assert parse_panel("cg d e f|b c") in ALT.panels  # 6 without a
    assert parse_panel("cg d e f|b c") not in G.panels
    assert parse_panel("ab c f|b c") in ALT.panels  # 7 with f
    assert ALT.number(parse_panel("ab c fg|b c")) == 91  # 9 without d
    assert len(ALT.panels) > len(G.panels)


def test_precomputed_at_import() -> None:
    assert data.STANDARD.panels and data.ALT.panels
    assert data.geometry(False) is data.STANDARD and data.geometry(True) is data.ALT
