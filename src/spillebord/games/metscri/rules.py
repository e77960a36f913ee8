"""Metscri: the rules engine (state machine).

Source: ``shared/seeds/metscri.da.txt`` (Ole Høyer Hansen, 2019) and ``shared/spec/metscri.md``
(rules R1–R32, test cases T1–T13, decisions A1–A24). Rule numbers below refer to the spec.

How a turn decomposes into decisions
------------------------------------
Every decision is one action of the seat ``to_act``; the state keeps the phase.

1. Earn action points (Optjening af handlingspoint), phase ``roll``: ``roll`` (Roll) until
   ``stop`` (Stop). The first roll always counts; a roll lower than the previous one loses
   the whole turn (R7: 0 AP, nothing happens, play passes on).
2. Spend action points (Brug af handlingspoint), in the fixed order of R9. In each phase the
   legal actions are that phase's own actions, ``next`` (End phase: close this phase and go
   on; offered while a later phase has something to do) and ``done`` (End turn):

   * ``move`` (Move, Flytte) ``move r0c5 r0c3``: the top card of the first square to the
     second; 1 AP.
   * ``enter`` (Enter, Indsætte) ``enter 9Ha r0c3``: a hand card face down onto a rim square;
     2 AP.
   * ``turn`` (Turn, Vende) ``turn r1c3``: a face-down free-lying card face up; the k-th costs
     k-1.
   * ``spy`` (Spy, Smugkigge) ``spy r1c4``: look at a face-down free-lying card; ring + 1 AP.
     Right after it, ``reveal r1c4`` (Reveal) turns it face up for free.
   * ``collect`` (Collect, Indsamle) ``collect r1c2 r1c3 r2c3``: one valid group; 0 AP.
   * Return (Vende ikke parrede kort igen) is automatic when Collect is left.
   * ``invest`` (Invest, Købe): the top card of the buy pile into the hand; 2 AP.

   A phase in which nothing is possible is skipped automatically, and when no phase is left
   the turn ends by itself (Return applied). Leftover AP are lost (A8).

Knowledge (A19, spec section 5): every card carries ``known`` (a bitmask of seats). A seat
knows its hand, the cards it entered or spied, and every card that was ever face up (turned,
revealed, matched); moves keep knowledge (they are public and a card can be followed; option
``memory_follows_moves=False`` forgets a card when it moves). With ``memory_aid`` (default)
``view(seat)`` shows the identities of the face-down cards the seat knows; a spectator sees
those known to everybody. Right after a Spy the spier always sees the card (pending Reveal).
``determinize(seat)`` re-deals exactly the cards the view hides (other hands, the buy pile,
unseen board cards; a reshuffled buy pile, whose composition is public, is only reordered);
knowledge stays with the slot, so other seats keep "knowing" whatever lies where they looked.

Ids: squares ``r<row>c<col>``; cards rank + suit + deck letter (``9Ha``, ``10Cb``, ``ASa``).

Results: ``result()`` gives 1.0 to the winner and 0.0 to everyone else; when the optional
``max_rounds`` safeguard ends the game, every seat with the highest score gets 1.0 (R32).

Decisions of the spec that are fixed facts rather than options (no sensible alternative,
or the spec itself says a setting is not worth it): A2 (the top card of any non-empty
square is free-lying, a lone card included), A14 (Return is mandatory and automatic),
A15 (pile corners are cosmetic), A16 (the lazy reshuffle at the moment of purchase),
A17 (the game master plays and is the last seat; seat 0 starts), A21 (only face-down
free-lying cards may be turned or spied; Spy never raises the Turn escalation), A22 (OCR),
A24 (any seat may move, turn or spy any free-lying card).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from spillebord.core import Action, Event, Game, IllegalAction, Rng, State, opt
from spillebord.core.errors import GameOver, ParseError

from .data import (
    BIG_JOKER,
    CARD_FACE,
    CARD_ID,
    CARD_INDEX,
    DIAG,
    HAND_SIZE,
    KIND,
    KING_MASK,
    MAX_STACK,
    NCARDS,
    NCELLS,
    ORTHO,
    POINTS,
    RANK,
    RAYS,
    RIM,
    RING,
    SMALL_JOKER,
    SPY_COST,
    SQ_ID,
    SQ_INDEX,
    SQUARES,
    SYMBOL,
    target_points,
)

TITLE = "Metscri"

# Phases, in the order of R9.
ROLL, MOVE, ENTER, TURN, SPY, COLLECT, INVEST, OVER = range(8)
PHASE_NAMES = ("roll", "move", "enter", "turn", "spy", "collect", "invest", "over")

COST_MOVE = 1
COST_ENTER = 2
COST_INVEST = 2


# ====================================================================== options


@dataclass(frozen=True, slots=True)
class MetscriOptions:
    """Rule variants: every unclear point of the spec (A1–A24) with the spec's decision as default."""

    allow_same_level_step: bool = opt(
        False,
        "A3: allow a step onto an adjacent occupied square at the same level "
        "(level 2 onto a 1-stack, level 3 onto a 2-stack)",
    )
    diagonal_steps: bool = opt(
        False, "A4: level steps (one or two levels up/down) may also go to diagonal neighbours"
    )
    slide_any_length: bool = opt(
        True, "A5: a slide passes over any number of empty squares (false: one square only)"
    )
    tie_continues: bool = opt(
        True, "A6: a roll equal to the previous one counts (false: each roll must be strictly higher)"
    )
    lower_roll: Literal["lose_turn", "keep_sum"] = opt(
        "lose_turn",
        "A7: a lower roll loses the whole turn (lose_turn), or only ends rolling keeping the sum so far",
    )
    carry_over_ap: bool = opt(
        False, "A8: unspent action points are kept for the seat's next turn (default: lost)"
    )
    collect_adjacency: Literal["symbols_connected", "connected", "pairwise"] = opt(
        "symbols_connected",
        "A9: symbol cards form one king-connected cluster and each joker touches one of them "
        "(symbols_connected); or the whole group is connected, jokers may link (connected); "
        "or every two cards of the group touch (pairwise)",
    )
    joker_rule: Literal["weighted", "strict_table"] = opt(
        "weighted",
        "A10: a group is valid when symbols + small jokers + 2 x big jokers >= 3 (weighted), "
        "or only by the text's table rows (strict_table)",
    )
    jokers_only_groups: bool = opt(
        False, "A11: allow groups made of jokers only (default: at least one symbol card)"
    )
    max_groups_per_turn: int | None = opt(
        None, "A12: at most this many groups may be collected in one turn (default: any number)", min=1
    )
    reveal_after_spy: bool = opt(True, "A13: right after a Spy the spier may reveal the card to all for free")
    enter_public: bool = opt(
        False, "A1: entered cards are shown to everyone as they are entered (default: face down, secret)"
    )
    win_check: Literal["after_group", "end_of_turn"] = opt(
        "after_group", "A18: check the target after each collected group, or only at the end of the turn"
    )
    memory_aid: bool = opt(
        True, "A19: show each seat the identities of face-down cards it legitimately knows"
    )
    memory_follows_moves: bool = opt(
        True,
        "A19/§5: knowledge of a face-down card survives moves (false: a moved card is forgotten "
        "by everyone, so a seat only sees the cards it entered or spied while they stay unmoved)",
    )
    hand_limit: int | None = opt(
        None, "A23: the most cards a hand may hold after Invest (default: none)", min=1
    )
    max_rounds: int | None = opt(
        None, "A20/R32: safeguard, end the game after this many rounds (default: off)", min=1
    )
    target: int | None = opt(
        None, "R31: M-points to win (default: ceil(144 / players): 72, 48, 36, 29, 24, 21, 18)", min=1
    )


