"""Touché data: the cards, the 112-cell board (rules R1.3) and the pattern geometry (R1.4).

The board is loaded from :data:`BOARD_TEXT` (the grid of rule R1.3.4, verbatim) and checked
against the board invariants (``docs/rules/touche.md``, "Invariants") when this module is
imported. Everything the rules need per move is precomputed here once:

* ``CELL_CARD[i]``: the card code shown on cell ``i`` (``"FREE"`` or ``""`` for no cell), where
  ``i = row * 12 + col``;
* ``CARD_CELLS[code]``: the two cells showing a card;
* ``INSTANCES``: every pattern instance (mønster) as ``(type, cells)``;
* ``THROUGH[type][i]``: the instances of ``type`` that contain cell ``i``, so pattern detection
  after a placement only looks at patterns through the new marker (incremental detection).
"""

from __future__ import annotations

from collections import Counter

SIZE = 12
RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = "JK"
FREE = "FREE"

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_ORDER = {r: i for i, r in enumerate("23456789TJQKA")}
"""Rank order for the dealer draw (rule R1.1.3): 2 < 3 < ... < K < A."""

CARDS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""The 52 non-joker codes."""

BOARD_TEXT = """
      c0    c1    c2    c3    c4    c5    c6    c7    c8    c9    c10   c11
