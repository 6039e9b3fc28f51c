"""``shedkit serve --model NAME=DIR``: a DouZero-style model offered as a Dou Di Zhu bot level.

The model's weights here are random (seeded): what is tested is the serving, not the play.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import shedkit
from shedkit.cli.main import main
from shedkit.server.settings import Settings
from tests.server.live import TEST_SETTINGS, LiveServer, play_until, wait

np = pytest.importorskip("numpy")

from shedkit.agents.douzero.agent import DouZeroAgent  # noqa: E402
from shedkit.agents.douzero.model import random_params, save_npz  # noqa: E402

POSITIONS = ("landlord", "landlord_up", "landlord_down")


def write_model(folder: Path) -> Path:
    """A model of random networks (seeded) in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, position in enumerate(POSITIONS):
        save_npz(random_params(position, seed=i), folder / f"{position}.npz")
    return folder


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_model(tmp_path_factory.mktemp("models") / "tiny")


def with_models(*models: str) -> Settings:
    # A move of the pool's first job waits for its worker to start: no fallback meanwhile.
    return dataclasses.replace(TEST_SETTINGS, models=models, bot_think_limit=300.0)


@pytest.fixture(scope="module")
def server(model: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = f"sqlite:///{tmp_path_factory.mktemp('db') / 'shedkit.db'}"
    with LiveServer(db, settings=with_models(f"tiny={model}")) as live:
        yield live


def error_of(response: Any) -> dict[str, Any]:
    assert response.status_code == 400, response.text
    error: dict[str, Any] = response.json()["error"]
    return error


def check_model_played(record: dict[str, Any], model: Path, seats: set[int]) -> int:
    """Every card play of ``seats`` in ``record`` is the model's own choice; how many."""
    state = shedkit.replay(record, steps=0)
    agent = DouZeroAgent(state.game, 0, weights=model)
    checked = 0
    for text in record["moves"]:
        seat = state.current_player
        view = state.view(seat)
        if seat in seats and view.phase != "auction":
            assert str(agent.act(view)) == text, f"seat {seat} played {text}, not the model's move"
            checked += 1
        state.apply(state.game.parse_move(text, state))
    return checked


# -- the catalogue -------------------------------------------------------------------------


def test_the_model_is_offered_at_dou_di_zhu_only_by_its_name(
    server: LiveServer, model: Path
) -> None:
    answer = server.http.get("/api/games")
    games = {g["name"]: g for g in answer.json()}
    ddz = games["doudizhu"]
    assert "tiny" in ddz["agents"] and ddz["default_agent"] == "greedy"
    # The presets whose rules it plays: three players, the standard card play.
    assert ddz["models"] == {"tiny": {"presets": ["standard"]}}
    for name in ("president", "dominoes", "tiengow"):
        assert "tiny" not in games[name]["agents"] and games[name]["models"] == {}
    assert str(model) not in answer.text and "douzero" not in answer.text


def test_a_server_without_models_offers_none(client: Any) -> None:
    for game in client.get("/api/games").json():
        assert game["models"] == {} and "tiny" not in game["agents"]


# -- playing -------------------------------------------------------------------------------


def test_a_bot_only_table_of_the_model_plays_a_deal_and_its_replay_names_no_folder(
    server: LiveServer, model: Path
) -> None:
    tid = server.create(game="doudizhu", bots=3, bot="tiny", deals=1, seed=11)["id"]
    wait(lambda: server.table(tid).status == "finished", timeout=300)
    table = server.http.get(f"/api/tables/{tid}").json()
    assert [s["bot"] for s in table["seats"]] == ["tiny"] * 3
    deals = server.http.get(f"/api/tables/{tid}/deals").json()
    assert [d["number"] for d in deals] == [1]
    replay = server.http.get(f"/api/tables/{tid}/deals/1")
    assert replay.status_code == 200
    record = replay.json()["record"]
    assert len(replay.json()["steps"]) == len(record["moves"]) + 1
    assert check_model_played(record, model, {0, 1, 2}) > 0
    # What is stored and shown names the model as the table does, never its folder.
    stored = json.dumps(server.table(tid).to_data())
    for text in (stored, replay.text, json.dumps(table)):
        assert str(model) not in text and "douzero" not in text


def test_a_person_plays_a_deal_against_the_model(server: LiveServer, model: Path) -> None:
    tid = server.create(game="doudizhu", bots=2, bot="tiny", deals=1, seed=12)["id"]
    token = server.join(tid, 0, "Ana")
    ana = server.client(tid, token)
    try:
        play_until(server, tid, [ana], lambda t: t.status == "finished", timeout=300)
    finally:
        ana.close()
    record = server.http.get(f"/api/tables/{tid}/deals/1").json()["record"]
    assert check_model_played(record, model, {1, 2}) > 0
    assert record["returns"] is not None and sum(record["returns"]) == 0


# -- what a client may name ----------------------------------------------------------------


@pytest.mark.parametrize(
    "bot", ["douzero:/some/path", "douzero", "shedkit.agents.douzero.agent:DouZeroAgent"]
)
def test_a_client_cannot_name_a_folder_or_an_agent_with_an_argument(
    server: LiveServer, bot: str, model: Path
) -> None:
    named = [bot]
    if bot.endswith("/some/path") and len(f"douzero:{model}") <= 64:
        named.append(f"douzero:{model}")  # the model's own folder, too
    for name in named:
        error = error_of(server.http.post("/api/tables", json={"game": "doudizhu", "bot": name}))
        assert error["code"] == "bad_bot" and error["data"] == {"bot": name}


def test_the_model_is_refused_at_other_games_and_other_rules(server: LiveServer) -> None:
    error = error_of(server.http.post("/api/tables", json={"game": "president", "bot": "tiny"}))
    assert error["code"] == "bad_bot" and "reason" not in error["data"]
    for body in (
        {"preset": "four-player"},
        {"preset": "de-wikipedia"},
        {"options": {"two_in_chains": True}},
    ):
        answer = server.http.post("/api/tables", json={"game": "doudizhu", "bot": "tiny", **body})
        error = error_of(answer)
        assert error["code"] == "bad_bot"
        assert error["data"] == {"bot": "tiny", "reason": "model_rules"}
        assert "DouZero's models play three-player Dou Di Zhu" in error["message"]
    # The auction's and the scoring's options are the table's: the model plays on.
    body = {"game": "doudizhu", "bot": "tiny", "options": {"pass_is_final": True}}
    assert server.http.post("/api/tables", json=body).status_code == 201


def test_a_restored_table_whose_model_is_gone_plays_on_with_the_default_bot(
    tmp_path: Path, model: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'shedkit.db'}"
    with LiveServer(db, settings=with_models(f"tiny={model}")) as first:
        tid = first.create(game="doudizhu", bots=2, bot="tiny")["id"]
    with LiveServer(db) as second:
        seats = second.http.get(f"/api/tables/{tid}").json()["seats"]
        assert [s["bot"] for s in seats] == ["greedy"] * 3


# -- the flag ------------------------------------------------------------------------------


def test_serve_passes_the_models_to_the_server(
    monkeypatch: pytest.MonkeyPatch, model: Path, tmp_path: Path
) -> None:
    given: list[Settings] = []

    def fake_serve(host: str, port: int, db: Any, settings: Settings, *rest: Any) -> int:
        given.append(settings)
        return 0

    monkeypatch.setattr("shedkit.server.run.serve", fake_serve)
    other = write_model(tmp_path / "other")
    assert main(["serve", "--model", f"tiny={model}", "--model", f"big-1={other}"]) == 0
    assert dict(given[0].model_dirs) == {"tiny": str(model), "big-1": str(other)}


def test_serve_help_describes_the_model_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    flat = " ".join(capsys.readouterr().out.split())
    assert "--model NAME=DIR" in flat and "Dou Di Zhu" in flat


def _bad_models(model: Path, tmp_path: Path) -> dict[str, tuple[list[str], str]]:
    empty = tmp_path / "empty"
    empty.mkdir()
    swapped = tmp_path / "swapped"
    write_model(swapped)
    save_npz(random_params("landlord_up", seed=1), swapped / "landlord.npz")
    broken = tmp_path / "broken"
    write_model(broken)
    (broken / "landlord_down.npz").write_bytes(b"not a weights file")
    return {
        "no equals sign": (["tiny"], "--model is NAME=DIR"),
        "a space in the name": ([f"a b={model}"], "NAME is 1 to 32 letters"),
        "a bot's name": ([f"greedy={model}"], "'greedy' is a bot's name already"),
        "a level's name in capitals": ([f"HARD={model}"], "'hard' is a bot's name already"),
        "twice": ([f"tiny={model}", f"Tiny={model}"], "another model is named 'tiny'"),
        "no folder": ([f"tiny={tmp_path / 'nowhere'}"], "is not a folder"),
        "no weights": ([f"tiny={empty}"], "has no landlord.ckpt"),
        "another position's weights": ([f"tiny={swapped}"], "not a landlord network"),
        "unreadable weights": ([f"tiny={broken}"], "not a readable .npz weights file"),
    }


@pytest.mark.parametrize(
    "case",
    [
        "no equals sign",
        "a space in the name",
        "a bot's name",
        "a level's name in capitals",
        "twice",
        "no folder",
        "no weights",
        "another position's weights",
        "unreadable weights",
    ],
)
def test_serve_explains_a_bad_model_in_one_line(
    capsys: pytest.CaptureFixture[str], model: Path, tmp_path: Path, case: str
) -> None:
    values, said = _bad_models(model, tmp_path)[case]
    argv = ["serve"]
    for value in values:
        argv += ["--model", value]
    assert main(argv) == 2
    err = " ".join(capsys.readouterr().err.split())  # as the console wraps it
    assert err.startswith("shedkit serve: --model") and said in err
    with pytest.raises(ValueError, match="--model") as refused:
        Settings(models=tuple(values))
    assert "\n" not in str(refused.value) and said in str(refused.value)
