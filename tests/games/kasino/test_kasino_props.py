"""Kasino: invariants I1–I11 over random games (Hypothesis), a brute-force check of the
capture generator, pinned legal-move counts, and the greedy bot against the random bot."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spillebord.ai import decide, make_agent
from spillebord.core import Rng
from spillebord.games.kasino import GAME, Build, Capture, Clear, Extend, KasinoOptions, Raise
from spillebord.games.kasino.actions import BUILD_CODE
from spillebord.games.kasino.data import HAND_VALUES, TABLE_VALUES
from spillebord.games.kasino.rules import KasinoState
from spillebord.tables import replay_texts

OPTIONS = st.builds(
    KasinoOptions,
    value_mode=st.sampled_from(["either", "hand_high_table_low"]),
    build_in_sums=st.booleans(),
    build_base=st.sampled_from(["one_card", "many_cards"]),
    spade5_sweep=st.booleans(),
    build_obligations=st.sampled_from(["text", "classic"]),
    hand_lead=st.sampled_from(["rotate", "continue"]),
    sweep_cancellation=st.booleans(),
    last_play_sweep_counts=st.booleans(),
    target=st.integers(1, 12),
    match_format=st.sampled_from(["first_to_target", "one_round_per_player"]),
)


# ------------------------------------------------------------------ an independent capture checker


def _item_values(state: KasinoState, code: int) -> list[int] | None:
    """Values of a table item inside a sum group (None: a build outside build_in_sums)."""
    if code >= BUILD_CODE:
        b = next(b for b in state.builds if b.groups[0][0] == code - BUILD_CODE)
        return [b.value] if state.o.build_in_sums else None
    return list(TABLE_VALUES[state.o.value_mode][code])


def _group_ok(state: KasinoState, group: tuple[int, ...], v: int) -> bool:
    if len(group) == 1 and group[0] >= BUILD_CODE:
        b = next(b for b in state.builds if b.groups[0][0] == group[0] - BUILD_CODE)
        if b.value == v:
            return True
    sums = {0}
    for code in group:
        vals = _item_values(state, code)
        if vals is None:
            return False
        sums = {s + x for s in sums for x in vals}
    return v in sums


def _partitionable(state: KasinoState, items: tuple[int, ...], v: int) -> bool:
    if not items:
        return True
    first, rest = items[0], items[1:]
    for k in range(len(rest) + 1):
        for others in combinations(rest, k):
            g = (first, *others)
            if _group_ok(state, g, v):
                remaining = tuple(x for x in rest if x not in others)
                if _partitionable(state, remaining, v):
                    return True
    return False


def capture_legal(state: KasinoState, card: int, taken: frozenset[int]) -> bool:
    """Rule 6.2 by brute force: some v in val_h(card) and a partition of the set into groups."""
    items = tuple(sorted(taken))
    return bool(items) and any(_partitionable(state, items, v) for v in HAND_VALUES[state.o.value_mode][card])


def _sums(state: KasinoState, cards: tuple[int, ...]) -> set[int]:
    sums = {0}
    for c in cards:
        sums = {x + y for x in sums for y in TABLE_VALUES[state.o.value_mode][c]}
    return sums


def _subsets(xs: list[int]) -> list[tuple[int, ...]]:
    return [c for k in range(len(xs) + 1) for c in combinations(xs, k)]


def brute_builds(state: KasinoState, p: int) -> set[tuple[Any, ...]]:
    """Rules 8.1–8.5 by brute force for a player who owns no build: the effects
    (kind, card, value or build, cards used, multiple) of every create / raise / extend."""
    hv = HAND_VALUES[state.o.value_mode]
    tv = TABLE_VALUES[state.o.value_mode]
    hand = state.hands[p]
    loose = list(state.loose)
    out: set[tuple[Any, ...]] = set()
    for h in hand:
        held = {v for c in hand if c != h for v in hv[c]}
        for b in range(2, 17):
            if b not in held:
                continue
            gathers = [g for g in _subsets(loose) if _partitionable(state, g, b)]
            # create: sum form on one card (or several with many_cards), or "mere b"
            for base in _subsets(loose):
                if not base:
                    continue
                if len(base) > 1 and state.o.build_base == "one_card":
                    continue
                forms = []
                if any(b - x in _sums(state, base) for x in hv[h] if x < b):
                    forms.append(False)
                if len(base) == 1 and b in hv[h] and b in tv[base[0]]:
                    forms.append(True)
                for same in forms:
                    for g in gathers:
                        if set(g) & set(base):
                            continue
                        out.add(("build", h, b, frozenset(base) | frozenset(g), same or bool(g)))
        for bp in state.builds:
            bid = bp.groups[0][0]
            if not bp.multiple:
                for x in hv[h]:
                    if bp.value + x <= 16 and bp.value + x in held:
                        out.add(("raise", h, bid, bp.value + x))
            b = bp.value
            if b not in held:
                continue
            gathers = [g for g in _subsets(loose) if _partitionable(state, g, b)]
            for base in _subsets(loose):
                if base:
                    if not any(b - x in _sums(state, base) for x in hv[h] if x < b):
                        continue
                elif b not in hv[h]:
                    continue
                for g in gathers:
                    if not set(g) & set(base):
                        out.add(("extend", h, bid, frozenset(base) | frozenset(g)))
    return out


def generated_builds(legal: list[Any]) -> list[tuple[Any, ...]]:
    out = []
    for a in legal:
        if isinstance(a, Build):
            out.append(("build", a.card, a.value, a.cards_used(), a.multiple))
        elif isinstance(a, Raise):
            out.append(("raise", a.card, a.build, a.value))
        elif isinstance(a, Extend):
            out.append(("extend", a.card, a.build, a.cards_used()))
    return out


def table_codes(state: KasinoState) -> list[int]:
    return list(state.loose) + [BUILD_CODE + b.groups[0][0] for b in state.builds]


# ------------------------------------------------------------------ one random game, all invariants


def run_game(seats: int, seed: int, options: KasinoOptions, brute: bool = True) -> KasinoState:
    s = GAME.new(seats, seed, options)
    rng = Rng(seed)
    texts: list[str] = []
    last_totals = s.totals
    hands_dealt = 1
    while s.to_act is not None:
        s.check()  # I1 conservation, I2 build validity, I3 ownership
        p = s.to_act
        legal = s.legal()
        assert legal
        own = s.own_build(p)
        free = not (s.built_last >> p & 1) and own is None
        if brute and free and len(s.loose) + len(s.builds) <= 7:
            # The generator's capture sets equal the brute-force ones (no obligations in force).
            codes = table_codes(s)
            for h in s.hands[p]:
                want = {
                    frozenset(c)
                    for k in range(1, len(codes) + 1)
                    for c in combinations(codes, k)
                    if capture_legal(s, h, frozenset(c))
                }
                got = [a.taken() for a in legal if isinstance(a, Capture) and a.card == h]
                assert len(got) == len(set(got)), "two capture actions with the same effect"
                assert set(got) == want, (h, s.loose, s.builds)
            if len(s.loose) <= 6:
                gen = generated_builds(legal)
                assert len(gen) == len(set(gen)), "two build actions with the same effect"
                assert set(gen) == brute_builds(s, p), (s.hands[p], s.loose, s.builds)
        a = rng.choice(legal)
        if isinstance(a, Capture):  # I6: the partition check holds for the capture played
            assert capture_legal(s, a.card, a.taken())
        hand_before = s.hands[p]
        pile_before = s.piles[p]
        table_before = len(s.loose) + len(s.builds)
        events = s.play(a)
        texts.append(str(a))
        kinds = [e["kind"] for e in events]
        round_over = "round_score" in kinds
        dealt = "deal" in kinds
        # I5: exactly one card left the acting hand
        if not dealt and not round_over:
            assert s.hands[p] == tuple(c for c in hand_before if c != a.card)
            assert len(s.hands[p]) == len(hand_before) - 1
        else:
            assert hand_before == (a.card,)
        if isinstance(a, Capture | Clear):
            ev = events[0]
            assert ev["kind"] == "capture"
            if not round_over:
                assert len(s.piles[p]) == len(pile_before) + len(ev["taken"]) + 1
                # I7: sweep flag iff the table was left empty (with the options' exceptions)
                empty = not s.loose and not s.builds
                if isinstance(a, Capture):
                    assert bool(ev.get("sweep")) == empty
                else:
                    assert empty and table_before > 0
                    assert bool(ev.get("sweep")) == options.spade5_sweep
        if dealt and not round_over:
            hands_dealt += 1
            # I4: no builds when new cards are dealt; I10: stock empty exactly at the last hand
            assert not s.builds
            assert (len(s.stock) == 0) == (hands_dealt == s.hands_per_round)
        if round_over:
            assert hands_dealt == s.hands_per_round == 48 // (4 * seats)  # I10
            hands_dealt = 1
            pts = s.history[-1]["points"]
            # I8 score bounds
            assert sum(d["total"] - d["sweeps"] for d in pts) <= 11
            assert sum(1 for d in pts if d["spades"]) <= 1 and sum(1 for d in pts if d["cards"]) <= 1
            if options.sweep_cancellation:
                assert min(d["sweeps"] for d in pts) == 0
        # I9 totals never decrease
        assert all(t >= u for t, u in zip(s.totals, last_totals, strict=True))
        last_totals = s.totals
        assert len(texts) <= GAME.max_decisions
    s.check()
    assert s.result() is not None and len(s.result() or ()) == seats
    # I11 determinism: the same seed and action texts give the same state
    assert replay_texts(GAME, seats, seed, options, texts) == s
    return s


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 4), options=OPTIONS)
def test_I1_to_I11_invariants_over_random_games(seed: int, seats: int, options: KasinoOptions) -> None:
    run_game(seats, seed, options)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_I1_to_I11_partnerships(seed: int) -> None:
    s = run_game(4, seed, KasinoOptions(partnerships=True, target=8))
    r = s.result()
    assert r is not None and r[0] == r[2] and r[1] == r[3]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 4))
def test_determinize_keeps_the_seats_view_and_owners_cards(seed: int, seats: int) -> None:
    s = GAME.new(seats, seed, KasinoOptions(target=5))
    rng = Rng(seed)
    for _ in range(60):
        if s.to_act is None:
            break
        for seat in range(seats):
            d = s.determinize(seat, rng.spawn())
            assert d.view(seat) == s.view(seat)
            d.check()  # every build owner still holds a card able to take it
        s.play(rng.choice(s.legal()))


# ------------------------------------------------------------------ pinned counts (perft-like)


def _counts(seed: int, seats: int, steps: int) -> list[int]:
    s = GAME.new(seats, seed)
    rng = Rng(seed)
    out = []
    for _ in range(steps):
        legal = s.legal()
        out.append(len(legal))
        s.play(rng.choice(legal))
    return out


def test_perft_pinned_legal_counts() -> None:
    assert _counts(1, 2, 24) == PINNED[(1, 2)]
    assert _counts(7, 3, 24) == PINNED[(7, 3)]
    assert _counts(42, 4, 24) == PINNED[(42, 4)]


PINNED: dict[tuple[int, int], list[int]] = {
    (1, 2): [6, 6, 6, 10, 2, 3, 1, 2, 39, 7, 1, 3, 3, 5, 1, 2, 10, 28, 7, 6, 5, 8, 1, 2],
    (7, 3): [11, 21, 9, 4, 4, 5, 2, 6, 2, 1, 1, 1, 5, 8, 11, 6, 2, 3, 2, 2, 2, 1, 2, 1],
    (42, 4): [9, 11, 5, 7, 3, 2, 4, 4, 2, 4, 2, 4, 1, 1, 2, 2, 8, 5, 6, 5, 1, 4, 5, 7],
}


# ------------------------------------------------------------------ bots


def test_greedy_beats_random() -> None:
    game: Any = GAME
    greedy, rand = make_agent("greedy", game), make_agent("random", game)
    wins = 0
    n = 40
    for i in range(n):
        g = i % 2
        agents = [greedy, rand] if g == 0 else [rand, greedy]
        s = GAME.new(2, 1000 + i)
        rng = Rng(i)
        while s.to_act is not None:
            s.play(decide(agents[s.to_act], s, rng))
        r = s.result()
        assert r is not None
        wins += r[g] > r[1 - g]
    assert wins >= 0.65 * n
