"""The server stays in modules a person can read alone."""

from __future__ import annotations

from pathlib import Path

import shedkit.server.manager as manager_module

SERVER = Path(manager_module.__file__).parent


def lines(path: Path) -> int:
    """Lines in a source file."""
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_server_module_is_over_500_lines() -> None:
    long = {p.name: lines(p) for p in SERVER.glob("*.py") if lines(p) > 500}
    assert long == {}


def test_the_manager_only_wires_its_parts() -> None:
    assert lines(SERVER / "manager.py") < 300


def test_the_names_imported_from_the_manager_still_are() -> None:
    # app, run, the tests and the benchmarks import these from shedkit.server.manager.
    for name in (
        "BURST",
        "EMOTES",
        "MAX_MESSAGE",
        "QUICK_PHRASES",
        "SPEEDS",
        "Connection",
        "Manager",
        "SeatInfo",
        "TableRuntime",
        "agents_for",
        "commitment",
        "default_agent",
        "log",
    ):
        assert hasattr(manager_module, name), name


def test_the_table_module_reaches_no_socket_and_no_storage() -> None:
    # One table's state and rules: a network boundary may later go around it.
    text = (SERVER / "table.py").read_text(encoding="utf-8")
    for name in ("fastapi", "WebSocket", "send_text", "Storage", "save_table", "on_commit"):
        assert name not in text, name
