"""Touché bots: the position evaluation and the heuristic bot (``heuristic``, the best).

The bot scores each legal action by looking only at the pattern instances through the target
cell (the same precomputed ``THROUGH`` lists as detection): it extends its own near-patterns,
blocks the opponents' (weighted by how close they are), saves jokers for completions, replacing
and blocking, and trades in dead cards when nothing useful can be placed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

from spillebord.ai import AgentFactory, Budget, GameBots, Needs, register_bots
from spillebord.ai.agent import Searcher
from spillebord.ai.playout import epsilon_greedy, logistic_value
from spillebord.core import Action, AnyGame, Rng, State

from .actions import ChooseGrade, Crown, Exchange, Place
from .data import (
    CARD_BITS,
    CARD_CELLS,
    CELL_BITS,
    CELL_CARD,
    CELL_INDEX,
    EMPTY,
    FREE_BITS,
    INSTANCE_BITS,
    INSTANCE_ID,
    INSTANCES,
    IS_FREE,
    JOKER,
    NEAR_BY_TYPES,
    OTHER_BITS,
    TYPE_RANGES,
    T,
)
from .data import CROSS as CROSS_T
from .data import LINE as LINE_T
from .data import SQUARE as SQUARE_T
from .rules import ToucheState

VALUE_BY_MISSING = (10_000.0, 120.0, 22.0, 5.0, 1.2, 0.3)
"""Worth of an alive instance by the number of cells still missing."""


def _missing(marks: list[int], cells: tuple[int, ...], side: int) -> int:
    """Cells of an instance ``side`` still needs, or -1 when the instance is blocked for it
    (a crowned or foreign marker, or two FREE cells)."""
    miss = 0
    frees = 0
    for c in cells:
        m = marks[c]
        if m == side:
            continue
        if m != EMPTY:
            return -1
        if IS_FREE[c]:
            frees += 1
            if frees > 1:
                return -1
        miss += 1
    return miss


def side_potential(marks: list[int], side: int, mask: int) -> float:
    total = 0.0
    for t, cells in INSTANCES:
        if mask >> t & 1:
            m = _missing(marks, cells, side)
            if m >= 0:
                total += VALUE_BY_MISSING[m]
    return total


def evaluate(state: State[Any], seat: int) -> float:
    """Higher is better for ``seat``: a finished match by its outcome; otherwise crowned
    patterns, then the potential of the instances still alive for each side."""
    assert isinstance(state, ToucheState)
    res = state.outcome()
    if res is not None:
        return 1e9 * res[seat]
    me = state.side_of[seat]
    if not state.grade:
        return 0.0
    score = 0.0
    for side in range(state.n_sides):
        v = 5000.0 * state.counts[side] + side_potential(state.marks, side, state.mask(side))
        score += v if side == me else -v / max(1, state.n_sides - 1)
    return score


SURE = 3000.0
"""An instance missing only a FREE space: any card completes it next turn and nobody but a
joker (replacing one of its markers) can stop it."""
LIKELY = 500.0
"""An instance missing one cell whose card the side holds."""


def _worth(marks: list[int], cells: tuple[int, ...], side: int, held: set[str] | None) -> float:
    """Value of an instance for ``side`` (-1.0 when blocked)."""
    miss = 0
    frees = 0
    last = -1
    for c in cells:
        m = marks[c]
        if m == side:
            continue
        if m != EMPTY:
            return -1.0
        if IS_FREE[c]:
            frees += 1
            if frees > 1:
                return -1.0
        miss += 1
        last = c
    if miss == 1:
        if IS_FREE[last]:
            return SURE
        if held is not None and CELL_CARD[last] in held:
            return LIKELY
    return VALUE_BY_MISSING[miss]


def side_masks(state: ToucheState) -> tuple[int, ...]:
    """Each side's pattern types that count now (:meth:`~.rules.ToucheState.mask`)."""
    return tuple(state.mask(side) for side in range(state.n_sides))


def hot_bits(hand: Sequence[str]) -> int:
    """The cells that are FREE spaces or card spaces of a card in ``hand`` (jokers aside), as
    one bit mask over cell indices."""
    hot = FREE_BITS
    for card in hand:
        if card != JOKER:
            hot |= CARD_BITS[card]
    return hot


