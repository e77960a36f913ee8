"""Partners' search kit: the fitted value scale, and the bot's faster evaluation, which must
choose exactly as before (the board-keyed caches, the quick one-ply values, the remembered
split 7s)."""

from __future__ import annotations

import math

import pytest

from spillebord.ai import bots_for
from spillebord.core import Rng, registry
from spillebord.games.partners import bots as PB
from spillebord.games.partners.actions import Seven
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


def test_one_second_of_search_is_300_iterations() -> None:
    assert bots_for(GAME).iterations == 300


def test_colour_values_for_all_colours_equal_colour_value_on_every_board() -> None:
    boards = {s.pos for s in played(range(3))}
    assert len(boards) > 400
    for pos in boards:
        PB._COLOUR_VALUES.clear()
        assert PB._colour_values(pos) == tuple(PB.colour_value(pos, c) for c in range(4))


def test_quick_value_after_a_move_equals_the_value_after_playing_it() -> None:
    checked = 0
    for s in played(range(4), every=3):
        if s.phase == "exchange":
            continue
        assert s.turn is not None
        t = s.turn % 2
        for a in s.legal():
            v = PB._value_after(s.pos, a, t)
            if isinstance(a, Seven):
                assert v is None
                continue
            c = s.copy()
            c.play(a)
            assert v == PB.team_value(c, t)
            checked += 1
    assert checked > 600


def test_the_bot_chooses_the_same_with_cold_and_warm_caches() -> None:
    bot = PB.PartnersBot(GAME)
    positions = [s for s in played(range(3), every=2) if s.phase != "exchange" and len(s.legal()) > 1]
    sevens = sum(any(isinstance(a, Seven) for a in s.legal()) for s in positions)
    assert sevens > 20
    warm = [bot.act(s, s.to_act or 0, Rng(i)) for i, s in enumerate(positions)]
    cold = []
    for i, s in enumerate(positions):
        PB._COLOUR_VALUES.clear()
        PB._SPLITS.clear()
        cold.append(bot.act(s, s.to_act or 0, Rng(i)))
    assert warm == cold


def reference_value(s: PartnersState, t: int) -> float:
    """``team_value`` as it was written first: no cache."""
    if s.winner is not None:
        return 0.0 if s.winner < 0 else (10_000.0 if s.winner == t else -10_000.0)
    v = 0.0
    for c in range(4):
        cv = PB.colour_value(s.pos, c)
        v += cv if c % 2 == t else -cv
    return v


def reference_split(s: PartnersState, seat: int, budget: list[int]) -> float:
    if s.phase != "split" or s.turn != seat or budget[0] <= 0:
        return reference_value(s, seat % 2)
    best = float("-inf")
    for a in s.legal():
        budget[0] -= 1
        c = s.copy()
        c.play(a)
        best = max(best, reference_split(c, seat, budget))
        if budget[0] <= 0:
            break
    return best


def reference_play(s: PartnersState, rng: Rng) -> object:
    """The bot's play decision as it was written first: every move played in a copy."""
    seat = s.turn
    assert seat is not None
    best: list[object] = []
    best_v = float("-inf")
    for a in s.legal():
        c = s.copy()
        c.play(a)
        if isinstance(a, Seven) and c.phase == "split" and c.turn == seat:
            v = reference_split(c, seat, [200])
        else:
            v = reference_value(c, seat % 2)
        if v > best_v + 1e-9:
            best_v, best = v, [a]
        elif abs(v - best_v) <= 1e-9:
            best.append(a)
    return best[0] if len(best) == 1 else rng.choice(best)


def test_the_bot_plays_as_the_uncached_bot_it_replaces() -> None:
    bot = PB.PartnersBot(GAME)
    positions = [s for s in played(range(2, 4), every=2) if s.phase != "exchange" and len(s.legal()) > 1]
    assert len(positions) > 100
    for i, s in enumerate(positions):
        assert bot.act(s, s.to_act or 0, Rng(i)) == reference_play(s, Rng(i))
