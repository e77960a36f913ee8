"""Touché rules: every worked case T1-T19 and the numbered rules of docs/rules/touche.md, with
exact outcomes."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from spillebord.core import OptionError, Rng
from spillebord.games.touche import GAME, Exchange, Pass, Place, ToucheOptions
from spillebord.games.touche.data import CELL_INDEX, CROWN, EMPTY
from spillebord.games.touche.position import position
from spillebord.games.touche.rules import first_dealer
from spillebord.testing import final_state, play, random_walk, refused

PU, BL, YE = 0, 1, 2


def mark(s, cell: str) -> int:  # type: ignore[no-untyped-def]
    return int(s.marks[CELL_INDEX[cell]])


def places(s, card: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [a.cell for a in s.legal() if isinstance(a, Place) and a.card == card]


def uncrowned(s) -> list[int]:  # type: ignore[no-untyped-def]
    return [c for c in range(144) if 0 <= s.marks[c] < CROWN]


# ----------------------------------------------------------------------- setup


@pytest.mark.parametrize(("seats", "pile"), [(2, 49), (3, 31), (4, 22), (6, 13)])
def test_T1_dealing(seats: int, pile: int) -> None:
    s = GAME.new(seats, 7, ToucheOptions(grade=1))
    assert [len(h) for h in s.hands] == [5] * seats
    assert [len(p) for p in s.piles] == [pile] * seats
    s.check()


def test_T1_uneven_deal_without_jokers() -> None:
    s = GAME.new(3, 11, ToucheOptions(grade=1, jokers_per_deck=0))
    totals = [len(s.hands[i]) + len(s.piles[i]) for i in range(3)]
    d = s.dealer
    assert sorted(totals) == [34, 35, 35]
    assert totals[(d + 1) % 3] == 35 and totals[(d + 2) % 3] == 35 and totals[d] == 34
    assert "JK" not in Counter(c for h in s.hands for c in h)


def test_T2_dealer_draw() -> None:
    dealer, rounds = first_dealer(["KH", "9S", "KD", "4C", "JK", "7H"], 3)
    assert dealer == 2
    assert rounds == [[(0, "KH"), (1, "9S"), (2, "KD")], [(0, "4C"), (2, "JK"), (2, "7H")]]


def test_R3_2_and_R3_7_left_of_dealer_starts() -> None:
    for seed in range(5):
        s = GAME.new(3, seed, ToucheOptions(grade=2))
        assert s.to_act == (s.dealer + 1) % 3
        assert s.view(None)["dealer_draw"]  # the draw is public


def test_R3_4_dealer_chooses_the_grade_when_not_fixed() -> None:
    s = GAME.new(2, 3)
    assert s.phase == "grade" and s.to_act == s.dealer
    assert [str(a) for a in s.legal()] == [f"grade {g}" for g in range(1, 6)]
    play(s, "grade 4")
    assert s.grade == 4 and s.target == 3 and s.phase == "play"
    assert s.to_act == (s.dealer + 1) % 2
    refused(s, "grade 2")


@pytest.mark.parametrize(
    ("grade", "seats", "target"),
    [
        (1, 2, 4),
        (1, 3, 3),
        (2, 4, 3),
        (2, 6, 2),
        (3, 2, 3),
        (3, 3, 2),
        (4, 2, 3),
        (4, 6, 2),
        (5, 4, 3),
        (5, 3, 2),
    ],
)
def test_R4_targets_by_grade_and_sides(grade: int, seats: int, target: int) -> None:
    assert GAME.new(seats, 0, ToucheOptions(grade=grade)).target == target


def test_R2_1_five_players_are_refused() -> None:
    with pytest.raises(OptionError):
        GAME.new(5, 0)


def test_R2_4_seating_grouped_and_alternating() -> None:
    assert GAME.new(4, 0, ToucheOptions(grade=1)).side_of == (0, 0, 1, 1)
    assert GAME.new(6, 0, ToucheOptions(grade=1)).side_of == (0, 0, 1, 1, 2, 2)
    alt = ToucheOptions(grade=1, seating="alternating")
    assert GAME.new(4, 0, alt).side_of == (0, 1, 0, 1)
    assert GAME.new(6, 0, alt).side_of == (0, 1, 2, 0, 1, 2)
    assert GAME.new(3, 0, alt).side_of == (0, 1, 2)


# ----------------------------------------------------------------------- placing


def test_T3_matching_spaces() -> None:
    s = position(marks={"r4c1": BL}, hands={0: ["7D", "AS", "2S", "3S", "4S"]})
    assert places(s, "7D") == ["r7c10"]
    refused(s, "place 7D r4c1", "r4c1 is taken")
    refused(s, "place 7D r3c0", "own spaces")
    s2 = position(marks={"r4c1": BL, "r7c10": PU}, hands={0: ["7D", "AS", "2S", "3S", "4S"]})
    assert places(s2, "7D") == []
    assert Exchange(("7D",)) in s2.legal()


def test_T4_square_completes() -> None:
    s = position(
        grade=1,
        marks={"r3c0": PU, "r3c1": PU, "r4c0": PU, "r9c9": BL, "r3c8": BL, "r0c3": PU},
        hands={0: ["7D", "AS", "2S", "3S", "4S"]},
    )
    assert s.dealer == 1
    events = play(s, "place 7D r4c1")
    assert any(e["kind"] == "touche" for e in events)
    for c in ("r3c0", "r3c1", "r4c0", "r4c1"):
        assert mark(s, c) == PU + CROWN
    assert s.counts == [1, 0] and s.target == 4
    assert uncrowned(s) == []
    assert s.on_board == [4, 0]
    assert len(s.hands[0]) == 5 and "7D" in s.discards[0]
    assert s.to_act == 1 and s.dealer == 0
    s.check()


def test_T5_one_marker_completes_two_squares() -> None:
    s = position(
        grade=1,
        marks={"r3c0": PU, "r3c1": PU, "r4c0": PU, "r3c2": PU, "r4c2": PU},
        hands={0: ["7D", "AS", "2S", "3S", "4S"]},
    )
    play(s, "place 7D r4c1")
    assert s.phase == "crown" and s.to_act == 0
    legal = [str(a) for a in s.legal()]
    assert legal == ["crown r3c0+r3c1+r4c0+r4c1", "crown r3c1+r3c2+r4c1+r4c2"]
    s.check()
    play(s, "crown r3c0+r3c1+r4c0+r4c1")
    assert s.counts == [1, 0]
    assert mark(s, "r3c2") == EMPTY and mark(s, "r4c2") == EMPTY
    assert len(s.crowned) == 1 and s.to_act == 1
    s.check()


def test_T6_free_space_only_as_last_piece() -> None:
    s = position(
        grade=2,
        marks={"r1c3": PU, "r1c4": PU, "r1c6": PU, "r2c9": BL, "r9c2": BL},
        hands={0: ["TH", "2C", "3S", "4S", "JK"], 1: ["AS", "2S", "AH", "AD", "AC"]},
    )
    for text in ("place 3S r1c5", "place JK r1c5", "place TH r1c5"):
        refused(s, text, "free space")
    assert not [a for a in s.legal() if isinstance(a, Place) and a.cell == "r1c5"]
    play(s, "place TH r1c7")
    play(s, "place AS r2c3")
    assert "2C" in s.hands[0] and s.is_dead("2C")
    legal_free = sorted(a.card for a in s.legal() if isinstance(a, Place) and a.cell == "r1c5")
    assert "2C" in legal_free and "JK" in legal_free
    play(s, "place 2C r1c5")
    for c in ("r1c3", "r1c4", "r1c5", "r1c6", "r1c7"):
        assert mark(s, c) == PU + CROWN
    assert s.counts == [1, 0]
    s.check()
    # r1c5 can never be used again, not even by a joker.
    s.to_act = 0
    s.hands[0] = tuple(sorted((*s.hands[0][:4], "JK")))
    refused(s, "place JK r1c5", "crowned")


def test_T7_joker_replaces_uncrowned_opponent_marker() -> None:
    s = position(marks={"r3c2": BL, "r4c4": PU}, hands={0: ["JK", "AS", "2S", "3S", "4S"]})
    assert "r3c2" in places(s, "JK") and "r4c4" not in places(s, "JK")
    refused(s, "place JK r4c4", "your side")
    play(s, "place JK r3c2")
    assert mark(s, "r3c2") == PU
    assert s.on_board == [2, 0]
    s.check()
    c = position(crowned=[(BL, ["r3c2", "r3c3", "r4c2", "r4c3"])], hands={0: ["JK", "AS", "2S", "3S", "4S"]})
    assert "r3c2" not in places(c, "JK")
    refused(c, "place JK r3c2", "crowned")


def test_T8_joker_on_free_space_only_when_completing() -> None:
    s = position(grade=1, marks={"r4c10": PU, "r4c11": PU}, hands={0: ["JK", "AS", "2S", "3S", "4S"]})
    assert "r5c10" not in places(s, "JK")
    refused(s, "place JK r5c10", "free space")
    empties = [c for c in places(s, "JK")]
    assert "r0c3" in empties and len(empties) == 104 - 2
    s2 = position(
        grade=1, marks={"r4c10": PU, "r4c11": PU, "r5c11": PU}, hands={0: ["JK", "AS", "2S", "3S", "4S"]}
    )
    assert "r5c10" in places(s2, "JK")
    play(s2, "place JK r5c10")
    assert s2.counts == [1, 0] and mark(s2, "r5c10") == PU + CROWN


def test_T9_dead_card_exchange() -> None:
    s = position(marks={"r3c3": BL, "r8c8": PU}, hands={0: ["5D", "KH", "2C", "9S", "JK"]})
    ex = [str(a) for a in s.legal() if isinstance(a, Exchange)]
    assert ex == ["exchange 5D"]
    assert "r2c6" in places(s, "KH")
    for bad, why in (("exchange KH", "not dead"), ("exchange JK", "joker"), ("exchange 5D+KH", "not dead")):
        refused(s, bad, why)
    before = s.on_board[:]
    play(s, "exchange 5D")
    assert s.discards[0] == ("5D",)
    assert len(s.hands[0]) == 5 and s.on_board == before and s.to_act == 1
    s.check()


def test_R5_4_exchange_any_number_of_dead_cards() -> None:
    s = position(
        marks={"r3c3": BL, "r8c8": PU, "r2c6": BL, "r9c5": BL},
        hands={0: ["5D", "5D", "KH", "9S", "JK"]},
    )
    ex = [str(a) for a in s.legal() if isinstance(a, Exchange)]
    assert ex == ["exchange 5D", "exchange KH", "exchange 5D+5D", "exchange 5D+KH", "exchange 5D+5D+KH"]
    play(s, "exchange 5D+5D+KH")
    assert len(s.hands[0]) == 5 and Counter(s.discards[0]) == {"5D": 2, "KH": 1}


def test_T10_line_of_six() -> None:
    s = position(
        grade=2,
        marks={"r3c0": PU, "r3c1": PU, "r3c3": PU, "r3c4": PU, "r3c5": PU},
        hands={0: ["4D", "AS", "2S", "3S", "4S"]},
    )
    play(s, "place 4D r3c2")
    assert [str(a) for a in s.legal()] == [
        "crown r3c0+r3c1+r3c2+r3c3+r3c4",
        "crown r3c1+r3c2+r3c3+r3c4+r3c5",
    ]
    play(s, "crown r3c1+r3c2+r3c3+r3c4+r3c5")
    assert sum(1 for c in range(144) if s.marks[c] == PU + CROWN) == 5
    assert mark(s, "r3c0") == EMPTY  # the sixth marker was not crowned and left with the round
    assert s.counts == [1, 0]


def test_T11_no_overlap_with_crowned_markers() -> None:
    s = position(
        grade=1,
        crowned=[(PU, ["r3c0", "r3c1", "r4c0", "r4c1"])],
        marks={"r3c2": PU, "r4c2": PU, "r3c3": PU},
        hands={0: ["9D", "AS", "2S", "3S", "4S"]},
    )
    play(s, "place 9D r4c3")
    assert s.phase == "play" and s.counts == [2, 0]
    for c in ("r3c2", "r3c3", "r4c2", "r4c3"):
        assert mark(s, c) == PU + CROWN
    s.check()


def test_T12_grade5_distinct_types() -> None:
    s = position(
        grade=5,
        crowned=[(PU, ["r7c0", "r7c1", "r8c0", "r8c1"])],
        marks={"r3c0": PU, "r3c1": PU, "r4c0": PU, "r3c5": PU, "r4c4": PU, "r4c6": PU},
        hands={0: ["7D", "9S", "2S", "3S", "4S"], 1: ["AS", "AH", "AD", "AC", "2H"]},
    )
    play(s, "place 7D r4c1")
    assert s.counts == [1, 0] and mark(s, "r4c1") == PU and s.to_act == 1
    play(s, "place AS r2c3")
    play(s, "place 9S r4c5")
    assert s.counts == [1, 0]
    play(s, "place AH r0c3")
    card = s.hands[0][0]
    play(s, f"place {card} r5c5")
    assert s.counts == [2, 0]
    assert s.view(0)["crowned_types"][0] == ["square", "cross"]
    assert mark(s, "r5c5") == PU + CROWN and mark(s, "r4c1") == EMPTY
    s.check()


def test_R4_1_grade5_without_distinct_types() -> None:
    o = ToucheOptions(grade=5, grade5_distinct_types=False)
    s = position(
        grade=5,
        options=o,
        crowned=[(PU, ["r7c0", "r7c1", "r8c0", "r8c1"])],
        marks={"r3c0": PU, "r3c1": PU, "r4c0": PU},
        hands={0: ["7D", "9S", "2S", "3S", "4S"]},
    )
    play(s, "place 7D r4c1")
    assert s.counts == [2, 0]


def test_T15_win_and_score() -> None:
    o = ToucheOptions(grade=2, match_games=1)
    setup = dict(
        grade=2,
        options=o,
        marks={"r4c0": PU, "r4c1": PU, "r4c2": PU, "r4c3": PU},
        hands={0: ["8S", "AS", "2S", "3S", "4H"]},
    )
    s = position(
        3, crowned=[(PU, [f"r3c{i}" for i in range(5)]), (BL, [f"r7c{i}" for i in range(5)])], **setup
    )
    assert s.target == 2
    play(s, "place 8S r4c4")
    assert s.to_act is None and s.games == ((2, PU, 10),)
    assert s.outcome() == (1.0, 0.0, 0.0) and s.scores() == (1.0, 0.0, 0.0)  # games won
    assert len(s.hands[0]) == 4  # the winner does not draw
    s2 = position(3, crowned=[(PU, [f"r3c{i}" for i in range(5)])], **setup)
    play(s2, "place 8S r4c4")
    assert s2.games == ((2, PU, 25),)
    s3 = position(
        3,
        crowned=[(PU, [f"r3c{i}" for i in range(5)])],
        **{**setup, "options": replace(o, shutout_mode="add")},
    )
    play(s3, "place 8S r4c4")
    assert s3.games == ((2, PU, 35),)
    s4 = position(
        3,
        crowned=[(PU, [f"r3c{i}" for i in range(5)])],
        **{**setup, "options": replace(o, match_mode="points")},
    )
    play(s4, "place 8S r4c4")
    assert s4.scores() == (25.0, 0.0, 0.0) and s4.outcome() == (1.0, 0.0, 0.0)  # match points


def test_T16_team_colours_alternating() -> None:
    o = ToucheOptions(grade=1, seating="alternating", match_games=1)
    s = position(
        4,
        options=o,
        marks={"r3c0": PU, "r3c1": PU, "r4c0": PU},
        hands={0: ["7D", "AS", "2S", "3S", "4S"], 2: ["JK", "AH", "2H", "3H", "4H"]},
        to_act=2,
    )
    assert s.side_of == (0, 1, 0, 1)
    refused(s, "place JK r3c0", "your side")
    assert "r3c0" not in places(s, "JK")
    s.to_act = 0
    play(s, "place 7D r4c1")
    assert s.counts == [1, 0]
    assert s.view(2)["counts"] == [1, 0]


def test_T17_non_joker_cannot_replace() -> None:
    s = position(marks={"r4c1": BL}, hands={0: ["7D", "JK", "2S", "3S", "4S"]})
    refused(s, "place 7D r4c1", "only a joker")
    assert "r7c10" in places(s, "7D") and "r4c1" in places(s, "JK")


def _empty_pile(s, seat: int, discards: int) -> None:  # type: ignore[no-untyped-def]
    """Move seat's pile to another seat's pile, keeping `discards` of it as seat's discards."""
    pile = list(s.piles[seat])
    other = (seat + 1) % s.seats
    s.discards[seat] = tuple(pile[:discards])
    s.piles[other] = s.piles[other] + tuple(pile[discards:])
    s.piles[seat] = ()


