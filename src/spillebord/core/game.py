"""The engine contract: :class:`Game`, :class:`State`, :class:`Action`.

Every game package implements these three; everything else (tables, bots, the server,
the arena, RL environments) speaks only this contract.

Principles
----------
* **Deterministic.** All chance comes from ``state.rng`` (a :class:`~spillebord.core.rng.Rng`).
  ``game.new(seats, seed, options)`` followed by the same action texts gives an equal state.
* **Hidden information.** ``state.view(seat)`` is exactly what ``seat`` may know
  (``seat=None`` is a spectator: public information only). Nothing else ever leaves the server.
  ``state.determinize(seat, rng)`` gives a full state that ``seat`` cannot tell apart from this
  one: what it cannot see is re-dealt, the RNG re-seeded. Bots only ever see such states.
* **Actions are values.** Small frozen dataclasses; ``str(action)`` is the canonical text
  and ``game.parse(state, str(action)) == action``. ``action.to_json()`` names the things on
  the table the action touches, in the ids the view uses, so a client can map clicks to
  actions without knowing a rule.
* **Composite turns are sequences of decisions**: each decision is one action, and the state
  knows its phase. ``state.to_act`` is the one seat that decides now (``None`` when over).
* **Events are public.** ``play`` returns a list of events (JSON-ready dicts with a ``"kind"``
  and, ideally, a human ``"text"``). An event never carries anything hidden from any seat;
  a seat learns its secrets from ``view``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import asdict, is_dataclass
from typing import Any, ClassVar, Generic, TypeVar

from .errors import GameOver, IllegalAction, ParseError
from .rng import Rng

Event = dict[str, Any]
"""A public record of what happened: ``{"kind": "capture", "seat": 1, "text": "…", …}``."""

JSON = dict[str, Any]


class Action:
    """Base of every game's actions: frozen dataclasses with a canonical text form.

    Subclasses define ``__str__`` (the canonical text, no spaces at either end) and
    usually ``to_json`` (the ids on the table it touches). ``label`` is the human text
    the web client and terminal show; it defaults to the canonical text.
    """

    __slots__ = ()

    def to_json(self) -> JSON:
        return {"kind": type(self).__name__.lower(), "text": str(self)}

    def label(self) -> str:
        return str(self)


A = TypeVar("A", bound=Action)
S = TypeVar("S", bound="State[Any]")


class State(ABC, Generic[A]):
    """One position of a game, with everything in it (hidden parts included).

    Subclasses keep their fields in plain attributes (``__slots__`` encouraged) and
    implement the abstract methods. ``copy`` must be cheap: no ``deepcopy``.
    """

    game: Game[Any]
    seats: int
    """Number of seats (players) at this table."""
    _eq_ignore: ClassVar[frozenset[str]] = frozenset()
    """Fields that are caches (e.g. a memoised ``legal()``): left out of equality."""
    to_act: int | None
    """The seat that decides now; ``None`` once the game is over."""
    rng: Rng

    @abstractmethod
    def legal(self) -> Sequence[A]:
        """Every legal action of ``to_act``, complete and sound, in a stable order.

        Empty exactly when the game is over.
        """

    @abstractmethod
    def play(self, action: A) -> list[Event]:
        """Apply ``action`` for ``to_act``.

        Raises :class:`~spillebord.core.errors.IllegalAction` (with a readable reason) on an
        action that is not legal now, leaving the state untouched.
        """

    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """JSON-ready: exactly what ``seat`` may know (``None``: a spectator)."""

    @abstractmethod
    def result(self) -> tuple[float, ...] | None:
        """Per-seat final scores, higher is better (``None`` while the game runs).

        Each game documents what the numbers are (points, or 1/0 for a win); partners share.
        """

    @abstractmethod
    def copy(self: S) -> S:
        """An independent copy (cheap: shallow-copy what is immutable, copy what changes)."""

    @abstractmethod
    def determinize(self: S, seat: int, rng: Rng) -> S:
        """A full state ``seat`` cannot tell apart from this one.

        Everything ``seat`` cannot see is re-dealt at random (consistently with what it
        can see), and the state's own RNG is re-seeded from ``rng``.
        """

    # ----------------------------------------------------------------- conveniences

    @property
    def is_over(self) -> bool:
        return self.to_act is None

    def check(self) -> None:
        """Assert the game's invariants (conservation and the like). Used by the tests.

        Raise ``AssertionError`` with a message when one fails. The default checks nothing.
        """

    def legal_texts(self) -> list[str]:
        return [str(a) for a in self.legal()]

    def _require(self, action: A) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is in ``legal()`` (a safe, generic check)."""
        if self.to_act is None:
            raise GameOver(f"{self.game.title}: the game is over")
        if action not in self.legal():
            raise IllegalAction(f"{self.game.title}: {action} is not a legal action now")

    # Equality compares every field, hidden ones included: two states are equal when
    # they are the same position with the same future (the RNG included).
    def _fields(self) -> dict[str, Any]:
        ignore = self._eq_ignore
        out: dict[str, Any] = {k: v for k, v in getattr(self, "__dict__", {}).items() if k not in ignore}
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if name not in out and name not in ignore and hasattr(self, name):
                    out[name] = getattr(self, name)
        return out

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, State)
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # states are mutable


