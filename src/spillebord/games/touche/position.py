"""Touché positions from a description: for tests, puzzles and bug reports.

:func:`position` builds a state from keyword arguments; :func:`from_text` reads the same from a
small text, a board picture included::

    seats: 2
    grade: 1
    to act: 0
    r3: b b . . . . . . . . . .
    r4: b . . . . . . . . . . .
    crowned: r7c0+r7c1+r8c0+r8c1
    r7: P P . . . . . . . . . .
    r8: P P . . . . . . . . . .
    hand 0: 7D AS 2S 3S 4S
    top 0: KH 9S

Board rows ``rN:`` give the 12 cells of row N: ``-`` where the board has no cell, ``.`` an empty
cell, ``p``/``b``/``y`` an uncrowned purple/blue/yellow marker, ``P``/``B``/``Y`` a crowned one
(rows not given are empty). Every crowned marker belongs to one ``crowned:`` pattern (its cells
joined with ``+``). ``hand N:`` and ``discards N:`` list a seat's cards; ``top N:`` the next
cards seat N draws, in order. Every other card is shuffled (from ``seed``) into the piles, and
seats without a ``hand`` line draw 5 of them. ``#`` starts a comment.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from . import GAME
from .data import CELL_CARD, CELL_INDEX, CROWN, EMPTY, HAND, INSTANCE_ID, INSTANCES, SIZE, full_deck
from .options import ToucheOptions
from .rules import ToucheState

LETTERS = "pby"
"""The board letter of each side's uncrowned marker (capital: crowned)."""


def position(
    seats: int = 2,
    *,
    grade: int = 1,
    marks: Mapping[str, int] | None = None,
    crowned: Sequence[tuple[int, Sequence[str]]] = (),
    hands: Mapping[int, Sequence[str]] | None = None,
    discards: Mapping[int, Sequence[str]] | None = None,
    tops: Mapping[int, Sequence[str]] | None = None,
    to_act: int = 0,
    dealer: int | None = None,
    options: ToucheOptions | None = None,
    seed: int = 0,
) -> ToucheState:
    """A position in phase ``play``, built from a compact description.

    ``marks``: cell -> side of an uncrowned marker; ``crowned``: (side, cells) patterns;
    ``hands``/``discards``: seat -> cards; ``tops``: seat -> the next cards it draws, in order;
    the rest of the cards are dealt into the piles (seats without a hand first draw 5).
    """
    o = options if options is not None else ToucheOptions(grade=grade)
    if o.grade != grade:
        o = replace(o, grade=grade)
    s = GAME.new(seats, seed, o)
    s.dealer = (to_act - 1) % seats if dealer is None else dealer
    s.to_act = to_act
    s.phase = "play"
    s.grade = grade
    s.marks = [EMPTY] * 144
    s.on_board = [0] * s.n_sides
    s.crowned = ()
    s.counts = [0] * s.n_sides
    s.ctypes = [0] * s.n_sides
    for side, names in crowned:
        k = INSTANCE_ID[tuple(sorted(CELL_INDEX[c] for c in names))]
        for c in INSTANCES[k][1]:
            s.marks[c] = side + CROWN
            s.on_board[side] += 1
        s.crowned = (*s.crowned, (side, k))
        s.counts[side] += 1
        s.ctypes[side] |= 1 << INSTANCES[k][0]
    for name, side in (marks or {}).items():
        s.marks[CELL_INDEX[name]] = side
        s.on_board[side] += 1
    deck = full_deck(o.jokers_per_deck)
    s.rng.shuffle(deck)
    rest = Counter(deck)
    new_hands: list[tuple[str, ...]] = []
    new_discards: list[tuple[str, ...]] = []
    for seat in range(seats):
        h = tuple(sorted((hands or {}).get(seat, ())))
        d = tuple((discards or {}).get(seat, ()))
        rest.subtract(h)
        rest.subtract(d)
        rest.subtract((tops or {}).get(seat, ()))
        new_hands.append(h)
        new_discards.append(d)
    if any(v < 0 for v in rest.values()):
        raise ValueError("position: more copies of a card than the deck holds")
    pool: list[str] = []
    for card in deck:
        if rest[card] > 0:
            rest[card] -= 1
            pool.append(card)
    piles: list[list[str]] = [[] for _ in range(seats)]
    for seat in range(seats):
        if hands is None or seat not in hands:
            while len(new_hands[seat]) < HAND and pool:
                new_hands[seat] = tuple(sorted((*new_hands[seat], pool.pop())))
    for i, card in enumerate(pool):
        piles[i % seats].append(card)
    for seat, cards in (tops or {}).items():
        piles[seat].extend(reversed(cards))  # the top of a pile is its end
    s.hands = new_hands
    s.discards = new_discards
    s.piles = [tuple(p) for p in piles]
    s.turn = 0
    s.stall = 0
    s.pending = ()
    s.refresh()
    return s


