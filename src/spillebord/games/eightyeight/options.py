"""The rule variants of 88 (docs/rules/88.md, "Options"): every reading the rule sheet leaves
open is a field here, with the engine's default."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

from spillebord.core import opt


@functools.cache
def deck_counts(text: str) -> tuple[int, ...]:
    """The ``deck_composition`` text as 10 counts (digits 0–9); ``ValueError`` if malformed."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 10:
        raise ValueError("88: deck_composition needs 10 comma-separated counts (digits 0–9)")
    try:
        nums = tuple(int(p) for p in parts)
    except ValueError:
        raise ValueError("88: deck_composition counts must be whole numbers") from None
    if any(n < 0 for n in nums) or sum(nums) < 2:
        raise ValueError("88: deck_composition needs non-negative counts and at least 2 cards")
    return nums


@dataclass(frozen=True, slots=True)
class EightyEightOptions:
    """Rule variants of 88; every field is one of the settled readings (B1–B18)."""

    scoring: Literal["pegs", "points"] = opt(
        "pegs", "R9/§9: peg track (standard) or points (Alternativ poängräkningsmetod, lowest wins)"
    )
    track_length: int = opt(10, "B1: steps from the start hole to the last (winning) hole", min=1, max=100)
    deck_composition: str = opt(
        "5,5,5,5,5,5,5,5,5,5", "B2: number of cards of each digit 0–9 (default 5 each, 50 cards)"
    )
    reshuffle_every_round: bool = opt(
        False, "B3: draw every target from the full deck (default: discard; reshuffle when < 2 remain)"
    )
    exact_and_round_win_stack: bool = opt(
        False, "B5: exact-hit steps AND the round-win step both apply (default: exact hits first)"
    )
    alone_among_contenders_only: bool = opt(
        False, "B8: 'alone' on target counts only players about to reach the last hole (default: all)"
    )
    alt_glyphs: bool = opt(False, "B11: also accept 6 without a, 9 without d, 7 with f")
    points_rounds: int | None = opt(
        None, "B16/R17: rounds in the points game (default: 3 × number of players)", min=1, max=1000
    )
    points_linear_difference: bool = opt(
        False, "B7: points game uses |x − T| instead of the circular distance via 00"
    )
    max_rounds: int | None = opt(
        None,
        "B18: peg game safeguard: end after this many rounds, most advanced peg wins (default off)",
        min=1,
        max=10000,
    )
    first_setter: int | None = opt(
        None, "B15: seat of the first Target Setter (default: random)", min=0, max=3
    )
    secret_setup: bool = opt(True, "B14: initial numbers are laid in secret and revealed together")

    def __post_init__(self) -> None:
        deck_counts(self.deck_composition)


Options = EightyEightOptions

__all__ = ["EightyEightOptions", "Options", "deck_counts"]
