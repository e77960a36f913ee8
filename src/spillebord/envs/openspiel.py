"""OpenSpiel games: ``import spillebord.envs.openspiel`` registers ``spillebord_<id>`` for all seven.

    import pyspiel
    import spillebord.envs.openspiel
    game = pyspiel.load_game("spillebord_kasino", {"players": 3, "target": 11})

Parameters are ``players`` (the seat count), ``seed`` (below) and every rule option of the game
whose value is a number, a boolean or a word (as ``spillebord games GAME`` lists them).

* **Actions** are the tokens of :mod:`spillebord.envs.tokens` (``num_distinct_actions`` is the
  vocabulary's size); a player acts again until its action's path is complete.
* **Chance** is folded into the state's own generator (``ChanceMode.SAMPLED_STOCHASTIC``): a
  deal or a die is drawn inside the step that causes it, never as an explicit chance node.
  The ``seed`` parameter is the seed of the first initial state; each further
  ``new_initial_state()`` of the same game object takes the next seed.
* **Tensors**: ``observation_tensor`` and ``information_state_tensor`` are both the seat's
  observation (:mod:`spillebord.envs.observe`: its view and the token path it has chosen so
  far). The views already carry what the rules make public about the past, but they are not a
  full perfect-recall history; ``information_state_string`` is the view's JSON with the path.
* **Returns** are the normalized outcome (``state.outcome()``) at the end, 0 before
  (``Utility.GENERAL_SUM``: partners both get 1).
* **Resampling** (``resample_from_infostate``, which ISMCTS uses) determinizes the state from the
  player's seat (``state.determinize``: what the seat cannot see re-dealt) and keeps the token
  path chosen so far.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from spillebord.core import AnyGame, registry
from spillebord.core.options import schema

from .session import Session, Spec

_PARAM_TYPES = (bool, int, float, str)
MAX_TOKENS_PER_ACTION = 32
"""For ``max_game_length``: decisions times this (no action text of any game comes near)."""


def _option_defaults(game: AnyGame) -> dict[str, Any]:
    """Every rule option as a pyspiel parameter: its default, or for an option that may be
    unset (``None``) the text ``"none"`` (give such an option as text: ``"4"``)."""
    out: dict[str, Any] = {}
    for entry in schema(game.Options):
        default = entry["default"]
        if default is None:
            out[entry["name"]] = "none"
        elif isinstance(default, _PARAM_TYPES):
            out[entry["name"]] = default
        else:
            out[entry["name"]] = str(default)
    return out


def game_type(game: AnyGame) -> Any:
    """The pyspiel ``GameType`` of a game."""
    params: dict[str, Any] = {"players": game.seats.start, "seed": 0, **_option_defaults(game)}
    info = (
        pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if game.kind.hidden_information
        else pyspiel.GameType.Information.PERFECT_INFORMATION
    )
    chance = (
        pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        if game.kind.chance
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )
    return pyspiel.GameType(
        short_name=f"spillebord_{game.id}",
        long_name=f"Spillebord {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=info,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.seats.stop - 1,
        min_num_players=game.seats.start,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class SpillebordGame(pyspiel.Game):  # type: ignore[misc]  # untyped base
    """One of the games as a pyspiel game (made by ``pyspiel.load_game``)."""

    def __init__(self, game: AnyGame, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        seats = int(params.get("players", game.seats.start))
        options = {k: v for k, v in params.items() if k not in ("players", "seed")}
        self.spec = Spec(game.id, seats, options)
        self.next_seed = int(params.get("seed", 0))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.num_actions,
            max_chance_outcomes=0,
            num_players=seats,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=game.kind.max_decisions * MAX_TOKENS_PER_ACTION,
        )
        super().__init__(game_type(game), info, params)

    def new_initial_state(self) -> SpillebordState:
        seed, self.next_seed = self.next_seed, self.next_seed + 1
        return SpillebordState(self, Session(self.spec, seed))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self.spec.obs_size)


class SpillebordState(pyspiel.State):  # type: ignore[misc]  # untyped base
    """A game in progress (a :class:`~spillebord.envs.session.Session`)."""

    def __init__(self, game: SpillebordGame, session: Session) -> None:
        super().__init__(game)
        self.session = session

    def current_player(self) -> int:
        seat = self.session.to_act
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        return self.session.legal_tokens() if player == self.session.to_act else []

    def _apply_action(self, action: int) -> None:
        self.session.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.session.spec.vocab.tokens[action]

    def is_terminal(self) -> bool:
        return self.session.to_act is None

    def returns(self) -> list[float]:
        out = self.session.state.outcome()
        return [0.0] * self.session.spec.seats if out is None else list(out)

    def information_state_string(self, player: int | None = None) -> str:
        return _info_string(self.session, self.current_player() if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return _info_string(self.session, self.current_player() if player is None else player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> SpillebordState:
        """A state ``player_id`` cannot tell from this one (its seat's determinization)."""
        u = probability_sampler() if callable(probability_sampler) else np.random.random()
        seed = int(u * 2**53)
        return SpillebordState(self.get_game(), self.session.resampled(player_id, seed))

    def clone(self) -> SpillebordState:
        return SpillebordState(self.get_game(), self.session.copy())

    def __deepcopy__(self, memo: dict[int, Any]) -> SpillebordState:
        return self.clone()

    def __str__(self) -> str:
        s = self.session.state
        d = self.session.decision
        path = "" if d is None else " " + self.session.spec.vocab.decode(d.prefix)
        return f"{s.game.id} decisions={s.decisions} to_act={s.to_act}{path}"


def _info_string(session: Session, player: int) -> str:
    d = session.decision
    prefix = d.prefix if d is not None and session.to_act == player else []
    view = json.dumps(session.state.view(player), sort_keys=True, separators=(",", ":"))
    return f"p{player} {view} {prefix}"


class Observer:
    """pyspiel's python observer protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpillebordState, player: int) -> None:
        self.tensor[:] = state.session.observe(player)

    def string_from(self, state: SpillebordState, player: int) -> str:
        return _info_string(state.session, player)


def _register(game: AnyGame) -> type[SpillebordGame]:
    """Register ``game`` under a class of its own (pyspiel keeps the factory until exit)."""

    def __init__(self: SpillebordGame, params: dict[str, Any] | None = None) -> None:
        SpillebordGame.__init__(self, game, params)

    name = "Spillebord" + "".join(p.capitalize() for p in game.id.split("_")) + "Game"
    cls = type(name, (SpillebordGame,), {"__init__": __init__, "__module__": __name__})
    globals()[name] = cls
    pyspiel.register_game(game_type(game), cls)
    return cls


for _g in registry.all_games():
    if f"spillebord_{_g.id}" not in pyspiel.registered_names():
        _register(_g)