r0    ..    ..    ..    AH    2H    3H    4H    5H    6H    ..    ..    ..
r1    ..    ..    ..    7H    8H    FREE  9H    TH    JH    ..    ..    ..
r2    ..    ..    AD    AS    2S    QH    KH    3S    AC    2C    ..    ..
r3    2D    3D    4D    5D    4S    5S    6S    7S    3C    4C    5C    6C
r4    6D    7D    8D    9D    8S    9S    TS    JS    7C    8C    9C    TC
r5    TD    JD    QD    KD    QS    FREE  FREE  KS    JC    QC    FREE  KC
r6    KC    FREE  QC    JC    KS    FREE  FREE  QS    KD    QD    JD    TD
r7    TC    9C    8C    7C    JS    TS    9S    8S    9D    8D    7D    6D
r8    6C    5C    4C    3C    7S    6S    5S    4S    5D    4D    3D    2D
r9    ..    ..    2C    AC    3S    KH    QH    2S    AS    AD    ..    ..
r10   ..    ..    ..    JH    TH    9H    FREE  8H    7H    ..    ..    ..
r11   ..    ..    ..    6H    5H    4H    3H    2H    AH    ..    ..    ..
"""
"""The board of rule R1.3.4, as printed there (``..`` = no cell)."""

# Pattern types (mønstre), rule R1.4.
SQUARE, LINE, T, CROSS = 0, 1, 2, 3
TYPE_NAMES = ("square", "line", "T", "cross")
TYPE_NO = ("kvadrat", "linje", "T", "kryss")
TYPE_BY_NAME = {n.lower(): i for i, n in enumerate(TYPE_NAMES)}

ORIENTATIONS: dict[int, dict[str, tuple[tuple[int, int], ...]]] = {
    SQUARE: {"square": ((0, 0), (0, 1), (1, 0), (1, 1))},
    LINE: {
        "horizontal": tuple((0, k) for k in range(5)),
        "vertical": tuple((k, 0) for k in range(5)),
        "diagonal down-right": tuple((k, k) for k in range(5)),
        "diagonal down-left": tuple((k, -k) for k in range(5)),
    },
    T: {
        "T1": ((0, -1), (0, 0), (0, 1), (1, 0), (2, 0)),
        "T2": ((0, -1), (0, 0), (0, 1), (-1, 0), (-2, 0)),
        "T3": ((-1, 0), (0, 0), (1, 0), (0, 1), (0, 2)),
        "T4": ((-1, 0), (0, 0), (1, 0), (0, -1), (0, -2)),
        "T5": ((-1, -1), (0, 0), (1, 1), (1, -1), (2, -2)),
        "T6": ((-1, -1), (0, 0), (1, 1), (-1, 1), (-2, 2)),
        "T7": ((-1, 1), (0, 0), (1, -1), (1, 1), (2, 2)),
        "T8": ((-1, 1), (0, 0), (1, -1), (-1, -1), (-2, -2)),
    },
    CROSS: {
        "plus": ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)),
        "X": ((0, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)),
    },
}

# Targets by grade (rule R4): grade -> (types that count, two-sided target, three-sided target).
GRADES: dict[int, tuple[tuple[int, ...], int, int]] = {
    1: ((SQUARE,), 4, 3),
    2: ((LINE,), 3, 2),
    3: ((T,), 3, 2),
    4: ((CROSS,), 3, 2),
    5: ((SQUARE, LINE, T, CROSS), 3, 2),
}
GRADE_POINTS = {1: 5, 2: 10, 3: 15, 4: 20, 5: 25}
SHUTOUT_POINTS = 25


def cell_name(i: int) -> str:
    return f"r{i // SIZE}c{i % SIZE}"


def exists(r: int, c: int) -> bool:
    """Spec 1.3.3: a cell exists iff max(dr, dc) >= 3 or dr == dc == 2."""
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        return False
    dr, dc = min(r, SIZE - 1 - r), min(c, SIZE - 1 - c)
    return max(dr, dc) >= 3 or dr == dc == 2


def parse_board(text: str) -> list[str]:
    """The grid text -> a list of 144 codes ("" where there is no cell)."""
    rows = [ln.split() for ln in text.strip().splitlines()]
    header, body = rows[0], rows[1:]
    if header != [f"c{c}" for c in range(SIZE)] or len(body) != SIZE:
        raise ValueError("Touché: the board grid needs a c0..c11 header and rows r0..r11")
    out: list[str] = []
    for r, row in enumerate(body):
        if row[0] != f"r{r}" or len(row) != SIZE + 1:
            raise ValueError(f"Touché: board row {r} is malformed: {row}")
        out.extend("" if x == ".." else x for x in row[1:])
    return out


CELL_CARD: tuple[str, ...] = tuple(parse_board(BOARD_TEXT))
CELLS: tuple[int, ...] = tuple(i for i, x in enumerate(CELL_CARD) if x)
"""The 112 board cells (indices r*12+c) in reading order."""
FREE_CELLS: tuple[int, ...] = tuple(i for i in CELLS if CELL_CARD[i] == FREE)
IS_FREE: tuple[bool, ...] = tuple(x == FREE for x in CELL_CARD)
CELL_INDEX: dict[str, int] = {cell_name(i): i for i in CELLS}
CARD_CELLS: dict[str, tuple[int, int]] = {}
for _i in CELLS:
    if CELL_CARD[_i] != FREE:
        CARD_CELLS[CELL_CARD[_i]] = (*CARD_CELLS.get(CELL_CARD[_i], ()), _i)


def _build_instances() -> tuple[tuple[tuple[int, tuple[int, ...], str], ...], ...]:
    """All pattern instances per type: (type, sorted cells, orientation name)."""
    per_type = []
    for typ in (SQUARE, LINE, T, CROSS):
        seen: set[frozenset[int]] = set()
        found: list[tuple[int, tuple[int, ...], str]] = []
        for name, offsets in ORIENTATIONS[typ].items():
            for r in range(-2, SIZE + 2):
                for c in range(-2, SIZE + 2):
                    pos = [(r + dr, c + dc) for dr, dc in offsets]
                    if not all(exists(a, b) for a, b in pos):
                        continue
                    cells = frozenset(a * SIZE + b for a, b in pos)
                    if cells in seen:
                        continue
                    seen.add(cells)
                    found.append((typ, tuple(sorted(cells)), name))
        per_type.append(tuple(found))
    return tuple(per_type)


INSTANCES_BY_TYPE = _build_instances()
INSTANCES: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
    (typ, cells) for group in INSTANCES_BY_TYPE for typ, cells, _ in group
)
"""Every pattern instance as (type, sorted cell indices)."""
INSTANCE_ID: dict[tuple[int, ...], int] = {cells: k for k, (_, cells) in enumerate(INSTANCES)}
INSTANCE_FREES: tuple[int, ...] = tuple(sum(IS_FREE[c] for c in cells) for _, cells in INSTANCES)


def _through() -> tuple[tuple[tuple[int, ...], ...], ...]:
    acc: list[list[list[int]]] = [[[] for _ in range(SIZE * SIZE)] for _ in range(4)]
    for k, (typ, cells) in enumerate(INSTANCES):
        for c in cells:
            acc[typ][c].append(k)
    return tuple(tuple(tuple(x) for x in per) for per in acc)


THROUGH = _through()
"""THROUGH[type][cell] = ids of the instances of that type containing the cell."""
OTHERS: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(tuple(c for c in INSTANCES[k][1] if c != i) for k in THROUGH[t][i]) for i in range(SIZE * SIZE)
    )
    for t in range(4)
)
"""OTHERS[type][cell] = for each instance through the cell, its other cells."""
OTHER_BITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(sum(1 << c for c in others) for others in per_cell) for per_cell in per_type)
    for per_type in OTHERS
)
"""OTHERS as bit masks over cell indices: OTHER_BITS[type][cell] = for each instance through
the cell, its other cells as one integer (bit ``c`` for cell ``c``)."""


def _near(types: int, cell: int) -> int:
    near = 1 << cell
    for t in range(4):
        if types >> t & 1:
            for others in OTHER_BITS[t][cell]:
                near |= others
    return near


NEAR_BY_TYPES: tuple[tuple[int, ...], ...] = tuple(
    tuple(_near(types, i) for i in range(SIZE * SIZE)) for types in range(16)
)
"""``NEAR_BY_TYPES[types][cell]``: the cell and every other cell of an instance through it of
the pattern types in ``types`` (a bit mask of types, as ``ToucheState.mask``), as one bit mask:
what a marker there can advance or block while those types count (``[15]``: every type)."""
INSTANCE_BITS: tuple[int, ...] = tuple(sum(1 << c for c in cells) for _, cells in INSTANCES)
"""Each instance's cells as one bit mask, by instance id."""
CELL_BITS = sum(1 << c for c in CELLS)
"""Every board cell as one bit mask."""
FREE_BITS = sum(1 << c for c in FREE_CELLS)
"""The FREE spaces as one bit mask."""
CARD_BITS: dict[str, int] = {card: sum(1 << c for c in cells) for card, cells in CARD_CELLS.items()}
"""Per card (not the joker): its two spaces as one bit mask."""
NAMES: tuple[str, ...] = tuple(f"r{i // SIZE}c{i % SIZE}" for i in range(SIZE * SIZE))
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (i // SIZE + dr) * SIZE + i % SIZE + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and exists(i // SIZE + dr, i % SIZE + dc)
    )
    for i in range(SIZE * SIZE)
)
"""King-move neighbours on the board (every pattern is king-connected)."""


