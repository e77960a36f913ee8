"""Revir's board and cards as data: the Tviksta Gård edition (docs/rules/revir.md, section 1).

The Swedish rule booklet prints neither the board, the territory cards (revirkort), the rat
tables (råttfångst) nor the 30 event cards (händelsekort). Everything here is the project's
own invented edition (a decision, section 1 of the rules). The rules engine only reads an
:class:`Edition`, so a real board can replace :data:`TVIKSTA` later without touching
``rules.py``.

Geometry (adjacency per door state, shortest walks) is precomputed once at import.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Literal

CardKind = Literal["permit", "happen", "once"]

EMPTY = -1
"""No card (an empty place of the card clock)."""


@dataclass(frozen=True, slots=True)
class Square:
    """A square (ruta) of the board. Territories (revir) have a colour and a rat profile."""

    id: str
    sv: str
    en: str
    indoor: bool
    colour: str | None = None
    """Series colour (revirserie) for a territory square, ``None`` for a plain square."""
    profile: str | None = None
    """Rat profile (S, M or L) printed on the square and on its territory card."""
    building: str | None = None
    """``"house"`` or ``"barn"`` for indoor squares."""
    xy: tuple[int, int] = (0, 0)
    """Suggested drawing position (column, row)."""


@dataclass(frozen=True, slots=True)
class RatProfile:
    """A rat table (råttfångst): the die results that catch, and the power stones gained."""

    id: str
    sv: str
    catches: frozenset[int]
    gain: int


@dataclass(frozen=True, slots=True)
class EventCard:
    """An event card (händelsekort). ``kind``: PERMIT (while visible), HAPPEN (pays the active
    player after movement while visible) or ONCE (gäller endast detta drag)."""

    id: str
    sv: str
    en: str
    kind: CardKind
    text: str
    hunt: frozenset[str] = frozenset()
    """Råttspår: rat hunting allowed on these territories."""
    fat: int = 0
    """Feta råttor: extra stones per successful catch."""
    double: bool = False
    """Storfångst: a catch gives double the table value."""
    doors: frozenset[str] = frozenset()
    """Doors (by id) that stand open while the card is visible."""
    food: int = 0
    """HAPPEN: stones gained by the active player whose cat is on one of ``food_squares``."""
    food_squares: frozenset[str] = frozenset()
    free_move: bool = False
    """ONCE (Pigg katt): this turn's movement costs nothing."""
    window: bool = False
    """ONCE (Fönstret på glänt): every door is open for the active player this turn."""
    gain: int = 0
    """ONCE (Gräddskålen): the active player gains this at once."""
    dog: int = 0
    """ONCE (Hunden skäller): an active player outdoors pays this to the bank."""
    nest: bool = False
    """ONCE (Råttboet): hunting allowed this turn on any own territory one stands on."""


@dataclass(frozen=True, slots=True)
class Edition:
    """Everything a Revir board and deck consist of."""

    name: str
    squares: tuple[Square, ...]
    edges: tuple[tuple[str, str], ...]
    doors: tuple[tuple[str, str, str, str], ...]
    """(door id, Swedish name, square, square): edges crossable only while open."""
    colours: tuple[tuple[str, str, str], ...]
    """(colour id, Swedish, English), in the setup sort order."""
    profiles: tuple[RatProfile, ...]
    cards: tuple[EventCard, ...]
    start: str
    total_stones: int = 80
    start_stones: int = 10
    clock_sizes: dict[int, int] = field(default_factory=lambda: {2: 6, 3: 9, 4: 8})


S, M, L = "S", "M", "L"

