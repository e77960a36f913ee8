"""Kasino rules engine (the rules: ``docs/rules/kasino.md``).

A turn is ONE decision: the player to act plays one card from his hand with one of the
actions of rule 5 (see ``actions.py``): trail, capture (match and combine at once), ♠5
clear, build, raise (bygger videre) or extend (bygger mere). Dealing, the last trick
(sidsten), scoring and new rounds happen automatically inside ``play``.

Legal-move generation (rule 6.2's set partition, done fast):

* every loose table card has a value bitmask (bit v = may be worth v); the reachable sums of
  a subset of cards are shifts and ORs of these masks, enumerated once per ``legal()`` with
  pruning at the highest value any hand card can take;
* the groups worth v are the subsets whose sum mask has bit v (plus builds worth v);
  the capture sets with value v are all unions of pairwise disjoint groups, built as a
  dictionary mask → one partition (the partition is only kept for the text);
* exactly ONE action per distinct effect: a capture is (card, set taken), a build is
  (card, value, cards used, simple/multiple), an extension is (card, build, cards used);
* "samme bunke" (D20, D21) only filters: no new pile of a value already built (a mask of the
  built values), and a build's gathered groups must cover the loose cards worth its value;
* on a table of loose cards only (most positions) the subset sums and the one-card builds are
  read from the table kept in "lanes" of big integers instead (see :func:`_make_tab`).

``legal()`` is cached until the next ``play``; ``copy()`` (derived by ``@state``) only copies
references (hands, table, piles are tuples) and the RNG. Trail actions are one value per card,
made once, and the values held by "the other cards of the hand" (rule 8.1.2) are cached per hand.

Legal lists are usually small (mean about 5.5 in random two-seat play), but gathering
(8.2.4) and many-group captures on a crowded table legitimately give hundreds of distinct
effects (the largest seen in 1,000 random games: 666).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import add, itemgetter
from typing import Any, ClassVar, Final

from spillebord.core import (
    Event,
    GameKind,
    GameOver,
    IllegalAction,
    OptionError,
    Rng,
    Teams,
    state,
)
from spillebord.core.game import Game, State  # the defining module: mypyc needs it for bases
from spillebord.core.mypyc import mypyc_attr

from .actions import (
    BUILD_CODE,
    Build,
    Capture,
    CardAction,
    Clear,
    Extend,
    KasinoAction,
    Raise,
    Trail,
    groups_symbols,
)
from .data import (
    BUILD_VALUES_MASK,
    CARD_IDS,
    CARD_SYMBOLS,
    DECK,
    HAND_MASKS,
    HAND_VALUES,
    PAIR_SUMS,
    SPADE5,
    TABLE_LO_HI,
    TABLE_MASKS,
)
from .notation import parse_action
from .options import KasinoOptions
from .scoring import Tally, score_round, tally
from .view import view as build_view

TITLE = "Kasino"

# Module-level names used on the hot paths, declared Final: compiled with mypyc they are C
# statics instead of lookups in the module's dictionary (pure Python: the same globals).
_CARD_IDS: Final = CARD_IDS
_CARD_SYMBOLS: Final = CARD_SYMBOLS
_ID_OF: Final = CARD_IDS.__getitem__  # for map(): a list of cards' ids or symbols without a
_SYMBOL_OF: Final = CARD_SYMBOLS.__getitem__  # comprehension's frame (deals, round ends)
_SPADE5: Final = SPADE5
_BUILD_CODE: Final = BUILD_CODE
_T_TRAIL: Final = Trail
_T_CAPTURE: Final = Capture
_T_CLEAR: Final = Clear
_T_BUILD: Final = Build
_T_RAISE: Final = Raise


# compiled (tools/compile.py): a plain dataclass, not a native class, which would not unpickle
# (mypyc's __setstate__ sets the fields through the frozen __setattr__)
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class BuildPile:
    """A build (bygning) on the table: cards in groups each worth ``value``; owned by the
    last player who created, raised or extended it (rule 8.6)."""

    value: int
    multiple: bool
    groups: tuple[tuple[int, ...], ...]
    owner: int

    @property
    def base(self) -> int:
        """The build's id card: the table card it was first built on."""
        return self.groups[0][0]

    @property
    def id(self) -> str:
        return "B" + _CARD_IDS[self.groups[0][0]]

    def cards(self) -> tuple[int, ...]:
        return tuple(c for g in self.groups for c in g)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_EMPTY_UNIONS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {0: ()}
TRAILS: Final[tuple[Trail, ...]] = tuple(Trail(c) for c in DECK)
"""One Trail action per card, made once (actions are immutable values; saves allocations)."""
CLEAR: Final = Clear(_SPADE5)
_TRAIL_TEXTS: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(f"seat {p} trails {_CARD_SYMBOLS[c]}" for c in DECK) for p in range(4)
)
"""The trail event's text per seat and card, made once (trails are over half the plays)."""

_new: Final = object.__new__  # the slots of a frozen action, set once before anyone sees it
_set_card: Final[Callable[[Any, Any], None]] = vars(CardAction)["card"].__set__
_set_groups: Final[Callable[[Any, Any], None]] = vars(Capture)["groups"].__set__
_set_value: Final[Callable[[Any, Any], None]] = vars(Build)["value"].__set__
_set_base: Final[Callable[[Any, Any], None]] = vars(Build)["base"].__set__
_set_gather: Final[Callable[[Any, Any], None]] = vars(Build)["gather"].__set__
_set_same: Final[Callable[[Any, Any], None]] = vars(Build)["same"].__set__


def _capture(card: int, groups: tuple[tuple[int, ...], ...]) -> Capture:
    """``Capture(card, groups)`` without the frozen dataclass's ``__init__`` (its slots set
    directly: the same value, made in about half the time; legal lists make many)."""
    a = _new(_T_CAPTURE)
    _set_card(a, card)
    _set_groups(a, groups)
    return a


def _build(
    card: int, value: int, base: tuple[int, ...], gather: tuple[tuple[int, ...], ...], same: bool
) -> Build:
    """``Build(card, value, base, gather, same)``, made as :func:`_capture`."""
    a = _new(_T_BUILD)
    _set_card(a, card)
    _set_value(a, value)
    _set_base(a, base)
    _set_gather(a, gather)
    _set_same(a, same)
    return a


_set_pvalue: Final[Callable[[Any, Any], None]] = vars(BuildPile)["value"].__set__
_set_pmultiple: Final[Callable[[Any, Any], None]] = vars(BuildPile)["multiple"].__set__
_set_pgroups: Final[Callable[[Any, Any], None]] = vars(BuildPile)["groups"].__set__
_set_powner: Final[Callable[[Any, Any], None]] = vars(BuildPile)["owner"].__set__


def _pile(value: int, multiple: bool, groups: tuple[tuple[int, ...], ...], owner: int) -> BuildPile:
    """``BuildPile(value, multiple, groups, owner)`` without the frozen dataclass's ``__init__``
    (an interpreted function, compiled too): its fields set directly, as :func:`_capture`."""
    b = _new(BuildPile)
    _set_pvalue(b, value)
    _set_pmultiple(b, multiple)
    _set_pgroups(b, groups)
    _set_powner(b, owner)
    return b


_CardInfo = tuple[tuple[int, ...], int, int, int, int, int, int]
_HANDS: Final[dict[tuple[int, ...], tuple[int, tuple[_CardInfo, ...]]]] = {}
_CARDS: Final[dict[int, _CardInfo]] = {}
"""One hand card's part of :func:`_hand_info` by ``value mask << 17 | others`` (at most about
10,000 keys a value mode): a hand shape not seen before (some 3,700 are met over the first
few hundred random games, a new one every few decisions at first) is put together from these
parts instead of loops over the other cards."""


def _card_info(hb: int, others: int) -> _CardInfo:
    """``(values, value mask, others, same, want)`` of a hand card of value mask ``hb`` beside
    cards holding the build values ``others`` (see :func:`_hand_info`)."""
    vals = tuple(_bits(hb))
    sv = hb & others
    want = sv
    for x in vals:
        want |= others >> x
    # the first and the second value (0: none) apart, for the loose path's loop
    r = _CARDS[hb << 17 | others] = (vals, hb, others, sv, want, vals[0], vals[1] if len(vals) > 1 else 0)
    return r


