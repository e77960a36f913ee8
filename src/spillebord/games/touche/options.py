"""Touché table options: every variant and engine decision of the rules, with its default
(``docs/rules/touche.md``, "Options")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from spillebord.core import opt


@dataclass(frozen=True, slots=True)
class ToucheOptions:
    """Table options; every field is a decision or variant of the rules (R8, R10)."""

    grade: int = opt(
        0, "3.4/4: difficulty grade 1-5 for every game; 0 = the dealer chooses at the table", min=0, max=5
    )
    jokers_per_deck: int = opt(2, "1.1.4 / 10.2: jokers per deck (cards = 104 + 2 x this)", min=0, max=3)
    marker_supply: int | None = opt(60, "1.2.3 / 10.19: markers per colour; null = unlimited", min=1)
    seating: Literal["grouped", "alternating"] = opt(
        "grouped", "2.4 / 10.14: teams sit together (grouped) or alternate around the table"
    )
    grade5_distinct_types: bool = opt(True, "4.1 / 10.7: grade 5 needs patterns of different types")
    free_space_mode: Literal["last_piece", "wild"] = opt(
        "last_piece",
        "5.1b / 10.10: last_piece = a free space takes only the marker completing a pattern; "
        "wild = a free space counts as the completing side's marker",
    )
    clear_on_touche: bool = opt(True, "6.7 / 10.8: uncrowned markers leave the board after a Touché")
    recycle_discards: bool = opt(True, "5.6 / 10.13: an empty pile is refilled from one's own discards")
    shutout_mode: Literal["replace", "add"] = opt(
        "replace", "7.3 / 10.16: the 25-point shutout replaces (or adds to) the grade points"
    )
    stall_turns: int | None = opt(
        None,
        "7.2a / 10.18: consecutive turns without a possible placement that draw; null = 3 x players",
        min=1,
    )
    redeal_each_round: bool = opt(False, "6.7 / 10.8: gather and redeal all cards after every Touché")
    max_turns: int = opt(600, "7.2b: turns per game before it is drawn", min=1)
    match_games: int = opt(3, "7.4: games in the match (best of N)", min=1)
    match_mode: Literal["wins", "points"] = opt(
        "wins", "7.4: wins = first to a majority of N wins; points = N games, highest total"
    )
    match_max_games: int = opt(
        0, "7.4 (engine guard, not in the text): the match stops after this many games; 0 = 3 x N", min=0
    )
