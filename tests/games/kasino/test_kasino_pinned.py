"""Kasino's legal lists pinned IN ORDER, with every event, over random games in many variants.

The golden playthrough is one short game; the perft and brute-force tests compare sets. This
test pins the exact order of ``legal()`` (which a seeded player's choices depend on) and the
events over 40 random games in 20 option sets, as a digest of the engine before the speed work
of issue 20 (engine version 2). A change in the legal-move generator's representation must
leave the digest alone; a deliberate change of behaviour raises ``Game.version`` and the digest
is written again (run this file as a script to print it).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from spillebord.core import Rng
from spillebord.games.kasino import GAME, KasinoOptions


def variants() -> list[dict[str, Any]]:
    r = random.Random(20)
    out: list[dict[str, Any]] = [{}, {"target": 5}]
    for _ in range(18):
        out.append(
            {
                "value_mode": r.choice(["either", "hand_high_table_low"]),
                "build_in_sums": r.random() < 0.5,
                "build_base": r.choice(["one_card", "many_cards"]),
                "more_builds": r.choice(["same_pile", "separate"]),
                "gathering": r.choice(["compulsory", "optional"]),
                "spade5_sweep": r.random() < 0.5,
                "build_obligations": r.choice(["text", "classic"]),
                "hand_lead": r.choice(["rotate", "continue"]),
                "sweep_cancellation": r.random() < 0.5,
                "last_play_sweep_counts": r.random() < 0.5,
                "target": r.randint(1, 6),
                "match_format": r.choice(["first_to_target", "one_round_per_player"]),
            }
        )
    return out


def digest(index: int, opts: dict[str, Any]) -> str:
    """Two games (2, 3 or 4 seats; partners in some 4-seat ones) of a seeded random player."""
    h = hashlib.sha256()
    for g in range(2):
        seats = 2 + (index + g) % 3
        o = KasinoOptions(**opts, partnerships=seats == 4 and index % 2 == 1)
        s = GAME.new(seats, 1000 * index + g, o)
        rng = Rng(77 + g)
        while s.to_act is not None:
            legal = s.legal()
            h.update("|".join(map(str, legal)).encode())
            events = s.play(rng.choice(legal))
            h.update(json.dumps(events, sort_keys=True).encode())
        h.update(repr((s.totals, s.scores())).encode())
    return h.hexdigest()[:16]


PINNED = [
    "94fa64e85d41ef80",
    "cd7485c433fe350b",
    "b9003e0f57d96b68",
    "b5bee8049403fcc1",
    "6b09656e9616ea89",
    "045c72ca9e8dd29a",
    "78d3c23598c094b7",
    "5370e5fde8964d66",
    "e2b660cacc2ab390",
    "e8d96fa5f97a0994",
    "90484af4887f80e9",
    "ad4b4450aa0372c2",
    "c70d4ad2c1d09e34",
    "93f063f5bcf0295b",
    "8a77061edfbf0303",
    "378de059c6cb2b72",
    "4c90733f14444c1b",
    "1411b9b3cc2e9e11",
    "989e78ef761be408",
    "8eeb9fcf50dbcfab",
]


@pytest.mark.parametrize("index", range(20))
def test_legal_lists_and_events_are_pinned(index: int) -> None:
    assert digest(index, variants()[index]) == PINNED[index], variants()[index]


if __name__ == "__main__":
    print([digest(i, v) for i, v in enumerate(variants())])


def previous_draw_front(cards: list[int], at: int, k: int, rng: Rng) -> None:
    """determinize's draw before it used ``Rng.shuffle_front``: a partial Fisher-Yates of
    ``cards[at:]``, indices as mixed-radix digits of 64-bit draws (a new draw when the product of
    the radices would reach 2**24)."""
    n = len(cards)
    word = room = 0
    for i in range(at, at + k):
        m = n - i
        if room * m >= 1 << 24 or not room:
            word = rng.next64()
            room = 1
        j = i + word % m
        word //= m
        room *= m
        cards[i], cards[j] = cards[j], cards[i]


@pytest.mark.parametrize("k", range(5))
def test_shuffle_front_draws_what_determinize_drew_before(k: int) -> None:
    """A hand is at most 4 cards from a pool of at most 52: ``Rng.shuffle_front`` takes one
    64-bit draw and reads the same digits, so determinize deals the very same hands."""
    for n in range(k, 53):
        for seed in range(40):
            a = list(range(100, 100 + n))
            b = a[:]
            ra, rb = Rng(seed * 53 + n), Rng(seed * 53 + n)
            previous_draw_front(a, 0, k, ra)
            rb.shuffle_front(b, k)
            assert a == b and ra == rb, (n, k, seed)


def test_determinize_is_pinned() -> None:
    """determinize from every seat over a random game: pinned hands and stocks (re-pinned when
    determinize began to deal from the sorted unseen cards, so that the sample depends only on
    what the seat sees; before, the same hands and stocks as engine v2)."""
    h = hashlib.sha256()
    for seats in (2, 3, 4):
        s = GAME.new(seats, 5 + seats, KasinoOptions())
        rng, drng = Rng(1), Rng(2)
        while s.to_act is not None:
            for seat in range(seats):
                d = s.determinize(seat, drng)
                h.update(repr((d.hands, d.stock, d.rng.s)).encode())
            s.play(rng.choice(s.legal()))
    assert h.hexdigest()[:16] == "6957bd74994f0c4b"


@pytest.mark.parametrize("index", range(20))
def test_loose_table_fast_path_lists_what_the_general_generator_lists(index: int) -> None:
    """With no build on the table and one-card bases, ``legal()`` takes a shorter path
    (``_generate_loose``): at every such position of two random games per option set it gives
    the general generator's list, action for action, in order."""
    from spillebord.games.kasino.rules import _generate, _generate_general

    opts = variants()[index]
    compared = 0
    for g in range(2):
        seats = 2 + (index + g) % 3
        s = GAME.new(seats, 500 + 1000 * index + g, KasinoOptions(**opts))
        rng = Rng(5 + g)
        while s.to_act is not None:
            p = s.to_act
            if not s.builds and s.loose and s._rules[1]:
                fast = _generate(s, p)
                general = _generate_general(s, p)
                assert list(map(repr, fast)) == list(map(repr, general)), (index, g, s.decisions)
                compared += 1
            s.play(rng.choice(s.legal()))
    assert compared > 0 or opts.get("build_base") == "many_cards"


