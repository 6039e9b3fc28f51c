"""The strength test's script: its results file, carrying a run on, replays and the docs page."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import shedkit

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load(name: str) -> ModuleType:
    """A script of ``benchmarks/`` as a module."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def levels() -> ModuleType:
    return load("strength_levels")


@pytest.fixture(scope="module")
def report() -> ModuleType:
    return load("strength_report")


# Tiny budgets keep a deal well under a second.
TINY = ["doudizhu", "--challenger", "hard@4", "--field", "greedy", "--role", "landlord"]


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_the_file_holds_the_run_each_deal_and_the_decision(
    levels: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run.jsonl"
    assert levels.main([*TINY, "--max-deals", "3", "--seed", "5", "--results", str(out)]) == 0
    printed = capsys.readouterr().out
    # The hypotheses come first, before any deal is played.
    assert printed.splitlines()[2].startswith("  H0: mean d <= 0   H1: mean d >= 0.1")
    first, *deals, last = lines(out)
    assert first["type"] == "run"
    assert str(first["command"]).startswith("python benchmarks/strength_levels.py doudizhu")
    assert first["agents"] == {
        "challenger": {
            "agent": "hard@4",
            "level": "hard",
            "playouts": 4,
            "seconds": None,
            "workers": 1,
        },
        "field": {"agent": "greedy"},
    }
    assert first["hypotheses"]["alpha"] == first["hypotheses"]["beta"] == 0.05  # type: ignore[index]
    assert first["version"] == shedkit.__version__ and first["build"]
    assert [d["deal"] for d in deals] == [0, 1, 2]
    assert [d["seed"] for d in deals] == [500_000, 500_001, 500_002]
    for d in deals:
        assert d["d"] == d["landlord/challenger"] - d["landlord/baseline"]  # type: ignore[operator]
    assert last["type"] == "decision" and last["decision"] == "inconclusive" and last["n"] == 3


def test_only_deals_prints_the_stored_lines(
    levels: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run.jsonl"
    levels.main([*TINY, "--max-deals", "3", "--seed", "5", "--results", str(out)])
    stored = out.read_text().splitlines()
    capsys.readouterr()
    levels.main(["--only-deals", "2,0", "--results", str(out)])
    assert capsys.readouterr().out.splitlines() == [stored[3], stored[1]]
    # From the command alone, without the file: the same line.
    levels.main([*TINY, "--seed", "5", "--only-deals", "1"])
    assert capsys.readouterr().out.splitlines() == [stored[2]]


def test_a_stopped_run_is_carried_on(levels: ModuleType, tmp_path: Path) -> None:
    whole, split = tmp_path / "whole.jsonl", tmp_path / "split.jsonl"
    levels.main([*TINY, "--max-deals", "3", "--seed", "6", "--results", str(whole)])
    levels.main([*TINY, "--max-deals", "2", "--seed", "6", "--results", str(split)])
    with open(split, "a") as f:
        f.write('{"type": "deal", "deal": 2, "se')  # a line cut short by a stop
    levels.main([*TINY, "--max-deals", "3", "--seed", "6", "--results", str(split)])
    deals = [x for x in lines(split) if x["type"] == "deal"]
    assert deals == [x for x in lines(whole) if x["type"] == "deal"]
    assert [x["n"] for x in lines(split) if x["type"] == "decision"] == [2, 3]
    with pytest.raises(SystemExit):  # another run in the same file
        levels.main([*TINY, "--max-deals", "3", "--seed", "7", "--results", str(split)])


def test_president_counts_a_lower_place_as_a_gain(levels: ModuleType) -> None:
    run = {
        "game": "president",
        "preset": "standard",
        "options": {},
        "challenger": "hard@4",
        "field": "random",
        "role": "both",
        "seed": 3,
        "clock": False,
    }
    for i in range(3):
        line, _ = levels.play_deal((run, i))
        assert line["d"] == line["place/baseline"] - line["place/challenger"]


def test_tiengow_counts_the_hand_won_and_keeps_the_chips(
    levels: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tien Gow: d is the hand won (TG-27) by the challenger's seat less the baseline's;
    each line keeps both seats' chips, and the summary prints them with intervals."""
    run = {
        "game": "tiengow",
        "preset": "standard",
        "options": {},
        "challenger": "hard@4",
        "field": "random",
        "role": "both",
        "seed": 3,
        "clock": False,
    }
    for i in range(4):
        line, _ = levels.play_deal((run, i))
        assert line["d"] == line["hand/challenger"] - line["hand/baseline"]
        assert {line["hand/challenger"], line["hand/baseline"]} <= {0.0, 1.0}
        assert isinstance(line["chips/challenger"], float)
        assert isinstance(line["chips/baseline"], float)
    levels.main(["tiengow", "--challenger", "hard@4", "--field", "random", "--max-deals", "3"])
    printed = capsys.readouterr().out
    assert "hand won (1 or 0)" in printed
    for who in ("challenger", "baseline", "difference"):
        assert f"chips/{who}" in printed


def test_a_budget_is_only_for_search_levels(levels: ModuleType) -> None:
    assert levels.parse_agent("expert@100") == ("expert", 100)
    for bad in ("greedy@10", "hard@0", "hard@x"):
        with pytest.raises(ValueError):
            levels.parse_agent(bad)


def test_search_settings_name_a_variant_of_a_level(levels: ModuleType) -> None:
    """``hard@8:objective=adp,group_kickers=false`` is hard with the old Dou Di Zhu search."""
    text = "hard@8:objective=adp,group_kickers=false"
    assert levels.parse_agent(text) == ("hard", 8)
    assert levels.split_settings(text) == ("hard@8", {"objective": "adp", "group_kickers": False})
    game = shedkit.make("doudizhu")
    agent = levels.build_agent(text, game, 1, False)
    assert agent.playouts == 8
    settings = agent.knowledge.settings
    assert (settings.objective, settings.group_kickers) == ("adp", False)
    assert levels.describe_agent(text, "doudizhu", False)["settings"]["objective"] == "adp"
    calmer = levels.build_agent("hard@8:epsilon=0.05", game, 1, False)
    assert calmer.knowledge.settings.epsilon == 0.05
    for bad in ("hard:objective", "greedy:objective=adp", "hard:colour=red", "hard:objective=x"):
        with pytest.raises(ValueError):
            levels.build_agent(bad, game, 1, False)


def test_a_file_keeps_the_levels_own_settings(levels: ModuleType, tmp_path: Path) -> None:
    """A run records the settings a level plays with of its own, and its replays use them;
    a file written before levels had any replays with their plain defaults."""
    path = tmp_path / "expert.jsonl"
    args = ["doudizhu", "--challenger", "expert@6", "--role", "landlord", "--max-deals", "2"]
    levels.main([*args, "--seed", "3", "--results", str(path)])
    header, deals, _ = levels.read_results(path)
    assert sorted(deals) == [0, 1]
    own = {"confidence": 2.0, "endgame_cards": 15}
    assert header["run"]["own"] == {"expert": own}
    assert header["agents"]["challenger"]["own"] == own
    assert levels._own(header["run"], "expert@6") == own
    assert levels._own(header["run"], "greedy") is None
    older = {k: v for k, v in header["run"].items() if k != "own"}
    assert levels._own(older, "expert") == {"confidence": 1.0, "endgame_cards": 0}
    assert levels._own(older, "hard") == {}
    # President's expert draws from chains now; its older files played uniform deals.
    assert levels._own({**older, "game": "president"}, "expert") == {"mcmc": 0, "chains": 1}
    # Dominoes' expert plays for the win now; its older files played for the points.
    assert levels._own({**older, "game": "dominoes"}, "expert") == {"objective": "adp"}
    game = shedkit.make("doudizhu")
    agent = levels.build_agent("expert@6", game, 1, False, levels._own(older, "expert"))
    assert (agent.confidence, agent.knowledge.settings.endgame_cards) == (1.0, 0)
    assert "own" not in levels._run_settings(
        levels._arguments(), levels._arguments().parse_args(TINY)
    )


def test_a_baseline_other_than_the_field(levels: ModuleType, tmp_path: Path) -> None:
    """``--baseline`` compares two agents among the same field: an agent against itself
    scores 0 on every deal; one that is the field is the run without ``--baseline``."""
    args = ["doudizhu", "--role", "both", "--max-deals", "4", "--seed", "8"]

    def run(name: str, challenger: str, baseline: str, field: str) -> tuple[Any, Any]:
        path = tmp_path / name
        command = ["--challenger", challenger, "--baseline", baseline, "--field", field]
        levels.main([*args, *command, "--results", str(path)])
        header, deals, _ = levels.read_results(path)
        return header, deals

    header, _ = run("field.jsonl", "greedy", "random", "random")
    assert "baseline" not in header["run"] and "baseline" not in header["agents"]
    header, deals = run("other.jsonl", "greedy", "random", "greedy")
    assert header["run"]["baseline"] == "random" and header["agents"]["baseline"]
    _, mirror = run("mirror.jsonl", "random", "random", "greedy")
    assert len(mirror) == 4 and all(d["d"] == 0 for d in mirror.values())
    assert [d["landlord/baseline"] for d in mirror.values()] == [
        d["landlord/baseline"] for d in deals.values()
    ]


def test_the_report_lists_a_run(levels: ModuleType, report: ModuleType, tmp_path: Path) -> None:
    folder = tmp_path / "results"
    levels.main([*TINY, "--max-deals", "3", "--seed", "5", "--results", str(folder / "a.jsonl")])
    page = tmp_path / "page.md"
    page.write_text(f"# Page\n\n{report.BEGIN}\nold\n{report.END}\n\nafter\n")
    text = report.build(folder, page)
    assert "old" not in text and text.endswith(f"{report.END}\n\nafter\n")
    assert "| inconclusive at 3 | 3 |" in text
    assert "`hard` (4 playouts/move, no clock)" in text


def test_the_docs_page_is_up_to_date_with_the_results(report: ModuleType) -> None:
    """Run ``python benchmarks/strength_report.py`` when this fails."""
    assert report.build() == report.PAGE.read_text()


def test_win_rates_print_wilson_intervals(
    levels: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """A WP of 0.750 on 4 deals printed [0.260, 1.240]: now the arena's Wilson interval,
    inside [0, 1]; a mean place or a tie's half point keeps a normal interval, cut to range."""
    from shedkit.arena.stats import wilson

    assert levels.result_interval([1.0, 1.0, 1.0, 0.0], "landlord", 3) == wilson(3, 4)
    low, high = levels.result_interval([1.0, 1.0, 1.0, 0.0], "landlord", 3)
    assert 0.0 < low < 0.75 < high < 1.0
    assert levels.result_interval([1.0] * 4, "peasants", 3)[1] == pytest.approx(1.0)
    assert levels.result_interval([0.0] * 4, "peasants", 3)[0] == pytest.approx(0.0)
    low, high = levels.result_interval([1.0, 0.5, 1.0, 1.0], "side0", 4)
    assert 0.0 <= low < 0.875 < high == 1.0
    low, high = levels.result_interval([1.0, 1.0, 4.0, 4.0], "place", 4)
    assert (low, high) == (1.0, 4.0)
    levels.main([*TINY, "--role", "both", "--max-deals", "4", "--seed", "5"])
    printed = [ln.split() for ln in capsys.readouterr().out.splitlines() if " WP " in ln]
    assert len(printed) == 4  # landlord and peasants, challenger and baseline
    for words in printed:
        wp = float(words[2])
        low, high = (float(w.strip("[],")) for w in words[3:5])
        assert (low, high) == pytest.approx(wilson(round(wp * 4), 4), abs=6e-4)
        assert 0.0 <= low <= wp <= high <= 1.0
