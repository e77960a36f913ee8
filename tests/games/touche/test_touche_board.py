"""Touché board and pattern geometry: rules R1.3, R1.4 and the board invariants (docs/rules/touche.md)."""

from __future__ import annotations

from collections import Counter

from spillebord.games.touche.data import (
    CARD_CELLS,
    CELL_CARD,
    CELL_INDEX,
    CELLS,
    CROSS,
    FREE_CELLS,
    INSTANCE_FREES,
    INSTANCE_ID,
    INSTANCES,
    INSTANCES_BY_TYPE,
    LINE,
    SQUARE,
    THROUGH,
    T,
    cell_name,
    exists,
)

SPEC_TABLE = """
AS r2c3+r9c8   2S r2c4+r9c7   3S r2c7+r9c4   4S r3c4+r8c7   5S r3c5+r8c6   6S r3c6+r8c5   7S r3c7+r8c4
8S r4c4+r7c7   9S r4c5+r7c6   TS r4c6+r7c5   JS r4c7+r7c4   QS r5c4+r6c7   KS r5c7+r6c4
AH r0c3+r11c8  2H r0c4+r11c7  3H r0c5+r11c6  4H r0c6+r11c5  5H r0c7+r11c4  6H r0c8+r11c3  7H r1c3+r10c8
8H r1c4+r10c7  9H r1c6+r10c5  TH r1c7+r10c4  JH r1c8+r10c3  QH r2c5+r9c6   KH r2c6+r9c5
AD r2c2+r9c9   2D r3c0+r8c11  3D r3c1+r8c10  4D r3c2+r8c9   5D r3c3+r8c8   6D r4c0+r7c11  7D r4c1+r7c10
8D r4c2+r7c9   9D r4c3+r7c8   TD r5c0+r6c11  JD r5c1+r6c10  QD r5c2+r6c9   KD r5c3+r6c8
AC r2c8+r9c3   2C r2c9+r9c2   3C r3c8+r8c3   4C r3c9+r8c2   5C r3c10+r8c1  6C r3c11+r8c0  7C r4c8+r7c3
8C r4c9+r7c2   9C r4c10+r7c1  TC r4c11+r7c0  JC r5c8+r6c3   QC r5c9+r6c2   KC r5c11+r6c0
"""


def cells(*names: str) -> tuple[int, ...]:
    return tuple(sorted(CELL_INDEX[n] for n in names))


def kind_of(*names: str) -> int | None:
    k = INSTANCE_ID.get(cells(*names))
    return None if k is None else INSTANCES[k][0]


def test_R1_3_1_board_has_112_cells_8_free_each_card_twice() -> None:
    assert len(CELLS) == 112
    assert len(FREE_CELLS) == 8
    counts = Counter(CELL_CARD[c] for c in CELLS if CELL_CARD[c] != "FREE")
    assert len(counts) == 52 and set(counts.values()) == {2}
    assert "JK" not in counts


def test_R1_3_3_existence_formula() -> None:
    for r in range(12):
        for c in range(12):
            dr, dc = min(r, 11 - r), min(c, 11 - c)
            assert exists(r, c) == (max(dr, dc) >= 3 or dr == dc == 2)
            assert bool(CELL_CARD[r * 12 + c]) == exists(r, c)


def test_R1_3_7_card_positions_match_the_spec_table() -> None:
    words = SPEC_TABLE.split()
    table = {words[i]: words[i + 1] for i in range(0, len(words), 2)}
    assert len(table) == 52
    for code, where in table.items():
        a, b = where.split("+")
        assert CARD_CELLS[code] == (CELL_INDEX[a], CELL_INDEX[b]), code


def test_R1_3_5_bottom_half_is_top_half_rotated() -> None:
    for c in CELLS:
        r, col = divmod(c, 12)
        assert CELL_CARD[c] == CELL_CARD[(11 - r) * 12 + (11 - col)]
    top = Counter(CELL_CARD[c] for c in CELLS if c < 72 and CELL_CARD[c] != "FREE")
    assert set(top.values()) == {1} and len(top) == 52


