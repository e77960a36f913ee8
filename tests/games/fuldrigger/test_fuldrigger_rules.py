"""Numbered rules of Fuldrigger (docs/rules/fuldrigger.md), chance cards and options, one test each."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spillebord.core import IllegalAction, OptionError, ParseError, Rng
from spillebord.games.fuldrigger import GAME, Attack, FuldriggerOptions, Load, Sail, Sell
from spillebord.games.fuldrigger import data as D
from spillebord.games.fuldrigger.positions import dice2, position, scenario
from spillebord.testing import play, refused

RULES_DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "fuldrigger.md"


def legal(st):
    return set(st.legal_texts())


def end(st, turns=1):
    """End ``turns`` turns; the other players pass their negotiation windows (rule 11.3)."""
    ev = []
    for _ in range(turns):
        ev += play(st, "end")
        while st.phase == "window":
            ev += play(st, "pass")
    return ev


def two(ships=(), **kw):
    """A two-seat position; seat 1 gets a ship in Amsterdam unless ships say otherwise."""
    ships = list(ships)
    if not any(s["owner"] == 1 for s in ships):
        ships.append({"owner": 1, "at": "AMS"})
    return scenario(ships=ships, **kw)


# ----------------------------------------------------------------------------- 1 data


def test_R1_3_map_counts():
    assert D.SEA_COUNT == 182 and len(D.PORTS) == 22 and D.N_NODES == 204 and D.EDGE_COUNT == 211
    assert D.connected()
    assert all(len(D.ADJ[D.INDEX[c]]) == 1 for c in D.PORTS)  # ports are dead ends


def test_R1_3_3_hazard_counts():
    kinds = [D.HAZARD[i] for i in D.HAZARD]
    assert len(kinds) == 55
    assert {k: kinds.count(k) for k in set(kinds)} == {
        D.TAILWIND: 8,
        D.HEADWIND: 6,
        D.STORM: 14,
        D.ICEBERG: 4,
        D.CALM: 5,
        D.REEF: 10,
        D.PIRATES: 8,
    }


def test_R1_3_3_pirate_protection_is_within_two_squares():
    for sq, city in D.PIRATE_PROTECTOR.items():
        near = [c for c in D.PORTS if D.DIST[D.INDEX[c]][sq] <= 2]
        assert near == ([D.CODES[city]] if city is not None else [])


def test_R1_3_4_distance_table():
    # The table printed in the rules (docs/rules/fuldrigger.md, rule 1.3.4) is the graph's.
    text = RULES_DOC.read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if ln.startswith("| **")]
    header = next(ln for ln in text.splitlines() if ln.startswith("| |KBH|"))
    cols = [c for c in header.strip("|").split("|")][1:]
    assert len(lines) == 22
    for ln in lines:
        cells = ln.strip("|").split("|")
        row = cells[0].strip("* ")
        for c, v in zip(cols, cells[1:], strict=True):
            if v.strip() != "–":
                assert D.port_distance(row, c) == int(v), (row, c)


def test_R1_2_goods_and_R1_5_prices():
    assert D.TOTAL_GOODS == 108 and D.PRICE_ENTRIES == 103
    for g in D.GOODS:
        assert any(e[g][1] for e in D.PRICES.values() if g in e), g
        assert any(e[g][2] for e in D.PRICES.values() if g in e), g


def test_R1_6_chance_cards():
    assert len(D.CARDS) == 28 and [c.num for c in D.CARDS] == list(range(1, 29))
    assert sum(c.kind == "race" for c in D.CARDS) == 8


# ----------------------------------------------------------------------------- 2 setup


def test_R2_setup():
    st = GAME.new(3, 7)
    assert st.phase == "home" and st.to_act == st.first and st.banker == st.first
    assert legal(st) == {"home KBH", "home AMS", "home LON", "home LIS"}
    play(st, "home LIS")
    assert "home LIS" not in legal(st)
    play(st, "home KBH")
    assert st.cash == [100] * 3 and sum(st.supply.values()) == 108
    play(st, "home AMS")
    # the other two players' negotiation windows (rule 11.3), then the first player's turn
    assert st.phase == "window" and st.to_act == (st.first + 1) % 3
    play(st, "pass", "pass")
    assert st.phase == "free" and st.turn == st.first == st.to_act
    for p in range(3):
        ships = st.ships_of(p)
        assert len(ships) == 3 and all(D.CODES[s.node] == st.home[p] and s.load is None for s in ships)
    assert len(st.deck) == 27  # the banker turned the first card


def test_R2_3_home_order_by_dice():
    for seed in range(20):
        st = GAME.new(4, seed)
        assert sorted(st.home_queue) == [0, 1, 2, 3] and st.first == st.home_queue[0]


# ----------------------------------------------------------------------------- 3 turns


def test_R3_round_order_and_end_by_rounds():
    st = two(round=2, options=FuldriggerOptions(rounds_limit=2), ships=[{"owner": 0, "at": "LON"}])
    end(st)
    assert st.turn == 1 and st.round == 2
    end(st)
    assert st.to_act is None and st.outcome() is not None and not st.truncated


def test_R3_2_one_roll_for_all_ships():
    st = two(ships=[{"owner": 0, "at": "LON"}], deck_top=[7], dice=[1, 2, 3, 6, 6, 6])
    end(st)
    assert st.M == 6 and st.turn == 1
    end(st)
    assert st.M == 18 and st.turn == 0


# ----------------------------------------------------------------------------- 4 sailing


def test_R4_2_may_stop_early():
    st = two(ships=[{"owner": 0, "at": "LON"}], M=9)
    play(st, "sail s1 DOVR", "stop")
    assert st.phase == "free" and "s1" in st.moved and not any(t.startswith("sail s1") for t in legal(st))


def test_R4_3_simple_path():
    st = two(ships=[{"owner": 0, "at": "LON"}], M=9)
    play(st, "sail s1 DOVR")
    assert "sail s1 LON" not in legal(st)
    play(st, "sail s1 KAN1")
    assert "sail s1 DOVR" not in legal(st)


def test_R4_4_entering_a_port_ends_the_move():
    st = two(ships=[{"owner": 0, "at": "KAN1"}], M=9)
    play(st, "sail s1 DOVR", "sail s1 LON")
    assert st.phase == "free" and "s1" in st.moved and st.mp == 7


def test_R4_7_odometer_counts_squares_with_cargo():
    st = two(ships=[{"owner": 0, "at": "LON", "cargo": ("Ma", 30, 0, "LON")}], M=9)
    play(st, "sail s1 DOVR", "sail s1 KAN1", "sail s1 KANW")
    assert st.ships["s1"].load.odo == 3


def test_R5_head_wind_to_zero_ends_move():
    st = two(ships=[{"owner": 0, "at": "BIS1"}], M=3)
    play(st, "sail s1 BIS2")
    assert st.mp == 0 and st.phase == "free"


def test_R5_reef_wreck():
    st = two(ships=[{"owner": 0, "at": "TW5"}], M=3, dice=dice2(3))
    play(st, "sail s1 TW6")
    assert "s1" not in st.ships and "A" not in st.reefs[0]


def test_R5_2_3_reef_knowledge_is_the_players():
    st = two(ships=[{"owner": 0, "at": "TW5"}, {"owner": 0, "at": "TW5"}], M=3, dice=[*dice2(9), 1, 1])
    play(st, "sail s1 TW6", "stop", "sail s2 TW6")
    assert st.rng.script == [1, 1]  # the second ship made no roll


def test_R5_pirate_protection_by_own_fortress_only():
    st = two(ships=[{"owner": 0, "at": "MED2", "cargo": ("Ma", 30, 0)}], forts={"CAD": 1}, M=3, dice=dice2(4))
    play(st, "sail s1 MED1")
    assert st.ships["s1"].load is None  # another player's fortress does not protect


# ----------------------------------------------------------------------------- 6 trade


def test_R6_1_privateers_do_not_trade():
    st = two(ships=[{"owner": 0, "at": "LON", "privateer": True}])
    assert not any(t.startswith("buy ") for t in legal(st))


def test_R6_1_one_load_per_ship():
    st = two(ships=[{"owner": 0, "at": "LON"}], cash=[500, 100])
    play(st, "buy s1 Ma")
    assert not any(t.startswith("buy ") for t in legal(st))


def test_R6_2_supply_must_hold_the_good():
    st = two(ships=[{"owner": 0, "at": "LON"}])
    st.supply["Ma"] = 0
    assert "buy s1 Ma" not in legal(st)


def test_R6_2_need_cash_for_price_and_fee():
    st = two(ships=[{"owner": 0, "at": "LON"}], forts={"LON": 1}, cash=[39, 100])
    assert "buy s1 Ma" not in legal(st)
    st = two(ships=[{"owner": 0, "at": "LON"}], forts={"LON": 1}, cash=[40, 100])
    assert "buy s1 Ma" in legal(st)


def test_R6_3_only_listed_goods_sell():
    st = two(ships=[{"owner": 0, "at": "HAV", "cargo": ("Te", 50, 30)}])
    assert "sell s1" not in legal(st)


def test_R6_3_repeated_sales_reset_each_turn():
    tea = ("Te", 50, 12)
    st = two(ships=[{"owner": 0, "at": "LON", "cargo": tea}], deck_top=[7, 8], dice=[1, 1, 1] * 4)
    play(st, "sell s1")
    assert st.sales == {("LON", "Te"): 1}
    end(st, 2)
    assert st.sales == {}


def test_R6_4_jettison_at_sea():
    st = two(ships=[{"owner": 0, "at": "KANW", "cargo": ("Ma", 30, 3)}])
    play(st, "jettison s1")
    assert st.ships["s1"].load is None and st.supply["Ma"] == 18


# ----------------------------------------------------------------------------- 7 ships


def test_R7_1_at_most_six_ships():
    st = two(ships=[{"owner": 0, "at": "LON"}] * 6, cash=[1000, 100])
    assert "buyship" not in legal(st)


def test_R7_2_sell_ship_cargo_lost():
    st = two(ships=[{"owner": 0, "at": "KANW", "cargo": ("Te", 50, 3)}])
    play(st, "sellship s1")
    assert st.cash[0] == 175 and "s1" not in st.ships and st.supply["Te"] == 9


def test_D12_ship_sale_in_port_only():
    st = two(ships=[{"owner": 0, "at": "KANW"}], options=FuldriggerOptions(ship_sale_in_port_only=True))
    assert "sellship s1" not in legal(st)


# ----------------------------------------------------------------------------- 8 fortresses


def test_R8_1_one_fortress_per_city_and_six_max():
    st = two(ships=[{"owner": 0, "at": "CAN"}], forts={"CAN": 1}, cash=[500, 100])
    assert "fortress CAN" not in legal(st)
    forts = dict.fromkeys(["KAP", "ZAN", "BOM", "TRA", "BAT", "SUE"], 0)
    st = two(ships=[{"owner": 0, "at": "CAN"}], forts=forts, cash=[500, 100])
    assert "fortress CAN" not in legal(st)
    st = two(ships=[{"owner": 0, "at": "CAN"}], cash=[500, 100])
    play(st, "fortress CAN")
    assert st.forts == {"CAN": 0} and st.cash[0] == 400


def test_R8_1_own_home_city_allowed():
    st = two(ships=[{"owner": 0, "at": "LON"}], cash=[500, 100])
    assert "fortress LON" in legal(st)


def test_R9_1_fit_out_only_at_home_or_own_fortress():
    st = two(
        ships=[{"owner": 0, "at": "CAN"}, {"owner": 0, "at": "LON"}, {"owner": 0, "at": "BOM"}],
        forts={"BOM": 0},
    )
    assert {"fit s2", "fit s3"} <= legal(st) and "fit s1" not in legal(st)
    play(st, "fit s2")
    assert "unfit s2" not in legal(st)  # not twice in one turn
    assert st.ships["s2"].privateer


def test_D28_privateer_fit_cost():
    st = two(ships=[{"owner": 0, "at": "LON"}], options=FuldriggerOptions(privateer_fit_cost=30))
    play(st, "fit s1")
    assert st.cash[0] == 70


# ----------------------------------------------------------------------------- 9 attacks


def test_R9_2_attack_needs_reachable_privateers():
    st = two(ships=[{"owner": 0, "at": "AZ2", "privateer": True}, {"owner": 1, "at": "AZOR"}], M=1)
    assert "attack 1 AZOR" not in legal(st)
    st = two(ships=[{"owner": 0, "at": "AZ2", "privateer": True}, {"owner": 1, "at": "AZOR"}], M=2)
    assert "attack 1 AZOR" in legal(st)


def test_R9_2_fortress_alone_is_a_target():
    st = two(ships=[{"owner": 0, "at": "CANS", "privateer": True}], forts={"CAN": 1}, M=3, dice=dice2(10))
    play(st, "attack 1 CAN", "join s1", "launch", "sail s1 CAN")
    assert st.forts["CAN"] == 0


def test_R9_2_one_attacker_table():
    for roll, outcome in [(5, "lost"), (6, "draw"), (9, "draw"), (10, "won")]:
        st = two(
            ships=[{"owner": 0, "at": "AZ2", "privateer": True}, {"owner": 1, "at": "AZOR"}],
            M=3,
            dice=dice2(roll),
        )
        play(st, "attack 1 AZOR", "join s1", "launch", "sail s1 AZ3", "sail s1 AZOR")
        assert ("s1" not in st.ships) == (outcome == "lost")
        assert (st.ships["s2"].owner == 0) == (outcome == "won")


def test_R9_2_four_attackers_table():
    ships = [{"owner": 0, "at": "AZOR", "privateer": True} for _ in range(5)] + [{"owner": 1, "at": "AZOR"}]
    for roll, phase in [(2, "free"), (3, "free"), (6, "free"), (7, "free")]:
        st = two(ships=ships, dice=dice2(roll))
        play(st, "attack 1 AZOR", *[f"join s{i}" for i in range(1, 6)], "launch")
        if roll == 2:
            assert st.phase == "lose" and len(st.legal()) == 5
        else:
            assert st.phase == phase
        if roll == 7:
            assert st.ships["s6"].owner == 0


def test_R9_2_privateer_lost_on_approach_calls_off():
    ships = [{"owner": 0, "at": "NAT6", "privateer": True}, {"owner": 1, "at": "NAT8"}]
    st = two(ships=ships, M=5, dice=dice2(5))  # the iceberg on NAT7 sinks it
    play(st, "attack 1 NAT8", "join s1", "launch", "sail s1 NAT7")
    assert "s1" not in st.ships and st.ships["s2"].owner == 1 and st.phase == "free"


def test_R9_2_10_no_attack_under_C27_or_truce():
    ships = [{"owner": 0, "at": "AZ2", "privateer": True}, {"owner": 1, "at": "AZOR"}]
    assert "attack 1 AZOR" not in legal(two(ships=ships, round_card=27))
    st = two(ships=ships)
    st.truces[(0, 1)] = 1
    assert "attack 1 AZOR" not in legal(st)


def test_R9_2_9_no_privateer_in_two_attacks():
    ships = [
        {"owner": 0, "at": "AZOR", "privateer": True},
        {"owner": 1, "at": "AZOR"},
        {"owner": 1, "at": "AZ3"},
    ]
    st = two(ships=ships, M=5, dice=dice2(7))
    play(st, "attack 1 AZOR", "join s1", "launch")
    assert not any(t.startswith("attack") for t in legal(st))


# ----------------------------------------------------------------------------- 10 chance


def test_R10_4_reshuffle_expires_races():
    st = two(ships=[{"owner": 0, "at": "LON"}], races=[1, 2])
    st.discard = [n for n in st.deck if n != 3]
    st.deck = [3]
    ev = []
    st._turn_card(ev)
    assert st.round_card is None and st.races == (1, 2, 3)
    st._turn_card(ev)
    assert any(e["kind"] == "races_expire" for e in ev)
    assert len(st.deck) + len(st.discard) + len(st.races) + (st.round_card is not None) == 28
    assert len(st.deck) == 27
    st.check()


def test_R10_round_card_lasts_until_next_card():
    st = two(ships=[{"owner": 0, "at": "LON"}], deck_top=[17, 7], dice=[1, 1, 1] * 3)
    ev = []
    st._turn_card(ev)
    assert st.round_card == 17
    st._turn_card(ev)
    assert st.round_card is None and 17 in st.discard and st.races == (7,)


def test_C13_C17_C18_C25_C26_modifiers():
    st = two(ships=[{"owner": 0, "at": "LON"}], round_card=13, cash=[100, 100])
    play(st, "buy s1 Ma")
    assert st.cash[0] == 50
    for card, dice, m in [(17, [1, 1, 1], 6), (18, [1, 1, 2], 1), (18, [1, 1, 1], 0)]:
        st = two(ships=[{"owner": 0, "at": "LON"}], round_card=card, dice=dice)
        st.turn = 1
        st._roll([])
        assert m == st.M
    st = two(ships=[{"owner": 0, "at": "LON"}], round_card=25)
    play(st, "buyship")
    assert st.cash[0] == 25 and st.ships["s3"].value == 75 and st.wealth(0) == 25 + 175
    st = two(ships=[{"owner": 0, "at": "LON"}], round_card=26, forts={"LON": 1})
    play(st, "buy s1 Ma")
    assert st.cash == [50, 120]


def test_C15_C16_no_trade():
    st = two(ships=[{"owner": 0, "at": "SUE"}], round_card=15)
    assert not any(t.startswith("buy ") for t in legal(st))
    st = two(ships=[{"owner": 0, "at": "HAV"}], round_card=16)
    assert not any(t.startswith("buy ") for t in legal(st))


def test_C19_storm_season():
    st = two(ships=[{"owner": 0, "at": "SAT5"}], round_card=19, M=2, dice=dice2(4))
    play(st, "sail s1 SAT6")
    assert "s1" not in st.ships


def test_C20_C21_pirates():
    st = two(ships=[{"owner": 0, "at": "MED2", "cargo": ("Ma", 30, 1)}], round_card=20, M=2, dice=dice2(5))
    play(st, "sail s1 MED1")
    assert st.ships["s1"].load is None
    st = two(ships=[{"owner": 0, "at": "MED2", "cargo": ("Ma", 30, 1)}], round_card=21, M=2, dice=[1, 1])
    play(st, "sail s1 MED1")
    assert st.ships["s1"].load is not None and st.rng.script == [1, 1]


def test_C23_C24_now_cards():
    st = two(ships=[{"owner": 0, "at": "LON"}] * 3, forts={"CAN": 0, "BOM": 0}, deck_top=[23, 24])
    st._turn_card([])
    assert st.cash == [140, 100]
    st._turn_card([])
    assert st.cash == [140, 150]
    st.check()


def test_C28_charts():
    st = two(ships=[{"owner": 0, "at": "LON"}], deck_top=[28], reefs=["", "ABCDEFGHIJ"])
    st.phase, st.to_act = "end", None
    st.turn = 0
    st._start_turn([])
    assert st.phase == "chart" and st.to_act == 0 and len(st.legal()) == 10
    play(st, "chart J")
    assert "J" in st.reefs[0] and st.phase == "window"  # seat 1 knows every reef already


# ----------------------------------------------------------------------------- 11 offers


def test_R11_decline_withdraw_and_limits():
    st = two(ships=[{"owner": 0, "at": "LON"}], forts={"CAN": 1})
    play(st, "offer 1", "ask fort CAN", "give cash 50", "send", "decline o1")
    assert st.offers == {} and st.to_act == 0
    play(st, "offer 1", "truce 2", "send", "later")
    assert "withdraw o2" in legal(st)
    play(st, "withdraw o2")
    assert st.offers == {}
    play(st, "offer 1", "truce 2", "send", "later")
    assert "offer 1" not in legal(st)  # three drafts this turn


def test_R11_offers_expire_at_round_end():
    st = two(ships=[{"owner": 0, "at": "LON"}], deck_top=[7])
    play(st, "offer 1", "give cash 10", "send", "later")
    end(st)
    assert "accept o1" in legal(st)
    end(st)
    assert st.offers == {}


def test_R11_5_ship_received_in_own_turn_is_frozen():
    ships = [{"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}]
    st = scenario(ships=ships, cash=[100, 100])
    play(st, "offer 1", "give cash 50", "ask ship s2", "send", "accept o1")
    assert st.ships["s2"].owner == 0 and "s2" in st.frozen
    assert not any(t.startswith(("sail s2", "buy s2", "fit s2")) for t in legal(st))


def test_R11_4_six_ship_limit_on_acceptance():
    ships = [{"owner": 0, "at": "LON"}] * 6 + [{"owner": 1, "at": "AMS"}, {"owner": 1, "at": "AMS"}]
    st = scenario(ships=ships)
    play(st, "offer 1", "ask ship s7", "send")
    ev = play(st, "accept o1")
    assert any(e["kind"] == "offer_failed" for e in ev) and st.ships["s7"].owner == 1


def test_R11_1_any_whole_sum_digit_by_digit():
    """The text's "De aftaler selv prisen": a cash clause names any whole sum, written from its first
    digit on (137 = 100, 30, 7), never more than the payer holds."""
    st = two(ships=[{"owner": 0, "at": "LON"}], cash=[300, 120])
    play(st, "offer 1")
    texts = legal(st)
    give = {int(t.split()[-1]) for t in texts if t.startswith("give cash ")}
    ask = {int(t.split()[-1]) for t in texts if t.startswith("ask cash ")}
    assert give == {*range(1, 10), *range(10, 100, 10), 100, 200, 300}
    assert ask == {*range(1, 10), *range(10, 100, 10), 100}
    play(st, "give cash 100")
    assert st.draft.give_cash == 100
    give = {int(t.split()[-1]) for t in legal(st) if t.startswith("give cash ")}
    assert give == {*range(1, 10), *range(10, 100, 10)}  # tens and units; 200 more is too much
    play(st, "give cash 30", "give cash 7")
    assert st.draft.give_cash == 137
    assert not any(t.startswith("give cash") for t in legal(st))  # the units are written
    refused(st, "give cash 1")
    play(st, "ask cash 100", "ask cash 9", "send")
    assert (st.offers[1].give_cash, st.offers[1].get_cash) == (137, 109)
    # A sum above what the payer holds cannot be written.
    st = two(ships=[{"owner": 0, "at": "LON"}], cash=[137, 0])
    play(st, "offer 1", "give cash 100")
    assert {t for t in legal(st) if t.startswith("give cash ")} == {
        *(f"give cash {n}" for n in range(1, 10)),
        "give cash 10", "give cash 20", "give cash 30",
    }  # fmt: skip
    assert not any(t.startswith("ask cash") for t in legal(st))


@settings(max_examples=60)
@given(amount=st.integers(1, 99_999), extra=st.integers(0, 50_000))
def test_R11_1_every_sum_is_written_in_one_step_per_nonzero_digit(amount, extra):
    """Any sum up to the payer's cash is reachable, in as many steps as it has non-zero digits."""
    s1 = two(ships=[{"owner": 0, "at": "LON"}], cash=[amount + extra, 100])
    play(s1, "offer 1")
    digits = str(amount)
    for i, d in enumerate(digits):
        if d != "0":
            play(s1, f"give cash {int(d) * 10 ** (len(digits) - 1 - i)}")
    assert s1.draft.give_cash == amount


