"""Kasino's bots: one ply of the evaluation computed without playing gives the same numbers.

``bots.action_values`` scores every legal action by moving the cards in its head instead of
copying the state and playing the action (the greedy bot's and the search playouts' hot
path). Its values must be the very floats of copy + play + ``evaluate``, so that every choice
(ties broken by the first best) stays the same.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_kasino_pinned import variants

from spillebord.ai import make_agent
from spillebord.core import Rng
from spillebord.games.kasino import GAME, KasinoOptions
from spillebord.games.kasino.bots import action_values, evaluate, greedy_choice
from spillebord.games.kasino.rules import KasinoState


def played_values(state: KasinoState, seat: int) -> list[float]:
    out = []
    for a in state.legal():
        s = state.copy()
        s.play(a)
        out.append(evaluate(s, seat))
    return out


def positions(index: int, opts: dict[str, Any], games: int = 2) -> list[KasinoState]:
    """Every position of ``games`` games (2, 3 or 4 seats), half greedy, half random moves, so
    that builds, raises, extensions, clears and sweeps all come up."""
    out = []
    for g in range(games):
        seats = 2 + (index + g) % 3
        o = KasinoOptions(**opts, partnerships=seats == 4 and index % 2 == 1)
        s = GAME.new(seats, 500 * index + g, o)
        rng = Rng(31 + g)
        while s.to_act is not None:
            out.append(s.copy())
            legal = s.legal()
            a = rng.choice(legal) if rng.random() < 0.5 else greedy_choice(s, s.to_act, rng)
            s.play(a)
    return out


@pytest.mark.parametrize("index", range(20))
def test_action_values_are_the_values_of_playing_each_action(index: int) -> None:
    opts = variants()[index]
    kinds: set[str] = set()
    sweeps = 0
    for s in positions(index, opts):
        for seat in range(s.seats):
            assert action_values(s, seat, s.legal()) == played_values(s, seat), (index, seat, s.legal())
        kinds.update(type(a).__name__ for a in s.legal())
        sweeps += sum(s.sweeps)
    assert {"Trail", "Capture", "Build"} <= kinds
    assert sweeps > 0


def test_action_values_at_the_decision_bound() -> None:
    """One decision before the bound, every play ends the game (truncated): the values are the
    finished game's, as playing gives."""
    s = GAME.new(2, 5)
    rng = Rng(5)
    for _ in range(9):
        s.play(rng.choice(s.legal()))
    assert s.to_act is not None and len(s.hands[s.to_act]) > 1  # not the hand's last play
    s.decisions = GAME.kind.max_decisions - 1
    assert action_values(s, 0, s.legal()) == played_values(s, 0)
    assert action_values(s, 1, s.legal()) == played_values(s, 1)


def test_greedy_agent_and_playout_choice_unchanged() -> None:
    """The generic greedy agent (the arena's opponent) and the playouts' first-best choice pick
    what one ply of copy + play picks, over the positions of a few games."""
    agent = make_agent("greedy", GAME)
    for s in positions(3, {}, games=3):
        p = s.to_act
        assert p is not None
        legal = s.legal()
        vals = played_values(s, p)
        top = max(vals)
        first = legal[vals.index(top)]
        assert greedy_choice(s, p, Rng(1)) is first
        best = [a for a, v in zip(legal, vals, strict=True) if v == top]
        expect = best[0] if len(best) == 1 else Rng(9).choice(best)
        assert agent.act(s, p, Rng(9)) is expect
