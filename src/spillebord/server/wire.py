"""Every message in and out of the server, typed (documented in ``docs/protocol.md``).

Websocket (``/ws/tables/{id}``), client → server: :class:`Act`, :class:`Ping`, :class:`Sync`,
parsed from JSON text by :func:`parse` (a :class:`WireError` with a readable message for
anything else). Server → client: :class:`StateMsg`, :class:`ErrorMsg`, :class:`PongMsg`
(TypedDicts; ``"type"`` is always the first key), encoded by :func:`encode`.

HTTP (the lobby): pydantic models, which FastAPI validates and documents at ``/docs``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, NotRequired

import orjson
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from spillebord.core.errors import SpillebordError

MAX_MESSAGE = 16 * 1024
"""The largest client message, in bytes of UTF-8."""

# --------------------------------------------------------------------------- websocket: in


@dataclass(frozen=True, slots=True)
class Act:
    """``{"type": "act", "action": TEXT, "seq": N, "undone": K}``: play ``action`` (its
    canonical text) for the socket's seat, only if the table is still at action number ``seq``
    (required: it makes a retry or a race of two sockets of one seat apply once) and, when
    ``undone`` is given (the state's ``undone``), no action was taken back since (an act
    resent after an undo has the same ``seq`` as a new one; None: not checked, old clients)."""

    action: str
    seq: int
    undone: int | None = None


@dataclass(frozen=True, slots=True)
class Ping:
    """``{"type": "ping"}``: answered by ``{"type": "pong"}``."""


@dataclass(frozen=True, slots=True)
class Sync:
    """``{"type": "sync"}``: send me my seat's current state again."""


ClientMessage = Act | Ping | Sync

_FIELDS: dict[str, frozenset[str]] = {
    "act": frozenset({"type", "action", "seq", "undone"}),
    "ping": frozenset({"type"}),
    "sync": frozenset({"type"}),
}


class WireError(SpillebordError):
    """A client message that is not one of :data:`ClientMessage` (the text says why)."""


def parse(raw: str | bytes) -> ClientMessage:
    """The client message in ``raw`` (JSON text), or :class:`WireError`."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_MESSAGE:
            raise WireError(f"message too large (at most {MAX_MESSAGE // 1024} KiB)")
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise WireError("messages are JSON text") from None
    if len(raw) > MAX_MESSAGE or len(raw.encode("utf-8")) > MAX_MESSAGE:
        raise WireError(f"message too large (at most {MAX_MESSAGE // 1024} KiB)")
    try:
        msg = json.loads(raw)
    except ValueError:
        raise WireError('not JSON: send {"type": "act", "action": "..."} or {"type": "ping"}') from None
    if not isinstance(msg, dict):
        raise WireError('a message is a JSON object with a "type"')
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise WireError(f'unknown message type {kind!r}: use "act", "sync" or "ping"')
    extra = sorted(set(msg) - _FIELDS[kind])
    if extra:
        raise WireError(f"unknown field{'s' if len(extra) > 1 else ''} for {kind!r}: {', '.join(extra)}")
    if kind == "ping":
        return Ping()
    if kind == "sync":
        return Sync()
    action = msg.get("action")
    seq = msg.get("seq")
    if not isinstance(action, str) or not action.strip():
        raise WireError('"action" must be the text of an action')
    if seq is None:
        raise WireError('"seq" is required: send the "seq" of the state you acted on')
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise WireError('"seq" must be a whole number, the "seq" of the state you acted on')
    undone = msg.get("undone")
    if undone is not None and (not isinstance(undone, int) or isinstance(undone, bool) or undone < 0):
        raise WireError('"undone" must be a whole number, the "undone" of the state you acted on')
    return Act(action, seq, undone)


# --------------------------------------------------------------------------- websocket: out


class LegalAction(TypedDict):
    text: str
    """The canonical text: send it back in an ``act``."""
    label: str
    """What to show a person."""
    json: dict[str, Any]
    """The ids on the table the action touches (what a click maps to)."""


class LastAction(TypedDict):
    seat: int
    action: str | None
    """Its text, for the seat that played it and, in games whose actions are public, for all."""


class PlayerInfo(TypedDict):
    seat: int
    name: str
    bot: str | None
    """The agent playing the seat (configured, or taking over an abandoned seat)."""
    connected: bool
    free: bool
    takeover: bool


class StateMsg(TypedDict):
    """What one seat (or a spectator, ``seat: null``) may know of the table now."""

    type: Literal["state"]
    seq: int
    """Actions applied so far; send it back with an ``act``."""
    seat: int | None
    game: str
    view: dict[str, Any]
    """``view(seat)`` of the game: exactly what this seat may see."""
    to_act: int | None
    legal: list[LegalAction]
    """The seat's legal actions when it is to act (and no bot plays it); else empty."""
    events: list[dict[str, Any]]
    """The public events of the last action."""
    outcome: list[float] | None
    """Once over: per seat 1 win, 0 loss, a share for a draw; teammates share their side's."""
    scores: list[float] | None
    """Once over: the game's own final numbers (points, wealth, pegs); ``null`` while it runs."""
    truncated: bool
    """The game was stopped at its decision bound (ranked by scores) instead of ending."""
    players: list[PlayerInfo]
    last: LastAction | None
    table: str
    status: str
    """open | running | over | closed (idle too long: no more actions)"""
    clock: dict[str, Any] | None
    """A timed table's clocks (mode, running seat, seconds left per seat, deadline, now); else null."""
    undo: int
    """How many of its last actions of this turn this seat may take back now, one at a time
    (``POST /api/tables/{id}/undo``); 0 when none."""
    undone: int
    """How many actions were taken back at this table so far; send it back with an ``act``
    (an act resent after an undo is then refused as stale)."""