def test_R11_1_each_clause_at_most_once_per_draft():
    st = two(
        ships=[{"owner": 0, "at": "LON"}, {"owner": 0, "at": "LON"}],
        forts={"CAN": 1, "BOM": 0},
        cash=[300, 120],
    )
    play(st, "offer 1")
    assert {t for t in legal(st) if t.startswith("truce ")} == {f"truce {n}" for n in range(1, 11)}
    play(st, "give cash 100", "give cash 50", "ask cash 20", "truce 3", "give fort BOM", "ask fort CAN")
    play(st, "give ship s1")
    assert {t for t in legal(st) if not t.startswith(("give cash", "ask cash"))} == {
        "give ship s2", "ask ship s3", "send", "cancel"
    }  # fmt: skip
    for again in ["give cash 100", "give cash 50", "truce 2", "truce 3", "give fort BOM", "give ship s1"]:
        refused(st, again)
    play(st, "send")
    of = st.offers[1]
    assert (of.give_cash, of.get_cash, of.truce) == (150, 20, 3)
    assert (of.give_forts, of.get_forts, of.give_ships) == (("BOM",), ("CAN",), ("s1",))


CITIES = [c for c in D.PORT_CODES if c not in ("KBH", "AMS", "LON", "LIS")]


@settings(max_examples=40)
@given(
    ships=st.tuples(st.integers(0, 6), st.integers(0, 6)),
    forts=st.tuples(st.integers(0, 6), st.integers(0, 6)),
    cash=st.tuples(st.integers(0, 2000), st.integers(0, 2000)),
    order=st.randoms(use_true_random=False),
)
def test_R11_every_draft_ends(ships, forts, cash, order):
    # Random clause sequences: each clause goes in at most once, a cash clause takes at most
    # one step per digit of the payer's cash, and the draft runs out of clauses.
    homes = {0: "LON", 1: "AMS"}
    specs = [{"owner": p, "at": homes[p]} for p in (0, 1) for _ in range(ships[p])]
    owned = {c: p for p, cities in ((0, CITIES[: forts[0]]), (1, CITIES[6 : 6 + forts[1]])) for c in cities}
    st1 = scenario(ships=specs, forts=owned, cash=list(cash))
    play(st1, "offer 1")
    used: set[tuple[str, ...]] = set()
    steps = {"give": 0, "ask": 0}
    clauses = 0
    while True:
        choices = [a for a in st1.legal() if a.verb not in ("send", "cancel")]
        if not choices:
            break
        a = order.choice(choices)
        if a.verb == "truce":
            key: tuple[str, ...] = ("truce",)
        elif a.what == "cash":
            steps[a.verb] += 1
            key = (a.verb, "cash", str(steps[a.verb]))
        else:
            key = (a.verb, a.what, a.value)
        assert key not in used, f"{a} repeats a clause"
        used.add(key)
        play(st1, str(a))
        clauses += 1
    assert steps["give"] <= len(str(cash[0])) and steps["ask"] <= len(str(cash[1]))
    assert st1.draft.give_cash <= cash[0] and st1.draft.get_cash <= cash[1]
    others = clauses - steps["give"] - steps["ask"]
    assert others == sum(forts) + sum(ships) + 1
    assert legal(st1) <= {"send", "cancel"} and "cancel" in legal(st1)
    play(st1, "cancel")
    assert st1.phase == "free" and st1.draft is None


