"""The arena: duplicate deals, the same results on every backend, statistics, ratings, CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the [arena] extra is not installed")
pytest.importorskip("openskill", reason="the [arena] extra is not installed")

import shedkit
from shedkit.agents import AGENTS, GreedyDouDizhu, register_agent
from shedkit.arena import Tournament, play_deals, run_tournament
from shedkit.arena.stats import bootstrap_ratio, summarize, wilson
from shedkit.cli.main import main
from shedkit.core.rng import derive_seed


class GreedyCopy(GreedyDouDizhu):
    """The greedy bot under another name: duplicate play must rate the two exactly alike."""

    name = "greedy-copy"


class FirstMove:
    """Always the first legal move (any game): a second, deterministic player."""

    name = "first"

    def __init__(self, game: Any = None, seed: int = 0) -> None:
        pass

    def act(self, view: Any) -> Any:
        return view.legal_moves[0]


@pytest.fixture
def greedy_copy() -> Any:
    register_agent("greedy-copy", "doudizhu", GreedyCopy)
    yield
    del AGENTS["greedy-copy"]


@pytest.fixture
def first_move() -> Any:
    register_agent("first", "*", FirstMove)
    yield
    del AGENTS["first"]


def test_duplicate_play_gives_twins_identical_statistics(greedy_copy: None) -> None:
    results = run_tournament(Tournament("doudizhu", ("greedy", "greedy-copy"), deals=8, seed=5))
    a, b = results["stats"]["greedy"], results["stats"]["greedy-copy"]
    assert a == b
    assert a["landlord"]["games"] == 8 * 3  # three arrangements give greedy the landlord seat
    assert a["peasant"]["games"] == 8 * 5  # five give it a peasant seat (one side per game)


def test_every_arrangement_plays_the_same_cards() -> None:
    tour = Tournament("doudizhu", ("greedy", "random"), deals=3, seed=2)
    games = play_deals(tour.to_dict(), [0, 1, 2])
    assert len(games) == 3 * 6
    for g in games:
        assert g.roles[g.deal % 3] == "landlord"  # the landlord seat rotates with the deal
        assert sum(g.returns) == 0
    # The same deal and arrangement replays exactly; another seed changes the deals.
    assert play_deals(tour.to_dict(), [1]) == [g for g in games if g.deal == 1]
    other = play_deals({**tour.to_dict(), "seed": 3}, [1])
    assert other != [g for g in games if g.deal == 1]


def test_same_json_for_one_and_two_workers(first_move: None) -> None:
    tour = Tournament("president", ("random", "first"), deals=3, seed=1)
    one = run_tournament(tour, workers=1)
    assert one["games"] == 3 * 14  # 2^4 - 2 arrangements of two agents in four seats
    two = run_tournament(tour, workers=2)
    assert json.dumps(one) == json.dumps(two)
    ddz = Tournament("doudizhu", ("greedy", "random"), deals=5, seed=9, auction=True)
    assert json.dumps(run_tournament(ddz)) == json.dumps(run_tournament(ddz, workers=2))


def test_same_json_on_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ray", reason="the [ray] extra is not installed")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    tour = Tournament("doudizhu", ("greedy", "random"), deals=4, seed=4)
    local = run_tournament(tour, workers=1)
    assert json.dumps(run_tournament(tour, workers=2, backend="ray")) == json.dumps(local)


def test_president_places_and_wins() -> None:
    results = run_tournament(Tournament("president", ("random",), deals=10, seed=3))
    row = results["stats"]["random"]["player"]
    # Four seats of one agent: places 1…4 average 2.5, one first place per game.
    assert (row["games"], row["wins"], row["score"]) == (40, 10, 2.5)
    assert row["score_ci"] == [2.5, 2.5]


def test_president_four_agents_rotate_through_every_seat(first_move: None) -> None:
    register_agent("first-2", "*", FirstMove)
    try:
        tour = Tournament(
            "president", ("random", "first", "first-2"), deals=2, seed=3, options={"players": 3}
        )
        results = run_tournament(tour)
    finally:
        del AGENTS["first-2"]
    assert results["games"] == 2 * 6
    assert results["stats"]["first"] == results["stats"]["first-2"]
    assert sum(r["player"]["score"] for r in results["stats"].values()) == pytest.approx(6.0)
    assert set(results["ratings"]) == {"random", "first", "first-2"}


def test_dominoes_partnerships_count_once_and_rate_as_teams() -> None:
    tour = Tournament("dominoes", ("greedy", "random"), deals=3, seed=2)
    games = play_deals(tour.to_dict(), [0, 1, 2])
    assert len(games) == 3 * 14
    for g in games:
        assert g.teams == (0, 1, 0, 1)  # DOM-02: seats 0+2 against 1+3
        assert g.won[0] == g.won[2] and g.returns[0] == g.returns[2]
    results = run_tournament(tour)
    # Greedy holds both seats of a side in some arrangements: that side counts once.
    sides = sum(len({(a, g.teams[s]) for s, a in enumerate(g.seats) if a == 0}) for g in games)
    assert results["stats"]["greedy"]["player"]["games"] == sides
    assert set(results["ratings"]) == {"greedy", "random"}


def test_wilson_and_bootstrap() -> None:
    lo, hi = wilson(30, 100)
    assert lo < 0.3 < hi and (round(lo, 4), round(hi, 4)) == (0.2189, 0.3958)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    ones = np.ones(20)
    assert bootstrap_ratio(ones * 3, ones, seed=1) == (3.0, 3.0)
    rng = np.random.default_rng(0)
    sums = rng.normal(1.0, 1.0, 400)
    lo, hi = bootstrap_ratio(sums, np.ones(400), seed=1)
    assert lo < sums.mean() < hi and hi - lo < 0.4
    assert bootstrap_ratio(sums, np.ones(400), seed=1) == (lo, hi)
    assert np.isnan(bootstrap_ratio(np.zeros(3), np.zeros(3), seed=1)[0])


def test_summary_counts_a_side_once() -> None:
    tour = Tournament("doudizhu", ("greedy", "random"), deals=2, seed=1)
    games = play_deals(tour.to_dict(), [0, 1])
    stats = summarize(games, tour.agents, ("landlord", "peasant"), 2, 1)
    # Random is a peasant in five of the six arrangements of each deal (all but the one
    # with greedy in both peasant seats); holding both peasant seats still counts once.
    assert stats["random"]["peasant"]["games"] == 2 * 5
    assert stats["random"]["landlord"]["games"] == 2 * 3
    assert stats["random"]["all"]["games"] == 2 * (5 + 3)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "chess"}, "does not play"),
        ({"agents": ("nobody",)}, "unknown agent"),
        ({"agents": ("random", "random")}, "once"),
        ({"agents": ("random", "greedy", "rlcard-rule", "x")}, "seats"),
        ({"deals": 0}, "deals"),
        ({"game": "president", "agents": ("random",), "auction": True}, "auction"),
        ({"options": {"players": 9}}, "players"),
    ],
)
def test_tournament_errors(kwargs: dict[str, Any], message: str) -> None:
    spec: dict[str, Any] = {"game": "doudizhu", "agents": ("greedy", "random"), "deals": 2}
    spec.update(kwargs)
    with pytest.raises(shedkit.OptionError, match=message):
        Tournament(**spec)


def test_backend_errors() -> None:
    tour = Tournament("doudizhu", ("random",), deals=1)
    with pytest.raises(shedkit.OptionError, match="backend"):
        run_tournament(tour, backend="mpi")
    with pytest.raises(shedkit.OptionError, match="workers"):
        run_tournament(tour, workers=0)


def test_cli_arena_writes_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, plot = tmp_path / "r.json", tmp_path / "r.png"
    argv = ["arena", "doudizhu", "--agents", "greedy,random", "--deals", "3", "--seed", "7"]
    assert main([*argv, "--out", str(out), "--plot", str(plot), "--workers", "2"]) == 0
    text = capsys.readouterr().out
    assert "landlord" in text and "openskill" in text
    results = json.loads(out.read_text())
    assert results["games"] == 18 and results["seed"] == 7
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # The progress bar goes to stderr; the results are the same without it.
    again = tmp_path / "again.json"
    assert main([*argv, "--out", str(again), "--no-progress"]) == 0
    assert again.read_text() == out.read_text()
    assert main(["arena", "doudizhu", "--agents", "greedy,nobody"]) == 2
    assert "unknown agent" in capsys.readouterr().err
    assert main(["arena", "president", "--agents", "random", "--option", "players=9"]) == 2


def test_a_local_ray_node_slow_to_register_is_started_once_more() -> None:
    """Ray's raylet gets a fixed 30 s to register; a node that misses it is started
    again once, and any other failure (or a second timeout) reaches the caller."""
    from shedkit.arena.backends import _start_ray

    class FakeRay:
        def __init__(self, errors: list[str]) -> None:
            self.errors, self.calls, self.shutdowns = errors, 0, 0

        def init(self, **settings: object) -> None:
            self.calls += 1
            if self.errors:
                raise Exception(self.errors.pop(0))

        def shutdown(self) -> None:
            self.shutdowns += 1

    slow = FakeRay(["The current node timed out during startup. This could happen"])
    _start_ray(slow, 2)
    assert (slow.calls, slow.shutdowns) == (2, 1)
    twice = FakeRay(["timed out during startup"] * 2)
    with pytest.raises(Exception, match="timed out"):
        _start_ray(twice, 2)
    other = FakeRay(["no space left"])
    with pytest.raises(Exception, match="no space"):
        _start_ray(other, 2)
    assert other.calls == 1


def test_tiengow_rotates_the_banker_and_scores_chips_per_hand() -> None:
    """Tien Gow: every seating of a deal plays the same tiles under the same banker, which
    rotates with the deal (TG-03); the score is the hand's chips (zero-sum, TG-30), a win
    is the hand won, and the ratings place the seats by their chips."""
    tour = Tournament("tiengow", ("greedy", "random"), deals=4, seed=6)
    games = play_deals(tour.to_dict(), [0, 1, 2, 3])
    assert len(games) == 4 * 14  # 2^4 - 2 seatings of two agents in four seats
    game = shedkit.make("tiengow")
    for g in games:
        assert sum(g.returns) == 0 and sum(g.won) == 1
        assert g.scores == tuple(float(r) for r in g.returns)
        best = max(g.scores)
        assert [p == 0 for p in g.places] == [x == best for x in g.scores]
        assert g.teams == (0, 1, 2, 3)
    # The setup fixes the banker by the deal number: a replay of a game meets the same one.
    state = game.new_deal(seed=derive_seed(6, "deal", 2), banker=2)
    assert state.banker == 2 and state.current_player == 2
    results = run_tournament(tour)
    assert results["score_name"] == "chips per hand"
    row = results["stats"]["greedy"]["player"]
    assert row["results"] == sum(a == 0 for g in games for a in g.seats)
    assert row["score_ci"][0] <= row["score"] <= row["score_ci"][1]
    assert 0.0 <= row["wp_ci"][0] <= row["wp"] <= row["wp_ci"][1] <= 1.0
    # The two agents' chips cancel out over every seating of every deal.
    other = results["stats"]["random"]["player"]
    total = row["score"] * row["results"] + other["score"] * other["results"]
    assert total == pytest.approx(0.0, abs=1e-3)


def test_tiengow_twins_get_identical_statistics() -> None:
    from shedkit.agents.greedy_tiengow import GreedyTienGow

    class Twin(GreedyTienGow):
        name = "twin"

    register_agent("twin", "tiengow", Twin)
    try:
        results = run_tournament(Tournament("tiengow", ("greedy", "twin"), deals=3, seed=4))
    finally:
        del AGENTS["twin"]
    assert results["stats"]["greedy"] == results["stats"]["twin"]


def test_tiengow_forfeit_is_a_loss_at_the_worst_payment_from_there() -> None:
    """A forfeiting seat loses: it pays what a loser with its units so far pays (TG-31) at
    the banker factor (TG-32), doubled while a slam is possible (TG-33)."""
    from shedkit.arena.games import arena_game

    game = shedkit.make("tiengow", first_banker=0)
    spec = arena_game("tiengow")
    state = game.new_deal(seed=3)
    seat = 1  # not the banker; the banker factor of a first hand is 2
    outcome = spec.forfeit(state, seat)
    assert outcome.won == (True, False, True, True) and outcome.places == (0, 1, 0, 0)
    assert outcome.scores[seat] == -5 * 2 * 2  # no unit: 5, at m = 2, a slam still possible
    from shedkit.agents import make_agent

    greedy = make_agent("greedy", game)
    while not any(state.units[s] for s in range(4) if s != seat) or state.units[seat] == 0:
        if state.is_over:
            state = game.new_deal(seed=state.seed + 1)
        state.apply(greedy.act(state.view(state.current_player)))
    units = state.units[seat]
    assert spec.forfeit(state, seat).scores[seat] == -max(0, 4 - units) * 2
