"""Option ranges a server enforces on top of each game's own: the options that set how long
a game may last are capped, so that nobody can start an endless table (the audit made bot
games of 10^6 Metscri rounds and 10^9 Fuldrigger rounds, whose logs filled the database).

The caps are generous for play (above every printed variant) and are published in the
lobby's option schema (``max``), so the web form knows them too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import BadRequest

LENGTH_CAPS: dict[str, dict[str, tuple[int, int]]] = {
    # game id → option → (least, most) accepted on a server; None (the option's "off") passes
    # where the game's default is None and the game ends by its own rules.
    "metscri": {"max_rounds": (1, 200), "target": (1, 200)},
    "88": {"max_rounds": (1, 200), "points_rounds": (1, 48), "track_length": (1, 30)},
    "touche": {
        "max_turns": (1, 1000),
        "match_games": (1, 9),
        "match_max_games": (0, 27),
        "stall_turns": (1, 60),
    },
    "revir": {"max_turns": (1, 800)},  # 0 would mean "no cap"
    "partners": {"max_deals": (1, 300)},
    "kasino": {"target": (1, 100)},
    "fuldrigger": {"rounds_limit": (1, 60)},
}


def check_lengths(game_id: str, title: str, options: Mapping[str, Any]) -> None:
    """:class:`BadRequest` if an option that sets a game's length is outside the server's range."""
    for name, (lo, hi) in LENGTH_CAPS.get(game_id, {}).items():
        value = options.get(name)
        if value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise BadRequest(
                f"{title}: option {name} must be between {lo} and {hi} on this server (it sets how long "
                f"a game may last), not {value!r}"
            )


def capped_schema(game_id: str, schema: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The option schema with the server's ranges in ``min`` / ``max``."""
    caps = LENGTH_CAPS.get(game_id, {})
    out = []
    for o in schema:
        cap = caps.get(str(o.get("name")))
        if cap is not None:
            lo, hi = cap
            o = {**o, "min": max(lo, o.get("min") or lo), "max": min(hi, o["max"]) if o.get("max") else hi}
        out.append(o)
    return out


__all__ = ["LENGTH_CAPS", "capped_schema", "check_lengths"]
