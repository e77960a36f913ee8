"""The contract every game keeps. No I/O here: no prints, files, clocks or sockets."""

from .errors import (
    GameOver,
    IllegalAction,
    NotYourTurn,
    OptionError,
    ParseError,
    SpillebordError,
    UnknownGame,
)
from .game import JSON, Action, Event, Game, State, action_index
from .options import opt
from .registry import all_games, get, register
from .rng import Rng

__all__ = [
    "JSON",
    "Action",
    "Event",
    "Game",
    "GameOver",
    "IllegalAction",
    "NotYourTurn",
    "OptionError",
    "ParseError",
    "Rng",
    "SpillebordError",
    "State",
    "UnknownGame",
    "action_index",
    "all_games",
    "get",
    "opt",
    "register",
]