def test_T18_pile_exhausted_recycles_discards() -> None:
    s = position(hands={0: ["AS", "2S", "3S", "4S", "5S"]})
    _empty_pile(s, 0, 12)
    s.check()
    play(s, "place AS r2c3")
    # The played card goes onto the discard pile first (rule 5.3.1), so 13 are reshuffled.
    assert len(s.hands[0]) == 5 and len(s.piles[0]) == 12 and s.discards[0] == ()
    s.check()
    # the owner knows what its recycled pile holds: determinize only reorders it
    assert s.recycled == (True, False)
    d = s.determinize(0, Rng(9))
    assert Counter(d.piles[0]) == Counter(s.piles[0]) and d.hands[0] == s.hands[0]
    d.check()
    assert Counter(s.determinize(1, Rng(9)).piles[1]) != Counter(s.piles[1])
    o = ToucheOptions(grade=1, recycle_discards=False)
    s2 = position(options=o, hands={0: ["AS", "2S", "3S", "4S", "5S"]})
    _empty_pile(s2, 0, 12)
    play(s2, "place AS r2c3")
    assert len(s2.hands[0]) == 4 and len(s2.discards[0]) == 13
    s2.check()


def test_T19_turn_order_after_touche() -> None:
    s = position(
        3,
        grade=1,
        dealer=0,
        to_act=1,
        marks={"r3c0": BL, "r3c1": BL, "r4c0": BL, "r3c8": YE, "r3c9": YE, "r4c8": YE},
        hands={1: ["7D", "AS", "2S", "3S", "4S"], 2: ["8C", "AH", "2H", "3H", "4H"]},
    )
    play(s, "place 7D r4c1")
    assert s.dealer == 1 and s.to_act == 2 and s.counts == [0, 1, 0]
    assert uncrowned(s) == []
    s.marks[CELL_INDEX["r3c8"]] = s.marks[CELL_INDEX["r3c9"]] = s.marks[CELL_INDEX["r4c8"]] = YE
    s.on_board[YE] = 3
    play(s, "place 8C r4c9")
    assert s.dealer == 2 and s.to_act == 0 and s.counts == [0, 1, 1]


