"""Helpers for testing games and bots (and the one match loop everything else uses).

* :func:`play` applies action texts; :func:`refused` asserts an action is refused and
  changes nothing;
* :func:`random_walk` plays a seeded random game, checking invariants as it goes;
* :func:`legal_counts` counts positions reachable in ``depth`` decisions ("perft");
* :func:`play_match` plays one game between agents, fairly (every agent decides through
  :func:`spillebord.ai.decide`), and returns its outcome and record.

No pytest import here: these are plain functions that raise ``AssertionError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from spillebord.ai import Agent, Budget, decide, make_agent
from spillebord.core import AnyGame, Event, IllegalAction, Rng, State, registry
from spillebord.core.options import build as build_options


def play(state: State[Any], *texts: str) -> list[Event]:
    """Parse and apply each action text in turn; all the events, in order."""
    events: list[Event] = []
    for text in texts:
        events += state.play(state.game.parse(state, text))
    return events


def refused(state: State[Any], text: str, match: str | None = None) -> IllegalAction:
    """Assert that ``text`` is refused now (parse or play raises :class:`IllegalAction`, with
    ``match`` in its message if given) and that the state is left exactly as it was."""
    before = state.copy()
    try:
        state.play(state.game.parse(state, text))
    except IllegalAction as e:
        if match is not None and match not in str(e):
            raise AssertionError(f"{text!r} was refused, but with {str(e)!r} (expected {match!r})") from e
        if state != before:
            raise AssertionError(f"refusing {text!r} changed the state") from e
        return e
    raise AssertionError(f"{text!r} was accepted; it should have been refused")


def new_state(
    game: AnyGame | str, seats: int, seed: int = 0, options: Mapping[str, Any] | None = None
) -> State[Any]:
    """A starting state from loose options (``KEY: value``)."""
    g = registry.get(game) if isinstance(game, str) else game
    state: State[Any] = g.new(seats, seed, build_options(g.Options, options or {}))
    return state


def random_walk(
    game: AnyGame | str,
    seats: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    check: bool = True,
    steps: int | None = None,
) -> Iterator[State[Any]]:
    """Yield the state before every decision of a seeded random game (and once at the end),
    checking ``check()`` invariants at each; at most ``steps`` decisions. The yielded state
    is the live one: copy it to keep it."""
    state = new_state(game, seats, seed, options)
    rng = Rng(seed ^ 0xA11CE)
    n = 0
    while True:
        if check:
            state.check()
        yield state
        if state.to_act is None or (steps is not None and n >= steps):
            return
        state.play(rng.choice(state.legal()))
        n += 1


def final_state(
    game: AnyGame | str,
    seats: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    check: bool = True,
) -> State[Any]:
    """The last state of :func:`random_walk`."""
    walk = random_walk(game, seats, seed, options, check=check)
    last = next(walk)
    for last in walk:  # noqa: B007  (the walk's last state is the point)
        pass
    return last


def legal_counts(state: State[Any], depth: int) -> int:
    """The number of decision sequences of length ``depth`` from ``state`` ("perft"); a
    finished game counts once."""
    if depth == 0 or state.to_act is None:
        return 1
    total = 0
    for a in state.legal():
        s = state.copy()
        s.play(a)
        total += legal_counts(s, depth - 1)
    return total


@dataclass
class Match:
    """One finished game between agents."""

    game: str
    seats: int
    seed: int
    options: dict[str, Any]
    players: list[str]
    outcome: tuple[float, ...]
    """Normalized (1 win, 0 loss, shares for draws and teams)."""
    scores: tuple[float, ...]
    """The game's own scores."""
    decisions: int
    truncated: bool
    actions: list[tuple[int, str]] = field(default_factory=list)

    def record(self, engine: int) -> dict[str, Any]:
        """A replayable game record (``spillebord replay``)."""
        from spillebord.tables import RECORD_FORMAT, RECORD_VERSION

        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "engine": engine,
            "seats": self.seats,
            "seed": self.seed,
            "options": self.options,
            "players": self.players,
            "actions": [{"seat": s, "action": a} for s, a in self.actions],
            "outcome": list(self.outcome),
            "scores": list(self.scores),
            "truncated": self.truncated,
        }


def play_match(
    game: AnyGame | str,
    agents: Sequence[Agent | str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    budget: Budget | None = None,
    budgets: Sequence[Budget | None] | None = None,
    agent_seed: int | None = None,
    on_decision: Callable[[State[Any]], None] | None = None,
) -> Match:
    """Play one game, one agent per seat (``len(agents)`` seats), every decision through
    :func:`spillebord.ai.decide` (so every agent sees only its own seat's knowledge).

    The deal comes from ``seed``, the agents' randomness from ``agent_seed`` (default: derived
    from ``seed``), so the same arguments give the same game where budgets are iterations.
    ``budget`` is every seat's thinking budget, ``budgets`` one per seat.
    """
    from spillebord.core.options import to_dict

    g = registry.get(game) if isinstance(game, str) else game
    bots = [make_agent(a, g) if isinstance(a, str) else a for a in agents]
    opts = build_options(g.Options, options or {})
    state = g.new(len(bots), seed, opts)
    rng = Rng(agent_seed if agent_seed is not None else seed ^ 0xB075)
    log: list[tuple[int, str]] = []
    while state.to_act is not None:
        if on_decision is not None:
            on_decision(state)
        seat = state.to_act
        action = decide(bots[seat], state, rng, budgets[seat] if budgets is not None else budget)
        state.play(action)
        log.append((seat, str(action)))
    outcome = state.outcome()
    assert outcome is not None
    return Match(
        game=g.id,
        seats=len(bots),
        seed=seed,
        options=to_dict(opts),
        players=[b.name for b in bots],
        outcome=outcome,
        scores=state.scores(),
        decisions=state.decisions,
        truncated=state.truncated,
        actions=log,
    )


class OnlyWhatTheSeatSees:
    """A state that answers ``legal()`` and ``determinize(seat)`` and nothing else: hand it to
    a hint or an analysis to check that it reads the true state only through those two (any
    other attribute fails the test that uses it)."""

    def __init__(self, state: State[Any], seat: int) -> None:
        self._state, self._seat = state, seat
        self.calls: set[str] = set()

    def legal(self) -> Any:
        self.calls.add("legal")
        return self._state.legal()

    def determinize(self, seat: int, rng: Rng) -> Any:
        assert seat == self._seat, "the search sampled another seat's knowledge"
        self.calls.add("determinize")
        return self._state.determinize(seat, rng)

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the analysis read state.{name} of the true state")


__all__ = [
    "Match",
    "OnlyWhatTheSeatSees",
    "final_state",
    "legal_counts",
    "new_state",
    "play",
    "play_match",
    "random_walk",
    "refused",
]
