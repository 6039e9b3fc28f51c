"""The ``shedkit`` command line, driven through ``main()`` with piped input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import shedkit
from shedkit.cli.doudizhu_tui import LIST_CAP, group_ranks, interpret, number_moves
from shedkit.cli.main import main
from shedkit.core.option_flags import parse_option_values
from shedkit.core.records import load_record
from shedkit.core.rng import derive_seed
from tests.cli.helpers import match_args, run

BOTS = ["random", "greedy"]


def play_args(records: Path, *extra: str, seed: int = 5, deals: int = 2) -> list[str]:
    return match_args("doudizhu", records, *extra, seed=seed, deals=deals)


@pytest.mark.parametrize("bots", BOTS)
def test_full_match_picking_option_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, bots: str
) -> None:
    records = tmp_path / "rec"
    code, out, _ = run(
        monkeypatch, capsys, play_args(records, "--bots", bots, deals=3), "#1\n" * 5000
    )
    assert code == 0
    assert "Scores after 3 deal(s)" in out
    assert "Total" in out
    assert "Match over" in out
    files = sorted(records.glob("deal-*.json"))
    assert len(files) >= 3  # thrown-in deals are saved too
    counted = 0
    for path in files:
        record = load_record(path)
        state = shedkit.replay(record)
        assert state.is_over
        assert state.returns() == record["returns"]
        counted += not record["thrown_in"]
        assert str(path) in out
    assert counted == 3


def test_same_seed_same_match(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first = run(monkeypatch, capsys, play_args(tmp_path / "a"), "#1\n" * 3000)[1]
    second = run(monkeypatch, capsys, play_args(tmp_path / "a"), "#1\n" * 3000)[1]
    assert first == second


def test_screen_shows_table_hand_and_numbered_moves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Seed 0: seat 0 bids first, holding 33 4 5 6 888 9 T JJ Q K 2 B R.
    code, out, _ = run(monkeypatch, capsys, play_args(tmp_path, seed=0, deals=1), "quit\n")
    assert code == 0
    assert "Your hand (17): 33 4 5 6 888 9 T JJ Q K 2 B R" in out
    assert "Auction" in out and "Kitty: 3 cards face down" in out
    assert "#1 pass" in out and "#4 bid3" in out
    assert "Quit. No deal was finished, so no record was saved." in out


def test_typed_moves_and_bad_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = shedkit.make("doudizhu")
    deal = game.new_deal(seed=derive_seed(0, "deal", 0))
    assert deal.first_bidder == 0  # the human bids first and so may bid 3
    script = [
        "",  # empty line: a hint
        "88",  # a play during the auction
        "bid7",  # not a move
        "BID3",  # notation in any case: the human becomes landlord and leads
        "?",
        "pass",  # the leader may not pass
        "AA",  # not held
        "xyz",  # garbage
        "#999",  # no such option
        "0",  # no such option, nor a move
        "KK",  # one K held, not two
        "22",  # the pair of twos (the kitty brought the second), never option 22
        "11",  # no move: a hint to type #11
        "3",  # the solo 3, never option 3
    ]
    stdin = "\n".join(script) + "\n" + "#1\n" * 2000
    code, out, err = run(monkeypatch, capsys, play_args(tmp_path, seed=0, deals=1), stdin)
    assert code == 0, err
    assert "Type a move, or # and a number from the list" in out
    assert "the auction is on" in out
    assert "'bid7'" in out
    assert "You are the landlord at stake 3" in out
    assert "Moves" in out and "777+3" in out  # the help text
    assert "the leader of a trick may not pass" in out
    assert "you do not hold an A" in out
    assert "in 'xyz' is not a rank" in out
    assert "'#999' is not an option" in out
    assert "'0' in '0' is not a rank" in out
    assert "KK needs 2 × K; you hold only one" in out
    assert "You play 22" in out
    assert "'11' is not a move; to pick option 11 from the list, type #11" in out
    assert "You play 3" in out
    assert "Scores after 1 deal(s)" in out
    assert "Traceback" not in out + err


def test_quit_and_end_of_input_save_only_finished_deals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = play_args(tmp_path / "q", deals=5)
    code, out, _ = run(monkeypatch, capsys, argv, "#1\n" * 15 + "quit\n")
    assert code == 0
    saved = len(list((tmp_path / "q").glob("deal-*.json")))
    assert 0 < saved < 5
    assert f"Quit. {saved} deal record(s) saved" in out
    code, out, _ = run(monkeypatch, capsys, play_args(tmp_path / "eof"), "")
    assert code == 0
    assert "Quit. No deal was finished, so no record was saved." in out
    assert not list((tmp_path / "eof").glob("*.json"))


def test_q_asks_when_the_queen_is_a_legal_play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Seed 0: bid 3, then lead; the hand holds a lone queen, so 'q' could be a play.
    stdin = "bid3\nq\nn\n" + "#1\n" * 2000
    code, out, _ = run(monkeypatch, capsys, play_args(tmp_path, seed=0, deals=1), stdin)
    assert code == 0
    assert "Quit the match (y) or play the queen Q (n)?" in out
    assert "You play Q" in out
    code, out, _ = run(monkeypatch, capsys, play_args(tmp_path, seed=0, deals=1), "bid3\nq\ny\n")
    assert code == 0
    assert "Quit." in out


def test_interrupt_exits_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    class Interrupting:
        """A stdin where the person presses Ctrl-C at the first prompt."""

        def isatty(self) -> bool:
            return False

        def readline(self) -> str:
            raise KeyboardInterrupt

    monkeypatch.setattr("sys.stdin", Interrupting())
    assert main(play_args(tmp_path)) == 130
    out, err = capsys.readouterr()
    assert "Interrupted" in out
    assert "Traceback" not in out + err


def test_four_player_preset_and_options(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = play_args(tmp_path, "--preset", "four-player", "--bots", "random", "--seat", "3")
    argv += ["--option", "pass_is_final=true", "--option", "first_bidder=rotate"]
    code, out, err = run(monkeypatch, capsys, argv, "#1\n" * 5000)
    assert code == 0, err
    assert "Scores after 2 deal(s)" in out
    record = load_record(sorted(tmp_path.glob("*.json"))[0])
    assert record["options"]["players"] == 4
    assert record["options"]["pass_is_final"] is True


@pytest.mark.parametrize(
    ("extra", "needles"),
    [
        (
            ["--preset", "texas"],
            ["unknown doudizhu preset 'texas'", "de-wikipedia, four-player, standard"],
        ),
        (["--option", "pass_is_finale=true"], ["unknown doudizhu option", "pass_is_final"]),
        (["--option", "spring=sometimes"], ["'standard', 'any_player', 'off'"]),
        (["--option", "players"], ["name=value"]),
        (["--seat", "3"], ["--seat must be 0 to 2"]),
        (["--bots", "clever"], ["unknown bots 'clever'", "random"]),
        (["--deals", "-1"], ["deals must be at least 1"]),
        (["--tax"], ["unknown doudizhu option(s) tax", "valid options:"]),
        (["--players", "5"], ["'players' must be one of 3, 4, not 5"]),
        (["--spring", "never"], ["'standard', 'any_player', 'off'"]),
    ],
)
def test_bad_settings_exit_2_with_the_valid_names(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    extra: list[str],
    needles: list[str],
) -> None:
    code, out, err = run(monkeypatch, capsys, play_args(tmp_path, *extra))
    assert code == 2
    for needle in needles:
        assert needle in err
    assert "Traceback" not in out + err


@pytest.mark.parametrize("argv", [["play"], ["play", "mahjong"]])
def test_missing_or_unknown_game_names_the_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, _, err = run(monkeypatch, capsys, argv)
    assert code == 2
    assert "valid games: " in err and "doudizhu" in err.split("valid games: ")[1]


def test_version_and_no_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(monkeypatch, capsys, ["--version"])
    assert code == 0
    # The version line also says which build runs: pure Python or compiled with mypyc.
    build = "pure Python" if not shedkit.compiled else f"compiled (mypyc): {len(shedkit.compiled)}"
    assert out.strip().startswith(f"shedkit {shedkit.__version__} ({build}")
    code, out, _ = run(monkeypatch, capsys, [])
    assert code == 2
    assert "play" in out and "replay" in out


def test_option_values_are_typed() -> None:
    assert parse_option_values(["pass_is_final=true", "players=4", "spring=off"]) == {
        "pass_is_final": True,
        "players": 4,
        "spring": "off",
    }


@pytest.fixture
def saved_record(tmp_path: Path) -> Path:
    game = shedkit.make("doudizhu")
    state = game.new_deal(seed=11, landlord=1, bid=2)
    while not state.is_over:
        state.apply(state.legal_moves()[-1])
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(state.record()), encoding="utf-8")
    return path


def test_replay_prints_hands_moves_and_returns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], saved_record: Path
) -> None:
    record = load_record(saved_record)
    code, out, _ = run(monkeypatch, capsys, ["replay", str(saved_record)])
    assert code == 0
    assert record["hands_text"][0] in out
    assert "Seat 1 (landlord)" in out
    assert f"  1. Seat 1 plays {record['moves'][0]}" in out
    returns = record["returns"]
    assert "Returns: " + "   ".join(
        f"Seat {s} {'+' if r > 0 else ''}{r}" for s, r in enumerate(returns)
    ) in " ".join(out.split("\n"))


def test_replay_step_waits_and_stops(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], saved_record: Path
) -> None:
    moves = len(load_record(saved_record)["moves"])
    code, out, _ = run(monkeypatch, capsys, ["replay", str(saved_record), "--step"], "\n" * 500)
    assert code == 0
    assert out.count("[Enter] next move") == moves - 1
    assert "Returns" in out
    code, out, _ = run(monkeypatch, capsys, ["replay", str(saved_record), "--step"], "\nq\n")
    assert code == 0
    assert out.count("[Enter] next move") == 2
    assert "Returns" not in out


def test_replay_of_a_match_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run(monkeypatch, capsys, play_args(tmp_path, deals=1), "#1\n" * 2000)
    path = sorted(tmp_path.glob("deal-*.json"))[-1]
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path)])
    assert code == 0
    assert "Returns" in out


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("not json", "cannot read record"),
        ("[1, 2]", "does not hold a record"),
        ('{"game": "chess", "preset": "standard", "options": {}}', "'chess'"),
        ('{"game": "doudizhu"}', "no 'preset' field"),
    ],
)
def test_replay_of_a_bad_file_exits_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    content: str,
    needle: str,
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    code, out, err = run(monkeypatch, capsys, ["replay", str(path)])
    assert code == 2
    assert needle in err
    assert "Traceback" not in out + err


def test_replay_of_a_record_with_a_bad_move_exits_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    saved_record: Path,
) -> None:
    record = load_record(saved_record)
    record["moves"][0] = "BBB"
    saved_record.write_text(json.dumps(record), encoding="utf-8")
    code, _, err = run(monkeypatch, capsys, ["replay", str(saved_record)])
    assert code == 2
    assert "does not replay" in err
    code, _, err = run(monkeypatch, capsys, ["replay", str(saved_record.with_name("none.json"))])
    assert code == 2
    assert "cannot read record" in err


def test_group_ranks() -> None:
    game = shedkit.make("doudizhu")
    cards = game.new_deal(seed=1, hands=["3 3 5 777 T JJ Q K A 2 B", None, None]).dealt[0]
    assert group_ranks(cards) == "33 5 777 T JJ Q K A 2 B"


def test_long_lead_lists_are_capped_but_all_numbered() -> None:
    game = shedkit.make("doudizhu")
    state = game.new_deal(seed=1, landlord=0)
    legal = state.legal_moves()
    listing = number_moves(legal)
    assert len(legal) > LIST_CAP
    assert sorted(map(str, listing.moves)) == sorted(map(str, legal))
    assert listing.shown <= LIST_CAP
    assert {kind for kind, _, _ in listing.groups} == {m.kind for m in legal}
    assert sum(n for _, n in listing.hidden) == len(legal) - listing.shown


def test_interpret_reads_text_as_cards_and_only_hash_numbers_as_picks() -> None:
    game = shedkit.make("doudizhu")
    state = game.new_deal(seed=1, hands=["3 4 5 6 8 8 9 T J Q K A 2 B R", None, None], landlord=0)
    listing = number_moves(state.legal_moves())
    assert len(listing.moves) == 40  # the kitty brought a 4, a 5 and an 8
    assert interpret("#1", listing, game, state) == listing.moves[0]
    assert interpret("#5", listing, game, state) == listing.moves[4]
    assert str(interpret("88", listing, game, state)) == "88"
    assert str(interpret("888+b", listing, game, state)) == "888+B"
    for text, move in (("5", "5"), (" 10 ", "T"), ("22", "22")):  # ranks, never picks
        assert str(interpret(text, listing, game, state)) == move
    message = interpret("11", listing, game, state)
    assert isinstance(message, str) and "type #11" in message
    assert str(interpret("solo:5", listing, game, state)) == "5"
    assert isinstance(interpret("xyz", listing, game, state), str)
    assert str(interpret("99", listing, game, state)) == "99"  # parsed; applying says why not


def test_moves_command_lists_every_legal_move(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Seed 0, bid 3: the landlord's first lead has more moves than the list shows.
    code, out, _ = run(
        monkeypatch, capsys, play_args(tmp_path, seed=0, deals=1), "bid3\nmoves\ntable\nquit\n"
    )
    assert code == 0
    listed, full = out.split("> moves\n")
    last = int(listed.rsplit("from the list", 1)[0].rsplit("#1-#", 1)[1].split(" ")[0])
    assert "more not listed" in listed
    shown = "\n".join(line for line in listed.splitlines() if not line.startswith("Your move"))
    assert f"#{last} " not in shown
    assert f"#{last} " in full
    assert full.count("Your turn: lead any combination") == 1  # 'table' redraws it


def test_default_records_folder_is_named_after_the_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = ["play", "doudizhu", "--deals", "1", "--bots", "random"]
    code, out, _ = run(monkeypatch, capsys, argv, "#1\n" * 2000)
    assert code == 0
    seed = out.split("seed ", 1)[1].split(",")[0]
    (folder,) = (tmp_path / "records").iterdir()
    assert folder.name.endswith(f"-seed{seed}")
    assert list(folder.glob("deal-*.json"))


def test_option_flags_come_from_the_games_options(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = play_args(tmp_path, "--bots", "random", "--players", "4", "--pass-is-final")
    argv += ["--first-bidder", "rotate", "--no-kickers-may-repeat"]
    code, _, err = run(monkeypatch, capsys, argv, "#1\n" * 5000)
    assert code == 0, err
    options = load_record(sorted(tmp_path.glob("*.json"))[0])["options"]
    assert options["players"] == 4
    assert options["pass_is_final"] is True
    assert options["first_bidder"] == "rotate"
    assert options["kickers_may_repeat"] is False


def test_help_lists_every_games_options(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(monkeypatch, capsys, ["play", "--help"])
    assert code == 0
    for flag in ("--pass-is-final", "--spring", "--tax", "--eight-stops", "--rank-order"):
        assert flag in out
