"""The caches of the Fuldrigger state (issue 20: speed) never change what the rules say.

A draft's clause candidates (``_dbase``) and its legal list carried from clause to clause
(``_dparts``), the per-ship action tables and the fast record updates (:func:`pieces.put`) are
checked against the rules computed afresh, at every decision of random games (with and without
the isthmus variant, three and four seats too); the cash clauses against :func:`cash_steps`.
"""

from __future__ import annotations

from typing import Any

import pytest

from spillebord.core import Rng
from spillebord.games.fuldrigger import GAME, FuldriggerOptions, Offer, Ship
from spillebord.games.fuldrigger.actions import Ask, Give, act
from spillebord.games.fuldrigger.pieces import (
    OFFER_FIELD,
    SHIP_BECALMED,
    SHIP_LOAD,
    SHIP_NODE,
    SHIP_PRIVATEER,
)
from spillebord.games.fuldrigger.rules import _ASK_FIELD, _GIVE_FIELD, _cash_clauses, cash_steps


def test_field_numbers_name_the_fields() -> None:
    for name, i in OFFER_FIELD.items():
        assert Offer._fields[i] == name
    assert [Ship._fields[i] for i in (SHIP_NODE, SHIP_PRIVATEER, SHIP_LOAD, SHIP_BECALMED)] == [
        "node",
        "privateer",
        "load",
        "becalmed",
    ]
    field = {"cash": "cash", "fort": "forts", "ship": "ships", "load": "loads"}
    for what, i in _GIVE_FIELD.items():
        assert Offer._fields[i] == "give_" + field[what]
    for what, i in _ASK_FIELD.items():
        assert Offer._fields[i] == "get_" + field[what]


def test_cash_clauses_are_the_cash_steps() -> None:
    amounts = [*range(0, 2100), *(10**k for k in range(14)), 3 * 10**12, 123_456_789_000]
    for amount in amounts:
        rooms = (-3, 0, 1, 9, 10, 11, 55, 99, 100, 101, 999, 1000, 1234, 99_999, 10**13, 10**14)
        for cash in (amount + r for r in rooms):
            for cls in (Give, Ask):
                steps = tuple([act(cls, "cash", str(n)) for n in cash_steps(amount, cash)])
                assert _cash_clauses(cls, amount, cash) == steps, (amount, cash)


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
            f._dparts = None
            assert s.legal() == f.legal()
            if s.draft is not None:  # the quick emptiness test of _draft_legal
                blank = Offer(0, 0, 0)
                terms = s.draft[3:10] != blank[3:10] or s.draft[11:13] != blank[11:13]
                assert terms == (not s.draft.is_empty())
            s.play(rng.choice(s.legal()))
            s.check()