def _cell_delta(
    state: ToucheState,
    x: int,
    side: int,
    hand: tuple[str, ...],
    defense: float = 1.1,
    ready_w: float = 0.25,
    hot: int | None = None,
    masks: tuple[int, ...] | None = None,
) -> float:
    """Gain of putting ``side``'s marker on ``x``: own instances advanced, others' blocked.

    For each instance through ``x``: its worth (:func:`_worth`, with the cards of ``hand``)
    after the marker minus its worth before, times 1 + ``ready_w`` a remaining empty cell that
    is FREE or held; plus ``defense`` times the worth of every opponent's instance through
    ``x`` that is still alive. Each instance's other cells are one bit mask (``OTHER_BITS``),
    read against the state's masks of empty cells and uncrowned markers: the same sums, in the
    same order, as calling :func:`_worth` twice (the reference in
    ``tests/games/touche/test_touche_bot.py``). ``hot``: :func:`hot_bits` of ``hand``, computed
    once for all the cells of a decision, as ``masks``: each side's :meth:`~.rules.ToucheState.mask`."""
    old = state.marks[x]
    if hot is None:
        hot = hot_bits(hand)
    if masks is None:
        masks = side_masks(state)
    empty = state._empty
    gain = 0.0
    mask = masks[side]
    vbm = VALUE_BY_MISSING
    free = FREE_BITS
    x_free = IS_FREE[x]
    # x missing before (old is EMPTY): the worth of an instance then missing only x
    only_x = SURE if x_free else LIKELY if hot >> x & 1 else vbm[1]
    # the opponents whose instances through x are not blocked by x already (x empty, or theirs)
    if len(masks) == 2:
        opps = [1 - side] if old == EMPTY or old == 1 - side else []
    else:
        opps = [opp for opp in range(len(masks)) if opp != side and old in (EMPTY, opp)]
    if len(opps) == 1:
        # the usual case (two sides): one pass over the instances for both, the opponent's
        # terms added after the side's own, in the same order as two passes would
        opp = opps[0]
        omask = masks[opp]
        miss0 = 0 if old == opp else 1
        frees0 = 1 if miss0 and x_free else 0
        marked = state._marked
        ok = (marked >> (144 * side)) & CELL_BITS | empty  # any other or a crowned marker blocks
        ook = (marked >> (144 * opp)) & CELL_BITS | empty
        blocked: list[float] = []
        for t in range(4):
            mine = mask >> t & 1
            theirs = omask >> t & 1
            if not (mine or theirs):
                continue
            for others in OTHER_BITS[t][x]:
                # most instances are blocked for both: test that before anything else
                live = mine and others & ok == others
                if not live and not (theirs and others & ook == others):
                    continue
                e = others & empty
                fe = e & free
                if live and not fe & (fe - 1):
                    miss = e.bit_count()
                    ready = (e & hot).bit_count()  # hot holds the FREE cells
                    after = vbm[miss] if miss != 1 else SURE if fe else LIKELY if ready else vbm[1]
                    if old == side:
                        before = after
                    elif old != EMPTY or (fe != 0) + x_free > 1:
                        before = 0.0
                    else:
                        before = only_x if miss == 0 else vbm[miss + 1]
                    gain += (after - before) * (1.0 + ready_w * ready)
                if theirs and others & ook == others:
                    if fe:
                        if frees0 or fe & (fe - 1):
                            continue
                        frees = 1
                    else:
                        frees = frees0
                    miss = miss0 + e.bit_count()
                    blocked.append(defense * (SURE if miss == 1 and frees else vbm[miss]))
        for v in blocked:
            gain += v
        return gain
    if mask:
        ok = state.marked(side) | empty  # any other marker (or a crowned one) blocks
        for t in range(4):
            if not mask >> t & 1:
                continue
            for others in OTHER_BITS[t][x]:
                if others & ok != others:
                    continue
                e = others & empty
                fe = e & free
                if fe & (fe - 1):  # two FREE cells
                    continue
                miss = e.bit_count()
                ready = (e & hot).bit_count()  # hot holds the FREE cells
                after = vbm[miss] if miss != 1 else SURE if fe else LIKELY if ready else vbm[1]
                if old == side:
                    before = after
                elif old != EMPTY or (fe != 0) + x_free > 1:
                    before = 0.0
                else:
                    before = only_x if miss == 0 else vbm[miss + 1]
                gain += (after - before) * (1.0 + ready_w * ready)
    for opp in opps:
        # x missing for them, or their marker on x (which a joker replaces)
        miss0 = 0 if old == opp else 1
        frees0 = 1 if miss0 and x_free else 0
        omask = masks[opp]
        ok = state.marked(opp) | empty
        for t in range(4):
            if not omask >> t & 1:
                continue
            for others in OTHER_BITS[t][x]:
                if others & ok != others:
                    continue
                e = others & empty
                fe = e & free
                if fe:
                    if frees0 or fe & (fe - 1):
                        continue
                    frees = 1
                else:
                    frees = frees0
                miss = miss0 + e.bit_count()
                # missing one cell: a FREE one (the only FREE cell missing) is sure
                gain += defense * (SURE if miss == 1 and frees else vbm[miss])
    return gain


