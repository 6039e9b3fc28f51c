"""Running ``shedkit`` in a test: ``main()`` with piped input, and a match's arguments."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from shedkit.cli.main import main


def run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    stdin: str = "",
) -> tuple[int, str, str]:
    """``main(argv)`` with ``stdin`` piped in; the exit status, stdout and stderr."""
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    # Wide enough that no message wraps, so the checks can look for whole lines.
    monkeypatch.setenv("COLUMNS", "200")
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def match_args(game: str, records: Path, *extra: str, seed: int, deals: int) -> list[str]:
    """``shedkit play GAME`` with a fixed seed, a number of deals and a records folder."""
    head = ["play", game, "--seed", str(seed), "--deals", str(deals)]
    return [*head, "--records", str(records), *extra]
