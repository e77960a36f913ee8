"""Seven-segment geometry of 88 (Digital Dramatik), precomputed at import.

Section numbers (§2.1 …) are those of docs/rules/88.md. Segments (§2.1) are bits 0..6 for
``a b c d e f g``. A *placement* (§2.3) is one of 15 ways to lay a piece in one digit
position: the 7 straight pieces (raka pjäser) on a single segment (indices 0..6) and the
8 L pieces (L-formade pjäser) on a right-angled corner pair (indices 7..14, in the order
``af ab fg eg bg cg de cd``).

A digit's *tiling* is a 15-bit mask of placements; a *panel* (displaypanel) is one int,
``tens | units << 15``: the set of its placements over the two positions, as in the rules.
The tables below (tilings per digit, every valid
panel, panels grouped by piece counts and number, sub/super tilings) are built once per
glyph set (standard, and the ``alt_glyphs`` variant of B11) at import; per-panel move
transitions are computed on first use and cached (:func:`Geometry.moves`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

SEGMENTS = "abcdefg"
SEG_BIT = {s: 1 << i for i, s in enumerate(SEGMENTS)}

L_PAIRS: tuple[str, ...] = ("af", "ab", "fg", "eg", "bg", "cg", "de", "cd")
"""The 8 corner pairs an L piece can cover (§2.3), as sorted letter pairs."""
L_CORNERS: dict[str, str] = {
    "af": "TL ┌",
    "ab": "TR ┐",
    "fg": "ML └",
    "eg": "ML ┌",
    "bg": "MR ┘",
    "cg": "MR ┐",
    "de": "BL └",
    "cd": "BR ┘",
}

PLACEMENT_NAMES: tuple[str, ...] = (*SEGMENTS, *L_PAIRS)
"""Placement index → name: ``a``..``g`` (straights), then the L pairs."""
PLACEMENT_SEGS: tuple[int, ...] = tuple(sum(SEG_BIT[c] for c in name) for name in PLACEMENT_NAMES)
"""Placement index → 7-bit segment mask it covers."""
PLACEMENT_INDEX = {n: i for i, n in enumerate(PLACEMENT_NAMES)}
N_PLACEMENTS = 15
STRAIGHT_MASK = (1 << 7) - 1  # placement bits 0..6
L_MASK = ((1 << 15) - 1) ^ STRAIGHT_MASK  # placement bits 7..14
DIGIT_BITS = 15
DIGIT_FULL = (1 << 15) - 1

STOCK_L = 4
"""L pieces per player (§1)."""
STOCK_S = 6
"""Straight pieces per player (§1)."""

OPTIONS: tuple[str, ...] = ("stay", "rearrange", "remove", "add")
"""The four options: Stay (Stå kvar), Rearrange (Arrangera om), Remove/Take away (Ta bort),
Add (Lägga till)."""


def segs(text: str) -> int:
    return sum(SEG_BIT[c] for c in text)


STANDARD_GLYPHS: dict[int, tuple[int, ...]] = {
    0: (segs("abcdef"),),
    1: (segs("bc"),),
    2: (segs("abdeg"),),
    3: (segs("abcdg"),),
    4: (segs("bcfg"),),
    5: (segs("acdfg"),),
    6: (segs("acdefg"),),
    7: (segs("abc"),),
    8: (segs("abcdefg"),),
    9: (segs("abcdfg"),),
}
"""Digit → accepted segment sets (§2.2: 6 with the top bar, 9 with the bottom bar, 7 = abc)."""

ALT_GLYPHS: dict[int, tuple[int, ...]] = {
    **STANDARD_GLYPHS,
    6: (segs("acdefg"), segs("cdefg")),
    7: (segs("abc"), segs("abcf")),
    9: (segs("abcdfg"), segs("abcfg")),
}
"""The ``alt_glyphs`` variant (B11): 6 without a, 9 without d and 7 with f are also accepted."""


def popcount(x: int) -> int:
    return x.bit_count()


def counts(mask: int) -> tuple[int, int]:
    """(L pieces, straight pieces) of a digit tiling or a whole panel."""
    lo = mask & DIGIT_FULL
    hi = mask >> DIGIT_BITS
    n_l = (lo & L_MASK).bit_count() + (hi & L_MASK).bit_count()
    n_s = (lo & STRAIGHT_MASK).bit_count() + (hi & STRAIGHT_MASK).bit_count()
    return n_l, n_s


def tiling_segments(mask: int) -> int:
    """The 7-bit segment union of a digit tiling (no overlap check)."""
    out = 0
    i = 0
    while mask:
        if mask & 1:
            out |= PLACEMENT_SEGS[i]
        mask >>= 1
        i += 1
    return out


_ITEMS: dict[int, tuple[str, ...]] = {}


def tiling_items(mask: int) -> tuple[str, ...]:
    """Placement names of a digit tiling, in canonical (sorted) order."""
    got = _ITEMS.get(mask)
    if got is None:
        got = _ITEMS[mask] = tuple(sorted(PLACEMENT_NAMES[i] for i in range(N_PLACEMENTS) if mask >> i & 1))
    return got


_TEXT: dict[int, str] = {}


def tiling_text(mask: int) -> str:
    """``"ab c"``: the rules' notation (a 2-letter item is an L, a 1-letter item a straight)."""
    got = _TEXT.get(mask)
    if got is None:
        got = _TEXT[mask] = " ".join(tiling_items(mask))
    return got


