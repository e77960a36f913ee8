"""Observations: fixed shape, from the seat's own view only."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from spillebord.core import Rng, registry
from spillebord.envs.observe import DIM, SEAT_SLOTS
from spillebord.envs.session import Session, Spec

GAMES = [g.id for g in registry.all_games() if type(g).__module__.startswith("spillebord.games.")]
SPECS: dict[str, Spec] = {}


def spec(game_id: str) -> Spec:
    if game_id not in SPECS:
        SPECS[game_id] = Spec(game_id, 2 if game_id != "partners" else 4)
    return SPECS[game_id]


def walk(game_id: str, seed: int, steps: int) -> Session:
    s = Session(spec(game_id), seed)
    rng = Rng(seed)
    for _ in range(steps):
        if s.to_act is None:
            break
        s.step(rng.choice(s.legal_tokens()))
    return s


@pytest.mark.parametrize("game_id", GAMES)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 200), other=st.integers(0, 2**32))
def test_hidden_cards_of_others_do_not_change_an_observation(
    game_id: str, seed: int, steps: int, other: int
) -> None:
    """Two states that differ only in what ``seat`` cannot see (a determinization from its seat:
    the others' hands re-dealt) give ``seat`` the same observation, bit for bit."""
    s = walk(game_id, seed, steps)
    sp = s.spec
    for seat in range(sp.seats):
        twin = s.state.determinize(seat, Rng(other))
        a = sp.observer.encode(s.state.view(seat), seat)
        b = sp.observer.encode(twin.view(seat), seat)
        assert a.shape == (sp.obs_size,) and a.dtype == np.float32
        assert np.array_equal(a, b)


@pytest.mark.parametrize("game_id", GAMES)
def test_shape_is_fixed_per_game_and_seats(game_id: str) -> None:
    sp = spec(game_id)
    assert sp.obs_size == DIM + SEAT_SLOTS + 2 * sp.num_actions
    shapes = {walk(game_id, seed, steps).observe(0).shape for seed in range(3) for steps in (0, 40)}
    assert shapes == {(sp.obs_size,)}


@pytest.mark.parametrize("game_id", ["kasino", "touche", "partners"])
def test_own_hand_is_in_the_observation(game_id: str) -> None:
    """The test above could pass with a blind encoder: the seat's own hidden cards must show."""
    s = walk(game_id, 5, 3)
    seat = s.to_act
    assert seat is not None
    other = (seat + 1) % s.spec.seats
    twin = s.state.determinize(other, Rng(99))  # seat's own hand re-dealt
    if twin.view(seat) == s.state.view(seat):
        pytest.skip("the re-deal happened to give the same hand")
    assert not np.array_equal(
        s.spec.observer.encode(twin.view(seat), seat), s.spec.observer.encode(s.state.view(seat), seat)
    )


def test_token_path_so_far_is_observed() -> None:
    s = walk("kasino", 1, 0)
    seat = s.to_act
    assert seat is not None
    before = s.observe(seat)
    d = s.decision
    assert d is not None
    token = next(t for t in d.choices() if t != d.end)
    if s.step(token) is None:
        after = s.observe(seat)
        base = DIM + SEAT_SLOTS
        assert after[base + token] >= 1 and after[base + s.spec.num_actions + token] == 1
        assert not np.array_equal(before, after)


@pytest.mark.parametrize("game_id", GAMES)
def test_remembered_features_equal_a_fresh_walk(game_id: str) -> None:
    """The observer remembers the features of unchanged view entries: the vectors must be
    those of an observer that has seen nothing yet."""
    from spillebord.envs.observe import Observer

    sp = spec(game_id)
    s = Session(sp, 11)
    rng = Rng(11)
    fresh = Observer(sp.game, sp.seats, sp.num_actions, sp.options)
    for _ in range(60):
        if s.to_act is None:
            break
        seat = s.to_act
        fresh.memo.clear()
        view = s.state.view(seat)
        assert np.array_equal(sp.observer.encode(view, seat), fresh.encode(view, seat))
        s.step(rng.choice(s.legal_tokens()))