def _hand_info(ms: tuple[int, ...]) -> tuple[int, tuple[_CardInfo, ...]]:
    """For a hand given by its cards' value masks ``ms``: the sum limit (every value a hand card
    can take, as a mask of the values up to the highest), and per card ``(values, value mask,
    others, same, want, first value, second value or 0)``: ``others`` = the build values
    held by the OTHER cards (8.1.2),
    ``same`` = the values it shares with them ("mere b", 8.3), ``want`` = the values a loose
    card must be able to take to make a one-card build with it. Cached per hand shape (few:
    the cache answers nearly every call); a new shape is put together from the cards' parts
    (:data:`_CARDS`), the other cards' values as ORs of the masks before and after each."""
    bv = BUILD_VALUES_MASK
    before = []
    all_vals = 0
    for m_ in ms:
        before.append(all_vals)
        all_vals |= m_
    info: list[_CardInfo] = []
    after = 0
    for i in range(len(ms) - 1, -1, -1):
        hb = ms[i]
        others = (before[i] | after) & bv
        info.append(_CARDS.get(hb << 17 | others) or _card_info(hb, others))
        after |= hb
    info.reverse()
    r = ((2 << (all_vals.bit_length() - 1)) - 1, tuple(info))
    if len(_HANDS) > 100_000:
        _HANDS.clear()
    _HANDS[ms] = r
    return r


def _required(v: int, loose: tuple[int, ...], tm: tuple[int, ...]) -> int:
    """D21: the loose cards worth ``v`` by themselves (a mask of positions), which a build of
    ``v`` must take in (only asked on the build paths, so not cached)."""
    r = 0
    for i, c in enumerate(loose):
        if tm[c] >> v & 1:
            r |= 1 << i
    return r


def rules_of(
    o: KasinoOptions,
) -> tuple[bool, bool, bool, bool, bool, bool, tuple[tuple[int, ...], ...]]:
    """(build_in_sums, one-card bases, compulsory gathering, same pile, classic obligations,
    the text's capture duty, the pair sums of the value mode): read once per game, not per
    ``legal()``."""
    return (
        o.build_in_sums,
        o.build_base == "one_card",
        o.gathering == "compulsory",
        o.more_builds == "same_pile",
        o.build_obligations == "classic",
        o.build_obligations == "text",
        PAIR_SUMS[o.value_mode],
    )


def _draw_front(cards: list[int], k: int, rng: Rng) -> None:
    """Move ``k`` cards chosen uniformly at random from ``cards`` to ``cards[:k]`` (a partial
    Fisher-Yates) for a deal from an unordered stock. Several indices come from one 64-bit
    draw, as digits of mixed radix while their product stays below 2**24 (modulo bias below
    2**-40, as ``Rng.randrange``).

    The same law as :meth:`Rng.shuffle_front`, which ``determinize`` uses (at most 4 cards per
    hand: one draw, the very same numbers as this). A deal takes 8-16 cards, several draws,
    packed differently from ``shuffle_front``'s one mixed-radix number: kept so that the deals
    in determinized states (search bots' rollouts) stay the same numbers as before."""
    n = len(cards)
    word = room = 0
    for i in range(k):
        m = n - i
        if room * m >= 1 << 24 or not room:
            word = rng.next64()
            room = 1
        j = i + word % m
        word //= m
        room *= m
        cards[i], cards[j] = cards[j], cards[i]


