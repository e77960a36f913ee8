"""Metscri data: the board geometry and the 104 cards, precomputed once at import.

Board (Spillepladen): a 7x7 grid without its four corners, 45 squares. A square is an
int ``r * 7 + c`` (0..48); the four corner indices are never squares. Square ids in views
and actions are ``"r3c4"``. Ring (felter fra randen) = ``min(r, c, 6 - r, 6 - c)``.

Cards (Spillekortene): two 52-card decks without jokers, 104 cards. A card is an int
0..103: ``deck = c // 52``, ``suit = (c % 52) // 13``, ``rank = c % 13 + 1`` (1 = ace,
11 = J, 12 = Q, 13 = K). Aces are big jokers (stor joker), twos small jokers (lille joker),
3..K symbol cards (symbol-kort). Card ids are rank + suit + deck letter: ``"9Ha"``,
``"10Db"``, ``"ASa"``, so the two copies of a card have different ids.
"""

from __future__ import annotations

SIZE = 7
NCELLS = SIZE * SIZE
CORNERS: frozenset[int] = frozenset({0, 6, 42, 48})
SQUARES: tuple[int, ...] = tuple(i for i in range(NCELLS) if i not in CORNERS)
IS_SQUARE: tuple[bool, ...] = tuple(i not in CORNERS for i in range(NCELLS))


def _ring(i: int) -> int:
    r, c = divmod(i, SIZE)
    return min(r, c, SIZE - 1 - r, SIZE - 1 - c)


RING: tuple[int, ...] = tuple(_ring(i) for i in range(NCELLS))
RIM: tuple[int, ...] = tuple(i for i in SQUARES if RING[i] == 0)
RIM_SET: frozenset[int] = frozenset(RIM)
SQ_ID: tuple[str, ...] = tuple(f"r{i // SIZE}c{i % SIZE}" for i in range(NCELLS))
SQ_INDEX: dict[str, int] = {SQ_ID[i]: i for i in SQUARES}

SPY_COST: tuple[int, ...] = tuple(RING[i] + 1 for i in range(NCELLS))
"""Spy (Smugkigge) cost: ring + 1 (rim 1, ring 1: 2, ring 2: 3, centre 4)."""
SPY_COST_MAX = max(SPY_COST)
SPY_MASK: tuple[int, ...] = tuple(
    sum(1 << i for i in SQUARES if SPY_COST[i] <= ap) for ap in range(SPY_COST_MAX + 1)
)
"""``SPY_MASK[ap]``: the squares (a bitmask) a Spy with ``ap`` AP can afford (ap at most the top cost)."""
POINTS: tuple[int, ...] = tuple(RING[i] + 1 for i in range(NCELLS))
"""Points for a matched symbol card lying on the square (jokers always score 1)."""

