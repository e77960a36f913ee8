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
"""

from __future__ import annotations

from typing import Any, ClassVar

from spillebord.ai import Budget, GameBots, Needs, register_bots
from spillebord.ai.playout import epsilon_greedy, team_logistic_value
from spillebord.core import Action, AnyGame, Rng, State

from . import board as B
from .actions import Give, Move, PartnersAction, Seven, Start, Swap
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
    pos = state.pos
    v = 0.0
    for c in range(4):
        cv = colour_value(pos, c)
        v += cv if team(c) == t else -cv
    return v


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
        t = team(seat)
        if state.phase == "exchange":
            return self._give(state, seat, [a for a in actions if isinstance(a, Give)], rng)
        best: list[Action] = []
        best_v = float("-inf")
        for a in actions:
            s = state.copy()
            s.play(a)
            if isinstance(a, Seven) and s.phase == "split" and s.turn == seat:
                v = _best_split(s, seat, [200])
            else:
                v = team_value(s, t)
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


def _card_worth(state: PartnersState, seat: int, card: str) -> float:
    """The best evaluation (for ``seat``) of a move with ``card`` by ``seat`` on this board."""
    t = team(seat)
    moves = state.card_moves(seat, [card])
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
    best = float("-inf")
    for a in s.legal():
        budget[0] -= 1
        c = s.copy()
        c.play(a)
        best = max(best, _best_split(c, seat, budget))
        if budget[0] <= 0:
            break
    return best


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


def register(game: AnyGame) -> None:
    """Register the evaluation and the ``partners`` bot (the strongest) for ``game``; search
    plays out with the bot (10% random moves), values cut-off playouts by the partnerships'
    progress and treats the exchange's cards as secret choices."""
    register_bots(
        game,
        GameBots(
            evaluate=evaluate,
            agents={"partners": PartnersBot},
            best="partners",
            rollout=epsilon_greedy(PartnersBot(game).act, 0.1),
            value=team_logistic_value(_team_value, _team_of, VALUE_SCALE),
            cutoff=24,
            iterations=180,
            secret=secret,
            scale=SCALE,
        ),
    )
