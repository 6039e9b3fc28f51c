"""The log lines of ``shedkit serve``: one line per event, with when, what and where.

Each line has the time (ISO 8601, UTC, milliseconds), the level, the node's name (its
``--node-id`` on a cluster, ``-`` on a single node), the table when the call names one,
and the message::

    2026-05-09T07:35:25.123Z INFO node=a table=Xk3P9qRt cluster: node a took table Xk3P9qRt over

A call names its table with ``extra={"table": table_id}``; without it the line has no
``table=`` part. ``--log-format json`` writes the same as one JSON object per line, with
the keys ``time``, ``level``, ``node``, ``table`` (only when named), ``logger``,
``message`` and ``exc`` (the traceback, only when there is one), for a log collector.

The server's own logger (``shedkit.server``) logs from INFO up, every other logger
(uvicorn's, the libraries') from WARNING up, all through the one handler on stderr.
uvicorn's access log stays off: a request is not an event an operator needs a line for.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
import time
from collections.abc import Iterator
from typing import Final, TextIO

__all__ = ["FORMATS", "TABLE", "JsonFormatter", "StderrHandler", "TextFormatter", "configured"]

#: The values of ``--log-format``.
FORMATS: Final = ("text", "json")
#: The ``extra`` key a log call names its table with: ``extra={"table": table_id}``.
TABLE: Final = "table"
#: uvicorn's loggers, whose lines go through the same handler as the server's.
UVICORN: Final = ("uvicorn", "uvicorn.error")


def timestamp(record: logging.LogRecord) -> str:
    """The record's time as ISO 8601 in UTC with milliseconds (``2026-05-09T07:35:25.123Z``)."""
    # record.msecs is the fraction of record.created that gmtime drops, so the two agree.
    whole = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{whole}.{int(record.msecs):03d}Z"


def table_of(record: logging.LogRecord) -> str | None:
    """The table the log call named (``extra={"table": ...}``), if any."""
    table = getattr(record, TABLE, None)
    return None if table is None or table == "" else str(table)


class TextFormatter(logging.Formatter):
    """``TIME LEVEL node=NODE [table=TABLE] MESSAGE``, then the traceback if any."""

    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        """One line (and a traceback's lines under it)."""
        table = table_of(record)
        where = f"node={self.node}" + ("" if table is None else f" table={table}")
        line = f"{timestamp(record)} {record.levelname} {where} {record.getMessage()}"
        trace = self.trace(record)
        return line if not trace else f"{line}\n{trace}"

    def trace(self, record: logging.LogRecord) -> str:
        """The record's traceback and stack, as text ('' when it has neither)."""
        parts = []
        # Cached on the record, as logging.Formatter does, for the other handlers.
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            parts.append(record.exc_text)
        if record.stack_info:
            parts.append(self.formatStack(record.stack_info))
        return "\n".join(parts)


class JsonFormatter(TextFormatter):
    """One JSON object per line: time, level, node, table (if any), logger, message, exc."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON object on one line."""
        line: dict[str, str] = {
            "time": timestamp(record),
            "level": record.levelname,
            "node": self.node,
        }
        table = table_of(record)
        if table is not None:
            line["table"] = table
        line["logger"] = record.name
        line["message"] = record.getMessage()
        trace = self.trace(record)
        if trace:
            line["exc"] = trace
        return json.dumps(line, ensure_ascii=False)


class StderrHandler(logging.StreamHandler[TextIO]):
    """A handler that writes to ``sys.stderr`` as it is when each line is written.

    Whoever replaces ``sys.stderr`` later (a test's capture, a daemon's redirect) gets the
    lines, and no line goes to a stream that has since been closed.
    """

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> TextIO:
        """The current ``sys.stderr``."""
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        pass  # always the current sys.stderr


@contextlib.contextmanager
def configured(node: str = "-", fmt: str = "text") -> Iterator[logging.Handler]:
    """Log as described above while inside; the previous set-up is back on leaving.

    ``node`` is the name on every line, ``fmt`` one of `FORMATS`. Call it after uvicorn's
    configuration is built (``uvicorn.Config`` sets up its own loggers when created).
    """
    if fmt not in FORMATS:
        raise ValueError(f"--log-format is one of {', '.join(FORMATS)}, not {fmt!r}")
    handler = StderrHandler()
    handler.setFormatter(JsonFormatter(node) if fmt == "json" else TextFormatter(node))
    root = logging.getLogger()
    server = logging.getLogger("shedkit.server")
    loggers = [logging.getLogger(n) for n in (*UVICORN, "uvicorn.access")]
    saved_root = (root.handlers[:], root.level)
    saved_server = server.level
    saved = [(lg, lg.handlers[:], lg.propagate, lg.disabled) for lg in loggers]
    root.handlers = [handler]
    root.setLevel(logging.WARNING)
    server.setLevel(logging.INFO)
    for name in UVICORN:
        # Their own handlers (uvicorn's formatter, without time) give way to the root's.
        logging.getLogger(name).handlers = []
        logging.getLogger(name).propagate = True
    # Off, not merely without a handler: Python's last resort would print its lines.
    access = logging.getLogger("uvicorn.access")
    access.handlers = []
    access.propagate = False
    access.disabled = True
    try:
        yield handler
    finally:
        root.handlers, level = saved_root
        root.setLevel(level)
        server.setLevel(saved_server)
        for logger, handlers, propagate, disabled in saved:
            logger.handlers, logger.propagate, logger.disabled = handlers, propagate, disabled
        handler.close()