@state
class KasinoState(State[KasinoAction]):
    """A Kasino position: hands, stock, table (loose cards and builds), trick piles, totals.

    Every field is a value that play replaces rather than changes (tuples, ints, frozen
    builds), so a copy shares them all. Fields with a leading underscore are caches (the legal
    list, the value tables of the options) and are left out of equality.
    """

    o: KasinoOptions
    dealer: int
    round_no: int
    hand_no: int
    leader: int
    stock: tuple[int, ...]
    stock_unordered: bool
    """Only in a determinized state: the stock's order was not dealt; a deal takes its cards at
    random (the same law as a shuffled stock, without shuffling cards that may never be dealt)."""
    hands: tuple[tuple[int, ...], ...]
    loose: tuple[int, ...]
    builds: tuple[BuildPile, ...]
    piles: tuple[tuple[int, ...], ...]
    sweeps: tuple[int, ...]
    last_capturer: int | None
    built_last: int
    """Bit ``p`` set: seat ``p`` built on its last turn (rule 9.2)."""
    totals: tuple[int, ...]
    """Running totals per side (a seat, or a partnership)."""
    history: tuple[dict[str, Any], ...]
    set_aside: tuple[int, ...]
    sides: int
    side_of: tuple[int, ...]
    _legal: list[KasinoAction] | None
    _det: tuple[int, tuple[int, ...]] | None
    """The cards a seat cannot see, sorted (see :meth:`determinize`); None after a change."""
    _hv: tuple[tuple[int, ...], ...]
    _hm: tuple[int, ...]
    _tm: tuple[int, ...]
    _hl: tuple[tuple[int, int], ...]
    _rules: tuple[bool, bool, bool, bool, bool, bool, tuple[tuple[int, ...], ...]]
    """The options as the legal-move generator reads them (see :func:`rules_of`)."""
    _tab: tuple[tuple[int, ...], int, int, int]
    """The loose cards in lanes, for the tuple ``_tab[0]`` (see :func:`_make_tab`)."""

    # ------------------------------------------------------------------ basics

    @property
    def hands_per_round(self) -> int:
        return 48 // (4 * self.seats)

    @property
    def last_hand(self) -> bool:
        """The dealer has announced "sidsten": the stock is empty (3.3)."""
        return not self.stock

    def own_build(self, seat: int) -> BuildPile | None:
        for b in self.builds:
            if b.owner == seat:
                return b
        return None

    # ------------------------------------------------------------------ legal moves

    def legal(self) -> list[KasinoAction]:
        p = self.to_act
        if p is None:  # over (also when stopped at the decision bound: no cache survives that)
            return []
        cached = self._legal
        if cached is not None:
            return cached
        # _generate, inlined (one frame less on the hot path)
        if not self.builds:
            loose = self.loose
            if not loose:  # empty table: trail (♠5 cannot clear an empty table, 7.3)
                out: list[KasinoAction] = [TRAILS[h] for h in self.hands[p]]
            elif self._rules[1]:
                out = _generate_loose(self, p, self.hands[p], loose)
            else:
                out = _generate_general(self, p)
        else:
            out = _generate_general(self, p)
        self._legal = out
        return out

    def _generate(self, p: int) -> list[KasinoAction]:
        return _generate(self, p)

    # ------------------------------------------------------------------ playing

    def apply(self, action: KasinoAction) -> list[Event]:
        p = self.to_act
        if p is None:
            raise GameOver(f"{TITLE}: the game is over")
        legal = self._legal  # usually cached: the player has just read legal()
        if legal is None:
            legal = self.legal()
        for a in legal:
            if a is action:
                break
        else:
            if action not in legal:
                raise IllegalAction(self._explain(action))
        # legal: play it (one function, no second call: this is the hot path)
        self._legal = None
        self._det = None
        h = action.card
        hand = self.hands[p]
        i = hand.index(h)
        new_hand = hand[:i] + hand[i + 1 :]
        hands = list(self.hands)
        hands[p] = new_hand
        self.hands = tuple(hands)
        events: list[Event]
        built = False
        kind = type(action)
        if kind is _T_TRAIL:
            loose = self.loose
            nl = (*loose, h)
            tab = self._tab
            m = len(loose)
            if tab[0] is loose and m < _NL:  # extend the lanes by the trailed card
                lanes = tab[1]
                lo, hi = self._hl[h]
                keep = _KEEP_F[m]
                if hi:
                    lanes |= ((lanes & keep[lo]) << lo | (lanes & keep[hi]) << hi) << (_W << m)
                else:
                    lanes |= (lanes & keep[lo]) << (lo + (_W << m))
                x = self._tm[h]
                self._tab = (nl, lanes, tab[2] | x << (_PW * m), tab[3] | x)
            self.loose = nl
            events = [{"kind": "trail", "seat": p, "card": _CARD_IDS[h], "text": _TRAIL_TEXTS[p][h]}]
        elif kind is _T_CAPTURE or kind is _T_CLEAR:
            events = []
            taken_ids: list[str] | None = None
            if kind is _T_CLEAR:
                taken = self.loose + tuple(c for b in self.builds for c in b.cards())
                self.loose = ()
                self.builds = ()
                text = f"seat {p} clears the table with {_CARD_SYMBOLS[h]}"
            else:
                assert isinstance(action, Capture)
                groups = action.groups
                loose = self.loose
                if not self.builds:  # loose cards only: their codes are the cards (no frozenset)
                    codes_l = groups[0] if len(groups) == 1 else [c for g in groups for c in g]
                    if len(codes_l) == 1:  # one card (most captures): its text without the joins
                        t = codes_l[0]
                        i = loose.index(t)
                        taken = (t,)
                        taken_ids = [_CARD_IDS[t]]
                        self.loose = loose[:i] + loose[i + 1 :]
                        text = f"seat {p} takes {_CARD_SYMBOLS[t]} with {_CARD_SYMBOLS[h]}"
                    else:
                        taken = tuple([c for c in loose if c in codes_l])
                        self.loose = tuple([c for c in loose if c not in codes_l])
                        text = f"seat {p} takes {groups_symbols(groups)} with {_CARD_SYMBOLS[h]}"
                else:
                    codes = action.taken()
                    taken_l = [c for c in loose if c in codes]
                    taken_b = [b for b in self.builds if _BUILD_CODE + b.groups[0][0] in codes]
                    self.loose = tuple([c for c in loose if c not in codes])
                    if taken_b:
                        self.builds = tuple(
                            [b for b in self.builds if _BUILD_CODE + b.groups[0][0] not in codes]
                        )
                        taken = tuple(taken_l) + tuple(c for b in taken_b for c in b.cards())
                    else:
                        taken = tuple(taken_l)
                    text = f"seat {p} takes {groups_symbols(groups)} with {_CARD_SYMBOLS[h]}"
            if taken_ids is None:
                taken_ids = [_CARD_IDS[c] for c in taken]
            piles = list(self.piles)
            piles[p] = (*piles[p], h, *taken)
            self.piles = tuple(piles)
            self.last_capturer = p
            ev: Event = {
                "kind": "capture",
                "seat": p,
                "card": _CARD_IDS[h],
                "taken": taken_ids,
                "text": text,
            }
            if not self.loose and not self.builds:
                last_play = not self.stock and not any(self.hands)
                sweep = (kind is _T_CAPTURE or self.o.spade5_sweep) and (
                    not last_play or self.o.last_play_sweep_counts
                )
                if sweep:
                    sw = list(self.sweeps)
                    sw[p] += 1
                    self.sweeps = tuple(sw)
                    ev["sweep"] = True
                    ev["text"] += " — sweep (svupper)!"
            events.append(ev)
        elif kind is _T_BUILD:
            assert isinstance(action, Build)
            events = []
            used: tuple[int, ...] | frozenset[int] = action.cards_used() if action.gather else action.base
            self.loose = tuple([c for c in self.loose if c not in used])
            if action.same:
                groups = (action.base, (h,), *action.gather)
            else:
                groups = ((*action.base, h), *action.gather)
            self.builds = (*self.builds, _pile(action.value, action.multiple, groups, p))
            built = True
            events.append(
                {
                    "kind": "build",
                    "seat": p,
                    "card": _CARD_IDS[h],
                    "value": action.value,
                    "text": f"seat {p}: {action.label()}",
                }
            )
        elif kind is _T_RAISE:
            assert isinstance(action, Raise)
            events = []
            nb = []
            raised: BuildPile | None = None
            for b in self.builds:
                if b.groups[0][0] == action.build:
                    raised = b = BuildPile(action.value, False, ((*b.groups[0], h),), p)
                nb.append(b)
            into = None
            if self.o.more_builds == "same_pile":
                into = next((b for b in nb if b.value == action.value and b is not raised), None)
            if into is not None and raised is not None:
                # D20: the raised pile joins the pile already worth that value (bygge mere)
                merged = BuildPile(into.value, True, (*into.groups, *raised.groups), p)
                nb = [merged if b is into else b for b in nb if b is not raised]
            self.builds = tuple(nb)
            built = True
            text = f"seat {p}: {action.label()}"
            if into is not None:
                text += f", into the pile on {_CARD_SYMBOLS[into.base]} (bygger mere)"
            events.append(
                {
                    "kind": "raise",
                    "seat": p,
                    "card": _CARD_IDS[h],
                    "value": action.value,
                    "text": text,
                }
            )
        else:
            assert isinstance(action, Extend)
            events = []
            used = action.cards_used()
            self.loose = tuple([c for c in self.loose if c not in used])
            nb = []
            for b in self.builds:
                if b.groups[0][0] == action.build:
                    b = BuildPile(b.value, True, (*b.groups, (*action.with_, h), *action.gather), p)
                nb.append(b)
            self.builds = tuple(nb)
            built = True
            events.append(
                {"kind": "extend", "seat": p, "card": _CARD_IDS[h], "text": f"seat {p}: {action.label()}"}
            )
        if built:
            self.built_last |= 1 << p
        elif self.built_last:
            self.built_last &= ~(1 << p)
        # --- next player, next hand, next round
        if new_hand or any(self.hands):
            self.to_act = (p + 1) % self.seats
        elif self.stock:
            self._deal_hand(events)
        else:
            self._end_round(events)
        return events

    # ------------------------------------------------------------------ dealing and scoring

    def _start_round(self, events: list[Event]) -> None:
        """Shuffle and deal the first hand: 2 to each, 2 to the table, twice (3.1)."""
        n = self.seats
        deck = list(DECK)
        self.rng.shuffle(deck)
        # 2 to each from the dealer's left, 2 to the table, then again: seat dealer+1+k gets
        # deck[2k:2k+2] and deck[2n+2+2k:2n+4+2k]; the table deck[2n:2n+2] and deck[4n+2:4n+4]
        hands: list[tuple[int, ...]] = [()] * n
        first = self.dealer + 1
        for k in range(n):
            j = 2 * k
            hands[(first + k) % n] = tuple(sorted(deck[j : j + 2] + deck[2 * n + 2 + j : 2 * n + 4 + j]))
        table = deck[2 * n : 2 * n + 2] + deck[4 * n + 2 : 4 * n + 4]
        self.hands = tuple(hands)
        self.loose = tuple(table)
        self.builds = ()
        self.stock = tuple(deck[4 * n + 4 :])
        self.stock_unordered = False
        self.piles = ((),) * n
        self.sweeps = (0,) * n
        self.last_capturer = None
        self.built_last = 0
        self.hand_no = 1
        self.leader = (self.dealer + 1) % n
        self.to_act = self.leader
        self._legal = None
        events.append(
            {
                "kind": "deal",
                "round": self.round_no,
                "hand": 1,
                "dealer": self.dealer,
                "table": list(map(_ID_OF, table)),
                "text": f"round {self.round_no}: seat {self.dealer} deals; table "
                + " ".join(map(_SYMBOL_OF, table)),
            }
        )

    def _deal_hand(self, events: list[Event]) -> None:
        """Later hands: 4 cards each (2 + 2) from the stock, nothing to the table (3.2)."""
        n = self.seats
        stock = self.stock
        if self.stock_unordered:  # determinized: put the cards to deal at the front, at random
            rest = list(stock)
            _draw_front(rest, min(4 * n, len(rest)), self.rng)
            stock = tuple(rest)
            self.stock_unordered = False
        # 2 to each from the dealer's left, then again: seat dealer+1+k gets stock[2k:2k+2]
        # and stock[2n+2k:2n+2k+2]
        hands: list[tuple[int, ...]] = [()] * n
        first = self.dealer + 1
        for k in range(n):
            j = 2 * k
            hands[(first + k) % n] = tuple(sorted(stock[j : j + 2] + stock[2 * n + j : 2 * n + j + 2]))
        self.hands = tuple(hands)
        self.stock = stock[4 * n :]
        self.hand_no += 1
        if self.o.hand_lead == "rotate":
            self.leader = (self.leader + 1) % n
        self.to_act = self.leader
        self.built_last = 0
        events.append(
            {
                "kind": "deal",
                "round": self.round_no,
                "hand": self.hand_no,
                "last_hand": not self.stock,
                "text": f"hand {self.hand_no} dealt" + (' — "sidsten"!' if not self.stock else ""),
            }
        )

    def round_tallies(self) -> list[Tally]:
        """What each side has taken so far this round (partners pooled, 11.5)."""
        cards: list[list[int]] = [[] for _ in range(self.sides)]
        sweeps = [0] * self.sides
        for s in range(self.seats):
            cards[self.side_of[s]] += self.piles[s]
            sweeps[self.side_of[s]] += self.sweeps[s]
        return [tally(cards[i], sweeps[i]) for i in range(self.sides)]  # compiled: direct calls

    def _end_round(self, events: list[Event]) -> None:
        # Last trick (sidsten, 10.2): the rest of the table to the last capturer.
        rest = self.loose + tuple(c for b in self.builds for c in b.cards())
        self.loose = ()
        self.builds = ()
        lc = self.last_capturer
        if lc is not None:
            piles = list(self.piles)
            piles[lc] = piles[lc] + rest
            self.piles = tuple(piles)
            events.append(
                {
                    "kind": "sidsten",
                    "seat": lc,
                    "taken": list(map(_ID_OF, rest)),
                    "text": f"seat {lc} gets the last trick (sidsten)"
                    + (": " + " ".join(map(_SYMBOL_OF, rest)) if rest else ""),
                }
            )
        else:
            self.set_aside = self.set_aside + rest
        sidsten = self.side_of[lc] if lc is not None else None
        points = score_round(self.round_tallies(), sidsten, self.o.sweep_cancellation)
        got = [d["total"] for d in points]
        self.totals = tuple(map(add, self.totals, got))  # one total per side in both
        self.history = (*self.history, {"round": self.round_no, "points": points})
        events.append(
            {
                "kind": "round_score",
                "round": self.round_no,
                "points": got,
                "totals": list(self.totals),
                "text": f"round {self.round_no} scored: "
                + ", ".join(map(str, got))
                + "; totals "
                + ", ".join(map(str, self.totals)),
            }
        )
        self.built_last = 0
        if self._game_over():
            self.to_act = None
            self._legal = []
            events.append({"kind": "game_over", "totals": list(self.totals), "text": "game over"})
            return
        self.round_no += 1
        self.dealer = (self.dealer + 1) % self.seats
        # New round: all 52 cards come back, set-aside leftovers included.
        self.set_aside = ()
        self._start_round(events)

    def _game_over(self) -> bool:
        if self.o.match_format == "one_round_per_player":
            return self.round_no >= self.seats
        top = max(self.totals)
        return top >= self.o.target and self.totals.count(top) == 1

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def scores(self) -> tuple[float, ...]:
        """The match points per seat: the running totals of rule 11.3 (partners both show their
        team's total). Defined at any time.

        They decide the game (11.3): with ``first_to_target`` the game only ends when one side
        alone has the highest total, at or above the target, so the best score is the winner;
        with ``one_round_per_player`` the best total wins and tied sides share. That is the
        base's ranking by scores, so :meth:`final_outcome` is not overridden.
        """
        totals, side_of = self.totals, self.side_of
        return tuple([float(totals[side_of[s]]) for s in range(self.seats)])

    def teams(self) -> Teams:
        return self.game.teams(self.seats, self.o)

    # ------------------------------------------------------------------ hidden information

    def determinize(self, seat: int, rng: Rng) -> KasinoState:
        """Re-deal the other hands and the stock from the cards ``seat`` cannot see.

        A build's owner keeps at least one card able to take it (rule 9.3 makes that
        knowable), so an owner first gets one of the unseen cards able to take it, at random.
        The other hands are then a uniform random choice of the rest; the stock is what is
        left, unordered (``stock_unordered``): a deal takes its cards at random, the same law
        as a shuffled stock.
        """
        s = self.copy()
        s._det = None
        hands_now = self.hands
        # The unseen cards in a canonical (sorted) order: the sample must depend only on what
        # the seat sees and on rng, not on where the cards really are. Kept until the next
        # play: a search determinizes its root many times.
        det = self._det
        if det is None or det[0] != seat:
            unseen = list(self.stock)
            for i, h in enumerate(hands_now):
                if i != seat:
                    unseen += h
            unseen.sort()
            det = self._det = (seat, tuple(unseen))
        pool = list(det[1])
        randrange = rng.randrange
        new_hands = list(hands_now)
        fixed: dict[int, int] = {}  # owner -> the able card it keeps
        if self.builds:
            hm = self._hm
            for _attempt in range(20):
                fixed.clear()
                taken: set[int] = set()
                ok = True
                for b in self.builds:
                    o = b.owner
                    if o == seat or o in fixed:
                        continue
                    able = [c for c in pool if hm[c] >> b.value & 1 and c not in taken]
                    if not able:
                        ok = False
                        break
                    c = able[randrange(len(able))]
                    taken.add(c)
                    fixed[o] = c
                if ok:
                    break
            else:  # pragma: no cover - practically unreachable; keep the true deal
                s.rng = rng.spawn()
                return s
            if fixed:
                pool = [c for c in pool if c not in taken]
        shuffle_front = rng.shuffle_front
        for i, h in enumerate(hands_now):
            if i == seat:
                continue
            c0 = fixed.get(i)
            take = len(h) - (c0 is not None)
            shuffle_front(pool, take)  # at most 4 cards: one 64-bit draw
            got = pool[:take]
            del pool[:take]
            if c0 is not None:
                got.append(c0)
            got.sort()
            new_hands[i] = tuple(got)
        s.hands = tuple(new_hands)
        s.stock = tuple(pool)
        s.stock_unordered = True
        s.rng = rng.spawn()
        # The seat to act keeps its hand and sees the whole table, and its legal moves depend
        # on nothing else: its samples share this state's list, made once (a search samples
        # its root at every iteration and asks for the root's list at once).
        if seat == self.to_act:
            legal = self._legal
            s._legal = legal if legal is not None else self.legal()
        else:
            s._legal = None
        return s

    # ------------------------------------------------------------------ invariants

    def check(self) -> None:
        allc = list(self.stock) + list(self.loose) + list(self.set_aside)
        for h in self.hands:
            allc += h
        for b in self.builds:
            allc += b.cards()
        for pile in self.piles:
            allc += pile
        assert len(allc) == 52 and set(allc) == set(DECK), "I1: the 52 cards are not each in one place"
        owners = [b.owner for b in self.builds]
        if self.o.more_builds == "same_pile":
            values = [b.value for b in self.builds]
            assert len(values) == len(set(values)), "I12: two piles of one value (D20 same_pile)"
        assert len(owners) == len(set(owners)), "I3: a player owns two builds"
        tm = self._tm
        hm = self._hm
        for b in self.builds:
            assert 2 <= b.value <= 16, "I2: build value out of range"
            assert b.multiple or len(b.groups) == 1, "I2: a simple build with several groups"
            for g in b.groups:
                assert g, "I2: empty group"
                sums = 1
                for c in g:
                    vm = tm[c] | hm[c]
                    ns = 0
                    while vm:
                        low = vm & -vm
                        ns |= sums << (low.bit_length() - 1)
                        vm ^= low
                    sums = ns
                assert sums >> b.value & 1, f"I2: a group of {b.id} is not worth {b.value}"
            assert any(hm[c] >> b.value & 1 for c in self.hands[b.owner]), (
                "I3: a build owner holds no card able to take it"
            )
        if self.to_act is None:
            assert not self.builds and not self.loose, "I4: table not cleared at the end"
        else:
            assert self.hands[self.to_act], "the player to act has no cards"
        assert all(sum(1 for _ in h) <= 4 for h in self.hands)

    # ------------------------------------------------------------------ explaining refusals

    def _explain(self, action: Any) -> str:
        p = self.to_act
        assert p is not None
        if not isinstance(action, Trail | Capture | Clear | Build | Raise | Extend):
            return f"{TITLE}: {action!r} is not a Kasino action"
        h = action.card
        if h not in self.hands[p]:
            return f"{TITLE}: seat {p} does not hold {_CARD_SYMBOLS[h]}"
        legal = self.legal()
        key = action.key()
        for a in legal:
            if a.key() == key:
                return f"{TITLE}: {action} is not the canonical form; play {a}"
        own = self.own_build(p)
        hm = self._hm
        if own is not None:
            able = [c for c in self.hands[p] if hm[c] >> own.value & 1]
            if able == [h] and not isinstance(action, Clear):
                return (
                    f"{TITLE}: {_CARD_SYMBOLS[h]} is your last card able to take your build of "
                    f"{own.value}: it may only take the build (rule 9.3)"
                )
        if (
            self.built_last >> p & 1
            and self.o.build_obligations == "text"
            and not isinstance(action, Capture | Clear)
        ) and any(isinstance(a, Capture | Clear) for a in legal):
            return f"{TITLE}: you built on your last turn and must capture now (rule 9.2)"
        if isinstance(action, Trail):
            if own is not None and self.o.build_obligations == "classic":
                return f"{TITLE}: the owner of a build may not trail (classic obligations)"
        elif isinstance(action, Clear):
            if h != _SPADE5:
                return f"{TITLE}: only ♠5 clears the table"
            return f"{TITLE}: there is nothing on the table to clear"
        elif isinstance(action, Capture):
            return f"{TITLE}: {_CARD_SYMBOLS[h]} cannot capture {groups_symbols(action.groups)} (rule 6.2)"
        elif isinstance(action, Build | Raise | Extend):
            value = action.value if isinstance(action, Build | Raise) else None
            if isinstance(action, Build) and own is not None:
                return f"{TITLE}: you already own a build; take it before you build again (rule 9.1)"
            if isinstance(action, Raise | Extend):
                target = next((b for b in self.builds if b.groups[0][0] == action.build), None)
                if target is None:
                    return f"{TITLE}: there is no build on {_CARD_SYMBOLS[action.build]}"
                if own is not None and target is not own:
                    return f"{TITLE}: you own a build and may not build on another player's (rule 9.1)"
                if isinstance(action, Raise) and target.multiple:
                    return f"{TITLE}: a multiple build cannot be raised (rule 8.4.3)"
                if value is None:
                    value = target.value
            if value is not None and not 2 <= value <= 16:
                return f"{TITLE}: a build's value must lie in 2…16 (rules 1.5, 8.1.1)"
            same = next((b for b in self.builds if b.value == value), None)
            if self.o.more_builds == "same_pile" and same is not None:
                if isinstance(action, Build):
                    return (
                        f"{TITLE}: a build of {value} lies on the table: further {value}s go into "
                        f"the same pile ({same.id}: extend it, rule 8.5)"
                    )
                if isinstance(action, Raise) and own is not None and same is not own:
                    return (
                        f"{TITLE}: raising to {value} would put your build into another player's "
                        f"pile of {value} (rules 8.5, 9.1)"
                    )
            if self.o.gathering == "compulsory" and isinstance(action, Build | Extend) and value is not None:
                used = action.cards_used()
                left = [c for c in self.loose if c not in used and self._tm[c] >> value & 1]
                if left:
                    return (
                        f"{TITLE}: the loose {' '.join(_CARD_SYMBOLS[c] for c in left)} worth {value} "
                        f"must go into the build too (rule 8.2.4)"
                    )
            if value is not None and not any(hm[c] >> value & 1 for c in self.hands[p] if c != h):
                return f"{TITLE}: you must keep a card worth {value} to build {value} (rule 8.1.2)"
        return f"{TITLE}: {action} is not a legal action now"


