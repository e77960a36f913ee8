"""The worked cases T1–T26 of docs/rules/partners.md, one test each, with their exact outcomes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from partners_helpers import board, fwd, in_circle, make, on, texts

from spillebord.games.partners import GAME, PartnersOptions
from spillebord.games.partners import board as B
from spillebord.testing import play, random_walk, refused


def test_T1_forward_5_skips_empty_red_start_field() -> None:
    s = make("Y@Y12", ["N5"])
    assert texts(s, "play n5") == ["play n5 y12 r3"]
    play(s, "play n5 y12 r3")
    assert on(s, "Y") == ["R3"]


def test_T2_occupied_red_start_field_blocks() -> None:
    s = make("Y@Y12 R@RS", ["N5"])
    assert texts(s, "play n5") == []
    assert s.legal_texts() == ["discard"]
    refused(s, "play n5 y12 r3", "red start field blocks")


def test_T3_own_start_field_not_counted_into_house() -> None:
    s = make("Y@G13", ["N3"])
    play(s, "play n3 g13 yh2")
    assert on(s, "Y") == ["YH2"]


def test_T4_exact_count_into_house() -> None:
    s = make("Y@G13", ["N5", "N6", "S7"])
    assert texts(s, "play n5") == ["play n5 g13 yh4"]
    assert texts(s, "play n6") == []
    assert texts(s, "seven") == []  # the lone piece cannot use 7 steps
    play(s, "play n5 g13 yh4")
    assert on(s, "Y") == ["YH4"]


def test_T5_minus_4_from_start_field() -> None:
    s = make("Y@YS", ["M4"])
    play(s, "play m4 ys g11")
    assert on(s, "Y") == ["G11"]


def test_T6_seven_into_house_eight_illegal() -> None:
    s = make("Y@G11", ["S7", "H8"])
    assert texts(s, "seven") == ["seven g11 7 yh4"]
    assert texts(s, "play h8") == []  # forward 8 overshoots; H8 can still start a piece
    assert "start h8" in s.legal_texts()
    play(s, "seven g11 7 yh4")
    assert on(s, "Y") == ["YH4"] and s.phase == "play"


def test_T7_minus_4_skips_own_start_field() -> None:
    s = make("Y@Y2", ["M4"])
    play(s, "play m4 y2 g12")
    assert on(s, "Y") == ["G12"]


def test_T8_minus_4_skips_empty_foreign_start_field() -> None:
    s = make("Y@R2", ["M4"])
    play(s, "play m4 r2 y12")
    assert on(s, "Y") == ["Y12"]


def test_T9_minus_4_blocked_backwards() -> None:
    s = make("Y@R2 R@RS", ["M4"])
    assert s.legal_texts() == ["discard"]


def test_T10_landing_knocks_out_single_enemy() -> None:
    (after,) = fwd("Y@R1 B@R5", "Y", "R1", 4)
    assert on(after, "Y") == ["R5"] and on(after, "B") == [] and in_circle(after, "B") == 4


def test_T11_landing_on_protected_pair_sends_mover_back() -> None:
    (after,) = fwd("Y@R1 B@R5 B@R5", "Y", "R1", 4)
    assert on(after, "Y") == [] and in_circle(after, "Y") == 4
    assert on(after, "B") == ["R5", "R5"]


def test_T12_owner_not_blocked_by_own_start_field() -> None:
    (after,) = fwd("Y@G12 Y@YS", "Y", "G12", 4)
    assert on(after, "Y") == ["YS", "YH2"]


def test_T13_partner_start_field_blocks_too() -> None:
    s = make("Y@R12 B@BS", ["N5"])
    assert texts(s, "play") == []


def test_T14_green_blocked_by_yellow_start_and_enters_only_from_B14() -> None:
    assert fwd("G@G12 Y@YS", "G", "G12", 4) == []
    (after,) = fwd("G@G12", "G", "G12", 4)
    assert on(after, "G") == ["Y2"]
    (after,) = fwd("G@B13", "G", "B13", 3)
    assert on(after, "G") == ["GH2"]


def test_T15_one_fourteen_from_start_field() -> None:
    s = make("Y@YS", ["A114"])
    assert texts(s, "play") == ["play a114=1 ys y1", "play a114=14 ys y14"]
    play(s, "play a114=14 ys y14")
    assert on(s, "Y") == ["Y14"]


def test_T16_no_jumping_inside_the_house() -> None:
    s = make("Y@G14 Y@YH2", ["A114", "N2", "N3"], deck_profile="classic56")
    # the G14 piece: 1 lands on H1; 2 would land on H2, 3 would pass it. (The H2 piece may move on.)
    assert [t for t in texts(s, "play") if " g14 " in t] == ["play a114=1 g14 yh1"]
    assert texts(s, "play") == ["play a114=1 g14 yh1", "play a114=1 yh2 yh3", "play n2 yh2 yh4"]
    play(s, "play a114=1 g14 yh1")
    assert on(s, "Y") == ["YH1", "YH2"]
    assert fwd("Y@G14 Y@YH2", "Y", "G14", 2) == []
    assert fwd("Y@G14 Y@YH2", "Y", "G14", 3) == []


def test_T17_split_seven_worked_example() -> None:
    s = make("Y@Y3 Y@Y10", ["S7"])
    play(s, "seven y3 2 y5")
    assert s.phase == "split" and s.split_left == 5 and s.to_act == 0
    assert texts(s) == ["seven y10 5 r1"]  # the moved piece may not move again
    play(s, "seven y10 5 r1")
    assert on(s, "Y") == ["Y5", "R1"] and s.phase == "play"


def _splits(s: object, prefix: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """Every complete split sequence from a state whose seat is to play or continue a 7."""
    from spillebord.games.partners.rules import PartnersState

    assert isinstance(s, PartnersState)
    out: set[tuple[str, ...]] = set()
    seat = s.to_act
    for t in texts(s, "seven"):
        c = s.copy()
        play(c, t)
        if c.phase == "split" and c.to_act == seat:
            out |= _splits(c, (*prefix, t))
        else:
            out.add((*prefix, t))
    return out


def test_T18_blocked_split_and_its_legal_alternatives() -> None:
    s = make("Y@Y3 Y@Y10 R@RS", ["S7"])
    got = {tuple(" ".join(t.split()[1:3]) for t in seq) for seq in _splits(s)}
    pairs = [("y3 6", "y10 1"), ("y3 5", "y10 2"), ("y3 4", "y10 3"), ("y3 3", "y10 4")]
    expected = {("y3 7",)} | set(pairs) | {(b, a) for a, b in pairs}
    assert got == expected
    assert ("y3 2", "y10 5") not in got


def test_T19_all_four_cards_usable_and_minus_4() -> None:
    s = make("Y@Y5", ["N5", "N9", "M4", "A114"])
    cards = {t.split()[1].split("=")[0] for t in s.legal_texts()}
    assert cards == {"n5", "n9", "m4", "a114"}
    play(s, "play m4 y5 y1")
    assert on(s, "Y") == ["Y1"]


def test_T20_no_usable_card_discards_whole_hand() -> None:
    s = make("", ["N5", "N9", "M4", "S7"], others={1: ["N3"], 2: ["N6"]})
    assert s.legal_texts() == ["discard"]
    ev = play(s, "discard")
    assert s.hands[0] == () and s.sat_out[0]
    assert sorted(s.discard) == ["M4", "N5", "N9", "S7"]
    assert ev[0]["kind"] == "discard" and s.to_act == 1
    play(s, "discard")  # red has nothing out either
    assert s.to_act == 2  # yellow (empty hand) is skipped for the rest of the deal


def test_T21_swap_without_own_pieces_in_play() -> None:
    s = make("R@R3 G@B7", ["SWAP"])
    assert s.legal_texts() == ["swap r3 b7"]
    play(s, "swap r3 b7")
    assert on(s, "R") == ["B7"] and on(s, "G") == ["R3"]


def test_T22_protected_pair_cannot_be_swapped() -> None:
    s = make("R@R3 R@R3 G@B7", ["SWAP"])
    assert s.legal_texts() == ["discard"]


def test_T23_start_field_piece_cannot_be_swapped() -> None:
    s = make("R@RS G@B7", ["SWAP"])
    assert s.legal_texts() == ["discard"]
    s = make("R@RS G@B7", ["SWAP"], swap_start_field=True)
    assert s.legal_texts() == ["swap rs b7"]


def test_T24_home_player_starts_partner_piece() -> None:
    s = make("Y@YH1 Y@YH2 Y@YH3 Y@YH4", ["H8"])
    assert s.legal_texts() == ["start h8"]
    play(s, "start h8")
    assert on(s, "B") == ["BS"] and in_circle(s, "B") == 3


def test_T25_split_overflows_to_partner() -> None:
    s = make("Y@YH2 Y@YH3 Y@YH4 Y@G12 B@B1", ["S7"])
    play(s, "seven g12 3 yh1")
    assert s.phase == "split" and s.split_left == 4 and s.active(0) == 2
    assert texts(s) == ["seven b1 4 b5"]
    play(s, "seven b1 4 b5")
    assert on(s, "Y") == ["YH1", "YH2", "YH3", "YH4"] and on(s, "B") == ["B5"]
    assert s.phase == "play" and s.to_act == 1


def test_T25b_split_remainder_lapses() -> None:
    s = make("Y@YH2 Y@YH3 Y@YH4 Y@G12", ["S7"])
    assert texts(s, "seven") == ["seven g12 3 yh1"]
    ev = play(s, "seven g12 3 yh1")
    assert [e["kind"] for e in ev][-1] == "seven_lapse" and ev[-1]["steps"] == 4
    assert s.phase == "play" and s.split_left == 0


@pytest.mark.parametrize(("profile", "aside"), [("text52", 4), ("classic56", 8)])
def test_T26_three_deals_per_dealer_and_leftovers(profile: str, aside: int) -> None:
    walk = random_walk(GAME, 4, 5, {"deck_profile": profile})
    s = next(walk)
    dealer = s.dealer
    seen_third = False
    for s in walk:
        assert s.to_act is not None, "the game ended early"
        if s.deals == 5:
            break
        if s.deal_no == 3 and s.phase == "exchange":
            assert len(s.deck) == aside  # 48 dealt, the rest set aside unseen
            assert s.view(None)["deck_size"] == aside
            assert s.dealer == dealer
            seen_third = True
    assert seen_third and s.deals == 5
    assert s.dealer == (dealer + 1) % 4  # the deal passed to the left
    assert len(s.deck) == (52 if profile == "text52" else 56) - 16 * s.deal_no


def test_worked_example_6_5_8_matches_T17() -> None:
    b = board("Y@Y3 Y@Y10")
    assert B.walk(0, 3, 2, B.blockers(b), 0) == [5]
    assert B.walk(0, 10, 5, B.blockers(b), 0) == [16]


def test_seed_example_minus_4_from_start_field_brings_piece_near_house() -> None:
    """Seed: "Hvis man sidder med en 4'er, og ens brik er i startfeltet, kan man med stor fordel
    starte med at rykke denne brik 4 felter mod spilleretningen og dermed komme tæt på eget hus"."""
    s = make("Y@YS", ["M4"], others={1: ["N3"], 2: ["N3"], 3: ["N3"]})
    play(s, "play m4 ys g11")
    # from G11 the piece is 4 steps from its house: a 5 brings it to H2, a 7 to H4
    (after,) = fwd("Y@G11", "Y", "G11", 5)
    assert on(after, "Y") == ["YH2"]
    assert on(s, "Y") == ["G11"]


def test_seed_example_four_left_over_after_three_deals() -> None:
    """Seed: "efter tre spillerunder har delt alle kortene ud (der vil være 4 tilovers ...)"."""
    o = PartnersOptions()
    s = GAME.new(4, 0, o)
    assert len(s.deck) - 2 * 16 == 4
