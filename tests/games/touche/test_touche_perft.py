"""Touché perft: the number of legal decision sequences from fixed positions, written as text,
counted by the engine (``spillebord.testing.legal_counts``) and by a brute force written here
from the rules alone (R5.1, R5.2, R5.4, R5.5, R6.1-R6.3, R4): every candidate action text
(every card of the hand on every board cell, every set of dead cards, pass, every pattern
instance to crown) is checked against the rule itself. The engine only carries out the chosen
actions (to reach the next position); it never says which actions are legal.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from spillebord.core import State
from spillebord.games.touche import GAME, ToucheOptions, ToucheState
from spillebord.games.touche.data import CELL_CARD, CELLS, CROSS, CROWN, EMPTY, INSTANCES, LINE, SQUARE, T
from spillebord.games.touche.position import board_text, from_text
from spillebord.testing import legal_counts, play

COUNTING_TYPES = {1: {SQUARE}, 2: {LINE}, 3: {T}, 4: {CROSS}, 5: {SQUARE, LINE, T, CROSS}}
"""R4: the pattern types that count at each grade."""


def name(c: int) -> str:
    return f"r{c // 12}c{c % 12}"


def qualifying(s: ToucheState, side: int) -> set[int]:
    """R4.1: the types that count for ``side`` (grade 5: one of each type)."""
    types = set(COUNTING_TYPES[s.grade])
    if s.grade == 5 and s.opts.grade5_distinct_types:
        types -= {INSTANCES[k][0] for owner, k in s.crowned if owner == side}
    return types


def supply_left(s: ToucheState, side: int, marks: list[int]) -> bool:
    """R1.2.3: the side still has a marker in its supply."""
    on_board = sum(1 for m in marks if m != EMPTY and m % CROWN == side)
    return s.opts.marker_supply is None or on_board < s.opts.marker_supply


def completed(s: ToucheState, side: int, cell: int, marks: list[int]) -> list[int]:
    """R6.1: the qualifying instances through ``cell`` whose every cell holds ``side``'s
    uncrowned marker on the board ``marks`` (with ``free_space_mode=wild``, one of them may be
    an empty free space, if the side has a marker left to put there)."""
    types = qualifying(s, side)
    wild = s.opts.free_space_mode == "wild" and supply_left(s, side, marks)
    out = []
    for k, (t, cells) in enumerate(INSTANCES):
        if t in types and cell in cells:
            missing = [c for c in cells if marks[c] != side]
            if not missing or (
                wild and len(missing) == 1 and is_free(missing[0]) and marks[missing[0]] == EMPTY
            ):
                out.append(k)
    return out


def is_free(cell: int) -> bool:
    return CELL_CARD[cell] == "FREE"


def brute_legal(s: ToucheState) -> set[str]:
    """Every legal action text, from the rules and a scan over all candidates."""
    seat = s.to_act
    if seat is None:
        return set()
    side = s.side_of[seat]
    if s.phase == "grade":
        return {f"grade {g}" for g in range(1, 6)}
    if s.phase == "crown":  # R6.3: the player picks one of the patterns the last marker completed
        return {
            "crown " + "+".join(name(c) for c in INSTANCES[k][1]) for k in completed(s, side, s.last, s.marks)
        }
    hand = s.hands[seat]
    out: set[str] = set()
    if supply_left(s, side, s.marks):
        for cell in CELLS:
            m = s.marks[cell]
            if is_free(cell):
                # R5.1b / R5.2c: any card, a joker too, but only as the last marker of a pattern
                if m != EMPTY or s.opts.free_space_mode == "wild":
                    continue
                after = list(s.marks)
                after[cell] = side
                cards = set(hand) if completed(s, side, cell, after) else set()
            else:
                cards = set()
                if m == EMPTY and CELL_CARD[cell] in hand:
                    cards.add(CELL_CARD[cell])  # R5.1a: the card shown on an empty space
                if "JK" in hand and (m == EMPTY or (0 <= m < CROWN and m != side)):
                    cards.add("JK")  # R5.2a/b: any empty card space, or another side's uncrowned marker
            out.update(f"place {card} {name(cell)}" for card in cards)

    def dead(card: str) -> bool:  # both of its spaces hold a marker (R5)
        return card != "JK" and all(s.marks[c] != EMPTY for c in CELLS if CELL_CARD[c] == card)

    dead_cards = sorted(c for c in hand if dead(c))
    for n in range(1, len(dead_cards) + 1):  # R5.4: any non-empty set of dead cards
        for subset in combinations(dead_cards, n):
            out.add("exchange " + "+".join(subset))
    return out or {"pass"}  # R5.5


def brute_counts(s: State[Any], depth: int) -> int:
    if depth == 0 or s.to_act is None:
        return 1
    assert isinstance(s, ToucheState)
    total = 0
    for text in sorted(brute_legal(s)):
        child = s.copy()
        play(child, text)
        total += brute_counts(child, depth - 1)
    return total


# R6.3 and R5.1b: purple holds two squares but one (7D on r4c1 completes both: a choice),
# three cells of the square around the free space r5c10 (any card completes it there); 5D
# is dead (blue on r3c3, purple on r8c8).
TWO_SQUARES = """
seats: 2
grade: 1
to act: 0
r3: p p p b . . . . . . . .
r4: p . p . . . . . . . p p
r5: . . . . . . . . . . . p
r8: . . . . . . . . p . . .
hand 0: 7D 5D 9D KH 2C
hand 1: AS 2S 3S 4S 8S
top 0: 3C JK
top 1: 6S
"""

# R5.2 and R2.4: four players, alternating seats (purple 0 and 2, blue 1 and 3), grade 2.
# Seat 0 holds a joker: any empty card space, or a blue uncrowned marker, never purple's own
# or blue's crowned line; three purple markers of a line beside a free space.
JOKER_TEAMS = """
seats: 4
grade: 2
to act: 0
crowned: r7c0+r7c1+r7c2+r7c3+r7c4
r1: - - - p p . p . . - - -
r2: - - . . . . b . . . - -
r4: b . . . . . . . . . . b
r7: B B B B B . . . . . . .
hand 0: JK TH 4D QD 6S
hand 1: AH 2H 3H 5H 6H
"""


@pytest.mark.parametrize(
    ("text", "options", "depths"),
    [
        pytest.param(TWO_SQUARES, None, (1, 2, 3), id="two-squares"),
        pytest.param(JOKER_TEAMS, ToucheOptions(grade=2, seating="alternating"), (1, 2), id="joker-teams"),
        pytest.param(TWO_SQUARES, ToucheOptions(grade=1, free_space_mode="wild"), (1, 2, 3), id="wild"),
        pytest.param(TWO_SQUARES, ToucheOptions(grade=1, marker_supply=9), (1, 2), id="supply"),
    ],
)
def test_perft_engine_equals_brute_force(
    text: str, options: ToucheOptions | None, depths: tuple[int, ...]
) -> None:
    s = from_text(text, options=options)
    s.check()
    for depth in depths:
        assert legal_counts(s, depth) == brute_counts(s, depth), f"depth {depth}"


def test_perft_two_squares_by_hand() -> None:
    """The first two depths of TWO_SQUARES counted from the rules by hand."""
    s = from_text(TWO_SQUARES)
    # 7D, 9D, KH, 2C: two empty spaces each (8); any of the 5 cards on the free r5c10 (5, the
    # dead 5D included); exchange 5D (1).
    assert legal_counts(s, 1) == 14
    legal = s.legal_texts()
    assert "place 7D r4c1" in legal and "place 5D r5c10" in legal and "exchange 5D" in legal
    assert "place 5D r3c3" not in legal and "place 5D r8c8" not in legal
    # After each: blue's 5 spades have 2 spaces each (10), except where purple's move left a
    # choice of crowns (7D r4c1: 2) or a crowned square cleared the board (no change for blue).
    child = s.copy()
    play(child, "place 7D r4c1")
    assert child.legal_texts() == ["crown r3c0+r3c1+r4c0+r4c1", "crown r3c1+r3c2+r4c1+r4c2"]
    assert legal_counts(s, 2) == 13 * 10 + 2


def test_perft_joker_teams_by_hand() -> None:
    s = from_text(JOKER_TEAMS, options=ToucheOptions(grade=2, seating="alternating"))
    # the joker: 104 card spaces less 11 taken (3 purple, 3 blue, 5 crowned blue) = 93, plus
    # the 3 uncrowned blue markers; TH, 4D, QD, 6S: both spaces empty (8). r1c5 completes nothing.
    assert legal_counts(s, 1) == 93 + 3 + 8
    assert "place JK r4c0" in s.legal_texts() and "place JK r1c3" not in s.legal_texts()
    assert "place JK r7c0" not in s.legal_texts() and "place JK r1c5" not in s.legal_texts()


def test_positions_from_text_round_trip() -> None:
    s = from_text(JOKER_TEAMS, options=ToucheOptions(grade=2, seating="alternating"))
    assert s.side_of == (0, 1, 0, 1) and s.to_act == 0 and s.counts == [0, 1]
    assert s.hands[0] == ("4D", "6S", "JK", "QD", "TH") and s.on_board == [3, 8]
    again = from_text(
        "seats: 4\ngrade: 2\n" + board_text(s), options=ToucheOptions(grade=2, seating="alternating")
    )
    assert again.marks == s.marks and again.crowned == s.crowned
    top = from_text(TWO_SQUARES)
    assert top.piles[0][-2:] == ("JK", "3C") and top.piles[1][-1] == "6S"
    top.check()


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("r0: . . . . . . . . . . . .", "is not a board cell"),
        ("r3: p p", "needs 12 cells"),
        ("r3: x . . . . . . . . . . .", "is not one of"),
        ("r3: P . . . . . . . . . . .", "outside a crowned pattern"),
        (
            "crowned: r3c0+r3c1+r4c0+r4c1\nr3: P P . . . . . . . . . .\nr4: P b . . . . . . . . . .",
            "one capital",
        ),
        ("colour: purple", "unknown line"),
        ("grade 2", "not 'key: value'"),
    ],
)
def test_positions_from_text_refuse_bad_text(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        from_text(text)


def test_the_game_is_generic_in_its_state() -> None:
    assert isinstance(GAME.new(2, 0), ToucheState)
