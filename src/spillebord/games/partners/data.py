"""Partners as data: the board geometry, the card types and the deck profiles.

Board (R1.2): a ring of 60 track positions T0…T59 (clockwise = increasing index). The
start fields (startfelt) are T0 (Yellow), T15 (Red), T30 (Blue), T45 (Green); colour c's
numbered squares c1…c14 follow its start field. Each colour also has a start circle
(startcirkel, off the board) and a house (hus) of four circles H1 (entry) … H4 (innermost).

Positions of a piece of colour c are small integers:

* ``CIRCLE`` (-1): in c's start circle;
* ``0 … 59``: on the track;
* ``HOUSE + k`` (60 … 63): on c's house circle H(k+1).

Square ids used in views and action JSON: ``"YS"`` (Yellow's start field), ``"Y1"`` … ``"Y14"``,
``"YH1"`` … ``"YH4"`` (Yellow's house), ``"YC"`` (Yellow's start circle); likewise R, B, G.
Action texts use the same ids in lower case.
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS = ("yellow", "red", "blue", "green")
"""Seat i plays colour i (R1.1): Yellow 0, Red 1, Blue 2, Green 3, clockwise."""
COLOURS_DA = ("gul", "rød", "blå", "grøn")
LETTERS = ("Y", "R", "B", "G")

TRACK = 60
SEGMENT = 15
"""A start field plus 14 numbered squares (D4: ``fields_per_segment`` = 14)."""
CIRCLE = -1
HOUSE = 60
HOUSE_SIZE = 4
START_FIELD = (0, 15, 30, 45)
"""S_c, the start field of colour c (R1.2.2)."""


def partner(seat: int) -> int:
    """A seat's partner sits opposite (R1.1.2)."""
    return (seat + 2) % 4


def team(seat: int) -> int:
    """Partnership 0 = Yellow+Blue (seats 0, 2); partnership 1 = Red+Green (seats 1, 3)."""
    return seat % 2


def is_start_field(i: int) -> bool:
    return 0 <= i < TRACK and i % SEGMENT == 0


def square_id(colour: int, pos: int) -> str:
    """The id of position ``pos`` of a piece of ``colour`` (the colour matters for circle and house)."""
    if pos == CIRCLE:
        return LETTERS[colour] + "C"
    if pos >= HOUSE:
        return f"{LETTERS[colour]}H{pos - HOUSE + 1}"
    return TRACK_IDS[pos]


