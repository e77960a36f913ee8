"""Touché: the rules engine (spec ``shared/spec/touche.md``; seed text in Norwegian).

Sides and seats
---------------
2 or 3 players play alone; 4 or 6 play in pairs (lag) sharing a colour: purple (lilla, side 0),
blue (blå, side 1), yellow (gul, side 2). 5 players are refused (spec 2.1, 10.17). Teammates sit
together (``seating=grouped``: {0,1},{2,3},{4,5}) or alternate (``seating=alternating``).

How a turn decomposes into decisions
------------------------------------
* phase ``grade``: at the start of each game, when the ``grade`` option is 0, the dealer
  (utdeler) chooses the difficulty grade (vanskelighetsgrad): ``grade 1`` … ``grade 5``.
* phase ``play``: the player to act does exactly one of
  ``place <card> <cell>`` (a card from hand, a marker on one of its spaces; ``JK`` is a joker),
  ``exchange <card>+<card>…`` (dead cards, ubrukelige kort; costs the turn) or ``pass``
  (only when nothing else is legal).
* phase ``crown``: when the new marker completes more than one qualifying pattern at once the
  same player chooses the one to crown (svarte kroner): ``crown r3c0+r3c1+r4c0+r4c1``.

Pattern detection is incremental: after a placement on cell x only the precomputed instances
through x (``data.THROUGH``) are examined; :func:`complete_through` and the brute-force
:func:`complete_scan` are tested against each other.

A state is a whole match (``match_games``, best of N by default 3): a game ends when a side
reaches its grade's target; the next game is dealt anew by the next dealer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

from spillebord.core import Action, Game, IllegalAction, OptionError, ParseError, Rng, State, opt
from spillebord.core.errors import GameOver

from .data import (
    CARD_CELLS,
    CARDS,
    CELL_CARD,
    CELL_INDEX,
    CELLS,
    FREE_CELLS,
    GRADE_POINTS,
    GRADES,
    INSTANCE_ID,
    INSTANCES,
    IS_FREE,
    JOKER,
    NAMES,
    NEIGHBOURS,
    OTHERS,
    RANK_ORDER,
    SHUTOUT_POINTS,
    SUIT_SYMBOL,
    THROUGH,
    TYPE_NAMES,
    cell_name,
)
from .heuristics import AGENTS, evaluate

TITLE = "Touché"
LAYOUT = [[CELL_CARD[r * 12 + c] or None for c in range(12)] for r in range(12)]
"""The board for views: rows r0..r11 of card codes, "FREE", or None where there is no cell."""
COLOURS = ("purple", "blue", "yellow")
COLOUR_CODES = ("PU", "BL", "YE")
HAND = 5
EMPTY = -1
CROWN = 3
"""``marks[cell]`` is EMPTY, a side (0..2: uncrowned marker) or side + CROWN (crowned)."""
ALL_TYPES = 0b1111


def card_label(code: str) -> str:
    if code == JOKER:
        return "joker"
    r = "10" if code[0] == "T" else code[0]
    return r + SUIT_SYMBOL[code[1]]


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class ToucheOptions:
    """Table options; every field is a decision or variant of the spec (section 8, 10)."""

    grade: int = opt(
        0, "3.4/4: difficulty grade 1-5 for every game; 0 = the dealer chooses at the table", min=0, max=5
    )
    jokers_per_deck: int = opt(2, "1.1.4 / 10.2: jokers per deck (cards = 104 + 2 x this)", min=0, max=3)
    marker_supply: int | None = opt(60, "1.2.3 / 10.19: markers per colour; null = unlimited", min=1)
    seating: Literal["grouped", "alternating"] = opt(
        "grouped", "2.4 / 10.14: teams sit together (grouped) or alternate around the table"
    )
    grade5_distinct_types: bool = opt(True, "4.1 / 10.7: grade 5 needs patterns of different types")
    free_space_mode: Literal["last_piece", "wild"] = opt(
        "last_piece",
        "5.1b / 10.10: last_piece = a free space takes only the marker completing a pattern; "
        "wild = a free space counts as the completing side's marker",
    )
    clear_on_touche: bool = opt(True, "6.7 / 10.8: uncrowned markers leave the board after a Touché")
    recycle_discards: bool = opt(True, "5.6 / 10.13: an empty pile is refilled from one's own discards")
    shutout_mode: Literal["replace", "add"] = opt(
        "replace", "7.3 / 10.16: the 25-point shutout replaces (or adds to) the grade points"
    )
    stall_turns: int | None = opt(
        None,
        "7.2a / 10.18: consecutive turns without a possible placement that draw; null = 3 x players",
        min=1,
    )
    redeal_each_round: bool = opt(False, "6.7 / 10.8: gather and redeal all cards after every Touché")
    max_turns: int = opt(600, "7.2b: turns per game before it is drawn", min=1)
    match_games: int = opt(3, "7.4: games in the match (best of N)", min=1)
    match_mode: Literal["wins", "points"] = opt(
        "wins", "7.4: wins = first to a majority of N wins; points = N games, highest total"
    )
    match_max_games: int = opt(
        0, "7.4 (engine guard, not in the text): the match stops after this many games; 0 = 3 x N", min=0
    )


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class ChooseGrade(Action):
    """The dealer (utdeler) chooses the difficulty grade (vanskelighetsgrad)."""

    grade: int

    def __str__(self) -> str:
        return f"grade {self.grade}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "grade", "grade": self.grade, "text": str(self)}

    def label(self) -> str:
        types, two, three = GRADES[self.grade]
        what = "/".join(TYPE_NAMES[t] for t in types)
        return f"Grade {self.grade}: {what} ({two} patterns two-sided, {three} three-sided)"


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Play a card and put a marker (markør) on one of its spaces; ``JK`` is a joker (jokerkort)."""

    card: str
    cell: str

    def __str__(self) -> str:
        return f"place {self.card} {self.cell}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "place", "card": self.card, "cell": self.cell, "text": str(self)}

    def label(self) -> str:
        where = "the free space " + self.cell if IS_FREE[CELL_INDEX[self.cell]] else self.cell
        return f"Play {card_label(self.card)}, marker on {where}"


