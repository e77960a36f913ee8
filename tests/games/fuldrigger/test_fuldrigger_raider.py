"""The raider (kaper), Fuldrigger's bot at war: rule 9.2's odds, when it attacks, whom it
sends, what it seizes, where its privateers wait, and what it does against the trader."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spillebord.core import Rng, registry
from spillebord.games.fuldrigger import bots as FB
from spillebord.games.fuldrigger.actions import Attack
from spillebord.games.fuldrigger.data import CODES
from spillebord.games.fuldrigger.positions import dice2, scenario
from spillebord.testing import play

RNG = Rng(0)


def test_attack_odds_are_rule_9_2s_table_on_two_dice() -> None:
    # attackers -> (lose 2-5 / 2-4 / 2-3 / 2, take 10-12 / 9-12 / 8-12 / 7-12), out of 36
    want = {1: (10, 6), 2: (6, 10), 3: (3, 15), 4: (1, 21)}
    for n, (lose, take) in want.items():
        got = FB.ATTACK_ODDS[n]
        assert (Fraction(got[0]).limit_denominator(36), Fraction(got[1]).limit_denominator(36)) == (
            Fraction(lose, 36),
            Fraction(take, 36),
        )


def _two_on_one(cargo_price: int = 50, privateers: int = 2):
    """Rule F13's position: seat 0's privateers on AZ2, seat 1's loaded ship on AZOR, M 7."""
    ships = [{"owner": 0, "at": "AZ2", "privateer": True} for _ in range(privateers)]
    ships.append({"owner": 1, "at": "AZOR", "cargo": ("Te", cargo_price, 4)})
    return scenario(M=7, ships=ships, dice=dice2(8))


def test_the_gain_of_two_privateers_on_a_loaded_ship() -> None:
    st = _two_on_one(50)
    raider = FB.RaiderAgent()
    # take 10/36 x twice (100 ship + 50 load), lose 6/36 x 100
    assert raider.attack_gain(st, Attack(1, "AZOR")) == pytest.approx(10 / 36 * 300 - 6 / 36 * 100)


def test_it_attacks_when_the_swing_pays() -> None:
    st = _two_on_one(50)
    assert str(FB.RaiderAgent().act(st, 0, RNG)) == "attack 1 AZOR"
    # ... and the trader, which stays out of trade wars, does not
    assert not str(FB.TraderAgent().act(st, 0, RNG)).startswith("attack")


def test_one_privateer_alone_does_not_attack() -> None:
    # 6/36 x 300 - 10/36 x 100 = 22.2 pays, but 6/36 x 200 - 10/36 x 100 = 5.6 (an empty
    # ship) is under the 10 ducats asked for
    st = scenario(
        M=7,
        ships=[{"owner": 0, "at": "AZ2", "privateer": True}, {"owner": 1, "at": "AZOR"}],
        dice=dice2(8),
    )
    raider = FB.RaiderAgent()
    assert raider.attack_gain(st, Attack(1, "AZOR")) == pytest.approx(6 / 36 * 200 - 10 / 36 * 100)
    assert not str(raider.act(st, 0, RNG)).startswith("attack")


def test_every_privateer_that_can_reach_joins_then_it_launches_and_seizes_the_richest() -> None:
    st = scenario(
        M=7,
        ships=[
            {"owner": 0, "at": "AZ2", "privateer": True},
            {"owner": 0, "at": "AZ2", "privateer": True},
            {"owner": 0, "at": "AZ2", "privateer": True},
            {"owner": 1, "at": "AZOR", "cargo": ("Te", 30, 4)},
            {"owner": 1, "at": "AZOR", "cargo": ("Si", 90, 4)},
        ],
        dice=dice2(12),
    )
    raider = FB.RaiderAgent()
    seen = []
    while st.phase != "free" or not seen:
        a = raider.act(st, 0, RNG)
        seen.append(str(a))
        play(st, str(a))
        if st.phase == "seize":
            assert str(raider.act(st, 0, RNG)) == "seize s5"  # the silk, 100 + 90
            break
    assert seen[:5] == ["attack 1 AZOR", "join s1", "join s2", "join s3", "launch"]


