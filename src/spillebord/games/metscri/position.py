"""Metscri positions from text (for tests, puzzles and bug reports).

A position is a board diagram and ``key: value`` lines; ``#`` starts a comment::

        c0   c1   c2   c3   c4   c5   c6
    r0  X    .    9D   .    .    AS   X
    r1  .    .    4C*  .    .    .    .
    r2  .    5S/6H .   4H@0 .    .    .
    ...                                    (rows not given are empty)
    seats: 2          to act: 0           phase: move      ap: 19
    hand 0: KH 8D     hand 1: -           points: 3 0      matched: 3C 4C

A square is ``.`` (empty), ``X`` (a corner: never a square) or a stack of cards bottom to top
joined by ``/``. A card is a face (``4C``, ``4♣``, ``10D``, ``AS``: the first use of a face is
deck a, the second deck b) or an id (``4Cb``). Suffixes: ``*`` on the top card lies face up
(everybody knows it); ``@01`` says which seats know a face-down card (default: nobody).
Keys: ``seats`` (default 2), ``to act`` (0), ``phase`` (roll, move, enter, turn, spy,
collect, invest; default roll), ``ap`` (the AP left, also the AP earned), ``rolls`` (default
one roll of ``ap`` once rolling is over), ``turned`` (cards turned this turn), ``spied`` (the
square just spied, Reveal possible), ``points`` (per seat), ``round``, ``hand N`` (``-`` for
none), ``matched`` and ``buy`` (bottom to top), ``rest`` (``buy``, the default, or ``hand N``:
where the cards not placed go; under an explicit buy pile, so that its last card stays on top).
Options are keyword arguments.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .data import CARD_ID, CARD_INDEX, NCARDS, NCELLS, PHASE_NAMES, SIZE, SQ_INDEX, card_of
from .options import MetscriOptions

if TYPE_CHECKING:
    from .rules import MetscriGame, MetscriState

_ROW_RE = re.compile(r"^r([0-6])\s+(.*)$")
_KNOWS_RE = re.compile(r"^(.*?)(?:@([0-7]+))?$")


def build(
    game: MetscriGame,
    *,
    seats: int = 2,
    board: dict[str, list[str]] | None = None,
    up: tuple[str, ...] = (),
    hands: dict[int, list[str]] | None = None,
    phase: str = "move",
    ap: int = 0,
    rolls: tuple[int, ...] | None = None,
    to_act: int = 0,
    turned: int = 0,
    spied: str | None = None,
    matched: list[str] | None = None,
    buy: list[str] | None = None,
    rest_to: int | None = None,
    points: tuple[int, ...] | None = None,
    knows: dict[str, int] | None = None,
    round: int = 0,
    options: MetscriOptions | None = None,
    **option_values: Any,
) -> MetscriState:
    """A position from its parts: ``board`` maps squares to cards bottom to top (faces or ids,
    with the suffixes of the text form), ``up`` the squares whose top card lies face up,
    ``knows`` square -> seat bitmask for its top card. Cards not placed go to the buy pile
    (under ``buy``), or to seat ``rest_to``'s hand. The position is checked (``check()``)."""
    s = game.new(seats, 0, options if options is not None else MetscriOptions(**option_values))
    used: set[int] = set()
    known: dict[int, int] = {}
    face_up: list[str] = list(up)

    def take(token: str) -> int:
        m = _KNOWS_RE.match(token)
        assert m is not None
        face, mask = m.group(1), m.group(2)
        c = CARD_INDEX[face] if face in CARD_INDEX else card_of(face)
        if c in used and face not in CARD_INDEX:
            c = CARD_INDEX[CARD_ID[c][:-1] + "b"]
        if c in used:
            raise ValueError(f"{token}: the card {CARD_ID[c]} is placed twice")
        used.add(c)
        if mask is not None:
            known[c] = sum(1 << int(d) for d in mask)
        return c

    s.known = [0] * NCARDS
    s.board = [()] * NCELLS
    for name, tokens in (board or {}).items():
        stack = []
        for i, token in enumerate(tokens):
            if token.endswith("*"):
                if i != len(tokens) - 1:
                    raise ValueError(f"{name}: only the top card can lie face up")
                token = token[:-1]
                face_up.append(name)
            stack.append(take(token))
        if len(stack) > 3:
            raise ValueError(f"{name}: at most 3 cards a square")
        s.board[SQ_INDEX[name]] = tuple(stack)
    s.hands = [() for _ in range(seats)]
    for i, tokens in (hands or {}).items():
        s.hands[i] = tuple(sorted(take(t) for t in tokens))
    s.matched = tuple(take(t) for t in matched or [])
    explicit_buy = [take(t) for t in buy] if buy is not None else []
    rest = [c for c in range(NCARDS) if c not in used]
    if rest_to is not None:
        s.hands[rest_to] = tuple(sorted((*s.hands[rest_to], *rest)))
        s.buy = tuple(explicit_buy)
    else:
        s.buy = tuple(rest + explicit_buy)
    for i, h in enumerate(s.hands):
        for c in h:
            s.known[c] = 1 << i
    for c, mask in known.items():
        s.known[c] = mask
    for c in s.matched:
        s.known[c] = s.all_seats
    for name, mask in (knows or {}).items():
        s.known[s.board[SQ_INDEX[name]][-1]] = mask
    s.up = 0
    for name in face_up:
        s.up |= 1 << SQ_INDEX[name]
        s.known[s.board[SQ_INDEX[name]][-1]] = s.all_seats
    s.phase = PHASE_NAMES.index(phase)
    s.ap = s.ap_earned = ap
    if rolls is not None:
        s.rolls = rolls
    else:
        s.rolls = (ap,) if phase != "roll" and ap else ()
    s.to_act = to_act
    s.turned = turned
    s.pending = SQ_INDEX[spied] if spied is not None else -1
    if spied is not None and s.pending >= 0:
        s.known[s.board[s.pending][-1]] |= 1 << to_act
    if points is not None:
        s.points = tuple(points)
    s.round = round
    s._legal = None
    s._legal_set = None
    s._gcache = None
    s._det = None
    s._mv = None
    s._occ = None
    s.check()
    return s