def test_R12_a_ship_sends_a_load_across_once_per_turn():
    # Two ships either side of Suez, both fortresses the player's own: the toll is nothing,
    # and before engine version 2 the load could go to and fro for ever.
    st1 = position(
        """
        options: isthmus_variant=true
        fort: SUE 0; fort: ALX 0
        ship: 0 SUE cargo Ka 40 0 SUE
        ship: 0 ALX
        ship: 1 AMS
        dice: 1 1 1 1 1 1
        """
    )
    play(st1, "portage s1", "collect s2 Ka", "portage s2", "collect s1 Ka")
    assert "portage s1" not in legal(st1) and "portage s2" not in legal(st1)
    refused(st1, "portage s1", "already sent a load across this turn")
    end(st1, 2)  # a new turn: each ship may send one load again
    assert "portage s1" in legal(st1)


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1))
def test_no_sequence_of_decisions_keeps_a_turn_going_for_ever(seed):
    # Everything but "end", in random order but clauses, portages and collections first
    # (the decisions that cost nothing), from a rich position: the turn runs out of other
    # decisions (every loop costs money or uses a once-a-turn right).
    st1 = position(
        """
        seats: 3; M: 18
        options: isthmus_variant=true
        cash: 600 300 300
        fort: SUE 0; fort: ALX 0; fort: POB 0; fort: CAN 1
        ship: 0 SUE cargo Ka 40 12 SUE
        ship: 0 ALX
        ship: 0 POB cargo Sø 60 0 POB
        ship: 0 LON privateer
        ship: 0 AZ2 privateer
        ship: 1 AZOR cargo Te 50 4 CAN
        ship: 2 PAN
        dice: 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6
        """
    )
    rng = Rng(seed)
    n = 0
    while True:
        if st1.to_act == 0:
            choices = [a for a in st1.legal() if a.verb != "end"]
            if not choices:
                break
        else:  # seat 1 or 2 answers an offer just sent
            choices = list(st1.legal())
        free = [a for a in choices if a.verb in ("give", "ask", "truce", "portage", "collect")]
        st1.play(rng.choice(free or choices))
        n += 1
        assert n <= 3000, "a turn went on for 3,000 decisions"
    assert legal(st1) == {"end"} and st1.turn == 0


