"""Every worked case of the rules (F1–F27, docs/rules/fuldrigger.md section 18), with its exact numbers."""

from __future__ import annotations

import pytest

from spillebord.games.fuldrigger import FuldriggerOptions, Load
from spillebord.games.fuldrigger.positions import dice2, scenario
from spillebord.testing import play, refused


def ship(st, sid):
    return st.ships[sid]


def at(st, sid):
    from spillebord.games.fuldrigger.data import CODES

    return CODES[st.ships[sid].node]


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


def test_F1_head_wind_on_bis2():
    st = scenario(M=9, ships=[{"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}])
    mps = []
    for sq in ["DOVR", "KAN1", "KANW", "BIS1", "BIS2", "FINI"]:
        play(st, f"sail s1 {sq}")
        mps.append(st.mp)
    assert mps == [8, 7, 6, 5, 1, 0]
    assert at(st, "s1") == "FINI"
    assert st.phase == "free" and "s1" in st.moved


def test_F2_tail_winds_and_unknown_reef():
    route = ["LISB", "CNR1", "CNR2", "CNR3", "KAPV", "TW1", "TW2", "TW3", "TW4", "TW5", "TW6"]
    st = scenario(M=5, ships=[{"owner": 0, "at": "LIS"}, {"owner": 1, "at": "AMS"}], dice=dice2(8))
    mps = []
    for sq in route:
        play(st, f"sail s1 {sq}")
        mps.append(st.mp)
    assert mps == [4, 3, 5, 4, 3, 2, 1, 3, 2, 1, 0]
    assert at(st, "s1") == "TW6"
    assert "A" in st.reefs[0]
    assert st.rng.script == []


def test_F3_known_reef_and_port_ends_move():
    st = scenario(
        M=6, ships=[{"owner": 0, "at": "TW5"}, {"owner": 1, "at": "AMS"}], reefs=["A", ""], dice=[6, 6]
    )
    ev = play(st, "sail s1 TW6", "sail s1 ANTS", "sail s1 STT")
    assert not any(e["kind"] in ("reef_known", "lost") for e in ev)
    assert st.rng.script == [6, 6]  # no reef roll
    assert at(st, "s1") == "STT" and st.mp == 3 and st.phase == "free" and "s1" in st.moved


def test_F4_becalmed_skips_next_turn():
    st = scenario(
        M=12,
        ships=[{"owner": 0, "at": "KAPV"}, {"owner": 1, "at": "AMS"}],
        deck_top=[7, 8],
        dice=[*dice2(6), 1, 1, 1, 4, 4, 4, 1, 1, 1, 4, 4, 4, *dice2(8)],
    )
    ev = play(st, "sail s1 EQ1", "sail s1 EQ2")
    assert any(e["kind"] == "becalmed" for e in ev)
    assert at(st, "s1") == "EQ2" and st.phase == "free"
    end(st, 2)  # seat 1's turn passes
    assert st.turn == 0 and st.M == 12
    assert not any(t.startswith("sail s1") for t in legal(st))
    end(st, 2)
    assert st.turn == 0
    assert {"sail s1 EQ1", "sail s1 EQ3"} <= legal(st)
    ev = play(st, "sail s1 EQ3")
    assert any(e["kind"] == "calm" and e["roll"] == 8 for e in ev)


@pytest.mark.parametrize(("roll", "lost"), [(3, True), (4, False)])
def test_F5_storm(roll, lost):
    st = scenario(
        M=3,
        ships=[{"owner": 0, "at": "SAT5", "cargo": ("Te", 50, 3)}, {"owner": 1, "at": "AMS"}],
        dice=dice2(roll),
    )
    play(st, "sail s1 SAT6")
    assert ("s1" not in st.ships) == lost
    assert st.supply["Te"] == (9 if lost else 8)
    st.check()


@pytest.mark.parametrize(("roll", "sinks"), [(4, False), (5, True), (6, False)])
def test_F6_iceberg(roll, sinks):
    st = scenario(M=3, ships=[{"owner": 0, "at": "NAT6"}, {"owner": 1, "at": "AMS"}], dice=dice2(roll))
    play(st, "sail s1 NAT7")
    assert ("s1" not in st.ships) == sinks


@pytest.mark.parametrize(
    ("roll", "ship_lost", "cargo_lost"), [(4, False, True), (2, True, True), (9, False, False)]
)
def test_F7_pirates(roll, ship_lost, cargo_lost):
    st = scenario(
        M=3,
        ships=[{"owner": 0, "at": "SCH2", "cargo": ("Te", 50, 3)}, {"owner": 1, "at": "AMS"}],
        dice=dice2(roll),
    )
    play(st, "sail s1 SCH3")
    assert ("s1" not in st.ships) == ship_lost
    if not ship_lost:
        assert (st.ships["s1"].load is None) == cargo_lost
    assert st.supply["Te"] == (9 if cargo_lost else 8)


def test_F7_no_pirate_roll_with_canton_fortress_or_as_privateer():
    st = scenario(
        M=3,
        ships=[{"owner": 0, "at": "SCH2", "cargo": ("Te", 50, 3)}, {"owner": 1, "at": "AMS"}],
        forts={"CAN": 0},
        dice=[1, 1],
    )
    play(st, "sail s1 SCH3")
    assert st.rng.script == [1, 1] and st.ships["s1"].load is not None
    st = scenario(
        M=3, ships=[{"owner": 0, "at": "SCH2", "privateer": True}, {"owner": 1, "at": "AMS"}], dice=[1, 1]
    )
    play(st, "sail s1 SCH3")
    assert st.rng.script == [1, 1] and "s1" in st.ships


def test_F8_ten_square_rule():
    st = scenario(M=9, ships=[{"owner": 0, "at": "HAV"}, {"owner": 1, "at": "AMS"}], dice=dice2(9))
    play(st, "buy s1 Su")
    assert st.cash[0] == 70
    play(st, "sail s1 FLOR", "sail s1 CST3", "sail s1 CST2", "sail s1 CST1", "sail s1 NYCS", "sail s1 NYK")
    assert st.ships["s1"].load.odo == 6
    assert "sell s1" not in legal(st)


def test_F9_owner_bonus_and_repeated_sales():
    tea = ("Te", 50, 12)
    st = scenario(
        ships=[{"owner": 0, "at": "LON", "cargo": tea} for _ in range(3)] + [{"owner": 1, "at": "AMS"}],
        forts={"LON": 0},
        cash=[0, 100],
    )
    play(st, "sell s1", "sell s2", "sell s3")
    assert st.cash[0] == 570 == 200 + 190 + 180


def test_F10_fees_to_the_fortress_owner():
    tea = ("Te", 50, 12)
    st = scenario(
        turn=1,
        ships=[
            {"owner": 0, "at": "AMS"},
            {"owner": 1, "at": "LON", "cargo": tea},
            {"owner": 1, "at": "LON", "cargo": tea},
        ],
        forts={"LON": 0},
        cash=[0, 0],
    )
    play(st, "sell s2", "sell s3")
    assert st.cash[1] == 350 and st.cash[0] == 20
    play(st, "buy s2 Ma")
    assert st.cash[1] == 350 - 40 and st.cash[0] == 30 and st.bank_in == 30


def test_F11_tea_fashion_with_fees():
    tea = ("Te", 50, 12)
    st = scenario(
        turn=1,
        ships=[
            {"owner": 0, "at": "AMS"},
            {"owner": 1, "at": "LON", "cargo": tea},
            {"owner": 1, "at": "LON", "cargo": tea},
        ],
        forts={"LON": 0},
        cash=[0, 0],
        round_card=9,
    )
    play(st, "sell s2", "sell s3")
    assert st.cash[1] == 410 == (190 + 30) + (190 + 30 - 10) - 20


def test_F12_price_drop_in_suez():
    ma = ("Ma", 30, 40)
    st = scenario(
        ships=[{"owner": 0, "at": "SUE", "cargo": ma} for _ in range(4)] + [{"owner": 1, "at": "AMS"}],
        cash=[0, 0],
    )
    play(st, "sell s1", "sell s2", "sell s3", "sell s4")
    assert st.cash[0] == 180 == 60 + 50 + 40 + 30


def _f13(roll):
    return scenario(
        M=7,
        ships=[
            {"owner": 0, "at": "AZ2", "privateer": True},
            {"owner": 0, "at": "AZ2", "privateer": True},
            {"owner": 1, "at": "AZOR", "cargo": ("Te", 50, 4)},
        ],
        dice=dice2(roll),
    )


AZ2_TO_AZOR = ("sail s1 AZ3", "sail s1 AZOR", "sail s2 AZ3", "sail s2 AZOR")
"""Both privateers sail in by the player's route (rule 9.2.3): two steps each."""


@pytest.mark.parametrize("roll", [2, 3, 4])
def test_F13_attack_two_against_one_loss(roll):
    st = _f13(roll)
    play(st, "attack 1 AZOR", "join s1", "join s2", "launch", *AZ2_TO_AZOR)
    assert at(st, "s1") == "AZOR" and at(st, "s2") == "AZOR"
    assert st.phase == "lose" and legal(st) == {"lose s1", "lose s2"}
    play(st, "lose s2")
    assert "s2" not in st.ships and st.ships["s3"].owner == 1


@pytest.mark.parametrize("roll", [5, 6, 7, 8])
def test_F13_attack_two_against_one_draw(roll):
    st = _f13(roll)
    play(st, "attack 1 AZOR", "join s1", "join s2", "launch", *AZ2_TO_AZOR)
    assert len(st.ships) == 3 and st.ships["s3"].owner == 1 and st.phase == "free"


@pytest.mark.parametrize("roll", [9, 12])
def test_F13_attack_two_against_one_capture(roll):
    st = _f13(roll)
    play(st, "attack 1 AZOR", "join s1", "join s2", "launch", *AZ2_TO_AZOR)
    s3 = st.ships["s3"]
    assert s3.owner == 0 and not s3.privateer and s3.load.good == "Te" and s3.load.price == 50
    assert st.wealth(0) == 100 + 300 + 50
    # participants cannot move further this turn
    assert not any(t.startswith(("sail s1", "sail s2", "sail s3")) for t in legal(st))


ASE2_TO_BOM = tuple(f"sail s{i} {sq}" for i in (1, 2, 3) for sq in ("ASE3", "BOMS", "BOM"))


def _f14(n_privateers, roll=8, options=None):
    ships = [{"owner": 0, "at": "ASE2", "privateer": True} for _ in range(n_privateers)]
    ships += [{"owner": 1, "at": "BOM"}, {"owner": 1, "at": "BOM"}]
    return scenario(M=7, ships=ships, forts={"BOM": 1}, dice=dice2(roll), options=options)


def test_F14_needs_as_many_attackers_as_units():
    st = _f14(2)
    assert "attack 1 BOM" not in legal(st)
    st = _f14(3)
    play(st, "attack 1 BOM", "join s1", "join s2")
    assert "launch" not in legal(st)
    play(st, "join s3")
    assert "launch" in legal(st)


@pytest.mark.parametrize(("roll", "outcome"), [(3, "lose"), (4, "draw"), (7, "draw"), (8, "seize")])
def test_F14_table_for_three(roll, outcome):
    st = _f14(3, roll)
    play(st, "attack 1 BOM", "join s1", "join s2", "join s3", "launch", *ASE2_TO_BOM)
    assert [at(st, s) for s in ("s1", "s2", "s3")] == ["BOM"] * 3
    assert st.phase == {"lose": "lose", "draw": "free", "seize": "seize"}[outcome]
    if outcome == "seize":
        assert legal(st) == {"seize s4", "seize s5", "seize fort"}


def test_F14_taking_the_fortress():
    # With defender_fortress_only, P2's ships under P1's new fortress are immune (as F14 says).
    st = _f14(3, options=FuldriggerOptions(port_attack_rule="defender_fortress_only"))
    play(st, "attack 1 BOM", "join s1", "join s2", "join s3", "launch", *ASE2_TO_BOM, "seize fort")
    assert st.forts["BOM"] == 0
    assert st.attackable_ships(1, st.ships["s4"].node) == []
    # Under the default (D15 any_fortress) ships in any fortified port stay attackable.
    st = _f14(3)
    play(st, "attack 1 BOM", "join s1", "join s2", "join s3", "launch", *ASE2_TO_BOM, "seize fort")
    assert st.attackable_ships(1, st.ships["s4"].node) == ["s4", "s5"]


def _f15(options=None):
    return scenario(
        seats=3,
        M=12,
        ships=[
            {"owner": 0, "at": "KAPH", "privateer": True},
            {"owner": 0, "at": "SCH3", "privateer": True},
            {"owner": 1, "at": "KAP"},
            {"owner": 1, "at": "CAN"},
            {"owner": 2, "at": "LIS"},
        ],
        forts={"CAN": 2},
        options=options,
    )


def test_F15_ports_without_own_fortress():
    st = _f15(FuldriggerOptions(port_attack_rule="defender_fortress_only"))
    assert "attack 1 KAP" not in legal(st) and "attack 1 CAN" not in legal(st)
    st = _f15()  # default any_fortress (D15, amended): Canton is fortified, so attackable
    assert "attack 1 KAP" not in legal(st) and "attack 1 CAN" in legal(st)


def test_F16_six_ships_capture_sinks():
    ships = [{"owner": 0, "at": "AZ2", "privateer": True} for _ in range(6)]
    ships.append({"owner": 1, "at": "AZOR", "cargo": ("Sø", 50, 3)})
    st = scenario(M=7, ships=ships, dice=dice2(12))
    play(st, "attack 1 AZOR", "join s1", "launch", "sail s1 AZ3", "sail s1 AZOR")
    assert "s7" not in st.ships and st.supply["Sø"] == 9 and st.n_ships(0) == 6
    st.check()


def test_F17_isthmus_send_and_collect():
    opts = FuldriggerOptions(isthmus_variant=True)
    st = scenario(
        M=9,
        options=opts,
        ships=[{"owner": 0, "at": "SUE"}, {"owner": 0, "at": "ALX"}, {"owner": 1, "at": "AMS"}],
        cash=[100, 100],
    )
    play(st, "buy s1 Ka")
    assert st.cash[0] == 60
    play(st, "portage s1")
    assert st.cash[0] == 50 and st.bank_in == 50
    assert [ld.good for ld in st.depots[(0, "ALX")]] == ["Ka"]
    play(st, "collect s2 Ka")
    assert st.ships["s2"].load.odo == 0 and (0, "ALX") not in st.depots
    play(st, "sail s2 ALXS", "sail s2 MED5", "sail s2 MED4", "sail s2 MED3", "sail s2 MEDC", "sail s2 MAR")
    assert st.ships["s2"].load.odo == 6 and "sell s2" not in legal(st)
    st.check()


def test_F18_suez_tolls_split():
    opts = FuldriggerOptions(isthmus_variant=True)
    ka = ("Ka", 40, 0, "SUE")
    st = scenario(
        seats=3,
        options=opts,
        ships=[
            {"owner": 0, "at": "SUE", "cargo": ka},
            {"owner": 0, "at": "SUE", "cargo": ka},
            {"owner": 1, "at": "SUE", "cargo": ka},
            {"owner": 2, "at": "LIS"},
        ],
        forts={"SUE": 1, "ALX": 2},
    )
    play(st, "portage s1", "portage s2")
    assert st.cash == [80, 110, 110]
    st.turn = st.to_act = 1
    st._legal = None
    play(st, "portage s3")
    assert st.cash == [80, 110, 110]
    st.check()


def test_F19_race_card():
    st = scenario(
        seats=3,
        turn=2,
        round=6,
        races=[1],
        M=5,
        ships=[{"owner": 0, "at": "CAN"}, {"owner": 1, "at": "AMS"}, {"owner": 2, "at": "CANS"}],
    )
    play(st, "sail s3 CAN")
    assert st.cash[2] == 250 and st.cash[0] == 100
    assert st.races == () and 1 in st.discard


def test_F20_wealth():
    st = scenario(
        seats=2,
        ships=[
            {"owner": 0, "at": "LON", "cargo": ("Te", 50, 0)},
            {"owner": 0, "at": "LON", "cargo": ("Sø", 50, 0)},
            {"owner": 0, "at": "LON", "privateer": True},
            {"owner": 0, "at": "LON"},
            {"owner": 1, "at": "AMS"},
        ],
        forts={"CAN": 0, "BOM": 0},
        cash=[240, 100],
    )
    st.depots[(0, "ALX")] = (Load("Ka", 40, 0, "SUE"),)
    st.supply["Ka"] -= 1
    assert st.wealth(0) == 980
    st.check()


def test_F21_shipless_player_stays_in():
    def make(opts=None):
        return scenario(
            seats=4,
            turn=3,
            M=3,
            options=opts,
            ships=[
                {"owner": 0, "at": "LON"},
                {"owner": 1, "at": "AMS"},
                {"owner": 2, "at": "LIS"},
                {"owner": 3, "at": "MOZ2"},
            ],
            forts={"ZAN": 3},
            cash=[100, 100, 100, 60],
            reefs=["", "", "", "D"],
            dice=dice2(2),
        )

    st = make()
    play(st, "sail s4 MOZ1")
    assert "s4" not in st.ships
    end(st)
    assert st.to_act == 0 and not st.eliminated[3] and st.forts["ZAN"] == 3 and st.cash[3] == 60
    # he collects fees and may buy a ship once he has 100
    st.cash[3] = 100
    st.turn = st.to_act = 3
    st._legal = None
    assert "buyship" in legal(st)
    st = make(FuldriggerOptions(eliminate_shipless=True))
    play(st, "sail s4 MOZ1")
    end(st)
    assert st.eliminated[3] and "ZAN" not in st.forts and st.cash[3] == 0
    st.check()


def test_F22_tax_capped_at_cash():
    st = scenario(
        ships=[{"owner": 0, "at": "LON"} for _ in range(4)] + [{"owner": 1, "at": "AMS"}],
        cash=[25, 100],
        deck_top=[22],
    )
    st._turn_card([])
    assert st.cash == [0, 90]
    st.check()


def _f23(cash0):
    return scenario(
        round=10,
        ships=[
            {"owner": 0, "at": "MALK", "privateer": True},
            {"owner": 1, "at": "MLK2"},
            {"owner": 0, "at": "LON"},
        ],
        forts={"BOM": 0, "TRA": 0, "CAN": 1, "BAT": 1},
        cash=[cash0, 100],
        M=5,
    )


def test_F23_fortress_for_money_with_truce():
    st = _f23(170)
    assert "attack 1 MLK2" in legal(st)
    play(st, "offer 1", "give cash 100", "give cash 50", "ask fort CAN", "truce 3", "send")
    assert st.to_act == 1 and st.phase == "respond"
    play(st, "accept o1")
    assert st.cash == [20, 250] and st.forts["CAN"] == 0
    assert st.to_act == 0 and "attack 1 MLK2" not in legal(st)
    assert st.truces[(0, 1)] == 13
    for r in (11, 12, 13):
        st.round = r
        st._legal = None
        assert "attack 1 MLK2" not in legal(st)
    st.round = 14
    st._legal = None
    assert "attack 1 MLK2" in legal(st)


def test_F24_acceptance_fails_without_cash():
    st = _f23(170)
    play(st, "offer 1", "give cash 100", "give cash 50", "ask fort CAN", "truce 3", "send", "later")
    play(st, "buy s3 Ma", "jettison s3", "buy s3 Ma")  # 170 - 60 = 110 < 150
    assert st.cash[0] == 110
    end(st)
    assert st.to_act == 1 and "accept o1" in legal(st)
    ev = play(st, "accept o1")
    assert any(e["kind"] == "offer_failed" and "110" in e["text"] for e in ev)
    assert st.offers == {} and st.forts["CAN"] == 1 and st.cash == [110, 100]


def test_F25_buy_ship_at_home():
    st = scenario(
        homes=("AMS", "LON"), ships=[{"owner": 0, "at": "AMS"}, {"owner": 1, "at": "LON"}], cash=[150, 100]
    )
    play(st, "buyship")
    assert (
        st.cash[0] == 50
        and at(st, "s3") == "AMS"
        and st.ships["s3"].load is None
        and not st.ships["s3"].privateer
    )
    assert "sail s3 NORD" in legal(st)


def test_F26_privateer_needs_empty_ship():
    st = scenario(
        ships=[{"owner": 0, "at": "BOM", "cargo": ("Ma", 30, 20)}, {"owner": 1, "at": "AMS"}],
        forts={"BOM": 0},
    )
    assert "fit s1" not in legal(st)
    refused(st, "fit s1", "must be empty")
    play(st, "sell s1")
    assert "fit s1" in legal(st)
    st = scenario(
        ships=[{"owner": 0, "at": "BOM", "cargo": ("Ma", 30, 20)}, {"owner": 1, "at": "AMS"}],
        forts={"BOM": 0},
    )
    play(st, "jettison s1", "fit s1")
    assert st.ships["s1"].privateer


def test_F27_no_fortress_in_another_home_city():
    st = scenario(
        seats=3,
        turn=1,
        homes=("LON", "AMS", "LIS"),
        ships=[{"owner": 0, "at": "LON"}, {"owner": 1, "at": "LIS"}, {"owner": 2, "at": "KBH"}],
    )
    assert "fortress LIS" not in legal(st)
    refused(st, "fortress LIS", "another player's home city")
