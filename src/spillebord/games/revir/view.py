"""What a seat may know of a Revir position, as JSON (``RevirState.view`` delegates here).

Public: the board, the cats, territory ownership, the card clock and this turn's effects,
the cards known to lie at the bottom of the pile (seen going under), a fight's hits and
committed stones, and (unless ``stones_public`` is off) every holding and the bank. Hidden:
the pile's order beyond what was seen, and the attacker's submission in a fight round until
the defender's is in (only the attacker sees ``my_submission``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import SURRENDER
from .data import EMPTY

if TYPE_CHECKING:
    from .rules import RevirState


def build_view(state: RevirState, seat: int | None) -> dict[str, Any]:
    """JSON-ready: exactly what ``seat`` may know (``None``: a spectator)."""
    geo = state.geo
    o = state.o
    public = o.stones_public
    territories = geo.territories
    f = state.fight
    fight: dict[str, Any] | None = None
    if f is not None:
        fight = {
            "attacker": f.attacker,
            "defender": f.defender,
            "territory": territories[f.territory],
            "round": f.round,
            "hits": [f.hits_a, f.hits_d],
            "committed": [f.commit_a, f.commit_d],
            "available": [
                state.avail(f.attacker) if public or seat == f.attacker else None,
                state.avail(f.defender) if public or seat == f.defender else None,
            ],
            "attacker_submitted": f.pending is not None,
            "last": list(f.last) if f.last is not None else None,
        }
        if seat == f.attacker and f.pending is not None:
            fight["my_submission"] = "surrender" if f.pending == SURRENDER else f.pending
    pile = state.pile
    known_bottom = pile[max(1, len(pile) - state.known) :]
    owner = state.owner
    seats = range(state.seats)
    eff = state.eff
    card_ids = geo.card_ids
    held: list[list[str]] = [[] for _ in seats]
    counts = [[0] * len(geo.colour_ids) for _ in seats]
    for t, c, w in zip(territories, geo.t_colour, owner, strict=True):
        held[w].append(t)
        counts[w][c] += 1
    return {
        "game": "revir",
        "seat": seat,
        "phase": state.phase,
        "to_act": state.to_act,
        "active": state.active,
        "turn": state.t,
        "max_turns": o.max_turns,
        "series_needed": o.series_needed,
        "hits_to_win": o.hits_to_win,
        "best_series": [max(c) for c in counts],
        "cats": [geo.ids[q] for q in state.pos],
        "stones": [s if public or i == seat else None for i, s in enumerate(state.stones)],
        "bank": state.bank if public else None,
        "territories": held,
        "owner": dict(zip(territories, owner, strict=True)),
        "clock": {
            "size": state.k,
            "positions": [card_ids[c] if c != EMPTY else None for c in state.clock_positions()],
            "new_card": card_ids[pile[0]],
            "new_position": state.p,
            "pile_size": len(pile),
            "pile_known_bottom": [card_ids[c] for c in known_bottom],
        },
        "effects": {
            "hunt": [territories[i] for i in range(geo.nterr) if eff.hunt >> i & 1],
            "fat": eff.fat,
            "double": eff.double,
            "doors_open": [d for i, d in enumerate(geo.door_ids) if eff.doors >> i & 1],
            "free_move": eff.free_move,
            "nest": eff.nest,
            "happen": [card_ids[c] for c in eff.happen],
        },
        "fight": fight,
        "start_rolls": [list(r) for r in state.start_rolls],
        "winners": list(state.winners) if state.winners is not None else None,
        "board": geo.board,
    }
