"""Revir (Swedish: "territory"): cats on the farm Tviksta Gård fight over territories."""

from .rules import GAME, RevirGame, RevirOptions, RevirState, build_position

__all__ = ["GAME", "RevirGame", "RevirOptions", "RevirState", "build_position"]
