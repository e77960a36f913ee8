"""Why a Partners action is refused: a sentence for every way an action can be illegal, e.g.
``IllegalAction("Partners: play n5 y12 r3: the occupied red start field blocks the way (rule 5.4)")``.

The rules call :func:`why_illegal` only for an action that is not in ``legal()``; the
explanation never decides legality itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import board as B
from .actions import Discard, Give, Move, PartnersAction, Seven, Start, StopSplit, Swap
from .data import CARD_TYPES, CIRCLE, COLOURS, HOUSE, START_FIELD, TRACK, square_id

if TYPE_CHECKING:
    from .rules import PartnersState


def why_illegal(state: PartnersState, action: PartnersAction) -> str:
    """A sentence saying why ``action`` is not legal in ``state`` (which is not over)."""
    seat = state.turn
    assert seat is not None
    who = COLOURS[seat]
    phase = state.phase
    if phase == "exchange" and not isinstance(action, Give):
        return f"first every player gives one card to his partner ({who} to give)"
    if phase != "exchange" and isinstance(action, Give):
        return "the card exchange is over for this deal"
    if phase == "split" and not isinstance(action, Seven | StopSplit):
        return f"{who} must finish the 7 first ({state.split_left} steps left)"
    if isinstance(action, StopSplit):
        return "the 7 must use all seven steps (option split_must_use_all)"
    hand = state.hands[seat]
    card = ""
    if isinstance(action, Give | Start | Move):
        card = action.card
    elif isinstance(action, Swap):
        card = "SWAP"
    elif isinstance(action, Seven) and phase == "play":
        card = "S7"
    if card and card not in hand:
        return f"{who} holds no {CARD_TYPES[card].name_en} card"
    if isinstance(action, Give):
        return f"{who} cannot give {action.card}"
    if isinstance(action, Discard):
        return f"{who} has a usable card and must play it (rule 4.3)"
    a = B.active_colour(state.pos, seat)
    if isinstance(action, Start):
        if not CARD_TYPES[action.card].start:
            return f"{CARD_TYPES[action.card].name_en} is not a start card"
        return f"no {COLOURS[a]} piece waits in the start circle"
    if isinstance(action, Move | Seven):
        c, frm, to = action.colour, action.frm, action.to
        n = action.value if isinstance(action, Move) else action.steps
        if c != a:
            return f"{who} moves {COLOURS[a]} pieces now, not {COLOURS[c]} (rule 5.1)"
        if frm not in state.pos[c]:
            return f"there is no {COLOURS[c]} piece on {square_id(c, frm)}"
        if frm == CIRCLE:
            return "a piece in the start circle needs a start card"
        if isinstance(action, Move):
            t = CARD_TYPES[action.card]
            if (n > 0 and n not in t.forward) or (n < 0 and -n != t.backward):
                return f"{t.name_en} cannot move {n} steps"
            if n < 0 and frm >= HOUSE:
                return "pieces in the house never move backwards (rule 5.5.5)"
        reason = _path_problem(state, c, frm, n)
        if reason:
            return reason
        if isinstance(action, Seven):
            if state.split_used.count((c, frm)) >= state.pos[c].count(frm):
                return "each piece moves only once per 7 (rule 6.5.3)"
            if n > (state.split_left if phase == "split" else 7):
                return "the 7 has fewer steps left"
        if isinstance(action, Move) and n < 0:
            end = B.bwalk(c, frm, -n, B.blockers(state.pos), state.opts.fields_per_segment)
        else:
            ends = B.walk(
                c,
                frm,
                n,
                B.blockers(state.pos),
                B.house_mask(state.pos[c]),
                state.opts.house_entry == "optional",
                state.opts.house_overshoot == "bounce",
                state.opts.fields_per_segment,
            )
            end = ends[0] if len(ends) == 1 else -1
        if end >= 0 and end != to:
            return f"that move ends on {square_id(c, end)}, not {square_id(c, to)}"
        if isinstance(action, Seven):
            return "the rest of the 7 could not be used (rule 6.5.6: all seven steps must be used)"
        return "that move is not possible"
    if isinstance(action, Swap):
        for c, p in ((action.c1, action.p1), (action.c2, action.p2)):
            if p % 15 == 0 and not state.opts.swap_start_field:
                return f"a piece on a start field cannot be swapped ({square_id(c, p)})"
            if state.pos[c].count(p) > 1:
                return f"the protected pair on {square_id(c, p)} cannot be swapped"
        if action.c1 == action.c2 and not state.opts.allow_same_colour_swap:
            return "the two pieces must have different colours (option allow_same_colour_swap)"
        return "those pieces cannot be swapped"
    return "that is not a legal action now"


def _path_problem(state: PartnersState, c: int, p: int, n: int) -> str:
    """The first obstacle on an n-step path (negative n: backwards), or ''."""
    blk = B.blockers(state.pos)
    hm = B.house_mask(state.pos[c])
    if p >= HOUSE:
        hm &= ~(1 << (p - HOUSE))
    bounce = state.opts.house_overshoot == "bounce"
    for _ in range(abs(n)):
        size = state.opts.fields_per_segment
        q = B.fstep(c, p, blk, hm, False, size) if n > 0 else B.bstep(c, p, blk, hm, size)
        if q == B.BLOCKED:
            j = p
            while True:
                j = (j + (1 if n > 0 else -1)) % TRACK
                if j % 15 == 0 and j != START_FIELD[c] and blk[j // 15]:
                    break
            return f"the occupied {COLOURS[j // 15]} start field blocks the way (rule 5.4)"
        if q == B.OBSTRUCTED:
            if bounce:
                return ""
            return "the move cannot be completed in the house: no overshooting, no jumping (rule 5.5)"
        p = q
    return ""
