"""Which decisions may be taken back (undo inside a turn): the engine's word for it,
:meth:`State.reversible`. A reversible action draws no chance and reveals nothing hidden; the
default is that no action is; Fuldrigger opts in for its square-by-square sailing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spillebord.core import State, registry
from spillebord.games.fuldrigger.actions import Sail, Stop
from spillebord.tables import Table

OPTED_IN = {"fuldrigger"}
"""Games whose rules let a player take back some decisions."""


def sailing_policy(rnd: random.Random, state: State[Any]) -> Any:
    """A Fuldrigger player who mostly sails (and passes windows, ends turns, skips offers)."""
    legal = list(state.legal())
    texts = [str(a) for a in legal]
    sails = [a for a, t in zip(legal, texts, strict=True) if t.startswith(("sail", "stop"))]
    if sails and rnd.random() < 0.9:
        return rnd.choice(sails)
    for word in ("pass", "later", "decline", "cancel", "end"):
        for a, t in zip(legal, texts, strict=True):
            if t.startswith(word):
                return a
    calm = [
        a for a, t in zip(legal, texts, strict=True) if not t.startswith(("offer", "give", "ask", "truce"))
    ]
    return rnd.choice(calm or legal)


def playout(game_id: str, seed: int, steps: int, policy: Any = None) -> list[tuple[State[Any], Any]]:
    """(state before, action) for each decision of a playout (the states are copies)."""
    game = registry.get(game_id)
    state = game.new(min(game.seats), seed, game.Options(**dict(game.quick_options)))
    rnd = random.Random(seed)
    out = []
    for _ in range(steps):
        if state.to_act is None:
            break
        a = policy(rnd, state) if policy is not None else rnd.choice(list(state.legal()))
        out.append((state.copy(), a))
        state.play(a)
    return out


@pytest.mark.parametrize("game_id", sorted(g.id for g in registry.all_games() if g.id not in OPTED_IN))
def test_games_that_did_not_opt_in_have_no_reversible_action(game_id: str) -> None:
    for state, a in playout(game_id, 1, 150):
        assert state.reversible(a) is False


def test_fuldrigger_only_sailing_steps_are_reversible() -> None:
    kinds: dict[tuple[str, bool], int] = {}
    for seed in range(4):
        for state, a in playout("fuldrigger", seed, 300, sailing_policy):
            rev = state.reversible(a)
            kinds[(type(a).__name__, rev)] = kinds.get((type(a).__name__, rev), 0) + 1
            if rev:
                assert isinstance(a, (Sail, Stop))
    assert (
        kinds.get(("Sail", True), 0) > 10 and kinds.get(("Stop", True), 0) + kinds.get(("Sail", False), 0) > 0
    )
    assert not any(rev for (name, rev) in kinds if name not in ("Sail", "Stop"))


def test_fuldrigger_a_reversible_step_draws_no_chance_and_turns_no_card() -> None:
    seen = {True: 0, False: 0}
    for seed in range(6):
        for state, a in playout("fuldrigger", seed, 300, sailing_policy):
            if not isinstance(a, (Sail, Stop)):
                continue
            before = state.copy()
            rev = state.reversible(a)
            assert state == before, "reversible() leaves the state as it was"
            after = state.copy()
            events = after.play(a)
            drew = after.rolled != state.rolled or after.rng != state.rng or after.deck != state.deck
            assert rev == (not drew), (str(a), events)
            seen[rev] += 1
            # Hazard rolls (storm, iceberg, calm, unknown reef, pirates) are chance: never reversible.
            if any("roll" in e for e in events):
                assert not rev
    assert seen[True] and seen[False], seen


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), steps=st.integers(5, 250))
def test_undo_then_replay_reaches_the_same_state(seed: int, steps: int) -> None:
    """Take back the last action (replay the log without it), then play it again: the same state
    as before the undo, byte for byte (and the undone state is the one before the action)."""
    table = Table.create("fuldrigger", 2, seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if table.is_over:
            break
        before = table.state.copy()
        a = sailing_policy(rnd, table.state)
        rev = table.state.reversible(a)
        acting = table.to_act
        table.act(None, str(a))
        if rev and table.to_act == acting:
            undone = Table.from_record(table.to_record(), upto=len(table.log) - 1)
            assert undone.state == before
            undone.act(None, str(a))
            assert undone.state == table.state and undone.log == table.log
