"""A table: game id + options + seats + seed + action log.

The one place that validates, applies and records actions; the command line, the server
and the arena all use it. A table is stored as exactly that record and rebuilt by replay.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from spillebord.core import Action, AnyGame, Event, IllegalAction, State, registry
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
    salt: str | None = None
    """The salt of the seed's commitment (a server's tables; None for a local game)."""

    @property
    def commitment(self) -> str | None:
        """The published commitment to the seed (:func:`seed_commitment`), if salted."""
        return seed_commitment(self.seed, self.salt) if self.salt is not None else None

    @classmethod
    def create(
        cls,
        game: str | AnyGame,
        seats: int,
        seed: int = 0,
        options: Mapping[str, Any] | Any | None = None,
        players: Sequence[str] | None = None,
        salt: str | None = None,
    ) -> Table:
        """A new table. ``options`` may be the game's Options or loose KEY → value pairs;
        ``salt``: the salt of the seed's commitment (see :func:`seed_commitment`)."""
        g = registry.get(game) if isinstance(game, str) else game
        g.check_seats(seats)
        if options is None or isinstance(options, Mapping):
            opts = build_options(g.Options, options or {})
        else:
            opts = options
        state = g.new(seats, seed, opts)
        return cls(g, seats, seed, opts, state, [], list(players or []), salt)

    # ------------------------------------------------------------------ playing

    @property
    def to_act(self) -> int | None:
        return self.state.to_act

    @property
    def is_over(self) -> bool:
        return self.state.to_act is None

    def act(self, seat: int | None, text: str, action: Action | None = None) -> list[Event]:
        """Parse and apply ``text`` for ``seat``; a bad action raises and changes nothing.

        ``seat=None`` skips the turn check (trusted callers: replay, tests). ``action``: the
        legal action of this state whose canonical text is ``text``, already known to the
        caller (the server keeps the list it sent): it is played without parsing ``text``.
        """
        state = self.state
        if state.to_act is None:
            raise GameOver(f"{self.game.title}: the game is over")
        if seat is not None and seat != state.to_act:
            raise NotYourTurn(f"{self.game.title}: it is seat {state.to_act}'s turn, not seat {seat}'s")
        if not isinstance(text, str) or not text.strip():
            raise IllegalAction(f"{self.game.title}: an action is a non-empty text")
        if action is None:
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
        record: dict[str, Any] = {
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
        if self.salt is not None:
            record["salt"] = self.salt
            record["commitment"] = self.commitment
        return record

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
            salt = record.get("salt")
            salt = str(salt) if salt is not None else None
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
        table = cls.create(game, seats, seed, options, record.get("players") or [], salt)
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


def seed_commitment(seed: int, salt: str) -> str:
    """The commitment a server publishes when it creates a table: the SHA-256 (hex) of the
    text ``"{seed}:{salt}"`` (``printf '%s:%s' SEED SALT | sha256sum``). The seed and salt are
    revealed in the record once the game is over; a matching commitment shows the deal was
    fixed before the first action."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def verify_record(record: Mapping[str, Any], commitment: str | None = None) -> str:
    """Check a finished record: its seed and salt match its commitment (and ``commitment``, the
    one published at the table's creation, if given), and its actions replay to the recorded
    outcome. A one-line summary, or :class:`RecordError` saying what does not hold."""
    if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
        raise RecordError('not a Spillebord game record (no "format": "spillebord-record")')
    salt, published = record.get("salt"), record.get("commitment")
    if not isinstance(salt, str) or not isinstance(published, str):
        raise RecordError("this record has no seed commitment (only a server's records have one)")
    try:
        seed = int(record["seed"])
    except (KeyError, TypeError, ValueError):
        raise RecordError("the record has no valid seed") from None
    actual = seed_commitment(seed, salt)
    if actual != published.lower():
        raise RecordError(f"the seed and salt do not match the record's commitment ({actual} ≠ {published})")
    if commitment is not None and actual != commitment.strip().lower():
        raise RecordError(f"the seed and salt do not match the commitment you gave ({actual} ≠ {commitment})")
    table = Table.from_record(record)
    out = table.outcome()
    want = record.get("outcome")
    if want is not None and (out is None or [round(x, 9) for x in out] != [round(float(x), 9) for x in want]):
        raise RecordError(f"the actions replay to the outcome {out}, not the recorded {want}")
    state = "finished" if out is not None else "unfinished (stopped before its end)"
    return (
        f"{table.game.title}: sha256({seed}:{salt}) = {actual} matches the commitment; "
        f"{len(table.log)} actions replay, the game is {state}"
    )


def replay_texts(game: AnyGame, seats: int, seed: int, options: Any, texts: Sequence[str]) -> State[Any]:
    """The state after applying action texts from the start (no turn checks)."""
    state: State[Any] = game.new(seats, seed, options)
    for t in texts:
        state.play(game.parse(state, t))
    return state


__all__ = ["RecordError", "Table", "replay_texts", "seed_commitment", "verify_record"]
