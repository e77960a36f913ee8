"""Agents speak only the contract, and only ever see their own seat's knowledge."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from spillebord.ai import Budget, GreedyAgent, Needs, RandomAgent, best_agent, decide, make_agent
from spillebord.core import Action, Rng, SpillebordError, State, registry
from spillebord.testing import play_match
from toygame import TOY, ToyState

registry.register(TOY)


class Spy:
    """Records the states it is shown."""

    name = "spy"
    needs: ClassVar[Needs] = Needs(determinization=True, budget=True)

    def __init__(self) -> None:
        self.seen: list[State[Any]] = []
        self.budgets: list[Budget | None] = []

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        self.seen.append(state)
        self.budgets.append(budget)
        return state.legal()[0]


def test_decide_hands_agents_a_determinization_not_the_real_state() -> None:
    state = TOY.new(2, seed=1)
    spy = Spy()
    decide(spy, state, Rng(9))
    shown = spy.seen[0]
    assert shown is not state
    assert isinstance(shown, ToyState)
    assert shown.hands[0] == state.hands[0]  # its own hand is its own
    assert shown.view(0) == state.view(0)


def test_decide_passes_the_thinking_budget() -> None:
    spy = Spy()
    decide(spy, TOY.new(2, seed=1), Rng(9), Budget(iterations=50))
    assert spy.budgets == [Budget(iterations=50)]


def test_opponent_hands_are_resampled_for_the_agent() -> None:
    state = TOY.new(2, seed=1)
    spy = Spy()
    for k in range(20):
        decide(spy, state, Rng(k))
    assert len({s.hands[1] for s in spy.seen}) > 1  # type: ignore[attr-defined]


def test_make_agent_by_name() -> None:
    assert isinstance(make_agent("random", TOY), RandomAgent)
    assert isinstance(make_agent("greedy", TOY), GreedyAgent)
    assert best_agent(TOY) == "greedy"
    assert isinstance(make_agent("all", TOY), GreedyAgent)
    assert make_agent("lowest", TOY).name == "lowest"  # the game's own, from its bot kit
    with pytest.raises(SpillebordError, match="no agent 'alphazero'"):
        make_agent("alphazero", TOY)


def test_greedy_takes_the_trick_with_its_cheapest_winning_card() -> None:
    state = TOY.new(2, seed=0)
    state.hands = [(2, 4, 5), (3, 7, 11)]
    state.play(state.legal()[2])  # seat 0 leads 5
    greedy = make_agent("greedy", TOY)
    for k in range(10):
        assert str(greedy.act(state, 1, Rng(k))) == "play 7"


def test_greedy_does_better_than_random_at_the_toy_game() -> None:
    wins = losses = 0
    for g in range(200):
        greedy_seat = g % 2
        names = ["greedy", "random"] if greedy_seat == 0 else ["random", "greedy"]
        out = play_match(TOY, names, seed=g).outcome
        wins += out[greedy_seat] == 1.0
        losses += out[greedy_seat] == 0.0
    assert wins > losses * 1.2, (wins, losses)


def test_every_bot_is_named_in_the_four_languages_of_the_web_table() -> None:
    """A seat's bot is shown by its ``level_<name>`` word (``web/people.js``, the lobby's levels
    line): every bot any game registers has one in English, Danish, Swedish and Norwegian."""
    import re
    from pathlib import Path

    from spillebord.ai.registry import agent_names
    from spillebord.core import registry as games

    js = (Path(__file__).parents[2] / "src/spillebord/web/i18n.js").read_text(encoding="utf-8")
    blocks = re.split(r"\n  (en|da|sv|no): \{", js)
    langs = dict(zip(blocks[1::2], blocks[2::2], strict=True))
    assert sorted(langs) == ["da", "en", "no", "sv"]
    ours = [g for g in games.all_games() if type(g).__module__.startswith("spillebord.games.")]
    names = {n for g in ours for n in agent_names(g) if not n.startswith("level")}
    assert "stager" in names
    for lang, text in langs.items():
        missing = sorted(n for n in names if f"level_{n}:" not in text)
        assert not missing, (lang, missing)