@pytest.mark.parametrize("index", range(20))
def test_capture_duty_first_lists_what_the_whole_list_filtered_gives(index: int) -> None:
    """Under the capture duty (rule 9.2, ``build_obligations="text"``) the general generator
    makes the captures first and the rest only when there is none: at every position of two
    random games per option set its list is the whole list (made without the duty) reduced to
    its captures and clear when there are any, the whole list otherwise, in order."""
    from spillebord.games.kasino.actions import Capture, Clear
    from spillebord.games.kasino.rules import _generate_general

    opts = variants()[index]
    under_duty = 0
    for g in range(2):
        seats = 2 + (index + g) % 3
        s = GAME.new(seats, 700 + 1000 * index + g, KasinoOptions(**opts))
        rng = Rng(9 + g)
        while s.to_act is not None:
            p = s.to_act
            whole = _generate_general(s, p, False)
            caps = [a for a in whole if isinstance(a, Capture | Clear)]
            duty = s.o.build_obligations == "text" and s.built_last >> p & 1
            expected = caps if duty and caps else whole
            assert list(map(repr, _generate_general(s, p))) == list(map(repr, expected))
            under_duty += bool(duty)
            s.play(rng.choice(s.legal()))
    assert under_duty > 0 or opts.get("build_obligations") == "classic"


def test_items_by_getter_is_the_plain_selection() -> None:
    """``_items`` takes a group's cards with a precomputed ``itemgetter`` per position mask:
    the same tuple as selecting the positions in order, for every mask of up to 12 positions."""
    from spillebord.games.kasino.rules import _bits, _items

    codes = tuple(range(100, 112))
    for g in range(1, 1 << 12):
        assert _items(g, codes) == tuple(codes[i] for i in _bits(g)), g


