"""Kasino: the spec's numbered rules, test cases K1–K23 and worked examples, with exact numbers."""

from __future__ import annotations

from typing import Any

import pytest

from spillebord.core import GameKind, ParseError, Rng
from spillebord.games.kasino import (
    GAME,
    Build,
    Capture,
    Clear,
    Extend,
    KasinoGame,
    KasinoOptions,
    KasinoState,
    Raise,
    Tally,
    Trail,
    score_round,
)
from spillebord.games.kasino.actions import item_id
from spillebord.games.kasino.data import CARD_INDEX, VALUES
from spillebord.games.kasino.position import position
from spillebord.testing import final_state, play, random_walk, refused


def C(cid: str) -> int:
    return CARD_INDEX[cid]


def S(*ids: str) -> frozenset[str]:
    return frozenset(ids)


def capture_sets(state: KasinoState, card: str) -> set[frozenset[str]]:
    return {
        frozenset(item_id(i) for i in a.taken())
        for a in state.legal()
        if isinstance(a, Capture) and a.card == C(card)
    }


def texts(state: KasinoState) -> list[str]:
    return [str(a) for a in state.legal()]


def why(state: KasinoState, text: str) -> str:
    """The reason ``text`` is refused (the state is left as it was: ``refused`` checks)."""
    msg = str(refused(state, text))
    assert msg.startswith("Kasino")
    return msg


# --------------------------------------------------------------------------- 1. values


def test_R1_2_card_values() -> None:
    assert VALUES[C("AH")] == (1, 14)
    assert VALUES[C("2S")] == (2, 15)
    assert VALUES[C("10D")] == (10, 16)
    assert VALUES[C("2H")] == (2,)
    assert VALUES[C("10C")] == (10,)
    assert VALUES[C("JD")] == (11,) and VALUES[C("QD")] == (12,) and VALUES[C("KD")] == (13,)
    assert VALUES[C("5S")] == (5,)


def test_R1_4_hand_high_table_low_values() -> None:
    # A hand ace counts 14 only; a table ace 1 only.
    s = position(["AH 3C", "KS"], loose="AC KD", value_mode="hand_high_table_low")
    assert capture_sets(s, "AH") == {S("AC", "KD")}
    s = position(["AH 3C", "KS"], loose="AC KD")
    assert capture_sets(s, "AH") == {S("AC"), S("AC", "KD")}


# --------------------------------------------------------------------------- 3. dealing


def test_R3_1_first_hand_four_cards_each_and_four_on_the_table() -> None:
    for n in (2, 3, 4):
        s = GAME.new(n, 5)
        assert [len(h) for h in s.hands] == [4] * n
        assert len(s.loose) == 4 and not s.builds
        assert len(s.stock) == 52 - 4 - 4 * n
        assert s.to_act == (s.dealer + 1) % n
        s.check()


def _hand_leaders(s: KasinoState) -> list[tuple[int, int | None]]:
    """(hand number, leader) for each hand of the round, playing at random from ``s``."""
    out = [(s.hand_no, s.to_act)]
    rng = Rng(1)
    while s.to_act is not None and s.round_no == 1:
        hand_no = s.hand_no
        play(s, str(rng.choice(s.legal())))
        if s.hand_no != hand_no and s.round_no == 1:
            out.append((s.hand_no, s.to_act))
    return out


def test_K21_hands_per_round_and_stock_empty_after_last_deal() -> None:
    for n, hands in ((2, 6), (3, 4), (4, 3)):
        assert GAME.new(n, 11).hands_per_round == hands
        dealt = [1]
        for s in random_walk(GAME, n, 11):
            assert isinstance(s, KasinoState)
            if s.round_no > 1:
                break
            if s.hand_no != dealt[-1]:
                dealt.append(s.hand_no)
            last = s.hand_no == hands
            assert s.last_hand == last and s.view(None)["last_hand"] == last
            assert (len(s.stock) == 0) == last
        assert dealt == list(range(1, hands + 1))


def test_K23_hand_leaders_rotate() -> None:
    s = position(["2H 3H 4H 5H", "2C 3C 4C 5C", "2D 3D 4D 5D"], loose="6S 7S 8S 9S", to_act=0, dealer=2)
    assert [leader for _, leader in _hand_leaders(s)] == [0, 1, 2, 0]


def test_K23_hand_lead_continue_option() -> None:
    s = position(
        ["2H 3H 4H 5H", "2C 3C 4C 5C", "2D 3D 4D 5D"],
        loose="6S 7S 8S 9S",
        to_act=0,
        dealer=2,
        hand_lead="continue",
    )
    assert [leader for _, leader in _hand_leaders(s)] == [0, 0, 0, 0]


def test_R2_2_dealer_rotates_each_round() -> None:
    dealers: list[int] = []
    for s in random_walk(GAME, 3, 4, {"target": 200}):
        assert isinstance(s, KasinoState)
        if s.round_no == 5:
            break
        if len(dealers) < s.round_no:
            dealers.append(s.dealer)
    assert [(d - dealers[0]) % 3 for d in dealers] == [0, 1, 2, 0]