def parse_tiling(text: str) -> int:
    """Inverse of :func:`tiling_text` (items separated by spaces; L letters in any order).

    Raises ``ValueError`` for an unknown item or a placement named twice (no validity check).
    """
    mask = 0
    for item in text.split():
        key = "".join(sorted(item.lower()))
        if key not in PLACEMENT_INDEX:
            raise ValueError(f"{item!r} is not a piece placement (straight a–g or L {', '.join(L_PAIRS)})")
        bit = 1 << PLACEMENT_INDEX[key]
        if mask & bit:
            raise ValueError(f"{item!r} is placed twice")
        mask |= bit
    return mask


def panel_of(tens: int, units: int) -> int:
    return tens | units << DIGIT_BITS


def tens_of(panel: int) -> int:
    return panel & DIGIT_FULL


def units_of(panel: int) -> int:
    return panel >> DIGIT_BITS


_PANEL_TEXTS: dict[int, str] = {}


def panel_text(panel: int) -> str:
    """``"fg b c|ab c"`` (tens tiling | units tiling)."""
    got = _PANEL_TEXTS.get(panel)
    if got is None:
        got = f"{tiling_text(tens_of(panel))}|{tiling_text(units_of(panel))}"
        if len(_PANEL_TEXTS) < 50_000:  # every valid panel (6,473 standard) fits
            _PANEL_TEXTS[panel] = got
    return got


def parse_panel(text: str) -> int:
    """Inverse of :func:`panel_text`; accepts ``[fg b c | ab c]`` too (no validity check)."""
    t = text.strip().strip("[]")
    if t.count("|") != 1:
        raise ValueError(f"a panel is 'tens|units', not {text!r}")
    a, b = t.split("|")
    return panel_of(parse_tiling(a), parse_tiling(b))


def distance(x: int, t: int) -> int:
    """R13: circular distance via 00 (mod 100), in [0, 50]."""
    d = abs(x - t) % 100
    return min(d, 100 - d)


DIST: tuple[tuple[int, ...], ...] = tuple(tuple(distance(n, t) for t in range(100)) for n in range(100))
"""``DIST[n][t]`` is ``distance(n, t)`` (R13), looked up."""


