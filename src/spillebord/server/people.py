"""People at the tables: accounts and sessions, "my tables", per-table settings (time
control, rated, chat), ratings, chat. One :class:`People` per server process, beside the hub.

* **Accounts** are optional (anonymous play stays one click). A name and a password, hashed
  with Argon2id (:data:`PASSWORD_HASHER`: RFC 9106's second recommended profile, 64 MiB,
  3 passes, 4 lanes, 16-byte salt); logins are limited per name and per client address
  (:class:`Limiter`). A session is a random 256-bit token in an ``HttpOnly``, ``SameSite=Lax``
  cookie (``Secure`` over https), stored as its SHA-256 only; "log out everywhere" drops them all.
* A seat taken while logged in is linked to the account, so the account's other devices find
  it (and its token) in "my tables".
* **Ratings**: OpenSkill's Plackett-Luce model with its default scale (μ 25, σ 25/3), the one
  the arena rates bots on; from finished rated tables, partnerships rated as teams; bots at
  rated tables are rated too, so a person sees which bot level matches them.
* **Chat** per table: seated players write; spectators read (``players``), or not
  (``seated``), or there is no chat (``off``); lines are stored, limited in length and rate,
  and sent as plain text (clients render them with ``textContent``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import secrets
import unicodedata
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from argon2.profiles import RFC_9106_LOW_MEMORY

from spillebord.core import registry
from spillebord.core.errors import SpillebordError
from spillebord.core.options import build as build_options
from spillebord.core.options import to_dict as options_to_dict
from spillebord.store import PeopleStore, Store
from spillebord.store.people import DEFAULT_SETTINGS, Account, ChatLine, NameTaken, RatingRec, Settings

from .errors import BadRequest, Conflict
from .service import LiveTable
from .timecontrol import ClockStore, TimeControl, TimeKeeper

log = logging.getLogger("spillebord.server")

T = TypeVar("T")

PASSWORD_HASHER = PasswordHasher.from_parameters(RFC_9106_LOW_MEMORY)
"""Argon2id, t=3, m=64 MiB, p=4, 16-byte salt, 32-byte hash (RFC 9106, section 4, second choice)."""

SESSION_COOKIE = "sb_session"
SESSION_DAYS = 30
NAME_RE = re.compile(r"^[\w][\w .'-]{1,39}$")
PASSWORD_MIN, PASSWORD_MAX = 8, 1024
CHAT_MAX = 500
"""Characters per chat line."""
ChatPolicy = Literal["players", "seated", "off"]


class TooMany(SpillebordError):
    """Too many attempts (logins, chat lines): try again later (HTTP 429)."""


class Unauthorized(SpillebordError):
    """Not logged in, or the credentials are wrong (HTTP 401)."""


class Forbidden(SpillebordError):
    """Not allowed here (HTTP 403)."""


def _sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Limiter:
    """At most ``limit`` events per key in any ``window`` seconds (sliding, in memory)."""

    def __init__(self, limit: int, window: float, now: Callable[[], float]) -> None:
        self.limit = limit
        self.window = window
        self.now = now
        self.hits: dict[str, deque[float]] = {}

    def _live(self, key: str) -> deque[float]:
        q = self.hits.setdefault(key, deque())
        cutoff = self.now() - self.window
        while q and q[0] <= cutoff:
            q.popleft()
        return q

    def blocked(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        q = self._live(key)
        if len(q) < self.limit:
            if not q:
                self.hits.pop(key, None)
            return 0.0
        return max(0.0, q[0] + self.window - self.now())

    def hit(self, key: str) -> None:
        self._live(key).append(self.now())
        if len(self.hits) > 100_000:  # bounded memory: forget the quietest keys
            for k in [k for k, q in self.hits.items() if not q][:50_000]:
                del self.hits[k]

    def clear(self, key: str) -> None:
        self.hits.pop(key, None)


def clean_text(text: str) -> str:
    """A chat line as stored: control characters dropped, whitespace collapsed."""
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch == " ")
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class TableExtras:
    """What the people service adds to a table at creation."""

    clock: TimeControl | None
    rated: bool
    chat: ChatPolicy

    @property
    def settings(self) -> Settings:
        """As stored with the table (by :meth:`Lobby.create`, in the table's own transaction)."""
        return Settings(self.clock.to_dict() if self.clock else None, self.rated, self.chat)


class _Clocks(ClockStore):
    def __init__(self, people: People) -> None:
        self.people = people

    async def save(self, table_id: str, state: dict[str, Any], now: float) -> None:
        await self.people._db(self.people.db.save_clock, table_id, state, now)

    async def end(self, table_id: str, outcome: Sequence[float], scores: Sequence[float], now: float) -> bool:
        note = self.people.hub.notes.note("o", table_id)  # the other workers: it is over
        return await self.people._db(self.people.db.end_table, table_id, outcome, scores, now, note)


class People:
    def __init__(self, store: Store, hub: Any, hasher: PasswordHasher = PASSWORD_HASHER) -> None:
        from .hub import Hub

        self.hub: Hub = hub
        self.db = PeopleStore(store)
        self.hasher = hasher
        self._dummy_hash = hasher.hash(secrets.token_hex(16))
        now = hub.clock.time
        # Logins: 5 failures per name and 20 per address in 15 minutes; 10 registrations
        # per address an hour; 5 chat lines per seat in 10 seconds.
        self.login_by_name = Limiter(5, 900.0, now)
        self.login_by_addr = Limiter(20, 900.0, now)
        self.register_by_addr = Limiter(10, 3600.0, now)
        self.chat_limit = Limiter(5, 10.0, now)
        self.keeper = TimeKeeper(hub, _Clocks(self))
        self.keeper.on_over.append(self._finished)
        self.settings: dict[str, Settings] = {}
        self._rated: dict[str, tuple[Any, dict[str, Any], dict[str, Any]]] = {}
        self._unlinked: set[str] = set()
        """Tables created here with no seat linked to an account (single worker: every seat is
        taken here): their end needs no look-up of the seats' accounts."""
        self._tasks: set[asyncio.Task[Any]] = set()
        # A long-running server drops what it keeps per table with the table (the settings
        # are read again from the database if the table is asked for).
        hub.service.on_dropped.append(self.forget)

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)

    # ----------------------------------------------------------------- life

    async def start(self, tick: float | None = 0.5) -> None:
        """After the hub started: the clocks of every timed unfinished table run again, as
        they were stored. ``tick``: the keeper's round (None: the tests run it by hand)."""
        self.keeper.install()
        self.hub.service.on_change.append(self._on_change)
        for tid in await self._db(self.db.timed_tables):
            await self._adopt(tid)
        if tick is not None:
            self.keeper.start(tick)

    async def stop(self) -> None:
        await self.keeper.stop()
        for t in list(self._tasks):
            await asyncio.gather(t, return_exceptions=True)

    async def _adopt(self, table_id: str) -> None:
        """Run the clocks of a timed table as they were stored (server start; a table another
        worker created): every worker keeps them, so one that dies leaves none behind."""
        if table_id in self.keeper.controls:
            return
        try:
            lt = await self.hub.service.get(table_id)
            s = await self._table_settings(table_id)
            if s is None or s.clock is None or lt.is_over:
                return
            state = await self._db(self.db.load_clock, table_id)
            await self.keeper.add(lt, TimeControl.from_dict(s.clock), state)
        except Exception as e:
            log.warning("table %s: its clocks cannot run: %s", table_id, e)

    def on_bus(self, msg: dict[str, Any]) -> None:
        """A notice from another worker: a timed table it created (its clocks run here too),
        a table it ended on time (over here too), a chat line (for the sockets here)."""
        kind = msg.get("k")
        if kind not in ("o", "t", "c") or self.hub.notes.mine(msg):
            return
        tid = str(msg.get("t"))
        if kind == "c":
            line = msg.get("line")
            if isinstance(line, dict):
                self._push(tid, line, str(msg.get("p")))
            return
        if kind == "t":
            self._spawn(self._adopt(tid))
            return
        lt = self.hub.service.tables.get(tid)
        if lt is not None:
            self._spawn(self._ended_elsewhere(lt))

    async def _ended_elsewhere(self, lt: LiveTable) -> None:
        rec = await self.hub.storage.load(lt.id)
        if rec is None or rec.status != "over" or lt.is_over:
            return
        async with lt.lock:
            lt.ended = list(rec.outcome or [0.0] * rec.seats)
            self.hub.presence.broadcast(lt)
        self.keeper.forget(lt.id)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def forget(self, table_id: str) -> None:
        """The table left this worker's memory (evicted after its end, or closed idle)."""
        self.settings.pop(table_id, None)
        self._unlinked.discard(table_id)

    async def _table_settings(self, table_id: str) -> Settings | None:
        s = self.settings.get(table_id)
        if s is None:
            s = await self._db(self.db.settings, table_id)
            if s is not None:
                self.settings[table_id] = s
        return s

    # ----------------------------------------------------------------- accounts

    async def register(self, name: str, password: str, addr: str) -> tuple[Account, str]:
        """A new account, logged in: (the account, a session token)."""
        name = " ".join((name or "").split())
        if not NAME_RE.match(name):
            raise BadRequest("a name has 2 to 40 letters, digits, spaces or . ' - _")
        self._check_password(password)
        wait = self.register_by_addr.blocked(addr)
        if wait:
            raise TooMany(f"too many new accounts from your address: try again in {wait / 60:.0f} minutes")
        pw_hash = await asyncio.to_thread(self.hasher.hash, password)
        self.register_by_addr.hit(addr)
        try:
            aid = await self._db(self.db.create_account, name, pw_hash, self.hub.clock.time())
        except NameTaken as e:
            raise Conflict(str(e)) from None
        return Account(aid, name, pw_hash), await self._new_session(aid)

    @staticmethod
    def _check_password(password: str) -> None:
        if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
            raise BadRequest(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")

    async def login(self, name: str, password: str, addr: str) -> tuple[Account, str]:
        """Check a name and password: (the account, a new session token). Refused while the
        name or the address has too many recent failures."""
        key = " ".join((name or "").split()).casefold()
        wait = max(self.login_by_name.blocked(key), self.login_by_addr.blocked(addr))
        if wait:
            raise TooMany(f"too many failed logins: try again in {max(1, round(wait / 60))} minutes")
        acc = await self._db(self.db.account_by_name, key)
        ok = False
        try:
            # An unknown name costs the same work as a known one (no telling which names exist).
            ok = await asyncio.to_thread(
                self.hasher.verify, acc.pw_hash if acc else self._dummy_hash, password or ""
            )
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok or acc is None:
            self.login_by_name.hit(key)
            self.login_by_addr.hit(addr)
            raise Unauthorized("wrong name or password")
        self.login_by_name.clear(key)
        if self.hasher.check_needs_rehash(acc.pw_hash):  # parameters raised since: upgrade it
            new = await asyncio.to_thread(self.hasher.hash, password)
            await self._db(self.db.set_password_hash, acc.id, new)
        return acc, await self._new_session(acc.id)

    async def _new_session(self, account_id: int) -> str:
        token = secrets.token_urlsafe(32)
        now = self.hub.clock.time()
        await self._db(self.db.add_session, _sha(token), account_id, now, now + SESSION_DAYS * 86400)
        return token

    async def account(self, session: str | None) -> Account | None:
        """The account of a session token (None: no session, or expired)."""
        if not session:
            return None
        return await self._db(self.db.session_account, _sha(session), self.hub.clock.time())

    async def logout(self, session: str | None, everywhere: bool = False) -> int:
        """End this session (``everywhere``: every session of its account); how many ended."""
        acc = await self.account(session)
        if acc is None or session is None:
            return 0
        if everywhere:
            return await self._db(self.db.drop_sessions, acc.id)
        await self._db(self.db.drop_session, _sha(session))
        return 1

    # ----------------------------------------------------------------- tables

    def extras(
        self,
        game_id: str,
        options: dict[str, Any] | None,
        seed: int | None,
        clock: dict[str, Any] | None,
        rated: bool,
        chat: str,
    ) -> TableExtras:
        """Check what a new table asks for, before it is created (readable errors).

        A table is rated only with the game's standard or short-game options and a deal the
        server draws: custom rules or a chosen seed make it unrated."""
        game = registry.get(game_id)
        control = TimeControl.parse(clock, game) if clock is not None else None
        if chat not in ("players", "seated", "off"):
            raise BadRequest("chat is 'players' (spectators read), 'seated' (only players) or 'off'")
        if rated and seed is None:
            standard, quick = self._rated_options(game)
            values = options or {}
            quick_values = game.quick_options
            same_as_quick = values == quick_values and all(
                type(v) is type(quick_values[k]) for k, v in values.items()
            )
            if values and not same_as_quick:  # else: the very values of one of the two
                try:
                    opts: dict[str, Any] | None = options_to_dict(build_options(game.Options, values))
                except SpillebordError:
                    opts = None  # the lobby will say what is wrong
                rated = opts in (standard, quick)
        else:
            rated = False
        return TableExtras(control, rated, chat)  # type: ignore[arg-type]

    def _rated_options(self, game: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """The standard and the short-game options of ``game`` as dicts: built once per game
        (they were built twice for every new table)."""
        got = self._rated.get(game.id)
        if got is None or got[0] is not game:
            standard = options_to_dict(build_options(game.Options, {}))
            quick = options_to_dict(build_options(game.Options, dict(game.quick_options)))
            got = self._rated[game.id] = (game, standard, quick)
        return got[1], got[2]

    async def created(
        self, table_id: str, seat: int | None, token: str | None, extras: TableExtras, session: str | None
    ) -> None:
        """A table was created with ``extras.settings`` stored: link the creator's seat, start
        its clocks."""
        self.settings[table_id] = extras.settings
        # No seat of it can be linked to an account but here: with one worker, or when no seat
        # is left free (a join, the only other way to a link, takes a free seat).
        lt = self.hub.service.tables.get(table_id)
        if not self.hub.notes.multi or (lt is not None and not any(s.free for s in lt.seats)):
            self._unlinked.add(table_id)
        if seat is not None and token is not None:
            await self.joined(table_id, seat, token, session)
        if extras.clock is not None:
            lt = await self.hub.service.get(table_id)
            await self.keeper.add(lt, extras.clock)

    async def joined(self, table_id: str, seat: int, token: str, session: str | None) -> None:
        """A seat was taken: link it to the account of the session (if any); the clocks may start."""
        acc = await self.account(session)
        if acc is not None:
            self._unlinked.discard(table_id)
            await self._db(self.db.link_seat, acc.id, table_id, seat, token)
        await self.keeper.check_table(table_id)

    async def table_settings(self, table_id: str) -> dict[str, Any]:
        s = await self._table_settings(table_id) or DEFAULT_SETTINGS
        return {"clock": s.clock, "rated": s.rated, "chat": s.chat}

    async def my_tables(self, acc: Account) -> list[dict[str, Any]]:
        """The account's seats: tables where it is their turn first, then the others that run
        or wait for players, then finished games (newest first) with their replay record."""
        out: list[dict[str, Any]] = []
        for m in await self._db(self.db.my_seats, acc.id):
            lt = self.hub.service.tables.get(m.table_id)
            status, to_act, outcome = m.status, None, m.outcome
            if lt is None and status != "over":
                try:
                    lt = await self.hub.service.get(m.table_id)
                except SpillebordError:
                    status = "unavailable"
            if lt is not None:
                status, to_act = lt.status, lt.table.to_act
                o = lt.outcome()
                outcome = list(o) if o is not None else None
            your_turn = status == "running" and to_act == m.seat
            try:
                title = registry.get(m.game).title
            except SpillebordError:
                title = m.game
            out.append(
                {
                    "table": m.table_id,
                    "game": m.game,
                    "title": title,
                    "seat": m.seat,
                    "token": m.token,
                    "status": status,
                    "your_turn": your_turn,
                    "to_act": to_act,
                    "outcome": outcome,
                    "updated": m.updated,
                    "url": f"/table/{m.table_id}",
                    "record": f"/api/tables/{m.table_id}/record" if status == "over" else None,
                }
            )
        order = {"running": 1, "open": 2, "over": 4}
        out.sort(key=lambda x: (0 if x["your_turn"] else order.get(x["status"], 3), -x["updated"]))
        return out

    # ----------------------------------------------------------------- ratings

    def _on_change(self, lt: LiveTable) -> None:
        if lt.is_over:
            self._spawn(self._finished(lt))

    async def _finished(self, lt: LiveTable) -> None:
        try:
            s = await self._table_settings(lt.id)
            if s is not None and s.rated:
                await self.rate(lt)
        except Exception:
            log.exception("table %s: rating failed", lt.id)

    async def rate(self, lt: LiveTable) -> bool:
        """Put a finished table's result into the ratings (once); whether it did."""
        from openskill.models import PlackettLuce

        outcome = lt.outcome()
        if outcome is None:
            return False
        if lt.id in self._unlinked:
            self._unlinked.discard(lt.id)
            return False  # nobody with an account (known without asking the database)
        accounts = await self._db(self.db.seat_accounts, lt.id)
        if not accounts:
            return False  # nobody with an account: nothing to rate
        players: list[str | None] = []
        for s in lt.seats:
            if s.seat in accounts:
                players.append(f"a:{accounts[s.seat]}")
            elif s.bot is not None:
                players.append(f"bot:{s.bot}")
            else:
                players.append(None)  # anonymous: a fresh rating, not kept
        known = [p for p in players if p is not None]
        current = await self._db(self.db.ratings, lt.game.id, known)
        model = PlackettLuce()
        teams = lt.game.teams(lt.table.seats)
        side_ratings = []
        for side in teams:
            team = []
            for seat in side:
                p = players[seat]
                had = current.get(p) if p is not None else None
                team.append(model.rating(mu=had.mu, sigma=had.sigma) if had else model.rating())
            side_ratings.append(team)
        values = [outcome[side[0]] for side in teams]
        ranks: list[float] = [1.0 + sum(1 for v in values if v > mine) for mine in values]
        rated = model.rate(side_ratings, ranks=ranks)
        seat_names = {s.seat: (s.name or "") for s in lt.seats}
        new: dict[str, RatingRec] = {}
        for side, team in zip(teams, rated, strict=True):
            for seat, r in zip(side, team, strict=True):
                p = players[seat]
                if p is None or p in new:
                    continue
                old = current.get(p)
                name = p[4:] if p.startswith("bot:") else seat_names[seat]
                if p.startswith("a:") and old is not None and not name:
                    name = old.name
                new[p] = RatingRec(p, name, r.mu, r.sigma, (old.games if old else 0) + 1)
        return await self._db(
            self.db.apply_ratings, lt.id, lt.game.id, list(new.values()), self.hub.clock.time()
        )

    async def leaderboard(self, game_id: str) -> list[dict[str, Any]]:
        registry.get(game_id)  # an unknown game: 404
        rows = await self._db(self.db.leaderboard, game_id)
        return [
            {
                "rank": i + 1,
                "name": r.name,
                "kind": "bot" if r.player.startswith("bot:") else "person",
                "mu": round(r.mu, 3),
                "sigma": round(r.sigma, 3),
                "ordinal": round(r.mu - 3 * r.sigma, 3),
                "games": r.games,
            }
            for i, r in enumerate(rows)
        ]

    # ----------------------------------------------------------------- chat

    async def _chat_seat(self, lt: LiveTable, token: str | None, session: str | None) -> int | None:
        """The seat of whoever writes or reads (a seat token, or an account's session)."""
        if token:
            seat = await self.hub.presence.seat_for_token(lt, token)
            if seat is None:
                raise Forbidden("this token holds no seat at this table")
            return seat
        acc = await self.account(session)
        if acc is not None:
            for seat, aid in (await self._db(self.db.seat_accounts, lt.id)).items():
                if aid == acc.id:
                    return seat
        return None

    async def _policy(self, table_id: str) -> str:
        s = await self._table_settings(table_id)
        return (s or DEFAULT_SETTINGS).chat

    async def say(self, table_id: str, text: str, token: str | None, session: str | None) -> ChatLine:
        """A seated player writes a line: stored, then sent to the table's connections."""
        lt = await self.hub.service.get(table_id)
        policy = await self._policy(table_id)
        if policy == "off":
            raise Forbidden("this table has no chat")
        seat = await self._chat_seat(lt, token, session)
        if seat is None:
            raise Forbidden("only the players at this table can write here")
        text = clean_text(text if isinstance(text, str) else "")
        if not text:
            raise BadRequest("a chat line needs some text")
        if len(text) > CHAT_MAX:
            raise BadRequest(f"a chat line has at most {CHAT_MAX} characters (this one has {len(text)})")
        key = f"{table_id}:{seat}"
        wait = self.chat_limit.blocked(key)
        if wait:
            raise TooMany(f"too many lines at once: wait {max(1, round(wait))} s")
        self.chat_limit.hit(key)
        name = lt.seats[seat].name or f"Player {seat + 1}"

        def note(line: ChatLine) -> Any:  # the other workers' sockets hear it too
            return self.hub.notes.note("c", table_id, line=self.line_json(line), p=policy)

        line = await self._db(self.db.add_chat, table_id, seat, name, text, self.hub.clock.time(), note)
        self._push(table_id, self.line_json(line), policy)
        return line

    def _push(self, table_id: str, line: dict[str, Any], policy: str) -> None:
        """Send a chat line to this worker's sockets at the table (spectators: if they read)."""
        msg = json.dumps({"type": "chat", "lines": [line]}, ensure_ascii=False)
        for s, conns in self.hub.presence.conns.get(table_id, {}).items():
            if s is None and policy != "players":
                continue
            for c in conns:
                c.put(msg)

    async def read_chat(
        self, table_id: str, since: int, token: str | None, session: str | None
    ) -> list[dict[str, Any]]:
        lt = await self.hub.service.get(table_id)
        policy = await self._policy(table_id)
        if policy == "off":
            return []
        if policy == "seated" and await self._chat_seat(lt, token, session) is None:
            raise Forbidden("only the players at this table can read its chat")
        return [self.line_json(x) for x in await self._db(self.db.chat, table_id, since)]

    @staticmethod
    def line_json(line: ChatLine) -> dict[str, Any]:
        return {"id": line.id, "seat": line.seat, "name": line.name, "text": line.text, "time": line.time}


__all__ = ["CHAT_MAX", "PASSWORD_HASHER", "SESSION_COOKIE", "Forbidden", "People", "TooMany", "Unauthorized"]