def parse_position(game: MetscriGame, text: str, **option_values: Any) -> MetscriState:
    """A position from its text form (see the module docstring)."""
    board: dict[str, list[str]] = {}
    hands: dict[int, list[str]] = {}
    kw: dict[str, Any] = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or re.fullmatch(r"(c[0-6]\s*)+", line):
            continue
        m = _ROW_RE.match(line)
        if m and ":" not in line:
            r = int(m.group(1))
            cells = m.group(2).split()
            if len(cells) != SIZE:
                raise ValueError(f"row r{r} has {len(cells)} cells, not {SIZE}: {raw!r}")
            for c, cell in enumerate(cells):
                name = f"r{r}c{c}"
                if cell in ("X", "x"):
                    if name in SQ_INDEX:
                        raise ValueError(f"{name} is a square, not a corner")
                    continue
                if cell == ".":
                    continue
                if name not in SQ_INDEX:
                    raise ValueError(f"{name} is a corner: it holds no cards")
                board[name] = cell.split("/")
            continue
        # several "key: value" pairs may share a line, separated by two or more spaces
        for part in re.split(r"\s{2,}", line):
            key, sep, value = part.partition(":")
            if not sep:
                raise ValueError(f"not a row or a key: {part!r}")
            key, value = key.strip().lower(), value.strip()
            words = value.split()
            if key.startswith("hand "):
                hands[int(key[5:])] = [] if value == "-" else words
            elif key == "seats":
                kw["seats"] = int(value)
            elif key in ("to act", "to_act"):
                kw["to_act"] = int(value)
            elif key == "phase":
                kw["phase"] = value
            elif key in ("ap", "turned", "round"):
                kw[key] = int(value)
            elif key == "rolls":
                kw["rolls"] = tuple(int(w) for w in words)
            elif key == "points":
                kw["points"] = tuple(int(w) for w in words)
            elif key == "spied":
                kw["spied"] = value
            elif key in ("matched", "buy"):
                kw[key] = [] if value == "-" else words
            elif key == "rest":
                kw["rest_to"] = None if value == "buy" else int(value.removeprefix("hand").strip())
            else:
                raise ValueError(f"unknown key {key!r}")
    kw.setdefault("phase", "roll")
    return build(game, board=board, hands=hands, **kw, **option_values)
