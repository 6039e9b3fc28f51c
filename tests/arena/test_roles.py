"""``shedkit arena doudizhu --roles``: pure roles on duplicate deals, as DouZero evaluates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("scipy", reason="the [arena] extra is not installed")
pytest.importorskip("openskill", reason="the [arena] extra is not installed")

from shedkit.arena import Tournament, play_deals, run_tournament
from shedkit.cli.main import main
from shedkit.core.errors import OptionError


def test_roles_play_each_agent_once_as_landlord_and_once_as_both_peasants() -> None:
    """Each deal: A landlord vs B peasants and B landlord vs A peasants, nothing mixed."""
    tour = Tournament(game="doudizhu", agents=("greedy", "random"), deals=4, seed=3, roles=True)
    games = play_deals(tour.to_dict(), list(range(4)))
    assert len(games) == 8 == tour.deals * tour.games_per_deal()
    for game in games:
        landlord = game.roles.index("landlord")
        peasants = {a for s, a in enumerate(game.seats) if s != landlord}
        assert len(peasants) == 1 and game.seats[landlord] not in peasants
    by_deal = sorted((g.deal, g.seats[g.roles.index("landlord")]) for g in games)
    assert by_deal == [(d, a) for d in range(4) for a in (0, 1)]
    stats = run_tournament(tour)["stats"]
    for agent in ("greedy", "random"):
        assert stats[agent]["landlord"]["games"] == 4
        assert stats[agent]["peasant"]["games"] == 4


def test_cli_roles(tmp_path: Path) -> None:
    """The command line runs it and writes the pure-role games only."""
    out = tmp_path / "roles.json"
    argv = ["arena", "doudizhu", "--agents", "greedy,random", "--deals", "3", "--roles"]
    assert main([*argv, "--no-progress", "--out", str(out)]) == 0
    results = json.loads(out.read_text())
    assert results["roles"] is True and results["games"] == 6


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "president", "agents": ("greedy", "random")}, "Dou Di Zhu"),
        ({"game": "doudizhu", "agents": ("greedy",)}, "exactly two"),
        ({"game": "doudizhu", "agents": ("greedy", "random"), "auction": True}, "no --auction"),
    ],
)
def test_roles_errors(kwargs: dict[str, object], message: str) -> None:
    """--roles outside its use gets a clear error."""
    with pytest.raises(OptionError, match=message):
        Tournament(deals=2, roles=True, **kwargs)  # type: ignore[arg-type]
