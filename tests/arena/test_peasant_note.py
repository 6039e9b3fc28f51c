"""The arena's Dou Di Zhu legend says why a weak agent's peasant results look good."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("scipy", reason="the [arena] extra is not installed")
pytest.importorskip("openskill", reason="the [arena] extra is not installed")

from rich.console import Console

from shedkit.arena import Tournament, run_tournament
from shedkit.arena.cli import legend, print_results

NOTE = "the two peasants win or lose together"


def test_mixed_seatings_print_the_peasant_partner_note() -> None:
    # DDZ-14: either peasant going out wins for both; random shares wins with greedy beside it.
    results = run_tournament(Tournament("doudizhu", ("greedy", "random"), deals=3, seed=2))
    assert "peasant" in results["stats"]["random"]
    console = Console(file=io.StringIO(), width=140)
    print_results(console, results)
    flat = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert NOTE in flat and "--roles plays pure roles only" in flat


def test_pure_roles_and_other_games_have_no_peasant_note() -> None:
    pure = run_tournament(Tournament("doudizhu", ("greedy", "random"), deals=2, seed=2, roles=True))
    assert not any(NOTE in line for line in legend(pure))
    president = run_tournament(Tournament("president", ("greedy", "random"), deals=1, seed=2))
    assert not any(NOTE in line for line in legend(president))