# --------------------------------------------------------------------------- 6. captures


def test_K1_6_3_1_nine_takes_3_6_and_2_7() -> None:
    s = position(["9H KS", "QS"], loose="3S 6D 2C 7D")
    assert capture_sets(s, "9H") == {S("3S", "6D"), S("2C", "7D"), S("3S", "6D", "2C", "7D")}


def test_K2_6_3_2_ace_either_mode() -> None:
    s = position(["AH", "QS"], loose="AC 6D 8S KD")
    assert capture_sets(s, "AH") == {
        S("AC"),
        S("6D", "8S"),
        S("AC", "KD"),
        S("AC", "6D", "8S"),
        S("AC", "6D", "8S", "KD"),
    }


def test_K2_6_3_2_ace_hand_high_table_low() -> None:
    s = position(["AH", "QS"], loose="AC 6D 8S KD", value_mode="hand_high_table_low")
    assert capture_sets(s, "AH") == {S("6D", "8S"), S("AC", "KD"), S("AC", "6D", "8S", "KD")}


def test_K3_6_3_3_big_casino_one_value_per_capture() -> None:
    s = position(["10D", "QS"], loose="9S 7C 10C 6H")
    sets = capture_sets(s, "10D")
    assert sets == {S("10C"), S("9S", "7C"), S("10C", "6H"), S("9S", "7C", "10C", "6H")}
    assert S("10C", "9S", "7C") not in sets


def test_K4_6_3_4_little_casino() -> None:
    s = position(["2S", "QS"], loose="8D 7C 2H 5D")
    sets = capture_sets(s, "2S")
    assert sets == {S("2H"), S("8D", "7C"), S("8D", "2H", "5D")}
    assert S("8D", "7C", "2H", "5D") not in sets


def test_K5_6_3_5_build_is_a_group_of_its_own() -> None:
    s = position(["9H KC", "9D QS"], loose="9C 4S 5D 2H", builds=[(9, False, "7S+2D", 1)])
    sets = capture_sets(s, "9H")
    assert sets == {
        S("9C"),
        S("B7S"),
        S("4S", "5D"),
        S("9C", "B7S"),
        S("9C", "4S", "5D"),
        S("B7S", "4S", "5D"),
        S("9C", "B7S", "4S", "5D"),
    }
    assert len(sets) == 7
    assert not any("2H" in x for x in sets)


def test_K6_6_3_6_build_not_in_sums_by_default() -> None:
    s = position(["KH 4C", "QS"], loose="9S", builds=[(4, False, "3C+AD", 1)])
    assert capture_sets(s, "KH") == set()
    refused(s, "KH take B3C+9S")
    s = position(["KH 4C", "QS"], loose="9S", builds=[(4, False, "3C+AD", 1)], build_in_sums=True)
    assert capture_sets(s, "KH") == {S("B3C", "9S")}
    play(s, "KH take B3C+9S")
    assert s.piles[0] == (C("KH"), C("9S"), C("3C"), C("AD"))


def test_R6_2_one_action_per_distinct_effect() -> None:
    # AC can be taken as 1 or as 14: one action; 3+6|2+7 has one text.
    s = position(["AH", "QS"], loose="AC 6D 8S KD")
    caps = [a for a in s.legal() if isinstance(a, Capture)]
    assert len(caps) == len({a.taken() for a in caps}) == 5
    s = position(["9H", "QS"], loose="3S 6D 2C 7D")
    assert [t for t in texts(s) if "take" in t] == ["9H take 3S+6D", "9H take 2C+7D", "9H take 3S+6D,2C+7D"]


def test_R6_2_capture_effect_and_text_round_trip() -> None:
    s = position(["9H KS", "QS 2H"], loose="3S 6D 2C 7D 5H")
    for a in s.legal():
        assert GAME.parse(s, str(a)) == a
    # any grouping or order of the same set names the same action
    a = GAME.parse(s, "9H take 7D+2C,6D+3S")
    assert str(a) == "9H take 3S+6D,2C+7D"
    events = s.play(a)
    assert s.piles[0] == (C("9H"), C("3S"), C("6D"), C("2C"), C("7D"))
    assert s.loose == (C("5H"),)
    assert events[0]["kind"] == "capture" and "sweep" not in events[0]
    assert s.to_act == 1


def test_R6_1_trail_allowed_even_when_a_capture_exists() -> None:
    s = position(["9H KS", "QS"], loose="9C")
    assert "9H trail" in texts(s) and "9H take 9C" in texts(s)
    play(s, "9H trail")
    assert s.loose == (C("9C"), C("9H"))


def test_R6_2_illegal_capture_is_refused_with_reason() -> None:
    s = position(["9H KS", "QS"], loose="3S 6D 2C 7D")
    msg = why(s, "9H take 3S+6D+2C")
    assert "cannot capture" in msg
    refused(s, "9H take 6D")
    assert "do not hold" in why(s, "8H take 6D") or "does not hold" in why(s, "8H take 6D")
    with pytest.raises(ParseError):
        GAME.parse(s, "9H grab 6D")


