"""Partners bots: a fast evaluation of positions and the heuristic bot ``partners``.

The evaluation plays for the partnership: the progress of both partners' pieces (distance
travelled, house circles, deeper is better) minus the opponents', a bonus for protected pairs
and for a piece on its own start field (it blocks everyone), and a penalty for a lone piece
that a foreign piece could knock out with one card (1–14 squares behind it).

The bot (:class:`PartnersBot`):

* exchange: gives the card that helps the partner most relative to what it is worth to itself
  (a start card when the partner has nothing on the board, say);
* play: tries every legal move one ply deep with :func:`evaluate`; a split 7 is searched to
  its end (every completion of the seven steps) and scored by its best completion.

It is the search's playout policy, so it is fast: the evaluation of a board is cached (the
board is public, so a search meets the same boards in every determinization), a move other
than a 7 is valued on the board it leaves without playing it in a copy, and a split 7 searched
in full is remembered; each gives exactly the values it replaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from spillebord.ai import Budget, GameBots, Needs, register_bots
from spillebord.ai.agent import Searcher
from spillebord.ai.playout import epsilon_greedy, team_logistic_value
from spillebord.core import Action, AnyGame, Rng, State

from . import board as B
from .actions import Discard, Give, Move, PartnersAction, Seven, Start, StopSplit, Swap
from .data import CIRCLE, HOUSE, START_FIELD, TRACK, partner, team
from .rules import PartnersState

_WIN = 10_000.0
_UNUSABLE = -15.0
"""The worth of a card with no legal move (relative to the position's value)."""


def piece_value(c: int, p: int) -> float:
    """How far a colour-``c`` piece on ``p`` has come: 0 in the circle, ~10–69 on the track, 80+ home."""
    if p == CIRCLE:
        return 0.0
    if p >= HOUSE:
        return 80.0 + 3.0 * (p - HOUSE)
    return 10.0 + (p - START_FIELD[c]) % TRACK


def colour_value(pos: B.Board, c: int) -> float:
    pcs = pos[c]
    v = 0.0
    blk = B.blockers(pos)
    prev = -99
    for p in pcs:
        v += piece_value(c, p)
        if 0 <= p < TRACK:
            if p == prev:
                v += 4.0  # protected pair
            elif p == START_FIELD[c]:
                v += 3.0  # blocks everyone, safe from knock-outs
            elif pcs.count(p) == 1:
                # threatened by a foreign piece 1..14 squares behind it
                for o in range(4):
                    if o == c:
                        continue
                    for q in pos[o]:
                        if 0 <= q < TRACK:
                            d = (p - q) % TRACK
                            if 0 < d <= 16 and not _blocked_between(q, p, o, blk):
                                v -= 0.12 * piece_value(c, p) + 1.0
                                break
        prev = p
    return v


def _blocked_between(q: int, p: int, o: int, blk: tuple[bool, ...]) -> bool:
    """A start field strictly between q and p blocks colour o."""
    i = (q + 1) % TRACK
    while i != p:
        if i % 15 == 0:
            d = i // 15
            if d == o:
                return True  # o would enter its own house rather than pass
            if blk[d]:
                return True
        i = (i + 1) % TRACK
    return False


def evaluate(state: State[Any], person: int) -> float:
    """Higher is better for ``person``'s partnership (the same value for both partners)."""
    assert isinstance(state, PartnersState)
    return team_value(state, state.team_of(person))


def team_value(state: PartnersState, t: int) -> float:
    """The evaluation for partnership ``t`` (0: Yellow+Blue, 1: Red+Green)."""
    if state.winner is not None:
        if state.winner < 0:
            return 0.0
        return _WIN if state.winner == t else -_WIN
    cvs = _COLOUR_VALUES.get(state.pos)
    if cvs is None:
        cvs = _colour_values(state.pos)
    v = 0.0
    for c in range(4):
        cv = cvs[c]
        v += cv if team(c) == t else -cv
    return v


_COLOUR_VALUES: dict[B.Board, tuple[float, float, float, float]] = {}
""":func:`colour_value` of every colour, per board: the board is public, so the boards a search
meets near its root recur in every determinization (and a split 7's completions meet)."""
_CACHE_SIZE = 50_000


def _colour_values(pos: B.Board) -> tuple[float, float, float, float]:
    if len(_COLOUR_VALUES) >= _CACHE_SIZE:
        _COLOUR_VALUES.clear()
    blk = B.blockers(pos)
    track = [[q for q in pcs if 0 <= q < TRACK] for pcs in pos]
    out = [0.0, 0.0, 0.0, 0.0]
    for c in range(4):
        # colour_value(pos, c), the same sums in the same order, with the board's blockers
        # and track pieces found once for all four colours
        pcs = pos[c]
        sf = START_FIELD[c]
        v = 0.0
        prev = -99
        for p in pcs:
            if p == CIRCLE:
                pv = 0.0
            elif p >= HOUSE:
                pv = 80.0 + 3.0 * (p - HOUSE)
            else:
                pv = 10.0 + (p - sf) % TRACK
            v += pv
            if 0 <= p < TRACK:
                if p == prev:
                    v += 4.0
                elif p == sf:
                    v += 3.0
                elif pcs.count(p) == 1:
                    for o in range(4):
                        if o == c:
                            continue
                        for q in track[o]:
                            d = (p - q) % TRACK
                            if 0 < d <= 16 and not _start_between(q, d, o, blk):
                                v -= 0.12 * pv + 1.0
                                break
            prev = p
        out[c] = v
    cvs = _COLOUR_VALUES[pos] = (out[0], out[1], out[2], out[3])
    return cvs


def _start_between(q: int, d: int, o: int, blk: tuple[bool, ...]) -> bool:
    """:func:`_blocked_between` for ``p = q + d``: a start field strictly between blocks
    colour ``o`` (its own, or one with its owner's piece on it)."""
    for f in (0, 15, 30, 45):
        k = (f - q) % TRACK
        if 0 < k < d and (f == START_FIELD[o] or blk[f // 15]):
            return True
    return False


SPLIT_BUDGET = 200
"""Completions of a split 7 the bot searches per move (all its 7s together)."""


class PartnersBot:
    """The heuristic bot: plays for its partnership (see the module docstring)."""

    name = "partners"
    needs: ClassVar[Needs] = Needs(determinization=True)
    """It reads the whole (determinized) state: the board and, for the exchange, the hands."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, PartnersState)
        actions = state.legal()
        if len(actions) == 1:
            return actions[0]
        turn = state.turn  # the colour seat this person plays now
        assert turn is not None
        seat = turn
        if state.phase == "exchange":
            return self._give(state, seat, [a for a in actions if isinstance(a, Give)], rng)
        best: list[Action] = []
        best_v = float("-inf")
        for a, v in zip(actions, one_ply(state, actions), strict=True):
            if v > best_v + 1e-9:
                best_v, best = v, [a]
            elif abs(v - best_v) <= 1e-9:
                best.append(a)
        return best[0] if len(best) == 1 else rng.choice(best)

    def _give(self, state: PartnersState, seat: int, gives: list[Give], rng: Rng) -> Action:
        """Give the card that helps the partner most relative to its worth to this seat; never
        lightly the only usable card (without it the whole hand would have to be laid down)."""
        p = partner(seat)
        base = team_value(state, team(seat))
        hand = list(state.hands[seat])
        mine = {c: _card_worth(state, seat, c) - base for c in dict.fromkeys(hand)}
        best = gives[0]
        best_v = float("-inf")
        for g in gives:
            rest = list(hand)
            rest.remove(g.card)
            theirs = _card_worth(state, p, g.card) - base
            v = theirs - 0.8 * mine[g.card] + rng.random() * 1e-3
            if mine[g.card] > _UNUSABLE and max(mine[c] for c in rest) <= _UNUSABLE:
                v -= 20.0  # it is my only usable card: keeping it saves the whole hand
            if v > best_v:
                best_v, best = v, g
        return best


def one_ply(state: PartnersState, actions: Sequence[PartnersAction]) -> list[float]:
    """The bot's value of each of ``actions`` for the partnership to play (as
    :meth:`PartnersBot.act` weighs them: the board a move leaves, a split 7 by its best
    completion); the search ranks its candidates by it."""
    seat = state.turn
    assert seat is not None
    t = team(seat)
    # a move's value is its board's, reached without playing it in a copy (the last deal of a
    # game, which may end in a draw, is played out in full)
    quick = state.deals < state.opts.max_deals
    out = []
    for a in actions:
        v = _value_after(state.pos, a, t) if quick else None
        if v is None:
            s = state.copy()
            s.play(a)
            if isinstance(a, Seven) and s.phase == "split" and s.turn == seat:
                v = _best_split(s, seat, [SPLIT_BUDGET])
            else:
                v = team_value(s, t)
        out.append(v)
    return out


def _value_after(pos: B.Board, a: Action, t: int) -> float | None:
    """``team_value`` for partnership ``t`` after ``a`` (not a 7) on board ``pos``: the board
    the rules would leave and its winner (``None`` for a 7: its parts are searched)."""
    kind = type(a)
    if kind is Move:
        assert isinstance(a, Move)
        pos = B.land(pos, a.colour, a.frm, a.to)[0]
    elif kind is Start:
        assert isinstance(a, Start)
        pos = B.land(pos, a.colour, CIRCLE, START_FIELD[a.colour])[0]
    elif kind is Swap:
        assert isinstance(a, Swap)
        pos = B.swap(pos, a.c1, a.p1, a.c2, a.p2)
    elif kind is not Discard and kind is not StopSplit:
        return None
    if pos[0][0] >= HOUSE or pos[1][0] >= HOUSE:  # as the rules check a win (R9.1)
        for w in (0, 1):
            if B.team_home(pos, w):
                return _WIN if w == t else -_WIN
    cvs = _COLOUR_VALUES.get(pos)
    if cvs is None:
        cvs = _colour_values(pos)
    v = 0.0
    for c in range(4):
        cv = cvs[c]
        v += cv if team(c) == t else -cv
    return v


def _card_worth(state: PartnersState, seat: int, card: str) -> float:
    """The best evaluation (for ``seat``) of a move with ``card`` by ``seat`` on this board."""
    t = team(seat)
    moves = state.card_moves(seat, (card,))
    if not moves:
        return team_value(state, t) + _UNUSABLE
    best = float("-inf")
    for m in moves:
        if isinstance(m, Seven):
            s = state.copy()
            s.pos, *_ = _apply_part_only(s, seat, m)
            v = team_value(s, t) + 3.0
        else:
            s = state.copy()
            _apply_quiet(s, seat, m)
            v = team_value(s, t)
        best = max(best, v)
    return best


def _apply_part_only(s: PartnersState, seat: int, m: Seven) -> tuple[B.Board, int, bool]:
    return B.land(s.pos, m.colour, m.frm, m.to)


def _apply_quiet(s: PartnersState, seat: int, m: PartnersAction) -> None:
    """Apply a move's effect on the board only (for what-if scoring outside turn order)."""
    if isinstance(m, Start):
        s.pos, _, _ = B.land(s.pos, m.colour, CIRCLE, START_FIELD[m.colour])
    elif isinstance(m, Move):
        s.pos, _, _ = B.land(s.pos, m.colour, m.frm, m.to)
    elif isinstance(m, Swap):
        s.pos = B.swap(s.pos, m.c1, m.p1, m.c2, m.p2)


def _best_split(s: PartnersState, seat: int, budget: list[int]) -> float:
    """The best evaluation over the completions of a split 7 in progress (bounded search);
    ``seat`` is the colour seat playing the 7."""
    if s.phase != "split" or s.turn != seat or budget[0] <= 0:
        return team_value(s, team(seat))
    # the completions depend on the board and the 7's progress only (and, at the very end of
    # a game, on whether its last deal is over): a subtree searched in full is remembered with
    # the nodes it took, and reused where the budget would again cover it in full, so the
    # result is exactly the bounded search's
    key = (s.pos, seat, s.split_left, s.split_used, s.opts, s.deals >= s.opts.max_deals)
    known = _SPLITS.get(key)
    if known is not None and budget[0] > known[1]:
        budget[0] -= known[1]
        return known[0]
    start = budget[0]
    best = float("-inf")
    for a in s.legal():
        budget[0] -= 1
        c = s.copy()
        c.play(a)
        best = max(best, _best_split(c, seat, budget))
        if budget[0] <= 0:
            break
    if budget[0] > 0:  # searched in full
        if len(_SPLITS) >= _CACHE_SIZE:
            _SPLITS.clear()
        _SPLITS[key] = (best, start - budget[0])
    return best


_SPLITS: dict[tuple[Any, ...], tuple[float, int]] = {}
"""Split 7s searched in full: (best evaluation, nodes searched) by board and progress."""


SCALE = 160.0
"""The Beginner's softmax temperature (``GameBots.scale``): a difference of evaluation that
matters to a person choosing by feel."""
VALUE_SCALE = 300.0
"""Partnership progress ahead that makes a 73% favourite: the search's value of a cut-off
playout. Fitted by maximum likelihood on 1 500 games of the playout policy (4 seats, every
third decision): log-likelihood -0.629 a position, against -0.667 at 160 (docs/bots.md)."""


def secret(action: Action) -> bool:
    """A card given face down in the partner exchange."""
    return isinstance(action, Give)


def _team_of(state: State[Any], person: int) -> int:
    assert isinstance(state, PartnersState)
    return state.team_of(person)


def _team_value(state: State[Any], t: int) -> float:
    assert isinstance(state, PartnersState)
    return team_value(state, t)


def _search(game: AnyGame) -> Searcher:
    from .search import PartnersSearchAgent

    return PartnersSearchAgent(game, PartnersBot(game), one_ply)


def register(game: AnyGame) -> None:
    """Register the evaluation and the ``partners`` bot (the strongest) for ``game``; search
    plays out with the bot (10% random moves), values cut-off playouts by the partnerships'
    progress and treats the exchange's cards as secret choices; ``ismcts`` and the levels 4-5
    are Partners' own search (:mod:`.search`: paired playouts of the bot's best few moves)."""
    register_bots(
        game,
        GameBots(
            evaluate=evaluate,
            agents={"partners": PartnersBot},
            best="partners",
            rollout=epsilon_greedy(PartnersBot(game).act, 0.1),
            value=team_logistic_value(_team_value, _team_of, VALUE_SCALE),
            cutoff=24,
            iterations=300,
            secret=secret,
            scale=SCALE,
            search=_search,
        ),
    )
