"""determinize() deals from what the seat sees and the RNG only: two states that differ only in
where the unseen cards are (the other side's hands and the deck's order) give the same
determinized state for the same RNG."""

from __future__ import annotations

import pytest

from spillebord.core import Rng
from spillebord.games.partners.data import sort_cards
from spillebord.games.partners.options import PartnersOptions
from spillebord.games.partners.rules import PartnersGame, PartnersState


def _mid_game(people: int, seed: int, decisions: int, **options: object) -> PartnersState:
    s = PartnersGame().new(people, seed, PartnersOptions(**options))  # type: ignore[arg-type]
    rng = Rng(seed)
    for _ in range(decisions):
        if s.to_act is None:
            break
        s.play(rng.choice(s.legal()))
    return s


def _rearranged(s: PartnersState, person: int, seed: int) -> PartnersState:
    """``s`` with the cards ``person`` cannot see (the hands of the seats he does not control
    and the deck) dealt again among the same places."""
    t = s.copy()
    hidden = [k for k in range(4) if s.ctrl[k] != person]
    # a card one of his seats gave to a hidden partner, known to be in that hand, stays there
    kept = {k: s.gave[k ^ 2] for k in hidden if s.ctrl[k ^ 2] == person and s.gift_zone[k ^ 2] == 1}
    cards = [c for k in hidden for c in s.hands[k]] + list(s.deck)
    for g in kept.values():
        cards.remove(g)  # type: ignore[arg-type]
    Rng(seed).shuffle(cards)
    hands = list(s.hands)
    at = 0
    for k in hidden:
        take = len(s.hands[k]) - (k in kept)
        hands[k] = sort_cards(cards[at : at + take] + ([kept[k]] if k in kept else []))  # type: ignore[list-item]
        at += take
    t.hands, t.deck = tuple(hands), tuple(cards[at:])
    return t


@pytest.mark.parametrize("people", [2, 4])
def test_determinize_is_the_same_wherever_the_unseen_cards_are(people: int) -> None:
    differed = 0
    for seed in range(12):
        s = _mid_game(people, seed, 20 + 7 * seed)
        if s.to_act is None or s.phase != "play":
            continue
        person = s.to_act
        t = _rearranged(s, person, seed + 100)
        differed += (t.hands, t.deck) != (s.hands, s.deck)
        for k in range(3):
            a, b = s.determinize(person, Rng(k)), t.determinize(person, Rng(k))
            assert (a.hands, a.deck, a.commits) == (b.hands, b.deck, b.commits), (seed, k)
            assert a.legal() == b.legal()
    assert differed >= 8  # the check compared states that really differ