DEFAULT_WEIGHTS = {
    "defense": 1.1,
    "ready": 0.25,
    "joker_empty": 60.0,
    "joker_replace": 25.0,
    "exchange_per_card": 4.0,
    "exchange_cost": 6.0,
}

TYPE_PREFERENCE = {CROSS_T: 0, T: 1, LINE_T: 2, SQUARE_T: 3}

_NEAR_MARKED_BY_TYPES = tuple(tuple(near | near << 144 for near in per) for per in NEAR_BY_TYPES)
"""Per pattern-type mask and cell: :data:`~.data.NEAR_BY_TYPES` in both sides' parts of
``ToucheState._marked``. With the masks that count for either side, all that
:func:`_cell_delta` reads of the board."""
MEMO_SIZE = 1 << 16
"""Entries of a heuristic's memo of :func:`_cell_delta` before it starts again (about 20 MB; one
Master decision makes about 60,000; a smaller memo answers nearly as often)."""


class HeuristicAgent:
    """Extends its own near-patterns and blocks the opponents' (one ply, no look-ahead)."""

    name = "heuristic"
    needs: ClassVar[Needs] = Needs(determinization=False)
    """It reads the board, its own hand and ``legal()``: the same in every determinization."""

    def __init__(self, game: AnyGame | None = None, grade_preference: int = 2, **weights: float) -> None:
        self.game = game
        self.grade_preference = grade_preference
        self.w = {**DEFAULT_WEIGHTS, **weights}
        self._memo: dict[tuple[int, ...], float] = {}
        """Two sides: :func:`_cell_delta` by everything it reads (the cell, the side, the marks
        near the cell on the instances of the pattern types that count, the hand's cards there,
        both sides' pattern masks). A search's playouts meet the same neighbourhoods again and
        again (about three calls in four in a Master decision; two in three while the key read
        the instances of every type), and a marker changes the value of the cells near it only."""
        self._memo_weights = (self.w["defense"], self.w["ready"])

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, ToucheState)
        legal = state.legal()
        if len(legal) == 1:
            return legal[0]
        if state.phase == "grade":
            return ChooseGrade(self.grade_preference)
        if state.phase == "crown":

            def crown_key(a: Action) -> tuple[int, int]:
                assert isinstance(a, Crown)
                cells = tuple(sorted(CELL_INDEX[c] for c in a.cells))
                t = INSTANCES[INSTANCE_ID[cells]][0]
                return (TYPE_PREFERENCE[t], sum(IS_FREE[c] for c in cells))

            return min(legal, key=crown_key)
        best: list[Action] = []
        best_v = float("-inf")
        for a, v in self.scores(state, seat, legal):
            if v > best_v + 1e-9:
                best_v, best = v, [a]
            elif abs(v - best_v) <= 1e-9:
                best.append(a)
        return best[0] if len(best) == 1 else rng.choice(best)

    def scores(
        self, state: ToucheState, seat: int, legal: Sequence[Action] | None = None
    ) -> list[tuple[Action, float]]:
        """The bot's value of each legal action of the play phase, in the order of ``legal()``
        (it plays the highest, ties at random); ``legal``: ``state.legal()`` when the caller
        has it."""
        if legal is None:
            legal = state.legal()
        side = state.side_of[seat]
        hand = state.hands[seat]
        cache: dict[int, float] = {}
        out: list[tuple[Action, float]] = []
        n_dead = 0
        w = self.w
        defense, ready_w = w["defense"], w["ready"]
        joker_empty, joker_replace = w["joker_empty"], w["joker_replace"]
        complete = VALUE_BY_MISSING[0]
        hot = hot_bits(hand)
        masks = side_masks(state)
        marks = state.marks
        empty = state._empty
        memo: dict[tuple[int, ...], float] | None = None
        if len(masks) == 2:
            memo = self._memo
            if len(memo) >= MEMO_SIZE or self._memo_weights != (defense, ready_w):
                memo.clear()
                self._memo_weights = (defense, ready_w)
            marked = state._marked
            m0, m1 = masks
            near_bits = NEAR_BY_TYPES[m0 | m1]
            near_marked = _NEAR_MARKED_BY_TYPES[m0 | m1]
        for a in legal:
            if isinstance(a, Place):
                x = CELL_INDEX[a.cell]
                v = cache.get(x)
                if v is None:
                    if memo is None:
                        v = _cell_delta(state, x, side, hand, defense, ready_w, hot, masks)
                    else:
                        near = near_bits[x]
                        key = (x, side, marks[x], empty & near, marked & near_marked[x], hot & near, m0, m1)
                        v = memo.get(key)
                        if v is None:
                            v = memo[key] = _cell_delta(state, x, side, hand, defense, ready_w, hot, masks)
                    cache[x] = v
                card = a.card
                if card == JOKER:
                    if v < complete:
                        # keep jokers for completions and replacements
                        v -= joker_empty if marks[x] == EMPTY else joker_replace
                elif IS_FREE[x]:
                    # any card completes here: spend the least useful one (both its spaces taken)
                    if not CARD_BITS[card] & empty:
                        v += 1.0
                else:
                    # prefer the card whose other copy is already gone
                    c1, c2 = CARD_CELLS[card]
                    if marks[c2 if c1 == x else c1] != EMPTY:
                        v += 0.5
            elif isinstance(a, Exchange):
                n_dead = len(a.cards)
                v = w["exchange_per_card"] * n_dead - w["exchange_cost"]
            else:
                v = 0.0
            out.append((a, v))
        return out


