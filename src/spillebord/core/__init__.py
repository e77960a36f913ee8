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
from .fields import state
from .game import (
    JSON,
    Action,
    AnyGame,
    Event,
    Game,
    GameKind,
    State,
    Teams,
    action_index,
    rank_outcome,
    win_outcome,
)
from .options import opt
from .registry import all_games, get, register
from .rng import Rng, draw_at

__all__ = [
    "JSON",
    "Action",
    "AnyGame",
    "Event",
    "Game",
    "GameKind",
    "GameOver",
    "IllegalAction",
    "NotYourTurn",
    "OptionError",
    "ParseError",
    "Rng",
    "SpillebordError",
    "State",
    "Teams",
    "UnknownGame",
    "action_index",
    "all_games",
    "draw_at",
    "get",
    "opt",
    "rank_outcome",
    "register",
    "state",
    "win_outcome",
]
