"""The arena: tournaments between bots, with scores, intervals, ratings and a sequential test.

    from spillebord.arena import Tournament, BotSpec, run
    report = run(Tournament("kasino", (BotSpec("greedy"), BotSpec("random")), games=200), workers=2)
    print(report.bots["greedy"].score, report.bots["greedy"].interval)

Fair by construction: every decision goes through :func:`spillebord.ai.decide` (the bot's own
seat's determinization); seats rotate and deals are played in duplicate (see
:mod:`spillebord.arena.schedule`); partnerships are played by one bot. With iteration budgets
(or bots that use none) the same seed gives the same results on one core, a process pool or a
Ray cluster: results are always combined in schedule order, whatever order they finish in.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spillebord.ai import Agent
from spillebord.core import AnyGame, registry
from spillebord.core.errors import SpillebordError
from spillebord.core.options import build as build_options
from spillebord.core.options import to_dict as options_to_dict

from .files import RESULTS_FORMAT, is_blind
from .play import Job, batches, drive, play_one, play_streamed, stream_to
from .schedule import ArenaError, BotSpec, GameSpec, budget_text, parse_budget, schedule
from .stats import Scored, SprtResult, deal_interval, deal_split, sprt

if TYPE_CHECKING:
    from concurrent.futures import Future


@dataclass(frozen=True, slots=True)
class Sequential:
    """Stop a pairing as soon as "the first bot is stronger than the second" is decided:
    H1 "it scores ``0.5 + margin``" against H0 "it scores 0.5" (with ``k`` sides: ``1/k``),
    at ``confidence`` (both error rates ``1 - confidence``)."""

    confidence: float = 0.95
    margin: float = 0.05


@dataclass(frozen=True)
class Tournament:
    """What to play: a round robin of every pair of ``bots`` at ``game``, ``games`` games per
    pairing (rounded up to whole deals), from ``seed``."""

    game: str
    bots: tuple[BotSpec, ...]
    games: int = 100
    seats: int | None = None
    """Players at the table (default: the game's smallest count)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 1
    sequential: Sequential | None = None

    def resolve(self) -> tuple[AnyGame, int, Any]:
        """The game, the seat count and the built options; :class:`ArenaError` (readable) on
        anything that cannot be played."""
        from spillebord.ai import agent_names

        try:
            game = registry.get(self.game)
        except SpillebordError as e:
            raise ArenaError(str(e)) from None
        seats = self.seats or game.seats.start
        known = {*agent_names(game), "best"}
        for b in self.bots:
            if b.agent not in known:
                raise ArenaError(f"no bot {b.agent!r} for {game.title}; known: {', '.join(sorted(known))}")
        labels = [b.label for b in self.bots]
        if len(set(labels)) != len(labels):
            raise ArenaError(f"a bot is named twice: {', '.join(labels)}")
        if self.games < 1:
            raise ArenaError("--games must be at least 1")
        try:
            options = build_options(game.Options, dict(self.options))
        except SpillebordError as e:
            raise ArenaError(str(e)) from None
        return game, seats, options

    def describe(self) -> dict[str, Any]:
        """The tournament as JSON (the results file's header; a resumed run must match it)."""
        game, seats, options = self.resolve()
        return {
            "game": game.id,
            "engine": game.version,
            "seats": seats,
            "options": options_to_dict(options),
            "bots": [b.label for b in self.bots],
            "games": self.games,
            "seed": self.seed,
            "sequential": None
            if self.sequential is None
            else {"confidence": self.sequential.confidence, "margin": self.sequential.margin},
        }


@dataclass
class BotFigures(Scored):
    """One bot's figures over the whole tournament."""

    label: str
    games: int = 0
    points: float = 0.0
    """Wins plus shares of draws, from the normalized outcome."""
    own: float = 0.0
    """Sum of the game's own scores (points, wealth, pegs) of its seats, per game."""
    mu: float = 0.0
    sigma: float = 0.0

    @property
    def mean_own_score(self) -> float:
        return self.own / self.games if self.games else 0.0

    @property
    def ordinal(self) -> float:
        """A conservative rating: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma


@dataclass
class PairFigures(Scored):
    first: str
    second: str
    games: int = 0
    points: float = 0.0
    """The first bot's points against the second."""
    deal_scores: list[float] = field(default_factory=list)
    """The first bot's mean points over each deal's games (one per rotation of the seats)."""
    even: float = 0.5
    """The mean an equal opponent leaves the first bot: one over the number of sides."""
    test: SprtResult | None = None
    stopped_after: int | None = None
    """Deals played when the sequential test decided (``None``: it ran to the end)."""
    truncated: int = 0
    """Games stopped at the engine's length cap (``GameKind.max_decisions``) and scored there,
    as the engine scores them: bots that never finish a game show here."""

    @property
    def deals(self) -> tuple[int, int, int]:
        """The deals the first bot won on balance, split and lost (:func:`.stats.deal_split`)."""
        return deal_split(x - self.even for x in self.deal_scores)

    @property
    def deal_interval(self) -> tuple[float, float] | None:
        """The 95% interval of the score read deal by deal (:func:`.stats.deal_interval`)."""
        return deal_interval(self.deal_scores)


def _rounded(interval: tuple[float, float] | None) -> list[float] | None:
    return None if interval is None else [round(x, 4) for x in interval]


@dataclass
class Report:
    tournament: Tournament
    description: dict[str, Any]
    bots: dict[str, BotFigures]
    pairs: list[PairFigures]
    results: list[dict[str, Any]]
    """Every game counted, in schedule order."""
    played_now: int = 0
    wall_seconds: float = 0.0
    workers: int = 1
    backend: str = "serial"

    @property
    def games_per_second(self) -> float:
        return self.played_now / self.wall_seconds if self.wall_seconds else 0.0

    def matrix(self) -> dict[str, dict[str, float | None]]:
        """Row bot's score against column bot (``None`` on the diagonal)."""
        labels = list(self.bots)
        m: dict[str, dict[str, float | None]] = {a: dict.fromkeys(labels) for a in labels}
        for p in self.pairs:
            if p.games:
                m[p.first][p.second] = p.score
                m[p.second][p.first] = 1.0 - p.score
        return m

    def to_json(self) -> dict[str, Any]:
        return {
            "tournament": self.description,
            "bots": {
                b.label: {
                    "games": b.games,
                    "score": round(b.score, 4),
                    "interval95": [round(x, 4) for x in b.interval],
                    "mean_own_score": round(b.mean_own_score, 3),
                    "rating": {
                        "mu": round(b.mu, 3),
                        "sigma": round(b.sigma, 3),
                        "ordinal": round(b.ordinal, 3),
                    },
                }
                for b in self.bots.values()
            },
            "pairs": [
                {
                    "first": p.first,
                    "second": p.second,
                    "games": p.games,
                    "score": round(p.score, 4),
                    "interval95": [round(x, 4) for x in p.interval],
                    "deals": dict(zip(("won", "split", "lost"), p.deals, strict=True)),
                    "deal_interval95": _rounded(p.deal_interval),
                    "truncated": p.truncated,
                    "sequential": None
                    if p.test is None
                    else {
                        "llr": round(p.test.llr, 3),
                        "verdict": p.test.verdict,
                        "stopped_after_deals": p.stopped_after,
                    },
                }
                for p in self.pairs
            ],
            "matrix": self.matrix(),
            "games_played_now": self.played_now,
            "wall_seconds": round(self.wall_seconds, 3),
            "games_per_second": round(self.games_per_second, 3),
            "workers": self.workers,
            "backend": self.backend,
        }


# ------------------------------------------------------------------------------ running


class _Stopper:
    """The sequential test, evaluated on each pairing's completed deals in schedule order (so
    the verdict, and the games it counts, do not depend on which worker finished first)."""

    def __init__(self, t: Tournament, pairings: list[tuple[int, int]], rotations: int) -> None:
        self.seq = t.sequential
        self.rotations = rotations
        self.p0 = 1.0 / rotations
        self.stop_deal: dict[tuple[int, int], int] = {}
        self.by_pair: dict[tuple[int, int], dict[int, list[dict[str, Any]]]] = {p: {} for p in pairings}

    def add(self, r: dict[str, Any]) -> None:
        if self.seq is None:
            return
        pairing = (r["pairing"][0], r["pairing"][1])
        if pairing in self.stop_deal:
            return
        deals = self.by_pair[pairing]
        deals.setdefault(r["deal"], []).append(r)
        scores: list[float] = []
        d = 0
        while len(deals.get(d, ())) == self.rotations:
            scores.append(sum(first_points(x) for x in deals[d]) / self.rotations)
            d += 1
            test = sprt(scores, self.p0, self.p0 + self.seq.margin, self.seq.confidence)
            if test.verdict is not None:
                self.stop_deal[pairing] = d - 1
                return

    def skip(self, spec: GameSpec) -> bool:
        stop = self.stop_deal.get(spec.pairing)
        return stop is not None and spec.deal > stop


def first_points(r: dict[str, Any]) -> float:
    """The share of a game (one of :func:`run`'s results) taken by the first bot of its
    pairing: the outcome of the one side it played."""
    first = r["pairing"][0]
    seat = r["seat_bots"].index(first)
    return float(r["outcome"][seat])


class _InFlight:
    """A batch in a pool worker: its future, the indices of its games still to come, and
    whether its worker has marked a failure on the stream (when its error was first seen)."""

    __slots__ = ("future", "left", "marked", "seen")

    def __init__(self, future: Future[int], left: set[int]) -> None:
        self.future = future
        self.left = left
        self.marked = False
        self.seen: float | None = None

    def error_is_due(self) -> bool:
        """True once the batch has failed and every game it finished before has come: its
        worker's mark has arrived, or 10 s have passed (a dead worker sends none)."""
        if not self.future.done() or self.future.exception() is None:
            return False
        if self.seen is None:
            self.seen = time.monotonic()
        return self.marked or time.monotonic() - self.seen > 10.0


def _execute(
    job: Job,
    specs: list[GameSpec],
    stopper: _Stopper,
    workers: int,
    ray_address: str | bool | None,
    batch: int,
    on_result: Callable[[dict[str, Any]], None],
) -> str:
    if ray_address not in (None, False):
        from .ray_backend import run_ray

        run_ray(job, specs, stopper.skip, workers, ray_address, batch, on_result)
        return "ray"
    if workers <= 1:
        # Game by game, so that the results file and the progress bar follow every game (a
        # stopped run loses only the game in hand); agents are still made once per batch.
        for chunk in batches(specs, batch):
            agents: dict[int, Agent] = {}
            for s in chunk:
                if not stopper.skip(s):
                    on_result(play_one(job, s, agents))
        return "serial"
    import multiprocessing
    import queue as queues
    from concurrent.futures import ProcessPoolExecutor

    # Each game comes back on a queue as it ends (not with its batch: a batch of searching
    # bots can take an hour), so the results file loses only the games in hand at a stop.
    ctx = multiprocessing.get_context("fork")  # workers inherit registered games and bots
    stream = ctx.Queue()
    owner: dict[int, _InFlight] = {}

    def submit(chunk: list[GameSpec]) -> _InFlight:
        h = _InFlight(pool.submit(play_streamed, job, chunk), {s.index for s in chunk})
        for s in chunk:
            owner[s.index] = h
        return h

    def wait_some(pending: list[_InFlight]) -> tuple[list[list[dict[str, Any]]], list[_InFlight]]:
        got: list[dict[str, Any]] = []
        while True:
            try:  # wait a little for the first game, then take what has come
                r = stream.get(timeout=0.05) if not got else stream.get_nowait()
            except queues.Empty:
                # A worker's error (or its death) ends the run, once the games it finished
                # before have come and been handed on (a future can end before its worker's
                # last puts have crossed the stream).
                for h in pending if not got else ():
                    if h.error_is_due():
                        h.future.result()
                # a batch is over when its future is and every one of its games has come
                rest = [h for h in pending if h.left or not h.future.done()]
                if got or len(rest) < len(pending):
                    return [got], rest
                continue
            if "failed" in r:
                owner[r["failed"]].marked = True
                continue
            got.append(r)
            owner.pop(r["index"]).left.discard(r["index"])

    with ProcessPoolExecutor(
        max_workers=workers, mp_context=ctx, initializer=stream_to, initargs=(stream,)
    ) as pool:
        try:
            drive(batches(specs, batch), stopper.skip, 2 * workers, submit, wait_some, on_result)
        except BaseException:
            # A failed or interrupted run ends now, not when the other workers' batches (an
            # hour of searching bots) and the queued ones are played: their games in hand are
            # lost, as at a stop. No public way to stop a pool's workers before Python 3.14.
            procs = list((pool._processes or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in procs:
                proc.terminate()
            raise
    return "process pool"


def run(
    t: Tournament,
    *,
    workers: int = 1,
    ray: str | bool | None = None,
    results_file: Path | None = None,
    batch: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_game: Callable[[dict[str, Any], bool], None] | None = None,
    blind: bool = False,
) -> Report:
    """Play the tournament (resuming from ``results_file`` if it holds earlier games of the
    same tournament; every new game is appended to it as it finishes) and compute the report.
    ``blind``: a new results file says so in its header, and ``spillebord results`` shows no
    score of it before its last game (:func:`.files.is_blind`).

    ``progress(done, total)`` follows the count of games; ``on_game(result, resumed)`` sees
    every game as it is counted, those read back from ``results_file`` first (``resumed``
    true), then each new one as it finishes (for a running score, :func:`first_points`)."""

    game, seats, options = t.resolve()
    desc = t.describe()
    teams = game.teams(seats, options)
    desc["sides"] = len(teams)
    specs = list(schedule(game, t.bots, seats, options, t.games, t.seed))
    job = Job(game.id, seats, options_to_dict(options), t.bots)
    pairings = sorted({s.pairing for s in specs})
    stopper = _Stopper(t, pairings, len(teams))

    done: dict[int, dict[str, Any]] = {}
    out = None
    if results_file is not None:
        done = _load_results(results_file, desc)
        out = _ResultsLog(results_file, desc, blind)
    for i in sorted(done):
        stopper.add(done[i])
        if on_game is not None:
            on_game(done[i], True)
    todo = [s for s in specs if s.index not in done]
    total = len(specs)
    count = [len(done)]
    played = [0]

    def on_result(r: dict[str, Any]) -> None:
        done[r["index"]] = r
        stopper.add(r)
        played[0] += 1
        count[0] += 1
        if out is not None:
            out.append(r, done)
        if on_game is not None:
            on_game(r, False)
        if progress is not None:
            progress(count[0], total)

    size = batch or max(1, min(16, len(todo) // max(1, workers * 8)))
    if t.sequential is not None:
        size = min(size, len(teams) * len(pairings))  # decide often
    t0 = time.perf_counter()
    try:
        backend = _execute(job, todo, stopper, workers, ray, size, on_result)
    finally:
        if out is not None:
            out.close()
    wall = time.perf_counter() - t0
    counted = [done[s.index] for s in specs if s.index in done and not stopper.skip(s)]
    report = _report(t, desc, teams, counted, stopper)
    report.played_now, report.wall_seconds, report.workers, report.backend = played[0], wall, workers, backend
    return report


class _ResultsLog:
    """A results file, a game appended (and flushed) as each finishes.

    A file replaced or removed under a running arena (``git stash`` or ``checkout`` of its
    folder, an editor saving over it) would take the games appended after that into the old,
    unlinked file, and they would be lost. So before each append the log checks that its path
    still names the file it holds open; if not, it writes the path anew (to a temporary file
    first, then renamed over it): the header, the games the file there holds now, and every
    game of this run. A file of another tournament there is left alone: the games go to
    ``<name>.recovered`` beside it instead (``<name>.recovered-<pid>`` if that is taken too)."""

    def __init__(self, path: Path, desc: dict[str, Any], blind: bool = False) -> None:
        self.path, self.desc, self.blind = path, desc, blind
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not path.exists() or path.stat().st_size == 0
        if not fresh and blind and not is_blind(path):
            # a run resumed blind: its file says so from now on
            self._write_whole(path.read_text(encoding="utf-8").splitlines(keepends=True)[1:])
        self.out = path.open("a", encoding="utf-8")
        if fresh:
            self.out.write(self._header())
            self.out.flush()

    def _header(self) -> str:
        # "blind" stays out of the tournament, which a resumed run must match
        head: dict[str, Any] = {"format": RESULTS_FORMAT, "tournament": self.desc}
        if self.blind:
            head["blind"] = True
        return json.dumps(head) + "\n"

    def _write_whole(self, games: Iterable[str]) -> None:
        """Write the path anew, the header and then ``games`` (lines): to a temporary file
        first, then renamed over it, so that no reader sees half a file."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        with tmp.open("w", encoding="utf-8") as f:
            f.write(self._header())
            f.writelines(games)
        os.replace(tmp, self.path)

    def _replaced(self) -> bool:
        try:
            now = os.stat(self.path)
        except FileNotFoundError:
            return True
        held = os.fstat(self.out.fileno())
        return (now.st_ino, now.st_dev) != (held.st_ino, held.st_dev)

    def append(self, r: dict[str, Any], known: Mapping[int, dict[str, Any]]) -> None:
        """Append game ``r``; ``known``: every game of this run so far (``r`` among them)."""
        if not self._replaced():
            self.out.write(json.dumps(r, separators=(",", ":")) + "\n")
            self.out.flush()
            return
        self.out.close()
        there: dict[int, dict[str, Any]] = {}
        for path in (self.path, self.path.with_name(self.path.name + ".recovered")):
            try:
                there = _load_results(path, self.desc)
                break
            except ArenaError:  # another tournament's file: keep it, try the name beside it
                there = {}
        else:  # both taken by other tournaments: a name of this run's own
            path = self.path.with_name(f"{self.path.name}.recovered-{os.getpid()}")
        self.path = path
        games = {**there, **known}
        self._write_whole(json.dumps(games[i], separators=(",", ":")) + "\n" for i in sorted(games))
        self.out = self.path.open("a", encoding="utf-8")

    def close(self) -> None:
        self.out.close()


def _load_results(path: Path, desc: dict[str, Any]) -> dict[int, dict[str, Any]]:
    if not path.exists() or path.stat().st_size == 0:
        return {}
    done: dict[int, dict[str, Any]] = {}
    with path.open(encoding="utf-8") as f:
        try:
            header = json.loads(f.readline())
        except json.JSONDecodeError:
            raise ArenaError(f"{path} is not an arena results file") from None
        if header.get("format") != RESULTS_FORMAT:
            raise ArenaError(f"{path} is not an arena results file")
        if header.get("tournament") != desc:
            raise ArenaError(
                f"{path} holds another tournament ({header.get('tournament')}); "
                "use another results file, or the same settings to resume it"
            )
        for line in f:
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                break  # a line cut short by an interruption: that game is played again
            done[int(r["index"])] = r
    return done


def _report(
    t: Tournament,
    desc: dict[str, Any],
    teams: tuple[tuple[int, ...], ...],
    results: list[dict[str, Any]],
    stopper: _Stopper,
) -> Report:
    """The figures. A bot's points in a game are the shares of the sides it played (a side's
    seats share one value), so the two bots' points add up to 1: with ``k`` sides the first
    bot plays one side and expects ``1/k`` against an equal opponent."""
    from openskill.models import PlackettLuce

    labels = [b.label for b in t.bots]
    bots = {label: BotFigures(label) for label in labels}
    pairs: dict[tuple[int, int], PairFigures] = {}
    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label in labels}
    deal_points: dict[tuple[int, int], dict[int, list[float]]] = {}
    for r in results:
        a, b = r["pairing"]
        pair = pairs.setdefault((a, b), PairFigures(labels[a], labels[b]))
        outcome, scores, seat_bots = r["outcome"], r["scores"], r["seat_bots"]
        points = {a: 0.0, b: 0.0}
        for side in teams:
            points[seat_bots[side[0]]] += outcome[side[0]]
        for bot in (a, b):
            seats = [s for s, x in enumerate(seat_bots) if x == bot]
            f = bots[labels[bot]]
            f.games += 1
            f.points += points[bot]
            f.own += sum(scores[s] for s in seats) / len(seats)
        pair.games += 1
        pair.points += points[a]
        pair.truncated += bool(r.get("truncated"))
        deal_points.setdefault((a, b), {}).setdefault(r["deal"], []).append(points[a])
        # OpenSkill: the two bots as two teams, ranked by the shares they took
        ra, rb = ratings[labels[a]], ratings[labels[b]]
        ranks = [1.0, 2.0] if points[a] > points[b] else [2.0, 1.0] if points[a] < points[b] else [1.0, 1.0]
        [[ra], [rb]] = model.rate([[ra], [rb]], ranks=ranks)
        ratings[labels[a]], ratings[labels[b]] = ra, rb
    for label, rating in ratings.items():
        bots[label].mu, bots[label].sigma = rating.mu, rating.sigma
    p0 = 1.0 / len(teams)
    for key, pair in pairs.items():
        deals = deal_points.get(key, {})
        pair.deal_scores = [sum(v) / len(v) for _, v in sorted(deals.items())]
        pair.even = p0
        if t.sequential is not None:
            pair.test = sprt(pair.deal_scores, p0, p0 + t.sequential.margin, t.sequential.confidence)
            stop = stopper.stop_deal.get(key)
            pair.stopped_after = None if stop is None else stop + 1
    return Report(t, desc, bots, [pairs[k] for k in sorted(pairs)], results)


__all__ = [
    "ArenaError",
    "BotFigures",
    "BotSpec",
    "PairFigures",
    "Report",
    "Sequential",
    "Tournament",
    "budget_text",
    "first_points",
    "parse_budget",
    "run",
]