_SQUARES = (
    Square("GP", "Gårdsplanen", "the yard", False, xy=(3, 3)),
    Square("TR", "Trappan", "front steps", False, xy=(2, 2)),
    Square("LB", "Logbron", "barn bridge", False, xy=(4, 2)),
    Square("HL", "Hallen", "hall", True, building="house", xy=(2, 1)),
    Square("SG", "Stallgången", "barn aisle", True, building="barn", xy=(4, 1)),
    Square("LO", "Logen", "threshing floor", True, "ROD", S, "barn", (4, 0)),
    Square("HS", "Höskullen", "hayloft", True, "ROD", L, "barn", (5, 0)),
    Square("BA", "Båsen", "cow stalls", True, "ROD", S, "barn", (5, 1)),
    Square("FR", "Foderrummet", "feed room", True, "ROD", M, "barn", (6, 0)),
    Square("KO", "Köket", "kitchen", True, "GUL", S, "house", (2, 0)),
    Square("VR", "Vardagsrummet", "living room", True, "GUL", S, "house", (1, 1)),
    Square("SK", "Skafferiet", "pantry", True, "GUL", M, "house", (1, 0)),
    Square("KA", "Källaren", "cellar", True, "GUL", L, "house", (0, 0)),
    Square("RB", "Rabatten", "flower bed", False, "GRON", S, xy=(2, 3)),
    Square("AP", "Äppelträdet", "apple tree", False, "GRON", M, xy=(1, 3)),
    Square("GL", "Grönsakslandet", "vegetable patch", False, "GRON", S, xy=(2, 4)),
    Square("BB", "Bärbuskarna", "berry bushes", False, "GRON", L, xy=(1, 4)),
    Square("HA", "Hagen", "pasture", False, "BLA", S, xy=(3, 4)),
    Square("DA", "Dammen", "pond", False, "BLA", M, xy=(4, 5)),
    Square("DI", "Diket", "ditch", False, "BLA", L, xy=(2, 5)),
    Square("BR", "Bryggan", "jetty", False, "BLA", S, xy=(3, 6)),
    Square("VB", "Vedboden", "woodshed", False, "LILA", S, xy=(4, 3)),
    Square("HH", "Hönshuset", "hen house", False, "LILA", M, xy=(5, 2)),
    Square("KM", "Komposten", "compost heap", False, "LILA", S, xy=(5, 4)),
    Square("GS", "Grisstian", "pig sty", False, "LILA", L, xy=(5, 3)),
)

_EDGES_TEXT = """
GP-TR GP-LB GP-RB GP-HA GP-VB TR-RB LB-HH
RB-AP RB-GL AP-BB GL-BB
HA-DA HA-DI DA-BR DI-BR
VB-HH VB-KM HH-GS KM-GS
GL-DI DA-KM
HL-KO HL-VR KO-VR KO-SK SK-KA
SG-LO SG-BA LO-HS BA-FR HS-FR
"""

_EDGES = tuple((e.split("-")[0], e.split("-")[1]) for e in _EDGES_TEXT.split())

_DOORS = (
    ("house", "husdörren", "TR", "HL"),
    ("barn", "ladugårdsdörren", "LB", "SG"),
)

_COLOURS = (
    ("ROD", "RÖD", "red"),
    ("GUL", "GUL", "yellow"),
    ("GRON", "GRÖN", "green"),
    ("BLA", "BLÅ", "blue"),
    ("LILA", "LILA", "purple"),
)

_PROFILES = (
    RatProfile("S", "möss", frozenset({4, 5, 6}), 2),
    RatProfile("M", "råtta", frozenset({5, 6}), 3),
    RatProfile("L", "storråtta", frozenset({6}), 6),
)

_NAMES = {s.id: s.sv for s in _SQUARES}


def _tracks(cid: str, *where: str) -> EventCard:
    names = ", ".join(_NAMES[w] for w in where)
    return EventCard(
        cid,
        f"Råttspår: {names}",
        "Rat tracks",
        "permit",
        f"Rat hunting allowed on {', '.join(where)}",
        hunt=frozenset(where),
    )


_HOUSE = frozenset({"HL", "KO", "VR", "SK", "KA"})
_BARN = frozenset({"SG", "LO", "HS", "BA", "FR"})

