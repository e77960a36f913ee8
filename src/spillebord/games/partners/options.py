"""Partners options: every reading of an unclear rule is a field, with the engine's decision
as its default (docs/rules/partners.md, "Decisions"), plus the deck the options describe."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from spillebord.core import opt

from .data import PROFILES, DeckProfile, deck_cards, parse_profile


@dataclass(frozen=True, slots=True)
class PartnersOptions:
    """Rule variants; every field is a decision of the rules (D1–D20) with its default."""

    deck_profile: Literal["text52", "classic56", "custom"] = opt(
        "text52",
        "D1/D2: the deck: text52 (the seed's 52 cards: 48 dealt, 4 over), classic56 (the published "
        "56-card box), or custom (custom_deck)",
    )
    custom_deck: str = opt(
        "",
        "D1: with deck_profile=custom, the deck as CODE:COUNT pairs, e.g. 'HEART:6,N5:8,S7:4' "
        "(codes HEART A114 N2 N3 M4 N5 N6 S7 H8 N9 N10 N12 H13 SWAP; at least 16 cards)",
    )
    first_dealer: Literal["random", "draw_high"] = opt(
        "random", "D18: the first dealer is chosen at random, or by drawing cards (highest deals)"
    )
    lead_rule: Literal["dealer_left", "rotate_each_deal"] = opt(
        "dealer_left", "D14: who leads each deal: the dealer's left neighbour, or one seat further each deal"
    )
    house_entry: Literal["mandatory", "optional"] = opt(
        "mandatory", "D6: a piece reaching its own start field must enter its house, or may pass it"
    )
    house_overshoot: Literal["illegal", "bounce"] = opt(
        "illegal", "D7: a move that cannot be completed inside the house is illegal, or bounces back"
    )
    allow_same_colour_swap: bool = opt(
        True, "D11: the swap card may swap two pieces of one colour (a legal move with no effect)"
    )
    swap_start_field: bool = opt(False, "D11: the swap card may move a piece standing on a start field")
    split_must_use_all: bool = opt(
        True, "D12: the split 7 must use all seven steps (else the player may stop early)"
    )
    discard_visibility: Literal["public", "hidden"] = opt(
        "public", "D15: a hand laid down for want of a usable card is shown face up, or kept face down"
    )
    allow_voluntary_discard: bool = opt(
        False, "D16: a player with a usable card may still lay down his whole hand"
    )
    max_deals: int = opt(300, "D20: the game is a draw after this many deals (safety cap)", min=1, max=300)
    fields_per_segment: int = opt(
        14,
        "D4: numbered squares between two start fields (14 on the published board; fewer makes "
        "a smaller ring)",
        min=4,
        max=14,
    )
    pieces_per_colour: int = opt(
        4,
        "not a rule of the game: play with fewer pieces per colour (1-4) for a short game (quick "
        "variant for tests and demos; the rules use 4)",
        min=1,
        max=4,
    )

    def __post_init__(self) -> None:
        if self.deck_profile == "custom":
            n = len(deck_cards(parse_profile(self.custom_deck)))
            if n < 16:
                raise ValueError(f"Partners: a custom deck needs at least 16 cards, not {n}")
        if not 1 <= self.max_deals <= MAX_DEALS:
            raise ValueError(f"Partners: max_deals must be 1-{MAX_DEALS}")
        if not 4 <= self.fields_per_segment <= 14:
            raise ValueError("Partners: fields_per_segment must be 4-14")
        if not 1 <= self.pieces_per_colour <= 4:
            raise ValueError("Partners: pieces_per_colour must be 1-4")


MAX_DEALS = 300
"""The largest ``max_deals`` (the decision bound of the game is derived from it)."""


@lru_cache(maxsize=64)
def _deck_for(profile: str, custom: str) -> tuple[str, ...]:
    prof: DeckProfile = parse_profile(custom) if profile == "custom" else PROFILES[profile]
    return deck_cards(prof)


def deck_of(o: PartnersOptions) -> tuple[str, ...]:
    """The full deck (sorted card codes) the options describe."""
    return _deck_for(o.deck_profile, o.custom_deck)


def deals_per_cycle(o: PartnersOptions) -> int:
    """Three deals per dealer (R3.2), fewer only for a custom deck too small for three."""
    return max(1, min(3, len(deck_of(o)) // 16))
