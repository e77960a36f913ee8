"""Agents that speak only the contract.

An agent never sees the true state: :func:`decide` hands it a determinization from its
own seat (what it cannot see re-dealt), so every bot is a fair bot.

Games bring their own bots beside their rules: a game package's ``bots`` module defines its
evaluation and agents and registers them with :func:`register_bots` from the package's
``__init__`` (the rules never import the bots). Generic agents (``random``, ``greedy``) are
registered here and work for every game.
"""

from __future__ import annotations

from .agent import Agent, AgentFactory, Budget, Evaluator, Needs, evaluate_by_outcome
from .greedy import GreedyAgent
from .ismcts import IsmctsAgent
from .levels import LEVEL_NAMES, LevelAgent, register_levels
from .random_agent import RandomAgent
from .registry import (
    GameBots,
    agent_names,
    best_agent,
    bots_for,
    canonical,
    decide,
    evaluate,
    make_agent,
    register_agent,
    register_bots,
)

register_agent("random", RandomAgent)
register_agent("greedy", GreedyAgent)
register_agent("ismcts", IsmctsAgent)
register_levels()

__all__ = [
    "LEVEL_NAMES",
    "Agent",
    "AgentFactory",
    "Budget",
    "Evaluator",
    "GameBots",
    "GreedyAgent",
    "IsmctsAgent",
    "LevelAgent",
    "Needs",
    "RandomAgent",
    "agent_names",
    "best_agent",
    "bots_for",
    "canonical",
    "decide",
    "evaluate",
    "evaluate_by_outcome",
    "make_agent",
    "register_agent",
    "register_bots",
]