AGENTS: dict[str, AgentFactory] = {"heuristic": HeuristicAgent}


SCALE = 10_000.0
"""Evaluation ahead (a crowned pattern is 5000) that makes a 73% favourite (fitted on the
heuristic's games)."""


def prior(state: State[Any], actions: Sequence[Action]) -> list[float]:
    """Search expands the cells the heuristic likes first (jokers can reach 112 cells)."""
    assert isinstance(state, ToucheState)
    seat = state.to_act
    if seat is None or state.phase != "play":
        return [0.0] * len(actions)
    side = state.side_of[seat]
    hand = state.hands[seat]
    cache: dict[int, float] = {}
    out = []
    hot = hot_bits(hand)
    masks = side_masks(state)
    for a in actions:
        if isinstance(a, Place):
            x = CELL_INDEX[a.cell]
            if x not in cache:
                cache[x] = _cell_delta(state, x, side, hand, hot=hot, masks=masks)
            out.append(cache[x] - (DEFAULT_WEIGHTS["joker_empty"] if a.card == JOKER else 0.0))
        else:
            out.append(0.0)
    return out


FEATURES = ("need1", "need2", "sure", "held", "open", "two", "three", "jokers", "open_joker", "win_threat")
"""A side's features for the fitted value (:func:`side_features`), in this order."""


def side_features(state: ToucheState, side: int) -> list[float]:
    """What predicts who wins the current game, for one side: how many patterns it still
    needs (one or two), its distinct cells that complete a qualifying pattern now (on a FREE
    space, so any card does: ``sure``; with a card its hands hold: ``held``; else ``open``,
    and ``open_joker`` when it holds a joker), its alive instances missing two and three cells
    (log), its jokers, and ``win_threat``: needing one pattern with a sure or held completion."""
    mask = state.mask(side)
    held: set[str] = set()
    jokers = 0
    for seat, sd in enumerate(state.side_of):
        if sd == side:
            for card in state.hands[seat]:
                if card == JOKER:
                    jokers += 1
                else:
                    held.add(card)
    sure: set[int] = set()
    hold: set[int] = set()
    other: set[int] = set()
    n2 = n3 = 0
    empty = state._empty
    ok = state.marked(side) | empty  # another side's or a crowned marker blocks
    for t in range(4):
        if not mask >> t & 1:
            continue
        for k in TYPE_RANGES[t]:
            cells = INSTANCE_BITS[k]
            if cells & ok != cells:
                continue
            e = cells & empty
            fe = e & FREE_BITS
            if fe & (fe - 1):  # two FREE cells
                continue
            miss = e.bit_count()
            if miss == 1:
                last = e.bit_length() - 1
                if fe:
                    sure.add(last)
                elif CELL_CARD[last] in held:
                    hold.add(last)
                else:
                    other.add(last)
            elif miss == 2:
                n2 += 1
            elif miss == 3:
                n3 += 1
    need = state.target - state.counts[side]
    open_ = len(other)
    return [
        float(need == 1),
        float(need == 2),
        float(len(sure)),
        float(len(hold)),
        float(open_),
        math.log1p(n2),
        math.log1p(n3),
        float(jokers),
        float(open_) if jokers else 0.0,
        float(need == 1 and bool(sure or hold)),
    ]


