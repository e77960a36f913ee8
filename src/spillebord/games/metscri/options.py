"""Metscri options: every unclear point of the rules (A1–A24 in ``docs/rules/metscri.md``) is a
field, with the engine's reading as the default."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from spillebord.core import opt


@dataclass(frozen=True, slots=True)
class MetscriOptions:
    """Rule variants: every unclear point of the rules (A1–A24) with the engine's decision as default."""

    allow_same_level_step: bool = opt(
        False,
        "A3: allow a step onto an adjacent occupied square at the same level "
        "(level 2 onto a 1-stack, level 3 onto a 2-stack)",
    )
    diagonal_steps: bool = opt(
        False, "A4: level steps (one or two levels up/down) may also go to diagonal neighbours"
    )
    slide_any_length: bool = opt(
        True, "A5: a slide passes over any number of empty squares (false: one square only)"
    )
    tie_continues: bool = opt(
        True, "A6: a roll equal to the previous one counts (false: each roll must be strictly higher)"
    )
    lower_roll: Literal["lose_turn", "keep_sum"] = opt(
        "lose_turn",
        "A7: a lower roll loses the whole turn (lose_turn), or only ends rolling keeping the sum so far",
    )
    carry_over_ap: bool = opt(
        False, "A8: unspent action points are kept for the seat's next turn (default: lost)"
    )
    collect_adjacency: Literal["symbols_connected", "connected", "pairwise"] = opt(
        "symbols_connected",
        "A9: symbol cards form one king-connected cluster and each joker touches one of them "
        "(symbols_connected); or the whole group is connected, jokers may link (connected); "
        "or every two cards of the group touch (pairwise)",
    )
    joker_rule: Literal["weighted", "strict_table"] = opt(
        "weighted",
        "A10: a group is valid when symbols + small jokers + 2 x big jokers >= 3 (weighted), "
        "or only by the text's table rows (strict_table)",
    )
    jokers_only_groups: bool = opt(
        False, "A11: allow groups made of jokers only (default: at least one symbol card)"
    )
    max_groups_per_turn: int | None = opt(
        None, "A12: at most this many groups may be collected in one turn (default: any number)", min=1
    )
    reveal_after_spy: bool = opt(True, "A13: right after a Spy the spier may reveal the card to all for free")
    enter_public: bool = opt(
        False, "A1: entered cards are shown to everyone as they are entered (default: face down, secret)"
    )
    win_check: Literal["after_group", "end_of_turn"] = opt(
        "after_group", "A18: check the target after each collected group, or only at the end of the turn"
    )
    memory_aid: bool = opt(
        True, "A19: show each seat the identities of face-down cards it legitimately knows"
    )
    memory_follows_moves: bool = opt(
        True,
        "A19/§5: knowledge of a face-down card survives moves (false: a moved card is forgotten "
        "by everyone, so a seat only sees the cards it entered or spied while they stay unmoved)",
    )
    hand_limit: int | None = opt(
        None, "A23: the most cards a hand may hold after Invest (default: none)", min=1
    )
    max_rounds: int | None = opt(
        None, "A20/R32: safeguard, end the game after this many rounds (default: off)", min=1
    )
    target: int | None = opt(
        None, "R31: M-points to win (default: ceil(144 / players): 72, 48, 36, 29, 24, 21, 18)", min=1
    )