@pytest.mark.parametrize("index", range(20))
def test_lanes_extended_by_a_trail_are_the_lanes_made_anew(index: int) -> None:
    """The loose cards in lanes (``_tab``, see ``_make_tab``) are extended by a trail in
    ``apply`` instead of being made again: wherever the state holds lanes for its table, in two
    random games per option set, they are the lanes made from the table anew."""
    from spillebord.games.kasino.rules import _make_tab

    opts = variants()[index]
    checked = 0
    for g in range(2):
        seats = 2 + (index + g) % 3
        s = GAME.new(seats, 300 + 1000 * index + g, KasinoOptions(**opts))
        rng = Rng(3 + g)
        while s.to_act is not None:
            if s._tab[0] is s.loose:  # before legal(), which would make them anew
                assert s._tab[1:] == _make_tab(s.loose, s._hl, s._tm)[1:], (index, g, s.decisions)
                checked += 1
            s.play(rng.choice(s.legal()))
    assert checked > 0 or opts.get("build_base") == "many_cards"


def _hand_info_plainly(ms: tuple[int, ...]) -> tuple[int, tuple[Any, ...]]:
    """``_hand_info`` as rule 8.1.2 reads: each card's others by a loop over the other cards."""
    from spillebord.games.kasino.data import BUILD_VALUES_MASK

    all_vals = 0
    for m in ms:
        all_vals |= m
    info = []
    for i, hb in enumerate(ms):
        others = 0
        for k, m in enumerate(ms):
            if k != i:
                others |= m
        others &= BUILD_VALUES_MASK
        vals = tuple(v for v in range(17) if hb >> v & 1)
        want = hb & others
        for x in vals:
            want |= others >> x
        info.append((vals, hb, others, hb & others, want, vals[0], vals[1] if len(vals) > 1 else 0))
    return (2 << (all_vals.bit_length() - 1)) - 1, tuple(info)


@pytest.mark.parametrize("mode", ["either", "hand_high_table_low"])
def test_hand_info_from_the_cards_parts_is_the_plain_definition(mode: str) -> None:
    """``_hand_info`` puts a new hand shape together from per-card parts (``_CARDS``): every
    hand of 1-3 cards and 3,000 random hands of 4, against the definition by loops."""
    from itertools import combinations

    from spillebord.games.kasino.data import HAND_MASKS
    from spillebord.games.kasino.rules import _HANDS, _hand_info

    hm = HAND_MASKS[mode]
    r = random.Random(8)
    hands = [h for k in (1, 2, 3) for h in combinations(range(52), k)]
    hands += [tuple(sorted(r.sample(range(52), 4))) for _ in range(3000)]
    for hand in hands:
        ms = tuple(hm[c] for c in hand)
        _HANDS.pop(ms, None)  # made anew, not read from the cache
        assert _hand_info(ms) == _hand_info_plainly(ms), hand


@pytest.mark.parametrize("index", range(20))
def test_determinized_for_the_seat_to_act_keeps_the_list_made_anew(index: int) -> None:
    """A sample for the seat to act keeps the legal list of the state it was drawn from (its
    hand and the table are unchanged): at every position of two random games per option set it
    is the list made anew on that sample, in order; samples for other seats make theirs."""
    opts = variants()[index]
    for g in range(2):
        seats = 2 + (index + g) % 3
        s = GAME.new(seats, 500 + 1000 * index + g, KasinoOptions(**opts))
        rng, drng = Rng(5 + g), Rng(6 + g)
        while s.to_act is not None:
            legal = s.legal()
            for seat in range(seats):
                d = s.determinize(seat, drng)
                kept = d._legal
                assert (kept is legal) == (seat == s.to_act), (index, g, s.decisions, seat)
                d._legal = None
                assert d.legal() == legal if seat == s.to_act else kept is None
            s.play(rng.choice(legal))


def test_a_state_with_builds_pickles_and_plays_on_identically() -> None:
    """A state is pickled to the server's bot processes: with builds on the table and a legal
    list cached it comes back equal, with the same list, view and play (on the compiled build
    too, where a native ``BuildPile`` did not unpickle)."""
    import pickle

    from spillebord.core import registry

    game = registry.get("kasino")  # registered: pickled by its id, so the copy holds the same game
    seen = 0
    for seed in range(40):
        s = game.new(2, seed)
        rng = Rng(seed)
        while s.to_act is not None:
            legal = s.legal()
            if s.builds:
                t = pickle.loads(pickle.dumps(s))
                assert t == s and t.builds == s.builds and t.legal() == legal, (seed, s.decisions)
                assert t.view(s.to_act) == s.view(s.to_act)
                a = rng.choice(legal)
                u = s.copy()
                assert t.play(a) == u.play(a) and t == u, (seed, s.decisions)
                seen += 1
                s.play(a)
                continue
            s.play(rng.choice(legal))
    assert seen > 100
