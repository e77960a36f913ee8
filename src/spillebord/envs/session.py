"""One game being played token by token: what every adapter (PettingZoo, Gymnasium, OpenSpiel)
drives. It holds the true state; observations come from a seat's view only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from spillebord.core import AnyGame, Event, State, registry
from spillebord.core.options import build as build_options

from .observe import Array, Observer
from .tokens import Decision, Vocabulary, vocabulary

Mask = npt.NDArray[np.int8]


class Spec:
    """A game, its seat count and options, with its vocabulary and observer (made once)."""

    __slots__ = ("game", "observer", "options", "seats", "vocab")

    def __init__(self, game_id: str, seats: int | None = None, options: Mapping[str, Any] | None = None):
        game = registry.get(game_id)
        self.game: AnyGame = game
        self.seats = seats if seats is not None else game.seats.start
        game.check_seats(self.seats)
        self.options: Any = build_options(game.Options, dict(options or {}))
        game.new(seats=self.seats, seed=0, options=self.options)  # refuses a bad seat count early
        self.vocab: Vocabulary = vocabulary(game.id)
        self.observer = Observer(game, self.seats, len(self.vocab), self.options)

    @property
    def num_actions(self) -> int:
        return len(self.vocab)

    @property
    def obs_size(self) -> int:
        return self.observer.size


class Session:
    """A game in progress: the state and the decision (trie of token paths) of the seat to act."""

    __slots__ = ("decision", "spec", "state")

    def __init__(self, spec: Spec, seed: int) -> None:
        self.spec = spec
        self.state: State[Any] = spec.game.new(seats=spec.seats, seed=seed, options=spec.options)
        self.decision: Decision | None = None
        self._new_decision()

    def _new_decision(self) -> None:
        s = self.state
        self.decision = None if s.to_act is None else Decision(self.spec.vocab, s.legal())

    @property
    def to_act(self) -> int | None:
        return self.state.to_act

    def mask(self) -> Mask:
        """The int8 mask of the tokens the seat to act may choose (all zeros when over)."""
        m = np.zeros(self.spec.num_actions, dtype=np.int8)
        if self.decision is not None:
            m[self.decision.choices()] = 1
        return m

    def legal_tokens(self) -> list[int]:
        return [] if self.decision is None else self.decision.choices()

    def step(self, token: int) -> list[Event] | None:
        """Choose one token for the seat to act; the events when it completed an action."""
        d = self.decision
        if d is None:
            raise ValueError("the game is over")
        action = d.choose(int(token))
        if action is None:
            return None
        events = self.state.play(action)
        self._new_decision()
        return events

    def observe(self, seat: int) -> Array:
        """``seat``'s observation (its view; the token path so far when it is deciding)."""
        d = self.decision
        prefix = d.prefix if d is not None and self.state.to_act == seat else ()
        return self.spec.observer.encode(self.state.view(seat), seat, prefix)

    def copy(self) -> Session:
        """An independent copy (the state copied, the decision replayed)."""
        new = Session.__new__(Session)
        new.spec, new.state = self.spec, self.state.copy()
        new._replay(self.decision)
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Session:
        # OpenSpiel clones a python state by deep-copying its attributes: copy the game state
        # cheaply and share the (immutable) spec, vocabulary and observer.
        return self.copy()

    def _replay(self, decision: Decision | None) -> None:
        self._new_decision()
        if decision is not None and self.decision is not None:
            for t in decision.chosen:
                if self.decision.choose(t) is not None:
                    raise AssertionError("a replayed prefix completed an action")

    def resampled(self, seat: int, seed: int) -> Session:
        """A session ``seat`` cannot tell apart from this one: the state determinized from
        ``seat``'s knowledge, the current token path kept (for ISMCTS)."""
        from spillebord.core import Rng

        new = Session.__new__(Session)
        new.spec = self.spec
        new.state = self.state.determinize(seat, Rng(seed))
        new._replay(self.decision)
        return new