# ====================================================================== actions


def _sq_text(s: int) -> str:
    return SQ_ID[s]


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Roll the die (terningkast)."""

    def __str__(self) -> str:
        return "roll"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "roll", "text": "roll"}

    def label(self) -> str:
        return "Roll the die"


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """Stop rolling and keep the sum of the counting rolls as action points."""

    def __str__(self) -> str:
        return "stop"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "stop", "text": "stop"}

    def label(self) -> str:
        return "Stop rolling"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move (Flytte): the free-lying card of ``frm`` slides or steps to ``to``. 1 AP."""

    frm: int
    to: int

    def __str__(self) -> str:
        return f"move {SQ_ID[self.frm]} {SQ_ID[self.to]}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "move", "from": SQ_ID[self.frm], "to": SQ_ID[self.to], "text": str(self)}

    def label(self) -> str:
        return f"Move the card on {SQ_ID[self.frm]} to {SQ_ID[self.to]} (1 AP)"


@dataclass(frozen=True, slots=True)
class Enter(Action):
    """Enter (Indsætte): a hand card face down onto a rim square. 2 AP."""

    card: int
    to: int

    def __str__(self) -> str:
        return f"enter {CARD_ID[self.card]} {SQ_ID[self.to]}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "enter", "card": CARD_ID[self.card], "to": SQ_ID[self.to], "text": str(self)}

    def label(self) -> str:
        return f"Enter {CARD_FACE[self.card]} on {SQ_ID[self.to]} (2 AP)"


@dataclass(frozen=True, slots=True)
class Turn(Action):
    """Turn (Vende): turn a face-down free-lying card face up (the k-th costs k-1 AP)."""

    square: int

    def __str__(self) -> str:
        return f"turn {SQ_ID[self.square]}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "turn", "square": SQ_ID[self.square], "text": str(self)}

    def label(self) -> str:
        return f"Turn the card on {SQ_ID[self.square]} face up"


@dataclass(frozen=True, slots=True)
class Spy(Action):
    """Spy (Smugkigge): look privately at a face-down free-lying card (ring + 1 AP)."""

    square: int

    def __str__(self) -> str:
        return f"spy {SQ_ID[self.square]}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "spy", "square": SQ_ID[self.square], "text": str(self)}

    def label(self) -> str:
        return f"Spy on the card on {SQ_ID[self.square]} ({SPY_COST[self.square]} AP)"


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Reveal: make the card just spied visible to all, free, only right after the Spy."""

    square: int

    def __str__(self) -> str:
        return f"reveal {SQ_ID[self.square]}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "reveal", "square": SQ_ID[self.square], "text": str(self)}

    def label(self) -> str:
        return f"Reveal the spied card on {SQ_ID[self.square]} to all"


@dataclass(frozen=True, slots=True)
class Collect(Action):
    """Collect (Indsamle): one valid group of face-up cards, by their squares (sorted)."""

    squares: tuple[int, ...]

    def __str__(self) -> str:
        return "collect " + " ".join(SQ_ID[s] for s in self.squares)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "collect", "squares": [SQ_ID[s] for s in self.squares], "text": str(self)}

    def label(self) -> str:
        return "Collect the group on " + ", ".join(SQ_ID[s] for s in self.squares)


@dataclass(frozen=True, slots=True)
class Invest(Action):
    """Invest (Købe): buy the top card of the buy pile. 2 AP."""

    def __str__(self) -> str:
        return "invest"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "invest", "text": "invest"}

    def label(self) -> str:
        return "Buy a card (2 AP)"


@dataclass(frozen=True, slots=True)
class EndPhase(Action):
    """End the current phase (closing it for this turn) and go on to the next one."""

    def __str__(self) -> str:
        return "next"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "next", "text": "next"}

    def label(self) -> str:
        return "End this phase"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn (Return is applied automatically); leftover AP are lost."""

    def __str__(self) -> str:
        return "done"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "done", "text": "done"}

    def label(self) -> str:
        return "End the turn"


ENTER_OBJ: tuple[dict[int, Enter], ...] = tuple({t: Enter(c, t) for t in RIM} for c in range(NCARDS))
TURN_OBJ: tuple[Turn, ...] = tuple(Turn(t) for t in range(NCELLS))
SPY_OBJ: tuple[Spy, ...] = tuple(Spy(t) for t in range(NCELLS))
MOVE_OBJ: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move(a, b) for b in range(NCELLS)) for a in range(NCELLS)
)

MetscriAction = Roll | Stop | Move | Enter | Turn | Spy | Reveal | Collect | Invest | EndPhase | EndTurn

ROLL_A, STOP_A, INVEST_A, NEXT_A, DONE_A = Roll(), Stop(), Invest(), EndPhase(), EndTurn()

