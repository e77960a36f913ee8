"""The fixed action space: every action as a path of tokens (no numpy, no I/O).

One encoding for all seven games. An action's canonical text (``str(action)``) is split into
*words* (runs of letters and digits) and *separators* (any other single character, e.g. ``+``
and ``,`` in Kasino's ``9H take 3S+6D,2C+7D``); whitespace only separates. Each word that is in
the game's vocabulary is one token; any other word (a sum of ducats nobody has offered before)
is *spelled*: one spelling token per character, then the end-of-word token. Every path ends with
the end-of-action token. The vocabulary of a game is fixed (``vocab/<game>.txt``, then the 62
spelling tokens, the printable separators and the two end tokens), so the action space is
``Discrete(len(vocabulary))`` for every seat count and option.

At a decision the legal actions form a trie of token paths. The environment asks the agent for
one token at a time (the mask is the current node's children) and plays the action when its
path is complete. Tokens that are forced (a node with one child) are taken without asking,
except that every decision asks at least once: a seat with one legal action still chooses it.
Because tokenization is deterministic and the paths end with the end token, every legal action
has exactly one path, and a path leads to exactly one action (:class:`TokenCollision` otherwise).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources
from typing import Any

from spillebord.core import Action, AnyGame, SpillebordError

END = "<end>"
"""Ends every action's path."""
END_WORD = "<word>"
"""Ends a spelled word."""
SPELL_PREFIX = "~"
"""Spelling tokens are ``~a`` … ``~Z``, ``~0`` … ``~9`` (distinct from one-letter words)."""
ALNUM = string.digits + string.ascii_letters
SEPARATORS = "".join(c for c in string.punctuation)

_SPLIT = re.compile(r"[A-Za-z0-9]+|[^\sA-Za-z0-9]")


class TokenCollision(SpillebordError):
    """Two legal actions have the same token path (a notation the encoding cannot tell apart)."""


class Vocabulary:
    """A game's fixed tokens: its words, the one-character words, separators, spelling, ends."""

    __slots__ = ("_acache", "_cache", "game_id", "index", "tokens", "words")

    def __init__(self, game_id: str, words: Iterable[str]) -> None:
        self.game_id = game_id
        own = sorted({w for w in words if len(w) > 1}, key=lambda w: (len(w), w))
        self.words: tuple[str, ...] = tuple(own)
        tokens = [END, END_WORD, *ALNUM, *SEPARATORS, *(SPELL_PREFIX + c for c in ALNUM), *own]
        self.tokens: tuple[str, ...] = tuple(tokens)
        self.index: dict[str, int] = {t: i for i, t in enumerate(tokens)}
        self._cache: dict[str, tuple[int, ...]] = {}
        self._acache: dict[Action, tuple[int, ...]] = {}

    def encode_action(self, action: Action) -> tuple[int, ...]:
        """The token path of an action (memoised by the action value: no text formatting)."""
        try:
            return self._acache[action]
        except KeyError:
            path = self._acache[action] = self.encode(str(action))
            if len(self._acache) > 200_000:
                self._acache.clear()
            return path
        except TypeError:  # an action that is not hashable
            return self.encode(str(action))

    def __len__(self) -> int:
        return len(self.tokens)

    def encode(self, text: str) -> tuple[int, ...]:
        """The token path of an action text (memoised: a game has few distinct texts)."""
        path = self._cache.get(text)
        if path is None:
            index = self.index
            out: list[int] = []
            for piece in _SPLIT.findall(text):
                i = index.get(piece)
                if i is not None and piece not in (END, END_WORD):
                    out.append(i)
                else:
                    out.extend(index[SPELL_PREFIX + c] for c in piece)
                    out.append(index[END_WORD])
            out.append(index[END])
            path = tuple(out)
            if len(self._cache) < 200_000:
                self._cache[text] = path
        return path

    def decode(self, path: Sequence[int]) -> str:
        """A readable text of a (partial) path: words separated by spaces, spelled words joined."""
        parts: list[str] = []
        spelled: list[str] = []
        for i in path:
            t = self.tokens[i]
            if t.startswith(SPELL_PREFIX) and len(t) == 2:
                spelled.append(t[1])
            elif t == END_WORD:
                parts.append("".join(spelled))
                spelled = []
            elif t != END:
                parts.append(t)
        if spelled:
            parts.append("".join(spelled) + "…")
        return " ".join(parts)