# ----------------------------------------------------------------------- other rules and options


def test_R5_5_pass_only_when_nothing_else_is_legal() -> None:
    s = position(hands={0: ["AS", "2S", "3S", "4S", "5S"]})
    assert Pass() not in s.legal()
    refused(s, "pass", "pass only")
    o = ToucheOptions(grade=1, marker_supply=2, stall_turns=4)
    e = position(options=o, marks={"r0c3": PU, "r0c4": PU}, hands={0: ["AS", "2S", "3S", "4S", "5S"]})
    assert e.legal() == [Pass()]  # empty supply and no dead card
    refused(e, "place AS r2c3", "no markers left")
    play(e, "pass")
    assert e.stall == 1 and e.to_act == 1


def test_R1_2_3_unlimited_supply() -> None:
    o = ToucheOptions(grade=1, marker_supply=None)
    s = position(options=o, hands={0: ["AS", "2S", "3S", "4S", "5S"]})
    assert s.view(0)["supply"] == [None, None]
    play(s, "place AS r2c3")
    s.check()


def test_R7_2a_stall_draws_the_game() -> None:
    o = ToucheOptions(grade=1, marker_supply=1, match_games=1, match_max_games=1)
    s = position(
        options=o,
        marks={"r0c3": PU, "r0c4": BL},
        hands={0: ["AS", "2S", "3S", "4S", "5S"], 1: ["AH", "2D", "3D", "4D", "5C"]},
    )
    for _ in range(5):
        play(s, "pass")
    assert s.to_act is not None and s.stall == 5
    events = play(s, "pass")
    assert any(e["kind"] == "draw" for e in events)
    assert s.to_act is None and s.games == ((1, -1, 0),)
    assert s.outcome() == (0.5, 0.5) and s.scores() == (0.0, 0.0)
    # Without the game cap a drawn game counts for nothing and the match goes on.
    s2 = position(
        options=replace(o, match_max_games=0),
        marks={"r0c3": PU, "r0c4": BL},
        hands={0: ["AS", "2S", "3S", "4S", "5S"], 1: ["AH", "2D", "3D", "4D", "5C"]},
    )
    for _ in range(6):
        play(s2, "pass")
    assert s2.to_act is not None and s2.game_no == 2 and s2.games == ((1, -1, 0),)