OptionsT = TypeVar("OptionsT")


class Game(ABC, Generic[OptionsT]):
    """A game: its identity, its options, and a factory for its starting states.

    Subclasses set the class attributes and implement :meth:`new`. Register the one
    instance as ``GAME`` in the game package's ``__init__`` (the registry finds it).
    """

    id: ClassVar[str]
    """Short stable id used in URLs, records and the command line: ``"kasino"``."""
    title: ClassVar[str]
    """Display name: ``"Kasino"``."""
    seats: ClassVar[range]
    """Allowed numbers of players, e.g. ``range(2, 5)``."""
    Options: ClassVar[type[Any]]
    """A frozen dataclass of rule variants; every field has the spec's default."""
    summary: ClassVar[str] = ""
    """One line for lobbies and ``spillebord games``."""
    languages: ClassVar[tuple[str, ...]] = ("en",)
    best_bot: ClassVar[str] = "greedy"
    """The strongest agent name for this game (``--bots all``)."""
    quick_options: ClassVar[dict[str, Any]] = {}
    """Options that make a short game (a lower target, fewer rounds): tests and demos use them."""
    max_decisions: ClassVar[int] = 100_000
    """A bound no game (random play included) ever exceeds; the tests hold games to it."""
    agents: ClassVar[dict[str, Any]] = {}
    """The game's own agents, name → factory(game) (see :mod:`spillebord.ai`)."""

    @abstractmethod
    def new(self, seats: int, seed: int, options: OptionsT | None = None) -> State[Any]:
        """The starting state for ``seats`` players, all chance drawn from ``seed``."""

    def parse(self, state: State[Any], text: str) -> Action:
        """The action whose canonical text is ``text`` (the inverse of ``str(action)``).

        The default looks ``text`` up among ``state.legal()``; a game may override this to
        parse any well-formed action, so that ``play`` can explain why it is illegal.
        """
        text = text.strip()
        if state.to_act is None:
            raise GameOver(f"{self.title}: the game is over")
        actions: Sequence[Action] = state.legal()
        for a in actions:
            if str(a) == text:
                return a
        raise ParseError(f"{self.title}: {text!r} is not a legal action now")

    def evaluate(self, state: State[Any], seat: int) -> float:
        """A fast heuristic value of ``state`` for ``seat`` (higher is better).

        Used by the greedy agent and as a rollout cut-off. The default scores a finished
        game by its result and everything else as 0.
        """
        r = state.result()
        if r is None:
            return 0.0
        return float(r[seat])

    def board_data(self) -> JSON:
        """Static public data a client needs to draw this game (the printed board: a map,
        price lists, card texts), the same for every table. Views then name things by id
        only. The server serves it at ``/api/games/{id}/board``; the default is empty."""
        return {}

    def default_options(self) -> Any:
        return self.Options()

    def options_dict(self, options: Any | None) -> dict[str, Any]:
        opts = options if options is not None else self.default_options()
        assert is_dataclass(opts) and not isinstance(opts, type)
        return asdict(opts)

    def check_seats(self, seats: int) -> None:
        from .errors import OptionError

        if seats not in self.seats:
            raise OptionError(
                f"{self.title} is for {self.seats.start}–{self.seats.stop - 1} players, not {seats}"
            )

    def __repr__(self) -> str:
        return f"<Game {self.id}>"


def action_index(actions: Sequence[Action]) -> Mapping[str, Action]:
    """Text → action, for parsing against a legal list."""
    return {str(a): a for a in actions}
