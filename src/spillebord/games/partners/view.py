"""What a person at a Partners table may know: ``PartnersState.view`` delegates here.

Public: the board, the played cards, hand sizes, who laid down his hand, who has committed
a card in the exchange (not which card). Private to a person: the hands of the colour seats he
plays (both of a partnership when he plays one alone, R10.3), the card each of them is giving,
gave and received, and their own face-down discards (``discard_visibility=hidden``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import board as B
from .data import CIRCLE, COLOURS, HOUSE, LETTERS, TRACK, partner, square_id

if TYPE_CHECKING:
    from .rules import PartnersState

_PIECE_IDS = tuple(tuple(f"{LETTERS[c].lower()}{k + 1}" for k in range(4)) for c in range(4))
_PARTNERSHIPS = ((0, 2), (1, 3))


def view(state: PartnersState, seat: int | None) -> dict[str, Any]:
    """The JSON view of ``state`` for the person ``seat`` (``None``: a spectator)."""
    pos = state.pos
    pieces = []
    track: dict[str, list[Any]] = {}
    for c in range(4):
        colour = COLOURS[c]
        ids = _PIECE_IDS[c]
        for k, p in enumerate(pos[c]):
            sid = square_id(c, p)
            pieces.append({"id": ids[k], "colour": colour, "square": sid})
            if 0 <= p < TRACK:
                if sid in track:
                    track[sid][1] += 1
                else:
                    track[sid] = [colour, 1]
    o = state.opts
    winner = state.winner
    outcome = state.outcome()
    v: dict[str, Any] = {
        "phase": state.phase,
        "to_act": state.to_act,
        "turn": state.turn if state.to_act is not None else None,
        "controllers": list(state.ctrl),
        "seat": seat,
        "colours": list(COLOURS),
        "partnerships": [list(t) for t in _PARTNERSHIPS],
        "active_colour": [COLOURS[B.active_colour(pos, s)] for s in range(4)],
        "pieces": pieces,
        "track": track,
        "circles": {COLOURS[c]: pos[c].count(CIRCLE) for c in range(4)},
        "houses": {COLOURS[c]: [HOUSE + k in pos[c] for k in range(4)] for c in range(4)},
        "hand_sizes": [len(h) for h in state.hands],
        "discard": list(state.discard),
        "face_down_discards": [len(h) for h in state.hdisc],
        "deck_size": len(state.deck),
        "dealer": state.dealer,
        "leader": state.leader,
        "deal_in_cycle": state.deal_no,
        "deals": state.deals,
        "max_deals": o.max_deals,
        "sat_out": list(state.sat_out),
        "committed": [c is not None for c in state.commits],
        "split_left": state.split_left,
        "split_used": [square_id(c, p) for c, p in state.split_used],
        "deck_profile": o.deck_profile,
        "fields_per_segment": o.fields_per_segment,
        "winner": None if winner is None else ([winner, winner + 2] if winner >= 0 else []),
        "result": None if outcome is None else list(outcome),
    }
    if seat is not None:
        mine = state.controlled(seat)
        primary = state.turn if state.turn in mine else mine[0]
        v["my_seats"] = mine
        v["colour_seat"] = primary
        v.update(private(state, primary))
        if len(mine) > 1:  # R10.3: a person playing two seats sees both hands
            v["hands"] = {str(k): private(state, k) for k in mine}
    return v


def private(state: PartnersState, k: int) -> dict[str, Any]:
    """What colour seat ``k`` knows alone: its hand, its exchange and its face-down discards."""
    return {
        "hand": list(state.hands[k]),
        "giving": state.commits[k],
        "gave": state.gave[k],
        "received": state.gave[partner(k)],
        "my_face_down_discards": list(state.hdisc[k]),
    }
