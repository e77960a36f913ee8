"""The lobby: the games, creating and joining tables, and what is said of a table over HTTP
(its summary, history and record)."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Sequence
from typing import Any

from spillebord.ai import agent_names, best_agent, canonical, make_agent
from spillebord.ai.levels import ladder
from spillebord.core import AnyGame, registry
from spillebord.core.errors import UnknownGame
from spillebord.core.options import schema as options_schema
from spillebord.core.options import to_dict as options_to_dict
from spillebord.store import SeatRec, SeatTaken, Settings, StoreError, TableRec
from spillebord.tables import Table

from .actionlog import Storage
from .bounds import capped_schema, check_lengths
from .bus import Notes
from .clock import Clock
from .errors import BadRequest, Conflict, NotFound, Unavailable
from .presence import Presence, token_hash
from .service import LiveTable, TableService, stored_record, unplayable
from .wire import GameInfo, HistoryEntry, LevelInfo, TableInfo


@functools.cache
def _levels(game_id: str) -> list[LevelInfo]:
    # Made once a game: the level agents are built to read what they play (ai.levels.ladder).
    return [
        LevelInfo(agent=f"level{level}", plays=plays, iterations=iterations)
        for level, (plays, iterations) in ladder(registry.get(game_id)).items()
    ]


def game_info(game: AnyGame) -> GameInfo:
    return GameInfo(
        id=game.id,
        title=game.title,
        summary=game.summary,
        seats=[game.seats.start, game.seats.stop - 1],
        languages=list(game.languages),
        options=capped_schema(game.id, options_schema(game.Options)),
        quick_options=dict(game.quick_options),
        bots=agent_names(game),
        best_bot=best_agent(game),
        levels=_levels(game.id),
    )


def _public_actions(game_id: str) -> bool:
    try:
        return registry.get(game_id).kind.public_actions
    except UnknownGame:
        return False


class Lobby:
    def __init__(
        self,
        service: TableService,
        storage: Storage,
        presence: Presence,
        clock: Clock,
        notes: Notes,
        client_seeds: bool = False,
        lobby_limit: int = 1000,
    ) -> None:
        self.service = service
        self.storage = storage
        self.presence = presence
        self.clock = clock
        self.notes = notes
        self.client_seeds = client_seeds
        """Accept a creator's seed (tests only; see :attr:`Config.client_seeds`)."""
        self.lobby_limit = lobby_limit

    def games(self) -> list[GameInfo]:
        return [game_info(g) for g in registry.all_games()]

    async def create(
        self,
        game_id: str,
        seats: int | None,
        options: dict[str, Any] | None,
        bots: Sequence[str | None] | None,
        public: bool,
        seed: int | None,
        name: str | None,
        settings: Settings | None = None,
    ) -> tuple[str, int | None, str | None]:
        """A new table: (its id, the creator's seat, that seat's token). Its seed's commitment
        is published with it (:meth:`commitment`); its ``settings`` (time control, rated,
        chat: :attr:`~spillebord.server.people.TableExtras.settings`) are stored with it, in
        one transaction (None: the defaults, no row)."""
        game = registry.get(game_id)
        n = game.seats.start if seats is None else seats
        game.check_seats(n)
        # A level by what it is called ("master") is stored by its agent's name ("level5"): the
        # table shows it in the reader's language.
        bot_list = [None if b is None else canonical(b) for b in bots] if bots is not None else [None] * n
        if len(bot_list) != n:
            raise BadRequest(f"bots: give one entry per seat ({n}), not {len(bot_list)}")
        for b in bot_list:
            if b is not None:
                make_agent(b, game)  # an unknown agent fails here, readably
        if seed is None:
            # From the operating system's cryptographic source: nobody can predict or choose it.
            seed = secrets.randbits(62)
        elif not self.client_seeds:
            raise BadRequest(
                "the server draws every table's seed itself (a chosen seed would tell its chooser "
                'every hand); leave out "seed" and check the deal afterwards with `spillebord verify`'
            )
        elif not 0 <= seed < 2**63:
            raise BadRequest("seed must be between 0 and 2**63 - 1")
        salt = secrets.token_hex(16)
        table = Table.create(game, n, seed, options or {}, salt=salt)
        options_dict = options_to_dict(table.options)
        check_lengths(game.id, game.title, options_dict)
        now = self.clock.time()
        seat_recs = [SeatRec(i, name=b, bot=b, seen=now) for i, b in enumerate(bot_list)]
        token = None
        my_seat = next((i for i, b in enumerate(bot_list) if b is None), None)
        if my_seat is not None:
            token = secrets.token_urlsafe(24)
            seat_recs[my_seat].token_hash = token_hash(token)
            seat_recs[my_seat].name = (name or "").strip()[:80] or f"Player {my_seat + 1}"
        table.players = [s.name or "" for s in seat_recs]
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        lt = LiveTable(table_id, game, table, seat_recs, public, now, self.clock.monotonic())
        rec = TableRec(
            id=table_id,
            game=game.id,
            seats=n,
            seed=seed,
            options=options_dict,
            public=public,
            status=lt.status,
            created=now,
            updated=now,
            engine=game.version,
            salt=salt,
            commitment=table.commitment,
            seat_recs=seat_recs,
            settings=settings,
        )
        # A timed table: the other workers run its clocks too.
        note = self.notes.note("t", table_id) if settings is not None and settings.clock else None
        await self.storage.create(rec, note)
        self.service.add(lt)
        return table_id, my_seat, token

    def commitment(self, table_id: str) -> str | None:
        """The seed's commitment of a table in memory here (just created)."""
        lt = self.service.tables.get(table_id)
        return lt.table.commitment if lt is not None else None

    async def join(self, table_id: str, seat: int | None, name: str) -> tuple[int, str]:
        """Take a free seat: (the seat, its token)."""
        try:
            lt = await self.service.get(table_id)
        except Unavailable as e:
            raise Conflict(str(e)) from None
        if lt.is_over:
            raise SeatTaken("the game is over")
        token = secrets.token_urlsafe(24)
        name = (name or "").strip()[:80]
        try:
            got = await self.storage.claim(
                table_id,
                seat,
                name or "Player",
                token_hash(token),
                self.clock.time(),
                self.notes.note("s", table_id),
            )
        except StoreError as e:
            raise BadRequest(str(e)) from None
        await self.presence.reload_seats(lt)
        return got, token

    # ----------------------------------------------------------------- what is said of a table

    def summary(self, lt: LiveTable) -> TableInfo:
        state = lt.table.state
        outcome = lt.outcome()
        return TableInfo(
            table=lt.id,
            game=lt.game.id,
            title=lt.game.title,
            seats=lt.table.seats,
            status=lt.status,
            free_seats=[s.seat for s in lt.seats if s.free],
            players=self.presence.players(lt),
            created=lt.created,
            public=lt.public,
            seq=lt.seq,
            to_act=lt.table.to_act,
            outcome=list(outcome) if outcome is not None else None,
            scores=list(state.scores()) if outcome is not None else None,
            truncated=state.truncated,
            engine=lt.game.version,
            commitment=lt.table.commitment,
            seed=lt.table.seed if (lt.is_over or lt.closed) and lt.table.salt is not None else None,
            salt=lt.table.salt if lt.is_over or lt.closed else None,
        )

    def summary_rec(self, rec: TableRec, note: str | None = None) -> TableInfo:
        """The summary of a table from what is stored (not in memory here, or not replayable:
        then ``note`` says why, and a table not over is ``unavailable``)."""
        try:
            title = registry.get(rec.game).title
        except UnknownGame:
            title = rec.game
        over = rec.status == "over"
        ended = rec.status in ("over", "closed")
        return TableInfo(
            table=rec.id,
            game=rec.game,
            title=title,
            seats=rec.seats,
            status=rec.status if note is None or ended else "unavailable",
            free_seats=[s.seat for s in rec.seat_recs if s.free],
            players=self.presence.players_of(rec.seat_recs),
            created=rec.created,
            public=rec.public,
            seq=rec.n_actions,
            to_act=None,
            outcome=rec.outcome if over else None,
            scores=rec.scores if over else None,
            truncated=rec.truncated,
            engine=rec.engine,
            note=note,
            commitment=rec.commitment,
            seed=rec.seed if ended and rec.salt is not None else None,
            salt=rec.salt if ended else None,
        )

    async def _stored(self, table_id: str) -> TableRec:
        rec = await self.storage.load(table_id)
        if rec is None:
            raise NotFound(f"no table {table_id!r}")
        return rec

    async def info(self, table_id: str) -> TableInfo:
        try:
            return self.summary(await self.service.get(table_id))
        except Unavailable as e:
            return self.summary_rec(await self._stored(table_id), str(e))

    async def listing(self) -> list[TableInfo]:
        """Public tables that are open or running (unavailable ones too, with their note)."""
        out = []
        for rec in await self.storage.listing(self.lobby_limit):
            lt = self.service.tables.get(rec.id)
            if lt is not None:
                out.append(self.summary(lt))
            else:
                note = self.service.unavailable.get(rec.id) or unplayable(rec)
                out.append(self.summary_rec(rec, note))
        return out

    async def record(self, table_id: str) -> dict[str, Any]:
        """The replay record of a finished game (while it runs, the seed would give hidden
        cards away). A finished table this server cannot replay is served as stored."""
        try:
            lt = await self.service.get(table_id)
        except Unavailable:
            rec = await self._stored(table_id)
            if rec.status not in ("over", "closed"):
                raise Conflict("the record is available once the game is over") from None
            return stored_record(rec)
        if not lt.is_over and not lt.closed:
            raise Conflict("the record is available once the game is over")
        record = lt.table.to_record()
        if lt.ended is not None:  # a seat lost on time
            record["outcome"] = list(lt.ended)
        return record

    async def history(self, table_id: str) -> list[HistoryEntry]:
        """Every action so far with its seat, sequence number and time. While the game runs,
        action texts are shown only for games whose actions are public."""
        try:
            lt = await self.service.get(table_id)
            show = lt.is_over or lt.closed or lt.game.kind.public_actions
        except Unavailable:
            rec = await self._stored(table_id)
            show = rec.status in ("over", "closed") or _public_actions(rec.game)
        rows = await self.storage.read(table_id, 0)
        return [
            HistoryEntry(seq=a.seq, seat=a.seat, action=a.action if show else None, time=a.time) for a in rows
        ]


__all__ = ["Lobby", "game_info"]
