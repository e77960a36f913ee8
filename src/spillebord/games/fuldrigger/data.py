"""Fuldrigger data: the world map, hazards, goods, city price lists and chance cards.

Everything here is the invented data of rule 1 in docs/rules/fuldrigger.md (no record of the
original board survives). It is plain data, parsed once at import into fast lookup tables, so
that a reconstruction of the original board can replace it without touching the rules.

Node ids are ints; ``CODES[i]`` is the square or port code ("KANW", "LON"). Ports are
separate dead-end nodes attached to their roadstead square.
"""

from __future__ import annotations

from collections import deque
from typing import Any, NamedTuple

# --------------------------------------------------------------------------- map (1.3)

# Lane: id, then From, the squares in order, To (rule 1.3.1).
LANES_TEXT = """
L01 KAT1 KAT2 NORD
L02 NORD DOVR
L03 DOVR KAN1 KANW
L04 KANW BIS1 BIS2 FINI
L05 FINI LIS1 LISB
L06 LISB SVI1 GIBR
L07 GIBR MED1 MED2 MEDC
L08 MEDC MED3 MED4 MED5 ALXS
L09 KANW NAT1 NAT2 NAT3 NAT4 AZOR
L10 LISB AZ1 AZ2 AZ3 AZOR
L11 AZOR NAT5 NAT6 NAT7 NAT8 NEWF
L12 KANW NAN1 NAN2 NAN3 NAN4 NAN5 NAN6 NEWF
L13 NEWF NWF1 NWF2 NYCS
L14 NYCS CST1 CST2 CST3 FLOR
L15 AZOR GS1 GS2 GS3 GS4 GS5 GS6 FLOR
L16 LISB CNR1 CNR2 CNR3 KAPV
L17 KAPV GUI1 GUI2 GUI3 GULD
L18 KAPV TW1 TW2 TW3 TW4 TW5 TW6 ANTS
L19 ANTS CAR1 CAR2 CARC
L20 CARC CAR3 PBLS
L21 CARC CAR4 CAR5 FLOR
L22 KAPV EQ1 EQ2 EQ3 EQ4 SATL
L23 SATL BRA1 BRA2 RIOS
L24 RIOS PAT1 PAT2 PAT3 PAT4 PAT5 PAT6 PAT7 PAT8 HORN
L25 HORN CHI1 CHI2 CHI3 CHI4 CHI5 CHI6 CHI7 CHI8 CALS
L26 CALS PER1 PER2 PER3 PANS
L27 SATL SAT1 SAT2 SAT3 SAT4 SAT5 SAT6 SAT7 KAPH
L28 GULD ANG1 ANG2 ANG3 ANG4 ANG5 ANG6 KAPH
L29 KAPH MOZ1 MOZ2 MOZ3 ZANS
L30 ZANS ARB1 ARB2 ARB3 ADEN
L31 ADEN RED1 RED2 RED3 SUZS
L32 ADEN ASE1 ASE2 ASE3 BOMS
L33 KAPH IND1 IND2 IND3 IND4 MAUR
L34 MAUR IND5 IND6 IND7 CEYL
L35 MAUR IND8 IND9 IND10 IND11 SUND
L36 BOMS MLB1 MLB2 CEYL
L37 CEYL BEN1 BEN2 BEN3 MALK
L38 MALK MLK1 MLK2 SCS
L39 SUND JAV1 JAV2 SCS
L40 SCS SCH1 SCH2 SCH3 CANS
L41 CANS PW1 PW2 PW3 PW4 PW5 PW6 PW7 PW8 PW9 PMID
L42 PMID PE1 PE2 PE3 PE4 PE5 PE6 PE7 PE8 PE9 PANS
"""

# Port cities (1.3.2): code, name, roadstead, region, home-eligible.
PORTS_TEXT = """
KBH|København|KAT1|Europe|1
AMS|Amsterdam|NORD|Europe|1
LON|London|DOVR|Europe|1
LIS|Lisboa|LISB|Europe|1
CAD|Cádiz|GIBR|Europe|0
MAR|Marseille|MEDC|Europe|0
ALX|Alexandria|ALXS|Egypt|0
GUL|Guldkysten|GULD|Africa|0
KAP|Kapstaden|KAPH|Africa|0
ZAN|Zanzibar|ZANS|Africa|0
SUE|Suez|SUZS|Egypt|0
BOM|Bombay|BOMS|India|0
TRA|Tranquebar|CEYL|India|0
BAT|Batavia|SUND|East Indies|0
CAN|Canton|CANS|China|0
NYK|New York|NYCS|North America|0
HAV|Havanna|FLOR|Caribbean|0
STT|St. Thomas|ANTS|Caribbean|0
POB|Porto Bello|PBLS|Caribbean|0
RIO|Rio de Janeiro|RIOS|South America|0
PAN|Panamá|PANS|Pacific|0
CAL|Callao|CALS|Pacific|0
"""