@dataclass(frozen=True, slots=True)
class Exchange(Action):
    """Trade in dead cards (ubrukelige kort) for new ones; no marker this turn."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "exchange " + "+".join(self.cards)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "exchange", "cards": list(self.cards), "text": str(self)}

    def label(self) -> str:
        return "Trade in the dead " + ", ".join(card_label(c) for c in self.cards) + " (skip the marker)"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Nothing can be done (spec 5.5)."""

    def __str__(self) -> str:
        return "pass"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "pass", "text": "pass"}

    def label(self) -> str:
        return "Pass (nothing can be placed or traded in)"


@dataclass(frozen=True, slots=True)
class Crown(Action):
    """Choose which completed pattern gets the black crowns (one marker completed several)."""

    cells: tuple[str, ...]

    def __str__(self) -> str:
        return "crown " + "+".join(self.cells)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "crown", "cells": list(self.cells), "text": str(self)}

    def label(self) -> str:
        k = INSTANCE_ID.get(tuple(sorted(CELL_INDEX[c] for c in self.cells)))
        typ = TYPE_NAMES[INSTANCES[k][0]] if k is not None else "pattern"
        return f"Crown the {typ} " + " ".join(self.cells)


ToucheAction = ChooseGrade | Place | Exchange | Pass | Crown

TYPE_RANGES = tuple(range(*_r) for _r in ((0, 89), (89, 313), (313, 849), (849, 993)))
assert all(INSTANCES[k][0] == t for t, r in enumerate(TYPE_RANGES) for k in r)

_PLACES: dict[tuple[str, int], Place] = {}


def _place(card: str, cell: int) -> Place:
    a = _PLACES.get((card, cell))
    if a is None:
        a = _PLACES[(card, cell)] = Place(card, NAMES[cell])
    return a


def instance_action(k: int) -> Crown:
    return Crown(tuple(cell_name(c) for c in INSTANCES[k][1]))


# --------------------------------------------------------------------------- pattern detection


def qualifying_mask(grade: int, crowned_types: int, distinct: bool) -> int:
    """Bitmask of pattern types that count for a side (spec 4.1)."""
    mask = 0
    for t in GRADES[grade][0]:
        mask |= 1 << t
    if grade == 5 and distinct:
        mask &= ~crowned_types
    return mask


def _complete(marks: Sequence[int], cells: tuple[int, ...], side: int, wild: bool) -> bool:
    if not wild:
        for c in cells:  # noqa: SIM110  (a plain loop is faster here)
            if marks[c] != side:
                return False
        return True
    frees = 0
    for c in cells:
        m = marks[c]
        if m == side:
            continue
        if m == EMPTY and IS_FREE[c]:
            frees += 1
            if frees > 1:
                return False
            continue
        return False
    return True


def complete_through(marks: Sequence[int], x: int, side: int, mask: int, wild: bool = False) -> list[int]:
    """Incremental detection (spec 6.1): ids of the qualifying instances through cell ``x``
    whose every cell holds an uncrowned marker of ``side`` (``wild``: or is one empty FREE)."""
    out: list[int] = []
    for t in range(4):
        if mask >> t & 1:
            for k in THROUGH[t][x]:
                if _complete(marks, INSTANCES[k][1], side, wild):
                    out.append(k)
    return out


def complete_scan(marks: Sequence[int], side: int, mask: int, wild: bool = False) -> list[int]:
    """Brute force: every complete qualifying instance for ``side`` anywhere on the board."""
    out: list[int] = []
    for t in range(4):
        if mask >> t & 1:
            for k in TYPE_RANGES[t]:
                if _complete(marks, INSTANCES[k][1], side, wild):
                    out.append(k)
    return out


def first_dealer(cards: Iterable[str], seats: int) -> tuple[int, list[list[tuple[int, str]]]]:
    """Spec 3.2: each player draws a card, highest rank (2 < … < A) deals; a joker draws again;
    tied players alone draw again. Returns the dealer and the draws, round by round."""
    it: Iterator[str] = iter(cards)
    contenders = list(range(seats))
    rounds: list[list[tuple[int, str]]] = []
    while True:
        draws: list[tuple[int, str]] = []
        best: dict[int, int] = {}
        for seat in contenders:
            while True:
                card = next(it, None)
                if card is None:  # cannot happen with a real deck; be total anyway
                    rounds.append(draws)
                    return min(contenders), rounds
                draws.append((seat, card))
                if card != JOKER:
                    best[seat] = RANK_ORDER[card[0]]
                    break
        rounds.append(draws)
        top = max(best.values())
        contenders = [s for s in contenders if best[s] == top]
        if len(contenders) == 1:
            return contenders[0], rounds