def test_R1_3_5_free_spaces_and_their_90_degree_symmetry() -> None:
    names = {cell_name(c) for c in FREE_CELLS}
    assert names == {"r1c5", "r5c5", "r5c6", "r5c10", "r10c6", "r6c6", "r6c5", "r6c1"}
    rotated = {(c % 12) * 12 + (11 - c // 12) for c in FREE_CELLS}
    assert rotated == set(FREE_CELLS)


def test_R1_3_5_each_suit_is_one_connected_block_per_half() -> None:
    for suit in "SHDC":
        block = {c for c in CELLS if c < 72 and CELL_CARD[c] != "FREE" and CELL_CARD[c][1] == suit}
        start = next(iter(block))
        seen, todo = {start}, [start]
        while todo:
            x = todo.pop()
            for d in (1, -1, 12, -12):
                y = x + d
                if y in block and y not in seen and (abs(d) == 12 or y // 12 == x // 12):
                    seen.add(y)
                    todo.append(y)
        assert seen == block, suit


def test_R1_3_6_copies_spread_apart() -> None:
    dist = {}
    for code, (a, b) in CARD_CELLS.items():
        assert (a < 72) != (b < 72)
        dist[code] = max(abs(a // 12 - b // 12), abs(a % 12 - b % 12))
    assert {c for c, d in dist.items() if d == 3} == {"8S", "9S", "TS", "JS", "QS", "KS"}
    assert Counter(dist.values()) == {3: 6, 5: 10, 7: 14, 9: 10, 11: 12}


def test_R1_4_5_instance_counts() -> None:
    assert [len(g) for g in INSTANCES_BY_TYPE] == [89, 224, 536, 144]
    multi = Counter(INSTANCES[k][0] for k in range(len(INSTANCES)) if INSTANCE_FREES[k] >= 2)
    assert multi == {SQUARE: 5, LINE: 28, T: 40, CROSS: 8}


def test_R1_4_instances_are_distinct_cell_sets_on_the_board() -> None:
    sets = [frozenset(cs) for _, cs in INSTANCES]
    assert len(set(sets)) == len(sets)
    assert all(CELL_CARD[c] for s in sets for c in s)


def test_THROUGH_lists_every_instance_through_each_cell() -> None:
    for t in range(4):
        for c in range(144):
            expect = tuple(k for k, (typ, cs) in enumerate(INSTANCES) if typ == t and c in cs)
            assert THROUGH[t][c] == expect


def test_T13_pattern_shapes() -> None:
    t1 = ("r3c1", "r3c2", "r3c3", "r4c2", "r5c2")
    assert kind_of(*t1) == T
    assert [CELL_CARD[c] for c in cells(*t1)] == ["3D", "4D", "5D", "8D", "QD"]
    t5 = ("r3c1", "r4c2", "r5c3", "r5c1", "r6c0")
    assert kind_of(*t5) == T
    assert sorted(CELL_CARD[c] for c in cells(*t5)) == sorted(["3D", "8D", "KD", "JD", "KC"])
    x = ("r3c2", "r3c4", "r4c3", "r5c2", "r5c4")
    assert kind_of(*x) == CROSS
    assert sorted(CELL_CARD[c] for c in cells(*x)) == sorted(["4D", "4S", "9D", "QD", "QS"])
    # L- and S-shapes of five are never patterns; nor a tilted square or a 3x3 block.
    assert kind_of("r3c0", "r4c0", "r5c0", "r5c1", "r5c2") is None
    assert kind_of("r3c0", "r3c1", "r4c1", "r4c2", "r5c2") is None
    assert kind_of("r3c1", "r4c0", "r4c2", "r5c1") is None
    assert kind_of("r3c4", "r3c5", "r4c4", "r4c5") == SQUARE


def test_R1_4_every_orientation_is_present() -> None:
    assert kind_of("r3c0", "r3c1", "r3c2", "r3c3", "r3c4") == LINE
    assert kind_of("r3c0", "r4c0", "r5c0", "r6c0", "r7c0") == LINE
    assert kind_of("r3c3", "r4c4", "r5c5", "r6c6", "r7c7") == LINE
    assert kind_of("r3c7", "r4c6", "r5c5", "r6c4", "r7c3") == LINE
    m = (4, 4)

    def at(offsets: list[tuple[int, int]]) -> tuple[str, ...]:
        return tuple(f"r{m[0] + a}c{m[1] + b}" for a, b in offsets)

    ts = [
        [(0, -1), (0, 0), (0, 1), (1, 0), (2, 0)],
        [(0, -1), (0, 0), (0, 1), (-1, 0), (-2, 0)],
        [(-1, 0), (0, 0), (1, 0), (0, 1), (0, 2)],
        [(-1, 0), (0, 0), (1, 0), (0, -1), (0, -2)],
        [(-1, -1), (0, 0), (1, 1), (1, -1), (2, -2)],
        [(-1, -1), (0, 0), (1, 1), (-1, 1), (-2, 2)],
        [(-1, 1), (0, 0), (1, -1), (1, 1), (2, 2)],
        [(-1, 1), (0, 0), (1, -1), (-1, -1), (-2, -2)],
    ]
    for offs in ts:
        assert kind_of(*at(offs)) == T, offs
    assert kind_of(*at([(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)])) == CROSS
    assert kind_of(*at([(0, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)])) == CROSS


def test_T14_uncompletable_instance_has_two_free_spaces() -> None:
    k = INSTANCE_ID[cells("r2c2", "r3c3", "r4c4", "r5c5", "r6c6")]
    assert INSTANCES[k][0] == LINE
    assert INSTANCE_FREES[k] == 2
