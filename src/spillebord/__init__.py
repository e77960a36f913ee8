"""Spillebord ("game table"): seven Scandinavian table games.

The packages, from the bottom up:

- :mod:`spillebord.core`   the contract every game keeps (no I/O);
- :mod:`spillebord.games`  one package per game (no I/O);
- :mod:`spillebord.ai`     agents that speak only the contract;
- :mod:`spillebord.tables` a table: game + options + seats + seed + action log.
"""

__version__ = "0.2.0"
"""The one version source (pyproject reads it; `spillebord --version` prints it)."""
