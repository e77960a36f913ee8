"""Metscri under the engine contract: its kind, the decision bound (A20: the default rules do
not guarantee an end), scores and outcomes, the action texts the web client relies on, and
positions written as text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spillebord.core import JSON, Action, ParseError, Rng
from spillebord.games.metscri import (
    GAME,
    Collect,
    EndPhase,
    EndTurn,
    Enter,
    Invest,
    MetscriState,
    Move,
    Reveal,
    Roll,
    Spy,
    Stop,
    Turn,
    position,
)
from spillebord.games.metscri.data import card_of, sq
from spillebord.testing import final_state, play, random_walk


def test_kind() -> None:
    kind = GAME.kind
    assert kind.hidden_information and kind.chance
    assert not kind.public_actions  # "enter 9Ha r0c3" names a card the others must not see
    assert kind.secret_choices  # which card goes face down is a secret the others play against
    assert GAME.version == 2  # 2: dice per seat, turn and roll
    assert GAME.teams(4) == ((0,), (1,), (2,), (3,))


def test_A20_random_play_at_default_options_is_stopped_by_the_bound() -> None:
    # Random players never reach 72 M-points: the bound ends the game, ranked by M-points.
    s = final_state(GAME, 2, 3, check=False)
    assert isinstance(s, MetscriState)
    assert s.truncated and s.to_act is None and s.decisions == GAME.kind.max_decisions
    assert s.legal() == [] and s.legal_texts() == []
    assert max(s.points) < s.target and s.winners == ()
    s.check()
    best = max(s.points)
    leaders = [i for i, p in enumerate(s.points) if p == best]
    assert s.outcome() == tuple(1 / len(leaders) if i in leaders else 0.0 for i in range(2))
    assert s.view(None)["winners"] == leaders  # the view names the seats ranked first
    assert s.scores() == tuple(float(p) for p in s.points)


def test_bound_is_far_above_bot_games() -> None:
    # Bot games at the default options (planner against heuristic) took 830-1,920 decisions
    # for 2 and 8 seats; the bound leaves room for thirty times that.
    assert GAME.kind.max_decisions >= 30 * 1_920


def test_the_bound_clears_a_cached_legal_list() -> None:
    s = GAME.new(2, 5)
    s.decisions = GAME.kind.max_decisions - 1
    assert s.legal() == [Roll()]  # cached
    play(s, "roll")
    assert s.truncated and s.to_act is None and s.legal() == []
    assert s.outcome() == (0.5, 0.5)


def test_scores_are_m_points_at_any_time() -> None:
    s = position("r0  X  .  .  .  .  .  X\npoints: 7 3    phase: move    ap: 1    to act: 1")
    assert s.scores() == (7.0, 3.0) and s.outcome() is None


def test_the_seed_decides_the_game() -> None:
    def walk(seed: int) -> list[tuple[list[str], tuple[int, ...]]]:
        return [(s.legal_texts(), s.points) for s in random_walk(GAME, 3, seed, GAME.quick_options)
                if isinstance(s, MetscriState)]  # fmt: skip

    assert walk(11) == walk(11)
    assert walk(11) != walk(12)


# The web client and the golden playthroughs depend on these exact forms.
ACTION_FORMS = [
    (Roll(), "roll", {"kind": "roll", "text": "roll"}, "Roll the die"),
    (Stop(), "stop", {"kind": "stop", "text": "stop"}, "Stop rolling"),
    (Invest(), "invest", {"kind": "invest", "text": "invest"}, "Buy a card (2 AP)"),
    (EndPhase(), "next", {"kind": "next", "text": "next"}, "End this phase"),
    (EndTurn(), "done", {"kind": "done", "text": "done"}, "End the turn"),
    (
        Move(sq(0, 5), sq(0, 3)),
        "move r0c5 r0c3",
        {"kind": "move", "from": "r0c5", "to": "r0c3", "ap": 1, "text": "move r0c5 r0c3"},
        "Move the card on r0c5 to r0c3 (1 AP)",
    ),
    (
        Enter(card_of("9Hb"), sq(0, 3)),
        "enter 9Hb r0c3",
        {"kind": "enter", "card": "9Hb", "to": "r0c3", "ap": 2, "text": "enter 9Hb r0c3"},
        "Enter 9♥ on r0c3 (2 AP)",
    ),
    (
        Turn(sq(1, 3)),
        "turn r1c3",
        {"kind": "turn", "square": "r1c3", "text": "turn r1c3"},
        "Turn the card on r1c3 face up",
    ),
    (
        Spy(sq(1, 4)),
        "spy r1c4",
        {"kind": "spy", "square": "r1c4", "ap": 2, "text": "spy r1c4"},
        "Spy on the card on r1c4 (2 AP)",
    ),
    (
        Reveal(sq(1, 4)),
        "reveal r1c4",
        {"kind": "reveal", "square": "r1c4", "text": "reveal r1c4"},
        "Reveal the spied card on r1c4 to all",
    ),
    (
        Collect((sq(1, 2), sq(1, 3), sq(2, 3))),
        "collect r1c2 r1c3 r2c3",
        {"kind": "collect", "squares": ["r1c2", "r1c3", "r2c3"], "text": "collect r1c2 r1c3 r2c3"},
        "Collect the group on r1c2, r1c3, r2c3",
    ),
]


@pytest.mark.parametrize(("action", "text", "json_form", "label"), ACTION_FORMS, ids=lambda x: str(x)[:20])
def test_action_text_json_and_label(action: Action, text: str, json_form: JSON, label: str) -> None:
    assert str(action) == text
    assert action.to_json() == json_form
    assert list(action.to_json()) == list(json_form)
    assert action.label() == label


def test_action_kinds_are_distinct_values() -> None:
    assert Turn(5) != Spy(5) != Reveal(5) and Turn(5) == Turn(5)
    assert Roll() != Stop() and len({Roll(), Stop(), Invest(), EndPhase(), EndTurn()}) == 5


def test_parse_sorts_a_group_and_refuses_corners() -> None:
    s = position(
        """
        r1  .  .  4C*  AS*  .  .  .
        r2  .  .  .    4H*  .  .  .
        phase: collect    ap: 0
        """
    )
    assert GAME.parse(s, "collect r2c3 r1c2 r1c3") == Collect((sq(1, 2), sq(1, 3), sq(2, 3)))
    for bad in ("move r0c0 r0c1", "turn r6c6", "collect r1c2 r1c2", "enter 1Ha r0c1", "roll 3"):
        with pytest.raises(ParseError):
            GAME.parse(s, bad)


# ---------------------------------------------------------------- positions from text


def test_position_text_form() -> None:
    s = position(
        """
            c0   c1     c2    c3   c4   c5   c6
        r0  X    .      9D    .    .    AS   X     # a comment
        r2  .    5S/6H  .     4H@01  .  .    .
        r3  4C*  .      .     .    .    .    .
        seats: 3    to act: 1    phase: turn    ap: 4    turned: 1
        hand 0: KH 8D    hand 1: -    hand 2: 9D
        points: 3 0 5    matched: 3C 3D    round: 2
        """
    )
    assert s.seats == 3 and s.to_act == 1 and s.phase == 3 and s.ap == s.ap_earned == 4 and s.turned == 1
    assert s.board[sq(2, 1)] == (card_of("5S"), card_of("6H"))
    assert s.board[sq(0, 2)] == (card_of("9D"),)
    assert s.hands[2] == (card_of("9Db"),)  # the second 9♦ is deck b
    assert s.hands[1] == () and s.points == (3, 0, 5) and s.round == 2
    assert s.up == 1 << sq(3, 0)
    assert s.known[card_of("4H")] == 0b011 and s.known[card_of("4C")] == 0b111
    assert s.known[card_of("9D")] == 0  # face down, nobody knows it
    assert len(s.buy) == 104 - 6 - 3 - 2  # 6 on the board, 3 in hands, 2 matched
    v = s.view(0)
    assert v["board"]["r2c3"]["cards"][0]["card"] == "4Ha"
    assert s.view(2)["board"]["r2c3"]["cards"][0]["card"] is None


def test_position_rest_and_buy() -> None:
    s = position("buy: 7H 8H\nrest: hand 1\nphase: invest    ap: 2")
    assert s.buy == (card_of("7H"), card_of("8H")) and len(s.hands[1]) == 102
    play(s, "invest")
    assert card_of("8H") in s.hands[0]  # the last card listed is the top


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("r0  4C  .  .  .  .  .  X", "corner"),
        ("r1  .  .  .", "cells"),
        ("r1  .  4C/5C/6C/7C  .  .  .  .  .", "at most 3"),
        ("r1  .  4C*/5C  .  .  .  .  .", "top card"),
        ("r1  .  4Ca  4Ca  .  .  .  .", "twice"),
        ("colour: red", "unknown key"),
    ],
)
def test_position_errors(text: str, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        position(text)


def test_determinize_of_a_text_position_keeps_the_seat_view() -> None:
    s = position(
        """
        r0  X  KH@0  7D  .  .  .  X
        hand 0: 3C    hand 1: 4C
        phase: move    ap: 3
        """
    )
    for k in range(5):
        d = s.determinize(0, Rng(k))
        assert d.view(0) == s.view(0) and d.board[sq(0, 1)] == s.board[sq(0, 1)]


# ---------------------------------------------------------------- the rules page


def test_every_label_in_a_test_name_is_in_the_rules_page() -> None:
    here = Path(__file__).parent
    doc = (here.parents[2] / "docs" / "rules" / "metscri.md").read_text(encoding="utf-8")
    names = re.findall(
        r"def (test_\w+)", "".join(p.read_text(encoding="utf-8") for p in here.glob("test_*.py"))
    )
    labels = {m for n in names for m in re.findall(r"(?<=_)([RTA]\d+[ab]?)(?=_)", n + "_")}
    assert len(labels) > 30
    missing = sorted(x for x in labels if f"**{x}" not in doc)
    assert not missing, f"labels used by tests but not in docs/rules/metscri.md: {missing}"
