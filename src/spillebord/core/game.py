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
* **Every game ends.** ``state.decisions`` counts the decisions played; a game that reaches
  its declared bound (``game.kind.max_decisions``) stops there with ``state.truncated`` set, and
  its outcome is the ranking by the game's own scores.
* **Outcomes are normalized.** ``state.outcome()`` is, per seat, 1 for a win, 0 for a loss and
  a share for a draw: the winning side (a seat, or a team) gets 1 for each of its seats; when
  ``k`` sides tie for first, each of their seats gets ``1/k``. ``state.scores()`` are the
  game's own numbers (points, wealth, pegs), higher is better.
* **Events are public.** ``play`` returns a list of events (JSON-ready dicts with a ``"kind"``
  and, ideally, a human ``"text"``). An event never carries anything hidden from any seat;
  a seat learns its secrets from ``view``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, is_dataclass
from typing import Any, ClassVar, Generic, TypeVar

from typing_extensions import TypeVar as DefaultTypeVar

from .errors import GameOver, IllegalAction, ParseError
from .rng import Rng

Event = dict[str, Any]
"""A public record of what happened: ``{"kind": "capture", "seat": 1, "text": "…", …}``."""

JSON = dict[str, Any]

Teams = tuple[tuple[int, ...], ...]
"""Sides of a game, each a tuple of seats: ``((0, 2), (1, 3))`` for two partnerships."""


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


@dataclass(frozen=True, slots=True)
class GameKind:
    """What a game is, for code that must not guess (OpenSpiel's ``GameType``, in our words).

    Generic code (tables, the server, bots, the arena, RL adapters) reads these facts and
    nothing else about a game's nature.
    """

    hidden_information: bool
    """Some seat cannot see part of the state (hands, face-down cards, sealed bids)."""
    chance: bool
    """The state's RNG draws during play (dice, shuffles, deals): the same actions from a
    different seed lead elsewhere."""
    public_actions: bool
    """Action texts never carry a secret, so every seat may be told them. When ``False`` a
    seat learns others' actions only from the events (which are public by contract)."""
    max_decisions: int
    """The decision bound: a game that has not ended after this many decisions stops,
    truncated (see :attr:`State.truncated`). No ordinary game comes near it."""
    secret_choices: bool = False
    """Some decisions are secret choices that others answer without seeing them (sealed bids,
    a card passed face down): a search bot should treat those nodes as simultaneous moves."""


def rank_outcome(scores: Sequence[float], teams: Teams) -> tuple[float, ...]:
    """The normalized outcome of a ranking by ``scores``: each side scores the best of its
    seats' scores; the best side's seats get 1 and the others 0; ``k`` sides tied for first
    get ``1/k`` each (per seat)."""
    return win_outcome(_best_sides(scores, teams), teams, len(scores))


def _best_sides(scores: Sequence[float], teams: Teams) -> list[int]:
    side_scores = [max(scores[s] for s in side) for side in teams]
    top = max(side_scores)
    return [i for i, v in enumerate(side_scores) if v == top]


def win_outcome(winning_sides: Sequence[int], teams: Teams, seats: int) -> tuple[float, ...]:
    """The normalized outcome when the sides ``winning_sides`` (indices into ``teams``) share
    the win: ``1/k`` for each seat of the ``k`` winning sides, 0 for every other seat."""
    out = [0.0] * seats
    if winning_sides:
        share = 1.0 / len(winning_sides)
        for i in winning_sides:
            for seat in teams[i]:
                out[seat] = share
    return tuple(out)


A = TypeVar("A", bound=Action)
S = TypeVar("S", bound="State[Any]")


def truncated_event(decisions: int) -> Event:
    """The event of a game stopped at its decision bound (see :meth:`State.play`)."""
    return {
        "kind": "truncated",
        "decisions": decisions,
        "text": f"stopped at the bound of {decisions:,} decisions; ranked by score",
    }