def test_R7_2b_max_turns_draws_the_game() -> None:
    # Crosses (grade 4) are not completed by random play within 10 turns: every game is drawn at
    # the turn limit, and the match stops at its cap (3 x 1 games) with nobody winning.
    s = final_state(GAME, 2, 5, {"grade": 4, "max_turns": 10, "match_games": 1})
    assert s.games == ((4, -1, 0),) * 3 and s.turn == 10
    assert s.outcome() == (0.5, 0.5) and s.scores() == (0.0, 0.0) and not s.truncated


def test_R6_7_clear_on_touche_false_keeps_markers() -> None:
    o = ToucheOptions(grade=1, clear_on_touche=False)
    s = position(
        options=o,
        marks={"r3c0": PU, "r3c1": PU, "r4c0": PU, "r9c9": BL},
        hands={0: ["7D", "AS", "2S", "3S", "4S"]},
    )
    play(s, "place 7D r4c1")
    assert s.counts == [1, 0] and mark(s, "r9c9") == BL
    s.check()


def test_R6_7_redeal_each_round() -> None:
    o = ToucheOptions(grade=1, redeal_each_round=True)
    s = position(
        options=o, marks={"r3c0": PU, "r3c1": PU, "r4c0": PU}, hands={0: ["7D", "AS", "2S", "3S", "4S"]}
    )
    play(s, "place 7D r4c1")
    assert [len(d) for d in s.discards] == [0, 0]
    assert [len(h) + len(p) for h, p in zip(s.hands, s.piles, strict=True)] == [54, 54]
    assert s.counts == [1, 0]
    s.check()