class PlayersMsg(TypedDict):
    """Who is at the table now (sent to the others when a socket connects or leaves)."""

    type: Literal["players"]
    seq: int
    """The table's ``seq`` (unchanged by presence)."""
    players: list[PlayerInfo]


class ErrorMsg(TypedDict):
    type: Literal["error"]
    message: str
    retry: NotRequired[bool]
    """``true``: nothing changed for a passing reason (the database was busy or unreachable):
    send the same message again in a moment (an act with its seq applies at most once)."""


class PongMsg(TypedDict):
    type: Literal["pong"]


ServerMessage = StateMsg | PlayersMsg | ErrorMsg | PongMsg


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""The standard library's encoder, for what orjson refuses (one for every message:
``json.dumps`` with options builds one per call)."""

_ORJSON_OPTIONS = orjson.OPT_NON_STR_KEYS
"""Integer keys become strings, as the standard library writes them."""


def encode(msg: ServerMessage) -> str:
    """``msg`` as compact JSON text. orjson writes a state message 5-6 times faster than the
    standard library (its views and legal lists are most of the server's JSON: 15 µs → 2.5 µs
    for a Kasino state, 100 µs → 17 µs for a Revir one); what it refuses (an integer beyond 64
    bits) goes to the standard library, so every message still encodes. Both read back the
    same (``tests/server/test_wire_encode.py``)."""
    try:
        return orjson.dumps(msg, option=_ORJSON_OPTIONS).decode()
    except orjson.JSONEncodeError:
        return _ENCODER.encode(msg)


def error(message: str, retry: bool = False) -> str:
    """An encoded :class:`ErrorMsg` (``retry``: the client may send its message again)."""
    msg = ErrorMsg(type="error", message=message)
    if retry:
        msg["retry"] = True
    return encode(msg)


PONG = encode(PongMsg(type="pong"))


# --------------------------------------------------------------------------- HTTP


class LevelInfo(BaseModel):
    """What one of the five levels plays at a game (the lobby says it beside the levels)."""

    agent: str = Field(description="the level's agent name, level1 ... level5")
    plays: str = Field(description='a bot\'s agent name, "search" or "softmax" (the Beginner\'s)')
    iterations: int = Field(default=0, description="a search's iterations a move at its default budget")


class GameInfo(BaseModel):
    id: str
    title: str
    summary: str
    seats: list[int] = Field(description="[min, max] players")
    languages: list[str]
    options: list[dict[str, Any]] = Field(description="schema of the game's options")
    quick_options: dict[str, Any]
    bots: list[str]
    best_bot: str = Field(description="the game's strongest agent (the default bot)")
    levels: list[LevelInfo] = Field(default_factory=list, description="what each level plays")


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str
    seats: int | None = Field(default=None, description="number of players (default: the game's minimum)")
    options: dict[str, Any] = Field(default_factory=dict)
    bots: list[str | None] | None = Field(
        default=None, description="one per seat: an agent name, or null for a person"
    )
    public: bool = True
    seed: int | None = Field(
        default=None,
        description="refused: the server draws every seed itself (servers started for tests may accept it)",
    )
    name: str | None = Field(default=None, max_length=80, description="the creator's name")
    clock: dict[str, Any] | None = Field(
        default=None,
        description="time control: {mode: realtime, bank: s, increment: s} or {mode: turn, per_decision: s}, "
        "with on_timeout: bot | lose and bot: the agent taking a timed-out seat (default: the best)",
    )
    rated: bool = Field(
        default=True, description="counts for ratings (only with standard or short-game options and no seed)"
    )
    chat: str = Field(default="players", description="players (spectators read) | seated | off")
    hints: bool = Field(default=True, description="players may ask for hints (the strongest bot's top three)")


class Created(BaseModel):
    table: str
    seat: int | None = Field(description="the creator's seat (the first person's seat), if any")
    token: str | None = Field(description="secret token of that seat: keep it to act and to reconnect")
    commitment: str | None = Field(
        default=None, description='sha256 of "{seed}:{salt}": the deal, fixed now, revealed at the end'
    )


class TableInfo(BaseModel):
    table: str
    game: str
    title: str
    seats: int
    status: str = Field(description="open | running | over | closed | unavailable")
    free_seats: list[int]
    players: list[PlayerInfo]
    created: float = Field(description="Unix time")
    public: bool = True
    seq: int = Field(default=0, description="actions applied so far")
    to_act: int | None = None
    outcome: list[float] | None = Field(
        default=None, description="once over: 1 win, 0 loss, shares for draws"
    )
    scores: list[float] | None = Field(default=None, description="once over: the game's own final numbers")
    truncated: bool = Field(
        default=False, description="stopped at the game's decision bound, ranked by scores"
    )
    engine: int = Field(default=1, description="the game's engine version the table is played on")
    note: str | None = Field(
        default=None,
        description="why the table cannot be played or watched here (status unavailable, or archived)",
    )
    commitment: str | None = Field(
        default=None, description='sha256 of "{seed}:{salt}", published when the table was created'
    )
    seed: int | None = Field(default=None, description="the seed, revealed once the game is over")
    salt: str | None = Field(
        default=None, description="the commitment's salt, revealed once the game is over"
    )


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None
    name: str = Field(default="", max_length=80)


class Joined(BaseModel):
    seat: int
    token: str


class HistoryEntry(BaseModel):
    seq: int
    seat: int
    action: str | None = Field(description="canonical text (null where it is not public yet)")
    time: float


class Health(BaseModel):
    ok: bool


class ErrorOut(BaseModel):
    detail: str


__all__ = [
    "MAX_MESSAGE",
    "PONG",
    "Act",
    "ClientMessage",
    "CreateTable",
    "Created",
    "ErrorMsg",
    "ErrorOut",
    "GameInfo",
    "Health",
    "HistoryEntry",
    "Join",
    "Joined",
    "LastAction",
    "LegalAction",
    "LevelInfo",
    "Ping",
    "PlayerInfo",
    "PlayersMsg",
    "PongMsg",
    "ServerMessage",
    "StateMsg",
    "Sync",
    "TableInfo",
    "WireError",
    "encode",
    "error",
    "parse",
]