EUROPEAN = ("KBH", "AMS", "LON", "LIS", "CAD", "MAR")
ISTHMUS_PAIRS = {"SUE": "ALX", "ALX": "SUE", "POB": "PAN", "PAN": "POB"}
ISTHMUS_CROSSING = {"SUE": "suez", "ALX": "suez", "POB": "panama", "PAN": "panama"}

# Hazards (1.3.3). Medvind = tail wind, Modvind = head wind, Isbjerg = iceberg,
# Vindstille = calm, Skær = reef (lettered), Pirater = pirate waters.
TAILWIND, HEADWIND, STORM, ICEBERG, CALM, REEF, PIRATES = (
    "tailwind",
    "headwind",
    "storm",
    "iceberg",
    "calm",
    "reef",
    "pirates",
)
HAZARDS_TEXT = {
    TAILWIND: "MED4 GS3 CNR2 TW3 SAT3 IND3 IND9 PE5",
    HEADWIND: "BIS2 NAT2 NAN4 CHI3 ANG5 RED3",
    STORM: "NAN2 CST2 GS5 CAR2 PAT4 SAT6 MOZ1 IND1 IND6 BEN2 SCH2 PW2 PE7 HORN",
    ICEBERG: "NAT7 NAN5 PAT7 CHI2",
    CALM: "GUI2 EQ2 EQ3 ANG2 PMID",
    PIRATES: "MED1 CAR1 CAR5 ARB1 ASE3 MLK1 SCH3 IND4",
}
REEFS_TEXT = "A=TW6 B=CAR4 C=BRA1 D=MOZ2 E=RED2 F=MLK2 G=JAV1 H=SCH1 I=PW6 J=IND10"
# Pirate square -> the city whose fortress protects it (within 2 squares), or None.
PIRATE_PROTECTION_TEXT = "MED1=CAD CAR1=STT CAR5=HAV ARB1=ZAN ASE3=BOM SCH3=CAN MLK1=- IND4=-"

HAZARD_NAMES_DA = {
    TAILWIND: "Medvind",
    HEADWIND: "Modvind",
    STORM: "Storm",
    ICEBERG: "Isbjerg",
    CALM: "Vindstille",
    REEF: "Farlige skær",
    PIRATES: "Piratfarvand",
}

# --------------------------------------------------------------------------- goods (1.2)

GOODS_TEXT = """
Kr|Krydderier|Spices|9
Te|Te|Tea|9
Si|Silke|Silk|6
Po|Porcelæn|Porcelain|6
Ka|Kaffe|Coffee|9
Su|Sukker|Sugar|12
To|Tobak|Tobacco|9
Bo|Bomuld|Cotton|9
El|Elfenben|Ivory|6
Sø|Sølv|Silver|9
Pe|Pelsværk|Furs|6
Ma|Manufakturvarer|Manufactured goods|18
"""