_CARDS = (
    _tracks("E01", "SK", "AP", "DA", "KM"),
    _tracks("E02", "LO", "BB", "BR", "KM"),
    _tracks("E03", "HS", "KA", "BR", "GS"),
    _tracks("E04", "BA", "VR", "GL", "VB"),
    _tracks("E05", "HS", "VR", "RB", "HA"),
    _tracks("E06", "KO", "BB", "DA", "VB"),
    _tracks("E07", "LO", "AP", "DI", "GS"),
    _tracks("E08", "BA", "KO", "HA", "HH"),
    _tracks("E09", "FR", "SK", "GL", "HH"),
    _tracks("E10", "FR", "KA", "RB", "DI"),
    EventCard("E11", "Feta råttor", "Fat rats", "permit", "Every catch gives +1 stone", fat=1),
    EventCard("E12", "Feta råttor", "Fat rats", "permit", "Every catch gives +1 stone", fat=1),
    EventCard("E13", "Storfångst", "Big catch", "permit", "Every catch gives double", double=True),
    EventCard(
        "E14", "Husdörren står öppen", "House door open", "permit", "TR-HL open", doors=frozenset({"house"})
    ),
    EventCard(
        "E15", "Husdörren står öppen", "House door open", "permit", "TR-HL open", doors=frozenset({"house"})
    ),
    EventCard(
        "E16",
        "Ladugårdsdörren står öppen",
        "Barn door open",
        "permit",
        "LB-SG open",
        doors=frozenset({"barn"}),
    ),
    EventCard(
        "E17",
        "Ladugårdsdörren står öppen",
        "Barn door open",
        "permit",
        "LB-SG open",
        doors=frozenset({"barn"}),
    ),
    EventCard(
        "E18",
        "Alla dörrar öppna",
        "All doors open",
        "permit",
        "Both doors open",
        doors=frozenset({"house", "barn"}),
    ),
    EventCard(
        "E19",
        "Middag i köket",
        "Dinner in the kitchen",
        "happen",
        "Cat on KO after moving: +2",
        food=2,
        food_squares=frozenset({"KO"}),
    ),
    EventCard(
        "E20",
        "Middag i köket",
        "Dinner in the kitchen",
        "happen",
        "Cat on KO after moving: +2",
        food=2,
        food_squares=frozenset({"KO"}),
    ),
    EventCard(
        "E21",
        "Mjölk i ladugården",
        "Milk in the barn",
        "happen",
        "Cat on BA after moving: +2",
        food=2,
        food_squares=frozenset({"BA"}),
    ),
    EventCard(
        "E22",
        "Barnen klappar katten",
        "The children pet the cat",
        "happen",
        "Cat in the farmhouse after moving: +1",
        food=1,
        food_squares=_HOUSE,
    ),
    EventCard(
        "E23",
        "Barnen klappar katten",
        "The children pet the cat",
        "happen",
        "Cat in the farmhouse after moving: +1",
        food=1,
        food_squares=_HOUSE,
    ),
    EventCard(
        "E24",
        "Bonden klappar katten",
        "The farmer pets the cat",
        "happen",
        "Cat in the barn after moving: +1",
        food=1,
        food_squares=_BARN,
    ),
    EventCard("E25", "Pigg katt", "Lively cat", "once", "This turn, moving costs nothing", free_move=True),
    EventCard("E26", "Pigg katt", "Lively cat", "once", "This turn, moving costs nothing", free_move=True),
    EventCard(
        "E27", "Fönstret på glänt", "Window ajar", "once", "This turn, you may pass either door", window=True
    ),
    EventCard("E28", "Gräddskålen", "The cream bowl", "once", "Gain 2 at once", gain=2),
    EventCard("E29", "Hunden skäller", "The dog barks", "once", "If your cat is outdoors, pay 1", dog=1),
    EventCard(
        "E30",
        "Råttboet",
        "The rat nest",
        "once",
        "This turn, hunt on any own territory you stand on",
        nest=True,
    ),
)

TVIKSTA = Edition(
    name="Tviksta Gård",
    squares=_SQUARES,
    edges=_EDGES,
    doors=_DOORS,
    colours=_COLOURS,
    profiles=_PROFILES,
    cards=_CARDS,
    start="GP",
)