# --------------------------------------------------------------------------- 7. ♠5


def test_K16_spade5_clears_the_table() -> None:
    s = position(["5S 2D", "9C 3H"], loose="KC 3D", builds=[(9, False, "7S+2H", 1)])
    assert "5S clear" in texts(s)
    events = play(s, "5S clear")
    assert set(s.piles[0]) == {C(x) for x in ("5S", "KC", "3D", "7S", "2H")}
    assert not s.loose and not s.builds
    assert s.sweeps == (1, 0)
    assert events[0]["sweep"] is True
    # B's build is gone, and with it his obligations
    assert s.own_build(1) is None


def test_D6_spade5_sweep_option() -> None:
    s = position(["5S 2D", "9C 3H"], loose="KC 3D", spade5_sweep=False)
    play(s, "5S clear")
    assert s.sweeps == (0, 0)


def test_K17_spade5_on_an_empty_table_only_trails() -> None:
    s = position(["5S", "9C"], loose="")
    assert texts(s) == ["5S trail"]
    refused(s, "5S clear")


# --------------------------------------------------------------------------- 8. builds


def test_K7_8_2_5_build_nine() -> None:
    s = position(["2H 9C QS 8D", "AS 10C 3D 6C"], loose="7D 5S 4C KH")
    assert "2H build 9 on 7D" in texts(s)
    assert "8D build 12 on 4C" in texts(s)
    play(s, "2H build 9 on 7D")
    (b,) = s.builds
    assert (b.value, b.multiple, b.owner, b.cards()) == (9, False, 0, (C("7D"), C("2H")))
    assert s.loose == (C("5S"), C("4C"), C("KH"))
    assert s.hands[0] == tuple(sorted((C("9C"), C("QS"), C("8D"))))
    assert s.view(None)["table"]["builds"] == [
        {"id": "B7D", "value": 9, "kind": "simple", "groups": [["7D", "2H"]], "owner": 0}
    ]


def test_K8_8_2_5_holding_requirement() -> None:
    s = position(["2H QS 8D 3C", "AS 10C 3D 6C"], loose="7D 5S 4C KH")
    assert "2H build 9 on 7D" not in texts(s)
    assert "8.1.2" in why(s, "2H build 9 on 7D")


def test_K9_raise_a_build_bygger_videre() -> None:
    s = position(["2H 9C QS 8D", "AS 10C 3D 6C"], loose="7D 5S 4C KH")
    play(s, "2H build 9 on 7D")
    assert "AS raise B7D to 10" in texts(s)
    assert "AS raise B7D to 23" not in texts(s)
    refused(s, "AS raise B7D to 23")
    play(s, "AS raise B7D to 10")
    (b,) = s.builds
    assert (b.value, b.multiple, b.owner) == (10, False, 1)
    assert b.cards() == (C("7D"), C("2H"), C("AS"))
    # A's 9 can no longer take it
    assert not any("B7D" in x for x in capture_sets(s, "9C"))


def test_K10_multiple_build_cannot_be_raised() -> None:
    s = position(["AH 10S", "9C 9H"], loose="3C", builds=[(9, True, "9D|4S+5S", 1)])
    assert not any(isinstance(a, Raise) for a in s.legal())
    assert "8.4.3" in why(s, "AH raise B9D to 10")


def test_K11_mere_syv_same_value_build() -> None:
    s = position(["7S 7H 2C", "7C AH 8C"], loose="7D 3H")
    assert "7S build 7 on 7D" in texts(s)
    play(s, "7S build 7 on 7D")
    (b,) = s.builds
    assert (b.value, b.multiple, b.owner) == (7, True, 0)
    assert b.groups == ((C("7D"),), (C("7S"),))
    # B, with a 7, may take it; nobody may raise it
    assert S("B7D") in capture_sets(s, "7C")
    assert not any(isinstance(a, Raise) for a in s.legal())


def test_R8_2_4_gathering_equal_groups_makes_a_multiple_build() -> None:
    # With D21 optional (engine version 1): any choice of the equal groups may be gathered.
    s = position(["2H 9C", "KS QS"], loose="7D 9S 4C 5H KH", gathering="optional")
    t = texts(s)
    for x in (
        "2H build 9 on 7D",
        "2H build 9 on 7D gather 9S",
        "2H build 9 on 7D gather 4C+5H",
        "2H build 9 on 7D gather 9S,4C+5H",
    ):
        assert x in t
    builds9 = [a for a in s.legal() if isinstance(a, Build) and a.value == 9]
    assert len(builds9) == 4
    play(s, "2H build 9 on 7D gather 9S,4C+5H")
    (b,) = s.builds
    assert b.multiple and b.value == 9 and len(b.groups) == 3
    assert s.loose == (C("KH"),)