# City price lists (1.5): "good price mark", K = buy there, S = sell there, KS = both.
PRICES_TEXT = """
KBH: Ma 30 K · Kr 230 S · Te 200 S · Si 210 S · Po 170 S · Su 100 S
AMS: Ma 30 K · Kr 220 S · Ka 120 S · Po 160 S · To 90 S · Su 90 S
LON: Ma 30 K · Te 190 S · Si 190 S · To 90 S · Bo 90 S · Pe 90 S
LIS: Ma 40 K · Kr 170 S · Ka 100 S · Su 80 S · El 90 S · Sø 100 S
CAD: Sø 110 S · Ka 100 S · To 90 S · Su 80 S · El 100 S
MAR: Ma 30 K · Si 200 S · Ka 120 S · Bo 70 S · Po 140 S
ALX: Bo 40 K · Kr 150 KS · Ma 60 S · Ka 90 S · Sø 100 S
GUL: El 60 K · Ma 80 S · To 70 S · Bo 70 S
KAP: Te 110 KS · Kr 110 KS · Ma 70 S · Su 70 S
ZAN: Kr 100 K · El 50 K · Ma 80 S · Bo 70 S
SUE: Ka 40 K · Kr 130 S · Si 150 S · Ma 60 S
BOM: Bo 30 K · Ma 90 S · Sø 120 S · El 80 S
TRA: Kr 70 K · Bo 35 K · Ma 80 S · Sø 110 S
BAT: Kr 60 K · Ka 50 K · Su 40 K · Ma 90 S · Sø 120 S · Bo 70 S
CAN: Te 50 K · Si 70 K · Po 40 K · Sø 150 S · Pe 120 S · Bo 80 S
NYK: Pe 30 K · To 30 K · Ma 70 S · Te 140 S · Su 60 S
HAV: Su 30 K · To 40 K · Ma 80 S
STT: Su 30 K · Ka 60 K · To 60 KS · Ma 75 S
POB: Sø 60 K · Ma 90 S · Si 120 S
RIO: Ka 50 K · Su 40 K · Ma 80 S · Bo 60 S
PAN: Sø 80 K · Ma 100 S · Si 130 S · Po 120 S
CAL: Sø 50 K · Ma 110 S · Si 140 S · Te 120 S · To 80 S
"""

# --------------------------------------------------------------------------- chance cards (1.6)


class Card(NamedTuple):
    """A chance card (chancekort). ``effect`` is one word of a small vocabulary the rules know."""

    num: int
    title: str  # Danish title
    kind: str  # "race" | "round" | "now"
    effect: str
    good: str | None = None
    amount: int = 0
    cities: tuple[str, ...] | None = None  # None: everywhere
    text: str = ""


CARDS: tuple[Card, ...] = (
    Card(
        1,
        "Kejseren åbner Canton",
        "race",
        "race",
        None,
        150,
        ("CAN",),
        "The first ship to enter Canton receives 150 from the bank.",
    ),
    Card(
        2,
        "Sølvflåden i Callao",
        "race",
        "race",
        None,
        150,
        ("CAL",),
        "The first ship to enter Callao receives 150.",
    ),
    Card(
        3,
        "Kompagniet søger skibe i Batavia",
        "race",
        "race",
        None,
        100,
        ("BAT",),
        "The first ship to enter Batavia receives 100.",
    ),
    Card(
        4,
        "Mogulens gunst i Bombay",
        "race",
        "race",
        None,
        100,
        ("BOM",),
        "The first ship to enter Bombay receives 100.",
    ),
    Card(
        5,
        "Sultanen af Zanzibar",
        "race",
        "race",
        None,
        75,
        ("ZAN",),
        "The first ship to enter Zanzibar receives 75.",
    ),
    Card(
        6,
        "Guldfund i Brasilien",
        "race",
        "race",
        None,
        75,
        ("RIO",),
        "The first ship to enter Rio de Janeiro receives 75.",
    ),
    Card(
        7,
        "New York byder velkommen",
        "race",
        "race",
        None,
        50,
        ("NYK",),
        "The first ship to enter New York receives 50.",
    ),
    Card(
        8,
        "Handelsaftale på Guldkysten",
        "race",
        "race",
        None,
        50,
        ("GUL",),
        "The first ship to enter Guldkysten receives 50.",
    ),
    Card(
        9,
        "Temode i Europa",
        "round",
        "sale_mod",
        "Te",
        30,
        EUROPEAN,
        "Sale price of tea in European cities +30.",
    ),
    Card(
        10,
        "Krydderimarkedet oversvømmet",
        "round",
        "sale_mod",
        "Kr",
        -40,
        None,
        "Sale price of spices everywhere −40.",
    ),
    Card(
        11,
        "Sukkerpriserne falder",
        "round",
        "sale_mod",
        "Su",
        -20,
        None,
        "Sale price of sugar everywhere −20.",
    ),
    Card(
        12,
        "Sølvmangel i Kina",
        "round",
        "sale_mod",
        "Sø",
        50,
        ("CAN",),
        "Sale price of silver in Canton +50.",
    ),
    Card(
        13,
        "Krig i Europa",
        "round",
        "buy_mod",
        "Ma",
        20,
        None,
        "Purchase price of manufactured goods everywhere +20.",
    ),
    Card(
        14,
        "Kaffehusene blomstrer",
        "round",
        "sale_mod",
        "Ka",
        30,
        EUROPEAN,
        "Sale price of coffee in European cities +30.",
    ),
    Card(
        15,
        "Pest i Egypten",
        "round",
        "no_trade",
        None,
        0,
        ("ALX", "SUE"),
        "No buying or selling in Alexandria or Suez; no Suez crossing.",
    ),
    Card(
        16,
        "Embargo i Caribien",
        "round",
        "no_trade",
        None,
        0,
        ("HAV", "STT", "POB"),
        "No buying or selling in Havanna, St. Thomas or Porto Bello; no Panama crossing.",
    ),
    Card(17, "Gunstige vinde", "round", "move_mod", None, 3, None, "Every movement roll +3."),
    Card(18, "Svage vinde", "round", "move_mod", None, -3, None, "Every movement roll −3 (minimum 0)."),
    Card(19, "Stormsæson", "round", "storm_season", None, 4, None, "Storm squares sink a ship on 2, 3 or 4."),
    Card(
        20,
        "Piraterne hærger",
        "round",
        "pirates_rage",
        None,
        5,
        None,
        "Pirate squares: 2–3 ship and cargo lost; 4–5 cargo lost.",
    ),
    Card(
        21, "Flåden jager piraterne", "round", "pirates_off", None, 0, None, "Pirate squares have no effect."
    ),
    Card(
        22,
        "Skat til Kronen",
        "now",
        "tax",
        None,
        10,
        None,
        "Every player pays 10 per ship he owns (at most all his cash).",
    ),
    Card(
        23,
        "Udbytte af fæstningerne",
        "now",
        "dividend",
        None,
        20,
        None,
        "Every player receives 20 per fortress he owns.",
    ),
    Card(
        24,
        "Kongelig støtte",
        "now",
        "support",
        None,
        50,
        None,
        "Every player owning at most 2 ships receives 50.",
    ),
    Card(25, "Billige skibe", "round", "ship_cost", None, 75, None, "A new ship costs 75 instead of 100."),
    Card(
        26, "Fæstningsafgiften fordobles", "round", "fee", None, 20, None, "Port fees are 20 instead of 10."
    ),
    Card(27, "Fred i Europa", "round", "no_attacks", None, 0, None, "No attacks may be declared."),
    Card(
        28,
        "Nye søkort",
        "now",
        "charts",
        None,
        0,
        None,
        "Each player in turn, from the banker, names one reef letter and learns it.",
    ),
)
CARD_BY_NUM = {c.num: c for c in CARDS}

