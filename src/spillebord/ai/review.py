"""Hints and game review: a search's opinion of one seat's decisions, from that seat's view only.

A **hint** is the searching bot's choice with its top alternatives and their estimated chances
of winning. A **review** walks a finished game's record and, at each decision of one seat, asks
the search for its best action and compares it with the one played: the *loss* is the drop in
the seat's estimated chance of winning, and large losses are marked as mistakes and blunders
(the thresholds of :data:`VERDICTS`).

Both are fair by construction: the search samples only from ``state.determinize(seat)``, so
what another seat held never enters an estimate. The comparison of the played and the best
action uses *common random numbers*: both are tried on the same determinizations with the same
playout seeds, so their difference is far less noisy than either estimate on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from spillebord.core import Action, AnyGame, Rng, SpillebordError, State

from .agent import Budget, Valuer
from .registry import bots_for

VERDICTS: tuple[tuple[float, str], ...] = ((0.20, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
"""Loss thresholds (drop in the chance of winning) and their names, largest first; smaller
losses are "good", and the search's own choice is "best"."""


class Analyst(Protocol):
    """A searching agent that can rank every legal action (:class:`~spillebord.ai.ismcts.IsmctsAgent`)."""

    def analyse(
        self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None
    ) -> list[tuple[Action, int, float]]: ...


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One action with the search's estimate of the seat's chance of winning after it."""

    action: str
    chance: float
    visits: int

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "chance": round(self.chance, 4), "visits": self.visits}


@dataclass(frozen=True, slots=True)
class Judgement:
    """The review of one decision."""

    index: int
    """Its position in the record's action list (0-based)."""
    played: str
    best: str
    chance_played: float
    chance_best: float
    loss: float
    """``chance_best - chance_played``, never below 0."""
    verdict: str
    """"forced" (one legal action), "best", "good", "inaccuracy", "mistake" or "blunder"."""
    top: tuple[Suggestion, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "played": self.played,
            "best": self.best,
            "chance_played": round(self.chance_played, 4),
            "chance_best": round(self.chance_best, 4),
            "loss": round(self.loss, 4),
            "verdict": self.verdict,
            "top": [s.to_json() for s in self.top],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Judgement:
        return cls(
            index=int(data["index"]),
            played=str(data["played"]),
            best=str(data["best"]),
            chance_played=float(data["chance_played"]),
            chance_best=float(data["chance_best"]),
            loss=float(data["loss"]),
            verdict=str(data["verdict"]),
            top=tuple(
                Suggestion(str(s["action"]), float(s["chance"]), int(s["visits"])) for s in data["top"]
            ),
        )


def verdict(loss: float, played_is_best: bool) -> str:
    """The name of a decision with this loss (see :data:`VERDICTS`)."""
    if played_is_best:
        return "best"
    for threshold, name in VERDICTS:
        if loss >= threshold:
            return name
    return "good"


def hint(
    analyst: Analyst, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None, top: int = 3
) -> list[Suggestion]:
    """The search's choice first, then its next best, up to ``top`` actions, each with the
    estimated chance of winning; from ``seat``'s knowledge only."""
    ranked = analyst.analyse(state, seat, rng, budget)
    return [Suggestion(str(a), value, visits) for a, visits, value in ranked[:top]]


def hint_analyst(game: AnyGame) -> Analyst:
    """The searcher hints and reviews ask: the game's strongest level when it has one that can
    rank actions, else the generic ISMCTS."""
    from .ismcts import IsmctsAgent
    from .registry import make_agent

    for name in ("level5", "ismcts"):
        try:
            agent = make_agent(name, game)
        except SpillebordError:  # no such agent for this game
            continue
        if hasattr(agent, "analyse"):
            return agent  # type: ignore[return-value]
    return IsmctsAgent(game)


class Playouts:
    """Estimates of a seat's chance of winning after each of some actions, by playouts with the
    game's rollout policy cut off and valued as the search does (common random numbers)."""

    def __init__(self, game: AnyGame) -> None:
        from .ismcts import rank_value  # the search's own valuation, so estimates agree with it

        kit = bots_for(game)
        self.rollout = kit.rollout
        self.cutoff = kit.cutoff
        self.value: Valuer = kit.value or rank_value(kit.evaluate)

    def compare(
        self, state: State[Any], seat: int, actions: Sequence[Action], samples: int, seed: int
    ) -> list[float]:
        """The mean chance of winning for ``seat`` after each action, over ``samples``
        determinizations shared by all actions."""
        totals = [0.0] * len(actions)
        for i in range(samples):
            d = state.determinize(seat, Rng(seed * 1_000_003 + i))
            for k, a in enumerate(actions):
                e = d.copy()
                e.play(a)
                totals[k] += self._playout(e, Rng(seed * 7_919 + i))[seat]
        return [t / samples for t in totals]

    def _playout(self, d: State[Any], rng: Rng) -> Sequence[float]:
        for _ in range(self.cutoff):
            if d.to_act is None:
                break
            if self.rollout is not None:
                a = self.rollout(d, rng)
            else:
                legal = d.legal()
                a = legal[rng.randrange(len(legal))]
            d.play(a)
        out = d.outcome()
        return out if out is not None else self.value(d)


def review_game(
    game: AnyGame,
    states: Sequence[tuple[int, State[Any], Action]],
    seat: int,
    analyst: Analyst,
    budget: Budget,
    samples: int = 32,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> list[Judgement]:
    """Judge ``seat``'s decisions: ``states`` holds (record index, state before, action played)
    for each of them, in order. ``progress(done, total)`` is called after each."""
    playouts = Playouts(game)
    out: list[Judgement] = []
    for n, (index, state, played) in enumerate(states):
        legal = state.legal()
        if len(legal) == 1:
            p = str(played)
            out.append(Judgement(index, p, p, 0.0, 0.0, 0.0, "forced", ()))
        else:
            rng = Rng(seed * 1_000_033 + index)
            ranked = analyst.analyse(state, seat, rng, budget)
            best = ranked[0][0]
            top = tuple(Suggestion(str(a), v, visits) for a, visits, v in ranked[:3])
            if best == played:
                chance = ranked[0][2]
                out.append(Judgement(index, str(played), str(best), chance, chance, 0.0, "best", top))
            else:
                c_best, c_played = playouts.compare(state, seat, [best, played], samples, seed + index)
                loss = max(0.0, c_best - c_played)
                out.append(
                    Judgement(
                        index, str(played), str(best), c_played, c_best, loss, verdict(loss, False), top
                    )
                )
        if progress is not None:
            progress(n + 1, len(states))
    return out


def positions(
    game: AnyGame, seats: int, seed: int, options: Any, actions: Sequence[tuple[int, str]], seat: int
) -> list[tuple[int, State[Any], Action]]:
    """Replay a record's ``(seat, action text)`` list and keep, for each decision of ``seat``,
    (its index, a copy of the state before it, the action played)."""
    state = game.new(seats, seed, options)
    out: list[tuple[int, State[Any], Action]] = []
    for i, (s, text) in enumerate(actions):
        action = game.parse(state, text)
        if s == seat:
            out.append((i, state.copy(), action))
        state.play(action)
    return out