def test_R8_3_3_mere_with_gathering_one_action_per_effect() -> None:
    s = position(["7S 7H", "KS QS"], loose="7D 7C 3H 4D", gathering="optional")
    sevens = [a for a in s.legal() if isinstance(a, Build) and a.value == 7]
    effects = {a.key() for a in sevens}
    assert len(effects) == len(sevens)
    # {7D}, {7C}, {7D,7C}, {7D,3H,4D}, {7C,3H,4D}, {7D,7C,3H,4D}
    assert {frozenset(a.cards_used()) for a in sevens} == {
        frozenset({C("7D")}),
        frozenset({C("7C")}),
        frozenset({C("7D"), C("7C")}),
        frozenset({C("7D"), C("3H"), C("4D")}),
        frozenset({C("7C"), C("3H"), C("4D")}),
        frozenset({C("7D"), C("7C"), C("3H"), C("4D")}),
    }


def test_D21_R8_2_4_loose_cards_of_the_built_value_must_be_gathered() -> None:
    """Er det muligt at bygge flere 9'ere, og så skal man lægge dem i samme bunke.

    Default (``gathering = compulsory``): the loose 9♠ must go into the new 9-build; the 4+5
    sum stays optional. Table 7♦ 9♠ 4♣ 5♥ K♥; 2♥ on 7♦ as nine."""
    s = position(["2H 9C", "KS QS"], loose="7D 9S 4C 5H KH")
    builds9 = sorted(str(a) for a in s.legal() if isinstance(a, Build) and a.value == 9)
    assert builds9 == ["2H build 9 on 7D gather 9S", "2H build 9 on 7D gather 9S,4C+5H"]
    assert "8.2.4" in why(s, "2H build 9 on 7D")
    assert "9♠" in why(s, "2H build 9 on 7D gather 4C+5H")
    play(s, "2H build 9 on 7D gather 9S")
    (b,) = s.builds
    assert (b.value, b.multiple, b.groups) == (9, True, ((C("7D"), C("2H")), (C("9S"),)))
    assert s.loose == (C("4C"), C("5H"), C("KH"))


def test_D21_optional_leaves_the_loose_cards_of_the_value_on_the_table() -> None:
    """Er det muligt at bygge flere 9'ere, og så skal man lægge dem i samme bunke.

    ``gathering = optional`` (engine version 1): the 9♠ may stay loose."""
    s = position(["2H 9C", "KS QS"], loose="7D 9S 4C 5H KH", gathering="optional")
    play(s, "2H build 9 on 7D")
    (b,) = s.builds
    assert not b.multiple and C("9S") in s.loose


def test_D21_R8_3_3_mere_syv_gathers_every_loose_seven() -> None:
    """Er det muligt at bygge flere 9'ere, og så skal man lægge dem i samme bunke.

    "Mere syv" with 7♠ or 7♥ on a table 7♦ 7♣ 3♥ 4♦: both loose 7s go in; 3+4 is optional.
    Of the six card sets that ``optional`` allows (R8.3.3) two remain."""
    s = position(["7S 7H", "KS QS"], loose="7D 7C 3H 4D")
    sevens = [a for a in s.legal() if isinstance(a, Build) and a.value == 7]
    assert {frozenset(a.cards_used()) for a in sevens} == {
        frozenset({C("7D"), C("7C")}),
        frozenset({C("7D"), C("7C"), C("3H"), C("4D")}),
    }
    assert len(sevens) == 4  # played with 7♠ or with 7♥


def test_D21_R8_5_extend_gathers_the_loose_cards_of_the_value() -> None:
    """Er det muligt at bygge flere 9'ere, og så skal man lægge dem i samme bunke.

    Extending seat 1's 9-build (7♠+2♥) on a table 5♥ 9♦ K♦: the loose 9♦ must go in."""
    s = position(["4C 9H 9S", "QS KS"], loose="5H 9D KD", builds=[(9, False, "7S+2H", 1)])
    ext = sorted(str(a) for a in s.legal() if isinstance(a, Extend))
    assert ext == [
        "4C extend B7S with 5H gather 9D",
        "9H extend B7S gather 9D",
        "9S extend B7S gather 9D",
    ]
    assert "8.2.4" in why(s, "4C extend B7S with 5H")
    s = position(
        ["4C 9H 9S", "QS KS"], loose="5H 9D KD", builds=[(9, False, "7S+2H", 1)], gathering="optional"
    )
    ext = {str(a) for a in s.legal() if isinstance(a, Extend)}
    assert {"4C extend B7S with 5H", "9H extend B7S", "4C extend B7S with 5H gather 9D"} <= ext


def test_D20_R8_5_1_further_builds_of_a_value_go_into_the_same_pile() -> None:
    """Er det muligt at bygge flere 9'ere, og så skal man lægge dem i samme bunke.

    Seat 1's simple 9-build (6♠+3♥) lies on the table. Seat 0 (2♥ 9♣ K♠) may not put 2♥ on 7♦
    as a second 9-pile; he extends seat 1's pile with 2♥+7♦ instead, which makes it multiple
    (no longer raisable) and his."""
    s = position(["2H 9C KS", "AC 10C"], loose="7D 5S", builds=[(9, False, "6S+3H", 1)])
    t = texts(s)
    assert "2H build 9 on 7D" not in t
    assert "2H extend B6S with 7D" in t
    assert "same pile" in why(s, "2H build 9 on 7D") and "B6S" in why(s, "2H build 9 on 7D")
    play(s, "2H extend B6S with 7D")
    (b,) = s.builds
    assert (b.value, b.multiple, b.owner) == (9, True, 0)
    assert b.groups == ((C("6S"), C("3H")), (C("7D"), C("2H")))
    assert not any(isinstance(a, Raise) for a in s.legal())  # seat 1's ace cannot raise it now