_PHASE_OF: dict[type, int] = {
    Move: MOVE,
    Enter: ENTER,
    Turn: TURN,
    Spy: SPY,
    Reveal: SPY,
    Collect: COLLECT,
    Invest: INVEST,
}


# ====================================================================== groups


def group_weight_ok(kinds: Sequence[int], joker_rule: str, jokers_only: bool = False) -> bool:
    """R22/A10/A11: is a multiset of card kinds (ranks already checked equal) a valid group?"""
    s = sum(1 for k in kinds if k == SYMBOL)
    j2 = sum(1 for k in kinds if k == SMALL_JOKER)
    j1 = sum(1 for k in kinds if k == BIG_JOKER)
    if s == 0 and not jokers_only:
        return False
    if joker_rule == "strict_table":
        return s >= 3 or (j1 >= 1 and s >= 1) or (j2 >= 1 and s >= 2) or (s == 0 and j2 + 2 * j1 >= 3)
    return s + j2 + 2 * j1 >= 3


def _connected(mask: int) -> bool:
    """Is a set of squares (bitmask) one cluster under king adjacency?"""
    if mask == 0:
        return False
    start = mask & -mask
    seen = start
    frontier = start
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        nb = KING_MASK[low.bit_length() - 1] & mask & ~seen
        seen |= nb
        frontier |= nb
    return seen == mask


def _reach(start: int, mask: int) -> int:
    """The squares of ``mask`` connected (king adjacency, within ``mask``) to ``start``."""
    seen = start
    frontier = start
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        nb = KING_MASK[low.bit_length() - 1] & mask & ~seen
        seen |= nb
        frontier |= nb
    return seen


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _submasks(mask: int) -> list[int]:
    """Every non-empty subset of ``mask``."""
    out = []
    sub = mask
    while sub:
        out.append(sub)
        sub = (sub - 1) & mask
    return out


def valid_group(cards_at: dict[int, int], squares: Sequence[int], opts: MetscriOptions) -> str | None:
    """Why the cards on ``squares`` (square -> card) are not a valid group (R22, R23); None if valid."""
    sym = [s for s in squares if KIND[cards_at[s]] == SYMBOL]
    jok = [s for s in squares if KIND[cards_at[s]] != SYMBOL]
    ranks = {RANK[cards_at[s]] for s in sym}
    if len(ranks) > 1:
        return "the symbol cards are not all of the same rank"
    if not group_weight_ok([KIND[cards_at[s]] for s in squares], opts.joker_rule, opts.jokers_only_groups):
        if not sym and not opts.jokers_only_groups:
            return "a group needs at least one symbol card"
        return "too few cards (symbols + small jokers + 2 x big jokers must be at least 3)"
    mode = opts.collect_adjacency
    allm = sum(1 << s for s in squares)
    if mode == "pairwise":
        for a in squares:
            if (allm & ~(1 << a)) & ~KING_MASK[a]:
                return "not every two cards of the group touch"
        return None
    if mode == "connected" or not sym:
        return None if _connected(allm) else "the cards do not lie next to each other"
    symm = sum(1 << s for s in sym)
    if not _connected(symm):
        return "the symbol cards do not lie next to each other"
    for j in jok:
        if not KING_MASK[j] & symm:
            return "a joker does not touch a symbol card of the group"
    return None


def enumerate_groups(cards_at: dict[int, int], opts: MetscriOptions) -> list[tuple[int, ...]]:
    """Every valid group (sorted square tuples) among the face-up cards ``cards_at``."""
    by_rank: dict[int, int] = {}
    jokers = 0
    for s, c in cards_at.items():
        if KIND[c] == SYMBOL:
            by_rank[RANK[c]] = by_rank.get(RANK[c], 0) | (1 << s)
        else:
            jokers |= 1 << s
    out: set[tuple[int, ...]] = set()
    mode = opts.collect_adjacency
    symbol_sets = [sub for m in by_rank.values() for sub in _submasks(m)]
    if opts.jokers_only_groups:
        symbol_sets.append(0)
    for smask in symbol_sets:
        # only jokers that can belong with these symbols (keeps the enumeration small)
        if smask == 0:
            near = jokers
        elif mode == "connected":
            near = _reach(smask, smask | jokers) & jokers
        else:
            if not _connected(smask):
                continue
            near = 0
            for b in _bits(smask):
                near |= KING_MASK[b]
            near &= jokers
        for jmask in [0, *_submasks(near)]:
            if smask == 0 and jmask == 0:
                continue
            squares = _bits(smask | jmask)
            if valid_group(cards_at, squares, opts) is None:
                out.add(tuple(squares))
    return sorted(out, key=lambda t: (len(t), t))


def group_points(cards: Sequence[tuple[int, int]]) -> int:
    """R24: jokers score 1; a symbol card scores ring + 1 of its square. ``cards``: (square, card)."""
    return sum(1 if KIND[c] != SYMBOL else POINTS[s] for s, c in cards)


# ====================================================================== state


_SQ_RE = r"r[0-6]c[0-6]"
_MOVE_RE = re.compile(rf"^move ({_SQ_RE}) ({_SQ_RE})$")
_ENTER_RE = re.compile(rf"^enter (\S+) ({_SQ_RE})$")
_ONE_RE = re.compile(rf"^(turn|spy|reveal) ({_SQ_RE})$")
_COLLECT_RE = re.compile(rf"^collect((?: {_SQ_RE})+)$")


