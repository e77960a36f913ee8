"""Touché: the rules engine (the rules: ``docs/rules/touche.md``; seed text in Norwegian).

Sides and seats
---------------
2 or 3 players play alone; 4 or 6 play in pairs (lag) sharing a colour: purple (lilla, side 0),
blue (blå, side 1), yellow (gul, side 2). 5 players are refused (R2.1, R10.17). Teammates sit
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

Pattern detection is incremental (:mod:`.patterns`).

A state is a whole match (``match_games``, best of N by default 3): a game ends when a side
reaches its grade's target; the next game is dealt anew by the next dealer. The scores are the
match figures (games won, or match points) and the match decides the outcome.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from spillebord.core import (
    Action,
    Event,
    GameKind,
    IllegalAction,
    OptionError,
    Rng,
    Teams,
    rank_outcome,
    state,
    win_outcome,
)
from spillebord.core.errors import GameOver
from spillebord.core.game import Game, State  # the defining module: mypyc needs it for bases
from spillebord.core.mypyc import mypyc_attr

from .actions import (
    CARD_PLACES,
    CROWNS,
    GRADE_CHOICES,
    PASS,
    PLACES,
    ChooseGrade,
    Crown,
    Exchange,
    Pass,
    Place,
    ToucheAction,
    exchanges,
)
from .data import (
    CARD_CELLS,
    CARD_LABELS,
    CELL_BITS,
    CELL_CARD,
    CELL_INDEX,
    CELLS,
    COLOURS,
    CROWN,
    EMPTY,
    GRADE_POINTS,
    GRADES,
    HAND,
    INSTANCE_BITS,
    INSTANCE_ID,
    INSTANCES,
    IS_FREE,
    JOKER,
    NAMES,
    RANK_ORDER,
    SHUTOUT_POINTS,
    TYPE_NAMES,
    cell_name,
    full_deck,
)
from .notation import parse_action
from .options import ToucheOptions
from .patterns import (
    CELL_MARKS,
    MASKS,
    complete_scan,
    complete_through,
    completing_frees,
    frees_after,
)
from .view import view as build_view

TITLE = "Touché"
_MARKED_BIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(1 << (144 * side + c) for c in range(144))
    for side in range(3)  # at most 3 sides: 2 or 3 players, or 4 and 6 in teams (R2.1, sides_for)
)
"""``_MARKED_BIT[side][cell]``: the cell's bit in :attr:`ToucheState._marked` (side 0: also in
:attr:`ToucheState._empty`), made once: a shift on every marker placed costs more."""


def first_dealer(cards: Iterable[str], seats: int) -> tuple[int, list[list[tuple[int, str]]]]:
    """R3.2: each player draws a card, highest rank (2 < … < A) deals; a joker draws again;
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