def test_D20_separate_allows_a_second_pile_of_the_same_value() -> None:
    """Er det muligt at bygge flere 9'ere, og så skal man lægge dem i samme bunke.

    ``more_builds = separate`` (engine version 1): ``2H build 9 on 7D`` makes a second 9-pile
    and seat 1's pile stays simple and raisable (A♣ as 1 makes it 10; seat 1 keeps 10♣)."""
    s = position(
        ["2H 9C KS", "AC 10C"], loose="7D 5S", builds=[(9, False, "6S+3H", 1)], more_builds="separate"
    )
    play(s, "2H build 9 on 7D")
    assert [(b.value, b.multiple, b.owner) for b in s.builds] == [(9, False, 1), (9, False, 0)]
    assert "AC raise B6S to 10" in texts(s)


def test_D20_R8_5_1_a_raise_onto_a_value_already_built_joins_that_pile() -> None:
    """Er det muligt at bygge flere 9'ere, og så skal man lægge dem i samme bunke.

    Three players: seat 1 owns a 7-build (4♠+3♥), seat 2 a 9-build (6♠+3♦). Seat 0 raises the
    7 to 9 with 2♥: it goes onto the 9-pile, one multiple 9-build of seat 0."""
    opts: dict[str, Any] = {"builds": [(7, False, "4S+3H", 1), (9, False, "6S+3D", 2)]}
    s = position(["2H 9C KS", "AC 10C", "QC JC"], loose="5S", **opts)
    play(s, "2H raise B4S to 9")
    (b,) = s.builds
    assert (b.value, b.multiple, b.owner) == (9, True, 0)
    assert b.groups == ((C("6S"), C("3D")), (C("4S"), C("3H"), C("2H")))
    assert s.loose == (C("5S"),)
    s = position(["2H 9C KS", "AC 10C", "QC JC"], loose="5S", more_builds="separate", **opts)
    play(s, "2H raise B4S to 9")
    assert [(b.value, b.multiple, b.owner) for b in s.builds] == [(9, False, 0), (9, False, 2)]


def test_D20_R9_1_an_owner_may_not_raise_his_build_into_another_players_pile() -> None:
    """Er det muligt at bygge flere 9'ere, og så skal man lægge dem i samme bunke.

    Seat 0 owns the 7-build; raising it to 9 would put it into seat 1's 9-pile, i.e. build on
    another player's build while owning one (rule 9.1)."""
    opts: dict[str, Any] = {"builds": [(7, False, "4S+3H", 0), (9, False, "6S+3D", 1)]}
    s = position(["2H 9C 7C", "AC 10C"], loose="5S", **opts)
    assert "2H raise B4S to 9" not in texts(s)
    assert "9.1" in why(s, "2H raise B4S to 9")
    s = position(["2H 9C 7C", "AC 10C"], loose="5S", more_builds="separate", **opts)
    assert "2H raise B4S to 9" in texts(s)


def test_D5_build_base_many_cards() -> None:
    s = position(["2H 9C", "KS QS"], loose="3D 4C KH")
    assert "2H build 9 on 3D+4C" not in texts(s)
    s = position(["2H 9C", "KS QS"], loose="3D 4C KH", build_base="many_cards")
    assert "2H build 9 on 3D+4C" in texts(s)
    play(s, "2H build 9 on 3D+4C")
    assert s.builds[0].groups == ((C("3D"), C("4C"), C("2H")),) and not s.builds[0].multiple


def test_R8_5_extend_another_players_build() -> None:
    s = position(["4C 9H 2D", "9S QS"], loose="5H KD", builds=[(9, False, "7S+2H", 1)])
    assert "4C extend B7S with 5H" in texts(s)
    assert "9H extend B7S" not in texts(s)  # would keep no 9
    play(s, "4C extend B7S with 5H")
    (b,) = s.builds
    assert (b.value, b.multiple, b.owner) == (9, True, 0)
    assert b.groups == ((C("7S"), C("2H")), (C("5H"), C("4C")))


def test_K12_one_build_at_a_time_but_may_extend_own() -> None:
    s = position(["3C 4H 8S 9D", "KC QC"], loose="5S KS", builds=[(9, False, "7S+2H", 0)])
    assert "3C build 8 on 5S" not in texts(s)
    assert "9.1" in why(s, "3C build 8 on 5S")
    assert "4H extend B7S with 5S" in texts(s)
    play(s, "4H extend B7S with 5S")
    (b,) = s.builds
    assert b.multiple and b.owner == 0 and C("9D") in s.hands[0]


