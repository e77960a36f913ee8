"""Information-set Monte Carlo tree search (single observer), for every game of the contract.

The agent sees only its own seat: each iteration samples a full state with
``state.determinize(seat, rng)`` and walks one tree whose edges are actions (Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", 2012):

* **Selection** by UCB1 with *availability counts*: a child's exploration term counts the
  iterations in which its action was legal, not its parent's visits, because in a
  determinization only some actions exist.
* **Expansion** of one untried legal action, in the order of the game's priors when it has
  them. **Progressive widening** keeps huge lists (Kasino's captures, Metscri's entries) from
  spreading the search thin: a node with ``n`` visits may have at most ``widen · n^½`` children
  (at least ``widen``), the best-prior actions first.
* **Playout** with the game's rollout policy (default: random) for at most ``cutoff``
  decisions, then the game's value of the position (each seat's chance of winning), or the
  outcome if the game ended.
* **Backpropagation** of every seat's value; each node keeps the value of the seat that chose
  the action leading to it.

**Secret choices** (Revir's sealed bids, Partners' card passed face down): in a plain
single-observer tree the seat answering a secret action sits below that action, so its
statistics would depend on what it cannot see (it would "answer" each bid knowing it, and the
search would fear the wrong things). A game names its secret actions (``GameBots.secret``);
after one, the next seat's decision takes its statistics from a node shared by every hidden
alternative (keyed by the public history), while the tree continues below the actual pair of
choices. The two decisions then behave as one simultaneous move, and at both of them the
action is chosen by **regret matching** (outcome sampling with 10% exploration, as in
simultaneous-move MCTS, Lanctot et al. 2013) instead of UCB: deterministic UCB on both sides
of a simultaneous move runs in lockstep (both alternate in phase, and the answering seat
"guesses" every time), while regret matching converges to an equilibrium mix. At a secret root
the move is drawn from the visit distribution (the average strategy), so it is not predictable.
Where the answer reveals both (``GameBots.answer_reveals``: Revir's sealed bids), the decisions
after the answer are back in the tree below the actual pair, so the next round sees this one.

Deterministic for a given seed and an iteration budget.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any, ClassVar

from spillebord.core import Action, AnyGame, Rng, State

from .agent import Agent, Budget, Evaluator, Needs, Valuer
from .registry import bots_for, make_agent

DEFAULT_SECONDS = 1.0


def rank_value(evaluate: Evaluator) -> Valuer:
    """A value function from an evaluation: each seat's share of the other seats it is ahead
    of (ties half): scale-free, so any evaluation will do."""

    def ahead(a: float, b: float) -> float:
        return 1.0 if a > b else 0.5 if a == b else 0.0

    def value(state: State[Any]) -> list[float]:
        n = state.seats
        ev = [evaluate(state, s) for s in range(n)]
        return [sum(ahead(ev[s], ev[o]) for o in range(n) if o != s) / max(1, n - 1) for s in range(n)]

    return value


class Node:
    """A node of the search tree: statistics of the action that led here, for the seat that
    chose it (``actor``), and the children below it."""

    __slots__ = ("actor", "avail", "children", "prior", "regret", "reward", "shared", "square", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.children: dict[Action, Node] = {}
        self.shared: dict[int, Node] = {}
        """After a secret action of a child: the next seat's statistics, shared by every
        hidden alternative, keyed by that seat."""
        self.prior: dict[Action, float] | None = None
        """The game's prior weights of the actions tried or seen here (computed once each)."""
        self.regret: dict[Action, float] | None = None
        """Cumulative regrets of this node's children, where the choice here is simultaneous."""
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.square = 0.0
        """Sum of the squared rewards (the root compares its children's means with it)."""


GAMMA = 0.1
"""Exploration of regret matching at simultaneous nodes."""
SWITCH_Z = 2.0
"""How many standard errors better than the game's best bot's choice the search's choice must
look before the agent plays it instead (see :meth:`IsmctsAgent.act`)."""
SWITCH_MARGIN = 0.03
"""...and by how much at least (chance of winning): cut-off values cluster tightly, so their
standard errors understate how little a small difference means."""


