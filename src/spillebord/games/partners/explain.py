"""Parsing any well-formed Partners action text, and saying why an action is not legal now.

``PartnersGame.parse`` accepts every well-formed text (not only the legal ones), so that
``play`` can refuse an illegal one with a reason, e.g.
``IllegalAction("Partners: the occupied red start field blocks the way (5.4)")``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core import IllegalAction, ParseError

from . import board as B
from .data import CARD_TYPES, CIRCLE, COLOURS, HOUSE, START_FIELD, TRACK, parse_square, square_id

if TYPE_CHECKING:
    from .rules import PartnersAction, PartnersState


def _card(text: str) -> tuple[str, int | None]:
    code, _, value = text.upper().partition("=")
    if code not in CARD_TYPES:
        raise ParseError(f"Partners: no card {text!r}; cards are {', '.join(c.lower() for c in CARD_TYPES)}")
    try:
        return code, int(value) if value else None
    except ValueError:
        raise ParseError(f"Partners: bad card value in {text!r}") from None


def _square(text: str, colour: int) -> tuple[int, int]:
    """(colour, position) of a square id; a house or circle id names its colour."""
    try:
        c, p = parse_square(text)
    except (KeyError, ValueError):
        raise ParseError(f"Partners: no square {text!r}") from None
    return (colour if c is None else c), p


def parse_action(state: PartnersState, text: str) -> PartnersAction:
    from .rules import Discard, Give, Move, Seven, Start, StopSplit, Swap

    words = text.strip().lower().split()
    seat = state.turn
    assert seat is not None
    a = B.active_colour(state.pos, seat)
    try:
        if words == ["discard"]:
            return Discard()
        if words == ["seven", "stop"]:
            return StopSplit()
        if len(words) == 2 and words[0] == "give":
            return Give(_card(words[1])[0])
        if len(words) == 2 and words[0] == "start":
            return Start(_card(words[1])[0], a)
        if len(words) == 4 and words[0] == "play":
            code, value = _card(words[1])
            t = CARD_TYPES[code]
            if value is None:
                value = t.forward[0] if t.forward else -t.backward
            if t.backward and value > 0:
                value = -value
            c, frm = _square(words[2], a)
            _, to = _square(words[3], c)
            return Move(code, value, c, frm, to)
        if len(words) == 4 and words[0] == "seven":
            c, frm = _square(words[1], a)
            _, to = _square(words[3], c)
            return Seven(c, frm, int(words[2]), to)
        if len(words) == 3 and words[0] == "swap":
            out = []
            for w in words[1:]:
                _, p = _square(w, a)
                o, _k = B.occupant(state.pos, p) if 0 <= p < TRACK else (-1, 0)
                if o < 0:
                    raise IllegalAction(f"Partners: there is no piece on {w.upper()} to swap")
                out.append((o, p))
            (c1, p1), (c2, p2) = sorted(out, key=lambda x: x[1])
            return Swap(c1, p1, c2, p2)
    except ValueError:
        pass
    raise ParseError(f"Partners: {text.strip()!r} is not a Partners action")


def why_illegal(state: PartnersState, action: PartnersAction) -> str:
    """A sentence saying why ``action`` is not legal in ``state`` (which is not over)."""
    from .rules import Discard, Give, Move, Seven, Start, StopSplit, Swap

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
        return f"{who} has a usable card and must play it (spec 4.3)"
    a = B.active_colour(state.pos, seat)
    if isinstance(action, Start):
        if not CARD_TYPES[action.card].start:
            return f"{CARD_TYPES[action.card].name_en} is not a start card"
        return f"no {COLOURS[a]} piece waits in the start circle"
    if isinstance(action, Move | Seven):
        c, frm, to = action.colour, action.frm, action.to
        n = action.value if isinstance(action, Move) else action.steps
        if c != a:
            return f"{who} moves {COLOURS[a]} pieces now, not {COLOURS[c]} (spec 5.1)"
        if frm not in state.pos[c]:
            return f"there is no {COLOURS[c]} piece on {square_id(c, frm)}"
        if frm == CIRCLE:
            return "a piece in the start circle needs a start card"
        if isinstance(action, Move):
            t = CARD_TYPES[action.card]
            if (n > 0 and n not in t.forward) or (n < 0 and -n != t.backward):
                return f"{t.name_en} cannot move {n} steps"
            if n < 0 and frm >= HOUSE:
                return "pieces in the house never move backwards (spec 5.5.5)"
        reason = _path_problem(state, c, frm, n)
        if reason:
            return reason
        if isinstance(action, Seven):
            if state.split_used.count((c, frm)) >= state.pos[c].count(frm):
                return "each piece moves only once per 7 (spec 6.5.3)"
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
            return "the rest of the 7 could not be used (spec 6.5.6: all seven steps must be used)"
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
            return f"the occupied {COLOURS[j // 15]} start field blocks the way (spec 5.4)"
        if q == B.OBSTRUCTED:
            if bounce:
                return ""
            return "the move cannot be completed in the house: no overshooting, no jumping (spec 5.5)"
        p = q
    return ""
