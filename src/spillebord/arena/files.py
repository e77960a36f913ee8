"""Arena results files read back and summed: several runs of the same pair of bots (other
seeds, other days) give one score with one interval, as the notes on strength need.

A results file (``spillebord arena … --results FILE``) is JSON lines: a header naming the
tournament, then one line per game as it finished. These functions read any number of them
and sum, per game and pair of bots, the first bot's points against the second.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .schedule import ArenaError
from .stats import Z95, Scored, deal_interval, deal_split, mean_interval

RESULTS_FORMAT = "spillebord-arena"


@dataclass
class PairTally(Scored):
    """The first bot's points against the second, over the games of one or more files."""

    game: str
    first: str
    second: str
    games: int = 0
    points: float = 0.0
    by_seat: dict[int, list[float]] = field(default_factory=dict)
    """The first bot's first seat → [points, games] there (who opens the deal matters)."""
    cpu_seconds: list[float] = field(default_factory=list)
    truncated: int = 0
    """Games stopped at the engine's length cap (scored as the engine scores them)."""
    even: float = 0.5
    """The points an equal opponent leaves the first bot in a game: one over the sides."""
    deal_edges: dict[int, list[float]] = field(default_factory=dict)
    """The deal's seed → the first bot's points less :attr:`even` in each of its games. The
    arena plays every deal once per rotation of the seats (duplicate play): a deal each bot
    wins once was decided by its cards and dice, a deal one bot wins every time by the bots."""
    margins: list[float] = field(default_factory=list)
    """Per game, the first bot's own score (the game's points, ducats, pegs…; the mean over
    its seats) less the second bot's: finer than wins where the luck of a deal is large."""
    deal_margins: dict[int, list[float]] = field(default_factory=dict)
    """The deal's seed → the :attr:`margins` of its games (for :func:`compare`)."""
    planned: int = 0
    """The games its runs were set to play (whole deals): more than :attr:`games` while a run
    is under way, or after one was stopped."""
    sequential: bool = False
    """A run of it had a sequential test, which may end a pair before :attr:`planned`."""
    blind: bool = False
    """Its file is of a blind run (:func:`is_blind`): no score before its last game."""

    @property
    def withheld(self) -> bool:
        """A blind run's pair before its last game: its score is not to be read yet."""
        return self.blind and self.games < self.planned

    @property
    def median_cpu(self) -> float | None:
        return statistics.median(self.cpu_seconds) if self.cpu_seconds else None

    @property
    def deals(self) -> tuple[int, int, int]:
        """The deals played in two rotations or more that the first bot won on balance, split
        and lost (:func:`.stats.deal_split`)."""
        return deal_split(x - self.even for x in self.deal_scores)

    @property
    def deal_scores(self) -> list[float]:
        """The first bot's mean points over each deal played in two rotations or more."""
        return [self.even + sum(e) / len(e) for e in self.deal_edges.values() if len(e) > 1]

    @property
    def deal_interval(self) -> tuple[float, float] | None:
        """The 95% interval of the score read deal by deal (:func:`.stats.deal_interval`)."""
        return deal_interval(self.deal_scores)

    @property
    def margin(self) -> tuple[float, float] | None:
        """The mean margin (see :attr:`margins`) and the half-width of its 95% interval (a
        normal approximation); None under two games."""
        n = len(self.margins)
        if n < 2:
            return None
        return statistics.fmean(self.margins), Z95 * statistics.stdev(self.margins) / math.sqrt(n)

    def add(self, r: dict[str, Any]) -> None:
        first, second = r["pairing"]
        seat_bots = r["seat_bots"]
        seat = seat_bots.index(first)
        pts = float(r["outcome"][seat])
        self.games += 1
        self.points += pts
        cell = self.by_seat.setdefault(seat, [0.0, 0])
        cell[0] += pts
        cell[1] += 1
        if "cpu_seconds" in r:
            self.cpu_seconds.append(float(r["cpu_seconds"]))
        self.truncated += bool(r.get("truncated"))
        if r.get("seed") is not None:
            self.deal_edges.setdefault(int(r["seed"]), []).append(pts - self.even)
        scores = r.get("scores")
        if scores:
            mine = [float(scores[s]) for s, b in enumerate(seat_bots) if b == first]
            theirs = [float(scores[s]) for s, b in enumerate(seat_bots) if b == second]
            if theirs:
                m = sum(mine) / len(mine) - sum(theirs) / len(theirs)
                self.margins.append(m)
                if r.get("seed") is not None:
                    self.deal_margins.setdefault(int(r["seed"]), []).append(m)

    def merge(self, other: PairTally, flip: bool = False) -> None:
        """Add ``other``'s games; ``flip``: ``other`` counts the same two bots the other way
        round (its points are one less the first bot's, its deals' edges and its margins
        negated; its by-seat split, the other bot's seats, is left out)."""
        self.games += other.games
        self.planned += other.planned
        self.sequential |= other.sequential
        self.points += other.games - other.points if flip else other.points
        if not flip:
            for seat, (p, n) in other.by_seat.items():
                cell = self.by_seat.setdefault(seat, [0.0, 0])
                cell[0] += p
                cell[1] += n
        self.cpu_seconds += other.cpu_seconds
        self.truncated += other.truncated
        for seed, edges in other.deal_edges.items():
            self.deal_edges.setdefault(seed, []).extend([-e for e in edges] if flip else edges)
        self.margins += [-m for m in other.margins] if flip else other.margins
        for seed, ms in other.deal_margins.items():
            self.deal_margins.setdefault(seed, []).extend([-m for m in ms] if flip else ms)

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.interval
        margin = self.margin
        by_deals = self.deal_interval
        return {
            "game": self.game,
            "first": self.first,
            "second": self.second,
            "games": self.games,
            "planned": self.planned,
            "points": self.points,
            "score": self.score,
            "interval": [lo, hi],
            "by_seat": {str(s): {"points": p, "games": n} for s, (p, n) in sorted(self.by_seat.items())},
            "median_cpu_seconds": self.median_cpu,
            "truncated": self.truncated,
            "deals": dict(zip(("won", "split", "lost"), self.deals, strict=True)),
            "deal_interval": None if by_deals is None else list(by_deals),
            "margin": None if margin is None else {"mean": margin[0], "half_width": margin[1]},
        }


