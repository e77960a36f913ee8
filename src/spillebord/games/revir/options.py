"""Revir's table variants (see docs/rules/revir.md, section 10: every option with its default)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from spillebord.core import opt


@dataclass(frozen=True, slots=True)
class RevirOptions:
    """Table variants of Revir; each help text names the rule or decision (D#) it changes."""

    clock_size: int = opt(
        0,
        "4.1/D6: event cards face up at once (kortklocka); 0 = the printed table 2:6, 3:9, 4:8",
        min=0,
        max=30,
    )
    reshuffle_each_cycle: bool = opt(False, "4.5/D6: reshuffle the pile each time the 30 cards have cycled")
    start_stones: int = opt(10, "2.3: power stones (kraftstenar) each player starts with", min=0, max=40)
    bank_total: int = opt(80, "2.3/D19: stones in the game in all (players + bank)", min=1, max=400)
    hits_to_win: int = opt(5, "7.2: hits (slag) that win a fight", min=1, max=20)
    series_needed: int = opt(
        4,
        "9.1: territories of one colour that win; 4 = a complete series (a lower number is a short game)",
        min=1,
        max=4,
    )
    max_turns: int = opt(
        400, "9.3/D22: digital turn cap, then ranked by best colour, territories, stones; 0 = none", min=0
    )
    deal: Literal["colour_round_robin", "shuffled"] = opt(
        "colour_round_robin",
        "D5: territory deal: colour-sorted round robin, or fully shuffled (no full series)",
    )
    tie_hits: Literal["none", "both"] = opt(
        "none", "D11: equal bids land no hit, or a hit each (non-zero bids)"
    )
    happenings: Literal["active", "all"] = opt(
        "active", "5.3/D7: food/petting pays only the active player, or every cat on the square"
    )
    rat_bonus_order: Literal["double_then_add", "add_then_double"] = opt(
        "double_then_add", "D18: Storfångst doubles before or after the Feta råttor bonus"
    )
    first_turn_fights: bool = opt(
        True,
        "D23: fights under (b) (same outdoor square) are allowed in the first round (all on the yard)",
    )
    stones_public: bool = opt(
        True,
        "D20: stone holdings are public; if false, views show only one's own stones and the bank is hidden",
    )