def test_it_fits_its_empty_ships_out_at_home_and_keeps_the_merchants_it_is_told_to() -> None:
    ships = [{"owner": 0, "at": "LON"}, {"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}]
    assert str(FB.RaiderAgent().act(scenario(ships=ships), 0, RNG)) == "fit s1"
    st = scenario(ships=[{"owner": 0, "at": "LON", "privateer": True}, *ships])
    assert not str(FB.RaiderAgent(traders=2).act(st, 0, RNG)).startswith("fit")
    assert str(FB.RaiderAgent(privateers=1).act(st, 0, RNG)) != "fit s2"


def test_its_privateers_wait_ahead_of_the_richest_loaded_ship_short_of_its_port() -> None:
    st = scenario(
        ships=[
            {"owner": 0, "at": "LON", "privateer": True},
            {"owner": 1, "at": "AZOR", "cargo": ("Te", 50, 4)},
        ]
    )
    raider = FB.RaiderAgent()
    here = st.ships["s1"].node
    station = raider.station(st, 0, here)
    assert station is not None
    o = st.ships["s2"]
    t = FB.target(st, o)
    assert t is not None and station != t
    # on the loaded ship's route to its market, at most eight squares on
    nxt = FB.plan_for(st.reefs[1]).next[t]
    node, path = o.node, []
    while node != t:
        node = nxt[node]
        path.append(node)
    assert station in path[:8]
    assert raider._target(st, st.ships["s1"]) == station
    # with no loaded ship of the opponent's there is nothing to wait for
    bare = scenario(ships=[{"owner": 0, "at": "LON", "privateer": True}, {"owner": 1, "at": "AZOR"}])
    assert raider.station(bare, 0, bare.ships["s1"].node) is None


def _play(game, agents, seed: int):
    s = game.new(2, seed)
    while s.to_act is not None:
        who = s.to_act
        s.play(agents[who].act(s.determinize(who, RNG), who, RNG))
    return s


def test_the_raider_beats_the_trader_and_against_itself_nobody_sails() -> None:
    game = registry.get("fuldrigger")
    raider, trader = FB.RaiderAgent(game), FB.TraderAgent(game)
    wins = 0.0
    for seed in range(1, 11):
        for rs in (0, 1):
            out = _play(game, {rs: raider, 1 - rs: trader}, seed).outcome()
            assert out is not None
            wins += out[rs]
    assert wins >= 14  # of 20 (0.92 over 200 in the arena: docs/bots.md)
    s = _play(game, {0: raider, 1: FB.RaiderAgent(game)}, 1)
    assert s.outcome() == (0.5, 0.5) and s.scores()[0] == s.scores()[1]


def test_the_raider_is_a_registered_bot() -> None:
    from spillebord.ai import make_agent

    assert make_agent("raider", registry.get("fuldrigger")).name == "raider"


def test_an_idle_privateer_takes_a_race_bonus_it_can_reach_this_turn() -> None:
    # C07: the first ship into New York receives 50; NWF1 -> NWF2 -> NYCS -> NYK is 3 squares
    ships = [{"owner": 0, "at": "NWF1", "privateer": True}, {"owner": 1, "at": "AMS"}]
    raider = FB.RaiderAgent()
    st = scenario(M=9, ships=ships, races=[7])
    assert CODES[raider._target(st, st.ships["s1"])] == "NYK"
    assert str(raider.act(st, 0, RNG)) == "sail s1 NWF2"
    play(st, "sail s1 NWF2")
    while st.phase == "move":
        play(st, str(raider.act(st, 0, RNG)))
    assert CODES[st.ships["s1"].node] == "NYK" and st.cash[0] == 100 + 50 and st.races == ()
    # out of reach this turn, it stays: at sea a privateer can be attacked
    st = scenario(M=2, ships=ships, races=[7])
    assert raider._target(st, st.ships["s1"]) is None
    assert FB.RaiderAgent(races=False)._target(scenario(M=9, ships=ships, races=[7]), st.ships["s1"]) is None


def test_under_threat_a_merchant_sails_only_to_a_port_it_can_reach_in_the_move() -> None:
    # a loaded tea ship in Lisbon; tea sells in the European cities, London 11 squares off
    lis = [{"owner": 0, "at": "LIS", "cargo": ("Te", 50, 4)}]
    raider, trader = FB.RaiderAgent(), FB.TraderAgent()
    calm = scenario(M=6, ships=[*lis, {"owner": 1, "at": "AMS"}])
    threat = scenario(M=6, ships=[*lis, {"owner": 1, "at": "AMS", "privateer": True}])
    s = threat.ships["s1"]
    # without an enemy privateer it sails as the trader does
    assert raider._target(calm, calm.ships["s1"]) == trader._target(calm, calm.ships["s1"])
    far = trader._target(threat, s)
    assert far is not None
    steps = FB.plan_for(threat.reefs[0]).steps
    assert steps[far][s.node] > 6
    # with one, and no market within six squares, it waits in port
    assert raider._target(threat, s) is None
    assert not str(raider.act(threat, 0, RNG)).startswith("sail s1")
    # with a roll that reaches a market, it goes there
    big = scenario(M=18, ships=[*lis, {"owner": 1, "at": "AMS", "privateer": True}])
    t = raider._target(big, big.ships["s1"])
    assert t is not None and steps[t][s.node] <= 18