class MetscriState(State[MetscriAction]):
    """A Metscri position. Board cards are face down unless their square is in ``up``."""

    __slots__ = (
        "_gcache",
        "_legal",
        "_legal_set",
        "ap",
        "ap_earned",
        "bank",
        "board",
        "buy",
        "game",
        "groups_collected",
        "hands",
        "known",
        "matched",
        "opts",
        "pending",
        "phase",
        "reshuffled",
        "rng",
        "rolls",
        "round",
        "scores",
        "seats",
        "target",
        "to_act",
        "turned",
        "up",
        "winners",
    )

    game: MetscriGame
    opts: MetscriOptions
    board: list[tuple[int, ...]]
    """Per cell (49, corners always empty): the stack bottom to top."""
    up: int
    """Bitmask of squares whose top card lies face up."""
    hands: list[tuple[int, ...]]
    buy: tuple[int, ...]
    """The buy pile (købekort-bunken), face down; the top is the last element."""
    matched: tuple[int, ...]
    """The matched pile (parringkort-bunken), face up; the top is the last element."""
    reshuffled: bool
    """True while the buy pile is a reshuffled matched pile (its composition is public)."""
    known: list[int]
    """Per card: bitmask of the seats that know its identity (known_to, A19)."""
    scores: tuple[int, ...]
    bank: tuple[int, ...]
    phase: int
    rolls: tuple[int, ...]
    ap: int
    ap_earned: int
    turned: int
    pending: int
    """The square just spied (Reveal possible), else -1."""
    groups_collected: int
    round: int
    target: int
    winners: tuple[int, ...]
    _legal: list[MetscriAction] | None
    _gcache: tuple[int, list[Collect]] | None
    _legal_set: dict[str, MetscriAction] | None

    # ------------------------------------------------------------ equality / copy

    def _fields(self) -> dict[str, Any]:
        out = {name: getattr(self, name) for name in self.__slots__ if not name.startswith("_")}
        return out

    def copy(self) -> MetscriState:
        s = MetscriState.__new__(MetscriState)
        s.game = self.game
        s.opts = self.opts
        s.seats = self.seats
        s.to_act = self.to_act
        s.rng = self.rng.copy()
        s.board = self.board.copy()
        s.up = self.up
        s.hands = self.hands.copy()
        s.buy = self.buy
        s.matched = self.matched
        s.reshuffled = self.reshuffled
        s.known = self.known.copy()
        s.scores = self.scores
        s.bank = self.bank
        s.phase = self.phase
        s.rolls = self.rolls
        s.ap = self.ap
        s.ap_earned = self.ap_earned
        s.turned = self.turned
        s.pending = self.pending
        s.groups_collected = self.groups_collected
        s.round = self.round
        s.target = self.target
        s.winners = self.winners
        s._legal = self._legal
        s._legal_set = self._legal_set
        s._gcache = self._gcache
        return s

    # ------------------------------------------------------------ helpers

    @property
    def all_seats(self) -> int:
        return (1 << self.seats) - 1

    def height(self, s: int) -> int:
        return len(self.board[s])

    def top(self, s: int) -> int | None:
        st = self.board[s]
        return st[-1] if st else None

    def face_up_cards(self) -> dict[int, int]:
        """Square -> card for every face-up (hence free-lying) card."""
        return {s: self.board[s][-1] for s in _bits(self.up)}

    def sees(self, seat: int, s: int, level: int) -> bool:
        """Does ``seat`` see the identity of the card at ``level`` (0-based) of square ``s``?"""
        st = self.board[s]
        if level == len(st) - 1 and (self.up >> s) & 1:
            return True
        if level == len(st) - 1 and self.pending == s and self.to_act == seat:
            return True
        return self.opts.memory_aid and bool((self.known[st[level]] >> seat) & 1)

    # ------------------------------------------------------------ legal actions

    def destinations(self, s: int) -> list[int]:
        """R13–R15: the legal destinations of the free-lying card on ``s`` (slides, then steps)."""
        board = self.board
        h = len(board[s])
        if not h:
            return []
        opts = self.opts
        same = opts.allow_same_level_step
        out: list[int] = []
        if opts.slide_any_length:
            for ray in RAYS[s]:
                for t in ray:
                    if board[t]:
                        break
                    out.append(t)
        else:
            out.extend(t for t in ORTHO[s] if not board[t])
        for t in ORTHO[s]:
            k = len(board[t])
            if 0 < k < MAX_STACK and (k + 1 != h or same):
                out.append(t)
        if opts.diagonal_steps:
            for t in DIAG[s]:
                k = len(board[t])
                if k < MAX_STACK and (k + 1 != h or same):
                    out.append(t)
        return out

    def _moves(self) -> list[Move]:
        board = self.board
        out: list[Move] = []
        for s in SQUARES:
            if board[s]:
                row = MOVE_OBJ[s]
                out.extend([row[t] for t in self.destinations(s)])
        return out

    def _any_move(self) -> bool:
        board = self.board
        return any(board[s] and self.destinations(s) for s in SQUARES)

    def _enters(self) -> list[Enter]:
        if self.to_act is None:
            return []
        hand = self.hands[self.to_act]
        rims = [s for s in RIM if len(self.board[s]) < MAX_STACK]
        out: list[Enter] = []
        for c in hand:
            row = ENTER_OBJ[c]
            out.extend([row[s] for s in rims])
        return out

    def _face_down_tops(self) -> list[int]:
        up = self.up
        return [s for s in SQUARES if self.board[s] and not (up >> s) & 1]

    def _groups(self) -> list[Collect]:
        if not self.up:
            return []
        mg = self.opts.max_groups_per_turn
        if mg is not None and self.groups_collected >= mg:
            return []
        cache = self._gcache
        if cache is not None and cache[0] == self.up:
            return cache[1]
        groups = [Collect(g) for g in enumerate_groups(self.face_up_cards(), self.opts)]
        self._gcache = (self.up, groups)
        return groups

    def _phase_actions(self, p: int) -> list[MetscriAction]:
        ap = self.ap
        if p == MOVE:
            return list(self._moves()) if ap >= COST_MOVE else []
        if p == ENTER:
            return list(self._enters()) if ap >= COST_ENTER else []
        if p == TURN:
            return [TURN_OBJ[s] for s in self._face_down_tops()] if ap >= self.turned else []
        if p == SPY:
            acts: list[MetscriAction] = []
            if self.pending >= 0 and self.opts.reveal_after_spy:
                acts.append(Reveal(self.pending))
            acts.extend([SPY_OBJ[s] for s in self._face_down_tops() if SPY_COST[s] <= ap])
            return acts
        if p == COLLECT:
            return list(self._groups())
        if p == INVEST:
            if ap < COST_INVEST or not (self.buy or self.matched):
                return []
            lim = self.opts.hand_limit
            if lim is not None and self.to_act is not None and len(self.hands[self.to_act]) >= lim:
                return []
            return [INVEST_A]
        return []

    def _has_phase_actions(self, p: int) -> bool:
        ap = self.ap
        if p == MOVE:
            return ap >= COST_MOVE and self._any_move()
        if p == ENTER:
            return (
                ap >= COST_ENTER
                and self.to_act is not None
                and bool(self.hands[self.to_act])
                and any(len(self.board[s]) < MAX_STACK for s in RIM)
            )
        if p == TURN:
            up, board = self.up, self.board
            return ap >= self.turned and any(board[s] and not (up >> s) & 1 for s in SQUARES)
        if p == SPY:
            if self.pending >= 0 and self.opts.reveal_after_spy:
                return True
            up, board = self.up, self.board
            return any(board[s] and not (up >> s) & 1 and SPY_COST[s] <= ap for s in SQUARES)
        if p == COLLECT:
            return bool(self._groups())
        if p == INVEST:
            return bool(self._phase_actions(INVEST))
        return False

    def legal(self) -> list[MetscriAction]:
        if self._legal is not None:
            return self._legal
        p = self.phase
        acts: list[MetscriAction]
        if p == OVER or self.to_act is None:
            acts = []
        elif p == ROLL:
            acts = [ROLL_A, STOP_A] if self.rolls else [ROLL_A]
        else:
            acts = self._phase_actions(p)
            if p < INVEST and any(self._has_phase_actions(q) for q in range(p + 1, INVEST + 1)):
                acts.append(NEXT_A)
            acts.append(DONE_A)
        self._legal = acts
        self._legal_set = None
        return acts

    def legal_index(self) -> dict[str, MetscriAction]:
        if self._legal_set is None or self._legal is None:
            self._legal_set = {str(a): a for a in self.legal()}
        return self._legal_set

    def _is_legal(self, a: Action) -> bool:
        """Is ``a`` in ``legal()``? Fast paths for the common kinds, the legal list otherwise."""
        p = self.phase
        if isinstance(a, Move):
            return (
                p == MOVE
                and self.ap >= COST_MOVE
                and 0 <= a.frm < NCELLS
                and 0 <= a.to < NCELLS
                and bool(self.board[a.frm])
                and a.to in self.destinations(a.frm)
            )
        if isinstance(a, Enter):
            return (
                p == ENTER
                and self.ap >= COST_ENTER
                and self.to_act is not None
                and a.card in self.hands[self.to_act]
                and RING[a.to] == 0
                and a.to in RIM
                and len(self.board[a.to]) < MAX_STACK
            )
        if isinstance(a, (Turn, Spy)):
            ok = 0 <= a.square < NCELLS and bool(self.board[a.square]) and not (self.up >> a.square) & 1
            if isinstance(a, Turn):
                return ok and p == TURN and self.ap >= self.turned
            return ok and p == SPY and self.ap >= SPY_COST[a.square]
        if p == OVER:
            return False
        return a in self.legal()

    # ------------------------------------------------------------ why illegal

    def why_illegal(self, a: Action) -> str:
        """A readable reason why ``a`` is not legal now (used for IllegalAction messages)."""
        p = self.phase
        if p == ROLL:
            if isinstance(a, Stop) and not self.rolls:
                return "you must roll at least once before stopping"
            return f"first earn action points: roll or stop, not {a}"
        if isinstance(a, (Roll, Stop)):
            return "the rolling is over for this turn"
        ap_phase = _PHASE_OF.get(type(a))
        if ap_phase is not None and ap_phase < p:
            return f"the {PHASE_NAMES[ap_phase]} phase is closed (phase order M, E, T, S, C, R, I)"
        if ap_phase is not None and ap_phase > p and not isinstance(a, Reveal):
            return (
                f"this is the {PHASE_NAMES[p]} phase: end it with next before the "
                f"{PHASE_NAMES[ap_phase]} phase (phase order M, E, T, S, C, R, I)"
            )
        if isinstance(a, Move):
            if not self.board[a.frm]:
                return f"there is no card on {SQ_ID[a.frm]}"
            if self.ap < COST_MOVE:
                return "a move costs 1 AP"
            if len(self.board[a.to]) >= MAX_STACK:
                return f"{SQ_ID[a.to]} already holds 3 cards"
            return f"the card on {SQ_ID[a.frm]} cannot move to {SQ_ID[a.to]}"
        if isinstance(a, Enter):
            if self.to_act is None or a.card not in self.hands[self.to_act]:
                return f"{CARD_ID[a.card]} is not in your hand"
            if RING[a.to] != 0:
                return f"cards are entered on the rim only, and {SQ_ID[a.to]} is in ring {RING[a.to]}"
            if len(self.board[a.to]) >= MAX_STACK:
                return f"{SQ_ID[a.to]} already holds 3 cards"
            return f"entering costs 2 AP and you have {self.ap}"
        if isinstance(a, (Turn, Spy)):
            if not self.board[a.square]:
                return f"there is no card on {SQ_ID[a.square]}"
            if (self.up >> a.square) & 1:
                return f"the card on {SQ_ID[a.square]} is already face up"
            cost = self.turned if isinstance(a, Turn) else SPY_COST[a.square]
            return f"it costs {cost} AP and you have {self.ap}"
        if isinstance(a, Reveal):
            return "a card can be revealed only right after spying on it"
        if isinstance(a, Collect):
            if any(not (self.up >> s) & 1 for s in a.squares):
                return "only face-up cards can be collected"
            why = valid_group(self.face_up_cards(), a.squares, self.opts)
            if why:
                return f"not a valid group: {why}"
            return "no more groups may be collected this turn"
        if isinstance(a, Invest):
            if not (self.buy or self.matched):
                return "both the buy pile and the matched pile are empty"
            if self.ap < COST_INVEST:
                return f"buying costs 2 AP and you have {self.ap}"
            return "your hand is full"
        if isinstance(a, EndPhase):
            return "no later phase has anything to do: end the turn with done"
        return f"{a} is not a legal action now"

    # ------------------------------------------------------------ play

    def play(self, action: MetscriAction) -> list[Event]:
        if self.to_act is None:
            raise GameOver(f"{TITLE}: the game is over")
        if not self._is_legal(action):
            raise IllegalAction(f"{TITLE}: {self.why_illegal(action)}")
        seat = self.to_act
        ev: list[Event] = []
        self._legal = None
        self._legal_set = None
        self._gcache = None
        pending, self.pending = self.pending, -1
        if isinstance(action, Roll):
            self._roll(seat, ev)
            return ev
        if isinstance(action, Stop):
            self.ap = self.ap_earned = sum(self.rolls) + self.bank[seat]
            if self.bank[seat]:
                self.bank = _set(self.bank, seat, 0)
            self.phase = MOVE
            ev.append(_ev("stop", seat, f"Seat {seat} stops with {self.ap} action points", ap=self.ap))
            self._settle(seat, ev)
            return ev
        if isinstance(action, EndTurn):
            self._end_turn(seat, ev)
            return ev
        if isinstance(action, EndPhase):
            self._leave_phase(self.phase + 1, seat, ev)
            self._settle(seat, ev)
            return ev
        if isinstance(action, Move):
            self._do_move(seat, action, ev)
        elif isinstance(action, Enter):
            self._do_enter(seat, action, ev)
        elif isinstance(action, Turn):
            self._leave_phase(TURN, seat, ev)
            cost = self.turned
            self.ap -= cost
            self.turned += 1
            c = self.board[action.square][-1]
            self.up |= 1 << action.square
            self.known[c] = self.all_seats
            ev.append(
                _ev(
                    "turn",
                    seat,
                    f"Seat {seat} turns {CARD_FACE[c]} on {SQ_ID[action.square]} ({cost} AP)",
                    square=SQ_ID[action.square],
                    card=CARD_ID[c],
                    cost=cost,
                )
            )
        elif isinstance(action, Spy):
            self._leave_phase(SPY, seat, ev)
            cost = SPY_COST[action.square]
            self.ap -= cost
            c = self.board[action.square][-1]
            self.known[c] |= 1 << seat
            self.pending = action.square
            ev.append(
                _ev(
                    "spy",
                    seat,
                    f"Seat {seat} spies on the card on {SQ_ID[action.square]} ({cost} AP)",
                    square=SQ_ID[action.square],
                    cost=cost,
                )
            )
        elif isinstance(action, Reveal):
            assert pending == action.square
            c = self.board[action.square][-1]
            self.up |= 1 << action.square
            self.known[c] = self.all_seats
            ev.append(
                _ev(
                    "reveal",
                    seat,
                    f"Seat {seat} reveals {CARD_FACE[c]} on {SQ_ID[action.square]}",
                    square=SQ_ID[action.square],
                    card=CARD_ID[c],
                )
            )
        elif isinstance(action, Collect):
            self._leave_phase(COLLECT, seat, ev)
            if self._do_collect(seat, action, ev):
                return ev
        elif isinstance(action, Invest):
            self._leave_phase(INVEST, seat, ev)
            self._do_invest(seat, ev)
        self._settle(seat, ev)
        return ev

    def _roll(self, seat: int, ev: list[Event]) -> None:
        r = self.rng.die(6)
        prev = self.rolls[-1] if self.rolls else 0
        ok = r >= prev if self.opts.tie_continues else r > prev
        if ok:
            self.rolls = (*self.rolls, r)
            ev.append(_ev("roll", seat, f"Seat {seat} rolls {r} (sum {sum(self.rolls)})", roll=r))
            return
        if self.opts.lower_roll == "keep_sum":
            ev.append(
                _ev("roll", seat, f"Seat {seat} rolls {r}: lower, the rolling ends", roll=r, lost=False)
            )
            self.ap = self.ap_earned = sum(self.rolls) + self.bank[seat]
            if self.bank[seat]:
                self.bank = _set(self.bank, seat, 0)
            self.phase = MOVE
            self._settle(seat, ev)
            return
        ev.append(
            _ev(
                "roll", seat, f"Seat {seat} rolls {r}, lower than {prev}: the turn is lost", roll=r, lost=True
            )
        )
        self.rolls = (*self.rolls, r)
        self.ap = 0
        self._end_turn(seat, ev, lost=True)

    def _leave_phase(self, new_phase: int, seat: int, ev: list[Event]) -> None:
        """Close the phases before ``new_phase``; Return (R27) when Collect is left."""
        if self.phase <= COLLECT < new_phase and self.up:
            self._return(seat, ev)
        if new_phase > self.phase:
            self.phase = new_phase

    def _return(self, seat: int, ev: list[Event]) -> None:
        squares = _bits(self.up)
        self.up = 0
        ev.append(
            _ev(
                "return",
                seat,
                "Return: " + ", ".join(SQ_ID[s] for s in squares) + " turned face down",
                squares=[SQ_ID[s] for s in squares],
            )
        )

    def _settle(self, seat: int, ev: list[Event]) -> None:
        """Skip phases with nothing to do; end the turn when none is left."""
        if self.to_act is None:
            return
        while self.phase <= INVEST and not self._has_phase_actions(self.phase):
            if self.phase == INVEST:
                self._end_turn(seat, ev)
                return
            self._leave_phase(self.phase + 1, seat, ev)
        self._legal = None

    def _do_move(self, seat: int, a: Move, ev: list[Event]) -> None:
        st = self.board[a.frm]
        c = st[-1]
        from_level = len(st)
        self.board[a.frm] = st[:-1]
        self.board[a.to] = (*self.board[a.to], c)
        self.ap -= COST_MOVE
        if not self.opts.memory_follows_moves:
            self.known[c] = 0
        ev.append(
            _ev(
                "move",
                seat,
                f"Seat {seat} moves the card on {SQ_ID[a.frm]} (level {from_level}) to {SQ_ID[a.to]}"
                f" (level {len(self.board[a.to])})",
                **{"from": SQ_ID[a.frm], "to": SQ_ID[a.to]},
            )
        )

    def _do_enter(self, seat: int, a: Enter, ev: list[Event]) -> None:
        self._leave_phase(ENTER, seat, ev)
        hand = list(self.hands[seat])
        hand.remove(a.card)
        self.hands[seat] = tuple(hand)
        self.board[a.to] = (*self.board[a.to], a.card)
        self.ap -= COST_ENTER
        extra: dict[str, Any] = {"square": SQ_ID[a.to]}
        text = f"Seat {seat} enters a card face down on {SQ_ID[a.to]}"
        if self.opts.enter_public:
            self.known[a.card] = self.all_seats
            extra["card"] = CARD_ID[a.card]
            text = f"Seat {seat} enters {CARD_FACE[a.card]} face down on {SQ_ID[a.to]}"
        ev.append(_ev("enter", seat, text, **extra))

    def _do_collect(self, seat: int, a: Collect, ev: list[Event]) -> bool:
        cards = [(s, self.board[s][-1]) for s in a.squares]
        pts = group_points(cards)
        for s, c in cards:
            self.board[s] = self.board[s][:-1]
            self.up &= ~(1 << s)
            self.known[c] = self.all_seats
        self.matched = (*self.matched, *(c for _, c in cards))
        self.scores = _set(self.scores, seat, self.scores[seat] + pts)
        self.groups_collected += 1
        ev.append(
            _ev(
                "collect",
                seat,
                f"Seat {seat} collects {' '.join(CARD_FACE[c] for _, c in cards)} for {pts} M-points"
                f" (total {self.scores[seat]})",
                squares=[SQ_ID[s] for s, _ in cards],
                cards=[CARD_ID[c] for _, c in cards],
                points=pts,
            )
        )
        if self.opts.win_check == "after_group" and self.scores[seat] >= self.target:
            self._finish((seat,), ev)
            return True
        return False

    def _do_invest(self, seat: int, ev: list[Event]) -> None:
        if not self.buy:
            pile = list(self.matched)
            self.rng.shuffle(pile)
            self.buy = tuple(pile)
            self.matched = ()
            self.reshuffled = True
            ev.append(
                _ev("reshuffle", seat, f"The matched pile ({len(pile)} cards) becomes the new buy pile")
            )
        c = self.buy[-1]
        self.buy = self.buy[:-1]
        if not self.buy:
            self.reshuffled = False
        self.hands[seat] = tuple(sorted((*self.hands[seat], c)))
        self.known[c] = 1 << seat
        self.ap -= COST_INVEST
        ev.append(_ev("invest", seat, f"Seat {seat} buys a card (2 AP)"))

    def _end_turn(self, seat: int, ev: list[Event], lost: bool = False) -> None:
        if self.up:
            self._return(seat, ev)
        if self.opts.carry_over_ap and not lost and self.phase != ROLL and self.ap > 0:
            self.bank = _set(self.bank, seat, self.bank[seat] + self.ap)
        if self.opts.win_check == "end_of_turn" and self.scores[seat] >= self.target:
            self._finish((seat,), ev)
            return
        self.phase = ROLL
        self.rolls = ()
        self.ap = self.ap_earned = 0
        self.turned = 0
        self.pending = -1
        self.groups_collected = 0
        nxt = (seat + 1) % self.seats
        if not lost:
            ev.append(_ev("end_turn", seat, f"Seat {seat} ends the turn"))
        if nxt == 0:
            self.round += 1
            mr = self.opts.max_rounds
            if mr is not None and self.round >= mr:
                best = max(self.scores)
                self._finish(tuple(i for i, p in enumerate(self.scores) if p == best), ev, safeguard=True)
                return
        self.to_act = nxt
        self._legal = None

    def _finish(self, winners: tuple[int, ...], ev: list[Event], safeguard: bool = False) -> None:
        self.winners = winners
        self.phase = OVER
        self.to_act = None
        self.up = 0 if safeguard else self.up
        self.pending = -1
        self._legal = None
        why = f"after {self.round} rounds (safeguard)" if safeguard else f"reaching {self.target} M-points"
        ev.append(
            _ev(
                "game_over",
                None,
                f"Game over {why}: " + ", ".join(f"seat {w}" for w in winners) + " wins",
                winners=list(winners),
            )
        )

    # ------------------------------------------------------------ view / result

    def result(self) -> tuple[float, ...] | None:
        if self.to_act is not None:
            return None
        return tuple(1.0 if i in self.winners else 0.0 for i in range(self.seats))

    def view(self, seat: int | None) -> dict[str, Any]:
        board: dict[str, Any] = {}
        for s in SQUARES:
            st = self.board[s]
            cards = []
            for lvl, c in enumerate(st):
                up = lvl == len(st) - 1 and bool((self.up >> s) & 1)
                if seat is None:
                    vis = up or (self.opts.memory_aid and self.known[c] == self.all_seats)
                else:
                    vis = up or self.sees(seat, s, lvl)
                cards.append({"card": CARD_ID[c] if vis else None, "up": up})
            board[SQ_ID[s]] = {"ring": RING[s], "height": len(st), "cards": cards}
        return {
            "to_act": self.to_act,
            "phase": PHASE_NAMES[self.phase],
            "seat": seat,
            "seats": self.seats,
            "scores": list(self.scores),
            "target": self.target,
            "round": self.round,
            "max_rounds": self.opts.max_rounds,
            "rolls": list(self.rolls),
            "ap": self.ap,
            "ap_earned": self.ap_earned,
            "bank": list(self.bank),
            "turned": self.turned,
            "next_turn_cost": self.turned,
            "spied": SQ_ID[self.pending] if self.pending >= 0 else None,
            "board": board,
            "hand": [CARD_ID[c] for c in self.hands[seat]] if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "buy_size": len(self.buy),
            "buy_cards": sorted(CARD_ID[c] for c in self.buy) if self.reshuffled else None,
            "matched": [CARD_ID[c] for c in self.matched],
            "winners": list(self.winners) if self.to_act is None else None,
        }

    # ------------------------------------------------------------ determinize

    def determinize(self, seat: int, rng: Rng) -> MetscriState:
        s = self.copy()
        s._legal = None
        s._legal_set = None
        s._gcache = None
        slots: list[tuple[str, int, int]] = []  # ("h", seat, index) / ("b", square, level) / ("p", index, 0)
        old: list[int] = []
        for i, h in enumerate(self.hands):
            if i != seat:
                for k, c in enumerate(h):
                    slots.append(("h", i, k))
                    old.append(c)
        for sq in SQUARES:
            st = self.board[sq]
            for lvl, c in enumerate(st):
                if not self.sees(seat, sq, lvl):
                    slots.append(("b", sq, lvl))
                    old.append(c)
        if self.reshuffled:
            pile = list(self.buy)
            rng.shuffle(pile)
            s.buy = tuple(pile)
        else:
            for k, c in enumerate(self.buy):
                slots.append(("p", k, 0))
                old.append(c)
        new = old.copy()
        rng.shuffle(new)
        hands = [list(h) for h in self.hands]
        board = {sq: list(self.board[sq]) for sq in SQUARES if self.board[sq]}
        buy = list(s.buy)
        known = self.known
        for (kind, a, b), o, n in zip(slots, old, new, strict=True):
            s.known[n] = known[o]
            if kind == "h":
                hands[a][b] = n
            elif kind == "b":
                board[a][b] = n
            else:
                buy[a] = n
        for i in range(self.seats):
            if i != seat:
                s.hands[i] = tuple(sorted(hands[i]))
        for sq, cards in board.items():
            s.board[sq] = tuple(cards)
        s.buy = tuple(buy)
        s.rng = rng.spawn()
        return s

    # ------------------------------------------------------------ invariants

    def check(self) -> None:
        cards: list[int] = [c for h in self.hands for c in h]
        for i in range(NCELLS):
            st = self.board[i]
            assert len(st) <= MAX_STACK, f"stack of {len(st)} on {SQ_ID[i]}"
            if i not in SQ_INDEX.values():
                assert not st, "a corner holds cards"
            cards.extend(st)
        cards.extend(self.buy)
        cards.extend(self.matched)
        assert len(cards) == NCARDS and set(cards) == set(range(NCARDS)), "cards not conserved"
        for s in _bits(self.up):
            assert self.board[s], "a face-up mark on an empty square"
        if self.phase in (ROLL, MOVE, ENTER):
            assert self.up == 0, "face-up cards before the Turn phase"
        assert self.ap >= 0, "negative AP"
        assert all(p >= 0 for p in self.scores)
        for c in self.matched:
            assert self.known[c] == self.all_seats, "matched pile card not public"
        for i, h in enumerate(self.hands):
            assert list(h) == sorted(h)
            for c in h:
                assert (self.known[c] >> i) & 1, "a hand card unknown to its holder"
        if self.to_act is None:
            assert self.winners, "game over without a winner"
        else:
            assert 0 <= self.to_act < self.seats