def test_R9_1_owner_may_not_build_on_another_players_build() -> None:
    s = position(
        ["AC 10S 9D 2C", "KC QC"], loose="7H", builds=[(9, False, "7S+2H", 0), (9, False, "5D+4D", 1)]
    )
    assert not any(isinstance(a, Raise | Extend) and a.build == C("5D") for a in s.legal())
    assert any(isinstance(a, Raise) and a.build == C("7S") for a in s.legal())


def test_K13_must_capture_after_building() -> None:
    s = position(["9H QS 4D", "KC 2C 3C"], loose="5S KD 8D", builds=[(9, False, "7S+2H", 0)], built_last=[0])
    assert texts(s) == ["9H take B7S"]
    assert "9.2" in why(s, "4D trail")


def test_K14_must_capture_but_any_capture_and_keep_the_reserve() -> None:
    s = position(["9H KS 4D", "KC 2C 3C"], loose="5S KD 8D", builds=[(9, False, "7S+2H", 0)], built_last=[0])
    assert sorted(texts(s)) == sorted(["9H take B7S", "KS take KD", "KS take 5S+8D", "KS take KD,5S+8D"])
    play(s, "KS take KD,5S+8D")
    play(s, "2C trail")
    # later turn: 4 may be trailed; the 9 only takes the build
    t = texts(s)
    assert "4D trail" in t
    assert [x for x in t if x.startswith("9H")] == ["9H take B7S"]
    assert "9.3" in why(s, "9H trail")


def test_K15_last_card_must_take_the_build() -> None:
    s = position(["9H", "KC"], loose="4S 5D", builds=[(9, False, "7S+2H", 0)])
    assert set(texts(s)) == {"9H take B7S", "9H take 4S+5D,B7S"}


def test_R9_2_obligation_lapses_without_a_capture() -> None:
    # A's build was raised away; he holds no capture: he may trail.
    s = position(["9H 3D", "KC"], loose="", builds=[(10, False, "7S+2H+AS", 1)], built_last=[0])
    assert "3D trail" in texts(s) and "9H trail" in texts(s)


def test_D8_classic_obligations() -> None:
    s = position(
        ["9H QS 4D", "KC 2C 3C"],
        loose="5S KD 8D",
        builds=[(9, False, "7S+2H", 0)],
        built_last=[0],
        build_obligations="classic",
    )
    t = texts(s)
    assert not any(x.endswith("trail") for x in t)  # the owner of a build may not trail
    assert "9H take B7S" in t and "QS build" not in " ".join(t)
    assert "classic" in why(s, "4D trail")
    s2 = position(
        ["9H 9D 4D", "KC"],
        loose="KS",
        builds=[(9, False, "7S+2H", 0)],
        built_last=[0],
        build_obligations="classic",
    )
    assert "9H take B7S" in texts(s2) and "4D extend B7S" not in texts(s2)


# --------------------------------------------------------------------------- 10. sweeps, sidsten


def test_R10_1_sweep_when_the_table_is_left_empty() -> None:
    s = position(["9H KS", "QS 2D"], loose="3S 6D")
    events = play(s, "9H take 3S+6D")
    assert s.sweeps == (1, 0) and events[0]["sweep"] is True
    assert s.view(None)["piles"][0]["sweeps"] == 1


def _last_play_position(**kw: Any) -> KasinoState:
    return position(["", "", "6D"], loose="4C JH", to_act=2, stock="", last_capturer=0, **kw)


def test_K18_last_trick_sidsten() -> None:
    s = _last_play_position(target=100)
    events = play(s, "6D trail")
    (sid,) = [e for e in events if e["kind"] == "sidsten"]
    assert sid["seat"] == 0 and sid["taken"] == ["4C", "JH", "6D"]
    points = s.history[-1]["points"]
    assert points[0]["sidsten"] == 1 and points[1]["sidsten"] == 0 and points[2]["sidsten"] == 0
    assert all(p["sweeps"] == 0 for p in points)
    assert s.round_no == 2  # a new round is dealt


def test_D14_last_play_sweep_option() -> None:
    for counts, sweeps in ((True, 1), (False, 0)):
        s = position(
            ["", "9H"],
            loose="9C",
            to_act=1,
            stock="",
            last_capturer=0,
            target=100,
            last_play_sweep_counts=counts,
        )
        play(s, "9H take 9C")
        assert s.history[-1]["points"][1]["sweeps"] == sweeps
        assert s.history[-1]["points"][1]["sidsten"] == 1


def test_D15_nobody_captured_leftovers_set_aside() -> None:
    s = position(["", "9H"], loose="3C", to_act=1, stock="", last_capturer=None, target=100, piles=["", ""])
    events = play(s, "9H trail")
    assert not [e for e in events if e["kind"] == "sidsten"]
    assert all(p["sidsten"] == 0 for p in s.history[-1]["points"])


# --------------------------------------------------------------------------- 11. scoring


def test_K19_ties_for_most_give_nobody_the_points() -> None:
    t = [Tally(cards=18, spades=5), Tally(cards=17, spades=5), Tally(cards=17, spades=3)]
    pts = score_round(t, None)
    assert [p["spades"] for p in pts] == [0, 0, 0]
    assert [p["cards"] for p in pts] == [1, 0, 0]