def full_deck(jokers_per_deck: int) -> list[str]:
    return [*CARDS, *CARDS, *([JOKER] * (2 * jokers_per_deck))]


def sides_for(seats: int, seating: str) -> tuple[int, ...]:
    """Seat -> side (colour) index (spec 2.2, 2.4)."""
    if seats in (2, 3):
        return tuple(range(seats))
    if seats not in (4, 6):
        raise OptionError(f"{TITLE} is for 2, 3, 4 or 6 players (spec 2.1), not {seats}")
    teams = seats // 2
    if seating == "alternating":
        return tuple(s % teams for s in range(seats))
    return tuple(s // 2 for s in range(seats))


# --------------------------------------------------------------------------- state


class ToucheState(State[ToucheAction]):
    """A Touché match in progress."""

    __slots__ = (
        "counts",
        "crowned",
        "ctypes",
        "dealer",
        "discards",
        "draws",
        "game",
        "game_no",
        "games",
        "grade",
        "hands",
        "last",
        "marks",
        "match_points",
        "match_wins",
        "n_sides",
        "on_board",
        "opts",
        "pending",
        "phase",
        "piles",
        "recycled",
        "rng",
        "round_no",
        "seats",
        "side_of",
        "stall",
        "to_act",
        "turn",
    )

    game: ToucheGame
    opts: ToucheOptions
    side_of: tuple[int, ...]
    n_sides: int
    phase: str
    grade: int
    dealer: int
    marks: list[int]
    on_board: list[int]
    crowned: tuple[tuple[int, int], ...]
    """(side, instance id) per crowned pattern, in order."""
    counts: list[int]
    ctypes: list[int]
    hands: list[tuple[str, ...]]
    piles: list[tuple[str, ...]]
    """Face-down piles (bunke); the top is the end of the tuple."""
    discards: list[tuple[str, ...]]
    """Face-up discard piles (egen bunke); the top is the end."""
    pending: tuple[int, ...]
    turn: int
    stall: int
    round_no: int
    game_no: int
    match_wins: list[int]
    match_points: list[int]
    games: tuple[tuple[int, int, int], ...]
    """Finished games: (grade, winning side or -1 for a draw, points)."""
    draws: tuple[tuple[tuple[int, str], ...], ...]
    last: int
    recycled: tuple[bool, ...]
    """Per seat: its pile was refilled from its own face-up discards, so its owner knows the
    pile's content (the recycled cards minus those it drew since)."""

    # ------------------------------------------------------------------ helpers

    @property
    def target(self) -> int:
        if not self.grade:
            return 0
        _, two, three = GRADES[self.grade]
        return two if self.n_sides == 2 else three

    def side(self, seat: int) -> int:
        return self.side_of[seat]

    def supply(self, side: int) -> int:
        if self.opts.marker_supply is None:
            return 10**6
        return self.opts.marker_supply - self.on_board[side]

    def mask(self, side: int) -> int:
        return qualifying_mask(self.grade, self.ctypes[side], self.opts.grade5_distinct_types)

    def _wild(self) -> bool:
        return self.opts.free_space_mode == "wild"

    def _free_completes(self, cell: int, side: int, mask: int = -1) -> bool:
        """Would ``side``'s marker on the empty FREE ``cell`` complete a qualifying pattern?"""
        if self.opts.free_space_mode == "wild":
            return False
        marks = self.marks
        for c in NEIGHBOURS[cell]:
            if marks[c] == side:
                break
        else:
            return False
        if mask < 0:
            mask = self.mask(side)
        for t in range(4):
            if mask >> t & 1:
                for others in OTHERS[t][cell]:
                    for c in others:
                        if marks[c] != side:
                            break
                    else:
                        return True
        return False

    def _completing_frees(self, side: int) -> list[int]:
        marks = self.marks
        mask = self.mask(side)
        return [c for c in FREE_CELLS if marks[c] == EMPTY and self._free_completes(c, side, mask)]

    def _dead(self, card: str) -> bool:
        if card == JOKER:
            return False
        a, b = CARD_CELLS[card]
        return self.marks[a] != EMPTY and self.marks[b] != EMPTY

    def _can_place(self, seat: int) -> bool:
        side = self.side_of[seat]
        hand = self.hands[seat]
        if not hand or self.supply(side) <= 0:
            return False
        marks = self.marks
        for card in hand:
            if card == JOKER:
                for c in CELLS:
                    m = marks[c]
                    if (m == EMPTY and not IS_FREE[c]) or (0 <= m < CROWN and m != side):
                        return True
            else:
                a, b = CARD_CELLS[card]
                if marks[a] == EMPTY or marks[b] == EMPTY:
                    return True
        return bool(self._completing_frees(side))

    # ------------------------------------------------------------------ legal

    def legal(self) -> list[ToucheAction]:
        seat = self.to_act
        if seat is None:
            return []
        if self.phase == "grade":
            return [ChooseGrade(g) for g in range(1, 6)]
        if self.phase == "crown":
            return [instance_action(k) for k in self.pending]
        side = self.side_of[seat]
        hand = self.hands[seat]
        out: list[ToucheAction] = []
        marks = self.marks
        if self.supply(side) > 0 and hand:
            distinct = sorted(set(hand))
            frees = self._completing_frees(side)
            for card in distinct:
                if card == JOKER:
                    continue
                for c in CARD_CELLS[card]:
                    if marks[c] == EMPTY:
                        out.append(_place(card, c))
            for c in frees:
                for card in distinct:
                    if card != JOKER:
                        out.append(_place(card, c))
            if JOKER in distinct:
                for c in CELLS:
                    m = marks[c]
                    if (m == EMPTY and (not IS_FREE[c] or c in frees)) or (0 <= m < CROWN and m != side):
                        out.append(_place(JOKER, c))
        dead = sorted(c for c in hand if self._dead(c))
        if dead:
            subsets: set[tuple[str, ...]] = set()
            for k in range(1, len(dead) + 1):
                subsets.update(combinations(dead, k))
            out.extend(Exchange(s) for s in sorted(subsets, key=lambda s: (len(s), s)))
        if not out:
            out.append(Pass())
        return out

    # ------------------------------------------------------------------ validation

    def _fail(self, why: str) -> IllegalAction:
        return IllegalAction(f"{TITLE}: {why}")

    def _validate(self, action: ToucheAction) -> None:
        seat = self.to_act
        if seat is None:
            raise GameOver(f"{TITLE}: the game is over")
        if self.phase == "grade":
            if not isinstance(action, ChooseGrade):
                raise self._fail("the dealer must first choose a grade (grade 1 … grade 5)")
            if not 1 <= action.grade <= 5:
                raise self._fail("grades run from 1 to 5")
            return
        if self.phase == "crown":
            if not isinstance(action, Crown):
                raise self._fail("choose which completed pattern to crown first")
            if action not in [instance_action(k) for k in self.pending]:
                raise self._fail(f"{' '.join(action.cells)} is not one of the completed patterns")
            return
        if isinstance(action, ChooseGrade):
            raise self._fail("the grade has already been chosen for this game")
        if isinstance(action, Crown):
            raise self._fail("there is no completed pattern to crown")
        side = self.side_of[seat]
        hand = self.hands[seat]
        if isinstance(action, Pass):
            if self.legal() != [Pass()]:
                raise self._fail("you may pass only when you can neither place a marker nor trade in a card")
            return
        if isinstance(action, Exchange):
            if not action.cards:
                raise self._fail("name the dead cards to trade in")
            need = Counter(action.cards)
            have = Counter(hand)
            for card, n in need.items():
                if have[card] < n:
                    raise self._fail(f"you do not hold {'two copies of ' if n > 1 else ''}{card}")
                if card == JOKER:
                    raise self._fail("a joker is never dead and cannot be traded in")
                if not self._dead(card):
                    free = [cell_name(c) for c in CARD_CELLS[card] if self.marks[c] == EMPTY]
                    raise self._fail(f"{card} is not dead: {' and '.join(free)} is still empty")
            return
        assert isinstance(action, Place)
        card, cell = action.card, action.cell
        if card not in hand:
            raise self._fail(f"you do not hold {card}")
        if cell not in CELL_INDEX:
            raise self._fail(f"{cell} is not a space on the board")
        x = CELL_INDEX[cell]
        if self.supply(side) <= 0:
            raise self._fail(f"{COLOURS[side]} has no markers left")
        m = self.marks[x]
        if m >= CROWN:
            raise self._fail(f"{cell} is crowned: a crowned marker can never be moved or replaced")
        if IS_FREE[x]:
            if self._wild():
                raise self._fail("with wild free spaces nobody places on a free space")
            if m != EMPTY:
                raise self._fail(f"{cell} is taken")
            if not self._free_completes(x, side):
                raise self._fail("a free space may only take the last marker that completes a pattern")
            return
        if card == JOKER:
            if m == side:
                raise self._fail(f"{cell} already holds your side's marker")
            return
        if CELL_CARD[x] != card:
            spaces = " and ".join(cell_name(c) for c in CARD_CELLS[card])
            raise self._fail(f"{card} may only go on its own spaces, {spaces} (or a completing free space)")
        if m != EMPTY:
            raise self._fail(f"{cell} is taken by {COLOURS[m]}; only a joker can replace an uncrowned marker")

    # ------------------------------------------------------------------ play

    def play(self, action: ToucheAction) -> list[dict[str, Any]]:
        self._validate(action)
        seat = self.to_act
        assert seat is not None
        if isinstance(action, ChooseGrade):
            self.grade = action.grade
            self.phase = "play"
            self.to_act = (self.dealer + 1) % self.seats
            return [
                {
                    "kind": "grade",
                    "seat": seat,
                    "grade": action.grade,
                    "text": f"Seat {seat} (dealer) chooses {action.label()}.",
                }
            ]
        if isinstance(action, Crown):
            k = INSTANCE_ID[tuple(sorted(CELL_INDEX[c] for c in action.cells))]
            return self._crown(seat, k)
        side = self.side_of[seat]
        self.turn += 1
        if isinstance(action, Pass):
            self.stall += 1
            passed = [{"kind": "pass", "seat": seat, "text": f"Seat {seat} cannot play and passes."}]
            return passed + self._next_turn(seat)
        if isinstance(action, Exchange):
            could = self._can_place(seat)
            self.stall = 0 if could else self.stall + 1
            hand = list(self.hands[seat])
            for c in action.cards:
                hand.remove(c)
            self.hands[seat] = tuple(sorted(hand))
            self.discards[seat] = self.discards[seat] + action.cards
            got = self._draw(seat, len(action.cards))
            text = ", ".join(card_label(c) for c in action.cards)
            traded: list[dict[str, Any]] = [
                {
                    "kind": "exchange",
                    "seat": seat,
                    "cards": list(action.cards),
                    "drawn": got,
                    "text": f"Seat {seat} trades in the dead {text} and draws {got}.",
                }
            ]
            return traded + self._next_turn(seat)
        assert isinstance(action, Place)
        self.stall = 0
        x = CELL_INDEX[action.cell]
        hand = list(self.hands[seat])
        hand.remove(action.card)
        self.hands[seat] = tuple(hand)
        self.discards[seat] = (*self.discards[seat], action.card)
        old = self.marks[x]
        if old != EMPTY:
            self.on_board[old] -= 1
        self.marks[x] = side
        self.on_board[side] += 1
        self.last = x
        text = f"Seat {seat} ({COLOURS[side]}) plays {card_label(action.card)} on {action.cell}"
        if old != EMPTY:
            text += f", sending {COLOURS[old]}'s marker back"
        events: list[dict[str, Any]] = [
            {
                "kind": "place",
                "seat": seat,
                "side": side,
                "card": action.card,
                "cell": action.cell,
                "replaced": COLOURS[old] if old != EMPTY else None,
                "text": text + ".",
            }
        ]
        done = complete_through(self.marks, x, side, self.mask(side), self._wild())
        if self._wild() and self.supply(side) <= 0:
            done = [k for k in done if all(self.marks[c] == side for c in INSTANCES[k][1])]
        if not done:
            self._draw(seat, 1)
            return events + self._next_turn(seat)
        if len(done) == 1:
            return events + self._crown(seat, done[0])
        self.phase = "crown"
        self.pending = tuple(done)
        events.append(
            {
                "kind": "choose_crown",
                "seat": seat,
                "text": f"Touché! The marker completes {len(done)} patterns; seat {seat} crowns one.",
            }
        )
        return events

    def _crown(self, seat: int, k: int) -> list[dict[str, Any]]:
        side = self.side_of[seat]
        typ, cells = INSTANCES[k]
        for c in cells:
            if self.marks[c] == EMPTY:  # a wild FREE space gets the side's marker
                self.on_board[side] += 1
            self.marks[c] = side + CROWN
        self.crowned = (*self.crowned, (side, k))
        self.counts[side] += 1
        self.ctypes[side] |= 1 << typ
        self.pending = ()
        self.phase = "play"
        names = " ".join(cell_name(c) for c in cells)
        events: list[dict[str, Any]] = [
            {
                "kind": "touche",
                "seat": seat,
                "side": side,
                "pattern": TYPE_NAMES[typ],
                "cells": [cell_name(c) for c in cells],
                "count": self.counts[side],
                "text": f"Touché! {COLOURS[side].capitalize()} crowns the {TYPE_NAMES[typ]} {names} "
                f"({self.counts[side]} of {self.target}).",
            }
        ]
        if self.counts[side] >= self.target:
            return events + self._end_game(side)
        # End of the round (spec 6.7).
        if self.opts.clear_on_touche:
            for c in CELLS:
                m = self.marks[c]
                if 0 <= m < CROWN:
                    self.marks[c] = EMPTY
                    self.on_board[m] -= 1
        self._draw(seat, 1)
        self.dealer = (self.dealer + 1) % self.seats
        self.round_no += 1
        if self.opts.redeal_each_round:
            self._deal()
        self.to_act = (self.dealer + 1) % self.seats
        events.append(
            {
                "kind": "round",
                "seat": self.dealer,
                "text": f"Round {self.round_no} begins: seat {self.dealer} deals, seat {self.to_act} starts.",
            }
        )
        return events

    def _next_turn(self, seat: int) -> list[dict[str, Any]]:
        stall_limit = self.opts.stall_turns if self.opts.stall_turns is not None else 3 * self.seats
        if self.stall >= stall_limit or self.turn >= self.opts.max_turns:
            why = "nobody could place a marker" if self.stall >= stall_limit else "the turn limit was reached"
            return [{"kind": "draw", "text": f"The game is drawn: {why}."}, *self._end_game(-1)]
        self.to_act = (seat + 1) % self.seats
        return []

    def _draw(self, seat: int, n: int) -> int:
        got = 0
        for _ in range(n):
            if len(self.hands[seat]) >= HAND:
                break
            if not self.piles[seat]:
                if not (self.opts.recycle_discards and self.discards[seat]):
                    break
                pile = list(self.discards[seat])
                self.rng.shuffle(pile)
                self.piles[seat] = tuple(pile)
                self.discards[seat] = ()
                if not self.recycled[seat]:
                    self.recycled = tuple(r or i == seat for i, r in enumerate(self.recycled))
            pile_t = self.piles[seat]
            self.hands[seat] = tuple(sorted((*self.hands[seat], pile_t[-1])))
            self.piles[seat] = pile_t[:-1]
            got += 1
        return got

    def _deal(self) -> None:
        """Shuffle every card and deal them all, one at a time from the left of the dealer."""
        n = self.seats
        deck = full_deck(self.opts.jokers_per_deck)
        self.rng.shuffle(deck)
        piles: list[list[str]] = [[] for _ in range(n)]
        for i, card in enumerate(deck):
            piles[(self.dealer + 1 + i) % n].append(card)
        self.piles = [tuple(p) for p in piles]
        self.hands = [() for _ in range(n)]
        self.discards = [() for _ in range(n)]
        self.recycled = (False,) * n
        for s in range(n):
            self._draw(s, HAND)

    def _end_game(self, winner: int) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        points = 0
        if winner >= 0:
            points = GRADE_POINTS[self.grade]
            if all(self.counts[s] == 0 for s in range(self.n_sides) if s != winner):
                points = SHUTOUT_POINTS if self.opts.shutout_mode == "replace" else points + SHUTOUT_POINTS
            self.match_wins[winner] += 1
            self.match_points[winner] += points
            events.append(
                {
                    "kind": "game_won",
                    "side": winner,
                    "points": points,
                    "text": f"{COLOURS[winner].capitalize()} wins game {self.game_no} and scores {points}.",
                }
            )
        self.games = (*self.games, (self.grade, winner, points))
        self.phase = "over"
        self.to_act = None
        if self._match_over():
            best = self.match_winner()
            events.append(
                {
                    "kind": "match_over",
                    "side": best,
                    "text": "The match is over: "
                    + (f"{COLOURS[best]} wins." if best is not None else "nobody wins."),
                }
            )
            return events
        # Next game: the dealer passes left, everything is dealt anew (spec 3.3, 7.4).
        self.game_no += 1
        self.round_no = 1
        self.dealer = (self.dealer + 1) % self.seats
        self._start_game()
        events.append(
            {
                "kind": "new_game",
                "seat": self.dealer,
                "text": f"Game {self.game_no}: seat {self.dealer} deals.",
            }
        )
        return events

    def _match_over(self) -> bool:
        o = self.opts
        cap = o.match_max_games or 3 * o.match_games
        played = len(self.games)
        if played >= cap:
            return True
        if o.match_mode == "wins":
            return max(self.match_wins) >= o.match_games // 2 + 1
        if played < o.match_games:
            return False
        top = max(self.match_points)
        return self.match_points.count(top) == 1

    def match_winner(self) -> int | None:
        """The side that won the match (None while running or when nobody did)."""
        if self.phase != "over":
            return None
        vals = self.match_wins if self.opts.match_mode == "wins" else self.match_points
        top = max(vals)
        if self.opts.match_mode == "wins" and top < self.opts.match_games // 2 + 1:
            return None
        return vals.index(top) if vals.count(top) == 1 else None

    def _start_game(self) -> None:
        self.marks = [EMPTY] * 144
        self.on_board = [0] * self.n_sides
        self.crowned = ()
        self.counts = [0] * self.n_sides
        self.ctypes = [0] * self.n_sides
        self.pending = ()
        self.turn = 0
        self.stall = 0
        self.last = -1
        self._deal()
        if self.opts.grade:
            self.grade = self.opts.grade
            self.phase = "play"
            self.to_act = (self.dealer + 1) % self.seats
        else:
            self.grade = 0
            self.phase = "grade"
            self.to_act = self.dealer

    # ------------------------------------------------------------------ views and results

    def view(self, seat: int | None) -> dict[str, Any]:
        marks = self.marks
        markers = [
            {"cell": NAMES[c], "side": marks[c] % CROWN, "crowned": marks[c] >= CROWN}
            for c in CELLS
            if marks[c] != EMPTY
        ]
        return {
            "game": "touche",
            "phase": self.phase if self.to_act is not None else "over",
            "to_act": self.to_act,
            "seats": self.seats,
            "seat": seat,
            "side_of": list(self.side_of),
            "colours": list(COLOURS[: self.n_sides]),
            "grade": self.grade,
            "target": self.target,
            "dealer": self.dealer,
            "round": self.round_no,
            "turn": self.turn,
            "stall": self.stall,
            "layout": LAYOUT,
            "markers": markers,
            "last": cell_name(self.last) if self.last >= 0 else None,
            "crowned": [
                {
                    "side": s,
                    "type": TYPE_NAMES[INSTANCES[k][0]],
                    "cells": [cell_name(c) for c in INSTANCES[k][1]],
                }
                for s, k in self.crowned
            ],
            "counts": list(self.counts),
            "crowned_types": [[TYPE_NAMES[t] for t in range(4) if m >> t & 1] for m in self.ctypes],
            "supply": [
                self.supply(s) if self.opts.marker_supply is not None else None for s in range(self.n_sides)
            ],
            "pending": [[cell_name(c) for c in INSTANCES[k][1]] for k in self.pending],
            "hand": list(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "pile_sizes": [len(p) for p in self.piles],
            "discards": [list(d) for d in self.discards],
            "dead": sorted({c for c in self.hands[seat] if self._dead(c)}) if seat is not None else [],
            "match": {
                "game_no": self.game_no,
                "games": self.opts.match_games,
                "mode": self.opts.match_mode,
                "wins": list(self.match_wins),
                "points": list(self.match_points),
                "results": [
                    {"grade": g, "winner": w if w >= 0 else None, "points": p} for g, w, p in self.games
                ],
                "winner": self.match_winner(),
            },
            "dealer_draw": [[[s, c] for s, c in r] for r in self.draws],
        }

    def result(self) -> tuple[float, ...] | None:
        """Per seat, teammates sharing their side's value. ``match_mode=wins``: 1.0 for the side
        that won the match, 0.0 for the others (1/sides each if nobody won: the game cap).
        ``match_mode=points``: the side's total points over the match (spec 7.3)."""
        if self.to_act is not None:
            return None
        if self.opts.match_mode == "points":
            return tuple(float(self.match_points[s]) for s in self.side_of)
        w = self.match_winner()
        if w is None:
            return tuple(1.0 / self.n_sides for _ in self.side_of)
        return tuple(1.0 if s == w else 0.0 for s in self.side_of)

    # ------------------------------------------------------------------ copies

    def copy(self) -> ToucheState:
        s = ToucheState.__new__(ToucheState)
        s.game = self.game
        s.seats = self.seats
        s.to_act = self.to_act
        s.rng = self.rng.copy()
        s.opts = self.opts
        s.side_of = self.side_of
        s.n_sides = self.n_sides
        s.phase = self.phase
        s.grade = self.grade
        s.dealer = self.dealer
        s.marks = self.marks[:]
        s.on_board = self.on_board[:]
        s.crowned = self.crowned
        s.counts = self.counts[:]
        s.ctypes = self.ctypes[:]
        s.hands = self.hands[:]
        s.piles = self.piles[:]
        s.discards = self.discards[:]
        s.pending = self.pending
        s.turn = self.turn
        s.stall = self.stall
        s.round_no = self.round_no
        s.game_no = self.game_no
        s.match_wins = self.match_wins[:]
        s.match_points = self.match_points[:]
        s.games = self.games
        s.draws = self.draws
        s.last = self.last
        s.recycled = self.recycled
        return s

    def determinize(self, seat: int, rng: Rng) -> ToucheState:
        """Re-deal what ``seat`` cannot see: the other hands and the order and content of every
        face-down pile, keeping all sizes. Discards are face up. A pile its owner refilled from
        its own discards keeps its content for that owner (only the order is shuffled); the
        other seats' knowledge of such a pile is not modelled (they see it re-dealt)."""
        s = self.copy()
        own_known = self.recycled[seat]
        pool: list[str] = [c for i, h in enumerate(self.hands) if i != seat for c in h]
        for i, p in enumerate(self.piles):
            if not (own_known and i == seat):
                pool.extend(p)
        rng.shuffle(pool)
        pos = 0
        for i in range(self.seats):
            if i != seat:
                n = len(self.hands[i])
                s.hands[i] = tuple(sorted(pool[pos : pos + n]))
                pos += n
        for i in range(self.seats):
            if own_known and i == seat:
                mine = list(self.piles[i])
                rng.shuffle(mine)
                s.piles[i] = tuple(mine)
                continue
            n = len(self.piles[i])
            s.piles[i] = tuple(pool[pos : pos + n])
            pos += n
        s.rng = rng.spawn()
        return s

    def check(self) -> None:
        o = self.opts
        everything = Counter[str]()
        for group in (self.hands, self.piles, self.discards):
            for cards in group:
                everything.update(cards)
        assert everything == Counter(full_deck(o.jokers_per_deck)), "cards are not conserved"
        assert all(len(h) <= HAND for h in self.hands), "a hand holds more than 5 cards"
        on = [0] * self.n_sides
        crowned_cells: set[int] = set()
        for c in range(144):
            m = self.marks[c]
            if m == EMPTY:
                continue
            assert CELL_CARD[c], f"a marker off the board at {c}"
            on[m % CROWN] += 1
            if m >= CROWN:
                crowned_cells.add(c)
            else:
                assert not IS_FREE[c] or (self.phase == "crown" and c == self.last), (
                    f"uncrowned marker on the free space {cell_name(c)}"
                )
        assert on == self.on_board, "marker counts are off"
        if o.marker_supply is not None:
            assert all(0 <= n <= o.marker_supply for n in on), "marker supply broken"
        seen: set[int] = set()
        counts = [0] * self.n_sides
        for side, k in self.crowned:
            cells = INSTANCES[k][1]
            assert not seen & set(cells), "crowned patterns overlap"
            seen.update(cells)
            assert all(self.marks[c] == side + CROWN for c in cells), "crowned pattern cells wrong"
            assert sum(IS_FREE[c] for c in cells) <= 1, "crowned pattern with two free spaces"
            counts[side] += 1
        assert seen == crowned_cells, "a crowned marker outside any crowned pattern"
        assert counts == self.counts, "crowned counts are off"
        assert len(crowned_cells) <= 30, "more crowned markers than the 30 crowns"
        if self.grade == 5 and o.grade5_distinct_types:
            assert all(bin(self.ctypes[i]).count("1") == n for i, n in enumerate(counts)), (
                "grade 5: a pattern type crowned twice"
            )
        if self.grade:
            assert all(n <= self.target for n in counts), "a count above the target"
        if self.phase == "play" and self.to_act is not None and self.grade:
            for side in range(self.n_sides):
                # (a wild free space needs a marker from the supply, so only marker-complete
                # instances are checked under wild)
                assert not complete_scan(self.marks, side, self.mask(side)), (
                    f"{COLOURS[side]} has an uncrowned complete pattern"
                )


# --------------------------------------------------------------------------- game


class ToucheGame(Game[ToucheOptions]):
    """Touché: cards send markers to a 112-cell board; complete the grade's patterns first."""

    id = "touche"
    title = TITLE
    seats = range(2, 7)
    Options = ToucheOptions
    summary = "Play cards to put markers on the board and crown squares, lines, T's and crosses"
    languages = ("en", "no")
    best_bot = "heuristic"
    quick_options = {"grade": 1, "match_games": 1, "match_max_games": 1, "max_turns": 300}  # noqa: RUF012
    max_decisions = 12_000
    agents = AGENTS

    def new(self, seats: int, seed: int, options: ToucheOptions | None = None) -> ToucheState:
        self.check_seats(seats)
        o = options if options is not None else ToucheOptions()
        side_of = sides_for(seats, o.seating)
        s = ToucheState.__new__(ToucheState)
        s.game = self
        s.seats = seats
        s.rng = Rng(seed)
        s.opts = o
        s.side_of = side_of
        s.n_sides = max(side_of) + 1
        deck = full_deck(o.jokers_per_deck)
        s.rng.shuffle(deck)
        cards = iter(deck * 4)  # ties could in principle need more draws than one deck
        dealer, rounds = first_dealer(cards, seats)
        s.draws = tuple(tuple(r) for r in rounds)
        s.dealer = dealer
        s.round_no = 1
        s.game_no = 1
        s.match_wins = [0] * s.n_sides
        s.match_points = [0] * s.n_sides
        s.games = ()
        s._start_game()
        return s

    def parse(self, state: State[Any], text: str) -> Action:
        """Any well-formed action (so that ``play`` can say why it is illegal)."""
        if state.to_act is None:
            raise GameOver(f"{TITLE}: the game is over")
        words = text.strip().split()
        if not words:
            raise ParseError(f"{TITLE}: empty action")
        verb, args = words[0].lower(), words[1:]

        def card(w: str) -> str:
            w = w.upper()
            if w != JOKER and w not in CARD_CELLS:
                raise ParseError(f"{TITLE}: {w!r} is not a card (like 7D, TH, AS or JK)")
            return w

        def cell(w: str) -> str:
            w = w.lower()
            if w not in CELL_INDEX:
                raise ParseError(f"{TITLE}: {w!r} is not a board cell (like r3c4)")
            return w

        if verb == "grade" and len(args) == 1 and args[0].isdigit():
            return ChooseGrade(int(args[0]))
        if verb == "place" and len(args) == 2:
            return Place(card(args[0]), cell(args[1]))
        if verb == "exchange" and len(args) == 1:
            return Exchange(tuple(sorted(card(w) for w in args[0].split("+"))))
        if verb == "pass" and not args:
            return Pass()
        if verb == "crown" and len(args) == 1:
            cells = sorted((cell(w) for w in args[0].split("+")), key=lambda n: CELL_INDEX[n])
            return Crown(tuple(cells))
        raise ParseError(
            f"{TITLE}: {text.strip()!r} is not an action (grade N, place CARD CELL, "
            "exchange CARD+CARD, pass, crown CELL+CELL…)"
        )

    def evaluate(self, state: State[Any], seat: int) -> float:
        assert isinstance(state, ToucheState)
        return evaluate(state, seat)


def position(
    seats: int = 2,
    *,
    grade: int = 1,
    marks: dict[str, int] | None = None,
    crowned: Sequence[tuple[int, Sequence[str]]] = (),
    hands: dict[int, Sequence[str]] | None = None,
    discards: dict[int, Sequence[str]] | None = None,
    to_act: int = 0,
    dealer: int | None = None,
    options: ToucheOptions | None = None,
    seed: int = 0,
) -> ToucheState:
    """A position built from a compact description (for tests and puzzles).

    ``marks``: cell -> side of an uncrowned marker; ``crowned``: (side, cells) patterns;
    ``hands``/``discards``: seat -> cards; the rest of the cards are dealt into the piles.
    """
    o = options if options is not None else ToucheOptions(grade=grade)
    if o.grade != grade:
        from dataclasses import replace

        o = replace(o, grade=grade)
    s = GAME.new(seats, seed, o)
    s.dealer = (to_act - 1) % seats if dealer is None else dealer
    s.to_act = to_act
    s.phase = "play"
    s.grade = grade
    s.marks = [EMPTY] * 144
    s.on_board = [0] * s.n_sides
    s.crowned = ()
    s.counts = [0] * s.n_sides
    s.ctypes = [0] * s.n_sides
    for side, names in crowned:
        k = INSTANCE_ID[tuple(sorted(CELL_INDEX[c] for c in names))]
        for c in INSTANCES[k][1]:
            s.marks[c] = side + CROWN
            s.on_board[side] += 1
        s.crowned = (*s.crowned, (side, k))
        s.counts[side] += 1
        s.ctypes[side] |= 1 << INSTANCES[k][0]
    for name, side in (marks or {}).items():
        s.marks[CELL_INDEX[name]] = side
        s.on_board[side] += 1
    deck = full_deck(o.jokers_per_deck)
    s.rng.shuffle(deck)
    rest = Counter(deck)
    new_hands: list[tuple[str, ...]] = []
    new_discards: list[tuple[str, ...]] = []
    for seat in range(seats):
        h = tuple(sorted((hands or {}).get(seat, ())))
        d = tuple((discards or {}).get(seat, ()))
        rest.subtract(h)
        rest.subtract(d)
        new_hands.append(h)
        new_discards.append(d)
    if any(v < 0 for v in rest.values()):
        raise ValueError("position: more copies of a card than the deck holds")
    pool: list[str] = []
    for card in deck:
        if rest[card] > 0:
            rest[card] -= 1
            pool.append(card)
    piles: list[list[str]] = [[] for _ in range(seats)]
    for seat in range(seats):
        if hands is None or seat not in hands:
            while len(new_hands[seat]) < HAND and pool:
                new_hands[seat] = tuple(sorted((*new_hands[seat], pool.pop())))
    for i, card in enumerate(pool):
        piles[i % seats].append(card)
    s.hands = new_hands
    s.discards = new_discards
    s.piles = [tuple(p) for p in piles]
    s.turn = 0
    s.stall = 0
    s.pending = ()
    return s


GAME = ToucheGame()