def from_text(text: str, *, options: ToucheOptions | None = None, seed: int = 0) -> ToucheState:
    """A position from its text (see the module docstring); ``ValueError`` on a bad one."""
    settings: dict[str, int | None] = {}
    marks: dict[str, int] = {}
    capitals: dict[str, int] = {}
    crowned_cells: list[list[str]] = []
    cards: dict[str, dict[int, list[str]]] = {"hand": {}, "discards": {}, "top": {}}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"position: {raw.strip()!r} is not 'key: value'")
        key, words = key.strip().lower(), value.split()
        if key in ("seats", "grade", "to act", "dealer"):
            settings[key] = int(value)
        elif key == "crowned":
            crowned_cells.append(value.strip().lower().split("+"))
        elif key.split()[0] in cards and len(key.split()) == 2:
            cards[key.split()[0]][int(key.split()[1])] = [w.upper() for w in words]
        elif key[:1] == "r" and key[1:].isdigit() and int(key[1:]) < SIZE:
            r = int(key[1:])
            if len(words) != SIZE:
                raise ValueError(f"position: row r{r} needs {SIZE} cells, not {len(words)}")
            for c, w in enumerate(words):
                name, here = f"r{r}c{c}", bool(CELL_CARD[r * SIZE + c])
                if (w == "-") == here:
                    raise ValueError(f"position: {name} {'is' if here else 'is not'} a board cell")
                if w in ("-", "."):
                    continue
                if w.lower() not in LETTERS:
                    raise ValueError(f"position: {w!r} at {name} is not one of - . p b y P B Y")
                side = LETTERS.index(w.lower())
                (capitals if w.isupper() else marks)[name] = side
        else:
            raise ValueError(f"position: unknown line {raw.strip()!r}")
    crowned: list[tuple[int, list[str]]] = []
    for cells in crowned_cells:
        sides = {capitals.pop(c, None) for c in cells}
        if len(sides) != 1 or None in sides:
            raise ValueError(f"position: the crowned pattern {'+'.join(cells)} needs one capital letter")
        owner = sides.pop()
        assert owner is not None
        if tuple(sorted(CELL_INDEX[c] for c in cells)) not in INSTANCE_ID:
            raise ValueError(f"position: {'+'.join(cells)} is not a pattern")
        crowned.append((owner, cells))
    if capitals:
        raise ValueError(f"position: crowned markers outside a crowned pattern: {sorted(capitals)}")
    grade = settings.get("grade") or (options.grade if options is not None and options.grade else 1)
    return position(
        settings.get("seats") or 2,
        grade=grade,
        marks=marks,
        crowned=crowned,
        hands=cards["hand"] or None,
        discards=cards["discards"],
        tops=cards["top"],
        to_act=settings.get("to act") or 0,
        dealer=settings.get("dealer"),
        options=options,
        seed=seed,
    )


def board_text(s: ToucheState) -> str:
    """The board rows of :func:`from_text` for ``s`` (with its ``crowned:`` lines)."""
    lines = [
        "crowned: " + "+".join(f"r{c // SIZE}c{c % SIZE}" for c in INSTANCES[k][1]) for _, k in s.crowned
    ]
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            i = r * SIZE + c
            m = s.marks[i]
            if not CELL_CARD[i]:
                row.append("-")
            elif m == EMPTY:
                row.append(".")
            else:
                row.append(LETTERS[m % CROWN].upper() if m >= CROWN else LETTERS[m])
        lines.append(f"r{r}: " + " ".join(row))
    return "\n".join(lines)


__all__ = ["LETTERS", "board_text", "from_text", "position"]