def _tilings_of(glyph: int) -> Iterator[int]:
    """Every exact cover of the segment set ``glyph`` by the 15 placements."""

    def rec(remaining: int, mask: int) -> Iterator[int]:
        if not remaining:
            yield mask
            return
        low = remaining & -remaining
        for i, s in enumerate(PLACEMENT_SEGS):
            if s & low and s & remaining == s:
                yield from rec(remaining & ~s, mask | 1 << i)

    yield from rec(glyph, 0)


@dataclass(eq=False)
class Geometry:
    """Every table of one glyph set; see the module docstring."""

    glyphs: dict[int, tuple[int, ...]]
    digit_of_glyph: dict[int, int] = field(init=False)
    tilings: dict[int, tuple[int, ...]] = field(init=False)
    """digit → its tilings (masks), in a stable order."""
    tiling_info: dict[int, tuple[int, int, int]] = field(init=False)
    """tiling mask → (digit, L, S)."""
    panels: frozenset[int] = field(init=False)
    """Every valid panel (§2.4)."""
    panel_list: tuple[int, ...] = field(init=False)
    """The valid panels, sorted (a stable order for random choices)."""
    panel_number: dict[int, int] = field(init=False)
    by_counts: dict[tuple[int, int], dict[int, tuple[int, ...]]] = field(init=False)
    """(L, S) → number → panels, for Rearrange."""
    by_number: dict[int, tuple[int, ...]] = field(init=False)
    """number → every valid panel showing it (setup)."""
    supersets: dict[int, tuple[int, ...]] = field(init=False)
    """tiling → tilings containing it (itself included), for Add."""
    subsets: dict[int, tuple[int, ...]] = field(init=False)
    """tiling → tilings it contains (itself included), for Remove."""
    _moves: dict[int, dict[tuple[str, int], tuple[int, ...]]] = field(init=False)

    def __post_init__(self) -> None:
        self.digit_of_glyph = {g: d for d, gs in self.glyphs.items() for g in gs}
        self.tilings = {}
        self.tiling_info = {}
        for d in range(10):
            found: list[int] = []
            for g in self.glyphs[d]:
                found.extend(_tilings_of(g))
            found.sort(key=lambda m: (counts(m), tiling_text(m)))
            self.tilings[d] = tuple(found)
            for m in found:
                n_l, n_s = counts(m)
                self.tiling_info[m] = (d, n_l, n_s)
        all_t = list(self.tiling_info)
        self.supersets = {t: tuple(u for u in all_t if u & t == t) for t in all_t}
        self.subsets = {t: tuple(u for u in all_t if u & t == u) for t in all_t}
        panels: list[int] = []
        self.panel_number = {}
        by_counts: dict[tuple[int, int], dict[int, list[int]]] = {}
        by_number: dict[int, list[int]] = {}
        for t, (dt, lt, st) in self.tiling_info.items():
            for u, (du, lu, su) in self.tiling_info.items():
                if lt + lu <= STOCK_L and st + su <= STOCK_S:
                    p = panel_of(t, u)
                    n = 10 * dt + du
                    panels.append(p)
                    self.panel_number[p] = n
                    by_counts.setdefault((lt + lu, st + su), {}).setdefault(n, []).append(p)
                    by_number.setdefault(n, []).append(p)
        self.panels = frozenset(panels)
        self.panel_list = tuple(sorted(panels))
        self.by_counts = {
            k: {n: tuple(sorted(ps)) for n, ps in sorted(v.items())} for k, v in sorted(by_counts.items())
        }
        self.by_number = {n: tuple(sorted(ps)) for n, ps in sorted(by_number.items())}
        self._moves = {}

    # ------------------------------------------------------------------ queries

    def is_valid(self, panel: int) -> bool:
        """§2.4: no overlap, both positions exact glyphs, at most 4 L and 6 straights."""
        return panel in self.panel_number

    def number(self, panel: int) -> int:
        return self.panel_number[panel]

    def moves(self, panel: int) -> dict[tuple[str, int], tuple[int, ...]]:
        """(option, resulting number) → the resulting panels, for every legal move (section 5).

        Stay is ``("stay", n)`` → ``(panel,)``. Cached per panel.
        """
        got = self._moves.get(panel)
        if got is not None:
            return got
        if panel not in self.panel_number:
            raise ValueError(f"not a valid panel: {panel_text(panel)}")
        own = self.panel_number[panel]
        res: dict[tuple[str, int], tuple[int, ...]] = {("stay", own): (panel,)}
        t, u = tens_of(panel), units_of(panel)
        n_l, n_s = counts(panel)
        for n, ps in self.by_counts[(n_l, n_s)].items():
            if n != own:
                res[("rearrange", n)] = ps  # shared with by_counts: no copy
            elif len(ps) > 1:
                res[("rearrange", n)] = tuple(p for p in ps if p != panel)
        # Then Take away and Add, each by number (the order of OPTIONS).
        removed: dict[int, list[int]] = {}
        added: dict[int, list[int]] = {}
        info = self.tiling_info
        for t2 in self.subsets[t]:
            dt = 10 * info[t2][0]
            for u2 in self.subsets[u]:
                if t2 == t and u2 == u:
                    continue
                removed.setdefault(dt + info[u2][0], []).append(t2 | u2 << DIGIT_BITS)
        for t2 in self.supersets[t]:
            dt, lt, st = info[t2]
            dt *= 10
            for u2 in self.supersets[u]:
                if t2 == t and u2 == u:
                    continue
                du, lu, su = info[u2]
                if lt + lu <= STOCK_L and st + su <= STOCK_S:
                    added.setdefault(dt + du, []).append(t2 | u2 << DIGIT_BITS)
        for n in sorted(removed):
            res[("remove", n)] = tuple(sorted(removed[n]))
        for n in sorted(added):
            res[("add", n)] = tuple(sorted(added[n]))
        self._moves[panel] = res
        return res

    def reach(self, panel: int) -> frozenset[int]:
        """Every number reachable from ``panel`` by some option (Stay included)."""
        return frozenset(n for _, n in self.moves(panel))


