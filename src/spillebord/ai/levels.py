"""Five levels of play for every game, from a beginner who makes human-like mistakes to a master
who thinks longer (``level1`` … ``level5``, or by what they are called, ``--bots club`` for
``level3``; the lobby's level choice).

=========  ==========  =================================================================
name       called      how it plays
=========  ==========  =================================================================
level1     Beginner    a softmax over one ply of the game's evaluation, temperature
                       ``scale``: it prefers good moves but often misses the best one
level2     Casual      the game's best heuristic bot, but every other decision (on average) is a
                       beginner's
level3     Club        the game's best heuristic bot
level4     Expert      ISMCTS with a quarter of the master's budget
level5     Master      ISMCTS with the game's one-second budget (``GameBots.iterations``)
=========  ==========  =================================================================

A game may have a level played by another of its bots (``GameBots.levels``): at Metscri,
where the search at the Expert's budget is no stronger than the best heuristic bot, the Club
player is the planner, the Casual player the planner with a beginner's mistakes and the Expert
the gatherer, so that each level still beats the one below; the Master searches on the game's
best bot (the stager).

A level's budget is iterations, so a level plays the same on a busy server as on an idle one
(and the same seed gives the same game). An explicit iteration budget (``level5@2000it``)
replaces the master's; the expert then thinks a quarter of it. A time budget (the server's)
only caps a level: it stops early if the time runs out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

from spillebord.core import Action, AnyGame, Rng, SpillebordError, State

from .agent import Agent, AgentFactory, Budget, Needs, OnePly, Searcher
from .greedy import one_ply
from .ismcts import IsmctsAgent
from .registry import bots_for, make_agent, register_agent, register_alias

LEVEL_NAMES = {1: "Beginner", 2: "Casual", 3: "Club", 4: "Expert", 5: "Master"}
"""The friendly name of each level (docs/bots.md describes them)."""
MISTAKES = 0.5
"""Share of a Casual player's decisions made like a Beginner."""
EXPERT_SHARE = 4
"""The expert thinks ``1 / EXPERT_SHARE`` of the master's budget."""


def softmax_choice(
    state: State[Any], seat: int, rng: Rng, temperature: float, evaluate: Any, values: OnePly | None = None
) -> Action:
    """Pick an action with probability ∝ exp(value / temperature), the value being one ply of
    ``evaluate`` for ``seat`` (through the game's ``values`` where it has them)."""
    legal: Sequence[Action] = state.legal()
    if len(legal) == 1:
        return legal[0]
    vals = one_ply(state, seat, legal, evaluate, values)
    top = max(vals)
    weights = [math.exp(max(-50.0, (v - top) / temperature)) for v in vals]
    x = rng.random() * sum(weights)
    for a, w in zip(legal, weights, strict=True):
        x -= w
        if x < 0:
            return a
    return legal[-1]


class LevelAgent:
    """One of the five levels (see the module docstring)."""

    needs: ClassVar[Needs] = Needs(determinization=True, budget=True)

    def __init__(self, game: AnyGame, level: int) -> None:
        kit = bots_for(game)
        self.game = game
        self.level = level
        self.name = f"level{level}"
        self.title = LEVEL_NAMES[level]
        self.evaluate = kit.evaluate
        self.values = kit.values
        self.temperature = kit.scale
        self.iterations = kit.iterations
        bot = kit.levels.get(3 if level == 2 else level)
        if bot is None and level in (2, 3):
            bot = kit.best
        self.heuristic: Agent | None = make_agent(bot, game) if bot is not None else None
        """The bot this level plays (levels 2–3, and where the game says so, ``GameBots.levels``)."""
        self.search: Searcher | None = None
        """The search (levels 4–5): the game's own (``GameBots.search``) or the generic ISMCTS."""
        if level >= 4 and self.heuristic is None:
            self.search = kit.search(game) if kit.search is not None else IsmctsAgent(game)

    def budget(self, budget: Budget | None) -> Budget:
        """The search budget of this level for a given (or no) budget."""
        share = EXPERT_SHARE if self.level == 4 else 1
        if budget is not None and budget.iterations:
            return Budget(iterations=max(1, budget.iterations // share))
        own = max(1, self.iterations // share)
        if budget is not None and budget.seconds:  # a time limit (the server's) caps the level
            return Budget(seconds=budget.seconds, iterations=own)
        return Budget(iterations=own)

    def analyse(
        self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None
    ) -> list[tuple[Action, int, float]]:
        """The search's ranking at this level's budget (hints and reviews ask the master)."""
        if self.search is None:
            raise SpillebordError(f"{self.title} ({self.name}) does not search: ask the Master (level5)")
        return self.search.analyse(state, seat, rng, self.budget(budget))

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        legal: Sequence[Action] = state.legal()
        if len(legal) == 1:
            return legal[0]
        if self.search is not None:
            return self.search.act(state, seat, rng, self.budget(budget))
        if self.heuristic is not None and (self.level != 2 or rng.random() >= MISTAKES):
            return self.heuristic.act(state, seat, rng, budget)
        return softmax_choice(state, seat, rng, self.temperature, self.evaluate, self.values)


def ladder(game: AnyGame) -> dict[int, tuple[str, int]]:
    """What each level plays at ``game``, read from the level agents themselves: ``(agent
    name, 0)`` for a bot (the Casual player's is the one it makes its mistakes on),
    ``("search", iterations)`` for a search at its default budget, ``("softmax", 0)`` for the
    Beginner."""
    out: dict[int, tuple[str, int]] = {}
    for level in LEVEL_NAMES:
        agent = LevelAgent(game, level)
        if agent.heuristic is not None:
            out[level] = (agent.heuristic.name, 0)
        elif agent.search is not None:
            out[level] = ("search", agent.budget(None).iterations or 0)
        else:
            out[level] = ("softmax", 0)
    return out


def register_levels() -> None:
    """Register ``level1`` … ``level5`` as generic agents (every game has them)."""

    def factory(level: int) -> AgentFactory:
        def make(game: AnyGame) -> Agent:
            return LevelAgent(game, level)

        return make

    for level, called in LEVEL_NAMES.items():
        register_agent(f"level{level}", factory(level))
        register_alias(called.lower(), f"level{level}")
