"""What ``shedkit arena`` prints: games and results that add up, a legend, a moving progress."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("scipy", reason="the [arena] extra is not installed")
pytest.importorskip("openskill", reason="the [arena] extra is not installed")

from rich.console import Console

from shedkit.arena import Tournament, run_tournament
from shedkit.arena.backends import chunks
from shedkit.arena.cli import SCORE_LEGEND, print_results


@pytest.mark.parametrize(
    ("game", "agents", "seatings"),
    [
        ("doudizhu", ("greedy", "random"), 6),
        ("president", ("greedy", "random"), 14),
        ("tiengow", ("greedy", "random"), 14),
    ],
)
def test_header_rows_and_total_agree_on_games_and_results(
    game: str, agents: tuple[str, ...], seatings: int
) -> None:
    results = run_tournament(Tournament(game, agents, deals=3, seed=2))
    assert results["games"] == 3 * seatings
    stats = results["stats"]
    top = "all" if "all" in stats[agents[0]] else "player"
    for agent in agents:
        # Every seating has each agent: it sat in every game, some of them twice.
        assert stats[agent][top]["played"] == results["games"]
        assert stats[agent][top]["results"] >= results["games"]
        assert stats[agent][top]["results"] == stats[agent][top]["games"]
    console = Console(file=io.StringIO(), width=140)
    print_results(console, results)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert f"3 deals x {seatings} seatings = {3 * seatings} games" in text
    total = sum(stats[a][top]["results"] for a in agents)
    total_row = next(line for line in text.splitlines() if line.startswith("│ total"))
    assert total_row.split("│")[3].strip() == str(3 * seatings)
    assert total_row.split("│")[4].strip() == str(total)
    flat = " ".join(text.split())
    assert "game: one deal played under one seating of the agents" in flat
    assert "WP: win proportion, wins / results" in flat
    assert SCORE_LEGEND[results["score_name"]].split(":")[0] + ":" in flat
    assert "ordinal = mu - 3 sigma" in flat


def test_progress_moves_after_the_first_deal() -> None:
    tour = Tournament("doudizhu", ("greedy", "random"), deals=4, seed=1)
    seen: list[int] = []
    run_tournament(tour, progress=seen.append)
    assert seen == [6, 12, 18, 24]  # one report per deal of six seatings


def test_chunks_start_small_and_cover_every_deal_once() -> None:
    parts = chunks(500, 2)
    assert [len(c) for c in parts[:3]] == [1, 2, 4]
    assert [d for c in parts for d in c] == list(range(500))