def read_results(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A results file's tournament (its header) and games. A last line cut short by an
    interruption is left out, as the arena does when it resumes."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ArenaError(f"cannot read {path}: {e.strerror or e}") from None
    lines = text.splitlines()
    try:
        header = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("format") != RESULTS_FORMAT:
        raise ArenaError(f"{path} is not an arena results file (spillebord arena … --results FILE)")
    games: list[dict[str, Any]] = []
    for n, line in enumerate(lines[1:], start=2):
        try:
            games.append(json.loads(line))
        except json.JSONDecodeError:
            if n == len(lines):
                break  # cut short by an interruption
            raise ArenaError(f"{path}, line {n}: not a game's result") from None
    return header["tournament"], games


def is_blind(path: Path) -> bool:
    """Whether the results file at ``path`` is of a blind run (``spillebord arena --blind``):
    no score is shown of it before its last game. False for a file not there or not ours."""
    try:
        with path.open(encoding="utf-8") as f:
            header = json.loads(f.readline())
    except (OSError, ValueError):
        return False
    return isinstance(header, dict) and header.get("blind") is True


def tally_file(path: Path) -> list[PairTally]:
    """The pairs of one file, in the order of their first game."""
    desc, games = read_results(path)
    bots = desc["bots"]
    sides = desc.get("sides", 2)
    planned = -(-desc["games"] // sides) * sides  # each pairing plays whole deals (schedule)
    blind = is_blind(path)
    pairs: dict[tuple[int, int], PairTally] = {}
    for r in games:
        a, b = r["pairing"]
        t = pairs.get((a, b))
        if t is None:
            t = pairs[(a, b)] = PairTally(
                desc["game"],
                bots[a],
                bots[b],
                even=1.0 / sides,
                planned=planned,
                sequential=desc.get("sequential") is not None,
                blind=blind,
            )
        t.add(r)
    return list(pairs.values())


def total(tallies: list[PairTally]) -> list[PairTally]:
    """The tallies summed per game and pair of bots (a pair read the other way round, B
    against A, is counted from A's side: its points are one less the share)."""
    out: dict[tuple[str, str, str], PairTally] = {}
    for t in tallies:
        key = (t.game, t.first, t.second)
        flip = (t.game, t.second, t.first)
        if key not in out and flip in out:  # the two bots' points in a game add up to 1
            out[flip].merge(t, flip=True)
            continue
        acc = out.setdefault(key, PairTally(t.game, t.first, t.second))
        acc.merge(t)
    return list(out.values())


@dataclass(frozen=True)
class Paired:
    """Two bots, each played against the same opponent on the same deals (two runs with the
    same ``--seed``): their scores deal by deal, side by side. Duplicate play across runs, as
    a bridge club compares two pairs who held the same cards against the same field: the
    deals' luck cancels out of the difference. It measures the two against a third bot, not
    against each other (a head-to-head match does that; strength need not be transitive)."""

    game: str
    first: str
    second: str
    opponent: str
    first_scores: tuple[float, ...]
    """The first bot's mean points on each deal both runs played in full, by the deal's seed."""
    second_scores: tuple[float, ...]
    """The second bot's, on the same deals in the same order."""
    first_margins: tuple[float, ...] = ()
    """The first bot's mean margin over the opponent in the game's own score (points,
    ducats…) on each of those deals; empty where the files carry no scores."""
    second_margins: tuple[float, ...] = ()

    @property
    def deals(self) -> int:
        return len(self.first_scores)

    @property
    def differences(self) -> list[float]:
        return [a - b for a, b in zip(self.first_scores, self.second_scores, strict=True)]

    @property
    def first_score(self) -> float:
        return math.fsum(self.first_scores) / self.deals

    @property
    def second_score(self) -> float:
        return math.fsum(self.second_scores) / self.deals

    @property
    def difference(self) -> float:
        return self.first_score - self.second_score

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% interval of the difference, read deal by deal (Student's t); ``None`` under
        20 deals or when every deal differed alike."""
        read = mean_interval(self.differences)
        if read is None:
            return None
        mean, half = read
        return (mean - half, mean + half)

    @property
    def margin(self) -> tuple[float, float] | None:
        """The first bot's mean margin less the second's over the deals (the game's own score:
        finer than wins where a deal's luck is large) and the half-width of its 95% interval
        read deal by deal; ``None`` without scores, under 20 deals or with no spread."""
        if len(self.first_margins) != self.deals or len(self.second_margins) != self.deals:
            return None
        return mean_interval([a - b for a, b in zip(self.first_margins, self.second_margins, strict=True)])

    @property
    def split(self) -> tuple[int, int, int]:
        """The deals on which the first bot did better than the second, the same, worse."""
        return deal_split(self.differences)

    @property
    def verdict(self) -> str:
        """Which bot the interval shows ahead, in words."""
        iv = self.interval
        if iv is None:
            return "fewer than 20 deals or no spread: no interval"
        if iv[0] > 0.0:
            return f"{self.first} ahead, shown"
        if iv[1] < 0.0:
            return f"{self.second} ahead, shown"
        return "no difference shown"

    def to_json(self) -> dict[str, Any]:
        iv = self.interval
        margin = self.margin
        better, same, worse = self.split
        return {
            "game": self.game,
            "first": self.first,
            "second": self.second,
            "opponent": self.opponent,
            "deals": self.deals,
            "first_score": self.first_score,
            "second_score": self.second_score,
            "difference": self.difference,
            "interval": None if iv is None else list(iv),
            "deals_better_same_worse": {"better": better, "same": same, "worse": worse},
            "verdict": self.verdict,
            "margin": None if margin is None else {"mean": margin[0], "half_width": margin[1]},
        }


def _deal_of(desc: dict[str, Any]) -> tuple[Any, ...]:
    """What makes a seed the same deal: the game, its engine version, seats and options."""
    options = json.dumps(desc.get("options"), sort_keys=True)
    return (desc.get("game"), desc.get("engine"), desc.get("seats"), options)


def _one_pair(paths: Sequence[Path], side: str) -> PairTally:
    tallies = total([t for p in paths for t in tally_file(p)])
    if len(tallies) != 1:
        pairs = ", ".join(f"{t.first} vs {t.second}" for t in tallies) or "no games"
        raise ArenaError(f"the {side} files hold {pairs}: give the runs of one pair of bots on each side")
    return tallies[0]


def _bot_deals(t: PairTally, bot: str) -> tuple[dict[int, float], dict[int, float]]:
    """``bot``'s mean points and mean margin on each deal of ``t`` played in two rotations or
    more (the margins where every game of the deal has one)."""
    sign = 1.0 if bot == t.first else -1.0
    points = {seed: t.even + sign * math.fsum(e) / len(e) for seed, e in t.deal_edges.items() if len(e) > 1}
    margins = {
        seed: sign * math.fsum(ms) / len(ms)
        for seed, ms in t.deal_margins.items()
        if seed in points and len(ms) == len(t.deal_edges[seed])
    }
    return points, margins


def compare(first: Sequence[Path], second: Sequence[Path], opponent: str | None = None) -> Paired:
    """The runs in ``first`` (one bot against an opponent) beside those in ``second`` (another
    bot against the same opponent), on the deals both played (:class:`Paired`). The opponent
    is the bot both sides name (``opponent`` says which when both name the same two, as two
    versions of one bot would; by default the first side's second bot). :class:`ArenaError`
    (readable) on runs of other deals (another game, engine version, seat count or options),
    of several pairs, of more than two sides, or with no deal in common."""
    if not first or not second:
        raise ArenaError("give the results files of two runs: FIRST… vs SECOND…")
    ref: tuple[Any, ...] | None = None
    ref_path = None
    for p in [*first, *second]:
        desc, _ = read_results(p)
        if desc.get("sides", 2) != 2:
            raise ArenaError(f"{p}: {desc.get('sides')} sides; a paired comparison reads runs of two sides")
        key = _deal_of(desc)
        if ref is None:
            ref, ref_path = key, p
        elif key != ref:
            what = ("game", "engine version", "seat count", "options")[
                next(i for i in range(4) if key[i] != ref[i])
            ]
            raise ArenaError(
                f"{p} was played with another {what} than {ref_path}: "
                "the same seed is not the same deal there"
            )
    a, b = _one_pair(first, "first"), _one_pair(second, "second")
    names_a, names_b = {a.first, a.second}, {b.first, b.second}
    if opponent is None:
        common = names_a & names_b
        if not common:
            raise ArenaError(
                f"no bot plays in both runs ({a.first} vs {a.second}; {b.first} vs {b.second}): "
                "compare two bots against the same opponent"
            )
        opponent = next(iter(common)) if len(common) == 1 else a.second
    elif opponent not in names_a or opponent not in names_b:
        raise ArenaError(f"--opponent {opponent} does not play in both runs")
    if len(names_a) < 2 or len(names_b) < 2:
        raise ArenaError(f"{opponent} plays itself in a run: nothing to compare it with")
    bot_a = (names_a - {opponent}).pop()
    bot_b = (names_b - {opponent}).pop()
    (da, ma), (db, mb) = _bot_deals(a, bot_a), _bot_deals(b, bot_b)
    seeds = sorted(da.keys() & db.keys())
    if not seeds:
        raise ArenaError(
            "the runs share no deal played in full: play them with the same --seed (and enough --games)"
        )
    margins = all(s in ma and s in mb for s in seeds)
    return Paired(
        a.game,
        bot_a,
        bot_b,
        opponent,
        tuple(da[s] for s in seeds),
        tuple(db[s] for s in seeds),
        tuple(ma[s] for s in seeds) if margins else (),
        tuple(mb[s] for s in seeds) if margins else (),
    )


__all__ = ["PairTally", "Paired", "compare", "read_results", "tally_file", "total"]
