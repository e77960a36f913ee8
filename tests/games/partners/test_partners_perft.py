"""Partners perft: the number of legal decision sequences of length 1–3 from fixed positions
(written as text), against counts established independently of the engine.

The independent count comes from a small model of the play phase written in this file from
the rules (docs/rules/partners.md R4–R8) on top of the step-by-step reference movement of
:mod:`partners_reference` (R5.2–R5.5, R6.5): it lists the moves of a hand, applies them and
passes the turn, without any of the engine's code. At the root its move list is itself checked
against a brute force over every candidate action text of the notation (every card, value and
pair of squares), each candidate accepted or rejected by the rule directly.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from itertools import combinations
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from partners_reference import ref_backward, ref_forward, ref_land, ref_split_sequences

from spillebord.games.partners.position import from_text
from spillebord.testing import legal_counts

Board = tuple[tuple[int, ...], ...]

LETTER = "yrbg"
START = (0, 15, 30, 45)
FORWARD = {"A114": (1, 14), "N2": (2,), "N3": (3,), "N5": (5,), "N6": (6,), "N9": (9,), "N10": (10,)}
FORWARD |= {"N12": (12,), "H8": (8,), "H13": (13,)}
START_CARDS = {"HEART", "H8", "H13"}


def name(c: int, p: int) -> str:
    """A square's text: ``y3``, ``ys``, ``yh2`` (R1.2's labels, lower case)."""
    if p >= 60:
        return f"{LETTER[c]}h{p - 59}"
    side, k = divmod(p, 15)
    return LETTER[side] + ("s" if k == 0 else str(k))


SQUARES = [(c, p) for c in range(4) for p in range(60, 64)] + [(0, p) for p in range(60)]
"""Every square a text can name (track squares once, each colour's house)."""


@dataclass(frozen=True)
class Model:
    """The play phase, as the rules describe it: the board, the hands, the colour seat to
    act, and a split 7 in progress ((steps left, pieces used) or None)."""

    pos: Board
    hands: tuple[tuple[str, ...], ...]
    turn: int | None
    split: tuple[int, tuple[tuple[int, int], ...]] | None = None


def active(pos: Board, seat: int) -> int:
    """R5.1: one's own colour while a piece of it is outside the house, then the partner's."""
    return seat if any(p < 60 for p in pos[seat]) else (seat + 2) % 4


def won(pos: Board, seat: int) -> bool:
    t = seat % 2
    return all(p >= 60 for p in pos[t] + pos[t + 2])


def lone_pieces(pos: Board) -> list[tuple[int, int]]:
    """R6.4: pieces alone on a numbered track square (not a start field, not a group)."""
    return sorted(
        (p, c) for c in range(4) for p in set(pos[c]) if 0 <= p < 60 and p % 15 and pos[c].count(p) == 1
    )


def moves(m: Model) -> dict[str, Model]:
    """Every legal decision of the seat to act, text → the model after it."""
    seat = m.turn
    assert seat is not None
    pos = m.pos
    a = active(pos, seat)
    out: dict[str, Model] = {}
    if m.split is not None:
        r, used = m.split
        for frm, steps, to in {seq[0] for seq in ref_split_sequences(pos, seat, r, used)}:
            out[f"seven {name(a, frm)} {steps} {name(a, to)}"] = _part(m, m.hands, a, frm, steps, to, r, used)
        return out
    hand = m.hands[seat]
    for card in sorted(set(hand)):
        rest = list(hand)
        rest.remove(card)
        hands = _put(m.hands, seat, tuple(rest))
        if card in START_CARDS and -1 in pos[a]:
            out[f"start {card.lower()}"] = _next(m, ref_land(pos, a, -1, START[a]), hands)
        for v in FORWARD.get(card, ()):
            label = card.lower() + (f"={v}" if card == "A114" else "")
            for p in set(pos[a]) - {-1}:
                e = ref_forward(pos, a, p, v)
                if e is not None:
                    out[f"play {label} {name(a, p)} {name(a, e)}"] = _next(m, ref_land(pos, a, p, e), hands)
        if card == "M4":
            for p in set(pos[a]) - {-1}:
                e = ref_backward(pos, a, p, 4)
                if e is not None:
                    out[f"play m4 {name(a, p)} {name(a, e)}"] = _next(m, ref_land(pos, a, p, e), hands)
        if card == "SWAP":
            for (p1, c1), (p2, c2) in combinations(lone_pieces(pos), 2):
                new = [list(x) for x in pos]
                new[c1][new[c1].index(p1)] = p2
                new[c2][new[c2].index(p2)] = p1
                out[f"swap {name(c1, p1)} {name(c2, p2)}"] = _next(
                    m, tuple(tuple(sorted(x)) for x in new), hands
                )
        if card == "S7":
            for frm, steps, to in {seq[0] for seq in ref_split_sequences(pos, seat, 7, ())}:
                out[f"seven {name(a, frm)} {steps} {name(a, to)}"] = _part(m, hands, a, frm, steps, to, 7, ())
    if not out:  # R8: no usable card, the whole hand is laid down
        out["discard"] = _next(m, pos, _put(m.hands, seat, ()))
    return out


def _put(t: tuple[tuple[str, ...], ...], i: int, v: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(v if k == i else x for k, x in enumerate(t))


def _next(m: Model, pos: Board, hands: tuple[tuple[str, ...], ...]) -> Model:
    """After a card: the game is won, or the next seat clockwise that holds cards acts."""
    assert m.turn is not None
    if won(pos, m.turn):
        return Model(pos, hands, None)
    for k in range(1, 5):
        if hands[(m.turn + k) % 4]:
            return Model(pos, hands, (m.turn + k) % 4)
    raise AssertionError("the deal ends: the positions here never get that far")


def _part(
    m: Model, hands: tuple[tuple[str, ...], ...], a: int, frm: int, steps: int, to: int, r: int, used: tuple
) -> Model:
    """One part of a 7 (R6.5): the 7 goes on while steps are left that can still be used."""
    assert m.turn is not None
    new = ref_land(m.pos, a, frm, to)
    if won(new, m.turn):
        return Model(new, hands, None)
    left = r - steps
    used2 = (*used, (a, to if to in new[a] else -1))
    if left and ref_split_sequences(new, m.turn, left, used2):
        return Model(new, hands, m.turn, (left, used2))
    return _next(replace(m, split=None), new, hands)  # all used, or the rest lapses (R6.5.6)


def count(m: Model, depth: int) -> int:
    if depth == 0 or m.turn is None:
        return 1
    return sum(count(after, depth - 1) for after in moves(m).values())


def brute_force(m: Model) -> set[str]:
    """Every text of the notation the rules accept for the seat to act, found by trying all
    of them: each card in hand with each value and every pair of squares, every swap of two
    squares, start, discard; each candidate judged by the rule alone."""
    seat = m.turn
    assert seat is not None and m.split is None
    pos = m.pos
    a = active(pos, seat)
    hand = set(m.hands[seat])
    ok: set[str] = set()
    for card in hand:
        if card in START_CARDS and -1 in pos[a]:
            ok.add(f"start {card.lower()}")
        values = [(v, card.lower() + (f"={v}" if card == "A114" else "")) for v in FORWARD.get(card, ())]
        if card == "M4":
            values.append((-4, "m4"))
        for v, label in values:
            for c1, p1 in SQUARES:
                # the rule: a piece of the active colour stands on the first square, and the
                # count of steps (R5.2, R5.5) from there ends on the second
                if p1 not in pos[a] or (p1 >= 60 and c1 != a):
                    continue
                for c2, p2 in SQUARES:
                    if p2 >= 60 and c2 != a:
                        continue
                    end = ref_forward(pos, a, p1, v) if v > 0 else ref_backward(pos, a, p1, -v)
                    if end == p2:
                        ok.add(f"play {label} {name(a, p1)} {name(a, p2)}")
        if card == "SWAP":
            for p1, p2 in combinations(range(60), 2):
                # the rule: two numbered track squares, each holding one piece and nothing else
                if p1 % 15 == 0 or p2 % 15 == 0:
                    continue
                pieces = [[c for c in range(4) for p in pos[c] if p == q] for q in (p1, p2)]
                if len(pieces[0]) == 1 and len(pieces[1]) == 1:
                    ok.add(f"swap {name(pieces[0][0], p1)} {name(pieces[1][0], p2)}")
        if card == "S7":
            for seq in ref_split_sequences(pos, seat, 7, ()):
                frm, steps, to = seq[0]
                ok.add(f"seven {name(a, frm)} {steps} {name(a, to)}")
    return ok or {"discard"}


POSITION_A = """
Y@Y3 Y@YS Y@G13 R@R5 R@Y9 B@B2 G@G9 G@G9
yellow: a114 m4 swap h8
red: n5 n9
blue: n6 h13
green: n3
turn: yellow
"""
"""Forward and backward moves, a start, swaps, a knock-out and a protected pair."""

POSITION_B = """
Y@Y3 Y@Y10 Y@YH1 R@RS R@Y12 B@B5
yellow: s7
red: heart n5
blue: heart
green: heart
turn: yellow
"""
"""A split 7 among three yellow pieces, the Y10 piece held back by the occupied red start field;
a part landing on Y12 knocks out the red piece there, which changes what Red can do next."""


def _model(text: str) -> Model:
    s = from_text(text)
    return Model(s.pos, s.hands, s.turn)


def test_perft_position_a_by_hand() -> None:
    """Depth 1 counted by hand: the 1/14 gives Y3→Y4, YS→Y1, G13→G14 and (14) Y3→R3, YS→Y14
    (G13 overshoots): 5; the −4 gives Y3→G13, YS→G11, G13→G9 (onto the green pair: legal, the
    mover goes out): 3; the 8♥ a start and Y3→Y11, YS→Y8: 3; the swap any two of the five lone
    pieces on numbered squares (Y3, G13, R5, Y9, B2; YS is a start field, G9 a pair): 10."""
    s = from_text(POSITION_A)
    assert len(s.legal()) == 5 + 3 + 3 + 10 == 21


@pytest.mark.parametrize("position", [POSITION_A, POSITION_B], ids=["a", "b"])
def test_perft_root_moves_match_the_brute_force(position: str) -> None:
    s = from_text(position)
    m = _model(position)
    assert set(moves(m)) == brute_force(m) == set(s.legal_texts())


@pytest.mark.parametrize("position", [POSITION_A, POSITION_B], ids=["a", "b"])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_counts(position: str, depth: int) -> None:
    s = from_text(position)
    assert legal_counts(s, depth) == count(_model(position), depth)


def test_perft_position_b_by_hand() -> None:
    """The first parts of the 7 (R6.5, T18): Y3 any of 1–7 (7 lands on the Y10 piece: own,
    stacked); Y10 only 1–4 (RS is occupied; 2 knocks out the red piece on Y12); YH1 1–3
    (H2–H4). Every one can be completed to exactly 7 steps with the other pieces: 7 + 4 + 3."""
    assert len(from_text(POSITION_B).legal()) == 14
