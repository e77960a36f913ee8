"""The server's log lines: structured (``key=value``, with the table id where there is one)
and never carrying a seat token.

Tokens no longer travel in URLs (the web client sends them as a websocket subprotocol), but
an old client may still put ``?token=…`` in a websocket URL, and uvicorn logs every request
line: :class:`RedactTokens` blanks any token in any record before it is written.
"""

from __future__ import annotations

import copy
import json
import logging
import re
from typing import Any

_TOKEN = re.compile(r"((?:^|[?&\s\"',])(?:token|access_token)=)[^&\s\"',]+|(token\.)[A-Za-z0-9_\-]+")


def redact(text: str) -> str:
    """``text`` with every seat token (``token=…`` in a query, ``token.…`` subprotocols) blanked."""
    return _TOKEN.sub(lambda m: (m.group(1) or m.group(2)) + "[redacted]", text)


class RedactTokens(logging.Filter):
    """Blank tokens in a record's message and arguments (every handler of the server has it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format: leave it to the handler to report
            return True
        clean = redact(message)
        if clean != message or record.args:
            record.msg, record.args = clean, ()
        return True


class KeyValueFormatter(logging.Formatter):
    """``time level=… logger=… table=… msg="…"``: one line per record, easy to grep and to
    ship to a log store. ``table`` comes from ``extra={"table": id}``; an exception's
    traceback follows on the next lines."""

    def format(self, record: logging.LogRecord) -> str:
        parts = [
            self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            f"level={record.levelname.lower()}",
            f"logger={record.name}",
        ]
        table = getattr(record, "table", None)
        if table is not None:
            parts.append(f"table={table}")
        parts.append(f"msg={json.dumps(redact(record.getMessage()), ensure_ascii=False)}")
        line = " ".join(parts)
        if record.exc_info:
            line += "\n" + redact(self.formatException(record.exc_info))
        return line


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with the token filter on every handler, key=value
    lines, and the server's own logger (``spillebord``) on the same handler."""
    from uvicorn.config import LOGGING_CONFIG

    cfg = copy.deepcopy(LOGGING_CONFIG)
    cfg["filters"] = {"redact": {"()": "spillebord.server.logs.RedactTokens"}}
    cfg["formatters"]["kv"] = {"()": "spillebord.server.logs.KeyValueFormatter"}
    for handler in cfg["handlers"].values():
        handler["filters"] = ["redact"]
        handler["formatter"] = "kv"
    cfg["loggers"]["spillebord"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    return cfg


__all__ = ["KeyValueFormatter", "RedactTokens", "log_config", "redact"]