def _items(g: int, loose: tuple[int, ...]) -> tuple[int, ...]:
    """The loose cards of the group ``g`` (a mask of table positions), in table order."""
    if not g & g - 1:
        return (loose[g.bit_length() - 1],)
    if g < _GETTER_MASKS:
        r: tuple[int, ...] = _GETTERS[g](loose)
        return r
    return tuple([loose[i] for i in _bits(g)])


_GETTER_MASKS: Final = 1 << 10
_GETTERS: Final[tuple[Callable[[tuple[int, ...]], Any], ...]] = tuple(
    itemgetter(*_bits(g)) if g & g - 1 else itemgetter(0) for g in range(_GETTER_MASKS)
)
"""Per mask of two or more of the first 10 positions: an ``itemgetter`` of those positions
(its result is the tuple :func:`_items` makes, taken in C)."""


def _loose_sums(hl: tuple[tuple[int, int], ...], loose: tuple[int, ...], lim: int) -> list[tuple[int, int]]:
    """The subset sums of the loose cards that a hand card could capture: ``(0, 1)`` (the
    empty set) first, then (mask of the loose cards' positions, bits of the sums it can make
    up to ``lim``, an ace counting 1 or 14). Cards worth more than any hand card are left out;
    the first two that count are added without a comprehension (most tables)."""
    subs: list[tuple[int, int]] = [(0, 1)]
    for i in range(len(loose)):
        lo, hi = hl[loose[i]]
        if lim >> lo == 0:  # worth more than any hand card (so is its high value): no sums
            continue
        bit = 1 << i
        n_ = len(subs)
        if n_ <= 2:  # the first or second card that counts: the card alone (worth lo <= lim) ...
            if hi:
                subs.append((bit, ((1 << lo) | (1 << hi)) & lim))
                if n_ == 2:  # ... and with the first
                    mk1, s1 = subs[1]
                    if ns1 := ((s1 << lo) | (s1 << hi)) & lim:
                        subs.append((mk1 | bit, ns1))
            else:
                subs.append((bit, (1 << lo) & lim))
                if n_ == 2 and (ns1 := (subs[1][1] << lo) & lim):
                    subs.append((subs[1][0] | bit, ns1))
        elif hi:
            subs += [(mk | bit, ns) for mk, s in subs if (ns := ((s << lo) | (s << hi)) & lim)]
        else:
            subs += [(mk | bit, ns) for mk, s in subs if (ns := (s << lo) & lim)]
    return subs