def test_D20_negotiation_off_and_private_offers():
    st = two(ships=[{"owner": 0, "at": "LON"}], options=FuldriggerOptions(negotiation=False))
    assert not any(t.startswith("offer") for t in legal(st))
    st = scenario(
        seats=3,
        ships=[{"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}, {"owner": 2, "at": "LIS"}],
        options=FuldriggerOptions(private_offers=True),
    )
    ev = play(st, "offer 1", "give cash 10", "send")
    assert "10" not in ev[-1]["text"]
    play(st, "later")
    assert st.view(0)["offers"] and st.view(1)["offers"]
    assert st.view(2)["offers"] == [] and st.view(None)["offers"] == []


# ----------------------------------------------------------------------------- 12 isthmus


def test_R12_toll_table_panama():
    opts = FuldriggerOptions(isthmus_variant=True)
    ma = ("Ma", 30, 5)
    st = scenario(
        seats=3,
        options=opts,
        ships=[{"owner": 0, "at": "PAN", "cargo": ma}, {"owner": 1, "at": "AMS"}, {"owner": 2, "at": "LIS"}],
        forts={"POB": 1},
    )
    play(st, "portage s1")
    assert st.cash == [90, 110, 100] and st.depots[(0, "POB")][0].odo == 5
    st = scenario(
        options=opts,
        ships=[{"owner": 0, "at": "PAN", "cargo": ma}, {"owner": 1, "at": "AMS"}],
        forts={"PAN": 1},
    )
    play(st, "portage s1")
    assert st.cash == [90, 100] and st.bank_in == 10  # a Panamá fortress has no effect
    st = scenario(
        options=opts, ships=[{"owner": 0, "at": "PAN", "cargo": ma}, {"owner": 1, "at": "AMS"}], round_card=16
    )
    assert "portage s1" not in legal(st)
    st = scenario(
        options=opts, ships=[{"owner": 0, "at": "PAN", "cargo": ma}, {"owner": 1, "at": "AMS"}], cash=[9, 100]
    )
    assert "portage s1" not in legal(st)


def test_D25_isthmus_off_by_default():
    st = two(ships=[{"owner": 0, "at": "PAN", "cargo": ("Ma", 30, 5)}])
    assert "portage s1" not in legal(st)


# ----------------------------------------------------------------------------- 13 end


def test_R13_2_early_end_when_one_fleet_is_left():
    st = two(ships=[{"owner": 0, "at": "LON"}, {"owner": 1, "at": "SAT5"}], turn=1, M=2, dice=dice2(2))
    play(st, "sail s2 SAT6")
    end(st)
    assert st.to_act is None and st.early_winner == 0 and st.outcome() == (1.0, 0.0)


def test_R13_3_tie_breaks_and_split_victory():
    st = two(ships=[{"owner": 0, "at": "LON"}], forts={"CAN": 1}, cash=[200, 100])
    st.phase, st.to_act = "over", None
    assert st.wealth(0) == st.wealth(1) == 300
    assert st.winners() == [0]  # more cash
    st.cash = [100, 100]
    st.ships["s1"] = st.ships["s1"]._replace(value=200)
    assert st.winners() == [1]  # equal wealth and cash, more fortresses
    st.forts = {}
    st.ships["s1"] = st.ships["s1"]._replace(value=100)
    assert st.outcome() == (0.5, 0.5)


def test_R13_3_scores_are_wealth_and_result_mode_wealth():
    st = two(
        ships=[{"owner": 0, "at": "LON"}],
        options=FuldriggerOptions(result_mode="wealth", rounds_limit=1),
        turn=1,
    )
    end(st)
    assert st.scores() == (200.0, 200.0) and st.outcome() == (0.5, 0.5)
    # Equal wealth, more cash: the rules' tie-break decides under "win", not under "wealth".
    for mode, outcome in [("win", (1.0, 0.0)), ("wealth", (0.5, 0.5))]:
        st = two(
            ships=[{"owner": 0, "at": "LON"}],
            cash=[200, 100],
            forts={"CAN": 1},
            options=FuldriggerOptions(result_mode=mode, rounds_limit=1),
            turn=1,
        )
        end(st)
        assert st.scores() == (300.0, 300.0) and st.outcome() == outcome, mode


def test_D5_directional_winds():
    opts = FuldriggerOptions(directional_winds=True)
    st = two(ships=[{"owner": 0, "at": "MED5"}], options=opts, M=5)
    play(st, "sail s1 MED4")  # against L08's MEDC→ALXS direction: the tail wind hinders
    assert st.mp == 1
    st = two(ships=[{"owner": 0, "at": "MED3"}], options=opts, M=5)
    play(st, "sail s1 MED4")
    assert st.mp == 7


def test_D9_port_distance_mode():
    load = ("Ma", 30, 3, "LON")
    st = two(
        ships=[{"owner": 0, "at": "GUL", "cargo": load}],
        options=FuldriggerOptions(min_transport_mode="port_distance"),
    )
    assert "sell s1" in legal(st)
    st = two(ships=[{"owner": 0, "at": "GUL", "cargo": load}])
    assert "sell s1" not in legal(st)


def test_options_validation():
    with pytest.raises(OptionError):
        GAME.new(2, 0, FuldriggerOptions(banker_seat=3))
    st = GAME.new(3, 0, FuldriggerOptions(banker_seat=2))
    assert st.banker == 2


def test_illegal_actions_are_refused_unchanged():
    st = two(ships=[{"owner": 0, "at": "LON"}])
    for bad in [Sail("s1", "FINI"), Sell("s1"), Attack(1, "AMS"), "nonsense"]:
        before = st.copy()
        with pytest.raises(IllegalAction, match=r"^Fuldrigger: "):
            st.play(bad)
        assert st == before


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("sail s1 FINI", "FINI is not next to LON"),
        ("sell s1", "carries nothing"),
        ("buy s1 Te", "London does not sell Te"),
        ("fortress LIS", "no ship in Lisboa"),
        ("sail s2 DOVR", "belongs to seat 1"),
        ("sail s9 DOVR", "no ship s9"),
        ("attack 1 AMS", "without a fortress cannot be attacked"),
    ],
)
def test_parse_explains_illegal_orders(text, reason):
    st = two(ships=[{"owner": 0, "at": "LON"}])
    refused(st, text, reason)