class IsmctsAgent:
    """Single-observer ISMCTS over the contract (see the module docstring)."""

    name = "ismcts"
    needs: ClassVar[Needs] = Needs(determinization=True, budget=True)

    def __init__(
        self,
        game: AnyGame,
        *,
        exploration: float | None = None,
        widen: int | None = None,
        anchor: bool = True,
    ) -> None:
        kit = bots_for(game)
        self.anchor: Agent | None = None
        """The game's best bot: its choice is searched first and kept unless the search finds
        a clearly better one."""
        self.defer = kit.defer
        """Where the best bot's move is played without a search (``GameBots.defer``)."""
        self.best: Agent | None = None
        if kit.best != self.name and not kit.best.startswith("level") and (anchor or kit.defer):
            self.best = make_agent(kit.best, game)
        if anchor:
            self.anchor = self.best
        self.game = game
        self.rollout = kit.rollout
        self.prior = kit.prior
        self.secret = kit.secret
        self.answer_reveals = kit.answer_reveals
        self.value = kit.value or rank_value(kit.evaluate)
        self.cutoff = kit.cutoff
        self.exploration = exploration if exploration is not None else kit.exploration
        self.widen = widen if widen is not None else kit.widen
        self.last_iterations = 0
        self._root: Node | None = None
        self._first: Action | None = None

    # ------------------------------------------------------------------ public

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        """The search's choice. With an anchor (the game's best bot), the bot's own choice is
        searched first and played unless the search's choice looks better by more than
        ``SWITCH_Z`` standard errors of the two means and ``SWITCH_MARGIN``: a small budget
        then plays like the bot, and a larger one corrects it where its playouts are sure.
        Where the game defers the decision (``GameBots.defer``), the bot's move, unsearched."""
        legal: Sequence[Action] = state.legal()
        if len(legal) == 1:
            return legal[0]
        if self.defer is not None and self.best is not None and self.defer(state, seat):
            self.last_iterations = 0
            return self.best.act(state, seat, rng, budget)
        first = self.anchor.act(state, seat, rng, budget) if self.anchor is not None else None
        ranked = self.analyse(state, seat, rng, budget, first=first)
        root = self._root
        assert root is not None
        if self.secret is not None and self.secret(legal[0]):
            if first is not None and not self._clearly_better(
                root, max(ranked, key=lambda t: t[2])[0], first
            ):
                return first
            # a secret choice: play the average strategy, not its most frequent action
            total = sum(v for _, v, _ in ranked)
            x = rng.random() * total
            for a, v, _ in ranked:
                x -= v
                if x < 0:
                    return a
        best: Action = ranked[0][0]
        if first is not None and best != first and not self._clearly_better(root, best, first):
            return first
        return best

    @staticmethod
    def _clearly_better(root: Node, a: Action, b: Action) -> bool:
        """Whether root child ``a``'s mean beats ``b``'s by more than ``SWITCH_Z`` standard
        errors and ``SWITCH_MARGIN`` (with fewer than two visits each, nothing is clear)."""
        ca, cb = root.children.get(a), root.children.get(b)
        if ca is None or cb is None or ca.visits < 2 or cb.visits < 2:
            return False
        ma, mb = ca.reward / ca.visits, cb.reward / cb.visits
        va = max(0.0, ca.square / ca.visits - ma * ma) / (ca.visits - 1)
        vb = max(0.0, cb.square / cb.visits - mb * mb) / (cb.visits - 1)
        return ma - mb > max(SWITCH_Z * math.sqrt(va + vb), SWITCH_MARGIN)

    def analyse(
        self,
        state: State[Any],
        seat: int,
        rng: Rng,
        budget: Budget | None = None,
        first: Action | None = None,
    ) -> list[tuple[Action, int, float]]:
        """Search from ``seat``'s knowledge of ``state``; every legal action with its visits
        and estimated chance of winning, best first (hints and reviews read this). ``first``:
        an action to try before any other at the root."""
        root = Node(actor=-1)
        self._root, self._first = root, first
        iterations = budget.iterations if budget is not None and budget.iterations else None
        seconds = budget.seconds if budget is not None and budget.seconds else None
        if seconds is None and iterations is None:
            seconds = DEFAULT_SECONDS
        # both: the iterations, unless the time runs out first (a server's cap on a level)
        deadline = time.perf_counter() + seconds if seconds is not None else math.inf
        n = 0
        while True:
            if iterations is not None and n >= iterations:
                break
            if n % 8 == 0 and time.perf_counter() >= deadline:
                break
            self._iterate(root, state.determinize(seat, rng), rng)
            n += 1
        self.last_iterations = n
        out = []
        for a in state.legal():
            child = root.children.get(a)
            if child is None or not child.visits:
                out.append((a, 0, 0.0))
            else:
                out.append((a, child.visits, child.reward / child.visits))
        out.sort(key=lambda t: (-t[1], -t[2]))
        return out

    # ------------------------------------------------------------------ search

    def _iterate(self, root: Node, d: State[Any], rng: Rng) -> None:
        path: list[Node] = [root]
        sampled: list[tuple[Node, Sequence[Action], Action, list[float], int]] = []
        stats = tree = root  # where this decision's statistics live / where the tree goes on
        answering = False  # this decision answers a secret one
        while d.to_act is not None:
            actor = d.to_act
            legal = d.legal()
            if self.secret is not None and (answering or self.secret(legal[0])):
                action, child, new, sigma = self._regret_match(stats, actor, legal, rng)
                sampled.append((stats, legal, action, sigma, actor))
            else:
                action, child, new = self._select(stats, actor, legal, d, rng)
            path.append(child)
            if stats is tree:
                below = child
            else:  # after a secret action: the tree continues below the actual pair of choices
                existing = tree.children.get(action)
                below = existing if existing is not None else Node(actor)
                tree.children[action] = below
            d.play(action)
            if (
                self.secret is not None
                and d.to_act is not None
                and d.to_act != actor
                and self.secret(action)
                and not (answering and self.answer_reveals)  # the answer uncovers both
            ):
                shared = stats.shared.get(d.to_act)
                if shared is None:
                    shared = stats.shared[d.to_act] = Node(actor)
                stats, tree, answering = shared, below, True
            else:
                stats, tree, answering = below, below, False
            if new:
                break
        values = self._playout(d, rng)
        for nd in path:
            nd.visits += 1
            if nd.actor >= 0:
                v = values[nd.actor]
                nd.reward += v
                nd.square += v * v
        for node, legal, action, sigma, actor in sampled:
            # outcome sampling: the sampled action's value over its probability, the rest 0
            v = values[actor]
            regret = node.regret
            assert regret is not None
            for a, p in zip(legal, sigma, strict=True):
                regret[a] = regret.get(a, 0.0) + (v / p if a == action else 0.0) - v

    def _regret_match(
        self, node: Node, actor: int, legal: Sequence[Action], rng: Rng
    ) -> tuple[Action, Node, bool, list[float]]:
        """Sample an action by regret matching with exploration; (action, child, new, the
        probabilities of ``legal``)."""
        if node.regret is None:
            node.regret = {}
        regret = node.regret
        positive = [max(regret.get(a, 0.0), 0.0) for a in legal]
        total = sum(positive)
        k = len(legal)
        uniform = [1.0 / k] * k
        sigma = [(1 - GAMMA) * p / total + GAMMA / k for p in positive] if total > 0 else uniform
        x = rng.random()
        i = 0
        while i < k - 1 and x >= sigma[i]:
            x -= sigma[i]
            i += 1
        action = legal[i]
        child = node.children.get(action)
        new = child is None
        if child is None:
            child = node.children[action] = Node(actor)
        return action, child, new, sigma

    def _select(
        self, node: Node, actor: int, legal: Sequence[Action], d: State[Any], rng: Rng
    ) -> tuple[Action, Node, bool]:
        """UCB1 with availability counts among the expanded legal actions, or a new child while
        the widening allows one; (action, child, whether it is new)."""
        children = node.children
        limit = max(self.widen, int(self.widen * math.sqrt(node.visits + 1)))
        if len(children) < limit:
            untried = [a for a in legal if a not in children]
            if untried:
                first = self._first
                if node is self._root and first is not None and first in untried:
                    action = first
                elif self.prior is not None and len(untried) > 1:
                    known = node.prior
                    if known is None:
                        known = node.prior = {}
                    fresh = [a for a in untried if a not in known]
                    if fresh:  # each action is weighed once per node, not on every expansion
                        known.update(zip(fresh, self.prior(d, fresh), strict=True))
                    top = max(known[a] for a in untried)
                    tops = [a for a in untried if known[a] == top]
                    action = tops[0] if len(tops) == 1 else rng.choice(tops)
                else:
                    action = untried[0] if len(untried) == 1 else rng.choice(untried)
                child = children[action] = Node(actor)
                return action, child, True
        c = self.exploration
        best: Node | None = None
        best_action: Action | None = None
        best_u = -1.0
        for a in legal:
            ch = children.get(a)
            if ch is None or not ch.visits:
                continue
            ch.avail += 1
            u = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if u > best_u:
                best_u, best, best_action = u, ch, a
        if best is None or best_action is None:  # nothing expanded is legal here
            action = rng.choice(list(legal))
            child = children.get(action) or Node(actor)
            children[action] = child
            return action, child, True
        return best_action, best, False

    def _playout(self, d: State[Any], rng: Rng) -> Sequence[float]:
        policy = self.rollout
        for _ in range(self.cutoff):
            if d.to_act is None:
                break
            d.play(policy(d, rng) if policy is not None else rng.choice(d.legal()))
        if d.to_act is None:
            out = d.outcome()
            assert out is not None
            return out
        return self.value(d)