def test_free_space_mode_wild() -> None:
    o = ToucheOptions(grade=1, free_space_mode="wild")
    s = position(options=o, marks={"r4c10": PU, "r4c11": PU}, hands={0: ["KC", "JK", "2S", "3S", "4S"]})
    assert "r5c10" not in places(s, "JK")
    refused(s, "place 2S r5c10", "wild")
    play(s, "place KC r5c11")
    assert s.counts == [1, 0]
    assert mark(s, "r5c10") == PU + CROWN and s.on_board[PU] == 4
    s.check()


def test_R6_6_victory_ends_the_game_and_the_match() -> None:
    o = ToucheOptions(grade=1, match_games=1)
    s = position(
        options=o,
        crowned=[
            (PU, ["r7c0", "r7c1", "r8c0", "r8c1"]),
            (PU, ["r3c4", "r3c5", "r4c4", "r4c5"]),
            (PU, ["r0c3", "r0c4", "r1c3", "r1c4"]),
        ],
        marks={"r3c0": PU, "r3c1": PU, "r4c0": PU},
        hands={0: ["7D", "AS", "2S", "3S", "4S"]},
    )
    play(s, "place 7D r4c1")
    assert s.to_act is None and s.legal() == [] and s.games == ((1, PU, 25),)
    assert s.outcome() == (1.0, 0.0) and s.scores() == (1.0, 0.0)