def test_parse_rejects_malformed_text():
    st = two(ships=[{"owner": 0, "at": "LON"}])
    for t in ["", "sail", "sail s1", "fly s1 DOVR", "end now", "truce x", "accept 3", "attack one AZOR"]:
        with pytest.raises(ParseError):
            GAME.parse(st, t)


def test_odometer_reason():
    st = two(ships=[{"owner": 0, "at": "NYK", "cargo": ("Su", 30, 6, "HAV")}])
    refused(st, "sell s1", "only 6 squares")


def test_R9_2_8_fortress_capture_in_home_city_and_razing():
    ships = [{"owner": 0, "at": "DOVR", "privateer": True}]
    st = two(ships=ships, forts={"LON": 1}, homes=("AMS", "LON"), M=3, dice=dice2(12))
    play(st, "attack 1 LON", "join s1", "launch", "sail s1 LON")
    assert st.forts["LON"] == 0  # a captured fortress may lie in another's home city
    six = dict.fromkeys(["KAP", "ZAN", "BOM", "TRA", "BAT", "SUE"], 0)
    st = two(ships=ships, forts={"LON": 1, **six}, homes=("AMS", "LON"), M=3, dice=dice2(12))
    play(st, "attack 1 LON", "join s1", "launch", "sail s1 LON")
    assert "LON" not in st.forts and st.n_forts(0) == 6