class Geometry:
    """Precomputed tables for one edition: indices, masks and shortest walks per door state.

    A door state is a bit mask over ``edition.doors`` (bit i set: door i open). ``dist[mask][a]``
    is a tuple of shortest walk lengths from square ``a`` (-1: unreachable).
    """

    def __init__(self, ed: Edition) -> None:
        self.edition = ed
        self.ids: tuple[str, ...] = tuple(s.id for s in ed.squares)
        self.index: dict[str, int] = {sid: i for i, sid in enumerate(self.ids)}
        self.n = len(self.ids)
        self.indoor: tuple[bool, ...] = tuple(s.indoor for s in ed.squares)
        self.start = self.index[ed.start]
        self.colour_ids: tuple[str, ...] = tuple(c[0] for c in ed.colours)
        # Territories: squares with a colour, ordered by the setup sort (colour, then board order).
        terr = [s for c in self.colour_ids for s in ed.squares if s.colour == c]
        self.territories: tuple[str, ...] = tuple(s.id for s in terr)
        self.tindex: dict[str, int] = {t: i for i, t in enumerate(self.territories)}
        self.nterr = len(terr)
        self.t_colour: tuple[int, ...] = tuple(self.colour_ids.index(s.colour or "") for s in terr)
        self.t_square: tuple[int, ...] = tuple(self.index[s.id] for s in terr)
        self.square_terr: tuple[int, ...] = tuple(self.tindex.get(sid, -1) for sid in self.ids)
        self.colour_size: tuple[int, ...] = tuple(self.t_colour.count(c) for c in range(len(self.colour_ids)))
        prof = {p.id: p for p in ed.profiles}
        self.t_profile: tuple[RatProfile, ...] = tuple(prof[s.profile or ""] for s in terr)
        self.door_ids: tuple[str, ...] = tuple(d[0] for d in ed.doors)
        self.all_doors = (1 << len(ed.doors)) - 1
        adj: list[list[list[int]]] = []
        for mask in range(self.all_doors + 1):
            a: list[list[int]] = [[] for _ in range(self.n)]
            pairs = list(ed.edges) + [(d[2], d[3]) for i, d in enumerate(ed.doors) if mask >> i & 1]
            for x, y in pairs:
                a[self.index[x]].append(self.index[y])
                a[self.index[y]].append(self.index[x])
            adj.append(a)
        self.adj: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(tuple(sorted(v)) for v in a) for a in adj
        )
        self.dist: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(self._bfs(self.adj[m], s) for s in range(self.n)) for m in range(self.all_doors + 1)
        )
        self.cards: tuple[EventCard, ...] = ed.cards
        self.card_index: dict[str, int] = {c.id: i for i, c in enumerate(ed.cards)}
        self.card_ids: tuple[str, ...] = tuple(c.id for c in ed.cards)
        self.ncards = len(ed.cards)
        self.card_hunt_mask: tuple[int, ...] = tuple(
            sum(1 << self.tindex[t] for t in c.hunt) for c in ed.cards
        )
        self.card_door_mask: tuple[int, ...] = tuple(
            sum(1 << self.door_ids.index(d) for d in c.doors) for c in ed.cards
        )
        self.card_food_mask: tuple[int, ...] = tuple(
            sum(1 << self.index[q] for q in c.food_squares) for c in ed.cards
        )
        self.board: dict[str, object] = board_json(self)
        """The static board and deck as JSON (:func:`board_json`), built once: every view and
        the server's board data hand out this one object."""

    def _bfs(self, adj: tuple[tuple[int, ...], ...], s: int) -> tuple[int, ...]:
        d = [-1] * self.n
        d[s] = 0
        q = deque([s])
        while q:
            x = q.popleft()
            for y in adj[x]:
                if d[y] < 0:
                    d[y] = d[x] + 1
                    q.append(y)
        return tuple(d)


def board_json(geo: Geometry) -> dict[str, object]:
    """The static board and deck, JSON-ready, for views and clients."""
    ed = geo.edition
    return {
        "name": ed.name,
        "squares": [
            {
                "id": s.id,
                "sv": s.sv,
                "en": s.en,
                "indoor": s.indoor,
                "colour": s.colour,
                "profile": s.profile,
                "building": s.building,
                "x": s.xy[0],
                "y": s.xy[1],
            }
            for s in ed.squares
        ],
        "edges": [list(e) for e in ed.edges],
        "doors": [{"id": d[0], "sv": d[1], "edge": [d[2], d[3]]} for d in ed.doors],
        "colours": [{"id": c[0], "sv": c[1], "en": c[2]} for c in ed.colours],
        "profiles": [
            {"id": p.id, "sv": p.sv, "catches": sorted(p.catches), "gain": p.gain} for p in ed.profiles
        ],
        "cards": {c.id: {"sv": c.sv, "en": c.en, "type": c.kind, "text": c.text} for c in ed.cards},
    }


GEOMETRY = Geometry(TVIKSTA)
