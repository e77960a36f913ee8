"""The caches of the Fuldrigger state (issue 20: speed) never change what the rules say.

A draft's clause candidates (``_dbase``), the per-ship action tables and the fast record
updates (:func:`pieces.put`) are checked against the rules computed afresh, at every decision
of random games (with and without the isthmus variant, three and four seats too).
"""

from __future__ import annotations

from typing import Any

import pytest

from spillebord.core import Rng
from spillebord.games.fuldrigger import GAME, FuldriggerOptions, Offer, Ship
from spillebord.games.fuldrigger.pieces import (
    OFFER_FIELD,
    SHIP_BECALMED,
    SHIP_LOAD,
    SHIP_NODE,
    SHIP_PRIVATEER,
)


def test_field_numbers_name_the_fields() -> None:
    for name, i in OFFER_FIELD.items():
        assert Offer._fields[i] == name
    assert [Ship._fields[i] for i in (SHIP_NODE, SHIP_PRIVATEER, SHIP_LOAD, SHIP_BECALMED)] == [
        "node",
        "privateer",
        "load",
        "becalmed",
    ]


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (2, {}),
        (3, {"isthmus_variant": True}),
        (4, {"ship_sale_in_port_only": True, "privateer_fit_cost": 20}),
    ],
)
def test_cached_legal_lists_agree_with_fresh_ones(seats: int, options: dict[str, Any]) -> None:
    for seed in range(12):
        s = GAME.new(seats, seed, FuldriggerOptions(**options))
        rng = Rng(seed)
        while s.to_act is not None:
            f = s.copy()
            f._legal = None
            f._dbase = None
            assert s.legal() == f.legal()
            if s.draft is not None:  # the quick emptiness test of _draft_legal
                blank = Offer(0, 0, 0)
                terms = s.draft[3:10] != blank[3:10] or s.draft[11:13] != blank[11:13]
                assert terms == (not s.draft.is_empty())
            s.play(rng.choice(s.legal()))
            s.check()