def test_K20_11_4_scoring_example() -> None:
    a = Tally(cards=27, spades=8, big_casino=True, aces=2, sweeps=1)
    b = Tally(cards=25, spades=5, little_casino=True, aces=2, sweeps=2)
    pa, pb = score_round([a, b], 0, cancellation=True)
    assert pa == {
        "cards": 1,
        "spades": 2,
        "big_casino": 2,
        "little_casino": 0,
        "aces": 2,
        "sidsten": 1,
        "sweeps": 0,
        "total": 8,
    }
    assert pb == {
        "cards": 0,
        "spades": 0,
        "big_casino": 0,
        "little_casino": 1,
        "aces": 2,
        "sidsten": 0,
        "sweeps": 1,
        "total": 4,
    }
    pa, pb = score_round([a, b], 0, cancellation=False)
    assert (pa["total"], pb["total"]) == (9, 5)


def test_R11_1_at_most_11_points_besides_sweeps() -> None:
    a = Tally(cards=40, spades=13, big_casino=True, little_casino=True, aces=4)
    (pa, pb) = score_round([a, Tally(cards=12)], 0)
    assert pa["total"] == 11 and pb["total"] == 0


def test_K22_game_end_and_ties() -> None:
    s = position(["9H", "KS"], loose="3C")
    s.totals = (22, 19)
    assert s._game_over()
    s.totals = (22, 22)
    assert not s._game_over()
    s.totals = (20, 19)
    assert not s._game_over()


def _final_play(totals: list[int]) -> KasinoState:
    # Last play of a round: B takes 9C (sidsten, no sweep on the last play).
    # A holds AS AH in his pile: 2 aces + most spades (1 v 0) = 4; cards tie (2 v 2); B: sidsten 1.
    return position(
        ["", "9H"],
        loose="9C",
        to_act=1,
        stock="",
        last_capturer=0,
        totals=totals,
        piles=["AS AH", ""],
        last_play_sweep_counts=False,
    )


def test_K22_tie_at_the_target_plays_another_round() -> None:
    s = _final_play([20, 23])
    play(s, "9H take 9C")
    assert [p["total"] for p in s.history[-1]["points"]] == [4, 1]
    assert s.totals == (24, 24) and s.scores() == (24.0, 24.0)
    assert s.to_act is not None and s.round_no == 2 and s.outcome() is None


def test_K22_unique_top_at_the_target_wins() -> None:
    s = _final_play([20, 22])
    events = play(s, "9H take 9C")
    assert s.totals == (24, 23)
    assert s.to_act is None and s.scores() == (24.0, 23.0) and s.outcome() == (1.0, 0.0)
    assert not s.truncated and s.view(None)["result"] == [24.0, 23.0]
    assert events[-1]["kind"] == "game_over"
    assert s.legal() == []


def test_K22_scores_are_the_running_totals_at_any_time() -> None:
    s = position(["9H", "KS"], loose="3C", totals=[7, 12])
    assert s.scores() == (7.0, 12.0) and s.outcome() is None and s.view(0)["result"] is None


def test_R11_3_play_to_the_target() -> None:
    s = final_state(GAME, 2, 3)
    r = s.scores()
    assert max(r) >= 21 and list(r).count(max(r)) == 1
    out = s.outcome()
    assert out is not None and out[r.index(max(r))] == 1.0 and sum(out) == 1.0


def test_D16_one_round_per_player() -> None:
    s = final_state(GAME, 3, 3, {"match_format": "one_round_per_player"})
    assert isinstance(s, KasinoState)
    assert s.round_no == 3 and len(s.history) == 3


def test_D16_one_round_per_player_ties_share_the_win() -> None:
    # The last play of the last round (3 players, round 3): B's take is sidsten; A and B tie.
    def last_play(totals: list[int]) -> KasinoState:
        return position(
            ["", "9H", ""],
            loose="9C",
            to_act=1,
            stock="",
            last_capturer=0,
            totals=totals,
            round_no=3,
            piles=["AS AH", "", ""],
            last_play_sweep_counts=False,
            match_format="one_round_per_player",
        )

    # Round points: A 2 aces + most spades = 4; B sidsten 1 (cards tie 2 v 2, C has none).
    s = last_play([10, 13, 5])
    play(s, "9H take 9C")
    assert s.to_act is None and s.scores() == (14.0, 14.0, 5.0)
    assert s.outcome() == (0.5, 0.5, 0.0)
    s = last_play([10, 14, 5])
    play(s, "9H take 9C")
    assert s.scores() == (14.0, 15.0, 5.0) and s.outcome() == (0.0, 1.0, 0.0)


def test_D19_partnerships_pool_and_share() -> None:
    with pytest.raises(Exception, match="partnerships"):
        GAME.new(3, 1, KasinoOptions(partnerships=True))
    assert GAME.teams(4, KasinoOptions(partnerships=True)) == ((0, 2), (1, 3))
    assert GAME.teams(4) == ((0,), (1,), (2,), (3,))
    s = final_state(GAME, 4, 9, {"partnerships": True, "match_format": "one_round_per_player"})
    assert isinstance(s, KasinoState)
    r = s.scores()
    assert r[0] == r[2] and r[1] == r[3]
    assert s.teams() == ((0, 2), (1, 3))
    out = s.outcome()
    assert out is not None and out[0] == out[2] and out[1] == out[3] and out[0] + out[1] == 1.0
    for h in s.history:
        assert len(h["points"]) == 2


