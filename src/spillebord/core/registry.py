"""The registry of games, by id.

Each package under :mod:`spillebord.games` exposes its one :class:`Game` instance as
``GAME``; the registry imports them on first use, so adding a game touches no shared file.
"""

from __future__ import annotations

import copyreg
import importlib
import pkgutil
from typing import Any

from .errors import UnknownGame
from .game import AnyGame, Game

_GAMES: dict[str, AnyGame] = {}
_LOADED = False


def register(game: AnyGame) -> AnyGame:
    """Add a game (also for games defined outside :mod:`spillebord.games`).

    A registered game pickles by its id, so a state sent to another process (a bot's process
    pool) takes the registered game by reference, not a copy of its tables."""
    _GAMES[game.id] = game
    copyreg.pickle(type(game), _by_id)
    return game


def _by_id(game: AnyGame) -> tuple[Any, tuple[str]]:
    return (get, (game.id,))


def _load() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    import spillebord.games as pkg

    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if not info.ispkg or info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
        game = getattr(mod, "GAME", None)
        if isinstance(game, Game):
            register(game)


def get(game_id: str) -> AnyGame:
    """The game registered as ``game_id``; :class:`UnknownGame` with the known ids otherwise."""
    _load()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise UnknownGame(
            f"no game {game_id!r}; known games: {', '.join(sorted(_GAMES)) or 'none'}"
        ) from None


def all_games() -> list[AnyGame]:
    """Every registered game, in a stable order."""
    _load()
    order = ["metscri", "88", "touche", "revir", "partners", "kasino", "fuldrigger"]
    return sorted(_GAMES.values(), key=lambda g: (order.index(g.id) if g.id in order else 99, g.id))


def ids() -> list[str]:
    return [g.id for g in all_games()]
