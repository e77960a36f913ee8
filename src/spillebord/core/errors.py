"""Errors are values people can read: every message names the game and says what was wrong."""

from __future__ import annotations


class SpillebordError(Exception):
    """Base of every error the platform raises on purpose; its text is fit to show a user."""


class IllegalAction(SpillebordError):
    """An action that the rules do not allow now. The state is left untouched.

    ``IllegalAction("Kasino: 9♥ cannot capture 3♠+7♦ (sum 10)")``
    """


class ParseError(IllegalAction):
    """Text that is not an action of this game (or not one legal now)."""


class NotYourTurn(IllegalAction):
    """An action sent for a seat that is not the one to act."""


class GameOver(IllegalAction):
    """An action sent after the game has ended."""


class UnknownGame(SpillebordError):
    """A game id that is not registered."""


class OptionError(SpillebordError):
    """A table option with an unknown name or a value of the wrong kind."""
