"""Kasino "perft": the number of decision sequences of depth 1–3 from fixed positions, counted
by the engine (``legal_counts``) and, independently, by the brute-force rules of
``kasino_brute`` (every subset and partition checked against the rule; the engine only applies
the effects found). The depth-1 count of the opening position is also worked out by hand."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from kasino_brute import brute_effects, brute_perft

from spillebord.games.kasino.data import CARD_INDEX
from spillebord.games.kasino.position import position
from spillebord.games.kasino.rules import KasinoState
from spillebord.testing import legal_counts

SEPARATE = {"more_builds": "separate", "gathering": "optional"}
"""D20 and D21 as the engine played them before version 2 (second piles, optional gathering)."""


def opening(**opts: Any) -> KasinoState:
    return position(["9H 2C 7S AD", "KS 4D 5S 10D"], loose="3S 6D 2H 7D", **opts)


def test_perft_D21_opening_depth_1_by_hand() -> None:
    # As below, but the loose cards worth the built value must go into the build (D21):
    # 2♣ builds 9 on 7♦ (3+6 optional: no loose 9); 7♠ builds 9 on 2♥ and 14 on 7♦ (no loose
    # 9 or 14); A♦ builds 7 on 6♦ only gathering the loose 7♦; so A♦ has 2 actions.
    s = opening()
    per_card = {c: sum(1 for a in s.legal() if a.card == CARD_INDEX[c]) for c in ("9H", "2C", "7S", "AD")}
    assert per_card == {"9H": 4, "2C": 4, "7S": 5, "AD": 2}
    assert "AD build 7 on 6D gather 7D" in [str(a) for a in s.legal()]
    assert legal_counts(s, 1) == len(brute_effects(s)) == 15


def test_perft_R6_R8_opening_depth_1_by_hand() -> None:
    # Table 3♠ 6♦ 2♥ 7♦; the hand keeps 9, 2, 7 and A (1/14) for the holding rule 8.1.2.
    # 9♥: takes 3+6, 2+7, or both (6.3.1); trails            -> 4
    # 2♣: takes 2♥; builds 9 on 7♦, also gathering 3+6; trails -> 4
    # 7♠: takes 7♦; builds 9 on 2♥ (also gathering 3+6) and 14 on 7♦ (the ace
    #     keeps 14); trails                                       -> 5
    # A♦: no group is worth 1 or 14; builds 7 on 6♦ (1+6; the 7♠ is kept), also
    #     gathering 7♦; trails                                    -> 3
    s = opening(**SEPARATE)
    per_card = {c: sum(1 for a in s.legal() if a.card == CARD_INDEX[c]) for c in ("9H", "2C", "7S", "AD")}
    assert per_card == {"9H": 4, "2C": 4, "7S": 5, "AD": 3}
    assert legal_counts(s, 1) == len(brute_effects(s)) == 16


@pytest.mark.parametrize(("opts", "expected"), [({}, [15, 174, 1021]), (SEPARATE, [16, 183, 1094])])
def test_perft_R6_R8_opening_position(opts: dict[str, Any], expected: list[int]) -> None:
    counts = [legal_counts(opening(**opts), d) for d in (1, 2, 3)]
    assert counts == [brute_perft(opening(**opts), d) for d in (1, 2, 3)]
    assert counts == expected


@pytest.mark.parametrize(
    ("opts", "expected"),
    [
        ({}, {"builds": [12, 27, 130], "owner": [7, 31, 118], "classic": [12, 70, 255]}),
        (SEPARATE, {"builds": [14, 31, 139], "owner": [7, 31, 118], "classic": [12, 75, 271]}),
    ],
)
def test_perft_R9_builds_and_obligations(opts: dict[str, Any], expected: dict[str, list[int]]) -> None:
    # Seat 1 built a 9 last turn (9.2 binds it next turn); seat 0 may take, raise or extend it.
    def builds() -> KasinoState:
        return position(
            ["9H 4C 2D 5S", "9S 7C QS 3H"],
            loose="5H KD 4S",
            builds=[(9, False, "7S+2H", 1)],
            built_last=[1],
            **opts,
        )

    # Seat 0 owns the 9 it built last turn: it must capture (9.2), the 9s are its reserve (9.3).
    def owner() -> KasinoState:
        return position(
            ["9H 4C 9D", "KC 2C 5D"],
            loose="5S KS 4H",
            builds=[(9, False, "7S+2H", 0)],
            built_last=[0],
            **opts,
        )

    # Classic obligations (D8): no duty to capture, but an owner may not trail.
    def classic() -> KasinoState:
        return position(
            ["9H 4C 9D QS", "KC 2C 5D 8H"],
            loose="5S KS 4H",
            builds=[(9, False, "7S+2H", 0)],
            build_obligations="classic",
            **opts,
        )

    for make in (builds, owner, classic):
        counts = [legal_counts(make(), d) for d in (1, 2, 3)]
        assert counts == [brute_perft(make(), d) for d in (1, 2, 3)], make.__name__
        assert counts == expected[make.__name__], make.__name__


@pytest.mark.parametrize(("opts", "expected"), [({}, [20, 196, 1431]), (SEPARATE, [20, 198, 1442])])
def test_perft_D1_D4_D5_variants(opts: dict[str, Any], expected: list[int]) -> None:
    # hand_high_table_low values, builds of several table cards, a build inside sums.
    def variants() -> KasinoState:
        return position(
            ["AH 2S 10D 7C", "AC 6H 8S KD"],
            loose="AS 5D 9C 6C",
            builds=[(8, False, "3D+5C", 1)],
            value_mode="hand_high_table_low",
            build_base="many_cards",
            build_in_sums=True,
            **opts,
        )

    counts = [legal_counts(variants(), d) for d in (1, 2, 3)]
    assert counts == [brute_perft(variants(), d) for d in (1, 2, 3)]
    assert counts == expected


def test_perft_R10_R11_across_the_end_of_a_round() -> None:
    # The last two cards of a round: sidsten, scoring, and where seat 0 reaches the target
    # alone the game ends (a finished game counts once); otherwise a new round is dealt.
    def last_plays() -> KasinoState:
        return position(
            ["9H", "5S"],
            loose="9C 4D 3H",
            stock="",
            last_capturer=1,
            totals=[20, 17],
            piles=["AC AD", "2S"],
        )

    counts = [legal_counts(last_plays(), d) for d in (1, 2, 3)]
    assert counts == [brute_perft(last_plays(), d) for d in (1, 2, 3)]
    assert counts == [2, 4, 26]