class State(ABC, Generic[A]):
    """One position of a game, with everything in it (hidden parts included).

    A game's state class declares its fields once, as annotations, and is decorated with
    :func:`spillebord.core.fields.state`, which derives ``__slots__``, ``copy`` and equality
    from them. It implements :meth:`legal`, :meth:`apply`, :meth:`view`, :meth:`scores` and
    :meth:`determinize` (and :meth:`final_outcome` where the winner is not simply the best score).
    """

    __slots__ = ("decisions", "game", "rng", "seats", "to_act", "truncated")

    game: Game[Any, Any]
    seats: int
    """Number of seats (players) at this table."""
    to_act: int | None
    """The seat that decides now; ``None`` once the game is over (ended or truncated)."""
    rng: Rng
    decisions: int
    """Decisions played so far (every :meth:`play`)."""
    truncated: bool
    """The game was stopped at its decision bound instead of ending by the rules."""
    _eq_ignore: ClassVar[frozenset[str]] = frozenset()
    """Fields that are caches (e.g. a memoised ``legal()``): left out of equality."""

    def start(self, game: Game[Any, Any], seats: int, rng: Rng) -> None:
        """Set the fields every state has (call first in ``Game.new``)."""
        self.game, self.seats, self.rng = game, seats, rng
        self.decisions, self.truncated = 0, False

    @abstractmethod
    def legal(self) -> Sequence[A]:
        """Every legal action of ``to_act``, complete and sound, in a stable order.

        Empty exactly when the game is over (``to_act is None``).
        """

    @abstractmethod
    def apply(self, action: A) -> list[Event]:
        """The game's own rules for one decision: apply ``action`` for ``to_act``.

        Raises :class:`~spillebord.core.errors.IllegalAction` (with a readable reason) on an
        action that is not legal now, leaving the state untouched. Callers use :meth:`play`.
        """

    def play(self, action: A) -> list[Event]:
        """Apply ``action`` for ``to_act`` and count the decision; at the decision bound the
        game stops, truncated (with a ``"truncated"`` event)."""
        events = self.apply(action)
        self.decisions += 1
        if self.decisions >= self.game.kind.max_decisions and self.to_act is not None:
            self.to_act = None
            self.truncated = True
            events.append(truncated_event(self.decisions))
        return events

    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """JSON-ready: exactly what ``seat`` may know (``None``: a spectator)."""

    @abstractmethod
    def scores(self) -> tuple[float, ...]:
        """The game's own score per seat now (points, wealth, pegs…; higher is better).

        Defined at any time; it ranks a truncated game. Each game documents its numbers.
        """

    def teams(self) -> Teams:
        """The sides at this table (partnerships), each a tuple of seats. Default: every seat
        plays for itself."""
        return self.game.teams(self.seats)

    def final_outcome(self) -> tuple[float, ...]:
        """The normalized outcome of a game that ended by its rules (see :meth:`outcome`).

        The default ranks by :meth:`scores` (the best side wins, ties share); a game whose
        winner is decided otherwise (first to complete a series) overrides this.
        """
        return rank_outcome(self.scores(), self.teams())

    def outcome(self) -> tuple[float, ...] | None:
        """Per seat: 1 win, 0 loss, ``1/k`` when ``k`` sides share first place; every seat of
        a side gets its side's value. ``None`` while the game runs. A truncated game is
        ranked by :meth:`scores`."""
        if self.to_act is not None:
            return None
        if self.truncated:
            return rank_outcome(self.scores(), self.teams())
        return self.final_outcome()

    def copy(self: S) -> S:
        """An independent copy (cheap: shallow-copy what is immutable, copy what changes).

        Derived by :func:`spillebord.core.fields.state` from the declared fields."""
        raise NotImplementedError(f"{type(self).__name__}: declare the state with @state")

    @abstractmethod
    def determinize(self: S, seat: int, rng: Rng) -> S:
        """A full state ``seat`` cannot tell apart from this one.

        Everything ``seat`` cannot see is re-dealt at random (consistently with what it
        can see), and the state's own RNG is re-seeded from ``rng``.
        """

    def reversible(self, action: A) -> bool:
        """Whether ``action``, played now, could be taken back (an undo inside a turn).

        ``True`` only if playing it draws no chance (the RNG is not touched) and reveals
        nothing hidden to anyone (no card turned, no secret shown). Whether the same seat then
        acts again (undo never reaches into another seat's turn) is for the caller to check.
        Optional: the default says no action is reversible; a game opts in for the decisions
        its rules let a player reconsider (Fuldrigger's square-by-square sailing). Not a hot
        path: called once per action a table applies for a person.
        """
        return False

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
            for name in cls.__dict__.get("__slots__", ()):
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
StateT = DefaultTypeVar("StateT", bound=State[Any], default=State[Any])
"""A game's state class (``Game[Options]`` alone means any state)."""


class Game(ABC, Generic[OptionsT, StateT]):
    """A game: its identity, its nature, its options, and a factory for its starting states.

    Subclasses set the class attributes and implement :meth:`new`. Register the one
    instance as ``GAME`` in the game package's ``__init__`` (the registry finds it).
    """

    id: ClassVar[str]
    """Short stable id used in URLs, records and the command line: ``"kasino"``."""
    title: ClassVar[str]
    """Display name: ``"Kasino"``."""
    seats: ClassVar[range]
    """Allowed numbers of players, e.g. ``range(2, 5)``."""
    kind: ClassVar[GameKind]
    """What the game is: hidden information, chance, public actions, its decision bound."""
    version: ClassVar[int] = 1
    """The engine version: raised whenever the same seed, options and action texts can lead
    to a different game (RNG draw order, legal order, notation). Records carry it; a record
    of another version is refused rather than replayed wrongly."""
    Options: ClassVar[type[Any]]
    """A frozen dataclass of rule variants; every field has the spec's default."""
    summary: ClassVar[str] = ""
    """One line for lobbies and ``spillebord games``."""
    languages: ClassVar[tuple[str, ...]] = ("en",)
    quick_options: ClassVar[Mapping[str, Any]] = {}
    """Options that make a short game (a lower target, fewer rounds): tests and demos use them."""

    @property
    def max_decisions(self) -> int:
        """The decision bound (``kind.max_decisions``)."""
        return self.kind.max_decisions

    @abstractmethod
    def new(self, seats: int, seed: int, options: OptionsT | None = None) -> StateT:
        """The starting state for ``seats`` players, all chance drawn from ``seed``."""

    def teams(self, seats: int, options: OptionsT | None = None) -> Teams:
        """The sides for ``seats`` players (partnerships). Default: every seat for itself."""
        return tuple((s,) for s in range(seats))

    def parse(self, state: StateT, text: str) -> Action:
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

    def board_data(self) -> JSON:
        """Static public data a client needs to draw this game (the printed board: a map,
        price lists, card texts), the same for every table. Views then name things by id
        only. The server serves it at ``/api/games/{id}/board``; the default is empty."""
        return {}

    def default_options(self) -> OptionsT:
        return self.Options()  # type: ignore[no-any-return]

    def options_dict(self, options: OptionsT | None) -> dict[str, Any]:
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


AnyGame = Game[Any, Any]
"""A game of any options and state (what generic code holds)."""


def action_index(actions: Sequence[Action]) -> Mapping[str, Action]:
    """Text → action, for parsing against a legal list."""
    return {str(a): a for a in actions}