def test_a_game_stopped_at_the_decision_bound_is_ranked_by_totals() -> None:
    class Short(KasinoGame):
        kind = GameKind(hidden_information=True, chance=True, public_actions=True, max_decisions=60)

    game = Short()
    s = game.new(2, 3, KasinoOptions(target=1000))
    while s.to_act is not None:
        events = s.play(s.legal()[0])
    assert s.truncated and s.decisions == 60 and events[-1]["kind"] == "truncated"
    assert s.legal() == [] and s.round_no == 2  # round 1 (48 decisions) was scored
    t = s.totals
    assert s.scores() == (float(t[0]), float(t[1]))
    expected = (1.0, 0.0) if t[0] > t[1] else (0.0, 1.0) if t[1] > t[0] else (0.5, 0.5)
    assert s.outcome() == expected


def test_D13_sweep_cancellation_option() -> None:
    t = [Tally(sweeps=3), Tally(sweeps=1)]
    assert [p["sweeps"] for p in score_round(t, None, True)] == [2, 0]
    assert [p["sweeps"] for p in score_round(t, None, False)] == [3, 1]


# --------------------------------------------------------------------------- views, texts


def test_view_hides_other_hands_and_uses_card_ids() -> None:
    s = position(["9H KS", "QS 2D"], loose="3S 6D", builds=[(9, False, "7S+2H", 1)])
    v0, vs = s.view(0), s.view(None)
    assert v0["hand"] == ["9H", "KS"] and vs["hand"] is None
    assert v0["hand_sizes"] == [2, 2]
    assert "QS" not in str(v0)
    assert v0["table"]["loose"] == ["3S", "6D"]
    a = next(a for a in s.legal() if isinstance(a, Capture))
    assert a.to_json()["card"] == "9H"


def test_action_kinds_round_trip() -> None:
    s = position(["2H 9C AS 5S", "KS QS"], loose="7D 9S 4C 5H", builds=[(9, False, "6S+3S", 1)])
    kinds = {type(a) for a in s.legal()}
    assert {Capture, Build, Raise, Extend, Trail, Clear} <= kinds
    for a in s.legal():
        assert GAME.parse(s, str(a)) == a
        assert a.label()
        assert a.to_json()["kind"] in ("capture", "build", "raise", "extend", "trail", "clear")


def test_D16_target_option_ends_the_game_early() -> None:
    s = final_state(GAME, 2, 8, {"target": 5})
    assert isinstance(s, KasinoState)
    r = s.scores()
    assert max(r) >= 5 and len(s.history) <= 3


def test_D13_sweep_cancellation_in_play() -> None:
    for cancel, expected in ((True, [1, 0]), (False, [2, 1])):
        s = position(
            ["", "9H"],
            loose="9C",
            to_act=1,
            stock="",
            last_capturer=0,
            target=100,
            sweeps=[2, 0],
            sweep_cancellation=cancel,
        )
        play(s, "9H take 9C")  # B's sweep on the last play: 2 v 1 sweeps
        assert [p["sweeps"] for p in s.history[-1]["points"]] == expected


def test_render_draws_every_view() -> None:
    from rich.console import Console

    from spillebord.games.kasino.render import render

    s = position(
        ["2H 9C AS 5S", "KS QS"], loose="7D 9S 4C 5H", builds=[(9, False, "6S+3S", 1)], built_last=[0]
    )
    console = Console(width=100, record=True)
    for seat in (0, 1, None):
        console.print(render(s.view(seat), seat))
    out = console.export_text()
    assert "9♠" in out and "B6S" in out and "[##]" in out


def test_D5_many_cards_still_allows_mere_alone() -> None:
    s = position(["10S 10C", "KS"], loose="10H 3D", build_base="many_cards")
    assert "10S build 10 on 10H" in texts(s)
    play(s, "10S build 10 on 10H")
    assert s.builds[0].multiple and s.builds[0].groups == ((C("10H"),), (C("10S"),))


def test_refusals_explain_and_never_crash() -> None:
    s = position(["9H 2C 7S", "KS"], loose="7D 3C", builds=[(9, False, "6S+3S", 1)])
    assert "2…16" in why(s, "9H build -3 on 7D")
    assert "2…16" in why(s, "9H raise B6S to 99")
    assert "8.1.2" in why(s, "7S raise B6S to 16")
    assert "named twice" in why(s, "9H take 7D+7D")
    assert "named twice" in why(s, "9H take 9H")
    for bad in (
        "",
        "9H",
        "9H take",
        "9H take ,",
        "XX trail",
        "9H trail extra",
        "9H extend B7D with",
        "9H take BXX",
    ):
        with pytest.raises(ParseError):
            GAME.parse(s, bad)