# ---------------------------------------------------------------- the loose table in lanes
#
# A table of loose cards is kept as two big integers used as rows of small bit fields
# ("lanes"), so that the subset sums and the one-card build values are a few shifts and ANDs in
# C instead of a Python loop per subset or per card (issue 20, sixth round):
#
# * ``A``, the subset sums: lane ``k`` (``_W`` bits from bit ``_W * k``) holds the sums (bit s:
#   worth s, 0..16) of the subset whose mask of table positions is ``k``; adding a card doubles
#   the lanes. The groups worth v are the lanes with bit v, in mask order (the order of the
#   general path's subset list).
# * ``T``, the cards' values: lane ``i`` (``_PW`` bits from bit ``_PW * i``) holds the value mask
#   of the card at position ``i``. A hand card worth x makes one-card builds of the values of
#   ``T << x`` held by the other cards; its "mere b" values are ``T & sv``, kept 17 bits higher
#   in the same lane, so the set bits in order are the general path's order (position, then
#   the sums, then the same values).
#
# Kept on the state as ``_tab = (loose, A, T, values of all loose cards)`` for the tuple
# ``loose`` it was made for (checked by identity: the tuple is immutable and held by ``_tab``),
# extended by a trail in ``apply`` (over half the plays), made again otherwise.

_W: Final = 17  # a lane of sums: bits 0..16
_PW: Final = 34  # a lane of one card: its values (bits 0..16), its "mere" values (17..33)
_NL: Final = 10  # lanes for tables of up to 10 loose cards (2**10 lanes); larger: general path


def _lane_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    ones = [1]  # ones[k]: bit 0 of each of 2**k lanes
    for k in range(_NL):
        ones.append(ones[-1] | ones[-1] << (_W << k))
    # keep[k][x]: the sums of 2**k lanes that stay at most 16 with x added (bits 0..16-x of each
    # lane), masked before the shift so that no bit reaches the next lane
    keep = tuple(tuple(o * ((1 << (17 - x)) - 1) for x in range(17)) for o in ones)
    rep = [0]  # rep[m]: bit 0 of each of m card lanes
    for i in range(_NL + 1):
        rep.append(rep[-1] | 1 << (_PW * i))
    return keep, tuple(o ^ 1 for o in ones), tuple(rep)  # ones without the empty set


