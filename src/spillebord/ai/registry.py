"""Which bots a game has: generic agents, each game's own kit, and the fair way to ask one."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from spillebord.core import Action, AnyGame, Rng, State
from spillebord.core.errors import SpillebordError

from .agent import (
    Agent,
    AgentFactory,
    Budget,
    Evaluator,
    OnePly,
    Policy,
    Prior,
    SearcherFactory,
    Valuer,
    evaluate_by_outcome,
)


@dataclass(frozen=True)
class GameBots:
    """A game's own bots, registered from its package (``bots.py``)."""

    evaluate: Evaluator = evaluate_by_outcome
    """The game's evaluation (greedy uses it; search uses it to cut rollouts off)."""
    agents: Mapping[str, AgentFactory] = field(default_factory=dict)
    """The game's own agents, name → factory(game)."""
    best: str = "greedy"
    """The strongest agent's name (``--bots best``, the server's default bot)."""
    rollout: Policy | None = None
    """A fast playout policy for search (default: a uniformly random legal action)."""
    value: Valuer | None = None
    """Each seat's chance of winning from a position where a playout is cut off, in [0, 1]
    (default: from :attr:`evaluate`, by rank: the share of the other seats a seat is ahead of)."""
    cutoff: int = 40
    """Decisions a search playout runs before :attr:`value` judges the position."""
    prior: Prior | None = None
    """Weights of untried actions: search expands the heaviest first (progressive widening)."""
    values: OnePly | None = None
    """``values(state, seat, actions)``: :attr:`evaluate` for ``seat`` after each action,
    computed without copying and playing where the game knows how (the same floats, so the
    same choices): greedy and the Beginner use it. ``None``: copy, play and evaluate."""
    secret: Callable[[Action], bool] | None = None
    """Which actions are secret choices (a sealed bid, a card passed face down): search keeps
    the next seat's statistics independent of them (see :mod:`spillebord.ai.ismcts`)."""
    answer_reveals: bool = False
    """The answer to a secret action reveals both (Revir's sealed bids: the defender's bid
    uncovers the attacker's): the decisions after the answer see them, even when the answer is
    itself a secret action. ``False``: a chain of secret actions stays hidden (Partners'
    exchange)."""
    exploration: float = 0.7
    """UCB1's exploration constant (values are chances of winning, in [0, 1])."""
    widen: int = 8
    """Progressive widening: a search node with ``n`` visits has at most ``widen · √n``
    children (at least ``widen``)."""
    scale: float = 1.0
    """A difference of :attr:`evaluate` that matters: the one that makes a 73% favourite
    (the levels' softmax reads its temperature in these units)."""
    iterations: int = 1000
    """Search iterations of about one second on one core at mid-game (the levels' budgets)."""
    search: SearcherFactory | None = None
    """The game's own search agent, where the generic one does not suit it (88's exact round
    search): ``ismcts`` and the levels 4–5 use it for this game. It must offer
    ``analyse`` as :class:`~spillebord.ai.ismcts.IsmctsAgent` does (hints and reviews ask it).
    ``None``: the generic ISMCTS."""
    levels: Mapping[int, str] = field(default_factory=dict)
    """Levels played by one of the game's own agents instead of the default (level → agent
    name; only 3 and 4): where the search at the Expert's budget is not stronger than
    :attr:`best`, the Expert plays :attr:`best` and the Club player a weaker heuristic, so that
    each level still beats the one below (Metscri). The Casual player makes its mistakes on
    top of the Club player's bot."""
    defer: Callable[[State[Any], int], bool] | None = None
    """Decisions not worth a search (``(state, seat) -> bool``, from what ``seat`` knows): a
    ship's next step along a route already chosen, a forced-looking move. There the search
    plays :attr:`best`'s move at once and keeps its budget for the decisions that matter."""

    def __post_init__(self) -> None:
        # the Beginner's softmax and the Master's search are what make the ends of the ladder
        if not set(self.levels) <= {3, 4}:
            raise ValueError(f"GameBots.levels names levels 3 and 4 only, not {sorted(self.levels)}")


_AGENTS: dict[str, AgentFactory] = {}
_BOTS: dict[str, GameBots] = {}
_ALIASES: dict[str, str] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    """A generic agent, for every game."""
    _AGENTS[name] = factory


def register_alias(alias: str, name: str) -> None:
    """Another name for an agent (``master`` for ``level5``): accepted wherever a bot is named,
    never listed, so that lists show each agent once."""
    _ALIASES[alias] = name


def register_bots(game: AnyGame, bots: GameBots) -> None:
    """Register a game's own evaluation and agents (called from the game package)."""
    _BOTS[game.id] = bots


def bots_for(game: AnyGame) -> GameBots:
    """The game's registered bots (an empty kit for a game that has none)."""
    return _BOTS.get(game.id) or GameBots()


def evaluate(game: AnyGame, state: State[Any], seat: int) -> float:
    """The game's evaluation of ``state`` for ``seat``."""
    return bots_for(game).evaluate(state, seat)


def best_agent(game: AnyGame) -> str:
    return bots_for(game).best


def agent_names(game: AnyGame | None = None) -> list[str]:
    names = list(_AGENTS)
    if game is not None:
        names += [n for n in bots_for(game).agents if n not in names]
    return names


def canonical(name: str) -> str:
    """The agent an alias stands for (``master`` → ``level5``); any other name as it is."""
    return _ALIASES.get(name.lower(), name)


def make_agent(name: str, game: AnyGame) -> Agent:
    """An agent by name: a game's own agents first, then the generic ones (``best``: the
    game's strongest)."""
    kit = bots_for(game)
    name = canonical(name)
    if name in ("all", "best"):
        name = kit.best
    if name == "ismcts" and kit.search is not None:
        return kit.search(game)
    factory = kit.agents.get(name) or _AGENTS.get(name)
    if factory is None:
        raise SpillebordError(f"no agent {name!r} for {game.title}; known: {', '.join(agent_names(game))}")
    return factory(game)


def decide(agent: Agent, state: State[Any], rng: Rng, budget: Budget | None = None) -> Action:
    """The fair way to ask an agent: it gets a determinization from the acting seat."""
    seat = state.to_act
    if seat is None:
        raise SpillebordError("the game is over: nobody is to act")
    if agent.needs.determinization:
        return agent.act(state.determinize(seat, rng), seat, rng, budget)
    return agent.act(state, seat, rng, budget)