def test_R10_6_banker_passes_on_elimination_and_depots_return():
    opts = FuldriggerOptions(eliminate_shipless=True, isthmus_variant=True)
    st = scenario(
        seats=3,
        options=opts,
        ships=[{"owner": 0, "at": "SAT5"}, {"owner": 1, "at": "AMS"}, {"owner": 2, "at": "LIS"}],
        M=2,
        dice=dice2(2),
    )
    st.depots[(0, "POB")] = (Load("Sø", 60, 0, "PAN"),)
    st.supply["Sø"] -= 1
    play(st, "sail s1 SAT6")
    end(st)
    assert st.eliminated[0] and st.banker == 1 and st.depots == {} and st.supply["Sø"] == 9
    assert st.turn == 1
    st.check()
    end(st, 2)
    assert st.turn == 1 and st.round == 2  # seat 0 is skipped


def test_R11_5_2_transferred_ship_keeps_everything_but_reef_knowledge():
    ships = [{"owner": 0, "at": "LON"}, {"owner": 1, "at": "NAT3", "cargo": ("Te", 50, 7), "becalmed": 1}]
    st = scenario(ships=ships, reefs=["", "A"])
    play(st, "offer 1", "ask ship s2", "give cash 50", "send", "accept o1")
    s2 = st.ships["s2"]
    assert s2.owner == 0 and s2.load.odo == 7 and s2.becalmed == 1 and "A" not in st.reefs[0]