def sides_for(seats: int, seating: str) -> tuple[int, ...]:
    """Seat -> side (colour) index (R2.2, R2.4)."""
    if seats in (2, 3):
        return tuple(range(seats))
    if seats not in (4, 6):
        raise OptionError(f"{TITLE} is for 2, 3, 4 or 6 players (rule R2.1), not {seats}")
    teams = seats // 2
    if seating == "alternating":
        return tuple(s % teams for s in range(seats))
    return tuple(s // 2 for s in range(seats))


def teams_of(side_of: tuple[int, ...]) -> Teams:
    """The sides as tuples of seats, side 0 first."""
    return tuple(tuple(s for s, x in enumerate(side_of) if x == side) for side in range(max(side_of) + 1))


# --------------------------------------------------------------------------- state


@state(
    copy={
        "marks": list.copy,
        "on_board": list.copy,
        "counts": list.copy,
        "ctypes": list.copy,
        "hands": list.copy,
        "piles": list.copy,
        "discards": list.copy,
        "match_wins": list.copy,
        "match_points": list.copy,
    }
)
class ToucheState(State[ToucheAction]):
    """A Touché match in progress."""

    opts: ToucheOptions
    side_of: tuple[int, ...]
    """Seat -> side (colour index)."""
    n_sides: int
    phase: str
    """``grade``, ``play``, ``crown`` or ``over``."""
    grade: int
    dealer: int
    marks: list[int]
    """Per cell index (``r * 12 + c``): EMPTY, a side, or side + CROWN."""
    on_board: list[int]
    """Markers of each side on the board."""
    crowned: tuple[tuple[int, int], ...]
    """(side, instance id) per crowned pattern, in order."""
    counts: list[int]
    """Crowned patterns per side in this game."""
    ctypes: list[int]
    """Per side, the bitmask of pattern types it has crowned in this game."""
    hands: list[tuple[str, ...]]
    piles: list[tuple[str, ...]]
    """Face-down piles (bunke); the top is the end of the tuple."""
    discards: list[tuple[str, ...]]
    """Face-up discard piles (egen bunke); the top is the end."""
    pending: tuple[int, ...]
    """Instances the last marker completed, one to be crowned (phase ``crown``)."""
    turn: int
    stall: int
    round_no: int
    game_no: int
    match_wins: list[int]
    match_points: list[int]
    games: tuple[tuple[int, int, int], ...]
    """Finished games: (grade, winning side or -1 for a draw, points)."""
    draws: tuple[tuple[tuple[int, str], ...], ...]
    """The first dealer draw (public), round by round: (seat, card)."""
    last: int
    """The cell of the last marker placed (-1: none yet)."""
    recycled: tuple[bool, ...]
    """Per seat: its pile was refilled from its own face-up discards, so its owner knows the
    pile's content (the recycled cards minus those it drew since)."""
    piles_unordered: bool
    """Only in a determinized state: the piles' order was not dealt; a draw takes a card at
    random (the same law as from a shuffled pile, without shuffling cards never drawn)."""
    pooled: int
    """Only in a determinized state: bitmask of the seats whose piles were re-dealt from one
    pool (their cards are unknown to the seat determinized for). A draw from such a pile takes
    a card at random from all of them, and the drawer's pile gives its top card in exchange:
    the same law as a random split into piles of these sizes, without dealing that split."""
    _empty: int
    """A cache: the empty board cells as one bit mask (bit ``c`` for cell ``c``), for the bots,
    which read the board through it and :attr:`_marked`. Kept up to date by every change of
    ``marks``; code that edits ``marks`` by hand calls :meth:`refresh`."""
    _marked: int
    """A cache: each side's uncrowned markers as bit masks, side ``s``'s at bits ``144 * s + c``
    (:meth:`marked`); kept as :attr:`_empty` is."""
    _frees: tuple[tuple[int, ...], ...]
    """A cache, per side: the empty FREE cells on which its marker would complete a qualifying
    pattern (:func:`.patterns.completing_frees` of ``marks``; empty under ``free_space_mode=wild``).
    Kept up to date by every change of ``marks`` (a new marker only adds FREE cells near it);
    immutable, so copies share it. Code that edits ``marks`` by hand calls :meth:`refresh`."""

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
        """The pattern types that count for ``side`` now (R4.1)."""
        return MASKS[self.opts.grade5_distinct_types][self.grade][self.ctypes[side]]

    def _wild(self) -> bool:
        return self.opts.free_space_mode == "wild"

    def _free_completes(self, cell: int, side: int) -> bool:
        """Would ``side``'s marker on the empty FREE ``cell`` complete a qualifying pattern?"""
        return cell in self._completing_frees(side)

    def _completing_frees(self, side: int) -> tuple[int, ...]:
        """The empty FREE cells on which ``side``'s marker would complete a qualifying pattern
        (R5.1b); none under ``free_space_mode=wild``."""
        return self._frees[side]

    def _scan_frees(self) -> tuple[tuple[int, ...], ...]:
        """:attr:`_frees` from scratch."""
        if self.opts.free_space_mode == "wild":
            return ((),) * self.n_sides
        return tuple(completing_frees(self.marks, side, self.mask(side)) for side in range(self.n_sides))

    def _scan_bits(self) -> tuple[int, int]:
        """(:attr:`_empty`, :attr:`_marked`) from scratch."""
        empty = marked = 0
        marks = self.marks
        for c in CELLS:
            m = marks[c]
            if m == EMPTY:
                empty |= 1 << c
            elif m < CROWN:
                marked |= 1 << (144 * m + c)
        return empty, marked

    def marked(self, side: int) -> int:
        """``side``'s uncrowned markers as one bit mask over cell indices."""
        return (self._marked >> (144 * side)) & CELL_BITS

    def refresh(self) -> None:
        """Recompute the caches derived from the board (after editing ``marks`` by hand)."""
        self._frees = self._scan_frees()
        self._empty, self._marked = self._scan_bits()

    def is_dead(self, card: str) -> bool:
        """A dead card (ubrukelig kort, R5): not a joker, and both its spaces hold a marker."""
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
        phase = self.phase
        if phase != "play":
            if phase == "grade":
                return list(GRADE_CHOICES)
            return [CROWNS[k] for k in self.pending]
        side = self.side_of[seat]
        hand = self.hands[seat]  # sorted (every change of a hand keeps it sorted)
        marks = self.marks
        out: list[ToucheAction] = []
        dead: list[str] = []
        joker = False
        supply = self.opts.marker_supply
        can = supply is None or supply > self.on_board[side]
        prev = ""
        for card in hand:
            if card == JOKER:
                joker = True
                continue
            a, b, pa, pb = CARD_PLACES[card]
            if marks[a] != EMPTY:
                if marks[b] != EMPTY:
                    dead.append(card)
                elif can and card != prev:
                    out.append(pb)
            elif can and card != prev:
                out.append(pa)
                if marks[b] == EMPTY:
                    out.append(pb)
            prev = card
        if can and hand:
            frees = self._frees[side]
            if frees:
                distinct = sorted(set(hand) - {JOKER})
                for c in frees:
                    for card in distinct:
                        out.append(PLACES[card][c])
            if joker:
                places = PLACES[JOKER]
                for c, m in zip(CELLS, CELL_MARKS(marks), strict=True):
                    if m == EMPTY:
                        if not IS_FREE[c] or c in frees:
                            out.append(places[c])
                    elif m < CROWN and m != side:
                        out.append(places[c])
        if dead:
            out.extend(exchanges(tuple(dead)))
        if not out:
            out.append(PASS)
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
            if action not in [CROWNS[k] for k in self.pending]:
                raise self._fail(f"{' '.join(action.cells)} is not one of the completed patterns")
            return
        if isinstance(action, ChooseGrade):
            raise self._fail("the grade has already been chosen for this game")
        if isinstance(action, Crown):
            raise self._fail("there is no completed pattern to crown")
        side = self.side_of[seat]
        hand = self.hands[seat]
        if isinstance(action, Pass):
            if self.legal() != [PASS]:
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
                if not self.is_dead(card):
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

    def apply(self, action: ToucheAction) -> list[Event]:
        seat = self.to_act
        if type(action) is Place and seat is not None and self.phase == "play":
            card = action.card
            x = CELL_INDEX.get(action.cell, -1)
            supply = self.opts.marker_supply
            if not (  # the common case, legal by every rule _validate checks: its own empty space
                x >= 0
                and CELL_CARD[x] == card
                and self.marks[x] == EMPTY
                and card in self.hands[seat]
                and (supply is None or supply > self.on_board[self.side_of[seat]])
            ):
                self._validate(action)
            return self._place(seat, card, x)
        if type(action) is Exchange and seat is not None and self.phase == "play":
            hand = list(self.hands[seat])
            marks = self.marks
            for c in action.cards:  # the common case: dead cards held (else _validate says why)
                if c == JOKER or c not in hand:
                    break
                a, b = CARD_CELLS[c]
                if marks[a] == EMPTY or marks[b] == EMPTY:
                    break
                hand.remove(c)
            else:
                if action.cards:
                    return self._exchange(seat, action.cards, tuple(hand))
            self._validate(action)
            return self._exchange(seat, action.cards, None)
        self._validate(action)
        assert seat is not None
        if isinstance(action, ChooseGrade):
            self.grade = action.grade
            self.phase = "play"
            self.to_act = (self.dealer + 1) % self.seats
            self._frees = self._scan_frees()  # the qualifying types are known now
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
        if isinstance(action, Place):
            return self._place(seat, action.card, CELL_INDEX[action.cell])
        if isinstance(action, Exchange):
            return self._exchange(seat, action.cards, None)
        assert isinstance(action, Pass)
        self.turn += 1
        self.stall += 1
        passed: list[Event] = [{"kind": "pass", "seat": seat, "text": f"Seat {seat} cannot play and passes."}]
        return passed + self._next_turn(seat)

    def _exchange(self, seat: int, cards: tuple[str, ...], rest: tuple[str, ...] | None) -> list[Event]:
        """Carry out a validated ``exchange cards``; ``rest``: the hand without them, if known."""
        self.turn += 1
        could = self._can_place(seat)
        self.stall = 0 if could else self.stall + 1
        if rest is None:
            hand = list(self.hands[seat])
            for c in cards:
                hand.remove(c)
            rest = tuple(sorted(hand))
        self.hands[seat] = rest
        self.discards[seat] = self.discards[seat] + cards
        got = self._draw(seat, len(cards))
        text = ", ".join(CARD_LABELS[c] for c in cards)
        traded: list[Event] = [
            {
                "kind": "exchange",
                "seat": seat,
                "cards": list(cards),
                "drawn": got,
                "text": f"Seat {seat} trades in the dead {text} and draws {got}.",
            }
        ]
        return traded + self._next_turn(seat)

    def _place(self, seat: int, card: str, x: int) -> list[Event]:
        """Carry out a validated ``place card <cell x>``."""
        side = self.side_of[seat]
        self.turn += 1
        self.stall = 0
        hand = self.hands[seat]
        i = hand.index(card)  # the hand loses the card below (with the card drawn, if any)
        self.discards[seat] = (*self.discards[seat], card)
        marks = self.marks
        old = marks[x]
        if old != EMPTY:
            self.on_board[old] -= 1
            self._marked ^= _MARKED_BIT[old][x]  # a joker sends an uncrowned marker back
        else:
            self._empty ^= _MARKED_BIT[0][x]
        self._marked |= _MARKED_BIT[side][x]
        marks[x] = side
        self.on_board[side] += 1
        self.last = x
        cell = NAMES[x]
        if old != EMPTY:
            text = (
                f"Seat {seat} ({COLOURS[side]}) plays {CARD_LABELS[card]} on {cell}, "
                f"sending {COLOURS[old]}'s marker back."
            )
        else:
            text = f"Seat {seat} ({COLOURS[side]}) plays {CARD_LABELS[card]} on {cell}."
        events: list[Event] = [
            {
                "kind": "place",
                "seat": seat,
                "side": side,
                "card": card,
                "cell": cell,
                "replaced": COLOURS[old] if old != EMPTY else None,
                "text": text,
            }
        ]
        o = self.opts
        mask = MASKS[o.grade5_distinct_types][self.grade][self.ctypes[side]]
        if o.free_space_mode == "wild":
            done = complete_through(marks, x, side, mask, True)
            if self.supply(side) <= 0:
                done = [k for k in done if all(marks[c] == side for c in INSTANCES[k][1])]
        else:
            done = complete_through(marks, x, side, mask)
            if not done:  # keep the FREE-cell cache: x is not a FREE cell (that would complete)
                frees = self._frees
                mine = frees[side]
                new = frees_after(marks, x, side, mask, mine)
                theirs = frees[old] if old != EMPTY else ()
                if new is not mine or theirs:
                    update = list(frees)
                    update[side] = new
                    if theirs:  # old lost a marker: its FREE cells can only go
                        update[old] = completing_frees(marks, old, self.mask(old))
                    self._frees = tuple(update)
        if not done:
            piles = self.piles
            pile = piles[seat]
            if pile and not self.piles_unordered:  # _draw(seat, 1), the common case inline
                piles[seat] = pile[:-1]
                drawn = list(hand)
                drawn[i] = pile[-1]
                drawn.sort()
                self.hands[seat] = tuple(drawn)
            else:
                self.hands[seat] = hand[:i] + hand[i + 1 :]
                self._draw(seat, 1)
            if self.turn >= o.max_turns:  # (no stall: a marker was placed)
                return events + self._next_turn(seat)
            self.to_act = (seat + 1) % self.seats
            return events
        self.hands[seat] = hand[:i] + hand[i + 1 :]
        if len(done) == 1:
            return events + self._crown(seat, done[0])
        self.phase = "crown"
        self.pending = tuple(done)
        self._frees = self._scan_frees()
        events.append(
            {
                "kind": "choose_crown",
                "seat": seat,
                "text": f"Touché! The marker completes {len(done)} patterns; seat {seat} crowns one.",
            }
        )
        return events

    def _crown(self, seat: int, k: int) -> list[Event]:
        side = self.side_of[seat]
        typ, cells = INSTANCES[k]
        for c in cells:
            if self.marks[c] == EMPTY:  # a wild FREE space gets the side's marker
                self.on_board[side] += 1
            self.marks[c] = side + CROWN
        crowned = INSTANCE_BITS[k]  # its cells were the side's uncrowned markers or empty
        self._empty &= ~crowned
        self._marked &= ~(crowned << (144 * side))
        self.crowned = (*self.crowned, (side, k))
        self.counts[side] += 1
        self.ctypes[side] |= 1 << typ
        self.pending = ()
        self.phase = "play"
        names = " ".join(cell_name(c) for c in cells)
        events: list[Event] = [
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
            self._frees = self._scan_frees()
            return events + self._end_game(side)
        # End of the round (R6.7).
        if self.opts.clear_on_touche:
            for c in CELLS:
                m = self.marks[c]
                if 0 <= m < CROWN:
                    self.marks[c] = EMPTY
                    self.on_board[m] -= 1
            self._frees = ((),) * self.n_sides  # no uncrowned marker: nothing to complete
            marked = self._marked
            for sd in range(self.n_sides):
                self._empty |= (marked >> (144 * sd)) & CELL_BITS
            self._marked = 0
        else:
            self._frees = self._scan_frees()
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

    def _next_turn(self, seat: int) -> list[Event]:
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
                self.pooled &= ~(1 << seat)
                self.discards[seat] = ()
                if not self.recycled[seat]:
                    self.recycled = tuple(r or i == seat for i, r in enumerate(self.recycled))
            pile_t = self.piles[seat]
            if self.piles_unordered:
                card = self._draw_unordered(seat)
            else:
                card = pile_t[-1]
                self.piles[seat] = pile_t[:-1]
            self.hands[seat] = tuple(sorted((*self.hands[seat], card)))
            got += 1
        return got

    def _draw_unordered(self, seat: int) -> str:
        """Determinized states: one card for ``seat`` from its unordered pile (or the pool)."""
        piles = self.piles
        own = piles[seat]
        pooled = self.pooled
        if not (pooled >> seat) & 1:
            x = self.rng.randrange(len(own))
            piles[seat] = own[:x] + own[x + 1 :]
            return own[x]
        members = [j for j in range(self.seats) if (pooled >> j) & 1]
        x = self.rng.randrange(sum(len(piles[j]) for j in members))
        for j in members:
            n = len(piles[j])
            if x < n:
                break
            x -= n
        other = piles[j]
        card = other[x]
        if j == seat:
            piles[seat] = own[:x] + own[x + 1 :]
        else:
            piles[j] = (*other[:x], own[-1], *other[x + 1 :])
            piles[seat] = own[:-1]
        return card

    def _deal(self) -> None:
        """Shuffle every card and deal them all, one at a time from the left of the dealer."""
        n = self.seats
        deck = full_deck(self.opts.jokers_per_deck)
        self.rng.shuffle(deck)
        # card i goes to seat (dealer + 1 + i) % n: seat s gets every n-th card from its first
        self.piles = [tuple(deck[(s - self.dealer - 1) % n :: n]) for s in range(n)]
        self.hands = [() for _ in range(n)]
        self.discards = [() for _ in range(n)]
        self.recycled = (False,) * n
        self.piles_unordered = False
        self.pooled = 0
        for s in range(n):
            pile = self.piles[s]
            if len(pile) >= HAND:  # _draw(s, HAND): the top HAND cards, one at a time
                self.hands[s] = tuple(sorted(pile[-HAND:]))
                self.piles[s] = pile[:-HAND]
            else:
                self._draw(s, HAND)

    def _end_game(self, winner: int) -> list[Event]:
        events: list[Event] = []
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
        # Next game: the dealer passes left, everything is dealt anew (R3.3, R7.4).
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
        self._frees = ((),) * self.n_sides
        self._empty, self._marked = CELL_BITS, 0
        self._deal()
        if self.opts.grade:
            self.grade = self.opts.grade
            self.phase = "play"
            self.to_act = (self.dealer + 1) % self.seats
        else:
            self.grade = 0
            self.phase = "grade"
            self.to_act = self.dealer

    # ------------------------------------------------------------------ views and outcomes

    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def teams(self) -> Teams:
        """The sides: each colour's seats (R2.2)."""
        return teams_of(self.side_of)

    def scores(self) -> tuple[float, ...]:
        """The match figures per seat, teammates sharing their side's (R7.3, R7.4): the games
        the side has won in this match (``match_mode=wins``) or its match points, summed over
        its won games (``match_mode=points``: 5/10/15/20/25 by grade, 25 or +25 for a shutout)."""
        vals = self.match_points if self.opts.match_mode == "points" else self.match_wins
        return tuple(float(vals[s]) for s in self.side_of)

    def final_outcome(self) -> tuple[float, ...]:
        """The match decides (R7.4). ``match_mode=wins``: the side that won the majority of
        games takes the win; a match stopped by the game cap (``match_max_games``) with nobody
        at a majority is split evenly among all sides. ``match_mode=points``: the highest total wins
        (totals tied at the game cap share)."""
        teams = self.teams()
        if self.opts.match_mode == "points":
            return rank_outcome(self.scores(), teams)
        w = self.match_winner()
        return win_outcome([w] if w is not None else range(self.n_sides), teams, self.seats)

    def determinize(self, seat: int, rng: Rng) -> ToucheState:
        """Re-deal what ``seat`` cannot see: the other hands and the order and content of every
        face-down pile, keeping all sizes. Discards are face up. A pile its owner refilled from
        its own discards keeps its content for that owner (only the order is unknown); the
        other seats' knowledge of such a pile is not modelled (they see it re-dealt).

        The other hands get a uniform random choice of the unseen cards; the rest fill the
        piles in any order, and draws then take their cards at random (``piles_unordered``,
        ``pooled``), which deals the piles lazily with the same law."""
        s = self.copy()
        own_known = self.recycled[seat]
        pool: list[str] = [c for i, h in enumerate(self.hands) if i != seat for c in h]
        n_hands = len(pool)
        pooled = 0
        for i, p in enumerate(self.piles):
            if not (own_known and i == seat):
                pool.extend(p)
                pooled |= 1 << i
        # In a canonical order first: the sample must not depend on where the unseen cards
        # really are (with a fixed seed it would be a function of the hidden order).
        pool.sort()
        rng.shuffle_front(pool, n_hands)
        pos = 0
        for i in range(self.seats):
            if i != seat:
                k = len(self.hands[i])
                s.hands[i] = tuple(sorted(pool[pos : pos + k]))
                pos += k
        for i in range(self.seats):
            if (pooled >> i) & 1:
                k = len(self.piles[i])
                s.piles[i] = tuple(pool[pos : pos + k])
                pos += k
        s.piles_unordered = True
        s.pooled = pooled
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
        assert self._frees == self._scan_frees(), "the cache of completing FREE cells is stale"
        assert (self._empty, self._marked) == self._scan_bits(), "the board's bit masks are stale"
        assert all(list(h) == sorted(h) for h in self.hands), "a hand is not sorted"
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


@mypyc_attr(allow_interpreted_subclasses=True)
class ToucheGame(Game[ToucheOptions, ToucheState]):
    """Touché: cards send markers to a 112-cell board; complete the grade's patterns first."""

    id = "touche"
    title = TITLE
    seats = range(2, 7)
    kind = GameKind(
        hidden_information=True,  # hands and the order of the piles
        chance=True,  # every game is dealt anew; recycled discards are shuffled
        public_actions=True,  # played and traded-in cards go face up onto the discards
        max_decisions=12_000,  # default options end within 9 games x (600 turns + crowns + grade)
    )
    Options = ToucheOptions
    summary = "Play cards to put markers on the board and crown squares, lines, T's and crosses"
    languages = ("en", "no")
    quick_options = {"grade": 1, "match_games": 1, "match_max_games": 1, "max_turns": 300}  # noqa: RUF012

    def new(self, seats: int, seed: int, options: ToucheOptions | None = None) -> ToucheState:
        self.check_seats(seats)
        o = options if options is not None else ToucheOptions()
        side_of = sides_for(seats, o.seating)
        s = ToucheState.__new__(ToucheState)
        s.start(self, seats, Rng(seed))
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

    def teams(self, seats: int, options: ToucheOptions | None = None) -> Teams:
        """The colours' seats: alone with 2 or 3 players, pairs with 4 or 6 (grouped or
        alternating, from the options). 5 players cannot play: every seat alone."""
        if seats not in (2, 3, 4, 6):
            return tuple((s,) for s in range(seats))
        o = options if options is not None else ToucheOptions()
        return teams_of(sides_for(seats, o.seating))

    def parse(self, state: ToucheState, text: str) -> Action:
        """Any well-formed action (so that ``play`` can say why it is illegal)."""
        if state.to_act is None:
            raise GameOver(f"{TITLE}: the game is over")
        return parse_action(text)