# --------------------------------------------------------------------------- parsing

CODES: list[str] = []
INDEX: dict[str, int] = {}


def _node(code: str) -> int:
    if code not in INDEX:
        INDEX[code] = len(CODES)
        CODES.append(code)
    return INDEX[code]


_adj: dict[int, list[int]] = {}
# Direction of every lane square: node -> (previous node on the lane, next node on the lane).
LANE_OF: dict[int, tuple[int, int]] = {}
LANES: dict[str, tuple[int, ...]] = {}


def _edge(a: int, b: int) -> None:
    _adj.setdefault(a, [])
    _adj.setdefault(b, [])
    if b not in _adj[a]:
        _adj[a].append(b)
        _adj[b].append(a)


for _line in LANES_TEXT.strip().splitlines():
    _lane_id, *_chain = _line.split()
    _ids = [_node(c) for c in _chain]
    LANES[_lane_id] = tuple(_ids)
    for _i in range(len(_ids) - 1):
        _edge(_ids[_i], _ids[_i + 1])
    for _i in range(1, len(_ids) - 1):
        LANE_OF[_ids[_i]] = (_ids[_i - 1], _ids[_i + 1])

SEA_COUNT = len(CODES)


class Port(NamedTuple):
    code: str
    name: str
    roadstead: str
    region: str
    home_eligible: bool


PORTS: dict[str, Port] = {}
for _line in PORTS_TEXT.strip().splitlines():
    _code, _name, _road, _region, _home = _line.split("|")
    PORTS[_code] = Port(_code, _name, _road, _region, _home == "1")
    _edge(_node(_code), INDEX[_road])