def test_R7_4_match_best_of_three() -> None:
    o = ToucheOptions(grade=1, match_games=3)
    s = position(
        options=o,
        crowned=[
            (PU, ["r7c0", "r7c1", "r8c0", "r8c1"]),
            (PU, ["r3c4", "r3c5", "r4c4", "r4c5"]),
            (PU, ["r0c3", "r0c4", "r1c3", "r1c4"]),
        ],
        marks={"r3c0": PU, "r3c1": PU, "r4c0": PU},
        hands={0: ["7D", "AS", "2S", "3S", "4S"]},
    )
    dealer = s.dealer
    events = play(s, "place 7D r4c1")
    assert any(e["kind"] == "new_game" for e in events)
    assert s.match_wins == [1, 0] and s.match_points == [25, 0] and s.game_no == 2
    assert s.dealer == (dealer + 1) % 2 and s.to_act == (s.dealer + 1) % 2
    assert s.counts == [0, 0] and s.crowned == () and all(m == EMPTY for m in s.marks)
    assert [len(h) for h in s.hands] == [5, 5] and s.outcome() is None
    s.check()
    # the second win ends the match
    s.match_wins = [1, 0]
    s.games = ((1, 0, 25), (1, 1, 5))
    s.match_wins = [1, 1]
    assert not s._match_over()
    s.match_wins = [2, 1]
    assert s._match_over()


def test_R7_4_grade_chosen_again_by_next_dealer() -> None:
    o = ToucheOptions(grade=0, match_games=3)
    s = GAME.new(2, 9, o)
    play(s, "grade 1")
    s2 = s.copy()
    s2.games = ()
    s2._end_game(0)
    assert s2.phase == "grade" and s2.grade == 0 and s2.to_act == s2.dealer == (s.dealer + 1) % 2


def test_R7_4_points_mode_plays_n_games() -> None:
    o = ToucheOptions(grade=1, match_games=2, match_mode="points")
    s = GAME.new(2, 9, o)
    s._end_game(0)
    assert s.to_act is not None
    s.counts = [1, 0]
    s._end_game(1)
    assert s.to_act is None and s.match_points == [25, 5]
    assert s.scores() == (25.0, 5.0) and s.outcome() == (1.0, 0.0)


