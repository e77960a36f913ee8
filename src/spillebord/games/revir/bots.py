"""Revir's bots: a fast position evaluation and the heuristic bot (agent ``"heuristic"``),
registered for the game by :func:`register` (called from the package's ``__init__``).

The bot plays by simple, explainable rules:

* **Series first.** A territory is worth what it adds to its colour series (revirserie): little
  for the first card of a colour, much for the one that completes it (and taking a card from an
  opponent who is close to a series is worth something too).
* **Moving.** For every square it can reach it scores what it could do there this turn (fight,
  hunt, food and petting), what the walk costs, and how close it leaves the cat to the
  territories it wants; then it walks to the best one.
* **Fights.** It starts a fight only when its stones make a win likely enough for the prize.
  Bids are earmarked and returned (rule 7.3): the real cost of a fight is the hits received, so
  it spreads its available stones over the hits it still needs, outbids the opponent's whole
  reserve when it can afford that every round, and never hands the opponent free hits: it
  surrenders when it can no longer win a round (and, as the owner, when the loss is certain),
  which keeps the stones it will need later.
* **Rats.** It hunts whenever a card allows it on a territory it owns (expected gain >= 1, no
  cost), unless a fight there is worth more.
It only ever reads what its seat can see (it is given a determinization; the opponent's
hidden bid in it is a random sample and is never used).
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from spillebord.ai import Budget, GameBots, Needs, register_bots
from spillebord.ai.playout import epsilon_greedy
from spillebord.core import Action, AnyGame, Rng, State

from .actions import Bid, Fight, Hunt, Move, Pass, Stay, Surrender
from .rules import LastBoard, RevirGame, RevirState

_MISSING_VALUE = (100.0, 10.0, 4.0, 1.5, 0.5)
STONE = 0.45


def series_value(count: int, needed: int) -> float:
    """Worth of holding ``count`` territories of a colour when ``needed`` win."""
    missing = max(0, needed - count)
    if count == 0:
        return 0.0
    return _MISSING_VALUE[min(missing, 4)]


def player_value(state: RevirState, seat: int) -> float:
    need = state.o.series_needed
    return sum(series_value(c, need) for c in state.counts_of(seat))


def evaluate(state: State[Any], seat: int) -> float:
    """Series progress and stones, relative to the strongest opponent; a finished game by its
    normalized outcome (1000 a win, 500 a win shared by two, 0 a loss)."""
    assert isinstance(state, RevirState)
    r = state.outcome()
    if r is not None:
        return 1000.0 * r[seat]
    mine = player_value(state, seat) + STONE * state.stones[seat]
    others = [player_value(state, s) + STONE * state.stones[s] for s in range(state.seats) if s != seat]
    return mine - 0.6 * max(others) - 0.2 * sum(others) / len(others)


def gain_value(state: RevirState, seat: int, tr: int) -> float:
    """What taking territory ``tr`` from its owner is worth to ``seat``."""
    need = state.o.series_needed
    c = state.geo.t_colour[tr]
    mine = state.counts_of(seat)[c]
    owner = state.owner[tr]
    theirs = state.counts_of(owner)[c]
    up = series_value(mine + 1, need) - series_value(mine, need)
    down = series_value(theirs, need) - series_value(theirs - 1, need)
    return up + 0.5 * down


def p_win(a: int, d: int, hits: int) -> float:
    """Rough chance that an attacker with ``a`` stones beats a defender with ``d``."""
    if a == 0:
        return 0.05
    if a >= hits * (d + 1):
        return 0.97
    x = (a - 1.3 * d - 1) / (2.0 + 0.25 * (a + d))
    return max(0.03, min(0.93, 0.5 + 0.35 * x))


def fight_value(state: RevirState, seat: int, tr: int, stones: int) -> float:
    d = state.owner[tr]
    p = p_win(stones, state.stones[d], state.o.hits_to_win)
    g = gain_value(state, seat, tr)
    if g >= 50:
        g = 60.0
    # expected hits received and dealt (damage), as stones
    lose = (1 - p) * min(stones, 3) + p * 1.0
    deal = min(state.stones[d], 3) * (0.5 + 0.5 * p)
    return p * g - STONE * lose + 0.4 * STONE * deal - 0.6


def hunt_value(state: RevirState, tr: int) -> float:
    prof = state.geo.t_profile[tr]
    p = len(prof.catches) / 6
    return p * state.rat_gain(tr, max(prof.catches)) * STONE


def act_options(state: RevirState, seat: int, q: int, stones: int) -> tuple[float, Action | None]:
    """Best phase-3 action and its value if ``seat``'s cat were on square ``q``."""
    geo = state.geo
    best: tuple[float, Action | None] = (0.0, None)
    tr = geo.square_terr[q]
    targets: set[int] = set()
    if tr >= 0 and state.owner[tr] != seat:
        targets.add(tr)
    if not geo.indoor[q] and (state.o.first_turn_fights or state.t > state.seats):
        for j in range(state.seats):
            if j != seat and state.pos[j] == q:
                targets.update(i for i, o in enumerate(state.owner) if o == j)
    for i in targets:
        v = fight_value(state, seat, i, stones)
        if v > best[0]:
            best = (v, Fight(geo.territories[i]))
    if (
        tr >= 0
        and state.owner[tr] == seat
        and (state.eff.hunt >> tr & 1 or state.eff.nest)
        and (v := hunt_value(state, tr)) > best[0]
    ):
        best = (v, Hunt(geo.ids[q]))
    return best


