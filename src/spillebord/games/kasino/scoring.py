"""Kasino scoring (rules 11.1, 11.2): what a side took in a round, and its points."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spillebord.core.mypyc import mypyc_attr

from .data import BIG_CASINO, IS_ACE, IS_SPADE, LITTLE_CASINO


@mypyc_attr(native_class=False)  # compiled: a plain dataclass (see actions.py)
@dataclass(frozen=True, slots=True)
class Tally:
    """What one side (player or team) took in a round, for scoring (11.1)."""

    cards: int = 0
    spades: int = 0
    big_casino: bool = False
    little_casino: bool = False
    aces: int = 0
    sweeps: int = 0


def score_round(
    tallies: Sequence[Tally], sidsten: int | None, cancellation: bool = True
) -> list[dict[str, int]]:
    """Points per side for one round (11.1, 11.2): a breakdown dict with ``total`` for each.

    ``sidsten`` is the side that made the last capture (None: nobody captured).
    """
    n = len(tallies)
    most_cards = max(t.cards for t in tallies)
    most_spades = max(t.spades for t in tallies)
    cards_winner = [i for i, t in enumerate(tallies) if t.cards == most_cards]
    spades_winner = [i for i, t in enumerate(tallies) if t.spades == most_spades]
    low = min(t.sweeps for t in tallies) if cancellation else 0
    out = []
    for i, t in enumerate(tallies):
        d = {
            "cards": 1 if cards_winner == [i] else 0,
            "spades": 2 if spades_winner == [i] else 0,
            "big_casino": 2 if t.big_casino else 0,
            "little_casino": 1 if t.little_casino else 0,
            "aces": t.aces,
            "sidsten": 1 if sidsten == i else 0,
            "sweeps": t.sweeps - low,
        }
        d["total"] = sum(d.values())
        out.append(d)
    assert len(out) == n
    return out


def tally(cards: Sequence[int], sweeps: int) -> Tally:
    """The :class:`Tally` of a trick pile (or a side's pooled piles) and its sweeps."""
    # one loop for both counts: a third of the time of two sum(map(tuple.__getitem__, ...)),
    # whose every item is a call through the slot wrapper (compiled: a native loop)
    is_spade, is_ace = IS_SPADE, IS_ACE
    spades = aces = 0
    for c in cards:
        if is_spade[c]:
            spades += 1
        if is_ace[c]:
            aces += 1
    return Tally(len(cards), spades, BIG_CASINO in cards, LITTLE_CASINO in cards, aces, sweeps)