def test_hidden_information_in_views() -> None:
    s = GAME.new(4, 2, ToucheOptions(grade=1))
    v = s.view(0)
    assert v["hand"] == list(s.hands[0])
    assert v["pile_sizes"] == [22, 22, 22, 22]
    assert "piles" not in v and "hands" not in v
    import json

    text = json.dumps(s.view(1))
    assert json.dumps(v["hand"]) not in text or s.hands[0] == s.hands[1]
    assert s.view(None)["hand"] is None
    d = s.determinize(0, Rng(5))
    assert d.hands[0] == s.hands[0]
    assert Counter(c for h in d.hands[1:] for c in h) + Counter(c for p in d.piles for c in p) == Counter(
        c for h in s.hands[1:] for c in h
    ) + Counter(c for p in s.piles for c in p)


def test_events_never_reveal_drawn_cards() -> None:
    s = GAME.new(2, 4, ToucheOptions(grade=1, match_games=1))
    rng = Rng(3)
    while s.to_act is not None:
        seat = s.to_act
        before = set(s.hands[seat])
        events = s.play(rng.choice(s.legal()))
        new = set(s.hands[seat]) - before
        for e in events:
            for card in new:
                assert card not in str({k: v for k, v in e.items() if k not in ("text",)}) or card in str(
                    s.discards
                )


def test_parse_explains_and_rejects() -> None:
    s = position(hands={0: ["AS", "2S", "3S", "4S", "5S"]})
    for bad in ("", "nonsense 99 zz", "place ZZ r0c0", "place AS r0c0", "crown"):
        refused(s, bad)
    refused(s, "place 6S r3c6", "do not hold")
    refused(s, "crown r3c0+r3c1+r4c0+r4c1", "no completed pattern")


def test_pinned_legal_counts_of_random_walks() -> None:
    """A regression pin (not from the rules): the legal-list sizes along three seeded random
    walks of 30 decisions, as the engine before the package refactor (726ff27) counted them."""
    counts = []
    for seats, seed in ((2, 1), (3, 2), (6, 3)):
        walk = random_walk(GAME, seats, seed, {"grade": 2}, steps=30)
        counts.append(sum(len(s.legal()) for s in walk))
    assert counts == PINNED


PINNED = [389, 457, 582]


def test_R5_2_joker_replacement_needs_a_marker_in_supply() -> None:
    o = ToucheOptions(grade=1, marker_supply=2)
    s = position(
        options=o, marks={"r3c2": BL, "r0c3": PU, "r0c4": PU}, hands={0: ["JK", "AS", "2S", "3S", "4S"]}
    )
    assert not [a for a in s.legal() if isinstance(a, Place)]
    refused(s, "place JK r3c2", "no markers left")
    s2 = position(options=o, marks={"r3c2": BL, "r0c3": PU}, hands={0: ["JK", "AS", "2S", "3S", "4S"]})
    play(s2, "place JK r3c2")
    assert s2.supply(PU) == 0 and s2.supply(BL) == 2
    s2.check()


def test_R7_4_three_sides_splitting_the_wins_play_on() -> None:
    s = GAME.new(3, 1, ToucheOptions(grade=1, match_games=3))
    s.match_wins = [1, 1, 0]
    s.counts = [0, 0, 0]
    s.games = ((1, 0, 25), (1, 1, 25))
    s._end_game(2)
    assert s.match_wins == [1, 1, 1] and s.to_act is not None and s.game_no == 2
    s._end_game(1)
    assert s.to_act is None and s.match_winner() == 1 and s.outcome() == (0.0, 1.0, 0.0)
    assert s.scores() == (1.0, 2.0, 1.0)


def test_R8_option_defaults_follow_the_spec() -> None:
    o = ToucheOptions()
    assert (o.jokers_per_deck, o.marker_supply, o.seating, o.grade5_distinct_types) == (
        2,
        60,
        "grouped",
        True,
    )
    assert (o.free_space_mode, o.clear_on_touche, o.recycle_discards, o.shutout_mode) == (
        "last_piece",
        True,
        True,
        "replace",
    )
    assert (o.stall_turns, o.redeal_each_round, o.max_turns, o.match_games, o.match_mode) == (
        None,
        False,
        600,
        3,
        "wins",
    )
    assert o.grade == 0  # the dealer chooses
    s = GAME.new(3, 0, ToucheOptions(grade=1, stall_turns=None))
    s.stall = 8
    assert s._next_turn(0) == [] and s.to_act == 1
    s.stall = 9
    assert s._next_turn(1)[0]["kind"] == "draw"


# ----------------------------------------------------------------------- the engine contract