_WANTS = LastBoard()
""":func:`want_squares` of the last board."""


def want_squares(state: RevirState, seat: int) -> tuple[int, ...]:
    """Squares of territories ``seat`` would like to take (its two best colours)."""
    owner, geo = state.owner, state.geo
    answers = _WANTS.of(owner, geo)
    got = answers.get(seat)
    if got is None:
        counts = state.counts_of(seat)
        order = sorted(range(len(counts)), key=lambda c: -counts[c])[:2]
        got = answers[seat] = tuple(
            geo.t_square[i] for i in range(geo.nterr) if geo.t_colour[i] in order and owner[i] != seat
        )
    return got


def move_value(state: RevirState, seat: int, q: int, cost: int) -> float:
    geo = state.geo
    stones = state.stones[seat] - cost
    v = -STONE * cost
    for c in state.eff.happen:
        if geo.card_food_mask[c] >> q & 1:
            v += STONE * geo.cards[c].food
    v += act_options(state, seat, q, stones)[0]
    # closeness to wanted territories (for later turns), with every door as it is now
    dist = geo.dist[geo.all_doors][q]
    wants = want_squares(state, seat)
    if wants:
        v -= 0.15 * min(dist[w] for w in wants)
    # an indoor cat cannot be attacked under (b)
    if geo.indoor[q]:
        v += 0.1 * state.owner.count(seat) / 5  # len(state.owned(seat))
    return v


class HeuristicAgent:
    """The heuristic bot described in the module docstring."""

    name = "heuristic"
    needs: ClassVar[Needs] = Needs()  # a determinization; no search, so no budget

    def __init__(self, game: AnyGame) -> None:
        self.game = game

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, RevirState)
        legal = state.legal()
        if len(legal) == 1:
            return legal[0]
        if state.phase == "move":
            geo = state.geo
            here = state.pos[seat]
            best: tuple[float, Action] = (move_value(state, seat, here, 0) + 0.05, Stay())
            row = geo.dist[state.eff.doors][here]
            for a in legal:
                if isinstance(a, Move):
                    q = geo.index[a.to]
                    cost = 0 if state.eff.free_move else max(0, row[q] - 1)
                    v = move_value(state, seat, q, cost) + rng.random() * 0.01
                    if v > best[0]:
                        best = (v, a)
            return best[1]
        if state.phase == "act":
            v, choice = act_options(state, seat, state.pos[seat], state.stones[seat])
            if choice is not None and choice in legal:
                return choice
            return Pass()
        return self.bid(state, seat, rng)

    def bid(self, state: RevirState, seat: int, rng: Rng) -> Action:
        f = state.fight
        assert f is not None
        attacker = seat == f.attacker
        opp = f.defender if attacker else f.attacker
        mine, theirs = state.avail(seat), state.avail(opp)
        h = state.o.hits_to_win
        need_me = h - (f.hits_a if attacker else f.hits_d)
        need_op = h - (f.hits_d if attacker else f.hits_a)
        if attacker:
            if mine < need_me:  # cannot reach the hits any more
                return Surrender()
        else:
            att_need = need_op
            if mine == 0 and theirs >= att_need:  # the loss is certain: stop the damage
                return Surrender()
        if mine == 0:
            return Bid(0)
        rounds = need_me if attacker else need_op
        if mine >= rounds * (theirs + 1):
            n = theirs + 1  # outbid the whole reserve every round
        else:
            base = mine / max(1, rounds)
            n = int(base + rng.random() * 1.6 - 0.3)
            n = min(n, theirs + 1, mine)
            if attacker:
                n = max(n, 1)
        return Bid(max(0, min(n, mine)))


