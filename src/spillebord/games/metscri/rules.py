"""Metscri: the rules engine (state machine). Rule ids (R1–R32), worked cases (T1–T13) and
decisions (A1–A24) refer to ``docs/rules/metscri.md``.

The state
---------
Every decision is one action of the seat ``to_act``; the state keeps the phase (``ROLL`` …
``INVEST``, R9) and the turn's bookkeeping (rolls, AP, cards turned, the square just spied).
In each spending phase the legal actions are that phase's own actions, ``next`` (offered while
a later phase has something to do) and ``done``. A phase in which nothing is possible is
skipped automatically (``_settle``), and when no phase is left the turn ends by itself;
Return (R27) is applied whenever the Collect phase is left.

Knowledge (A19): every card carries ``known`` (a bitmask of seats). A seat knows its hand, the
cards it entered or spied, and every card that was ever face up (turned, revealed, matched);
moves keep knowledge (they are public and a card can be followed; option
``memory_follows_moves=False`` forgets a card when it moves). With ``memory_aid`` (default)
``view(seat)`` shows the identities of the face-down cards the seat knows; a spectator sees
those known to everybody. Right after a Spy the spier always sees the card (pending Reveal).
``determinize(seat)`` re-deals exactly the cards the view hides (other hands, the buy pile,
unseen board cards; a reshuffled buy pile, whose composition is public, is only reordered);
knowledge stays with the slot, so other seats keep "knowing" whatever lies where they looked.

Scores and the end: ``scores()`` are the M-points. The first seat to reach the target wins
(R31; checked after each group, or at the end of the turn with ``win_check``); when the
optional ``max_rounds`` safeguard ends the game, the seats with the highest score share the
win (R32). Under the default options the rules guarantee no end (A20): the decision bound
``MetscriGame.kind.max_decisions`` stops such a game, ranked by M-points.

Fixed readings (no option: no sensible alternative, or not worth one): A2 (the top card of any
non-empty square is free-lying, a lone card included), A14 (Return is mandatory and automatic),
A15 (pile corners are cosmetic), A16 (the lazy reshuffle at the moment of purchase), A17 (the
game master plays and is the last seat; seat 0 starts), A21 (only face-down free-lying cards
may be turned or spied; Spy never raises the Turn escalation), A22 (OCR), A24 (any seat may
move, turn or spy any free-lying card).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain as _chain
from typing import Any, ClassVar

from spillebord.core import (
    JSON,
    Event,
    Game,
    GameKind,
    IllegalAction,
    Rng,
    State,
    draw_at,
    state,
    win_outcome,
)
from spillebord.core.errors import GameOver

from . import view as _view
from .actions import (
    DONE_A,
    ENTER_OBJ,
    INVEST_A,
    MOVE_OBJ,
    NEXT_A,
    PHASE_OF,
    REVEAL_OBJ,
    ROLL_A,
    SPY_OBJ,
    STOP_A,
    TURN_OBJ,
    Collect,
    EndPhase,
    EndTurn,
    Enter,
    Invest,
    MetscriAction,
    Move,
    Reveal,
    Roll,
    Spy,
    Stop,
    Turn,
)
from .data import (
    CARD_FACE,
    CARD_ID,
    COLLECT,
    COST_ENTER,
    COST_INVEST,
    COST_MOVE,
    DIAG,
    ENTER,
    HAND_SIZE,
    INVEST,
    KIND,
    KING_MASK,
    MAX_STACK,
    MOVE,
    NCARDS,
    NCELLS,
    ORTHO,
    OVER,
    PHASE_NAMES,
    RANK,
    RAYS,
    RIM,
    RIM_SET,
    RING,
    ROLL,
    SIZE,
    SLIDE_PATH,
    SMALL_JOKER,
    SPY,
    SPY_COST,
    SPY_COST_MAX,
    SPY_MASK,
    SQ_ID,
    SQUARES,
    STEP_OK,
    SYMBOL,
    TURN,
    target_points,
)
from .groups import bits, enumerate_groups, group_points, reach, valid_group
from .notation import TITLE, parse_action
from .options import MetscriOptions

_Unseen = tuple[
    int, tuple[int, ...], int, tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]
]
"""(seat, hand slots, cards in hands, board slots, the slots' cards, their knowledge, every unseen
card sorted): what :meth:`MetscriState.determinize` deals, kept per position."""


@state(copy={"board": list.copy, "hands": list.copy, "known": list.copy})
class MetscriState(State[MetscriAction]):
    """A Metscri position. Board cards are face down unless their square is in ``up``."""

    opts: MetscriOptions
    board: list[tuple[int, ...]]
    """Per cell (49, corners always empty): the stack bottom to top."""
    up: int
    """Bitmask of squares whose top card lies face up."""
    hands: list[tuple[int, ...]]
    """Per seat, sorted."""
    buy: tuple[int, ...]
    """The buy pile (købekort-bunken), face down; the top is the last element."""
    matched: tuple[int, ...]
    """The matched pile (parringkort-bunken), face up; the top is the last element."""
    reshuffled: bool
    """True while the buy pile is a reshuffled matched pile (its composition is public)."""
    buy_unordered: bool
    """Only in a determinized state: the buy pile's order was not dealt; a buy takes a card
    at random from it (the same law as a shuffled pile, without shuffling cards never bought)."""
    known: list[int]
    """Per card: bitmask of the seats that know its identity (known_to, A19)."""
    points: tuple[int, ...]
    """M-points per seat."""
    bank: tuple[int, ...]
    """AP carried over to each seat's next turn (option ``carry_over_ap``)."""
    phase: int
    dice: int
    """The key of the dice (R6): roll ``j`` of seat ``s``'s turn in round ``r`` is draw
    :func:`_die_index` of this key's stream, not the next draw of the table's one stream, so a
    seat's dice do not depend on how often the others rolled: the two games of a duplicate
    deal keep the same dice after their players first differ. Hidden: :meth:`determinize`
    draws a new key, so no bot can know a roll before it is made."""
    rolls: tuple[int, ...]
    ap: int
    ap_earned: int
    turned: int
    """Cards turned this turn (the next Turn costs this many AP)."""
    pending: int
    """The square just spied (Reveal possible), else -1."""
    groups_collected: int
    round: int
    """Completed rounds (the game master, the last seat, closes each)."""
    target: int
    winners: tuple[int, ...]
    _legal: list[MetscriAction] | None
    _legal_set: dict[str, MetscriAction] | None
    _gcache: tuple[int, list[Collect]] | None
    _mv: tuple[tuple[Move, ...], ...] | None
    _det: _Unseen | None
    """What :meth:`determinize` deals for a seat (see :meth:`_unseen`); None: not built yet."""
    _occ: int | None
    """The occupied squares as a bitmask (see :meth:`_occupied`); None: not built yet."""
    """Per cell, the moves of its free-lying card (see :meth:`_moves`); None: not built yet.
    Code that changes ``board`` other than by playing sets it to None."""

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
        return {s: self.board[s][-1] for s in bits(self.up)}

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

    def can_move(self, frm: int, to: int) -> bool:
        """Is ``to`` one of :meth:`destinations` of ``frm`` (without listing them)?"""
        board = self.board
        h = len(board[frm])
        if not h:
            return False
        k = len(board[to])
        opts = self.opts
        if to in ORTHO[frm]:
            return k == 0 or (k < MAX_STACK and (k + 1 != h or opts.allow_same_level_step))
        if opts.diagonal_steps and to in DIAG[frm]:
            return k < MAX_STACK and (k + 1 != h or opts.allow_same_level_step)
        if k or not opts.slide_any_length:
            return False
        path = SLIDE_MASK[frm].get(to)
        return path is not None and not (self._occupied() & path)

    def _moves(self) -> list[MetscriAction]:
        """Every move, square by square (each square's slides ray by ray, then its steps).

        The moves of each square are kept in ``_mv`` (one tuple per cell) and brought up to
        date by :meth:`_board_changed` after every change of the board: a move touches a few
        squares, so the list is joined from the kept tuples instead of walking the board."""
        mv = self._mv
        if mv is None:
            mv = self._build_moves()
        return list(_chain(*filter(None, mv)))

    def _build_moves(self) -> tuple[tuple[Move, ...], ...]:
        board = self.board
        occ = self._occupied()
        seg = self._segment
        mv = self._mv = tuple([seg(board, occ, s) if board[s] else () for s in range(NCELLS)])
        return mv

    def _segment(self, board: list[tuple[int, ...]], occ: int, s: int) -> tuple[Move, ...]:
        """The moves of the free-lying card on ``s`` (a non-empty square), in legal() order;
        ``occ``: the occupied squares (:meth:`_occupied`)."""
        opts = self.opts
        if opts.slide_any_length and not opts.diagonal_steps:
            # The hot path (the default rules): the slides, ray by ray, looked up by the
            # occupied squares of the cell's row and column, then the steps onto the occupied
            # orthogonal neighbours.
            vm, vt, hm, ht = LINES[s]
            up_down, vadj, _ = vt[occ & vm]
            left_right, hadj, _ = ht[occ & hm]
            slides = up_down + left_right
            if vadj or hadj:
                ok = (STEP_SAME if opts.allow_same_level_step else STEP_OK)[len(board[s])]
                for t, m in vadj + hadj:
                    if ok[len(board[t])]:
                        slides += (m,)
            return slides
        row = MOVE_OBJ[s]
        return tuple([row[t] for t in self.destinations(s)])

    def _board_changed(self, cells: Iterable[int]) -> None:
        """Bring the kept moves (``_mv``) up to date after the stacks on ``cells`` changed
        height: the moves of a square depend on its own height and, along each ray, on the
        squares up to the first occupied one (and, with diagonal steps, on its diagonal
        neighbours), so a change on ``z`` touches ``z``, the first occupied square along
        each ray from ``z`` and ``z``'s diagonal neighbours."""
        board = self.board
        occ = self._occ
        if occ is not None:
            for z in cells:
                if board[z]:
                    occ |= 1 << z
                else:
                    occ &= ~(1 << z)
            self._occ = occ
        old = self._mv
        if old is None:
            return
        if occ is None:
            occ = self._occupied()
        todo = {*cells}
        for z in cells:
            vm, vt, hm, ht = LINES[z]
            todo.update(vt[occ & vm][2], ht[occ & hm][2])
        mv = [*old]
        opts = self.opts
        if opts.slide_any_length and not opts.diagonal_steps:
            # :meth:`_segment`'s hot path, inlined
            step_ok = STEP_SAME if opts.allow_same_level_step else STEP_OK
            for y in todo:
                st = board[y]
                if st:
                    vm, vt, hm, ht = LINES[y]
                    v = vt[occ & vm]
                    h = ht[occ & hm]
                    if v[1] or h[1]:
                        ok = step_ok[len(st)]
                        slides = v[0] + h[0]
                        for t, m in v[1] + h[1]:
                            if ok[len(board[t])]:
                                slides += (m,)
                        mv[y] = slides
                    else:
                        mv[y] = v[0] + h[0]
                else:
                    mv[y] = ()
        else:
            if opts.diagonal_steps:
                for z in cells:
                    todo.update(DIAG[z])
            seg = self._segment
            for y in todo:
                mv[y] = seg(board, occ, y) if board[y] else ()
        self._mv = tuple(mv)

    def _any_move(self) -> bool:
        """Whether :meth:`_moves` would list any move (from the kept moves)."""
        mv = self._mv
        if mv is None:
            mv = self._build_moves()
        return any(mv)

    def _enters(self) -> list[MetscriAction]:
        if self.to_act is None:
            return []
        hand = self.hands[self.to_act]
        board = self.board
        rims = [s for s in RIM if len(board[s]) < MAX_STACK]
        out: list[MetscriAction] = []
        if len(rims) == len(RIM):  # the usual case: every rim square has room
            for c in hand:
                out += ENTER_ROWS[c]
            return out
        for c in hand:
            row = ENTER_OBJ[c]
            out.extend([row[s] for s in rims])
        return out

    def _face_down_tops(self) -> list[int]:
        return bits(self._occupied() & ~self.up)

    def _occupied(self) -> int:
        """The squares holding cards, as a bitmask (kept up to date with ``_mv``)."""
        occ = self._occ
        if occ is None:
            board = self.board
            occ = self._occ = sum([1 << s for s in SQUARES if board[s]])
        return occ

    def _any_group(self) -> bool:
        """Whether :meth:`_groups` would list any group, without listing them: under the default
        reading of A9–A11 a group exists exactly when some king-connected cluster of
        same-rank symbol cards, with every joker touching it, weighs at least 3."""
        o = self.opts
        if (
            o.collect_adjacency != "symbols_connected"
            or o.joker_rule != "weighted"
            or o.jokers_only_groups
            or self._gcache is not None
        ):
            return bool(self._groups())
        up = self.up
        if not up:
            return False
        mg = o.max_groups_per_turn
        if mg is not None and self.groups_collected >= mg:
            return False
        board = self.board
        by_rank: dict[int, int] = {}
        small = big = 0
        m = up
        while m:
            low = m & -m
            m ^= low
            c = board[low.bit_length() - 1][-1]
            k = KIND[c]
            if k == SYMBOL:
                by_rank[RANK[c]] = by_rank.get(RANK[c], 0) | low
            elif k == SMALL_JOKER:
                small |= low
            else:
                big |= low
        jokers = small | big
        for rm in by_rank.values():
            while rm:
                comp = reach(rm & -rm, rm)
                rm &= ~comp
                near = 0
                x = comp
                while x:
                    low = x & -x
                    x ^= low
                    near |= KING_MASK[low.bit_length() - 1]
                near &= jokers
                if comp.bit_count() + (near & small).bit_count() + 2 * (near & big).bit_count() >= 3:
                    return True
        return False

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

    def _can_invest(self) -> bool:
        if self.ap < COST_INVEST or not (self.buy or self.matched):
            return False
        lim = self.opts.hand_limit
        return lim is None or self.to_act is None or len(self.hands[self.to_act]) < lim

    def _phase_actions(self, p: int) -> list[MetscriAction]:
        ap = self.ap
        if p == MOVE:
            return self._moves() if ap >= COST_MOVE else []
        if p == ENTER:
            return self._enters() if ap >= COST_ENTER else []
        if p == TURN:
            if ap < self.turned:
                return []
            m = self._occupied() & ~self.up
            turns: list[MetscriAction] = []
            for i in _BYTES:
                turns += TURN_BYTES[i][(m >> (i << 3)) & 255]
            return turns
        if p == SPY:
            acts: list[MetscriAction] = []
            if self.pending >= 0 and self.opts.reveal_after_spy:
                acts.append(REVEAL_OBJ[self.pending])
            m = self._occupied() & ~self.up & SPY_MASK[min(ap, SPY_COST_MAX)]
            for i in _BYTES:
                acts += SPY_BYTES[i][(m >> (i << 3)) & 255]
            return acts
        if p == COLLECT:
            return list(self._groups())
        if p == INVEST:
            return [INVEST_A] if self._can_invest() else []
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
            if ap < self.turned:
                return False
            up = self.up
            if not up:  # every card lies face down: any card will do
                return any(self.board)
            return bool(self._occupied() & ~up)
        if p == SPY:
            if self.pending >= 0 and self.opts.reveal_after_spy:
                return True
            up = self.up
            if not up and ap >= SPY_COST_MAX:
                return any(self.board)
            return bool(self._occupied() & ~up & SPY_MASK[min(ap, SPY_COST_MAX)]) if ap > 0 else False
        if p == COLLECT:
            return self._any_group()
        if p == INVEST:
            return self._can_invest()
        return False

    def legal(self) -> list[MetscriAction]:
        if self.to_act is None:
            return []
        if self._legal is not None:
            return self._legal
        p = self.phase
        acts: list[MetscriAction]
        if p == OVER:
            acts = []
        elif p == ROLL:
            acts = [ROLL_A, STOP_A] if self.rolls else [ROLL_A]
        elif p == MOVE and self.ap >= COST_ENTER and self.to_act is not None and self.hands[self.to_act]:
            # the usual move list (inlined): the moves, then next if Enter has room on the rim
            mv = self._mv
            if mv is None:
                mv = self._build_moves()
            acts = list(_chain(*filter(None, mv)))
            board = self.board
            for s in RIM:
                if len(board[s]) < MAX_STACK:
                    acts.append(NEXT_A)
                    break
            else:
                for q in range(TURN, INVEST + 1):
                    if self._has_phase_actions(q):
                        acts.append(NEXT_A)
                        break
            acts.append(DONE_A)
        else:
            acts = self._phase_actions(p)
            for q in range(p + 1, INVEST + 1):
                if self._has_phase_actions(q):
                    acts.append(NEXT_A)
                    break
            acts.append(DONE_A)
        self._legal = acts
        self._legal_set = None
        return acts

    def legal_index(self) -> dict[str, MetscriAction]:
        """Text -> action over :meth:`legal` (cached with it)."""
        if self._legal_set is None or self._legal is None or self.to_act is None:
            self._legal_set = {str(a): a for a in self.legal()}
        return self._legal_set

    def _is_legal(self, a: MetscriAction) -> bool:
        """Is ``a`` in ``legal()``? Fast paths for the common kinds, the legal list otherwise."""
        p = self.phase
        if isinstance(a, Move):
            return (
                p == MOVE
                and self.ap >= COST_MOVE
                and 0 <= a.frm < NCELLS
                and 0 <= a.to < NCELLS
                and self.can_move(a.frm, a.to)
            )
        # the one-word actions, as legal() lists them: roll (and stop after a roll) in the
        # roll phase, done in every spending phase
        if isinstance(a, Roll):
            return p == ROLL
        if isinstance(a, Stop):
            return p == ROLL and bool(self.rolls)
        if isinstance(a, EndTurn):
            return ROLL < p < OVER
        if isinstance(a, Enter):
            return (
                p == ENTER
                and self.ap >= COST_ENTER
                and self.to_act is not None
                and a.card in self.hands[self.to_act]
                and a.to in RIM_SET
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

    def why_illegal(self, a: MetscriAction) -> str:
        """A readable reason why ``a`` is not legal now (used for IllegalAction messages)."""
        p = self.phase
        if p == ROLL:
            if isinstance(a, Stop) and not self.rolls:
                return "you must roll at least once before stopping"
            return f"first earn action points: roll or stop, not {a}"
        if isinstance(a, (Roll, Stop)):
            return "the rolling is over for this turn"
        ap_phase = PHASE_OF.get(type(a))
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

    # ------------------------------------------------------------ apply

    def apply(self, action: MetscriAction) -> list[Event]:
        seat = self.to_act
        if seat is None:
            raise GameOver(f"{TITLE}: the game is over")
        if type(action) is Roll and self.phase == ROLL:  # the hot kinds, checked inline (_is_legal)
            legal = True
        elif type(action) is Move:
            legal = (
                self.phase == MOVE
                and self.ap >= COST_MOVE
                and 0 <= action.frm < NCELLS
                and 0 <= action.to < NCELLS
                and self.can_move(action.frm, action.to)
            )
        else:
            legal = self._is_legal(action)
        if not legal:
            raise IllegalAction(f"{TITLE}: {self.why_illegal(action)}")
        ev: list[Event] = []
        self._legal = None
        self._legal_set = None
        self._gcache = None
        self._det = None
        pending, self.pending = self.pending, -1
        if isinstance(action, Move):
            self._do_move(seat, action, ev)
            mv = self._mv
            if self.ap >= COST_MOVE and mv is not None and any(mv):
                return ev  # more moves: the phase goes on (_settle's usual case, inlined)
            self._settle(seat, ev)
            return ev
        if isinstance(action, Roll):
            self._roll(seat, ev)
            return ev
        if isinstance(action, Stop):
            self._start_spending(seat)
            ap = self.ap
            ev.append(
                {"kind": "stop", "seat": seat, "text": f"Seat {seat} stops with {ap} action points", "ap": ap}
            )
            self._settle(seat, ev)
            return ev
        if isinstance(action, EndTurn):
            self._end_turn(seat, ev)
            return ev
        if isinstance(action, EndPhase):
            self._leave_phase(self.phase + 1, seat, ev)
            self._settle(seat, ev)
            return ev
        if isinstance(action, Enter):
            self._do_enter(seat, action, ev)
        elif isinstance(action, Turn):
            self._do_turn(seat, action.square, ev)
        elif isinstance(action, Spy):
            self._do_spy(seat, action.square, ev)
        elif isinstance(action, Reveal):
            assert pending == action.square
            self._do_reveal(seat, action.square, ev)
        elif isinstance(action, Collect):
            self._leave_phase(COLLECT, seat, ev)
            if self._do_collect(seat, action, ev):
                return ev
        elif isinstance(action, Invest):
            self._leave_phase(INVEST, seat, ev)
            self._do_invest(seat, ev)
        self._settle(seat, ev)
        return ev

    def _start_spending(self, seat: int) -> None:
        """R8: the counting rolls (and any banked AP, A8) become the turn's action points."""
        self.ap = self.ap_earned = sum(self.rolls) + self.bank[seat]
        if self.bank[seat]:
            self.bank = _set(self.bank, seat, 0)
        self.phase = MOVE

    def _roll(self, seat: int, ev: list[Event]) -> None:
        r = self.rng.die_at(self.dice, _die_index(self.round, seat, len(self.rolls)))
        prev = self.rolls[-1] if self.rolls else 0
        ok = r >= prev if self.opts.tie_continues else r > prev
        if ok:
            rolls = self.rolls = (*self.rolls, r)
            ev.append(
                {"kind": "roll", "seat": seat, "text": f"Seat {seat} rolls {r} (sum {sum(rolls)})", "roll": r}
            )
            return
        if self.opts.lower_roll == "keep_sum":
            ev.append(
                _ev("roll", seat, f"Seat {seat} rolls {r}: lower, the rolling ends", roll=r, lost=False)
            )
            self._start_spending(seat)
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
        squares = bits(self.up)
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
        if self.phase == MOVE and self.ap >= COST_MOVE and self._mv is not None and any(self._mv):
            self._legal = None  # the usual case after a move: more moves (_any_move, inlined)
            return
        while self.phase <= INVEST and not self._has_phase_actions(self.phase):
            if self.phase == INVEST:
                self._end_turn(seat, ev)
                return
            self._leave_phase(self.phase + 1, seat, ev)
        self._legal = None

    def _do_move(self, seat: int, a: Move, ev: list[Event]) -> None:
        board = self.board
        frm, to = a.frm, a.to
        st = board[frm]
        c = st[-1]
        board[frm] = st[:-1]
        dst = board[to] = (*board[to], c)
        self._board_changed((frm, to))
        self.ap -= COST_MOVE
        if not self.opts.memory_follows_moves:
            self.known[c] = 0
        f, t = SQ_ID[frm], SQ_ID[to]
        ev.append(
            {
                "kind": "move",
                "seat": seat,
                "text": f"Seat {seat} moves the card on {f} (level {len(st)}) to {t} (level {len(dst)})",
                "from": f,
                "to": t,
            }
        )

    def _do_enter(self, seat: int, a: Enter, ev: list[Event]) -> None:
        self._leave_phase(ENTER, seat, ev)
        hand = list(self.hands[seat])
        hand.remove(a.card)
        self.hands[seat] = tuple(hand)
        self.board[a.to] = (*self.board[a.to], a.card)
        self._board_changed((a.to,))
        self.ap -= COST_ENTER
        extra: dict[str, Any] = {"square": SQ_ID[a.to]}
        text = f"Seat {seat} enters a card face down on {SQ_ID[a.to]}"
        if self.opts.enter_public:
            self.known[a.card] = self.all_seats
            extra["card"] = CARD_ID[a.card]
            text = f"Seat {seat} enters {CARD_FACE[a.card]} face down on {SQ_ID[a.to]}"
        ev.append(_ev("enter", seat, text, **extra))

    def _do_turn(self, seat: int, square: int, ev: list[Event]) -> None:
        self._leave_phase(TURN, seat, ev)
        cost = self.turned
        self.ap -= cost
        self.turned += 1
        c = self.board[square][-1]
        self.up |= 1 << square
        self.known[c] = self.all_seats
        ev.append(
            _ev(
                "turn",
                seat,
                f"Seat {seat} turns {CARD_FACE[c]} on {SQ_ID[square]} ({cost} AP)",
                square=SQ_ID[square],
                card=CARD_ID[c],
                cost=cost,
            )
        )

    def _do_spy(self, seat: int, square: int, ev: list[Event]) -> None:
        self._leave_phase(SPY, seat, ev)
        cost = SPY_COST[square]
        self.ap -= cost
        c = self.board[square][-1]
        self.known[c] |= 1 << seat
        self.pending = square
        ev.append(
            _ev(
                "spy",
                seat,
                f"Seat {seat} spies on the card on {SQ_ID[square]} ({cost} AP)",
                square=SQ_ID[square],
                cost=cost,
            )
        )

    def _do_reveal(self, seat: int, square: int, ev: list[Event]) -> None:
        c = self.board[square][-1]
        self.up |= 1 << square
        self.known[c] = self.all_seats
        ev.append(
            _ev(
                "reveal",
                seat,
                f"Seat {seat} reveals {CARD_FACE[c]} on {SQ_ID[square]}",
                square=SQ_ID[square],
                card=CARD_ID[c],
            )
        )

    def _do_collect(self, seat: int, a: Collect, ev: list[Event]) -> bool:
        cards = [(s, self.board[s][-1]) for s in a.squares]
        pts = group_points(cards)
        for s, c in cards:
            self.board[s] = self.board[s][:-1]
            self.up &= ~(1 << s)
            self.known[c] = self.all_seats
        self._board_changed(a.squares)
        self.matched = (*self.matched, *(c for _, c in cards))
        self.points = _set(self.points, seat, self.points[seat] + pts)
        self.groups_collected += 1
        ev.append(
            _ev(
                "collect",
                seat,
                f"Seat {seat} collects {' '.join(CARD_FACE[c] for _, c in cards)} for {pts} M-points"
                f" (total {self.points[seat]})",
                squares=[SQ_ID[s] for s, _ in cards],
                cards=[CARD_ID[c] for _, c in cards],
                points=pts,
            )
        )
        if self.opts.win_check == "after_group" and self.points[seat] >= self.target:
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
        if self.buy_unordered:
            buy = self.buy
            i = self.rng.randrange(len(buy))
            c = buy[i]
            self.buy = buy[:i] + buy[i + 1 :]
        else:
            c = self.buy[-1]
            self.buy = self.buy[:-1]
        if not self.buy:
            self.buy_unordered = False
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
        if self.opts.win_check == "end_of_turn" and self.points[seat] >= self.target:
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
                best = max(self.points)
                self._finish(tuple(i for i, p in enumerate(self.points) if p == best), ev, safeguard=True)
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

    # ------------------------------------------------------------ outcome, view

    def scores(self) -> tuple[float, ...]:
        """The M-points (Metscri-point) of each seat: the points of the groups it collected (R24)."""
        return tuple(float(p) for p in self.points)

    def final_outcome(self) -> tuple[float, ...]:
        """The seat that reached the target wins (R31); after the ``max_rounds`` safeguard the
        seats with the highest score share the win (R32)."""
        return win_outcome(self.winners, self.teams(), self.seats)

    def leaders(self) -> tuple[int, ...]:
        """The winners of an ended game; of a truncated one, the seats ranked first (most M-points)."""
        if self.truncated:
            best = max(self.points)
            return tuple(i for i, p in enumerate(self.points) if p == best)
        return self.winners

    def view(self, seat: int | None) -> JSON:
        return _view.view(self, seat)

    # ------------------------------------------------------------ determinize

    def _unseen(self, seat: int) -> _Unseen:
        """The cards ``seat`` cannot see, and their slots: other hands (seat by seat), board
        cards (square by square, bottom to top), then the buy pile (unless reshuffled: then
        its composition is public). Kept until the position changes: a search determinizes
        its root many times."""
        cached = self._det
        if cached is not None and cached[0] == seat:
            return cached
        old: list[int] = []
        hand_slots: list[int] = []
        for i, h in enumerate(self.hands):
            if i != seat and h:
                hand_slots.append(i)
                old.extend(h)
        n_hands = len(old)
        board = self.board
        known = self.known
        up = self.up
        memory = self.opts.memory_aid
        bit = 1 << seat
        spied = self.pending if self.to_act == seat else -1
        board_slots: list[tuple[int, int]] = []
        for sq in SQUARES:
            st = board[sq]
            if not st:
                continue
            top = len(st) - 1
            for lvl, c in enumerate(st):
                if lvl == top and (sq == spied or (up >> sq) & 1):
                    continue
                if memory and known[c] & bit:
                    continue
                board_slots.append((sq, lvl))
                old.append(c)
        slot_cards = tuple(old)
        if not self.reshuffled:
            old.extend(self.buy)
        # A canonical (sorted) order: the sample must not depend on where the unseen cards
        # really are (with a fixed seed it would be a function of the hidden order).
        old.sort()
        out = (seat, tuple(hand_slots), n_hands, tuple(board_slots), slot_cards,
               tuple(known[c] for c in slot_cards), tuple(old))  # fmt: skip
        self._det = out
        return out

    def determinize(self, seat: int, rng: Rng) -> MetscriState:
        s = self.copy()
        s._legal = None
        s._legal_set = None
        s._gcache = None
        s._det = None
        # The slots of hands and board get a uniform random choice of the unseen cards (a
        # partial Fisher-Yates over the first slots, from their canonical order); the rest is
        # the buy pile, left unordered: a buy draws from it at random (``buy_unordered``).
        _, hand_slots, n_hands, board_slots, slot_cards, slot_known, pool = self._unseen(seat)
        board = self.board
        new = list(pool)
        n = len(new)
        n_board = len(slot_cards)
        randrange = rng.randrange
        for i in range(n_board):
            j = i + randrange(n - i)
            if j != i:
                new[i], new[j] = new[j], new[i]
        # Knowledge stays with the slot: the hand and board slots get their old cards'
        # knowledge; the buy pile's cards are known to nobody (``check``), so a hand or board
        # card dealt into it forgets what was known of it.
        s_known = s.known
        for c in slot_cards:
            s_known[c] = 0
        for i in range(n_board):
            s_known[new[i]] = slot_known[i]
        k = 0
        for i in hand_slots:
            m = len(self.hands[i])
            s.hands[i] = tuple(sorted(new[k : k + m]))
            k += m
        stacks: dict[int, list[int]] = {}
        for (sq, lvl), c in zip(board_slots, new[n_hands:n_board], strict=True):
            stack = stacks.get(sq)
            if stack is None:
                stack = stacks[sq] = list(board[sq])
            stack[lvl] = c
        for sq, stack in stacks.items():
            s.board[sq] = tuple(stack)
        if not self.reshuffled:
            s.buy = tuple(new[n_board:])
        s.buy_unordered = bool(s.buy)
        s.rng = rng.spawn()
        s.dice = rng.next64()
        return s

    # ------------------------------------------------------------ invariants

    def check(self) -> None:
        cards: list[int] = [c for h in self.hands for c in h]
        squares = set(SQUARES)
        for i in range(NCELLS):
            st = self.board[i]
            assert len(st) <= MAX_STACK, f"stack of {len(st)} on {SQ_ID[i]}"
            if i not in squares:
                assert not st, "a corner holds cards"
            cards.extend(st)
        cards.extend(self.buy)
        cards.extend(self.matched)
        assert len(cards) == NCARDS and set(cards) == set(range(NCARDS)), "cards not conserved"
        for s in bits(self.up):
            assert self.board[s], "a face-up mark on an empty square"
        if self.phase in (ROLL, MOVE, ENTER):
            assert self.up == 0, "face-up cards before the Turn phase"
        assert self.ap >= 0, "negative AP"
        assert all(p >= 0 for p in self.points)
        for c in self.matched:
            assert self.known[c] == self.all_seats, "matched pile card not public"
        if not self.reshuffled:  # determinize relies on it
            assert not any(self.known[c] for c in self.buy), "a buy pile card known to someone"
        for i, h in enumerate(self.hands):
            assert list(h) == sorted(h)
            for c in h:
                assert (self.known[c] >> i) & 1, "a hand card unknown to its holder"
        if self.to_act is None:
            assert self.winners or self.truncated, "game over without a winner"
        else:
            assert 0 <= self.to_act < self.seats
        assert self.decisions <= self.game.kind.max_decisions


ENTER_ROWS: tuple[tuple[Enter, ...], ...] = tuple(tuple(row[s] for s in RIM) for row in ENTER_OBJ)
"""Per card, its Enter actions onto every rim square, in rim order."""

_LineEntry = tuple[tuple[Move, ...], tuple[tuple[int, Move], ...], tuple[int, ...]]


def _line_entry(s: int, vertical: bool, occ: int) -> _LineEntry:
    """For the card on ``s``, with the squares of its column (``vertical``) or row occupied as
    the mask ``occ`` says: its slides along the line, ray by ray (in the order of ``RAYS``:
    up, down, left, right), its occupied orthogonal neighbours on the line with the moves
    there, and the first occupied square along each ray."""
    slides: list[Move] = []
    adj: list[tuple[int, Move]] = []
    first: list[int] = []
    row = MOVE_OBJ[s]
    for ray in RAYS[s]:
        if (ray[0] % SIZE == s % SIZE) != vertical:
            continue
        for i, t in enumerate(ray):
            if (occ >> t) & 1:
                first.append(t)
                if i == 0:
                    adj.append((t, row[t]))
                break
            slides.append(row[t])
    return (tuple(slides), tuple(adj), tuple(first))


class _LineTable(dict[int, _LineEntry]):
    """One cell's :func:`_line_entry` per occupancy of its column or row (the board's mask of
    occupied squares ANDed with the line's), made when first asked: at most 64 per line."""

    __slots__ = ("s", "vertical")

    def __init__(self, s: int, vertical: bool) -> None:
        super().__init__()
        self.s = s
        self.vertical = vertical

    def __missing__(self, occ: int) -> _LineEntry:
        e = self[occ] = _line_entry(self.s, self.vertical, occ)
        return e


def _line_mask(s: int, vertical: bool) -> int:
    """The other squares of the column (``vertical``) or the row of ``s``."""
    return sum(1 << t for ray in RAYS[s] if (ray[0] % SIZE == s % SIZE) == vertical for t in ray)


LINES: tuple[tuple[int, _LineTable, int, _LineTable], ...] = tuple(
    (_line_mask(s, True), _LineTable(s, True), _line_mask(s, False), _LineTable(s, False))
    for s in range(NCELLS)
)
"""Per cell: the mask of its column and the column's table, the mask of its row and the row's
(see :func:`_line_entry`); a table is looked up by the occupied squares ANDed with its mask."""

_BYTES = range((NCELLS + 7) // 8)


def _by_bytes(objs: tuple[Any, ...]) -> tuple[tuple[tuple[Any, ...], ...], ...]:
    """``table[i][x]``: the objects of the squares ``8 * i + b`` for the bits ``b`` of the byte
    ``x``, so that a mask of squares gives its objects in square order a byte at a time."""
    squares = [[8 * i + b for b in range(8) if 8 * i + b < NCELLS] for i in _BYTES]
    return tuple(tuple(tuple(objs[s] for s in q if (x >> (s & 7)) & 1) for x in range(256)) for q in squares)


TURN_BYTES: tuple[tuple[tuple[Turn, ...], ...], ...] = _by_bytes(TURN_OBJ)
SPY_BYTES: tuple[tuple[tuple[Spy, ...], ...], ...] = _by_bytes(SPY_OBJ)

SLIDE_MASK: tuple[dict[int, int], ...] = tuple(
    {to: sum(1 << t for t in path) for to, path in SLIDE_PATH[s].items()} for s in range(NCELLS)
)
"""``SLIDE_PATH`` as bitmasks: per square, destination -> the squares a slide there passes over."""

STEP_SAME: tuple[tuple[bool, ...], ...] = tuple(
    tuple(0 < k < MAX_STACK for k in range(MAX_STACK + 1)) for _ in range(MAX_STACK + 1)
)
"""``STEP_OK`` with same-level steps allowed (option ``allow_same_level_step``, A3)."""


def _set(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _ev(kind: str, seat: int | None, text: str, **extra: Any) -> Event:
    e: Event = {"kind": kind, "seat": seat, "text": text}
    e.update(extra)
    return e


_DICE_KEY_AT = 1 << 62
"""Where in the seed's stream the dice key is drawn: far beyond any draw the table's own
stream makes (the deal, a reshuffle, a buy from an unordered pile), so the two never meet and
a seed deals the cards engine version 1 dealt."""


def _die_index(round_: int, seat: int, roll: int) -> int:
    """The draw of the dice key's stream for ``roll`` (from 0) of ``seat``'s turn in round
    ``round_``: each turn has its own run of 2**32 draws (seats 0-7)."""
    return (((round_ << 3) | seat) << 32) | roll


# ====================================================================== game


class MetscriGame(Game[MetscriOptions, MetscriState]):
    """Metscri (Ole Høyer Hansen, 2019): push-your-luck dice for action points, then move,
    enter, turn, spy and collect cards of the same symbol on a 7x7 board."""

    id: ClassVar[str] = "metscri"
    title: ClassVar[str] = TITLE
    seats: ClassVar[range] = range(2, 9)
    kind: ClassVar[GameKind] = GameKind(
        hidden_information=True,
        chance=True,
        public_actions=False,  # "enter 9Ha r0c3" names a card the others must not see
        max_decisions=60_000,
        secret_choices=True,  # which card is entered face down is a secret the others answer
    )
    Options: ClassVar[type[Any]] = MetscriOptions
    summary: ClassVar[str] = (
        "Roll for action points, then move, enter, turn, spy and collect matching cards on a 7x7 board"
    )
    languages: ClassVar[tuple[str, ...]] = ("en", "da")
    quick_options: ClassVar[dict[str, Any]] = {"target": 10, "max_rounds": 4}
    version: ClassVar[int] = 2
    """2: the dice are drawn per seat, turn and roll from a key of the seed (``MetscriState.dice``),
    no longer from the table's one stream; the deal is unchanged."""

    def new(self, seats: int, seed: int, options: MetscriOptions | None = None) -> MetscriState:
        self.check_seats(seats)
        o = options if options is not None else MetscriOptions()
        s = MetscriState.__new__(MetscriState)
        s.start(self, seats, Rng(seed))
        s.opts = o
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
        s.buy_unordered = False
        s.board = [()] * NCELLS
        s.up = 0
        s.points = (0,) * seats
        s.bank = (0,) * seats
        s.phase = ROLL
        s.dice = draw_at(seed, _DICE_KEY_AT)
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
        s._det = None
        s._mv = None
        s._occ = None
        return s

    def parse(self, state: MetscriState, text: str) -> MetscriAction:
        """Any well-formed action (so that ``play`` can say why it is illegal), legal or not."""
        text = text.strip()
        if state.to_act is None:
            raise GameOver(f"{TITLE}: the game is over")
        a = state.legal_index().get(text)
        if a is not None:
            return a
        return parse_action(text)


__all__ = ["MetscriGame", "MetscriState"]
