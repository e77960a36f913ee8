"""What a seat may know of an 88 position, as JSON (``State.view`` delegates here).

Everything is public except the order of the deck and, during a secret setup (B14), the
other seats' panels and the number a seat is placing. Views name a panel's pieces by
placement ids (``T:ab``, ``U:c``: position, then the covered segments), the ids that
``Place.to_json`` uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import (
    OPTIONS,
    STOCK_L,
    STOCK_S,
    Geometry,
    counts,
    distance,
    tens_of,
    tiling_items,
    tiling_text,
    units_of,
)

if TYPE_CHECKING:
    from .rules import EightyEightState

_PLACEMENT_IDS: dict[int, tuple[str, ...]] = {}


def placements_json(panel: int) -> list[str]:
    """Placement ids of a panel: ``T:ab``, ``U:c`` (position : covered segments)."""
    got = _PLACEMENT_IDS.get(panel)
    if got is None:
        got = tuple(f"T:{n}" for n in tiling_items(tens_of(panel))) + tuple(
            f"U:{n}" for n in tiling_items(units_of(panel))
        )
        _PLACEMENT_IDS[panel] = got
    return list(got)


_REACH_BY_OPTION: dict[tuple[int, int], dict[str, tuple[int, ...]]] = {}


def reach_by_option(geo: Geometry, panel: int) -> dict[str, tuple[int, ...]]:
    """Option → the numbers it can make from ``panel`` (for views: clients and bots)."""
    key = (id(geo), panel)
    got = _REACH_BY_OPTION.get(key)
    if got is None:
        out: dict[str, list[int]] = {o: [] for o in OPTIONS}
        for o, n in geo.moves(panel):
            out[o].append(n)
        got = {o: tuple(v) for o, v in out.items()}
        _REACH_BY_OPTION[key] = got
    return got


_PanelFacts = tuple[str, str, str, tuple[str, ...], int, int, int, tuple[tuple[str, tuple[int, ...]], ...]]
_FACTS: dict[tuple[int, int], _PanelFacts] = {}


def _facts(geo: Geometry, panel: int) -> _PanelFacts:
    """What a visible panel shows, computed once per panel: texts, placement ids, number,
    piece counts and the numbers each option reaches."""
    key = (id(geo), panel)
    got = _FACTS.get(key)
    if got is None:
        t, u = tiling_text(tens_of(panel)), tiling_text(units_of(panel))
        n_l, n_s = counts(panel)
        placements = tuple(placements_json(panel))
        reach = tuple(reach_by_option(geo, panel).items())
        got = _FACTS[key] = (f"{t}|{u}", t, u, placements, geo.panel_number[panel], n_l, n_s, reach)
    return got


_HIDDEN_PANEL = {
    "panel": None,
    "tens": None,
    "units": None,
    "placements": None,
    "number": None,
    "pieces": None,
    "supply": None,
    "distance": None,
    "reach": None,
}


def view(state: EightyEightState, seat: int | None) -> dict[str, Any]:
    """JSON-ready: exactly what ``seat`` may know (``None``: a spectator)."""
    s = state
    o = s.opts
    geo = s.geo
    target = s.target
    hidden_setup = s.phase == "setup" and o.secret_setup
    players = []
    for i, p in enumerate(s.panels):
        entry: dict[str, Any] = {"seat": i, "laid": p is not None}
        if p is not None and (not hidden_setup or i == seat):
            text, tens, units, placements, n, n_l, n_s, reach = _facts(geo, p)
            entry["panel"] = text
            entry["tens"] = tens
            entry["units"] = units
            entry["placements"] = list(placements)
            entry["number"] = n
            entry["pieces"] = {"L": n_l, "S": n_s}
            entry["supply"] = {"L": STOCK_L - n_l, "S": STOCK_S - n_s}
            entry["distance"] = distance(n, target) if target is not None else None
            entry["reach"] = {k: list(v) for k, v in reach}
        else:
            entry.update(_HIDDEN_PANEL)
        entry["peg"] = s.pegs[i]
        entry["points"] = s.points[i]
        players.append(entry)
    pending: dict[str, Any] | None = None
    if s.pending_number is not None:
        if s.phase != "setup" or not o.secret_setup or seat == s.to_act:
            pending = {
                "option": s.pending_option,
                "number": s.pending_number,
                "tens": tiling_text(s.pending_tens) if s.pending_tens is not None else None,
            }
        else:
            pending = {"option": None, "number": None, "tens": None}
    outcome = s.outcome()
    return {
        "game": "88",
        "phase": s.phase,
        "to_act": s.to_act,
        "round": s.round_no + (0 if s.phase in ("setup", "over") else 1),
        "rounds_total": s.rounds_total(),
        "scoring": o.scoring,
        "track_length": o.track_length,
        "setter": s.setter,
        "cards": list(s.cards),
        "target": target,
        "target_choices": s.target_choices() if s.phase == "target" else None,
        "deck_size": len(s.deck),
        "discard": sorted(s.discard),
        "players": players,
        "pending": pending,
        "round_moves": [{"seat": i, "option": op, "number": n} for (i, op, n) in s.round_log],
        "last_round": s.last_round,
        "winner": s.winner,
        "result": list(outcome) if outcome is not None else None,
        "stock": {"L": STOCK_L, "S": STOCK_S},
        "alt_glyphs": o.alt_glyphs,
    }


__all__ = ["placements_json", "reach_by_option", "view"]
