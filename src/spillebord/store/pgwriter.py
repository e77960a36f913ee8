"""PostgreSQL's appender process: stores the server's actions in batches, beside its event loop.

The server starts this file as a script (``python -I pgwriter.py``, see
:class:`spillebord.store.pg.PgAppender`) so that the process imports only the standard
library and psycopg. It reads batches from stdin and answers each on stdout, one at a time;
both ways a message is 4 bytes of length (big-endian) and a pickle:

* in: a list of actions, each ``(table_id, seq, seat, action, status, time, outcome, scores,
  truncated, note)`` with ``note`` a dict or None;
* in, first: the connection string (not on the command line, where ``ps`` would show a
  password);
* out: ``("ready",)`` once connected, then per batch ``("ok", [[table_id, seq], ...])`` (the
  actions stored: their numbers were free) or ``("error", type name, message)``.

Each batch is one statement, so one transaction and one WAL flush (group commit); its
notices go out as NOTIFY with the commit. It ends at the end of its input (the server closed
it, or died).
"""

from __future__ import annotations

import json
import pickle
import struct
import sys
from typing import Any, BinaryIO

NOTIFY_CHANNEL = "spillebord"
"""The channel of the workers' bus (:data:`spillebord.store.db.NOTIFY_CHANNEL` is this one)."""

APPEND_BATCH = (
    """
    WITH data AS (
        SELECT * FROM json_to_recordset(%(rows)s::json) AS d(
            t text, q int, s int, a text, now float8, status text, n int, outcome text, scores text,
            truncated bool, p text, g int
        )
    ), ins AS (
        INSERT INTO sb_actions (table_id, seq, seat, action, created)
        SELECT t, q, s, a, now FROM data
        ON CONFLICT DO NOTHING
        RETURNING table_id, seq
    ), upd AS (
        UPDATE sb_tables SET status = d.status, n_actions = d.n, outcome = d.outcome, scores = d.scores,
                             truncated = d.truncated, updated = d.now
        FROM data d JOIN ins ON ins.table_id = d.t AND ins.seq = d.q
        WHERE sb_tables.id = d.t
        RETURNING sb_tables.id
    ), stored AS (
        SELECT ins.table_id, ins.seq, d.p, d.g FROM ins JOIN data d ON d.t = ins.table_id AND d.q = ins.seq
    ), sent AS (
        SELECT pg_notify('"""
    + NOTIFY_CHANNEL
    + """', '[' || string_agg(p, ',') || ']') FROM stored WHERE p <> '' GROUP BY g
    )
    SELECT table_id, seq, (SELECT count(*) FROM sent) FROM stored
"""
)
"""One batch: its actions come as one JSON parameter (a list of rows: one string for psycopg
to send, where twelve arrays cost it twice the CPU); the stored ones (those whose number was
free) move their tables on, and their notices go out as one notification per group ``g`` (a
JSON list of notices, at most :data:`NOTE_GROUP` bytes), not one per action."""

NOTE_GROUP = 7000
"""Bytes of notices in one notification (PostgreSQL's payload limit is 8000)."""

Item = tuple[str, int, int, str, str, float, Any, Any, bool, "dict[str, Any] | None"]
"""One action as the server sends it (see the module's docstring)."""


def _list(xs: Any) -> str | None:
    return json.dumps(list(xs)) if xs is not None else None


def batch_params(items: list[Item]) -> dict[str, str]:
    """The statement's one parameter for ``items``: the rows, their notices grouped."""
    rows: list[dict[str, Any]] = []
    group = size = 0
    for t, q, s, a, status, now, outcome, scores, truncated, note in items:
        p = json.dumps(note) if note is not None else ""
        size += len(p) + 1
        if size > NOTE_GROUP:
            group, size = group + 1, len(p) + 1
        rows.append(
            {
                "t": t,
                "q": q,
                "s": s,
                "a": a,
                "now": now,
                "status": status,
                "n": q + 1,
                "outcome": _list(outcome),
                "scores": _list(scores),
                "truncated": truncated,
                "p": p,
                "g": group,
            }
        )
    return {"rows": json.dumps(rows)}


def _read(stream: BinaryIO) -> Any:
    head = stream.read(4)
    if len(head) < 4:
        return None
    (n,) = struct.unpack(">I", head)
    return pickle.loads(stream.read(n))


def _write(stream: BinaryIO, msg: object) -> None:
    data = pickle.dumps(msg, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack(">I", len(data)) + data)
    stream.flush()


def main() -> None:
    import psycopg  # here, so that importing this module (the server does) needs no psycopg

    inp, out = sys.stdin.buffer, sys.stdout.buffer
    conninfo = _read(inp)
    if conninfo is None:
        return
    try:
        conn = psycopg.connect(conninfo, autocommit=True)
    except Exception as e:
        _write(out, ("error", type(e).__name__, str(e)))
        return
    _write(out, ("ready",))
    while (items := _read(inp)) is not None:
        params = batch_params(items)
        try:
            for attempt in (1, 2):
                if conn.closed or conn.broken:
                    conn = psycopg.connect(conninfo, autocommit=True)
                try:
                    stored = [[r[0], r[1]] for r in conn.execute(APPEND_BATCH, params).fetchall()]
                    break
                except psycopg.OperationalError:
                    # The backend went away (killed, restarted): once more on a new
                    # connection. Safe: an action the lost one did store comes back as
                    # taken (ON CONFLICT DO NOTHING), and its table catches up.
                    if attempt == 2 or not (conn.closed or conn.broken):
                        raise
        except Exception as e:
            _write(out, ("error", type(e).__name__, str(e).strip()))
            continue
        _write(out, ("ok", stored))


if __name__ == "__main__":
    main()