def test_D2_wall_clock_makes_the_round_in_progress_the_last():
    st = two(ships=[{"owner": 0, "at": "LON"}], round=3, options=FuldriggerOptions(wall_clock_minutes=60))
    st.clock_expired()
    end(st)
    assert st.to_act == 1
    end(st)
    assert st.to_act is None and st.round == 3


def test_D21_banker_seat_turns_the_cards():
    st = two(ships=[{"owner": 0, "at": "LON"}], options=FuldriggerOptions(banker_seat=1), deck_top=[7, 8])
    assert st.banker == 1
    ev = end(st)
    assert any(e["kind"] == "chance" and e["card"] == 7 for e in ev) and st.turn == 1
    ev = end(st)
    assert not any(e["kind"] == "chance" for e in ev) and st.turn == 0


def test_R10_5_modifier_order_and_floor_zero():
    su = ("Su", 30, 12)
    st = scenario(
        ships=[{"owner": 0, "at": "NYK", "cargo": su} for _ in range(6)] + [{"owner": 1, "at": "AMS"}],
        cash=[0, 100],
        round_card=11,
    )
    got = []
    for i in range(1, 7):
        before = st.cash[0]
        play(st, f"sell s{i}")
        got.append(st.cash[0] - before)
    assert got == [40, 30, 20, 10, 0, 0]  # 60 − 20 − 10k, floored at 0


# ----------------------------------------------------------------------------- engine version 3


def test_R9_2_3_each_attacker_sails_a_route_of_the_players_choosing():
    """'Det eller de af hans kaperskibe, der kan nå frem … flyttes derhen': a normal move of the
    player's choosing. From KANW with M = 15 the privateer may avoid the NAN2 storm by the
    AZOR route: NAT1 14, NAT2 (head wind) 10, NAT3 9, NAT4 8, AZOR 7, NAT5 6, NAT6 5, NAT7
    (iceberg, roll 6) 4, NAT8 3, NEWF 2."""
    ships = [{"owner": 0, "at": "KANW", "privateer": True}, {"owner": 1, "at": "NEWF"}]
    st = two(ships=ships, M=15, dice=[*dice2(6), *dice2(7)])
    play(st, "attack 1 NEWF", "join s1", "launch")
    assert st.phase == "approach" and st.moving == "s1"
    # Towards the Channel or Biscay NEWF is out of reach: only the two lanes west are offered.
    assert legal(st) == {"sail s1 NAT1", "sail s1 NAN1"}
    refused(st, "sail s1 BIS1", "cannot reach NEWF")
    mps = []
    for sq in ["NAT1", "NAT2", "NAT3", "NAT4", "AZOR", "NAT5", "NAT6", "NAT7", "NAT8"]:
        ev = play(st, f"sail s1 {sq}")
        assert not any(e["kind"] == "storm" for e in ev)
        mps.append(st.mp)
    assert mps == [14, 10, 9, 8, 7, 6, 5, 4, 3]
    ev = play(st, "sail s1 NEWF")
    assert st.ships["s1"].node == D.INDEX["NEWF"]
    assert any(e["kind"] == "attack_draw" and e["roll"] == 7 for e in ev) and st.phase == "free"
    assert "s1" in st.moved and not any(t.startswith("sail s1") for t in legal(st))


def test_R9_2_3_the_storm_route_is_still_the_players_to_choose():
    ships = [{"owner": 0, "at": "KANW", "privateer": True}, {"owner": 1, "at": "NEWF"}]
    st = two(ships=ships, M=15, dice=dice2(2))
    play(st, "attack 1 NEWF", "join s1", "launch", "sail s1 NAN1")
    ev = play(st, "sail s1 NAN2")  # storm roll 2: the privateer goes down on the way
    assert "s1" not in st.ships and any(e["kind"] == "attack_off" for e in ev) and st.phase == "free"


def test_R9_2_3_a_head_wind_never_strands_an_approach():
    # M = 5 from NAT1: NAT2's head wind leaves 1, too little for AZOR (3 more squares), so the
    # step into NAT2 is refused; from AZ3 with the same M the attack goes the other way.
    ships = [{"owner": 0, "at": "NAT1", "privateer": True}, {"owner": 1, "at": "AZOR"}]
    assert "attack 1 AZOR" not in legal(two(ships=ships, M=5))
    assert "attack 1 AZOR" in legal(two(ships=ships, M=7))


def test_R9_2_3_a_becalmed_privateer_on_the_target_joins():
    """Becalming only forbids moving ('ligger stille næste omgang'): a becalmed privateer already
    on the target square joins the attack there; one elsewhere cannot."""
    ships = [
        {"owner": 0, "at": "EQ2", "privateer": True, "becalmed": 1},
        {"owner": 1, "at": "EQ2"},
    ]
    st = two(ships=ships, M=9, dice=dice2(10))
    assert "attack 1 EQ2" in legal(st)
    play(st, "attack 1 EQ2", "join s1", "launch")
    assert st.ships["s2"].owner == 0 and st.ships["s1"].node == D.INDEX["EQ2"]
    ships = [{"owner": 0, "at": "EQ1", "privateer": True, "becalmed": 1}, {"owner": 1, "at": "EQ2"}]
    assert "attack 1 EQ2" not in legal(two(ships=ships, M=9))