ORTHO_DIRS: tuple[tuple[int, int], ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAG_DIRS: tuple[tuple[int, int], ...] = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def _neighbours(i: int, dirs: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    r, c = divmod(i, SIZE)
    out = []
    for dr, dc in dirs:
        rr, cc = r + dr, c + dc
        if 0 <= rr < SIZE and 0 <= cc < SIZE and IS_SQUARE[rr * SIZE + cc]:
            out.append(rr * SIZE + cc)
    return tuple(out)


ORTHO: tuple[tuple[int, ...], ...] = tuple(_neighbours(i, ORTHO_DIRS) for i in range(NCELLS))
"""Orthogonal neighbours (vandret/lodret), used by Move."""
DIAG: tuple[tuple[int, ...], ...] = tuple(_neighbours(i, DIAG_DIRS) for i in range(NCELLS))
KING: tuple[tuple[int, ...], ...] = tuple(ORTHO[i] + DIAG[i] for i in range(NCELLS))
"""King neighbours (vandret, lodret eller diagonalt), used by Collect."""
KING_MASK: tuple[int, ...] = tuple(sum(1 << j for j in KING[i]) for i in range(NCELLS))


def _rays(i: int) -> tuple[tuple[int, ...], ...]:
    """The four slide rays from square ``i``: squares in order until the edge or a corner."""
    r, c = divmod(i, SIZE)
    rays = []
    for dr, dc in ORTHO_DIRS:
        ray = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < SIZE and 0 <= cc < SIZE and IS_SQUARE[rr * SIZE + cc]:
            ray.append(rr * SIZE + cc)
            rr, cc = rr + dr, cc + dc
        if ray:
            rays.append(tuple(ray))
    return tuple(rays)


RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_rays(i) for i in range(NCELLS))

MAX_STACK = 3
assert all(tuple(ray[0] for ray in RAYS[i]) == ORTHO[i] for i in range(NCELLS)), "a ray starts at a neighbour"


def _slide_paths(s: int) -> dict[int, tuple[int, ...]]:
    """For each square a slide from ``s`` may reach: the squares it passes, itself included."""
    out: dict[int, tuple[int, ...]] = {}
    for ray in RAYS[s]:
        for i, t in enumerate(ray):
            out[t] = ray[: i + 1]
    return out


SLIDE_PATH: tuple[dict[int, tuple[int, ...]], ...] = tuple(_slide_paths(s) for s in range(NCELLS))
"""Per square: destination -> the squares a slide there passes over (all must be empty, R13a)."""
STEP_OK: tuple[tuple[bool, ...], ...] = tuple(
    tuple(0 < k < MAX_STACK and k + 1 != h for k in range(MAX_STACK + 1)) for h in range(MAX_STACK + 1)
)
"""``STEP_OK[h][k]``: may a card at level ``h`` step onto a neighbour holding ``k`` cards (R13b,
same-level steps forbidden, A3)?"""

# ------------------------------------------------------------------ cards

NCARDS = 104
HAND_SIZE = 7
SUITS = "SHDC"
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

SYMBOL, SMALL_JOKER, BIG_JOKER = 0, 1, 2

RANK: tuple[int, ...] = tuple(c % 13 + 1 for c in range(NCARDS))
KIND: tuple[int, ...] = tuple(
    BIG_JOKER if RANK[c] == 1 else SMALL_JOKER if RANK[c] == 2 else SYMBOL for c in range(NCARDS)
)
SUIT: tuple[str, ...] = tuple(SUITS[(c % 52) // 13] for c in range(NCARDS))
CARD_ID: tuple[str, ...] = tuple(f"{RANK_NAMES[RANK[c]]}{SUIT[c]}{'ab'[c // 52]}" for c in range(NCARDS))
CARD_INDEX: dict[str, int] = {CARD_ID[c]: c for c in range(NCARDS)}
CARD_FACE: tuple[str, ...] = tuple(f"{RANK_NAMES[RANK[c]]}{SUIT_SYMBOL[SUIT[c]]}" for c in range(NCARDS))
"""Human face, e.g. ``"4♣"``, ``"A♠"`` (the deck letter dropped)."""


def card_of(text: str) -> int:
    """A card from its id (``"4Ca"``) or, for tests, from a face (``"4C"``/``"4♣"``, deck a)."""
    if text in CARD_INDEX:
        return CARD_INDEX[text]
    t = text
    for letter, sym in SUIT_SYMBOL.items():
        t = t.replace(sym, letter)
    return CARD_INDEX[t + "a"]


def sq(r: int, c: int) -> int:
    """The square at row ``r``, column ``c``."""
    i = r * SIZE + c
    if not (0 <= r < SIZE and 0 <= c < SIZE) or not IS_SQUARE[i]:
        raise ValueError(f"({r},{c}) is not a Metscri square")
    return i


# ------------------------------------------------------------------ turn

ROLL, MOVE, ENTER, TURN, SPY, COLLECT, INVEST, OVER = range(8)
"""The phases of a turn, in the order of R9 (Return, R27, is automatic when Collect is left)."""
PHASE_NAMES: tuple[str, ...] = ("roll", "move", "enter", "turn", "spy", "collect", "invest", "over")

COST_MOVE = 1
COST_ENTER = 2
COST_INVEST = 2


def target_points(players: int) -> int:
    """M-points to win: ceil(144 / players) (72, 48, 36, 29, 24, 21, 18 for 2..8)."""
    return -(-144 // players)


def turn_cost(already_turned: int) -> int:
    """Cost of the next Turn (Vende) when ``already_turned`` cards were turned this turn."""
    return already_turned
