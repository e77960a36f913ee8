"""A table: game id + options + seats + seed + action log.

The one place that validates, applies and records actions; the command line, the server
and the arena all use it. A table is stored as exactly that record and rebuilt by replay.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from spillebord.core import AnyGame, Event, IllegalAction, State, registry
from spillebord.core.errors import GameOver, NotYourTurn, SpillebordError
from spillebord.core.options import build as build_options
from spillebord.core.options import to_dict as options_to_dict

RECORD_FORMAT = "spillebord-record"
RECORD_VERSION = 2
"""Version of the record format itself (2: ``engine``, ``outcome`` and ``scores``)."""


class RecordError(SpillebordError):
    """A game record (replay file) that cannot be read or does not replay."""


@dataclass
class Table:
    """A game in progress (or over), with the complete log that rebuilds it."""

    game: AnyGame
    seats: int
    seed: int
    options: Any
    state: State[Any]
    log: list[tuple[int, str]] = field(default_factory=list)
    """(seat, action text) for every action applied, in order."""
    players: list[str] = field(default_factory=list)
    """A name per seat (agent names or people); informational."""

    @classmethod
    def create(
        cls,
        game: str | AnyGame,
        seats: int,
        seed: int = 0,
        options: Mapping[str, Any] | Any | None = None,
        players: Sequence[str] | None = None,
    ) -> Table:
        """A new table. ``options`` may be the game's Options or loose KEY → value pairs."""
        g = registry.get(game) if isinstance(game, str) else game
        g.check_seats(seats)
        if options is None or isinstance(options, Mapping):
            opts = build_options(g.Options, options or {})
        else:
            opts = options
        state = g.new(seats, seed, opts)
        return cls(g, seats, seed, opts, state, [], list(players or []))

    # ------------------------------------------------------------------ playing

    @property
    def to_act(self) -> int | None:
        return self.state.to_act

    @property
    def is_over(self) -> bool:
        return self.state.to_act is None

    def act(self, seat: int | None, text: str) -> list[Event]:
        """Parse and apply ``text`` for ``seat``; a bad action raises and changes nothing.

        ``seat=None`` skips the turn check (trusted callers: replay, tests).
        """
        state = self.state
        if state.to_act is None:
            raise GameOver(f"{self.game.title}: the game is over")
        if seat is not None and seat != state.to_act:
            raise NotYourTurn(f"{self.game.title}: it is seat {state.to_act}'s turn, not seat {seat}'s")
        if not isinstance(text, str) or not text.strip():
            raise IllegalAction(f"{self.game.title}: an action is a non-empty text")
        action = self.game.parse(state, text)
        acting = state.to_act
        events = state.play(action)
        self.log.append((acting, str(action)))
        return events

    def legal_texts(self) -> list[str]:
        return [str(a) for a in self.state.legal()]

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.state.view(seat)

    def outcome(self) -> tuple[float, ...] | None:
        """The normalized outcome (1 win, 0 loss, shares for draws); ``None`` while running."""
        return self.state.outcome()

    def scores(self) -> tuple[float, ...]:
        """The game's own scores (points, wealth, pegs)."""
        return self.state.scores()

    # ------------------------------------------------------------------ records

    def to_record(self) -> dict[str, Any]:
        """The replay file: everything needed to rebuild this table, JSON-ready."""
        out = self.state.outcome()
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game.id,
            "engine": self.game.version,
            "seats": self.seats,
            "seed": self.seed,
            "options": options_to_dict(self.options),
            "players": list(self.players),
            "actions": [{"seat": s, "action": a} for s, a in self.log],
            "outcome": list(out) if out is not None else None,
            "scores": list(self.state.scores()),
            "truncated": self.state.truncated,
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_record(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_record(cls, record: Mapping[str, Any], upto: int | None = None) -> Table:
        """Rebuild a table by replaying a record (the first ``upto`` actions only, if given)."""
        if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
            raise RecordError('not a Spillebord game record (no "format": "spillebord-record")')
        try:
            game_id = str(record["game"])
            seats = int(record["seats"])
            seed = int(record["seed"])
            options = dict(record.get("options") or {})
            actions = list(record.get("actions") or [])
        except (KeyError, TypeError, ValueError) as e:
            raise RecordError(f"game record is missing or has a bad field: {e}") from None
        game = registry.get(game_id)
        # A record pins the engine it was played on: replaying it on another engine version
        # could take a different path silently, so it is refused (records of format 1 predate
        # engine versions and were all played on version 1).
        engine = record.get("engine", 1)
        if engine != game.version:
            raise RecordError(
                f"this {game.title} record was played on engine version {engine}, and this Spillebord "
                f"has version {game.version}: it cannot be replayed exactly (use the Spillebord release "
                f"that recorded it)"
            )
        table = cls.create(game, seats, seed, options, record.get("players") or [])
        for i, entry in enumerate(actions[:upto] if upto is not None else actions):
            try:
                seat, text = (entry["seat"], entry["action"]) if isinstance(entry, Mapping) else (None, entry)
                table.act(seat, text)
            except (IllegalAction, KeyError, TypeError) as e:
                raise RecordError(f"action {i + 1} of the record does not replay: {e}") from None
        return table

    @classmethod
    def from_json(cls, text: str, upto: int | None = None) -> Table:
        try:
            record = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"game record is not valid JSON: {e}") from None
        return cls.from_record(record, upto)

    def replay(self) -> Table:
        """A fresh table rebuilt from this one's record (equal state, if all is well)."""
        return Table.from_record(self.to_record())


def replay_texts(game: AnyGame, seats: int, seed: int, options: Any, texts: Sequence[str]) -> State[Any]:
    """The state after applying action texts from the start (no turn checks)."""
    state: State[Any] = game.new(seats, seed, options)
    for t in texts:
        state.play(game.parse(state, t))
    return state


__all__ = ["RecordError", "Table", "replay_texts"]