def test_R11_3_every_other_player_has_a_window_each_turn():
    """'Andre kompagnier kan til enhver tid blande sig': after each roll every other player,
    from the turn player's left, may make offers (answered at once) or pass."""
    st = scenario(
        seats=3,
        ships=[{"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}, {"owner": 2, "at": "LIS"}],
        deck_top=[7],
        cash=[100, 100, 250],
    )
    play(st, "end")
    assert st.turn == 1 and st.phase == "window" and st.to_act == 2
    assert legal(st) == {"offer 0", "offer 1", "pass"}
    # Seat 2 buys a truce from the turn player, who answers at once; the window stays open.
    play(st, "offer 1", "give cash 100", "give cash 20", "give cash 5", "truce 2", "send")
    assert st.phase == "respond" and st.to_act == 1
    play(st, "accept o1")
    assert st.cash == [100, 225, 125] and st.truces[(1, 2)] == 3
    assert st.phase == "window" and st.to_act == 2
    play(st, "pass")
    assert st.phase == "window" and st.to_act == 0
    play(st, "pass")
    assert st.phase == "free" and st.to_act == 1


def test_R11_3_open_offers_are_answered_in_a_window():
    # An offer left open can be withdrawn by its proposer in his window, and accepted by its
    # recipient in his.
    st = scenario(
        seats=3,
        ships=[{"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}, {"owner": 2, "at": "LIS"}],
        deck_top=[7],
    )
    play(st, "offer 2", "ask cash 10", "send", "later", "offer 1", "give cash 5", "send", "later", "end")
    assert st.turn == 1 and st.to_act == 2 and {"accept o1", "decline o1", "pass"} <= legal(st)
    play(st, "accept o1")
    assert st.cash == [110, 100, 90] and st.phase == "window" and st.to_act == 2
    play(st, "pass")
    assert st.to_act == 0 and "withdraw o2" in legal(st)
    play(st, "withdraw o2", "pass")
    assert st.phase == "free" and st.to_act == 1 and st.offers == {}


def test_R11_7_windows_are_bounded_and_pass_ends_them():
    # Three drafts a turn per seat: a window cannot go on for ever, and 'pass' always closes it.
    st = scenario(seats=2, ships=[{"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}], deck_top=[7])
    play(st, "end")
    assert st.phase == "window" and st.to_act == 0
    for _ in range(3):
        assert "offer 1" in legal(st)
        play(st, "offer 1", "truce 1", "send")
        play(st, f"decline o{st.next_offer}")
    assert legal(st) == {"pass"}
    play(st, "pass")
    assert st.phase == "free" and st.to_act == 1


def test_D20_no_windows_without_negotiation():
    st = two(ships=[{"owner": 0, "at": "LON"}], options=FuldriggerOptions(negotiation=False), deck_top=[7])
    play(st, "end")
    assert st.phase == "free" and st.to_act == 1


def test_R11_1_depot_loads_are_offerable():
    """Isthmus depot loads (rule 12) are assets an offer may list: one per clause, moved to the
    receiver's depot in the same port with their price and odometer; wealth moves with them."""
    st1 = position(
        """
        options: isthmus_variant=true
        cash: 100 200
        depot: 0 ALX Ka 40 3 SUE
        depot: 0 ALX Ka 45 0 SUE
        depot: 0 ALX Kr 60 2 SUE
        ship: 0 LON
        ship: 1 AMS
        """
    )
    w = st1.wealths()
    play(st1, "offer 1")
    assert {t for t in legal(st1) if " load " in t} == {"give load ALX:Ka", "give load ALX:Kr"}
    play(st1, "give load ALX:Ka", "give load ALX:Ka")
    assert {t for t in legal(st1) if " load " in t} == {"give load ALX:Kr"}  # both Ka listed
    play(st1, "ask cash 90", "send", "accept o1")
    assert [ld.good for ld in st1.depots[(0, "ALX")]] == ["Kr"]
    assert [(ld.good, ld.price, ld.odo) for ld in st1.depots[(1, "ALX")]] == [("Ka", 40, 3), ("Ka", 45, 0)]
    assert st1.wealths() == [w[0] - 85 + 90, w[1] + 85 - 90]
    st1.check()


def test_R11_4_a_listed_depot_load_must_still_be_there():
    st1 = position(
        """
        options: isthmus_variant=true
        depot: 0 ALX Ka 40 3 SUE
        ship: 0 ALX
        ship: 1 AMS
        """
    )
    play(st1, "offer 1", "give load ALX:Ka", "send", "later", "collect s1 Ka")
    st1.to_act = 1  # the recipient accepts in his own time (his free phase)
    st1.phase, st1.turn = "free", 1
    st1._legal = None
    ev = play(st1, "accept o1")
    assert any(e["kind"] == "offer_failed" and "ALX:Ka" in e["text"] for e in ev)


def test_R11_2_counter_offer():
    """A counter-offer is a refusal followed by a new offer back, linked to the first."""
    st = two(ships=[{"owner": 0, "at": "LON"}], forts={"CAN": 1}, cash=[300, 100])
    play(st, "offer 1", "give cash 100", "ask fort CAN", "send")
    assert "counter o1" in legal(st)
    ev = play(st, "counter o1")
    assert any(e["kind"] == "offer_declined" for e in ev) and 1 not in st.offers
    assert st.phase == "draft" and st.to_act == 1 and st.draft.frm == 1 and st.draft.counter_of == 1
    play(st, "give fort CAN", "ask cash 200", "send")
    assert st.to_act == 0 and st.offers[2].counter_of == 1 and "counter o2" in legal(st)
    play(st, "accept o2")
    assert st.forts["CAN"] == 0 and st.cash == [100, 300] and st.phase == "free" and st.to_act == 0


def test_refusals_say_which_rule():
    ships = [{"owner": 0, "at": "LON"}, {"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}]
    st = two(ships=ships, deck_top=[7])
    play(st, "sail s1 DOVR")
    refused(st, "sail s2 DOVR", "s1 is under way")
    refused(st, "sail s1 LON", "may not enter LON twice (rule 4.3)")
    play(st, "stop")
    refused(st, "sail s1 KAN1", "already moved this turn (rule 4.1")
    refused(st, "pass", "no negotiation window")
    play(st, "offer 1")
    refused(st, "give cash 37", "digit by digit")
    refused(st, "give cash 150", "holds only 100")
    refused(st, "send", "says nothing yet")
    play(st, "cancel", "end")
    refused(st, "end", "negotiation window is open (rule 11.3)")


def test_R11_draft_clauses_add_up_on_their_own_side():
    ships = [{"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}]
    st = scenario(ships=ships, cash=[100, 100])
    play(st, "offer 1", "give cash 50", "give cash 7", "give ship s1")
    play(st, "ask ship s2", "ask cash 30", "ask cash 5")
    dr = st.draft
    assert dr is not None
    assert (dr.give_cash, dr.give_ships, dr.give_forts, dr.give_loads) == (57, ("s1",), (), ())
    assert (dr.get_cash, dr.get_ships, dr.get_forts, dr.get_loads) == (35, ("s2",), (), ())


def test_R9_2_at_war_once_an_opponent_owns_a_privateer():
    merchant = {"owner": 1, "at": "AMS"}
    assert not scenario(ships=[{"owner": 0, "at": "LON"}, merchant]).at_war(0)
    # one's own privateer threatens the others, not oneself
    st = scenario(ships=[{"owner": 0, "at": "LON", "privateer": True}, merchant])
    assert not st.at_war(0) and st.at_war(1)
