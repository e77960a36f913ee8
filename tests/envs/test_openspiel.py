"""OpenSpiel: every game registered with pyspiel, OpenSpiel's random_sim_test, tensors, and
OpenSpiel's own ISMCTS bot searching through determinize."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import spillebord.envs.openspiel as os_games  # noqa: E402
from spillebord.core import Rng, registry  # noqa: E402

GAMES = [g.id for g in registry.all_games() if type(g).__module__.startswith("spillebord.games.")]


def quick_params(game_id: str) -> dict[str, Any]:
    """The game's short-game options as pyspiel parameters (optional ones as text)."""
    game = registry.get(game_id)
    defaults = os_games._option_defaults(game)
    return {k: (str(v) if defaults[k] == "none" else v) for k, v in game.quick_options.items()}


@pytest.mark.parametrize("game_id", GAMES)
def test_registered_with_parameters(game_id: str) -> None:
    game = registry.get(game_id)
    seats = list(game.seats)[-1]
    g = pyspiel.load_game(f"spillebord_{game_id}", {"players": seats, **quick_params(game_id)})
    assert g.num_players() == seats
    assert g.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    state = g.new_initial_state()
    shape = g.information_state_tensor_shape()
    assert len(state.information_state_tensor()) == shape[0] == len(state.observation_tensor())
    assert all(0 <= a < g.num_distinct_actions() for a in state.legal_actions())


@pytest.mark.parametrize("game_id", GAMES)
def test_random_sim_test(game_id: str) -> None:
    params = quick_params(game_id)
    if "max_turns" in params:  # Touché's short game is still 300 turns: random_sim_test checks every step
        params["max_turns"] = min(80, params["max_turns"])
    g = pyspiel.load_game(f"spillebord_{game_id}", params)
    pyspiel.random_sim_test(g, num_sims=1, serialize=False, verbose=False)


def test_information_state_is_the_seats_own() -> None:
    """Re-dealing what seat 0 cannot see leaves its information state and tensor unchanged."""
    g = pyspiel.load_game("spillebord_kasino")
    state = g.new_initial_state()
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    twin = state.resample_from_infostate(seat, lambda: 0.25)
    assert twin.information_state_string(seat) == state.information_state_string(seat)
    assert np.array_equal(twin.information_state_tensor(seat), state.information_state_tensor(seat))
    other = 1 - seat
    hands = [st.session.state.view(other)["hand"] for st in (state, twin)]
    assert hands[0] != hands[1]  # the other seat's hand was re-dealt


def test_clone_is_independent() -> None:
    g = pyspiel.load_game("spillebord_revir")
    state = g.new_initial_state()
    copy = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert str(copy) != str(state) or copy.history() != state.history()
    assert copy.session.state.decisions == 0


def test_seeds_follow_each_other() -> None:
    g = pyspiel.load_game("spillebord_kasino", {"seed": 7})
    a, b = g.new_initial_state(), g.new_initial_state()
    game = registry.get("kasino")
    assert a.session.state == game.new(seats=2, seed=7)
    assert b.session.state == game.new(seats=2, seed=8)


def test_ismcts_plays_through_determinize() -> None:
    """OpenSpiel's ISMCTS bot (python) decides Kasino moves; every world it searches is a
    determinization from its seat, made by resample_from_infostate."""
    from open_spiel.python.algorithms import ismcts, mcts

    g = pyspiel.load_game("spillebord_kasino", {"target": 1})
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(
        g, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=8, random_state=rng
    )
    calls = []
    original = os_games.SpillebordState.resample_from_infostate

    def counting(self: Any, player: int, sampler: Any) -> Any:
        calls.append(player)
        return original(self, player, sampler)

    os_games.SpillebordState.resample_from_infostate = counting  # type: ignore[method-assign]
    try:
        state = g.new_initial_state()
        r = Rng(1)
        moves = 0
        while not state.is_terminal() and moves < 12:
            if state.current_player() == 0:
                action = bot.step(state)
                assert action in state.legal_actions()
            else:
                action = r.choice(state.legal_actions())
            state.apply_action(action)
            moves += 1
    finally:
        os_games.SpillebordState.resample_from_infostate = original  # type: ignore[method-assign]
    assert calls and set(calls) == {0}
