"""Arena results files read back and summed: several runs of the same pair of bots (other
seeds, other days) give one score with one interval, as the notes on strength need.

A results file (``spillebord arena … --results FILE``) is JSON lines: a header naming the
tournament, then one line per game as it finished. These functions read any number of them
and sum, per game and pair of bots, the first bot's points against the second.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .schedule import ArenaError
from .stats import Scored

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

    @property
    def median_cpu(self) -> float | None:
        return statistics.median(self.cpu_seconds) if self.cpu_seconds else None

    def add(self, r: dict[str, Any]) -> None:
        first = r["pairing"][0]
        seat = r["seat_bots"].index(first)
        pts = float(r["outcome"][seat])
        self.games += 1
        self.points += pts
        cell = self.by_seat.setdefault(seat, [0.0, 0])
        cell[0] += pts
        cell[1] += 1
        if "cpu_seconds" in r:
            self.cpu_seconds.append(float(r["cpu_seconds"]))
        self.truncated += bool(r.get("truncated"))

    def merge(self, other: PairTally) -> None:
        self.games += other.games
        self.points += other.points
        for seat, (p, n) in other.by_seat.items():
            cell = self.by_seat.setdefault(seat, [0.0, 0])
            cell[0] += p
            cell[1] += n
        self.cpu_seconds += other.cpu_seconds
        self.truncated += other.truncated

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {
            "game": self.game,
            "first": self.first,
            "second": self.second,
            "games": self.games,
            "points": self.points,
            "score": self.score,
            "interval": [lo, hi],
            "by_seat": {str(s): {"points": p, "games": n} for s, (p, n) in sorted(self.by_seat.items())},
            "median_cpu_seconds": self.median_cpu,
            "truncated": self.truncated,
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


def tally_file(path: Path) -> list[PairTally]:
    """The pairs of one file, in the order of their first game."""
    desc, games = read_results(path)
    bots = desc["bots"]
    pairs: dict[tuple[int, int], PairTally] = {}
    for r in games:
        a, b = r["pairing"]
        t = pairs.get((a, b))
        if t is None:
            t = pairs[(a, b)] = PairTally(desc["game"], bots[a], bots[b])
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
            o = out[flip]
            o.games += t.games
            o.points += t.games - t.points
            o.cpu_seconds += t.cpu_seconds
            o.truncated += t.truncated
            continue  # its seats are the other bot's: by_seat is left as it is
        acc = out.setdefault(key, PairTally(t.game, t.first, t.second))
        acc.merge(t)
    return list(out.values())


__all__ = ["PairTally", "read_results", "tally_file", "total"]