_KEEP, _ONES, _REP = _lane_tables()
_KEEP_F: Final = _KEEP
_ONES_F: Final = _ONES
_REP_F: Final = _REP
_Tab = tuple[tuple[int, ...], int, int, int]
_NO_TAB: Final[_Tab] = ((-1,), 0, 0, 0)  # matches no table


def _make_tab(loose: tuple[int, ...], hl: tuple[tuple[int, int], ...], tm: tuple[int, ...]) -> _Tab:
    """The lanes of ``loose`` (see above); ``hl``/``tm``: the value mode's table values."""
    a = 1
    t_ = 0
    tv = 0
    sh = _W
    for k, c in enumerate(loose):
        lo, hi = hl[c]
        keep = _KEEP_F[k]
        if hi:
            a |= ((a & keep[lo]) << lo | (a & keep[hi]) << hi) << sh
        else:
            a |= (a & keep[lo]) << (lo + sh)
        x = tm[c]
        t_ |= x << (_PW * k)
        tv |= x
        sh <<= 1
    return (loose, a, t_, tv)


def _lane_unions(e: int, loose: tuple[int, ...]) -> dict[int, tuple[tuple[int, ...], ...]]:
    """The capture sets of a value v on a table of loose cards only, from ``e``, nonzero: the
    lanes ``A >> v`` masked to bit 0 of each nonempty subset's lane (see :func:`_make_tab`; the
    caller tests for no group, the usual answer, without a call). Every union of pairwise
    disjoint groups worth v (in mask order) → one partition as card tuples: the same dictionary,
    in the same order, as the general path's ``_unions(_lgroups(v, ...))``."""
    if not e & (e - 1):  # one group (the usual capture)
        g = e.bit_length() // _W
        if not g & g - 1:  # one card
            return {0: (), g: ((loose[g.bit_length() - 1],),)}
        return {0: (), g: (_items(g, loose),)}
    groups = []
    while e:
        low = e & -e
        groups.append(low.bit_length() // _W)
        e ^= low
    return _unions(groups, loose)  # two groups or more: as the general path makes them


_CAPTURE1: Final[tuple[tuple[Capture, ...], ...]] = tuple(
    tuple(_capture(h, ((t,),)) for t in DECK) for h in DECK
)
"""``Capture(h, ((t,),))``, the capture of one card by one card, made once (actions are
immutable values, as the trails): most captures of random play."""
_BUILD1: Final[dict[int, Build]] = {}
"""``Build(h, b, (t,), (), same)`` by ``((h * 64 + t) * 32 + b) * 2 + same``, made when first
listed: the one-card builds without gathering (at most 52 * 52 * 17 * 2 keys)."""


def _generate_loose(
    st: KasinoState, p: int, hand: tuple[int, ...], loose: tuple[int, ...]
) -> list[KasinoAction]:
    """:func:`_generate` for a table of loose cards only (no builds) with one-card build
    bases: most positions of a game. The same list as the general path, with its bookkeeping
    for builds on the table (ownership, raises, extensions, D20, rule 9.3) left out, and the
    subset sums and one-card builds read from the table's lanes (see :func:`_make_tab`)."""
    m = len(loose)
    if m > _NL:
        return _generate_general(st, p)
    tab = st._tab
    if tab[0] is not loose:
        tab = st._tab = _make_tab(loose, st._hl, st._tm)
    _, a, tl, tv = tab
    rules = st._rules
    must = rules[5] and st.built_last >> p & 1
    ones = _ONES_F[m]
    if len(hand) == 1:  # the hand's last card (a quarter of the positions): no build (8.1.2)
        h = hand[0]
        vals = st._hv[h]
        e = (a >> vals[0]) & ones
        sets1 = _lane_unions(e, loose) if e else _EMPTY_UNIONS
        if len(vals) > 1:
            e = (a >> vals[1]) & ones
            if e:
                sets1 = dict(sets1)
                for mk, part in _lane_unions(e, loose).items():
                    if mk not in sets1:
                        sets1[mk] = part
        out1: list[KasinoAction] = []
        for mk, part in sets1.items():
            if mk:
                if not mk & mk - 1:
                    out1.append(_CAPTURE1[h][part[0][0]])
                else:
                    ca = _new(_T_CAPTURE)
                    _set_card(ca, h)
                    _set_groups(ca, part)
                    out1.append(ca)
        if h == _SPADE5:
            out1.append(CLEAR)
        if not (must and out1):  # under the duty (9.2) the captures alone
            out1.append(TRAILS[h])
        return out1
    hm = st._hm
    must_gather = rules[2]
    # a list, not map(hm.__getitem__): a call through the slot wrapper per card costs more,
    # compiled (a generic call, about 1,700 instructions) and interpreted alike
    hkey = tuple([hm[c] for c in hand])
    hinfo = _HANDS.get(hkey)
    if hinfo is None:
        hinfo = _hand_info(hkey)
    cards_info = hinfo[1]
    rep = _REP_F[m]
    sets_of: list[dict[int, tuple[tuple[int, ...], ...]] | None] = [None] * 17
    reqc: list[int] | None = None
    caps: list[KasinoAction] = []
    out: list[KasinoAction] = []
    b1 = _BUILD1
    # (a set of capture sets is _EMPTY_UNIONS or holds a set taken: its identity tells)
    # zip without strict=: one info per card by construction, and mypyc compiles a plain zip
    # to a native loop (with a keyword: a generic call, about 1,500 instructions)
    for h, (_vals, _hb, others, sv, want, x, x2) in zip(hand, cards_info):  # noqa: B905
        # --- captures (6.2)
        sets = sets_of[x]
        if sets is None:
            e = (a >> x) & ones  # bit 0 of lane k: the subset k is worth x
            sets = sets_of[x] = _lane_unions(e, loose) if e else _EMPTY_UNIONS
        if x2:
            s2 = sets_of[x2]
            if s2 is None:
                e = (a >> x2) & ones
                s2 = sets_of[x2] = _lane_unions(e, loose) if e else _EMPTY_UNIONS
            if s2 is not _EMPTY_UNIONS:
                sets = dict(sets)
                for mk, part in s2.items():
                    if mk not in sets:
                        sets[mk] = part
        if sets is not _EMPTY_UNIONS:
            c1 = _CAPTURE1[h]
            for mk, part in sets.items():
                if mk:
                    if not mk & mk - 1:  # one card: the shared action
                        ca = c1[part[0][0]]
                    else:  # Capture(h, part), made inline (see _capture)
                        ca = _new(_T_CAPTURE)
                        _set_card(ca, h)
                        _set_groups(ca, part)
                    if must:
                        caps.append(ca)
                    out.append(ca)
        if h == _SPADE5:
            caps.append(CLEAR)
            out.append(CLEAR)
        # --- create a build (8.2, 8.3), as in the general path's one-card branch
        if tv & want:
            # one-card builds: (position lane, value) in order, "mere" values 17 bits up
            sums = (tl << x) | (tl << x2) if x2 else tl << x
            bms = sums & (others * rep)
            if sv:
                bms |= (tl & (sv * rep)) << 17
            seen_m: set[tuple[int, int]] | None = None
            while bms:
                low = bms & -bms
                bms ^= low
                r = low.bit_length() - 1
                i = r // _PW
                b = r - i * _PW
                same = b >= 17
                if same:
                    b -= 17
                t = loose[i]
                base = 1 << i
                gs = sets_of[b]
                if gs is None:
                    e = (a >> b) & ones
                    gs = sets_of[b] = _lane_unions(e, loose) if e else _EMPTY_UNIONS
                if must_gather:
                    if reqc is None:
                        reqc = [-1] * 17
                    rq = reqc[b]
                    if rq < 0:
                        # D21: the loose cards worth b alone are the one-card groups of b
                        rq = 0
                        for g in gs:
                            if not g & g - 1:
                                rq |= g
                        reqc[b] = rq
                    req = rq & ~base
                else:
                    req = 0
                if not req:  # Build(h, b, (t,), (), same): shared
                    key = ((h * 64 + t) * 32 + b) * 2 + same
                    ba = b1.get(key)
                    if ba is None:
                        ba = b1[key] = _build(h, b, (t,), (), same)
                    out.append(ba)
                if gs is not _EMPTY_UNIONS:
                    bi = (t,)
                    for g, part in gs.items():
                        if g and not g & base and g & req == req:
                            skey = (b, base | g)
                            if seen_m is None:
                                seen_m = set()
                            elif skey in seen_m:
                                continue
                            seen_m.add(skey)
                            ba = _new(_T_BUILD)
                            _set_card(ba, h)
                            _set_value(ba, b)
                            _set_base(ba, bi)
                            _set_gather(ba, part)
                            _set_same(ba, same)
                            out.append(ba)
        # --- trail (6.1)
        out.append(TRAILS[h])
    if must and caps:
        return caps
    return out


def _generate(st: KasinoState, p: int) -> list[KasinoAction]:
    """Every legal action of seat ``p`` in ``st`` (a module-level function, not a method, so
    that mypyc can compile it: see tools/compile.py)."""
    hand = st.hands[p]
    loose = st.loose
    if not st.builds:
        if not loose:  # empty table: trail (♠5 cannot clear an empty table, 7.3)
            return [TRAILS[h] for h in hand]
        if st._rules[1]:
            return _generate_loose(st, p, hand, loose)
    return _generate_general(st, p)


def _lgroups(v: int, subs: list[tuple[int, int]], bmask: int, lgc: list[list[int] | None]) -> list[int]:
    """Groups of loose cards only (no build bit of ``bmask``), worth ``v``; memoised in ``lgc``."""
    r = lgc[v]
    if r is None:
        if bmask:
            r = [mk for mk, s in subs if s >> v & 1 and not mk & bmask]
        else:
            r = [mk for mk, s in subs if s >> v & 1]
        lgc[v] = r
    return r


def _unions(groups: list[int], codes: tuple[int, ...]) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Disjoint unions of groups: mask → its partition as item codes (for the text)."""
    if not groups:
        return _EMPTY_UNIONS
    if len(groups) == 1:
        g = groups[0]
        if not g & g - 1:  # one item (the usual capture): _items inlined
            return {0: (), g: ((codes[g.bit_length() - 1],),)}
        return {0: (), g: (_items(g, codes),)}
    if len(groups) == 2:
        g, g2 = groups
        if g != g2:
            i1 = _items(g, codes)
            i2 = _items(g2, codes)
            if g & g2:
                return {0: (), g: (i1,), g2: (i2,)}
            return {0: (), g: (i1,), g2: (i2,), g | g2: (i1, i2)}
    # all unions of pairwise disjoint groups, each with one partition (as item codes)
    reach: dict[int, tuple[tuple[int, ...], ...]] = {0: ()}
    for g in groups:
        it = None
        for r, part in list(reach.items()):
            if not r & g:
                nr = r | g
                if nr not in reach:
                    if it is None:
                        it = _items(g, codes)
                    reach[nr] = (*part, it)
    return reach


def _capture_sets(
    v: int,
    capc: dict[int, dict[int, tuple[tuple[int, ...], ...]]],
    subs: list[tuple[int, int]],
    in_sums: bool,
    bmask: int,
    lgc: list[list[int] | None],
    builds: tuple[BuildPile, ...],
    m: int,
    codes: tuple[int, ...],
) -> dict[int, tuple[tuple[int, ...], ...]]:
    """The capture sets of value ``v`` (loose groups and builds worth it); memoised in ``capc``."""
    if in_sums:
        groups = [mk for mk, s in subs if s >> v & 1]
    else:
        groups = _lgroups(v, subs, bmask, lgc)
        j = m
        for bq in builds:
            if bq.value == v:
                groups = [*groups, 1 << j]
            j += 1
    r = capc[v] = _unions(groups, codes)
    return r


def _gather_sets(
    v: int,
    gatc: dict[int, dict[int, tuple[tuple[int, ...], ...]]],
    subs: list[tuple[int, int]],
    bmask: int,
    lgc: list[list[int] | None],
    codes: tuple[int, ...],
) -> dict[int, tuple[tuple[int, ...], ...]]:
    """The unions of loose groups worth ``v`` that a build may gather; memoised in ``gatc``."""
    r = gatc[v] = _unions(_lgroups(v, subs, bmask, lgc), codes)
    return r


def _generate_general(st: KasinoState, p: int, duty: bool = True) -> list[KasinoAction]:
    """:func:`_generate` for every position and option (builds on the table, many-card bases).

    Under the capture duty of rule 9.2 (``build_obligations="text"``, built last turn) the
    captures alone are made first: if there are any they are the list; if not, the whole list
    is made again without the duty (``duty=False``)."""
    hand = st.hands[p]
    loose = st.loose
    builds = st.builds
    m = len(loose)
    nb = len(builds)
    if not m and not nb:  # empty table: trail (♠5 cannot clear an empty table, 7.3)
        return [TRAILS[h] for h in hand]
    hm = st._hm
    tm = st._tm
    in_sums, one_card, must_gather, same_pile, classic, text_duty, pair = st._rules

    own = -1
    own_val = 0
    built_vals = 0  # D20 "samme bunke": no second pile of a value already built (a mask)
    if nb:
        for j in range(nb):
            if builds[j].owner == p:
                own = j
                own_val = builds[j].value
                break
        if same_pile:
            for bq in builds:
                built_vals |= 1 << bq.value
    reserve = -1  # rule 9.3: the last card able to take the own build
    if own >= 0:
        able = [c for c in hand if hm[c] >> own_val & 1]
        if len(able) == 1:
            reserve = able[0]
    trail_ok = own < 0 or not classic
    must = duty and text_duty and st.built_last >> p & 1

    # a list, not map(hm.__getitem__): a call through the slot wrapper per card costs more,
    # compiled (a generic call, about 1,700 instructions) and interpreted alike
    hkey = tuple([hm[c] for c in hand])
    hinfo = _HANDS.get(hkey)
    if hinfo is None:
        hinfo = _hand_info(hkey)
    lim, cards_info = hinfo

    # Subset sums of the loose cards (and, with build_in_sums, the builds): (mask, sum bits).
    subs = _loose_sums(st._hl, loose, lim)
    bmask = 0
    if in_sums:
        for j in range(nb):
            bit = 1 << (m + j)
            bmask |= bit
            v = builds[j].value
            subs += [(mk | bit, ns) for mk, s in subs if (ns := (s << v) & lim)]
    del subs[0]
    # every value some capture group can be worth; a loop, not reduce(or_, map(...)): fewer
    # calls interpreted, native compiled
    capmask = 0
    for _mk, s_ in subs:
        capmask |= s_
    for bq in builds:
        capmask |= 1 << bq.value
    tv = -1  # every value some loose card can be worth (computed when first needed)
    reqc: list[int] | None = None
    codes_l: list[int] = list(loose)
    for bq in builds:
        codes_l.append(_BUILD_CODE + bq.groups[0][0])

    codes = tuple(codes_l)
    lgc: list[list[int] | None] = [None] * 17  # groups of loose cards only, per value
    capc: dict[int, dict[int, tuple[tuple[int, ...], ...]]] = {}
    # without builds on the table, gather sets and capture sets are the same unions
    gatc: dict[int, dict[int, tuple[tuple[int, ...], ...]]] = capc if not nb else {}

    caps: list[KasinoAction] = []  # captures only (rule 9.2)
    out: list[KasinoAction] = []  # everything, in order: per hand card
    own_bit = 1 << (m + own) if own >= 0 else 0
    # zip without strict=: see _generate_loose
    for h, (vals, hb, others, sv, want, _x, _x2) in zip(hand, cards_info):  # noqa: B905
        # --- captures (6.2)
        is_reserve = h == reserve
        if hb & capmask:
            if len(vals) == 1:
                v = vals[0]
                sets = capc.get(v) or _capture_sets(v, capc, subs, in_sums, bmask, lgc, builds, m, codes)
            else:
                v = vals[0]
                # a value no capture group can be worth has only the empty union
                sets = (
                    (capc.get(v) or _capture_sets(v, capc, subs, in_sums, bmask, lgc, builds, m, codes))
                    if capmask >> v & 1
                    else _EMPTY_UNIONS
                )
                v = vals[1]
                s2 = (
                    (capc.get(v) or _capture_sets(v, capc, subs, in_sums, bmask, lgc, builds, m, codes))
                    if capmask >> v & 1
                    else _EMPTY_UNIONS
                )
                if len(s2) > 1:
                    sets = dict(sets)
                    for mk, part in s2.items():
                        if mk not in sets:
                            sets[mk] = part
            if len(sets) > 1:
                # Capture(h, part) per set taken (the reserve card must take its build), inline
                need = own_bit if is_reserve else -1
                for mk, part in sets.items():
                    if mk & need:
                        a = _new(_T_CAPTURE)
                        _set_card(a, h)
                        _set_groups(a, part)
                        caps.append(a)
                        out.append(a)
        if h == _SPADE5:
            caps.append(CLEAR)
            out.append(CLEAR)
        if is_reserve or must:  # under the duty: the captures first (see above)
            continue
        if others:
            # --- create a build (8.2, 8.3): not while owning one (9.1); ``want``: the values
            # a loose card must be able to take to give a one-card build (a sum with a value
            # of h, or h's own value for "mere b", sv), held by the other cards
            if own < 0 and m and tv < 0:
                tv = 0
                for c_ in loose:
                    tv |= tm[c_]
            if own < 0 and m and (not one_card or tv & want):
                if one_card:
                    seen_m: set[tuple[int, int]] | None = None
                    if reqc is None:
                        reqc = [-1] * 17  # _required per build value, when first asked
                    ph = pair[h]
                    for i in range(m):
                        t = loose[i]
                        if not tm[t] & want:
                            continue
                        bm = ph[t] & others
                        sm = tm[t] & sv
                        while bm | sm:
                            if bm:
                                low = bm & -bm
                                bm ^= low
                                same = False
                            else:
                                low = sm & -sm
                                sm ^= low
                                same = True
                            b = low.bit_length() - 1
                            if built_vals >> b & 1:  # D20: goes into the pile of b (extend)
                                continue
                            base = 1 << i
                            bi = (t,)
                            if must_gather:
                                rq = reqc[b]
                                if rq < 0:
                                    rq = reqc[b] = _required(b, loose, tm)
                                req = rq & ~base
                            else:
                                req = 0
                            # simple build, or "mere b" with t alone (8.3)
                            if not req:  # Build(h, b, bi, (), same), inline (see _build)
                                ba = _new(_T_BUILD)
                                _set_card(ba, h)
                                _set_value(ba, b)
                                _set_base(ba, bi)
                                _set_gather(ba, ())
                                _set_same(ba, same)
                                out.append(ba)
                            gs = gatc.get(b) or _gather_sets(b, gatc, subs, bmask, lgc, codes)
                            if len(gs) > 1:
                                for g, part in gs.items():
                                    if g and not g & base and g & req == req:
                                        key = (b, base | g)
                                        if seen_m is None:
                                            seen_m = set()
                                        elif key in seen_m:
                                            continue
                                        seen_m.add(key)
                                        out.append(_build(h, b, bi, part, same))
                else:
                    for b in _bits(others & ~built_vals):
                        bases: list[int] = []
                        for x in vals:
                            if x < b:
                                bases += _lgroups(b - x, subs, bmask, lgc)
                        same_t = (
                            [mk for mk in _lgroups(b, subs, bmask, lgc) if not mk & mk - 1]
                            if hb >> b & 1
                            else []
                        )
                        if not bases and not same_t:
                            continue
                        gs = gatc.get(b) or _gather_sets(b, gatc, subs, bmask, lgc, codes)
                        seen: set[tuple[int, bool]] = set()
                        reqb = _required(b, loose, tm) if must_gather else 0
                        for base, same in [(x, False) for x in bases] + [(x, True) for x in same_t]:
                            req = reqb & ~base
                            for g, part in gs.items():
                                if not g & base and g & req == req:
                                    skey = (base | g, same or bool(g))
                                    if skey not in seen:
                                        seen.add(skey)
                                        out.append(_build(h, b, _items(base, codes), part, same))
            # --- raise (8.4) and extend (8.5): only one's own build while owning one (9.1)
            for j in range(nb):
                if own >= 0 and j != own:
                    continue
                bp = builds[j]
                bv = bp.value
                bid = bp.groups[0][0]
                if not bp.multiple:
                    for x in vals:
                        nv = bv + x
                        if nv <= 16 and others >> nv & 1:
                            # D20: a raise onto a value already built joins that pile, which
                            # an owner may do only to his own (9.1): his is the one raised
                            if built_vals >> nv & 1 and own >= 0:
                                continue
                            out.append(Raise(h, bid, nv))
                if others >> bv & 1:
                    ebases = [0] if hb >> bv & 1 else []
                    for x in vals:
                        if x < bv:
                            ebases += _lgroups(bv - x, subs, bmask, lgc)
                    if not ebases:
                        continue
                    # an ace counts 1 or 14: both values can reach the same base group
                    ebases = list(dict.fromkeys(ebases))
                    gs = gatc.get(bv) or _gather_sets(bv, gatc, subs, bmask, lgc, codes)
                    if len(gs) == 1:
                        for base in ebases:
                            out.append(Extend(h, bid, _items(base, codes) if base else ()))
                        continue
                    reqv = _required(bv, loose, tm) if must_gather else 0
                    seen_e: set[int] = set()
                    for base in ebases:
                        req = reqv & ~base
                        for g, part in gs.items():
                            if not g & base and g & req == req:
                                u = base | g
                                if u not in seen_e:
                                    seen_e.add(u)
                                    out.append(
                                        Extend(
                                            h,
                                            bid,
                                            _items(base, codes) if base else (),
                                            part,
                                        )
                                    )
        # --- trail (6.1)
        if trail_ok:
            out.append(TRAILS[h])
    if must:
        return caps if caps else _generate_general(st, p, False)
    return out


@mypyc_attr(allow_interpreted_subclasses=True)
class KasinoGame(Game[KasinoOptions, KasinoState]):
    """Kasino: capture cards from the table by matching and combining values (2–4 players)."""

    id = "kasino"
    title = TITLE
    seats = range(2, 5)
    kind = GameKind(
        hidden_information=True,  # hands and the stock's order
        chance=True,  # every round is shuffled from the state's RNG
        public_actions=True,  # the card an action names is played face up
        # A round is 48 decisions. A game to 21 takes a few rounds (random play: 160-280
        # decisions, at most about 400); even a 4-player game to the largest target (1000)
        # ends near 16,000. The bound, 750 rounds, only stops endless ties at the top.
        max_decisions=36_000,
    )
    version = 2
    Options = KasinoOptions
    summary = "The Danish fishing card game: match, combine, build; sweeps, casinos and sidsten."
    languages = ("en", "da")
    quick_options: ClassVar[dict[str, Any]] = {"target": 5}

    def new(self, seats: int, seed: int, options: KasinoOptions | None = None) -> KasinoState:
        self.check_seats(seats)
        o = options if options is not None else KasinoOptions()
        if o.partnerships and seats != 4:
            raise OptionError(f"{TITLE}: partnerships need 4 players, not {seats}")
        s = KasinoState.__new__(KasinoState)
        s.start(self, seats, Rng(seed))
        s.o = o
        s._hv = HAND_VALUES[o.value_mode]
        s._hm = HAND_MASKS[o.value_mode]
        s._det = None
        s._tm = TABLE_MASKS[o.value_mode]
        s._hl = TABLE_LO_HI[o.value_mode]
        s._rules = rules_of(o)
        s._tab = _NO_TAB
        if o.partnerships:
            s.sides = 2
            s.side_of = (0, 1, 0, 1)
        else:
            s.sides = seats
            s.side_of = tuple(range(seats))
        s.totals = (0,) * s.sides
        s.history = ()
        s.set_aside = ()
        s.round_no = 1
        s.dealer = s.rng.randrange(seats)
        s._start_round([])
        return s

    def teams(self, seats: int, options: KasinoOptions | None = None) -> Teams:
        """Every seat for itself; with ``partnerships`` (4 players, D19) opposite seats."""
        if options is not None and options.partnerships and seats == 4:
            return ((0, 2), (1, 3))
        return tuple((s,) for s in range(seats))

    def parse(self, state: KasinoState, text: str) -> KasinoAction:
        return parse_action(state, text)
