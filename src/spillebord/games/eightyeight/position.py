"""88 positions from a compact description (tests, puzzles, the web client's demos)::

    GAME.position(["fg b c|ab c", "b c|b c"], target=74)      # the setter (seat 0) to move
    GAME.position(["fg b c|ab c", "b c|b c"], cards=(4, 7))   # the setter to choose the target

Panels are written ``"tens tiling|units tiling"`` (``"fg b c|ab c"`` is 47: an L on f+g and
straights on b and c in the tens, an L on a+b and a straight on c in the units).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .data import panel_text, parse_panel
from .options import EightyEightOptions

if TYPE_CHECKING:
    from .rules import EightyEightGame, EightyEightState

TITLE = "88"


def position(
    game: EightyEightGame,
    panels: Sequence[str | int],
    *,
    setter: int = 0,
    cards: tuple[int, int] | None = None,
    target: int | None = None,
    pegs: Sequence[int] | None = None,
    points: Sequence[int] | None = None,
    round_no: int = 0,
    options: EightyEightOptions | None = None,
    seed: int = 0,
) -> EightyEightState:
    """A state of ``game`` after setup, one panel per seat (``"fg b c|ab c"`` notation or panel ints).

    With ``target`` the round is in its move phase with the setter to move (the cards
    default to the target's digits); with only ``cards`` (default: the top two of the
    seed's deck) the setter is to choose the target. The drawn cards leave the deck, so
    the 50 cards stay conserved.
    """
    s = game.new(len(panels), seed, options)
    geo = s.geo
    ps = tuple(parse_panel(p) if isinstance(p, str) else p for p in panels)
    for p in ps:
        if not geo.is_valid(p):
            raise ValueError(f"{TITLE}: invalid panel {panel_text(p)}")
    s.panels = ps
    s.setter = setter
    s.round_no = round_no
    if pegs is not None:
        s.pegs = tuple(pegs)
    if points is not None:
        s.points = tuple(points)
    if cards is None and target is not None:
        cards = (target // 10, target % 10)
    if cards is None:
        cards = (s.deck[0], s.deck[1])
    deck = list(s.deck)
    for c in cards:
        deck.remove(c)
    s.deck, s.cards = tuple(deck), tuple(cards)
    s.to_act = setter
    s.phase = "target"
    if target is not None:
        if target not in s.target_choices():
            raise ValueError(f"{TITLE}: cards {cards} cannot read as {target:02d}")
        s.phase, s.target = "move", target
    return s


__all__ = ["position"]