def test_R2_4_teams_follow_the_seating() -> None:
    alt = ToucheOptions(seating="alternating")
    assert GAME.teams(2) == ((0,), (1,)) and GAME.teams(3) == ((0,), (1,), (2,))
    assert GAME.teams(4) == ((0, 1), (2, 3)) and GAME.teams(6) == ((0, 1), (2, 3), (4, 5))
    assert GAME.teams(4, alt) == ((0, 2), (1, 3)) and GAME.teams(6, alt) == ((0, 3), (1, 4), (2, 5))
    assert GAME.teams(5) == tuple((s,) for s in range(5))  # no game: 5 players are refused
    for n in (2, 3, 4, 6):
        for o in (ToucheOptions(), alt):
            assert GAME.new(n, 0, o).teams() == GAME.teams(n, o)


def test_the_game_declares_its_kind() -> None:
    k = GAME.kind
    assert (k.hidden_information, k.chance, k.public_actions, k.secret_choices) == (True, True, True, False)
    # default options end by the rules within 9 games (the cap 3 x 3) of at most 600 turns each,
    # plus a grade choice and a few crown choices per game: far below the bound
    assert k.max_decisions == 12_000 and k.max_decisions > 9 * (600 + 1 + 30)


def test_R7_4_team_match_outcome() -> None:
    o = ToucheOptions(grade=1, match_games=1)
    s = position(
        4,
        options=o,
        crowned=[
            (BL, ["r7c0", "r7c1", "r8c0", "r8c1"]),
            (BL, ["r3c4", "r3c5", "r4c4", "r4c5"]),
            (PU, ["r3c8", "r3c9", "r4c8", "r4c9"]),
            (BL, ["r7c8", "r7c9", "r8c8", "r8c9"]),
        ],
        marks={"r0c3": BL, "r0c4": BL, "r1c3": BL},
        hands={3: ["8H", "AS", "2S", "3S", "4S"]},
        to_act=3,
    )
    assert s.side_of == (0, 0, 1, 1)
    play(s, "place 8H r1c4")
    assert s.to_act is None and s.games == ((1, BL, 5),)  # not a shutout: purple has a square
    assert s.outcome() == (0.0, 0.0, 1.0, 1.0) and s.scores() == (0.0, 0.0, 1.0, 1.0)


def test_truncated_at_the_decision_bound_ranked_by_match_figures() -> None:
    s = GAME.new(2, 1, ToucheOptions(grade=1))
    s.match_wins = [0, 1]
    s.decisions = GAME.kind.max_decisions - 1
    events = play(s, s.legal_texts()[0])
    assert events[-1]["kind"] == "truncated"
    assert s.truncated and s.to_act is None and s.legal() == []
    assert s.view(0)["phase"] == "over" and s.outcome() == (0.0, 1.0) and s.scores() == (0.0, 1.0)
    s2 = GAME.new(2, 1, ToucheOptions(grade=1, match_mode="points"))
    s2.decisions = GAME.kind.max_decisions - 1
    play(s2, s2.legal_texts()[0])
    assert s2.truncated and s2.outcome() == (0.5, 0.5) and s2.scores() == (0.0, 0.0)


def test_determinize_draws_from_the_redealt_piles_take_every_unseen_card_alike() -> None:
    # The piles of a determinized state are dealt lazily: a draw takes any card the seat
    # cannot see with the same chance, whichever pile it was put in, and sizes are kept.
    s = GAME.new(2, 7, ToucheOptions(grade=1))
    rng = Rng(1)
    while s.to_act != 1:
        s.play(rng.choice(s.legal()))
    unseen = Counter(s.hands[1]) + Counter(c for p in s.piles for c in p)
    sizes = [len(p) for p in s.piles]
    drawn = Counter[str]()
    n = 3000
    for k in range(n):
        d = s.determinize(0, Rng(k))
        assert d.piles_unordered and d.pooled == 0b11 and d.hands[0] == s.hands[0]
        before = Counter(d.hands[1])
        place = next(a for a in d.legal() if isinstance(a, Place))
        play(d, str(place))
        d.check()
        new = Counter(d.hands[1]) - (before - Counter([place.card]))
        assert sum(new.values()) == 1 and [len(p) for p in d.piles] == [sizes[0], sizes[1] - 1]
        drawn += new
    for card, m in unseen.items():
        expected = n * m / sum(unseen.values())
        assert 0.4 * expected <= drawn[card] <= 1.8 * expected, (card, drawn[card], expected)
