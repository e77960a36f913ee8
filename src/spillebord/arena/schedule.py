"""Who plays whom, in which seats, on which deal.

A tournament is a round robin of *pairings* (two bots). Each pairing plays deals; each deal is
played once per *rotation*: with ``k`` sides at the table (seats, or partnerships), rotation
``r`` puts the first bot on side ``r`` and the second on every other side. With two sides
that is duplicate play: the same deal (seed) with the seats swapped, so the luck of the deal
cancels out, as in duplicate bridge. A bot on a side plays every seat of that side (in
Partners a bot is a partnership).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from spillebord.ai import Budget
from spillebord.core import AnyGame
from spillebord.core.errors import SpillebordError


class ArenaError(SpillebordError):
    """A tournament that cannot be run as asked (unknown bot, bad budget, seats)."""


_BUDGET = re.compile(r"^(?P<n>\d+(?:\.\d+)?)(?P<unit>s|ms|it)$")


def parse_budget(text: str) -> Budget:
    """``"1s"``, ``"250ms"`` (thinking time) or ``"500it"`` (search iterations, reproducible)."""
    m = _BUDGET.match(text.strip())
    if not m:
        raise ArenaError(f"a budget is a time or an iteration count (1s, 250ms, 500it), not {text!r}")
    n, unit = float(m["n"]), m["unit"]
    if n <= 0:
        raise ArenaError(f"a budget must be positive, not {text!r}")
    if unit == "it":
        if n != int(n):
            raise ArenaError(f"iterations are a whole number, not {text!r}")
        return Budget(iterations=int(n))
    return Budget(seconds=n / 1000 if unit == "ms" else n)


def budget_text(b: Budget | None) -> str:
    if b is None:
        return "default"
    if b.iterations is not None:
        return f"{b.iterations}it"
    return f"{b.seconds:g}s"


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot in the tournament: an agent name and its thinking budget (``greedy``,
    ``ismcts@1s``, ``ismcts@2000it``). ``label`` is how tables and files name it."""

    agent: str
    budget: Budget | None = None

    @property
    def label(self) -> str:
        return self.agent if self.budget is None else f"{self.agent}@{budget_text(self.budget)}"

    @classmethod
    def parse(cls, text: str, default_budget: Budget | None = None) -> BotSpec:
        name, _, budget = text.strip().partition("@")
        if not name:
            raise ArenaError(f"a bot is NAME or NAME@BUDGET, not {text!r}")
        return cls(name, parse_budget(budget) if budget else default_budget)


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game of the tournament: everything a worker needs to play it, reproducibly."""

    index: int
    """Position in the schedule (results are always combined in this order)."""
    pairing: tuple[int, int]
    """Indices of the two bots (first, second) in the tournament's bot list."""
    deal: int
    rotation: int
    seed: int
    """The deal's seed (the same for every rotation and every pairing)."""
    agent_seed: int
    seat_bots: tuple[int, ...]
    """The bot index that plays each seat."""


def mix(*parts: Any) -> int:
    """A 63-bit seed from the parts (stable across Python versions and machines)."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def sides(game: AnyGame, seats: int, options: Any) -> tuple[tuple[int, ...], ...]:
    return game.teams(seats, options)


def check_seats(game: AnyGame, seats: int) -> None:
    if seats not in game.seats:
        raise ArenaError(
            f"{game.title} is played by {game.seats.start}–{game.seats.stop - 1} players, not {seats}"
        )


def schedule(
    game: AnyGame,
    bots: Sequence[BotSpec],
    seats: int,
    options: Any,
    games_per_pairing: int,
    seed: int,
) -> Iterator[GameSpec]:
    """The games of a round robin, interleaved deal by deal (so that a sequential test can
    stop one pairing while the others go on). Each pairing plays ``games_per_pairing`` games,
    rounded up to whole deals (one game per rotation)."""
    if len(bots) < 2:
        raise ArenaError("a tournament needs at least two bots")
    check_seats(game, seats)
    teams = sides(game, seats, options)
    k = len(teams)
    if k < 2:
        raise ArenaError(f"{game.title} at {seats} seats has a single side: nobody to play against")
    deals = -(-games_per_pairing // k)
    pairings = list(combinations(range(len(bots)), 2))
    index = 0
    for deal in range(deals):
        deal_seed = mix("deal", seed, deal)
        for pairing in pairings:
            for rotation in range(k):
                seat_bots = [0] * seats
                for s, side in enumerate(teams):
                    for seat in side:
                        seat_bots[seat] = pairing[0] if s == rotation else pairing[1]
                yield GameSpec(
                    index=index,
                    pairing=pairing,
                    deal=deal,
                    rotation=rotation,
                    seed=deal_seed,
                    agent_seed=mix("agents", seed, deal, pairing, rotation),
                    seat_bots=tuple(seat_bots),
                )
                index += 1