def _set(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _ev(kind: str, seat: int | None, text: str, **extra: Any) -> Event:
    e: Event = {"kind": kind, "seat": seat, "text": text}
    e.update(extra)
    return e


# ====================================================================== game


def _heuristic_agent(game: Game[Any]) -> Any:
    from .heuristics import HeuristicAgent

    return HeuristicAgent(game)


def _planner_agent(game: Game[Any]) -> Any:
    from .heuristics import PlannerAgent

    return PlannerAgent(game)


class MetscriGame(Game[MetscriOptions]):
    """Metscri (Ole Høyer Hansen, 2019): push-your-luck dice for action points, then move,
    enter, turn, spy and collect cards of the same symbol on a 7x7 board."""

    id: ClassVar[str] = "metscri"
    title: ClassVar[str] = TITLE
    seats: ClassVar[range] = range(2, 9)
    Options: ClassVar[type[Any]] = MetscriOptions
    summary: ClassVar[str] = (
        "Roll for action points, then move, enter, turn, spy and collect matching cards on a 7x7 board"
    )
    languages: ClassVar[tuple[str, ...]] = ("en", "da")
    best_bot: ClassVar[str] = "planner"
    quick_options: ClassVar[dict[str, Any]] = {"target": 10, "max_rounds": 4}
    max_decisions: ClassVar[int] = 20_000

    agents: ClassVar[dict[str, Any]] = {"heuristic": _heuristic_agent, "planner": _planner_agent}

    def new(self, seats: int, seed: int, options: MetscriOptions | None = None) -> MetscriState:
        self.check_seats(seats)
        o = options if options is not None else MetscriOptions()
        s = MetscriState.__new__(MetscriState)
        s.game = self
        s.opts = o
        s.seats = seats
        s.rng = Rng(seed)
        deck = list(range(NCARDS))
        s.rng.shuffle(deck)
        s.known = [0] * NCARDS
        s.hands = []
        for i in range(seats):
            h = deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]
            for c in h:
                s.known[c] = 1 << i
            s.hands.append(tuple(sorted(h)))
        s.buy = tuple(deck[seats * HAND_SIZE :])
        s.matched = ()
        s.reshuffled = False
        s.board = [()] * NCELLS
        s.up = 0
        s.scores = (0,) * seats
        s.bank = (0,) * seats
        s.phase = ROLL
        s.rolls = ()
        s.ap = s.ap_earned = 0
        s.turned = 0
        s.pending = -1
        s.groups_collected = 0
        s.round = 0
        s.target = o.target if o.target is not None else target_points(seats)
        s.winners = ()
        s.to_act = 0
        s._legal = None
        s._legal_set = None
        s._gcache = None
        return s

    def parse(self, state: State[Any], text: str) -> Action:
        text = text.strip()
        if state.to_act is None:
            raise GameOver(f"{TITLE}: the game is over")
        assert isinstance(state, MetscriState)
        a = state.legal_index().get(text)
        if a is not None:
            return a
        simple: dict[str, Action] = {
            "roll": ROLL_A,
            "stop": STOP_A,
            "invest": INVEST_A,
            "next": NEXT_A,
            "done": DONE_A,
        }
        if text in simple:
            return simple[text]
        m = _MOVE_RE.match(text)
        if m and m.group(1) in SQ_INDEX and m.group(2) in SQ_INDEX:
            return Move(SQ_INDEX[m.group(1)], SQ_INDEX[m.group(2)])
        m = _ENTER_RE.match(text)
        if m and m.group(1) in CARD_INDEX and m.group(2) in SQ_INDEX:
            return Enter(CARD_INDEX[m.group(1)], SQ_INDEX[m.group(2)])
        m = _ONE_RE.match(text)
        if m and m.group(2) in SQ_INDEX:
            sqi = SQ_INDEX[m.group(2)]
            return {"turn": Turn, "spy": Spy, "reveal": Reveal}[m.group(1)](sqi)
        m = _COLLECT_RE.match(text)
        if m:
            names = m.group(1).split()
            if all(n in SQ_INDEX for n in names) and len(set(names)) == len(names):
                return Collect(tuple(sorted(SQ_INDEX[n] for n in names)))
        raise ParseError(f"{TITLE}: {text!r} is not a Metscri action")

    def evaluate(self, state: State[Any], seat: int) -> float:
        from .heuristics import evaluate

        assert isinstance(state, MetscriState)
        return evaluate(state, seat)
