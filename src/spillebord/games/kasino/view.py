"""The JSON a seat sees of a Kasino position (``KasinoState.view`` delegates here).

Public (rule 12 of ``docs/rules/kasino.md``): the table, every trick pile, sweeps, the stock's
size and each hand's size, build owners and values, scores. Private: the cards in each hand
(a seat sees its own) and the order of the stock (nobody).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import CARD_IDS
from .scoring import tally

if TYPE_CHECKING:
    from .rules import KasinoState


def view(state: KasinoState, seat: int | None) -> dict[str, Any]:
    """Exactly what ``seat`` may know (``None``: a spectator)."""
    s = state
    o = s.o
    own = None if seat is None else [CARD_IDS[c] for c in s.hands[seat]]
    tallies = [tally(s.piles[i], s.sweeps[i]) for i in range(s.seats)]
    over = s.to_act is None
    return {
        "game": "kasino",
        "seat": seat,
        "to_act": s.to_act,
        "phase": "over" if over else "play",
        "seats": s.seats,
        "dealer": s.dealer,
        "round": s.round_no,
        "hand_no": s.hand_no,
        "hands_per_round": s.hands_per_round,
        "last_hand": s.last_hand,
        "leader": s.leader,
        "stock": len(s.stock),
        "hand": own,
        "hand_sizes": [len(h) for h in s.hands],
        "table": {
            "loose": [CARD_IDS[c] for c in s.loose],
            "builds": [
                {
                    "id": b.id,
                    "value": b.value,
                    "kind": "multiple" if b.multiple else "simple",
                    "groups": [[CARD_IDS[c] for c in g] for g in b.groups],
                    "owner": b.owner,
                }
                for b in s.builds
            ],
        },
        "piles": [
            {
                "cards": [CARD_IDS[c] for c in s.piles[i]],
                "count": t.cards,
                "spades": t.spades,
                "aces": t.aces,
                "big_casino": t.big_casino,
                "little_casino": t.little_casino,
                "sweeps": t.sweeps,
            }
            for i, t in enumerate(tallies)
        ],
        "must_capture": [
            bool(s.built_last >> i & 1) and o.build_obligations == "text" for i in range(s.seats)
        ],
        "last_capturer": s.last_capturer,
        "set_aside": [CARD_IDS[c] for c in s.set_aside],
        "teams": [list(range(i, s.seats, s.sides)) for i in range(s.sides)] if s.sides != s.seats else None,
        "totals": [s.totals[s.side_of[i]] for i in range(s.seats)],
        "target": o.target,
        "match_format": o.match_format,
        "history": [{"round": h["round"], "points": [dict(d) for d in h["points"]]} for h in s.history],
        # the final points per seat (partners share their team's), once the game is over
        "result": list(s.scores()) if over else None,
    }
