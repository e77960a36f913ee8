"""Fuldrigger table options: every reading of an unclear rule is a field with the default of
``docs/rules/fuldrigger.md`` (the D-numbers name its decisions)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from spillebord.core import opt


@dataclass(frozen=True, slots=True)
class FuldriggerOptions:
    rounds_limit: int = opt(30, "D2 / rule 2.9: the game ends after this many rounds (20/30/40)", min=1)
    wall_clock_minutes: int = opt(
        0, "D2: wall-clock limit in minutes (0 = none); the table calls clock_expired() when it is up"
    )
    banker_seat: int = opt(-1, "D21: the seat that keeps the bank (-1 = the first player)", min=-1, max=3)
    min_transport_mode: Literal["odometer", "port_distance"] = opt(
        "odometer", "D9 / rule 6.3: 10 squares actually carried, or sea distance between the ports"
    )
    directional_winds: bool = opt(
        False, "D5: winds help sailing along a lane's From→To direction and hinder the other way"
    )
    ship_sale_in_port_only: bool = opt(False, "D12 / rule 7.2: ships may be sold to the bank only in port")
    privateer_fit_cost: int = opt(0, "D28 / rule 9.1: cost of fitting out a privateer", min=0)
    port_attack_rule: Literal["any_fortress", "defender_fortress_only"] = opt(
        "any_fortress", "D15 / rule 9.2: ships in a fortified port are attackable whoever owns the fortress"
    )
    negotiation: bool = opt(True, "D20 / rule 11: offers between players")
    private_offers: bool = opt(False, "D20 / rule 11.7: offers visible only to their two parties")
    isthmus_variant: bool = opt(False, "D25 / rule 12: carrying goods across Suez and Panama")
    eliminate_shipless: bool = opt(
        False, "D23 / rule 13.1.2: a player without ships at the end of his turn is out"
    )
    result_mode: Literal["win", "wealth"] = opt(
        "win",
        "rule 13.3: who wins: 'win' = the rules' winner (greatest wealth, ties by cash, then "
        "fortresses; the last fleet afloat wins an early end), 'wealth' = the greatest wealth alone "
        "(ties split the win); the scores are every seat's wealth either way",
    )