STANDARD = Geometry(STANDARD_GLYPHS)
ALT = Geometry(ALT_GLYPHS)


def geometry(alt_glyphs: bool = False) -> Geometry:
    return ALT if alt_glyphs else STANDARD


def reachable_panels(panel: int | str, option: str, alt_glyphs: bool = False) -> set[int]:
    """Every panel reachable from ``panel`` by ``option`` (stay/rearrange/remove/add; the
    Swedish names and "take away" are accepted too). Empty when the option has no legal result."""
    g = geometry(alt_glyphs)
    p = parse_panel(panel) if isinstance(panel, str) else panel
    o = normalize_option(option)
    return {q for (opt, _), qs in g.moves(p).items() if opt == o for q in qs}


def reachable(panel: int | str, option: str, alt_glyphs: bool = False) -> set[int]:
    """The numbers (0–99) ``panel`` can show after ``option``: the public query the web
    client and the bots use. ``panel`` is a panel int or its text (``"fg b c|ab c"``)."""
    g = geometry(alt_glyphs)
    p = parse_panel(panel) if isinstance(panel, str) else panel
    o = normalize_option(option)
    return {n for (opt, n) in g.moves(p) if opt == o}


_OPTION_ALIASES = {
    "stay": "stay",
    "stå kvar": "stay",
    "sta kvar": "stay",
    "rearrange": "rearrange",
    "arrangera om": "rearrange",
    "remove": "remove",
    "take away": "remove",
    "ta bort": "remove",
    "add": "add",
    "lägga till": "add",
    "lagga till": "add",
}


def normalize_option(option: str) -> str:
    key = option.strip().lower()
    if key not in _OPTION_ALIASES:
        raise ValueError(f"unknown option {option!r}: stay, rearrange, remove or add")
    return _OPTION_ALIASES[key]
