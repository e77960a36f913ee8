"""Partners' search kit: the fitted value scale, and the bot's faster evaluation, which must
choose exactly as before (the board-keyed caches, the quick one-ply values, the remembered
split 7s)."""

from __future__ import annotations

import math

import pytest

from spillebord.ai import bots_for
from spillebord.core import Rng, registry
from spillebord.games.partners import bots as PB
from spillebord.games.partners.rules import PartnersState

GAME = registry.get("partners")


def played(seeds: range, every: int = 1) -> list[PartnersState]:
    """Positions of games the playout policy plays at four seats (every ``every``-th)."""
    policy = bots_for(GAME).rollout
    assert policy is not None
    out: list[PartnersState] = []
    for seed in seeds:
        s = GAME.new(4, seed)
        assert isinstance(s, PartnersState)
        rng = Rng(seed)
        n = 0
        while s.to_act is not None:
            if n % every == 0:
                out.append(s.copy())
            s.play(policy(s, rng))
            n += 1
    return out


def test_search_values_positions_at_scale_300_and_the_beginner_keeps_160() -> None:
    kit = bots_for(GAME)
    assert kit.scale == 160.0 and PB.VALUE_SCALE == 300.0
    assert kit.value is not None
    s = played(range(1), every=40)[3]
    assert s.winner is None
    v = PB.team_value(s, 0)
    assert v != 0.0
    want = 1.0 / (1.0 + math.exp(-v / 300.0))
    got = kit.value(s)
    assert got[0] == pytest.approx(want) and got[2] == pytest.approx(want)
    assert got[1] == pytest.approx(1.0 / (1.0 + math.exp(v / 300.0)))
