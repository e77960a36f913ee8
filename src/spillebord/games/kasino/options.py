"""Kasino options: every rule variant of ``docs/rules/kasino.md`` (decisions D1–D21), each with
its default."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from spillebord.core import opt


@dataclass(frozen=True, slots=True)
class KasinoOptions:
    """Rule variants; every field is one of the rules' decisions with its default."""

    value_mode: Literal["either", "hand_high_table_low"] = opt(
        "either",
        "D1: two-valued cards (A 1/14, ♠2 2/15, ♦10 10/16) take either value anywhere, "
        "or the high value from the hand and the low value on the table",
    )
    build_in_sums: bool = opt(False, "D4: a build may count with its value inside a sum group of a capture")
    build_base: Literal["one_card", "many_cards"] = opt(
        "one_card", "D5: a new build uses the hand card and one loose table card, or several"
    )
    more_builds: Literal["same_pile", "separate"] = opt(
        "same_pile",
        "D20: 'same_pile' = a further build of a value already built goes into that build's pile "
        "(bygge mere, \"skal … i samme bunke\"); 'separate' = a second pile of the same value may be made",
    )
    gathering: Literal["compulsory", "optional"] = opt(
        "compulsory",
        "D21: 'compulsory' = the loose cards worth the built value must go into a new or extended build "
        "(\"skal\"); 'optional' = the builder may leave them on the table",
    )
    spade5_sweep: bool = opt(True, "D6: clearing the table with ♠5 counts as a sweep (svupper)")
    build_obligations: Literal["text", "classic"] = opt(
        "text",
        "D8: 'text' = after building you must capture next turn if you can (9.2); "
        "'classic' = no such duty, but an owner of a build may not trail",
    )
    hand_lead: Literal["rotate", "continue"] = opt(
        "rotate", "D11: each new hand is led by the next player (rotate) or by the same leader (continue)"
    )
    sweep_cancellation: bool = opt(
        True, "D13: sweeps cancel: each scores his sweeps minus the fewest anyone has"
    )
    last_play_sweep_counts: bool = opt(True, "D14: a sweep on the very last play of a round counts")
    target: int = opt(21, "D16: points that end the game (first_to_target)", min=1, max=1000)
    match_format: Literal["first_to_target", "one_round_per_player"] = opt(
        "first_to_target",
        "D16: play to the target (ties at the top play on), or one round per player (ties share)",
    )
    partnerships: bool = opt(False, "D19: with 4 players, opposite seats are partners (pool tricks)")
