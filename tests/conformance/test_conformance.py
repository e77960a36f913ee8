"""The contract, checked for every registered game (a new game gets these for free).

For random games with Hypothesis-chosen seeds, at every decision:
- ``check()`` invariants hold (conservation and the like);
- ``legal()`` is non-empty exactly while the game runs, texts are unique and round-trip
  through ``parse``; every action's JSON form is JSON with a ``kind``;
- every view is JSON and is unchanged when ``determinize`` re-deals what that seat cannot see;
  the acting seat's legal list is unchanged too; and ``determinize`` depends only on what the
  seat sees: a state and its determinization give equal samples for the same seed;
- a sample of legal actions applies on a copy (soundness) and copies are independent;
- a sample of actions that are not legal is refused with IllegalAction, state unchanged;
and at the end: a normalized outcome per seat (the same for every seat of a side, shares of
1 for the winners) and the game's scores, and replaying the action texts gives an equal state.
Random games at the default options end, or stop truncated at the declared bound.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spillebord.core import AnyGame, IllegalAction, Rng, State, registry
from spillebord.core.options import build as build_options
from spillebord.tables import replay_texts
from toygame import TOY

registry.register(TOY)
GAMES = registry.all_games()
CASES = [
    pytest.param(g, n, id=f"{g.id}-{n}p") for g in GAMES for n in sorted({g.seats.start, g.seats.stop - 1})
]


def _canon(x: Any) -> str:
    return json.dumps(x, sort_keys=True, ensure_ascii=False)


def run_random_game(game: AnyGame, seats: int, seed: int, deep_every: int = 1) -> None:
    options = build_options(game.Options, game.quick_options)
    state = game.new(seats, seed, options)
    rng = Rng(seed ^ 0x5EED)
    texts: list[str] = []
    previous_texts: list[str] = []
    steps = 0
    while True:
        state.check()
        legal = state.legal()
        if state.to_act is None:
            assert not legal, "legal() must be empty once the game is over"
            break
        assert legal, "legal() is empty but the game is not over"
        assert 0 <= state.to_act < seats
        deep = steps % deep_every == 0
        if deep:
            ltexts = [str(a) for a in legal]
            assert len(set(ltexts)) == len(ltexts), f"duplicate action texts: {ltexts}"
            for a in legal[:50]:
                assert game.parse(state, str(a)) == a, f"text form does not round-trip: {a}"
                j = a.to_json()
                assert isinstance(j.get("kind"), str)
                json.dumps(j)
            for seat in [None, *range(seats)]:
                v = state.view(seat)
                text = _canon(v)
                if seat is not None:
                    d = state.determinize(seat, rng.spawn())
                    assert _canon(d.view(seat)) == text, f"seat {seat}'s view changed under determinize"
                    # d differs from state only in what seat cannot see: with the same
                    # seed, both must give the very same sample (fair by construction).
                    k = rng.randrange(2**32)
                    assert state.determinize(seat, Rng(k)) == d.determinize(seat, Rng(k)), (
                        f"seat {seat}'s determinize depends on what it cannot see"
                    )
                    if seat == state.to_act:
                        assert [str(a) for a in d.legal()] == ltexts, "legal() changed under determinize"
            # Illegal actions: texts legal a moment ago but not now are refused, state unchanged.
            now = set(ltexts)
            for t in [*[t for t in previous_texts if t not in now][:5], "", "nonsense 99 zz"]:
                before = state.copy()
                with pytest.raises(IllegalAction):
                    state.play(game.parse(state, t))
                assert state == before, f"a refused action {t!r} changed the state"
            # Soundness: a few legal actions apply on copies; the original is untouched.
            before = state.copy()
            for a in [legal[0], legal[-1], rng.choice(legal)]:
                c = state.copy()
                c.play(a)
            assert state == before, "playing on a copy changed the original"
            previous_texts = ltexts
        action = rng.choice(legal)
        state.play(action)
        texts.append(str(action))
        steps += 1
        assert steps <= game.kind.max_decisions, f"no end after {steps} decisions"
    assert state.decisions == steps
    check_outcome(state)
    again = replay_texts(game, seats, seed, options, texts)
    assert again == state, "replaying the action texts gave a different state"


def check_outcome(state: State[Any]) -> None:
    """A finished game's outcome is normalized: per seat in [0, 1], equal within a side, the
    winners' sides share 1; scores are a number per seat."""
    seats = state.seats
    out = state.outcome()
    assert out is not None and len(out) == seats, f"outcome {out} for {seats} seats"
    assert all(0.0 <= v <= 1.0 for v in out), f"outcome {out} is not normalized"
    teams = state.teams()
    assert sorted(s for side in teams for s in side) == list(range(seats)), (
        f"teams {teams} are not a partition"
    )
    for side in teams:
        assert len({out[s] for s in side}) == 1, f"outcome {out} differs within the side {side}"
    assert abs(sum(out[side[0]] for side in teams) - 1.0) < 1e-9, (
        f"outcome {out}: the sides' shares do not sum to 1"
    )
    scores = state.scores()
    assert len(scores) == seats and all(isinstance(v, float) for v in scores), f"scores {scores}"
    if state.truncated:
        assert state.decisions == state.game.kind.max_decisions


# Whole random games are long; 8 seeds per game and seat count keep the suite quick, and
# SPILLEBORD_CONFORMANCE_EXAMPLES=200 (CI's slow job, or by hand) looks much harder.
EXAMPLES = int(os.environ.get("SPILLEBORD_CONFORMANCE_EXAMPLES", "8"))


@pytest.mark.parametrize(("game", "seats"), CASES)
@settings(max_examples=EXAMPLES)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_contract(game: AnyGame, seats: int, seed: int) -> None:
    run_random_game(game, seats, seed, deep_every=max(1, game.kind.max_decisions // 20_000))


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_random_games_at_default_options_end_within_the_bound(game: AnyGame, seats: int) -> None:
    for seed in range(2):
        state = game.new(seats, seed)
        rng = Rng(seed)
        while state.to_act is not None:
            state.play(rng.choice(state.legal()))
            assert state.decisions <= game.kind.max_decisions
        assert state.legal() == [] or list(state.legal()) == []
        check_outcome(state)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_the_game_declares_its_kind(game: AnyGame) -> None:
    kind = game.kind
    assert kind.max_decisions > 0
    for n in game.seats:
        teams = game.teams(n)
        assert sorted(s for side in teams for s in side) == list(range(n))
    assert isinstance(game.version, int) and game.version >= 1


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_same_seed_same_game(game: AnyGame, seats: int) -> None:
    options = build_options(game.Options, game.quick_options)
    a, b = game.new(seats, 42, options), game.new(seats, 42, options)
    assert a == b
    assert _canon(a.view(0)) == _canon(b.view(0))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_options_have_defaults_and_help(game: AnyGame) -> None:
    from spillebord.core.options import schema

    game.Options()  # every field has a default
    for entry in schema(game.Options):
        assert entry["help"], f"option {entry['name']} of {game.id} has no help text"
    build_options(game.Options, game.quick_options)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_wrong_seat_counts_are_refused(game: AnyGame) -> None:
    from spillebord.core import OptionError

    for n in (game.seats.start - 1, game.seats.stop):
        with pytest.raises(OptionError):
            game.new(n, 0)
