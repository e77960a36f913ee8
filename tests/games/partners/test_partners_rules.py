"""Partners: the numbered rules (R1–R10 of docs/rules/partners.md), the options (D1–D20), the
exchange and hidden information."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from partners_helpers import board, fwd, in_circle, make, on, texts

from spillebord.core import IllegalAction, OptionError, Rng
from spillebord.core.options import build
from spillebord.games.partners import GAME
from spillebord.games.partners import board as B
from spillebord.games.partners.data import (
    CARD_TYPES,
    CLASSIC56,
    START_CARDS,
    TEXT52,
    TRACK_IDS,
    deck_cards,
    parse_profile,
    partner,
    seat_controllers,
    team,
)
from spillebord.games.partners.options import PartnersOptions, deals_per_cycle
from spillebord.games.partners.position import from_text
from spillebord.games.partners.rules import PartnersState
from spillebord.testing import final_state, play, random_walk, refused

# --------------------------------------------------------------------------- 1 components


def test_R1_1_seats_colours_partnerships() -> None:
    assert [partner(s) for s in range(4)] == [2, 3, 0, 1]
    assert [team(s) for s in range(4)] == [0, 1, 0, 1]
    assert GAME.seats == range(2, 5)
    for n in (1, 5):
        with pytest.raises(OptionError):
            GAME.new(n, 0)


def test_R1_2_board_geometry() -> None:
    assert len(TRACK_IDS) == 60
    assert [TRACK_IDS[i] for i in (0, 1, 14, 15, 16, 29, 30, 44, 45, 59)] == [
        "YS", "Y1", "Y14", "RS", "R1", "R14", "BS", "B14", "GS", "G14",
    ]  # fmt: skip
    # each colour enters its house from the square before its own start field
    for colour, before in (("Y", "G14"), ("R", "Y14"), ("B", "R14"), ("G", "B14")):
        (after,) = fwd(f"{colour}@{before}", colour, before, 1)
        assert on(after, colour) == [f"{colour}H1"]


def test_R1_3_deck_profiles_are_data() -> None:
    assert len(deck_cards(CLASSIC56)) == 56 and len(deck_cards(TEXT52)) == 52
    assert "N2" not in deck_cards(TEXT52)
    assert sum(n for code, n in CLASSIC56 if code in START_CARDS) == 12
    assert {"HEART", "H8", "H13"} == START_CARDS
    # 17 movement options: one per choice on a card
    options = sum(
        len(t.forward) + bool(t.start) + bool(t.backward) + t.split + t.swap for t in CARD_TYPES.values()
    )
    assert options == 17
    assert parse_profile("HEART:6, N5:8,S7:4") == (("HEART", 6), ("N5", 8), ("S7", 4))
    o = PartnersOptions(deck_profile="custom", custom_deck="HEART:8,N5:8,N6:8,S7:8,SWAP:2")
    s = GAME.new(4, 1, o)
    assert len(s.deck) + 16 == 34 and deals_per_cycle(o) == 2
    with pytest.raises(OptionError):
        build(PartnersOptions, {"deck_profile": "custom", "custom_deck": "HEART:3"})


# --------------------------------------------------------------------------- 2, 3 setup and deals


def test_R2_1_all_pieces_start_in_circles() -> None:
    s = GAME.new(4, 7)
    assert all(in_circle(s, c) == 4 for c in "YRBG")
    assert s.phase == "exchange" and s.to_act == s.leader == (s.dealer + 1) % 4


def test_R2_2_first_dealer_draw_high_is_deterministic() -> None:
    dealers = {GAME.new(4, seed, PartnersOptions(first_dealer="draw_high")).dealer for seed in range(30)}
    assert dealers == {0, 1, 2, 3}
    a = GAME.new(4, 3, PartnersOptions(first_dealer="draw_high"))
    assert a == GAME.new(4, 3, PartnersOptions(first_dealer="draw_high"))


def test_R3_1_deal_four_cards_each_from_dealers_left() -> None:
    s = GAME.new(4, 11)
    assert [len(h) for h in s.hands] == [4, 4, 4, 4] and len(s.deck) == 36
    # the deal order: the dealer's left neighbour gets the first card of the shuffled deck
    t = GAME.new(4, 11)
    rng = Rng(11)
    dealer = rng.randrange(4)
    deck = list(deck_cards(TEXT52))
    rng.shuffle(deck)
    assert dealer == t.dealer
    assert deck[0] in t.hands[(dealer + 1) % 4] and deck[3] in t.hands[dealer]


def _finish_exchange(s: PartnersState) -> None:
    while s.phase == "exchange":
        play(s, s.legal_texts()[0])


def _walk_to_deal(deal: int, seed: int, options: dict[str, Any] | None = None) -> PartnersState:
    """The state at the start of deal ``deal`` of a seeded random game."""
    for s in random_walk(GAME, 4, seed, options):
        assert s.to_act is not None, f"the game ended before deal {deal}"
        if s.deals == deal:
            assert isinstance(s, PartnersState)
            return s
    raise AssertionError("unreachable")


def test_R3_2_dealer_cycle_reshuffle_by_next_dealer() -> None:
    dealer = GAME.new(4, 2).dealer
    s = _walk_to_deal(4, 2)
    assert s.deals == 4 and s.deal_no == 1
    assert s.dealer == (dealer + 1) % 4
    assert len(s.deck) == 36 and s.discard == ()  # everything gathered and reshuffled


def test_R3_3_exchange_is_simultaneous_and_hidden() -> None:
    s = GAME.new(4, 4)
    first = s.to_act
    assert first is not None
    p = partner(first)
    hand_before = {k: list(s.hands[k]) for k in range(4)}
    card = s.hands[first][0]
    ev = play(s, f"give {card.lower()}")
    assert "card" not in ev[0] and card not in json.dumps(ev).replace("commit", "")
    assert s.view(first)["giving"] == card
    for other in (None, *[k for k in range(4) if k != first]):
        v = s.view(other)
        assert v.get("giving") is None and v["committed"][first]
        assert v.get("gave") is None and v.get("received") is None
    # neither partner sees the other's commitment before both have committed
    while s.to_act != p:
        play(s, s.legal_texts()[-1])
    assert s.view(p)["giving"] is None and s.view(p).get("received") is None
    pcard = s.hands[p][-1]
    play(s, f"give {pcard.lower()}")
    _finish_exchange(s)
    assert s.phase == "play" and s.to_act == s.leader
    # I9: each hand changed by exactly one card; partnership multisets kept
    for k in range(4):
        h = list(hand_before[k])
        h.remove(s.gave[k])
        h.append(s.gave[partner(k)])
        assert sorted(h) == sorted(s.hands[k])
    assert s.gave[first] == card and s.gave[p] == pcard
    assert s.view(first)["gave"] == card and s.view(first)["received"] == pcard
    assert s.view(p)["gave"] == pcard and s.view(p)["received"] == card
    for other in (None, (first + 1) % 4, (first + 3) % 4):
        v = s.view(other)
        mine = {v.get("gave"), v.get("received")}
        assert card not in mine or (other is not None and s.gave[other] == card)
        assert v.get("gave") != card or other is not None
    assert s.view(None).get("gave") is None


def test_R3_3_exchanged_card_only_in_giver_and_receiver_views() -> None:
    """After the exchange the given card shows up in no view but the giver's and receiver's:
    re-dealing the opponents' (and spectator's) hidden cards can move it anywhere."""
    s = GAME.new(4, 21)
    _finish_exchange(s)
    for giver in range(4):
        g = s.gave[giver]
        assert g is not None
        for seat in range(4):
            if seat in (giver, partner(giver)):
                continue
            v = json.dumps(s.view(seat))
            moved = 0
            for k in range(20):
                d = s.determinize(seat, Rng(k))
                assert json.dumps(d.view(seat)) == v
                moved += g not in d.hands[partner(giver)]
            assert moved > 0 or s.hands[partner(giver)].count(g) == len(s.hands[partner(giver)])


def test_R3_3_giver_knows_where_its_card_is() -> None:
    s = GAME.new(4, 8)
    _finish_exchange(s)
    for seat in range(4):
        for k in range(10):
            d = s.determinize(seat, Rng(k))
            assert s.gave[seat] in d.hands[partner(seat)]
            assert d.hands[seat] == s.hands[seat]


@pytest.mark.parametrize(("rule", "leaders"), [("dealer_left", "same"), ("rotate_each_deal", "rotate")])
def test_R3_4_leader_rule(rule: str, leaders: str) -> None:
    seen: list[tuple[int, int, int]] = []
    for s in random_walk(GAME, 4, 6, {"lead_rule": rule}):
        assert s.to_act is not None, "the game ended before deal 4"
        if s.deals == 4:
            break
        if s.phase == "exchange" and (not seen or seen[-1][0] != s.deals):
            seen.append((s.deals, s.leader, s.dealer))
    assert len(seen) >= 3
    seen = seen[:3]
    if leaders == "same":
        assert all(lead == (dealer + 1) % 4 for _, lead, dealer in seen)
    else:
        assert [lead for _, lead, _ in seen] == [(seen[0][1] + k) % 4 for k in range(3)]


def test_R3_5_play_goes_clockwise_and_skips_empty_hands() -> None:
    s = make("Y@Y5 R@R5 G@G5", ["N5"], others={1: ["N6"], 3: ["N9"]})
    play(s, "play n5 y5 y10")
    assert s.to_act == 1
    play(s, "play n6 r5 r11")
    assert s.to_act == 3  # blue holds no card


# --------------------------------------------------------------------------- 4 turn


def test_R4_3_usable_card_must_be_played() -> None:
    s = make("Y@Y5", ["N5", "HEART"])
    assert "discard" not in s.legal_texts()
    s = make("Y@Y5", ["N5", "HEART"], allow_voluntary_discard=True)
    assert "discard" in s.legal_texts()


def test_R4_4_any_usable_card_even_harmful() -> None:
    s = make("Y@Y5 B@Y10", ["N5"])
    play(s, "play n5 y5 y10")  # knocking out one's own partner is allowed (D10)
    assert on(s, "B") == [] and on(s, "Y") == ["Y10"]


# --------------------------------------------------------------------------- 5 movement


def test_R5_1_active_colour() -> None:
    s = make("Y@YH1 Y@YH2 Y@YH3 Y@Y5")
    assert s.active(0) == 0
    s = make("Y@YH1 Y@YH2 Y@YH3 Y@YH4 B@B3", ["N5"])
    assert s.active(0) == 2
    assert texts(s, "play") == ["play n5 b3 b8"]


def test_R5_2_start_field_never_counted_or_landed_on() -> None:
    (after,) = fwd("Y@Y14", "Y", "Y14", 1)
    assert on(after, "Y") == ["R1"]
    for start in range(0, 60, 15):
        for p in range(60):
            for n in (1, 2, 5, 14):
                for e in B.walk(0, p, n, (False,) * 4, 0):
                    assert e != start or False, (p, n)


def test_R5_2_4_piece_on_own_start_field_steps_onto_c1() -> None:
    (after,) = fwd("R@RS", "R", "RS", 1)
    assert on(after, "R") == ["R1"]


def test_R5_3_2_landing_on_own_piece_stacks() -> None:
    s = make("Y@Y2 Y@Y7", ["N5"])
    play(s, "play n5 y2 y7")
    assert on(s, "Y") == ["Y7", "Y7"]


def test_R5_3_5_passed_pieces_are_not_affected() -> None:
    (after,) = fwd("Y@Y1 R@Y3 B@Y4", "Y", "Y1", 5)
    assert on(after, "Y") == ["Y6"] and on(after, "R") == ["Y3"] and on(after, "B") == ["Y4"]


def test_R5_4_protected_pair_does_not_block() -> None:
    (after,) = fwd("Y@Y1 R@Y3 R@Y3", "Y", "Y1", 5)
    assert on(after, "Y") == ["Y6"]


def test_R5_5_optional_house_entry() -> None:
    s = make("Y@G13", ["N5"], house_entry="optional")
    assert sorted(texts(s, "play")) == ["play n5 g13 y4", "play n5 g13 yh4"]
    s = make("Y@G13", ["N5"])
    assert texts(s, "play") == ["play n5 g13 yh4"]


def test_R5_5_bounce_option() -> None:
    s = make("Y@G13", ["N6"], house_overshoot="bounce")
    assert texts(s, "play") == ["play n6 g13 yh3"]  # G14 H1 H2 H3 H4, back to H3
    s = make("Y@G13 Y@YH3", ["N6"], house_overshoot="bounce")
    # G14 H1 H2, blocked by H3, back: H1, G14, G13; the H3 piece: H4, back H3 H2 H1 G14 G13
    assert texts(s, "play") == ["play n6 g13 g13", "play n6 yh3 g13"]
    s = make("Y@G13", ["N6"])
    assert texts(s, "play") == []


def test_R5_5_house_pieces_protected_and_locked() -> None:
    s = make("Y@YH4 Y@YH3 Y@Y5 R@Y9", ["M4", "SWAP", "A114"])
    # -4 never moves house pieces; swap never touches them; H4 is locked, H3 too (H4 full)
    assert texts(s, "play m4") == ["play m4 y5 y1"]
    assert texts(s, "swap") == ["swap y5 y9"]
    assert texts(s, "play a114") == ["play a114=1 y5 y6", "play a114=14 y5 r5"]


def test_R5_8_start_move() -> None:
    s = make("Y@YS", ["HEART"])
    play(s, "start heart")
    assert on(s, "Y") == ["YS", "YS"]
    s = make("Y@YS Y@Y1 Y@Y2 Y@Y3", ["HEART"])
    assert s.legal_texts() == ["discard"]


# --------------------------------------------------------------------------- 6 special cards


def test_R6_4_same_colour_swap_option() -> None:
    s = make("R@R3 R@R5", ["SWAP"])
    assert s.legal_texts() == ["swap r3 r5"]
    before = s.pos
    play(s, "swap r3 r5")
    assert s.pos == before
    s = make("R@R3 R@R5", ["SWAP"], allow_same_colour_swap=False)
    assert s.legal_texts() == ["discard"]


def test_R6_4_swap_ignores_blocking_and_house() -> None:
    s = make("Y@G14 R@RS B@R2", ["SWAP"])
    play(s, "swap r2 g14")
    assert on(s, "Y") == ["R2"] and on(s, "B") == ["G14"]


def test_R6_5_each_piece_once_and_knockouts_on_the_way() -> None:
    s = make("Y@Y1 Y@Y5 R@Y8", ["S7"])
    play(s, "seven y5 3 y8")
    assert on(s, "R") == [] and in_circle(s, "R") == 4  # knocked out by the first part
    assert texts(s) == ["seven y1 4 y5"]
    play(s, "seven y1 4 y5")
    assert on(s, "Y") == ["Y5", "Y8"]


def test_R6_5_split_part_on_protected_pair_sends_mover_back() -> None:
    s = make("Y@Y1 Y@Y5 R@Y8 R@Y8", ["S7"])
    play(s, "seven y5 3 y8")
    assert on(s, "Y") == ["Y1"] and on(s, "R") == ["Y8", "Y8"]
    assert texts(s) == ["seven y1 4 y5"]


def test_R6_5_split_may_stop_early_with_option() -> None:
    s = make("Y@Y1", ["S7"], split_must_use_all=False)
    play(s, "seven y1 2 y3")
    assert s.legal_texts() == ["seven stop"]  # the moved piece cannot move again
    play(s, "seven stop")
    assert s.phase == "play" and s.to_act == 1
    s = make("Y@Y1", ["S7"])
    assert texts(s, "seven") == ["seven y1 7 y8"]


def test_R6_5_parts_in_house() -> None:
    s = make("Y@YH1 Y@Y3", ["S7"])
    assert set(texts(s, "seven")) == {
        "seven yh1 1 yh2",
        "seven yh1 2 yh3",
        "seven yh1 3 yh4",
        "seven y3 4 y7",
        "seven y3 5 y8",
        "seven y3 6 y9",
        "seven y3 7 y10",
    }


def test_R6_5_6_win_during_split_ends_game() -> None:
    s = make("Y@YH2 Y@YH3 Y@YH4 Y@G12 B@BH2 B@BH3 B@BH4 B@R11", ["S7"])
    play(s, "seven g12 3 yh1")
    assert s.phase == "split" and texts(s) == ["seven r11 4 bh1"]
    ev = play(s, "seven r11 4 bh1")
    assert ev[-1]["kind"] == "win" and s.to_act is None
    assert s.outcome() == (1.0, 0.0, 1.0, 0.0)
    assert s.scores() == (8.0, 0.0, 8.0, 0.0)  # pieces home, per partnership
    assert list(s.legal()) == []
    refused(s, "discard", "over")


# --------------------------------------------------------------------------- 7, 8, 9


def test_R7_partner_colour_moves_both_ways() -> None:
    s = make("B@BH1 B@BH2 B@BH3 B@BH4 Y@Y5", ["M4"], seat=2)
    assert s.legal_texts() == ["play m4 y5 y1"]


def test_R8_3_hidden_discards() -> None:
    s = make("", ["N5", "N9", "M4", "S7"], discard_visibility="hidden")
    ev = play(s, "discard")
    assert "cards" not in ev[0] and s.discard == ()
    assert s.view(0)["my_face_down_discards"] == ["M4", "N5", "S7", "N9"]
    assert s.view(1)["my_face_down_discards"] == [] and s.view(None)["face_down_discards"][0] == 4
    d = s.determinize(1, Rng(1))
    assert d.view(1) == s.view(1)
    s.check()
    d.check()


def test_R9_2_max_deals_draw() -> None:
    s = final_state(GAME, 4, 1, {"max_deals": 1})
    assert isinstance(s, PartnersState)
    assert s.deals == 1 and s.winner == -1 and not s.truncated
    assert s.outcome() == (0.5, 0.5, 0.5, 0.5)  # a draw, whatever the scores say


def test_R10_fewer_people() -> None:
    assert seat_controllers(2) == (0, 1, 0, 1)
    assert seat_controllers(3) == (0, 1, 0, 2)
    assert seat_controllers(4) == (0, 1, 2, 3)
    # the sides of the contract are people: one who plays a whole partnership is a side alone
    assert GAME.teams(2) == ((0,), (1,))
    assert GAME.teams(3) == ((0,), (1, 2))
    assert GAME.teams(4) == ((0, 2), (1, 3))
    for people in (2, 3, 4):
        assert GAME.new(people, 0).teams() == GAME.teams(people)


@pytest.mark.parametrize("people", [2, 3])
def test_R10_one_person_plays_a_partnership(people: int) -> None:
    for s in random_walk(GAME, people, 5):
        assert isinstance(s, PartnersState)
        assert s.seats == people and s.ctrl == seat_controllers(people)
        if s.to_act is None:
            break
        assert (
            s.turn is not None and s.to_act == s.ctrl[s.turn]
        )  # the person controlling the colour seat acts
        v = s.view(s.to_act)
        assert v["hand"] == list(s.hands[s.turn])  # he sees the hand of the seat he plays
        if people == 2 or s.to_act == 0:
            # R10.3: he sees both hands of his partnership
            mine = s.controlled(s.to_act)
            assert len(mine) == 2 and {int(k) for k in v["hands"]} == set(mine)
            d = s.determinize(s.to_act, Rng(1))
            assert all(d.hands[k] == s.hands[k] for k in mine)
    r = s.outcome()
    assert r is not None and len(r) == people
    if people == 2:
        assert sorted(r) in ([0.0, 1.0], [0.5, 0.5])
    else:
        assert (r[1] == r[2] and r[0] != r[1]) or r == (0.5, 0.5, 0.5)


def test_option_pieces_per_colour() -> None:
    s = GAME.new(4, 3, build(PartnersOptions, GAME.quick_options))
    assert all(len(p) == GAME.quick_options["pieces_per_colour"] for p in s.pos)
    s = make("Y@G13", ["N3"], n=1, others={1: ["N3"]})
    play(s, "play n3 g13 yh2")
    assert s.view(None)["houses"]["yellow"] == [False, True, False, False]


def test_result_and_view_are_json() -> None:
    s = GAME.new(4, 5)
    for seat in (None, 0, 1, 2, 3):
        json.dumps(s.view(seat))
    for a in s.legal():
        json.dumps(a.to_json())
        assert a.label()


def test_illegal_action_leaves_state_unchanged() -> None:
    s = make("Y@Y12 R@RS", ["N5", "HEART"])
    before = s.copy()
    good = make("Y@Y12", ["N5"])
    with pytest.raises(IllegalAction, match=r"^Partners"):
        s.play(GAME.parse(good, "play n5 y12 r3"))  # an action parsed in another position
    assert s == before


def test_board_helper_round_trip() -> None:
    b = board("Y@G13 R@RS B@R5 B@R5 Y@YH2")
    assert on(b, "B") == ["R5", "R5"] and on(b, "Y") == ["G13", "YH2"]


@pytest.mark.parametrize(
    ("pieces", "hand", "text", "reason"),
    [
        ("Y@Y12 R@RS", ["N5"], "play n5 y12 r3", "red start field blocks"),
        ("Y@G13", ["N6"], "play n6 g13 yh4", "cannot be completed in the house"),
        ("Y@Y5", ["N5", "HEART"], "discard", "must play it"),
        ("R@R3 R@R3 G@B7", ["SWAP"], "swap r3 b7", "protected pair"),
        ("R@RS G@B7", ["SWAP"], "swap rs b7", "start field cannot be swapped"),
        ("Y@Y5", ["N5"], "play n9 y5 y14", "holds no 9"),
        ("Y@Y3 Y@Y10 R@RS", ["S7"], "seven y3 2 y5", "all seven steps"),
        ("Y@Y5", ["N5"], "give n5", "exchange is over"),
    ],
)
def test_illegal_actions_say_why(pieces: str, hand: list[str], text: str, reason: str) -> None:
    refused(make(pieces, hand), text, reason)


def test_D4_fields_per_segment_smaller_ring() -> None:
    s = make("Y@Y7 R@R3", ["A114", "M4"], fields_per_segment=7)
    # Y7 is the last yellow square: one step on skips the empty red start field to R1
    assert texts(s, "play a114=1 ") == ["play a114=1 y7 r1"]
    # 14 steps: R1..R7 (7), B1..B7 (14)
    assert texts(s, "play a114=14") == ["play a114=14 y7 b7"]
    assert texts(s, "play m4") == ["play m4 y7 y3"]
    s = make("Y@Y1", ["M4"], fields_per_segment=7)
    assert texts(s, "play m4") == ["play m4 y1 g4"]  # YS skipped, then G7 G6 G5 G4
    s = make("Y@G6", ["N3"], fields_per_segment=7)
    assert texts(s, "play n3") == ["play n3 g6 yh2"]  # G7, H1, H2
    final_state(GAME, 4, 3, {"fields_per_segment": 7})  # check() at every decision
    with pytest.raises(OptionError):
        build(PartnersOptions, {"fields_per_segment": 3})


def test_R9_decision_bound_stops_the_game_ranked_by_score() -> None:
    """The bound (kind.max_decisions) lies beyond the max_deals draw, so no game reaches it;
    a game stopped there anyway is over, offers nothing, and is ranked by pieces home."""
    assert GAME.kind.max_decisions == 300 * (4 + 16 * 7)
    s = make("Y@YH1 Y@YH2 R@R5", ["N5"])
    s.decisions = GAME.kind.max_decisions - 1
    ev = play(s, "discard")
    assert s.truncated and s.to_act is None and ev[-1]["kind"] == "truncated"
    assert list(s.legal()) == [] and s.view(0)["turn"] is None
    assert s.scores() == (2.0, 0.0, 2.0, 0.0)
    assert s.outcome() == (1.0, 0.0, 1.0, 0.0)
    s.check()
    refused(s, "discard", "over")


def test_positions_from_text() -> None:
    s = from_text("Y@Y3 Y@YH1 R@RS R@RS\nyellow: s7 n5\nred: heart; turn: red")
    assert on(s, "Y") == ["Y3", "YH1"] and on(s, "R") == ["RS", "RS"] and in_circle(s, "B") == 4
    assert s.hands[0] == ("N5", "S7") and s.hands[1] == ("HEART",) and s.hands[2] == ()
    assert s.turn == s.to_act == 1 and s.phase == "play" and s.legal_texts() == ["start heart"]
    for bad in ("Y@Q9", "X@Y1", "Y3", "purple: n5", "turn: nobody", "yellow: n5 n5 n5 n5 n5"):
        with pytest.raises(ValueError):
            from_text(bad)