def match_chance(p: float, mine: int, theirs: int, games: int) -> float:
    """The chance of winning a best-of-``games`` match (``match_mode=wins``) with ``mine``
    and ``theirs`` games won and a chance ``p`` of winning the current game; every later game
    an even chance (drawn games, which are rare, ignored)."""
    need = games // 2 + 1

    def later(a: int, b: int) -> float:
        if a >= need:
            return 1.0
        if b >= need:
            return 0.0
        return 0.5 * (later(a + 1, b) + later(a, b + 1))

    return p * later(mine + 1, theirs) + (1.0 - p) * later(mine, theirs + 1)


# The search's value of a cut-off playout (two sides, ``match_mode=wins``): a logistic model
# of "the side to act wins the current game" on both sides' features, fitted by maximum
# likelihood on the heuristic's games against itself (``tools/fit_touche_value.py``: FITTED),
# then the match's chance from the match score (``match_chance``). The old value, the
# logistic of :func:`evaluate` over ``SCALE``, ignored the match score: a playout that won a
# game (the counts start again at zero) looked no better than one that did not.
W_TEMPO = 0.107
"""Logit of being the side to act."""
W_MOVER = (2.173, 0.862, 0.949, 0.920, 0.188, 0.276, 0.192, 0.625, 0.284, 4.144)
"""Logit per unit of each of the side to act's features (:data:`FEATURES`)."""
W_OTHER = (-2.241, -0.962, -1.035, -0.676, -0.093, -0.328, -0.180, -0.581, -0.271, -1.884)
"""Logit per unit of each of the other side's features."""


def game_chance(state: ToucheState) -> float:
    """The fitted chance that the side to act wins the current game (play phase)."""
    seat = state.to_act
    assert seat is not None
    me = state.side_of[seat]
    x = W_TEMPO
    for w, f in zip(W_MOVER, side_features(state, me), strict=True):
        x += w * f
    for w, f in zip(W_OTHER, side_features(state, 1 - me), strict=True):
        x += w * f
    return 1.0 / (1.0 + math.exp(-x)) if x > -60 else 0.0


_OLD_VALUE = logistic_value(evaluate, SCALE)


def value(state: State[Any]) -> list[float]:
    """Each seat's chance of winning the match: the outcome of a finished match; with two
    sides playing for wins, the fitted game chance and the match score; otherwise the
    logistic of :func:`evaluate` (not fitted)."""
    assert isinstance(state, ToucheState)
    out = state.outcome()
    if out is not None:
        return list(out)
    if state.n_sides != 2 or state.opts.match_mode != "wins":
        return list(_OLD_VALUE(state))
    seat = state.to_act
    assert seat is not None
    if state.phase == "crown":  # finish the Touché first (rare at a cut-off)
        s = state.copy()
        s.play(s.legal()[0])
        return value(s)
    me = state.side_of[seat]
    p = game_chance(state) if state.phase == "play" else 0.5
    wins = state.match_wins
    mine = match_chance(p, wins[me], wins[1 - me], state.opts.match_games)
    return [mine if state.side_of[s] == me else 1.0 - mine for s in range(state.seats)]


def _rollout_search(game: AnyGame) -> Searcher:
    from .rollsearch import RolloutSearchAgent  # it imports the generic search, which imports the registry

    return RolloutSearchAgent(game)


def register(game: AnyGame) -> None:
    """Register Touché's evaluation and agents (the heuristic bot is the best); search plays
    out with the heuristic (10% random moves), expands by its cell values first and values
    cut-off playouts by crowns and pattern potential."""
    register_bots(
        game,
        GameBots(
            evaluate=evaluate,
            agents=AGENTS,
            best="heuristic",
            rollout=epsilon_greedy(HeuristicAgent(game).act, 0.1),
            value=value,
            cutoff=16,
            exploration=0.3,
            widen=2,
            iterations=720,
            prior=prior,
            scale=SCALE,
            search=_rollout_search,
        ),
    )
