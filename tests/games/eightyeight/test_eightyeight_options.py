"""docs/rules/88.md §5 (the four options) and the cases of 11.2: Examples A–G exactly."""

from __future__ import annotations

import pytest

from spillebord.games.eightyeight import STANDARD as G
from spillebord.games.eightyeight import parse_panel, reachable, reachable_panels
from spillebord.games.eightyeight.data import counts, panel_text


def nums(text: str) -> set[int]:
    return {int(x) for x in text.split()}


A = "ab cd fg e|ab c d e f g"
B = "ab cd g e f|ab fg c d e"
C = "b c|b c"
D = "fg b c|ab c"
E = "af b cd e|ab c de f"
F = "b c|af bg cd e"
GG = "b c|ab c de f"

EXAMPLES = {
    "A": (A, 88, {88}, nums("80 82 83 87 89 90 92 93 97 98 99"), set()),
    "B": (B, 88, {88}, nums("07 08 09 37 38 39 87 89 97 98 99"), set()),
    "C": (
        C,
        11,
        set(),
        set(),
        nums("00 01 04 07 08 09 10 14 17 18 19 40 41 44 47 48 49 70 71 74 77 78 80 81 84 87 88 90 91 94"),
    ),
    "D": (D, 47, nums("12 13 15 21 31 47 51 74"), {17}, nums("40 43 48 49 80 83 87 88 89 90 97 98 99")),
    "E": (E, 0, nums("00 06 09 28 38 58 60 66 69 82 83 85 90 96 99"), {7}, nums("08 80 88")),
    "F": (F, 18, nums("07 18 24 34 42 43 45 54 67 70 76 79 81 97"), {19}, nums("08 38 48 78 88 98")),
    "G": (
        GG,
        10,
        nums("01 10 16 19 27 37 44 57 61 72 73 75 91"),
        {17},
        nums("00 08 18 40 48 70 78 80 88 90"),
    ),
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_5_1_examples_reachable_sets(name: str) -> None:
    panel, number, rearr, remove, add = EXAMPLES[name]
    p = parse_panel(panel)
    assert G.is_valid(p) and G.number(p) == number
    assert reachable(p, "stay") == {number}
    assert reachable(p, "rearrange") == rearr
    assert reachable(p, "remove") == remove
    assert reachable(p, "add") == add


def test_example_A_rearrange_383_tilings_of_88() -> None:
    res = reachable_panels(A, "rearrange")
    assert len(res) == 383
    assert {G.number(q) for q in res} == {88}
    assert parse_panel(A) not in res


def test_example_A_cannot_reach_38_by_remove_but_B_can() -> None:
    assert 38 not in reachable(A, "remove")
    assert 38 in reachable(B, "remove")
    # 38 from B: remove the straights e and f of the tens
    assert parse_panel("ab cd g|ab fg c d e") in reachable_panels(B, "remove")


def test_example_A_add_impossible_empty_supply() -> None:
    assert counts(parse_panel(A)) == (4, 6)
    assert reachable(A, "add") == set()


def test_example_C_74_by_adding_a_and_fg() -> None:
    assert parse_panel("a b c|b c fg") in reachable_panels(C, "add")
    assert 99 not in reachable(C, "add")


def test_example_D_details() -> None:
    assert len(reachable_panels(D, "rearrange")) == 23
    assert parse_panel("bg c f|ab c") in reachable_panels(D, "rearrange")  # 47 re-tiled
    assert reachable_panels(D, "remove") == {parse_panel("b c|ab c")}  # remove the L fg
    # illegal from D: remove the straight b from the tens; add e to the units; rearrange to 88
    assert parse_panel("fg c|ab c") not in G.panels
    assert parse_panel("fg b c|ab c e") not in G.panels
    assert 88 not in reachable(D, "rearrange")


def test_example_F_remove_e_gives_19() -> None:
    assert reachable_panels(F, "remove") == {parse_panel("b c|af bg cd")}


@pytest.mark.parametrize("option", ["stay", "rearrange", "remove", "add"])
def test_11_2_option_semantics_everywhere(option: str) -> None:
    # Over a deterministic sample of panels, every result satisfies its option's condition.
    for p in sorted(G.panels)[::97]:
        for q in reachable_panels(p, option):
            assert G.is_valid(q)
            if option == "stay":
                assert q == p
            elif option == "rearrange":
                assert counts(q) == counts(p) and q != p
            elif option == "remove":
                assert q & p == q and q != p and G.number(q) != G.number(p)
            else:
                assert q & p == p and q != p and G.number(q) != G.number(p)
                add_l, add_s = counts(q & ~p)
                n_l, n_s = counts(p)
                assert add_l <= 4 - n_l and add_s <= 6 - n_s


def test_11_2_remove_and_add_are_exact() -> None:
    # brute force against the definition for a sample of panels
    for p in sorted(G.panels)[::211]:
        subs = {q for q in G.panels if q & p == q and q != p}
        sups = {q for q in G.panels if q & p == p and q != p}
        assert reachable_panels(p, "remove") == subs
        assert reachable_panels(p, "add") == sups
        same = {q for q in G.panels if counts(q) == counts(p) and q != p}
        assert reachable_panels(p, "rearrange") == same


def test_reachable_accepts_swedish_option_names_and_text() -> None:
    assert reachable(D, "Ta bort") == {17}
    assert reachable(D, "take away") == {17}
    assert reachable(D, "Lägga till") == reachable(D, "add")
    assert reachable(D, "Stå kvar") == {47}
    assert reachable(D, "Arrangera om") == reachable(parse_panel(D), "rearrange")
    with pytest.raises(ValueError):
        reachable(D, "swap")
    assert panel_text(parse_panel("[fg b c | ab c]")) == "b c fg|ab c"
    assert parse_panel(panel_text(parse_panel(D))) == parse_panel(D)


def test_R7_stay_always_legal_and_lists_modest() -> None:
    most = 0
    for p in G.panels:
        m = G.moves(p)
        assert ("stay", G.number(p)) in m
        most = max(most, len(m))
    assert most <= 40
