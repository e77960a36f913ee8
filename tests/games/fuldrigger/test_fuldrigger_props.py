"""Invariants over random games (Hypothesis), pinned legal-action counts, determinization,
rendering and the trading bot."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spillebord.ai import decide, make_agent
from spillebord.core import Rng
from spillebord.games.fuldrigger import GAME, FuldriggerOptions
from spillebord.games.fuldrigger import data as D
from spillebord.games.fuldrigger.positions import play, scenario
from spillebord.tables import replay_texts

WEIGHTS = {"sellship": 0.05, "end": 0.4, "attack": 6.0, "launch": 6.0, "join": 4.0, "fit": 2.0, "seize": 1.0}


def biased(state, rng):
    """A random player that rarely sells ships and likes privateering (more coverage)."""
    legal = state.legal()
    w = [WEIGHTS.get(a.verb, 1.0) for a in legal]
    x = rng.random() * sum(w)
    for a, wa in zip(legal, w, strict=True):
        x -= wa
        if x <= 0:
            return a
    return legal[-1]


def run(seats, seed, opts, check_every=1):
    s = GAME.new(seats, seed, opts)
    rng = Rng(seed + 1)
    texts = []
    reefs = [frozenset()] * seats
    odo: dict[tuple[str, str, int], int] = {}
    kinds = set()
    while s.to_act is not None:
        if len(texts) % check_every == 0:
            s.check()
            for p in range(seats):
                assert reefs[p] <= s.reefs[p], "I7: reef knowledge shrank"
            reefs = list(s.reefs)
            for sh in s.ships.values():
                if sh.load is None or check_every > 1:
                    odo = {k: v for k, v in odo.items() if k[0] != sh.id}
                else:
                    key = (sh.id, sh.load.good, sh.load.price)
                    assert sh.load.odo >= odo.get(key, 0), "I6: odometer went down"
                    odo[key] = sh.load.odo
        a = biased(s, rng)
        for e in s.play(a):
            kinds.add(e["kind"])
        texts.append(str(a))
        assert len(texts) < GAME.max_decisions
    s.check()
    assert s.round <= opts.rounds_limit
    return s, texts, kinds


@settings(max_examples=6)
@given(
    seed=st.integers(0, 2**31),
    seats=st.integers(2, 4),
    isthmus=st.booleans(),
    eliminate=st.booleans(),
    port_rule=st.sampled_from(["any_fortress", "defender_fortress_only"]),
)
def test_I1_to_I13_invariants_over_random_games(seed, seats, isthmus, eliminate, port_rule):
    opts = FuldriggerOptions(
        rounds_limit=4, isthmus_variant=isthmus, eliminate_shipless=eliminate, port_attack_rule=port_rule
    )
    s, texts, _ = run(seats, seed, opts)
    res = s.result()
    assert res is not None and len(res) == seats
    again = replay_texts(GAME, seats, seed, opts, texts)
    assert again == s  # I13
    if eliminate:
        for p in range(seats):
            if s.eliminated[p]:
                assert s.n_ships(p) == 0 and s.n_forts(p) == 0 and s.cash[p] == 0  # I10


def test_random_games_reach_attacks_offers_and_hazards():
    kinds = set()
    for seed in range(6):
        _, _, k = run(3, seed, FuldriggerOptions(rounds_limit=12, isthmus_variant=True), check_every=5)
        kinds |= k
    assert {"attack", "offer", "buy", "chance", "fortress", "fit", "roll", "sail"} <= kinds


def test_perft_pinned_counts():
    s = GAME.new(2, 1)
    assert len(s.legal()) == 4
    play(s, "home LON", "home AMS")
    counts = [len(s.legal())]
    st1 = scenario(
        ships=[{"owner": 0, "at": "LON"}, {"owner": 0, "at": "KANW"}, {"owner": 1, "at": "AMS"}], M=9
    )
    counts.append(len(st1.legal()))
    play(st1, "sail s2 NAT1")
    counts.append(len(st1.legal()))
    st2 = scenario(
        ships=[
            {"owner": 0, "at": "AZOR", "privateer": True},
            {"owner": 0, "at": "AZ3", "privateer": True},
            {"owner": 0, "at": "CAN"},
            {"owner": 1, "at": "AZOR"},
            {"owner": 1, "at": "CAN"},
        ],
        forts={"CAN": 1},
        cash=[300, 100],
        M=8,
    )
    counts.append(len(st2.legal()))
    play(st2, "offer 1")
    counts.append(len(st2.legal()))
    assert counts == [14, 13, 2, 17, 23], counts


def test_determinize_hides_only_the_deck_order():
    s = GAME.new(3, 5)
    for _ in range(3):
        play(s, str(s.legal()[0]))
    d = s.determinize(1, Rng(9))
    assert sorted(d.deck) == sorted(s.deck) and d.view(1) == s.view(1)
    assert d.ships == s.ships and d.cash == s.cash and d.discard == s.discard
    assert any(d.determinize(1, Rng(k)).deck != s.deck for k in range(5))


def test_views_are_json_and_render():
    from rich.console import Console

    from spillebord.games.fuldrigger.render import render

    s, _, _ = run(3, 11, FuldriggerOptions(rounds_limit=3), check_every=50)
    for seat in (None, 0, 1, 2):
        json.dumps(s.view(seat))
        Console(width=120, file=open("/dev/null", "w")).print(render(s.view(seat), seat))  # noqa: SIM115


def test_every_action_has_a_label_and_json():
    run(2, 3, FuldriggerOptions(rounds_limit=2), check_every=50)
    st1 = scenario(ships=[{"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}], forts={"CAN": 1})
    for a in st1.legal():
        assert a.label() and json.dumps(a.to_json())
    play(st1, "offer 1")
    for a in st1.legal():
        assert a.label() and a.to_json()["kind"] == a.verb


def _bot_vs_random(n_games, rounds):
    wins = 0
    for g in range(n_games):
        s = GAME.new(2, 1000 + g, FuldriggerOptions(rounds_limit=rounds))
        bot = g % 2
        agents = {bot: make_agent("trader", GAME), 1 - bot: make_agent("random", GAME)}
        rng = Rng(g)
        while s.to_act is not None:
            s.play(decide(agents[s.to_act], s, rng))
        wins += s.wealth(bot) > s.wealth(1 - bot)
    return wins


def test_trader_beats_random():
    assert _bot_vs_random(40, 10) >= 36


@pytest.mark.slow
def test_trader_beats_random_200_games_30_rounds():
    assert _bot_vs_random(200, 30) >= 160


def test_trader_makes_money_against_itself():
    s = GAME.new(2, 77, FuldriggerOptions(rounds_limit=12))
    bot = make_agent("trader", GAME)
    rng = Rng(1)
    while s.to_act is not None:
        s.play(decide(bot, s, rng))
    assert max(s.wealth(p) for p in range(2)) > 600


def test_greedy_agent_runs():
    s = GAME.new(2, 5, FuldriggerOptions(rounds_limit=2))
    agents = [make_agent("greedy", GAME), make_agent("random", GAME)]
    rng = Rng(3)
    n = 0
    while s.to_act is not None and n < 3000:
        s.play(decide(agents[s.to_act], s, rng))
        n += 1
    assert s.to_act is None


def test_data_is_replaceable_tables():
    assert D.CARD_BY_NUM[1].cities == ("CAN",) and D.PRICES["KBH"]["Te"] == (200, False, True)
