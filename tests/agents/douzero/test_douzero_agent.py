"""The ``douzero`` agent: made by name with its weights, legal, reproducible, in the arena
and the terminal."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pytest

import shedkit
from shedkit.agents import AGENTS, GreedyDouDizhu, make_agent
from shedkit.agents.base import AGENTS_WITH_ARGUMENT, agent_names
from shedkit.agents.douzero.agent import DouZeroAgent, candidates
from shedkit.agents.douzero.encoding import POSITIONS, douzero_cards
from shedkit.agents.douzero.model import DouZeroNet, random_params, save_npz
from shedkit.core.errors import OptionError
from shedkit.core.match import play_deal


@pytest.fixture(scope="module")
def weights(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A weights folder of random networks."""
    folder = tmp_path_factory.mktemp("douzero")
    for i, position in enumerate(POSITIONS):
        save_npz(random_params(position, seed=i), folder / f"{position}.npz")
    return folder


def test_made_by_name_with_its_weights(weights: Path) -> None:
    game = shedkit.make("doudizhu")
    assert isinstance(make_agent(f"douzero:{weights}", game, 1), DouZeroAgent)
    assert isinstance(make_agent("douzero", game, 1, weights=weights), DouZeroAgent)
    assert isinstance(make_agent("douzero", game, 1, weights=str(weights)), DouZeroAgent)
    with pytest.raises(OptionError, match="needs its weights: douzero:WEIGHTS"):
        make_agent("douzero", game)
    with pytest.raises(OptionError, match="given twice"):
        make_agent(f"douzero:{weights}", game, weights=weights)
    with pytest.raises(OptionError, match="takes weights"):
        make_agent("douzero", game, weights=weights, level=3)
    with pytest.raises(OptionError, match="takes no arguments"):
        make_agent("greedy", game, weights=weights)
    with pytest.raises(OptionError, match="does not play president"):
        make_agent(f"douzero:{weights}", shedkit.make("president"))
    with pytest.raises(OptionError, match="players=4"):
        make_agent(f"douzero:{weights}", shedkit.make("doudizhu", preset="four-player"))
    # The server's tables offer the agents a name alone makes: not this one.
    assert "douzero" not in AGENTS and "douzero" in AGENTS_WITH_ARGUMENT
    assert "douzero:WEIGHTS" in agent_names()


def test_plays_whole_deals_legally_and_reproducibly(weights: Path) -> None:
    game = shedkit.make("doudizhu")
    records = []
    for _ in range(2):
        records.append([])
        for seed in range(4):
            state = game.new_deal(seed=seed)
            agents = [make_agent(f"douzero:{weights}", game, seed * 3 + s) for s in range(3)]
            play_deal(state, agents)  # every move is applied, so every move was legal
            records[-1].append(state.record())
    assert records[0] == records[1]
    assert any(not r["thrown_in"] for r in records[0])


def test_bids_as_greedy_and_scores_every_legal_play() -> None:
    game = shedkit.make("doudizhu")
    nets = {p: DouZeroNet(random_params(p, seed=7)) for p in POSITIONS}
    agent = DouZeroAgent(game, 3, weights=nets)
    greedy = GreedyDouDizhu(game, 3)
    follows = 0
    for seed in range(12):
        state = game.new_deal(seed=seed)
        while state.phase == "auction":
            view = state.view(state.current_player)
            move = agent.act(view)
            assert move == greedy.act(view)
            state.apply(move)
        while not state.is_over:
            view = state.view(state.current_player)
            actions, moves = candidates(view)
            assert len(actions) == len(moves)
            assert all(m in view.legal_moves for m in moves)
            assert all(douzero_cards(m.ranks) == a for a, m in zip(actions, moves, strict=True))
            # Every legal play is scored (some under another reading of the same cards).
            assert {tuple(sorted(m.ranks)) for m in view.legal_moves} == {
                tuple(sorted(m.ranks)) for m in moves
            }
            follows += view.last_play is not None
            state.apply(agent.act(view))
    assert follows > 50


def test_a_single_legal_move_is_played_unscored() -> None:
    game = shedkit.make("doudizhu")
    nets = {p: DouZeroNet(random_params(p)) for p in POSITIONS}
    agent = DouZeroAgent(game, 0, weights=nets)
    state = game.new_deal(seed=2, landlord=0)
    view = state.view(0)
    only = dataclasses.replace(view, legal_moves=view.legal_moves[-1:])
    assert agent.act(only) is view.legal_moves[-1]


def test_in_the_arena_and_the_terminal(
    weights: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("scipy", reason="the [arena] extra is not installed")
    pytest.importorskip("openskill", reason="the [arena] extra is not installed")
    from shedkit.cli.main import main

    name = f"douzero:{weights}"
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    monkeypatch.setenv("COLUMNS", "200")
    out = weights.parent / "arena.json"
    arena = ["arena", "doudizhu", "--agents", f"{name},greedy", "--deals", "1", "--seed", "3"]
    assert main([*arena, "--no-progress", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["stats"][name]["landlord"]["games"] == 3
    capsys.readouterr()
    argv = ["play", "doudizhu", "--watch", "--bots", name, "--deals", "1", "--seed", "4"]
    assert main([*argv, "--records", str(weights.parent / "records")]) == 0
    assert f"All seats are {name} bots." in capsys.readouterr().out
    assert main([*argv[:4], "douzero", "--deals", "1"]) == 2
    assert "needs its weights: douzero:WEIGHTS" in capsys.readouterr().err
