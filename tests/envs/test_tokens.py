"""The fixed action space: every legal action has exactly one token path, and back."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from spillebord.core import Rng, registry
from spillebord.envs.session import Session, Spec
from spillebord.envs.tokens import END, END_WORD, Decision, Vocabulary, vocabulary

GAMES = [g.id for g in registry.all_games() if type(g).__module__.startswith("spillebord.games.")]


def _position(game_id: str, seats_i: int, seed: int, steps: int, quick: bool) -> Session:
    game = registry.get(game_id)
    counts = [n for n in game.seats if n in (2, 3, 4)]
    seats = counts[seats_i % len(counts)]
    spec = Spec(game_id, seats, dict(game.quick_options) if quick else None)
    s = Session(spec, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if s.to_act is None:
            break
        s.step(rng.choice(s.legal_tokens()))
    return s


def test_seven_games() -> None:
    assert sorted(GAMES) == sorted(["metscri", "88", "touche", "revir", "partners", "kasino", "fuldrigger"])
    # (the list is the games shipped with Spillebord, whatever else a test has registered)


@pytest.mark.parametrize("game_id", GAMES)
@given(seats_i=st.integers(0, 2), seed=st.integers(0, 2**32), steps=st.integers(0, 300), quick=st.booleans())
def test_round_trip(game_id: str, seats_i: int, seed: int, steps: int, quick: bool) -> None:
    """Every legal action has one path; following that path (asking only where the trie
    branches) plays exactly that action; the mask is the trie node's children."""
    s = _position(game_id, seats_i, seed, steps, quick)
    if s.to_act is None:
        return
    vocab = s.spec.vocab
    legal = s.state.legal()
    paths = [vocab.encode(str(a)) for a in legal]
    assert len(set(paths)) == len(paths)
    assert all(0 <= t < len(vocab) for p in paths for t in p)
    for a, path in zip(legal, paths, strict=True):
        d = Decision(vocab, legal)
        got = None
        while got is None:
            pos = len(d.prefix)
            assert path[:pos] == tuple(d.prefix)
            mask = np.zeros(len(vocab), dtype=np.int8)
            mask[d.choices()] = 1
            assert mask[path[pos]] == 1
            got = d.choose(path[pos])
        assert got == a
        assert tuple(d.prefix) == path


def test_decision_asks_at_least_once_and_skips_forced_tokens() -> None:
    vocab = vocabulary("kasino")
    spec = Spec("kasino", 2)
    state = spec.game.new(seats=2, seed=3)
    legal = state.legal()
    d = Decision(vocab, legal[:1])
    assert d.choices() == [vocab.index[END]]  # one action: the seat still chooses it
    assert d.choose(vocab.index[END]) == legal[0]


def test_unknown_words_are_spelled() -> None:
    """A word outside the vocabulary (an offer of 1234 ducats) is spelled and ends with the
    end-of-word token: still one path, still told apart from its neighbours."""
    v = Vocabulary("x", ["give", "12"])
    a, b = v.encode("give 1234"), v.encode("give 12 34")
    assert a != b
    assert a == (v.index["give"], *(v.index["~" + c] for c in "1234"), v.index[END_WORD], v.index[END])
    assert b == (
        v.index["give"],
        v.index["12"],
        *(v.index["~" + c] for c in "34"),
        v.index[END_WORD],
        v.index[END],
    )
    assert v.decode(a) == "give 1234"


@pytest.mark.parametrize("game_id", GAMES)
def test_action_space_fixed_across_seats_and_options(game_id: str) -> None:
    game = registry.get(game_id)
    sizes = {Spec(game_id, n, dict(game.quick_options)).num_actions for n in list(game.seats)[:3] if n != 5}
    assert sizes == {len(vocabulary(game_id))}


@pytest.mark.parametrize("game_id", GAMES)
@given(seats_i=st.integers(0, 2), seed=st.integers(0, 2**32), steps=st.integers(0, 400), quick=st.booleans())
def test_legal_actions_are_distinct(game_id: str, seats_i: int, seed: int, steps: int, quick: bool) -> None:
    """Each legal action once (the trie needs it; a random bot would weight a duplicate twice)."""
    s = _position(game_id, seats_i, seed, steps, quick)
    texts = s.state.legal_texts()
    assert len(set(texts)) == len(texts)
