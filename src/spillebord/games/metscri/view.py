"""What a seat may know of a Metscri position, as JSON (``MetscriState.view`` delegates here).

Per square (``"r3c4"``): its ring, its height and its cards bottom to top, each ``{"card":
id or None, "up": bool}``. A card's id is shown when it lies face up, to the spier right after
a Spy, and, with ``memory_aid``, when the seat knows it (A19); a spectator (``seat=None``)
sees the cards known to every seat. Then the turn (phase, rolls, AP, cards turned, the square
just spied), the scores, the seat's own hand, hand sizes, the piles (the buy pile's size and,
after a reshuffle, its public composition; the matched pile face up) and, once the game is
over, the winners (of a truncated game: the seats with the most M-points).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import CARD_ID, PHASE_NAMES, RING, SQ_ID, SQUARES

if TYPE_CHECKING:
    from .rules import MetscriState

_SQUARE_KEYS: tuple[tuple[int, str, int], ...] = tuple((s, SQ_ID[s], RING[s]) for s in SQUARES)


def view(state: MetscriState, seat: int | None) -> dict[str, Any]:
    """The JSON view of ``state`` for ``seat`` (``None``: a spectator)."""
    board: dict[str, Any] = {}
    up = state.up
    known = state.known
    memory = state.opts.memory_aid
    everyone = state.all_seats
    spied = state.pending if seat is not None and state.to_act == seat else -1
    bit = 1 << seat if seat is not None else 0
    for s, name, ring in _SQUARE_KEYS:
        st = state.board[s]
        if not st:
            board[name] = {"ring": ring, "height": 0, "cards": []}
            continue
        top = len(st) - 1
        top_up = bool((up >> s) & 1)
        cards = []
        for lvl, c in enumerate(st):
            face_up = lvl == top and top_up
            if face_up or (lvl == top and s == spied):
                vis = True
            elif seat is None:
                vis = memory and known[c] == everyone
            else:
                vis = memory and bool(known[c] & bit)
            cards.append({"card": CARD_ID[c] if vis else None, "up": face_up})
        board[name] = {"ring": ring, "height": len(st), "cards": cards}
    return {
        "to_act": state.to_act,
        "phase": PHASE_NAMES[state.phase],
        "seat": seat,
        "seats": state.seats,
        "scores": list(state.points),
        "target": state.target,
        "round": state.round,
        "max_rounds": state.opts.max_rounds,
        "rolls": list(state.rolls),
        "ap": state.ap,
        "ap_earned": state.ap_earned,
        "bank": list(state.bank),
        "turned": state.turned,
        "next_turn_cost": state.turned,
        "spied": SQ_ID[state.pending] if state.pending >= 0 else None,
        "board": board,
        "hand": [CARD_ID[c] for c in state.hands[seat]] if seat is not None else None,
        "hand_sizes": [len(h) for h in state.hands],
        "buy_size": len(state.buy),
        "buy_cards": sorted(CARD_ID[c] for c in state.buy) if state.reshuffled else None,
        "matched": [CARD_ID[c] for c in state.matched],
        "winners": list(state.leaders()) if state.to_act is None else None,
    }