TRACK_IDS: tuple[str, ...] = tuple(
    LETTERS[i // SEGMENT] + ("S" if i % SEGMENT == 0 else str(i % SEGMENT)) for i in range(TRACK)
)
"""``TRACK_IDS[i]`` is the id of track position T(i): "YS", "Y1", …, "G14"."""
TRACK_INDEX: dict[str, int] = {s: i for i, s in enumerate(TRACK_IDS)}


def parse_square(text: str) -> tuple[int | None, int]:
    """``"y12"`` → (None, 12); ``"yh2"`` → (0, 61); ``"yc"`` → (0, -1). Raises KeyError/ValueError."""
    t = text.strip().upper()
    if t in TRACK_INDEX:
        return None, TRACK_INDEX[t]
    if len(t) == 2 and t[1] == "C":
        return LETTERS.index(t[0]), CIRCLE
    if len(t) == 3 and t[1] == "H" and t[2] in "1234":
        return LETTERS.index(t[0]), HOUSE + int(t[2]) - 1
    raise KeyError(text)


# --------------------------------------------------------------------------- cards


@dataclass(frozen=True, slots=True)
class CardType:
    """One card type of the deck (R1.3)."""

    code: str
    name_en: str
    name_da: str
    start: bool
    """A start card (startkort): brings a piece from the start circle onto the start field."""
    forward: tuple[int, ...]
    """The forward counts the card offers (each one a choice)."""
    backward: int = 0
    split: bool = False
    swap: bool = False
    draw_value: int = 0
    """Its value when drawing for the first dealer (R2.2: HEART and SWAP count 0)."""
    symbol: str = ""


CARD_TYPES: dict[str, CardType] = {
    c.code: c
    for c in (
        CardType("HEART", "heart (start card)", "hjertekort (startkort)", True, (), symbol="♥"),
        CardType("A114", "1/14", "1/14-kortet", False, (1, 14), draw_value=14, symbol="1/14"),
        CardType("N2", "2", "2", False, (2,), draw_value=2, symbol="2"),
        CardType("N3", "3", "3", False, (3,), draw_value=3, symbol="3"),
        CardType("M4", "-4 (four backwards)", "-4 (4 baglæns)", False, (), 4, draw_value=4, symbol="-4"),
        CardType("N5", "5", "5", False, (5,), draw_value=5, symbol="5"),
        CardType("N6", "6", "6", False, (6,), draw_value=6, symbol="6"),
        CardType("S7", "7 (split card)", "7 (delekort)", False, (), split=True, draw_value=7, symbol="7"),
        CardType("H8", "8 with heart", "8 med hjerte", True, (8,), draw_value=8, symbol="8♥"),
        CardType("N9", "9", "9", False, (9,), draw_value=9, symbol="9"),
        CardType("N10", "10", "10", False, (10,), draw_value=10, symbol="10"),
        CardType("N12", "12", "12", False, (12,), draw_value=12, symbol="12"),
        CardType("H13", "13 with heart", "13 med hjerte", True, (13,), draw_value=13, symbol="13♥"),
        CardType("SWAP", "swap card", "byttekort", False, (), swap=True, symbol="⇄"),
    )
}
CARD_ORDER: dict[str, int] = {code: i for i, code in enumerate(CARD_TYPES)}
START_CARDS = frozenset(c for c, t in CARD_TYPES.items() if t.start)

DeckProfile = tuple[tuple[str, int], ...]
"""A deck as data: (card type code, count) pairs."""

CLASSIC56: DeckProfile = tuple((code, 4) for code in CARD_TYPES)
"""The published box (R1.3): 14 types, 4 of each (the per-type count is unpublished: a decision)."""
TEXT52: DeckProfile = tuple((code, 4) for code in CARD_TYPES if code != "N2")
"""The default (D1): ``classic56`` without the four 2s: the seed's arithmetic (48 dealt, 4 over)."""
PROFILES: dict[str, DeckProfile] = {"text52": TEXT52, "classic56": CLASSIC56}


def parse_profile(text: str) -> DeckProfile:
    """``"HEART:4, N5:8, S7:4"`` → (("HEART", 4), ("N5", 8), ("S7", 4)). Raises ValueError."""
    out: list[tuple[str, int]] = []
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        code, _, count = part.partition(":")
        code = code.strip().upper()
        if code not in CARD_TYPES:
            raise ValueError(f"unknown card type {code!r}; known: {', '.join(CARD_TYPES)}")
        n = int(count) if count.strip() else 1
        if n < 0:
            raise ValueError(f"negative count for {code}")
        out.append((code, n))
    return tuple(out)


def deck_cards(profile: DeckProfile) -> tuple[str, ...]:
    """The whole deck as a sorted tuple of card codes."""
    return tuple(sorted((code for code, n in profile for _ in range(n)), key=CARD_ORDER.__getitem__))


def sort_cards(cards: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=CARD_ORDER.__getitem__))


def seat_controllers(people: int) -> tuple[int, ...]:
    """Who controls each of the four seats with 2–4 people (R10).

    2 people: person 0 plays Yellow and Blue, person 1 Red and Green. 3 people: person 0 plays
    the whole Yellow+Blue partnership, persons 1 and 2 are the partners Red and Green.
    """
    if people == 4:
        return (0, 1, 2, 3)
    if people == 3:
        return (0, 1, 0, 2)
    if people == 2:
        return (0, 1, 0, 1)
    raise ValueError("Partners is for 2–4 people")
