"""The table server: FastAPI lobby + one websocket per seat or spectator.

``spillebord serve`` calls :func:`serve`. :func:`create_app` builds the app for one process;
with ``--workers N`` uvicorn starts N processes that each call :func:`app_from_env` (an
import string and a factory, configured by ``SPILLEBORD_*`` environment variables). Several
workers need PostgreSQL: they share tables through it and hear each other's actions through
LISTEN/NOTIFY.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI

import spillebord
from spillebord.core.errors import SpillebordError
from spillebord.store import (
    NOTIFY_CHANNEL,
    AnalysisStore,
    Note,
    Store,
    StoreError,
    hold_sqlite,
    libpq_url,
    release_sqlite,
    resolve_url,
)

from .actionlog import MemoryLog, StoreLog
from .analysis import Analysis, make_analysis_router
from .api import install_errors, make_router, mount_web
from .bus import LocalBus, PgBus
from .clock import SYSTEM_CLOCK, Clock, FakeClock, SystemClock
from .errors import Config
from .extras import make_extras_router
from .guard import GuardMiddleware, Window
from .hub import Hub
from .logs import log_config
from .metrics import Metrics
from .people import People
from .people_api import install_people_errors, make_people_router

log = logging.getLogger("spillebord.server")

WEB_DIR = Path(spillebord.__file__).resolve().parent / "web"


def create_app(
    db_url: str | None = None,
    *,
    config: Config | None = None,
    web_dir: str | Path | None = None,
    multi: bool | None = None,
    **settings: Any,
) -> FastAPI:
    """The app of one server process on ``db_url`` (None: the default SQLite file; a path;
    ``sqlite:///…``; ``postgresql://…``). ``config`` (or ``settings``, fields of
    :class:`Config` that override it) holds every bound. ``multi`` (default: on PostgreSQL)
    makes the process talk to other workers through LISTEN/NOTIFY."""
    url, _where = resolve_url(db_url)
    config = dataclasses.replace(config or Config(), **settings)
    metrics = Metrics()
    hubs: list[Hub] = []
    people: list[People] = []
    analyses: list[Analysis] = []

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Threads (the database's writer and readers; bots in thread mode) and the event loop
        # share the GIL: switch sooner. (Measured: at the default 5 ms, the writer thread
        # waits for the GIL at each step of a commit, and a commit under load takes 200 ms.)
        sys.setswitchinterval(0.001)
        # SPILLEBORD_PROFILE=FILE: profile the event loop's thread (cProfile, in the thread's
        # CPU time: waiting for a core or for the GIL is not counted) until the server stops,
        # then write the statistics there (``python -m pstats FILE``).
        profile_to = os.environ.get(ENV + "PROFILE")
        profiler = None
        if profile_to:
            import cProfile
            import time

            profiler = cProfile.Profile(time.thread_time)
            profiler.enable()
        store = Store(url, busy_timeout=config.db_busy_timeout)
        if store.is_sqlite:
            hold_sqlite(store.path)  # (held already when started by serve(): no-op)
        is_multi = store.is_pg if multi is None else multi
        hub = Hub(StoreLog(store), config, worker_id=uuid.uuid4().hex[:10], multi=is_multi, metrics=metrics)
        bus: LocalBus | PgBus = (
            PgBus(libpq_url(url), NOTIFY_CHANNEL) if (store.is_pg and is_multi) else LocalBus()
        )
        hubs.append(hub)
        people.append(People(store, hub))
        app.state.people = people[-1]
        analyses.append(Analysis(hub, AnalysisStore(store)))
        app.state.analysis = analyses[-1]

        def on_bus(msg: Note) -> None:
            hub.on_bus(msg)
            people[-1].on_bus(msg)

        # Listen first, then rebuild: a change made meanwhile by another worker is not lost.
        await bus.start(on_bus, hub.resync_all)
        await hub.start()
        await people[-1].start()
        try:
            yield
        finally:
            await analyses[-1].stop()
            await people[-1].stop()
            await bus.stop()
            await hub.stop()
            store.dispose()
            if store.is_sqlite:
                release_sqlite(store.path)
            if profiler is not None and profile_to:
                profiler.disable()
                profiler.dump_stats(profile_to)

    app = FastAPI(
        title="Spillebord",
        version=spillebord.__version__,
        summary="Tables for seven Scandinavian games: lobby (HTTP) and live play (websockets)",
        lifespan=lifespan,
    )
    install_errors(app)
    posts = Window(config.posts_per_minute, SYSTEM_CLOCK)
    app.add_middleware(GuardMiddleware, config=config, posts=posts, metrics=metrics)

    def get_hub() -> Hub:
        return hubs[-1]

    app.state.get_hub = get_hub
    install_people_errors(app)
    app.include_router(make_router(get_hub))
    app.include_router(make_extras_router(get_hub))
    app.include_router(make_analysis_router(lambda: analyses[-1]))
    web = Path(web_dir) if web_dir is not None else WEB_DIR
    app.include_router(make_people_router(lambda: people[-1], web))
    mount_web(app, web)
    return app


ENV = "SPILLEBORD_"


def register_spec(spec: str) -> None:
    """Register the game ``ATTR`` of ``module`` found in ``DIR`` (``DIR:module:ATTR``)."""
    import importlib

    from spillebord.core import registry

    path, mod, attr = spec.rsplit(":", 2)
    if path not in sys.path:
        sys.path.insert(0, path)
    registry.register(getattr(importlib.import_module(mod), attr))


def config_to_env(config: Config) -> None:
    """Put every setting in ``SPILLEBORD_<NAME>`` (for uvicorn's worker processes)."""
    for f in dataclasses.fields(Config):
        os.environ[ENV + f.name.upper()] = str(getattr(config, f.name))


def config_from_env(env: Any = None) -> Config:
    """The :class:`Config` of ``SPILLEBORD_<NAME>`` variables (defaults for the others)."""
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    for f in dataclasses.fields(Config):
        raw = env.get(ENV + f.name.upper())
        if raw is None or raw == "":
            continue
        default: Any = f.default
        if isinstance(default, bool):
            values[f.name] = raw.lower() in ("1", "true", "yes")
        else:
            values[f.name] = type(default)(raw)
    return Config(**values)


def app_from_env() -> FastAPI:
    """The factory uvicorn's workers call (``spillebord.server:app_from_env``)."""
    env = os.environ
    # Extra games to register first, "DIR:module:ATTR;…" (the tests' toy game, plug-ins).
    for spec in filter(None, env.get(ENV + "REGISTER", "").split(";")):
        register_spec(spec)
    return create_app(env.get(ENV + "DB") or None, config=config_from_env(env))


def _preflight(url: str, where: str, host: str, port: int) -> None:
    """Fail fast, in one readable line, on the two mistakes people make at start: a port that
    is taken and a database that does not answer (rather than a retry loop or a traceback)."""
    import socket

    import sqlalchemy
    from sqlalchemy.exc import SQLAlchemyError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as e:
            raise SpillebordError(
                f"cannot listen on {host}:{port} ({e.strerror}): choose another --port"
            ) from None
    if url.startswith("sqlite"):
        # One server per SQLite file, said in one line before anything starts.
        try:
            hold_sqlite(sqlalchemy.make_url(url).database or "")
        except StoreError as e:
            raise SpillebordError(str(e)) from None
    if url.startswith("postgresql"):
        engine = sqlalchemy.create_engine(url, connect_args={"connect_timeout": 5})
        try:
            with engine.connect():
                pass
        except SQLAlchemyError as e:
            reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
            raise SpillebordError(f"cannot reach the database {where}: {reason}") from None
        finally:
            engine.dispose()


def serve(
    db: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = 1,
    *,
    config: Config | None = None,
    log_level: str = "info",
    out: Any = None,
    **settings: Any,
) -> None:
    """Run the server until interrupted. Prints the URL and where the tables are stored.
    ``config`` / ``settings``: the bounds (:class:`Config`; ``bot_delay`` defaults to 0.6 s
    here so that people can follow the bots)."""
    import uvicorn

    config = dataclasses.replace(config or Config(bot_delay=0.6, bot_processes=-1), **settings)
    out = out or sys.stdout
    url, where = resolve_url(db)
    if workers < 1:
        raise SpillebordError("--workers must be at least 1")
    if workers > 1 and not url.startswith("postgresql"):
        raise SpillebordError(
            "--workers above 1 needs PostgreSQL (--db postgresql://…); SQLite serves one worker"
        )
    _preflight(url, where, host, port)
    shown = f"[{host}]" if ":" in host else host
    print(f"Spillebord serving on http://{shown}:{port}/", file=out)
    print(f"Database: {where}", file=out)
    if workers > 1:
        print(f"Workers: {workers} (PostgreSQL LISTEN/NOTIFY)", file=out)
    out.flush()
    common: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": log_level,
        "log_config": log_config(),
        "ws_max_size": 1024 * 1024,
        "ws_per_message_deflate": False,  # states are small; compressing them costs more than it saves
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "timeout_graceful_shutdown": 3,
        # Behind a proxy, the client address comes from X-Forwarded-For of these addresses only.
        "forwarded_allow_ips": os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
    }
    if workers == 1:
        app = create_app(db, config=config)
        uvicorn.run(app, **common)
        return
    os.environ[ENV + "DB"] = db or ""
    config_to_env(config)
    uvicorn.run("spillebord.server:app_from_env", factory=True, workers=workers, **common)


__all__ = [
    "Clock",
    "Config",
    "FakeClock",
    "Hub",
    "MemoryLog",
    "StoreLog",
    "SystemClock",
    "app_from_env",
    "config_from_env",
    "config_to_env",
    "create_app",
    "serve",
]