@cache
def vocabulary(game_id: str) -> Vocabulary:
    """The fixed vocabulary of a game (its word list ships in ``spillebord/envs/vocab``)."""
    try:
        text = resources.files("spillebord.envs").joinpath("vocab", f"{game_id}.txt").read_text("utf-8")
    except FileNotFoundError:
        text = ""
    words = [w for w in text.split() if not w.startswith("#")]
    return Vocabulary(game_id, words)


Node = dict[int, Any]
"""A trie node: token → child node, or ``END`` → the action."""


class Decision:
    """The legal actions of one decision as a trie of token paths, and where the agent is in it."""

    __slots__ = ("actions", "chosen", "end", "node", "prefix", "root")

    def __init__(self, vocab: Vocabulary, actions: Sequence[Action]) -> None:
        end = vocab.index[END]
        root: Node = {}
        for a in actions:
            path = vocab.encode_action(a)
            node = root
            for t in path[:-1]:
                nxt = node.get(t)
                if nxt is None:
                    nxt = node[t] = {}
                node = nxt
            if end in node:
                raise TokenCollision(f"{vocab.game_id}: {node[end]} and {a} have the same token path")
            node[end] = a
        self.actions = actions
        self.end = end
        self.root = root
        self.node: Node = root
        self.prefix: list[int] = []
        """The tokens of the path so far, forced ones included."""
        self.chosen: list[int] = []
        """The tokens the agent chose (what a copy replays)."""
        self._advance(first=True)

    def _advance(self, first: bool) -> Action | None:
        """Take forced tokens; at the start of a decision stop before completing an action."""
        node, end = self.node, self.end
        while len(node) == 1:
            (t,) = node
            if t == end:
                if first:
                    break
                self.prefix.append(t)
                action: Action = node[t]
                return action
            self.prefix.append(t)
            node = node[t]
        self.node = node
        return None

    def choices(self) -> list[int]:
        """The tokens the agent may choose now (the mask's ones), in increasing order."""
        return sorted(self.node)

    def choose(self, token: int) -> Action | None:
        """Follow ``token``; the action when its path is complete, else ``None``."""
        node = self.node
        if token not in node:
            raise KeyError(token)
        self.prefix.append(token)
        self.chosen.append(token)
        if token == self.end:
            action: Action = node[token]
            return action
        self.node = node[token]
        return self._advance(first=False)


def path_of(vocab: Vocabulary, action: Action) -> tuple[int, ...]:
    """The full token path of an action (forced tokens included)."""
    return vocab.encode(str(action))


def harvest(game: AnyGame, games: int, seed: int = 0) -> set[str]:
    """The multi-character words of the action texts met in random games of ``game`` (every
    seat count, default and quick options): what ``python -m spillebord.envs.vocab`` writes."""
    from spillebord.core import Rng

    words: set[str] = set()
    rng = Rng(seed)
    counts = [n for n in game.seats if _seats_ok(game, n)]
    for i in range(games):
        seats = counts[i % len(counts)]
        opts = game.Options() if i % 4 == 3 else game.Options(**game.quick_options)
        state = game.new(seats=seats, seed=seed * 100_003 + i, options=opts)
        while state.to_act is not None:
            legal = state.legal()
            for a in legal:
                words.update(
                    w for w in _SPLIT.findall(str(a)) if len(w) > 1 and not (w.isdigit() and len(w) > 3)
                )
            state.play(legal[rng.randrange(len(legal))])
    return words


def _seats_ok(game: AnyGame, seats: int) -> bool:
    try:
        game.new(seats=seats, seed=0)
    except SpillebordError:
        return False
    return True