SCALE = 20.0
"""Series value ahead that makes a 73% favourite (fitted on the heuristic's games)."""

# The search's value of a cut-off playout: a logistic model of the winner given the position,
# fitted by maximum likelihood on 2 300 games of the playout policy against itself (default
# options, every third decision, half the games held out). Stones ahead are what predicts the
# winner: series progress adds nothing once they are known (a territory is won in a fight, and
# fights are won with stones). Held-out log-likelihood a position: -0.559, against -0.689 for
# the logistic of :func:`evaluate` (a coin: -0.693).
W_STONES = 1.69
"""Logit per ten stones ahead of the strongest opponent."""
W_STONES2 = 4.23
"""...and per (ten stones ahead) squared, signed: a big lead is worth more than its share."""
W_HITS = 1.37
"""Logit per five hits ahead in a fight in progress (as attacker or defender)."""
W_TEMPO = 0.087
"""Logit of being the active player."""


def win_logit(state: RevirState, seat: int) -> float:
    """The fitted logit of ``seat``'s chance of winning (see ``W_STONES``)."""
    st = state.stones
    lead = (st[seat] - max(st[s] for s in range(state.seats) if s != seat)) / 10
    x = W_STONES * lead + W_STONES2 * lead * abs(lead)
    x += W_TEMPO if state.active == seat else -W_TEMPO
    f = state.fight
    if f is not None:
        if seat == f.attacker:
            x += W_HITS * (f.hits_a - f.hits_d) / 5
        elif seat == f.defender:
            x += W_HITS * (f.hits_d - f.hits_a) / 5
    return x


def value(state: State[Any]) -> list[float]:
    """Each seat's chance of winning: the outcome of a finished game, else the fitted model."""
    assert isinstance(state, RevirState)
    out = state.outcome()
    if out is not None:
        return list(out)
    vals = []
    for s in range(state.seats):
        x = win_logit(state, s)
        vals.append(1.0 / (1.0 + math.exp(-x)) if x > -60 else 0.0)
    return vals


def secret(action: Action) -> bool:
    """The attacker's sealed submission of a fight round (rule 7.2): a bid or a surrender."""
    return isinstance(action, Bid | Surrender)


def register(game: RevirGame) -> None:
    """Register Revir's evaluation and its heuristic bot (the strongest: ``best``); search
    plays out with the heuristic (10% random moves), values cut-off playouts with the fitted
    model (:func:`value`: stones ahead), and treats a fight round's two bids as one
    simultaneous move that the defender's answer reveals."""
    register_bots(
        game,
        GameBots(
            evaluate=evaluate,
            agents={"heuristic": HeuristicAgent},
            best="heuristic",
            rollout=epsilon_greedy(HeuristicAgent(game).act, 0.1),
            value=value,
            cutoff=20,
            iterations=1100,
            secret=secret,
            answer_reveals=True,  # the defender's answer uncovers both bids of the round (7.2)
            scale=SCALE,
        ),
    )