def check_board() -> None:
    """The board invariants (docs/rules/touche.md, "Invariants"); ValueError on a board that
    breaks one."""

    def fail(msg: str) -> None:
        raise ValueError(f"Touché board: {msg}")

    if len(CELLS) != 112:
        fail(f"{len(CELLS)} cells, not 112")
    if len(FREE_CELLS) != 8:
        fail(f"{len(FREE_CELLS)} free spaces, not 8")
    for i in range(SIZE * SIZE):
        if bool(CELL_CARD[i]) != exists(i // SIZE, i % SIZE):
            fail(f"{cell_name(i)} breaks the existence formula")
    counts = Counter(CELL_CARD[i] for i in CELLS if CELL_CARD[i] != FREE)
    if set(counts) != set(CARDS) or set(counts.values()) != {2}:
        fail("each of the 52 cards must appear exactly twice")
    for code, (a, b) in CARD_CELLS.items():
        if (a // SIZE < 6) == (b // SIZE < 6):
            fail(f"both copies of {code} are in one half")
        if max(abs(a // SIZE - b // SIZE), abs(a % SIZE - b % SIZE)) < 3:
            fail(f"the copies of {code} are closer than 3")
    n = [len(g) for g in INSTANCES_BY_TYPE]
    if n != [89, 224, 536, 144]:
        fail(f"instance counts {n}, not [89, 224, 536, 144]")


check_board()


def _type_ranges() -> tuple[range, ...]:
    out: list[range] = []
    lo = 0
    for group in INSTANCES_BY_TYPE:
        out.append(range(lo, lo + len(group)))
        lo += len(group)
    return tuple(out)


TYPE_RANGES = _type_ranges()
"""The ids of each type's instances in :data:`INSTANCES` (they are stored type by type)."""
assert all(INSTANCES[k][0] == t for t, r in enumerate(TYPE_RANGES) for k in r)

# ----------------------------------------------------------------- table constants

HAND = 5
"""Cards in a full hand (R3.6)."""
EMPTY = -1
CROWN = 3
"""``marks[cell]`` is EMPTY, a side (0..2: an uncrowned marker) or side + CROWN (crowned)."""
COLOURS = ("purple", "blue", "yellow")
"""The sides' colours (lilla, blå, gul), side 0..2."""
LAYOUT: list[list[str | None]] = [[CELL_CARD[r * SIZE + c] or None for c in range(SIZE)] for r in range(SIZE)]
"""The board for views: rows r0..r11 of card codes, "FREE", or None where there is no cell."""


def card_label(code: str) -> str:
    """``7♦``, ``10♥``, ``joker``."""
    if code == JOKER:
        return "joker"
    r = "10" if code[0] == "T" else code[0]
    return r + SUIT_SYMBOL[code[1]]


CARD_LABELS: dict[str, str] = {code: card_label(code) for code in (*CARDS, JOKER)}
"""``card_label`` of every card, computed once."""


def full_deck(jokers_per_deck: int) -> list[str]:
    """Both decks, unshuffled: every card twice and ``2 x jokers_per_deck`` jokers."""
    return [*CARDS, *CARDS, *([JOKER] * (2 * jokers_per_deck))]
