"""``shedkit serve``'s log lines: time, level, node, table, message; or JSON lines."""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shedkit.cli.main import main
from shedkit.server.logs import JsonFormatter, TextFormatter, configured
from shedkit.server.run import AnnouncingServer, uvicorn_config
from shedkit.server.settings import Settings

#: A line of the text format: UTC time with milliseconds, level, node, maybe a table.
TEXT_LINE = re.compile(
    r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (?P<level>[A-Z]+) node=(?P<node>\S+)"
    r"(?: table=(?P<table>\S+))? (?P<message>.*)"
)
log = logging.getLogger("shedkit.server")


def record(message: str, *args: object, **extra: Any) -> logging.LogRecord:
    """A record as ``log.warning(message, *args, extra=extra)`` makes it."""
    made = log.makeRecord(log.name, logging.WARNING, "x.py", 1, message, args, None, extra=extra)
    made.created, made.msecs = 1767225600.25, 250.0
    return made


def test_a_text_line_names_the_time_level_node_and_table() -> None:
    text = TextFormatter("a")
    line = text.format(record("cluster: took table %s over (fence %d)", "T1", 3, table="T1"))
    assert line == (
        "2026-01-01T00:00:00.250Z WARNING node=a table=T1 cluster: took table T1 over (fence 3)"
    )
    # No table named: no table part, and nothing breaks.
    assert (
        TextFormatter("-").format(record("plain"))
        == "2026-01-01T00:00:00.250Z WARNING node=- plain"
    )


def test_a_json_line_has_the_keys_and_the_traceback() -> None:
    fmt = JsonFormatter("b")
    plain = json.loads(fmt.format(record("hello %s", "there")))
    assert plain == {
        "time": "2026-01-01T00:00:00.250Z",
        "level": "WARNING",
        "node": "b",
        "logger": "shedkit.server",
        "message": "hello there",
    }
    try:
        raise ValueError("bad row")
    except ValueError:
        failed = log.makeRecord(
            log.name,
            logging.ERROR,
            "x.py",
            1,
            "set aside",
            (),
            sys.exc_info(),
            extra={"table": "T9"},
        )
    line = fmt.format(failed)
    assert "\n" not in line
    parsed = json.loads(line)
    assert parsed["table"] == "T9" and parsed["level"] == "ERROR"
    assert parsed["exc"].startswith("Traceback") and "ValueError: bad row" in parsed["exc"]
    # The text format puts the traceback under the line.
    first, *rest = TextFormatter("b").format(failed).splitlines()
    assert first.endswith("ERROR node=b table=T9 set aside") and rest[-1] == "ValueError: bad row"


def test_configured_routes_uvicorn_through_the_same_lines_and_restores(
    capsys: pytest.CaptureFixture[str],
) -> None:
    uvicorn_config(object(), Settings(), "127.0.0.1", 0)  # sets up uvicorn's loggers
    uvicorn_handlers = logging.getLogger("uvicorn").handlers[:]
    root_handlers = logging.getLogger().handlers[:]
    with configured("n1", "text"):
        log.info("held %d tables", 3)
        log.debug("not shown")
        logging.getLogger("uvicorn.error").error("uvicorn says")
        logging.getLogger("uvicorn.access").warning("no access lines")
    err = capsys.readouterr().err.splitlines()
    found = [TEXT_LINE.fullmatch(line) for line in err]
    assert all(found), err
    assert [(m["level"], m["node"], m["message"]) for m in found if m] == [
        ("INFO", "n1", "held 3 tables"),
        ("ERROR", "n1", "uvicorn says"),
    ]
    assert logging.getLogger("uvicorn").handlers == uvicorn_handlers
    assert logging.getLogger().handlers == root_handlers
    with pytest.raises(ValueError, match="--log-format"), configured("n1", "xml"):
        pass


def test_serve_logs_as_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def fake_run(self: AnnouncingServer) -> None:
        self.announce(self.config.port)
        log.warning("a line", extra={"table": "Tq"})

    monkeypatch.setattr(AnnouncingServer, "run", fake_run)
    url = f"sqlite:///{tmp_path / 'x.db'}"
    assert main(["serve", "--port", "8125", "--db", url, "--log-format", "json"]) == 0
    line = json.loads(capsys.readouterr().err.strip())
    assert (line["node"], line["table"], line["message"]) == ("-", "Tq", "a line")
    assert main(["serve", "--port", "8125", "--db", url]) == 0
    found = TEXT_LINE.fullmatch(capsys.readouterr().err.strip())
    assert found and found["table"] == "Tq"
    assert main(["serve", "--log-format", "xml"]) == 2
    assert "--log-format" in capsys.readouterr().err


def test_a_server_that_cannot_start_says_why_in_json(tmp_path: Path) -> None:
    shedkit = Path(sys.executable).with_name("shedkit")
    db = f"sqlite:///{tmp_path / 'missing' / 'x.db'}"
    argv = [str(shedkit), "serve", "--port", "0", "--db", db, "--log-format", "json"]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    lines = [json.loads(line) for line in run.stderr.splitlines()]
    assert lines and {line["logger"] for line in lines} == {"uvicorn.error"}
    assert "unable to open database file" in lines[0]["message"]
    assert lines[-1]["message"] == "Application startup failed. Exiting."
