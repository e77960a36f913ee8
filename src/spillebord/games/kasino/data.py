"""Kasino data: the 52-card deck, card ids and the card values of spec rule 1.

A card is an ``int`` 0..51: ``(rank - 1) * 4 + suit`` with rank 1 (ace) .. 13 (king) and
suit 0..3 = spades, hearts, diamonds, clubs. Its stable id is rank + suit letter:
``"AS"``, ``"10D"``, ``"KH"`` (the ids used in views, action texts and ``to_json``).

Values are kept as bitmasks (bit v set = the card may take value v) so that subset sums are
shifts and ORs; see ``rules.py``.
"""

from __future__ import annotations

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES_DA = ("spar", "hjerter", "ruder", "klør")
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

DECK = tuple(range(52))


def card(rank: int, suit: int) -> int:
    """The card of ``rank`` (1..13) and ``suit`` (0..3, spades/hearts/diamonds/clubs)."""
    return (rank - 1) * 4 + suit


CARD_IDS: tuple[str, ...] = tuple(RANK_NAMES[c // 4] + SUITS[c % 4] for c in DECK)
CARD_INDEX: dict[str, int] = {cid: c for c, cid in enumerate(CARD_IDS)}
CARD_SYMBOLS: tuple[str, ...] = tuple(RANK_NAMES[c // 4] + SUIT_SYMBOLS[c % 4] for c in DECK)
RANK: tuple[int, ...] = tuple(c // 4 + 1 for c in DECK)
SUIT: tuple[int, ...] = tuple(c % 4 for c in DECK)
IS_SPADE: tuple[bool, ...] = tuple(c % 4 == 0 for c in DECK)
IS_ACE: tuple[bool, ...] = tuple(c // 4 == 0 for c in DECK)

SPADE5 = card(5, 0)
"""♠5: clears the table (spar 5 rydder bordet), rule 7."""
LITTLE_CASINO = card(2, 0)
"""♠2, lille kasino: 2 or 15, 1 point."""
BIG_CASINO = card(10, 2)
"""♦10, store kasino: 10 or 16, 2 points."""

# val(c), rule 1.2: (low, high) for two-valued cards, (v,) otherwise.
VALUES: tuple[tuple[int, ...], ...] = tuple(
    (1, 14)
    if RANK[c] == 1
    else (2, 15)
    if c == LITTLE_CASINO
    else (10, 16)
    if c == BIG_CASINO
    else (RANK[c],)
    for c in DECK
)

VALUE_MODES = ("either", "hand_high_table_low")


def _mask(vals: tuple[int, ...]) -> int:
    m = 0
    for v in vals:
        m |= 1 << v
    return m


def hand_values(mode: str) -> tuple[tuple[int, ...], ...]:
    """val_h(c) per card for a value mode (rule 1.4)."""
    if mode == "either":
        return VALUES
    return tuple(vals[-1:] for vals in VALUES)


def table_values(mode: str) -> tuple[tuple[int, ...], ...]:
    """val_t(c) per card for a value mode (rule 1.4)."""
    if mode == "either":
        return VALUES
    return tuple(vals[:1] for vals in VALUES)


HAND_VALUES: dict[str, tuple[tuple[int, ...], ...]] = {m: hand_values(m) for m in VALUE_MODES}
TABLE_VALUES: dict[str, tuple[tuple[int, ...], ...]] = {m: table_values(m) for m in VALUE_MODES}
HAND_MASKS: dict[str, tuple[int, ...]] = {m: tuple(_mask(v) for v in HAND_VALUES[m]) for m in VALUE_MODES}
TABLE_MASKS: dict[str, tuple[int, ...]] = {m: tuple(_mask(v) for v in TABLE_VALUES[m]) for m in VALUE_MODES}
# Table values as (low, high-or-0), for the subset-sum shifts.
TABLE_LO_HI: dict[str, tuple[tuple[int, int], ...]] = {
    m: tuple((v[0], v[1] if len(v) > 1 else 0) for v in TABLE_VALUES[m]) for m in VALUE_MODES
}

BUILD_VALUES_MASK = _mask(tuple(range(2, 17)))
"""Declared build values 2..16 (rules 1.5, 8.1.1)."""


def _pair_sums(mode: str) -> tuple[tuple[int, ...], ...]:
    hv, tv = HAND_VALUES[mode], TABLE_VALUES[mode]
    return tuple(
        tuple(_mask(tuple(x + y for x in hv[h] for y in tv[t])) & BUILD_VALUES_MASK for t in DECK)
        for h in DECK
    )


PAIR_SUMS: dict[str, tuple[tuple[int, ...], ...]] = {m: _pair_sums(m) for m in VALUE_MODES}
"""PAIR_SUMS[mode][h][t]: build values (bitmask) of hand card h put on table card t (8.2.1)."""

NUMBER_NAMES_DA = {
    2: "to",
    3: "tre",
    4: "fire",
    5: "fem",
    6: "seks",
    7: "syv",
    8: "otte",
    9: "ni",
    10: "ti",
    11: "elleve",
    12: "tolv",
    13: "tretten",
    14: "fjorten",
    15: "femten",
    16: "seksten",
}


def parse_card(text: str) -> int:
    """``"10D"`` → card int; raises KeyError on anything else (case-insensitive)."""
    return CARD_INDEX[text.strip().upper()]