PORT_CODES: tuple[str, ...] = tuple(PORTS)
HOME_ELIGIBLE: tuple[str, ...] = tuple(p.code for p in PORTS.values() if p.home_eligible)
N_NODES = len(CODES)
IS_PORT: tuple[bool, ...] = tuple(c in PORTS for c in CODES)
ADJ: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(_adj[i], key=lambda j: CODES[j])) for i in range(N_NODES)
)
EDGE_COUNT = sum(len(a) for a in ADJ) // 2

HAZARD: dict[int, str] = {}
for _kind, _squares in HAZARDS_TEXT.items():
    for _sq in _squares.split():
        HAZARD[INDEX[_sq]] = _kind
REEF_LETTER: dict[int, str] = {}
REEF_SQUARE: dict[str, str] = {}
for _pair in REEFS_TEXT.split():
    _letter, _sq = _pair.split("=")
    HAZARD[INDEX[_sq]] = REEF
    REEF_LETTER[INDEX[_sq]] = _letter
    REEF_SQUARE[_letter] = _sq
REEF_LETTERS: tuple[str, ...] = tuple(sorted(REEF_SQUARE))
PIRATE_PROTECTOR: dict[int, int | None] = {}
for _pair in PIRATE_PROTECTION_TEXT.split():
    _sq, _city = _pair.split("=")
    PIRATE_PROTECTOR[INDEX[_sq]] = None if _city == "-" else INDEX[_city]
HAZARD_LIST: tuple[str | None, ...] = tuple(HAZARD.get(i) for i in range(N_NODES))


class Good(NamedTuple):
    code: str
    name_da: str
    name_en: str
    pieces: int


GOODS: dict[str, Good] = {}
for _line in GOODS_TEXT.strip().splitlines():
    _c, _da, _en, _n = _line.split("|")
    GOODS[_c] = Good(_c, _da, _en, int(_n))
GOOD_CODES: tuple[str, ...] = tuple(GOODS)
GOOD_INDEX: dict[str, int] = {g: i for i, g in enumerate(GOOD_CODES)}
TOTAL_GOODS = sum(g.pieces for g in GOODS.values())

# city -> good -> (price, buy?, sell?)
PRICES: dict[str, dict[str, tuple[int, bool, bool]]] = {}
for _line in PRICES_TEXT.strip().splitlines():
    _city, _rest = _line.split(":")
    PRICES[_city] = {}
    for _entry in _rest.split("·"):
        _g, _p, _mark = _entry.split()
        PRICES[_city][_g] = (int(_p), "K" in _mark, "S" in _mark)
PRICE_ENTRIES = sum(len(v) for v in PRICES.values())

# --------------------------------------------------------------------------- distances


def _bfs(src: int) -> list[int]:
    d = [-1] * N_NODES
    d[src] = 0
    q = deque([src])
    while q:
        u = q.popleft()
        for v in ADJ[u]:
            # Ports are dead ends: a path never passes through one.
            if d[v] < 0:
                d[v] = d[u] + 1
                if not IS_PORT[v]:
                    q.append(v)
    return d


DIST: tuple[tuple[int, ...], ...] = tuple(tuple(_bfs(i)) for i in range(N_NODES))


def port_distance(a: str, b: str) -> int:
    """Sea distance in steps between two ports (table 1.3.4)."""
    return DIST[INDEX[a]][INDEX[b]]


def connected() -> bool:
    return all(d >= 0 for d in DIST[0])


# --------------------------------------------------------------------------- for clients


def board_payload() -> dict[str, Any]:
    """The printed board as JSON for clients that draw it (``Game.board_data``): lanes of sea
    squares, ports, hazards, reef letters, goods, price lists and chance cards, by code.
    A new edition's data reaches the web map through this, with no copy in the client."""
    return {
        "lanes": {k: [CODES[i] for i in v] for k, v in LANES.items()},
        "ports": {p.code: [p.name, p.roadstead, p.region] for p in PORTS.values()},
        "hazards": {CODES[i]: k for i, k in HAZARD.items()},
        "reefs": {CODES[i]: letter for i, letter in REEF_LETTER.items()},
        "goods": {g.code: [g.name_da, g.name_en, g.pieces] for g in GOODS.values()},
        "prices": {c: [[g, p, int(b), int(s)] for g, (p, b, s) in v.items()] for c, v in PRICES.items()},
        "cards": {
            str(c.num): [c.title, c.kind, c.text, list(c.cities) if c.cities is not None else None, c.amount]
            for c in CARDS
        },
        "hazard_da": dict(HAZARD_NAMES_DA),
    }
