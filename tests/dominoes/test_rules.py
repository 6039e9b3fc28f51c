"""A test per rule of the Dominoes specification (DOM-01…DOM-41), with scripted deals."""

from __future__ import annotations

import itertools
import random

import pytest

from shedkit import IllegalMoveError, InvalidMoveError, OptionError
from shedkit.core.match import Match, play_deal
from shedkit.dominoes import round_to_five, tile_halves
from shedkit.dominoes.chinese import CIVIL, MILITARY, chinese_set, compare, find

from .helpers import deal, game, play, texts

# -- tiles and seats ---------------------------------------------------------------


@pytest.mark.parametrize(("max_pips", "count"), [(6, 28), (9, 55), (12, 91)])
def test_dom_01_every_pair_once(max_pips: int, count: int) -> None:
    g = game(max_pips=max_pips)
    pairs = {tile_halves(t, max_pips) for t in range(g.tables.num_tiles)}
    assert len(pairs) == g.tables.num_tiles == count
    assert pairs == {(a, b) for a in range(max_pips + 1) for b in range(a, max_pips + 1)}
    assert g.tables.names[-1] == f"{max_pips}-{max_pips}"
    with pytest.raises(OptionError, match="6, 9, 12"):
        game(max_pips=8)


def test_dom_02_players_partners_and_seat_order() -> None:
    for n in range(2, 7):
        assert game(players=n).num_players == n
    for bad in (1, 7):
        with pytest.raises(OptionError, match="2 to 6"):
            game(players=bad)
    assert game(players=4).teams and not game(players=3).teams
    assert not game(players=4, partners=False).teams
    with pytest.raises(OptionError, match="needs 4 players"):
        game(players=3, partners=True)
    # Play passes to seat + 1 (counter-clockwise); partners 0+2 share the score.
    state = deal(["6-6", "0-1", "0-2", "0-3"])
    assert state.current_player == 0
    g = state.game
    assert g.side_of == (0, 1, 0, 1)
    s2 = deal(["6-6 6-5", "6-1 0-0", "0-2", "0-3"])
    play(s2, "6-6")
    assert s2.current_player == 1


@pytest.mark.parametrize(
    ("players", "size", "boneyard"), [(2, 7, 14), (3, 7, 7), (4, 7, 0), (5, 5, 3), (6, 4, 4)]
)
def test_dom_03_hand_sizes(players: int, size: int, boneyard: int) -> None:
    state = game(players=players).new_deal(seed=5)
    assert [len(state.hand(s)) for s in range(players)] == [size] * players
    assert state.boneyard_left == boneyard
    with pytest.raises(OptionError, match="hand_size"):
        game(players=4, hand_size=8)
    assert len(game(players=2, max_pips=9, hand_size=10).new_deal(seed=1).hand(1)) == 10


def test_dom_04_highest_double_leads_with_it() -> None:
    g = game(players=4)
    six_six = g.parse_move("6-6")
    for seed in range(50):
        state = g.new_deal(seed=seed)
        assert 27 in state.hand(state.current_player)  # with four players 6-6 always starts
        assert state.legal_moves() == (six_six,)
    # Two players: the highest double held, 6-6 may be in the boneyard.
    state = game(players=2).new_deal(seed=1, hands=["5-5 0-1", "4-4 2-3"])
    assert state.current_player == 0 and texts(state) == ["5-5"]
    # No double in any hand: the highest tile's holder leads it.
    state = game(players=2).new_deal(seed=1, hands=["0-1 2-3", "5-6 0-2"])
    assert state.current_player == 1 and texts(state) == ["5-6"]
    with pytest.raises(IllegalMoveError, match="led with 5-6"):
        play(state, "0-2")


def test_dom_04_first_player_draw_option() -> None:
    g = game(players=4, first_player="draw")
    leaders = {g.new_deal(seed=s).current_player for s in range(40)}
    assert leaders == {0, 1, 2, 3}
    state = g.new_deal(seed=3)
    assert len(state.legal_moves()) == 7  # any tile of the hand
    assert g.new_deal(seed=3).current_player == state.current_player  # from the seed


def test_dom_05_later_hands_rotate_and_lead_any_tile() -> None:
    g = game(players=3)
    first = g.new_deal(seed=2)
    setup = g.match_setup(1, first)
    assert setup == {"leader": (first.leader + 1) % 3}
    second = g.new_deal(seed=9, **setup)
    assert second.current_player == setup["leader"]
    assert len(second.legal_moves()) == 7


def test_dom_06_matching_ends() -> None:
    state = deal(["3-5 6-6", "5-1 2-2"], boneyard="")
    play(state, "3-5")
    assert state.ends[:2] == (3, 5)
    assert texts(state) == ["1-5@R"]
    with pytest.raises(IllegalMoveError, match="does not match the 3 at end L"):
        play(state, "1-5@L")
    before = state.record()
    with pytest.raises(IllegalMoveError):
        play(state, "2-2@L")
    assert state.record() == before
    play(state, "1-5@R")
    assert state.ends[:2] == (3, 1)  # the tile's other half is the new end


def test_dom_06_double_keeps_the_end() -> None:
    state = deal(["3-5 0-0", "5-5 1-1"], boneyard="")
    play(state, "3-5", "5-5@R")
    assert state.ends[:2] == (3, 5)
    assert state.view(0).line.main == ((3, 5), (5, 5))


def test_dom_07_draw_until_playable_then_play() -> None:
    state = deal(["6-6 1-2", "0-0 3-4"], boneyard="0-1 5-6 2-5")
    play(state, "6-6")
    assert texts(state) == ["draw"]
    with pytest.raises(IllegalMoveError, match="must draw"):
        play(state, "pass")
    play(state, "draw")
    assert 1 in state.hand(1)  # 0-1 drawn, kept, not playable
    assert texts(state) == ["draw"]
    play(state, "draw")
    assert texts(state) == ["5-6@L", "5-6@R"]
    for bad in ("draw", "pass"):
        with pytest.raises(IllegalMoveError, match="can play, so may not"):
            play(state, bad)
    play(state, "5-6@R")
    assert sorted(state.game.tile_str(t) for t in state.hand(1)) == ["0-0", "0-1", "3-4"]
    assert state.boneyard_left == 1


def test_dom_07_empty_boneyard_passes_and_block_never_draws() -> None:
    state = deal(["6-6 6-1 2-2", "0-0 3-4", "6-3", "0-5"], boneyard="", variant="draw")
    play(state, "6-6")
    assert texts(state) == ["pass"]
    with pytest.raises(IllegalMoveError, match="pass"):
        play(state, "draw")
    play(state, "pass")
    assert state.current_player == 2
    block = deal(["6-6 1-6", "0-0 3-4"], boneyard="5-6", variant="block")
    play(block, "6-6")
    assert texts(block) == ["pass"]


def test_dom_08_domino_and_blocked_endings() -> None:
    out = deal(["6-6", "6-1 0-0"], boneyard="")
    play(out, "6-6")
    assert out.is_over and out.end_reason == "domino" and out.winner == 0
    blocked = deal(["6-6 0-1", "2-3 4-4"], boneyard="", variant="block")
    play(blocked, "6-6")
    assert blocked.is_over and blocked.end_reason == "blocked"
    # A boneyard to draw from means the game is not blocked yet.
    drawing = deal(["6-6 0-1", "2-3 4-4"], boneyard="1-1")
    play(drawing, "6-6")
    assert not drawing.is_over and texts(drawing) == ["draw"]
    play(drawing, "draw")
    assert drawing.is_over and drawing.end_reason == "blocked"


def test_dom_09_domino_scores_all_other_hands() -> None:
    alone = deal(["6-6", "0-1", "0-2"], boneyard="")
    play(alone, "6-6")
    assert alone.returns() == [3, 0, 0]
    team = deal(["6-6", "0-1", "0-2", "0-3"])
    play(team, "6-6")
    assert team.returns() == [6, 0, 6, 0]  # the partner's 2 pips count (DOM-09)
    other = deal(["6-6", "0-1", "0-2", "0-3"], count_partner_pips=False)
    play(other, "6-6")
    assert other.returns() == [4, 0, 4, 0]


def test_dom_10_blocked_fewest_pips_wins_tie_voids() -> None:
    win = deal(["6-6 0-1", "2-3 4-4"], boneyard="", variant="block")
    play(win, "6-6")
    assert win.returns() == [13 - 1, 0]
    tie = deal(["6-6 0-3", "1-2"], boneyard="", variant="block")
    play(tie, "6-6")
    assert tie.end_reason == "blocked" and tie.winner is None and tie.returns() == [0, 0]
    teams = deal(["6-6 0-1", "2-2", "0-2", "3-3"], variant="block")
    play(teams, "6-6")
    # seats 0+2: 1 + 2 = 3 pips; seats 1+3: 4 + 6 = 10; the team scores 10 - 3.
    assert teams.returns() == [7, 0, 7, 0]


def test_dom_11_match_to_target() -> None:
    g = game(players=2, target=60)
    match = Match(g, seed=4, target=g.options.target)
    agents = [_First(), _First()]
    leaders = []
    while not match.is_over:
        state = match.next_deal()
        leaders.append(state.leader)
        match.finish_deal(play_deal(state, agents))
    assert max(match.totals) >= 60
    winners = g.match_winners(match.totals)
    assert winners and all(match.totals[s] == max(match.totals) for s in winners)
    assert all(b == (a + 1) % 2 for a, b in itertools.pairwise(leaders))
    assert g.match_winners([59, 10]) == ()


class _First:
    name = "first"

    def act(self, view: object) -> object:
        return view.legal_moves[0]  # type: ignore[attr-defined]


# -- All Fives -----------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
def test_dom_20_fives_for_two_to_six_players_with_drawing(players: int) -> None:
    g = game(players=players, variant="fives", target=250)
    assert g.options.target == 250
    state = g.new_deal(seed=players)
    rng = random.Random(players)
    kinds = set()
    while not state.is_over:
        moves = state.legal_moves()
        kinds.add(moves[0].kind)
        state.apply(moves[rng.randrange(len(moves))])
    assert "lead" in kinds and "play" in kinds
    drawing = deal(["5-5 1-2", "0-0 3-4"], boneyard="0-1 5-6", variant="fives")
    play(drawing, "5-5")
    assert texts(drawing) == ["draw"]


def test_dom_21_first_tile_need_not_be_a_double() -> None:
    g = game(players=2, variant="fives")
    state = g.new_deal(seed=1, hands=["6-6 1-2", "5-5 3-4"])
    assert state.current_player == 0
    assert texts(state) == ["1-2", "6-6"]  # the holder of the highest double leads any tile
    play(state, "1-2")
    assert state.view(1).line.spinner == -1


def test_dom_22_spinner_opens_after_both_sides() -> None:
    state = deal(["5-5 5-4 2-3", "5-1 0-0"], boneyard="", variant="fives")
    play(state, "5-5", "1-5@L")
    assert all(m.end in (0, 1) for m in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="not open"):
        play(state, "4-5@U")
    play(state, "4-5@R")
    assert state.ends == (1, 4, 5, 5)


def test_dom_22_spinner_opens_immediately_option() -> None:
    state = deal(["5-5 2-3", "5-1 0-0"], boneyard="", variant="fives", spinner_opens="immediately")
    play(state, "5-5")
    assert texts(state) == ["1-5@L", "1-5@R", "1-5@U", "1-5@D"]


def test_dom_22_spinner_later_and_only_the_first_double() -> None:
    state = deal(["3-5 5-2 2-2 0-0", "5-5 3-1 6-6"], boneyard="", variant="fives")
    play(state, "3-5", "5-5@R")
    assert state.ends == (3, 5, -1, -1)
    play(state, "2-5@R")  # the spinner's outer side now holds a tile: its cross sides open
    assert state.ends == (3, 2, 5, 5)
    play(state, "1-3@L", "2-2@R")  # a later double is not a spinner
    line = state.view(0).line
    assert line.main[line.spinner] == (5, 5) and line.main[-1] == (2, 2)
    assert state.ends == (1, 2, 5, 5)


def test_dom_23_count_spinner_with_one_to_four_arms() -> None:
    state = deal(["5-5 5-4 5-6 2-3", "5-1 5-0 4-4 2-2"], boneyard="", variant="fives")
    steps = [
        ("5-5", 10, 10),  # the spinner alone counts both halves
        ("1-5@L", 11, 0),  # one arm: 1 + the spinner's 10
        ("4-5@R", 5, 5),  # two arms: 1 + 4, the spinner is no longer an end
        ("0-5@U", 5, 5),  # three arms: 1 + 4 + 0
        ("5-6@D", 11, 0),  # four arms: 1 + 4 + 0 + 6
        ("4-4@R", 15, 15),  # a double at an end counts both halves: 1 + 8 + 0 + 6
    ]
    for text, count, scored in steps:
        seat = state.current_player
        before = state.scores()[seat]
        play(state, text)
        assert state.count == count, text
        assert state.history[-1][3] == scored
        assert state.scores()[seat] - before == scored
    assert state.scores() == [15, 20]


def test_dom_24_fives_domino_rounds_opponents_pips() -> None:
    for loser, pips, points in [("6-6 0-1", 13, 15), ("6-6 0-0", 12, 10)]:
        state = deal(["1-2", loser], boneyard="", variant="fives")
        play(state, "1-2")
        assert state.pips(1) == pips and state.returns() == [points, 0]
    # With partners the partner's pips do not count here ("degli avversari").
    team = deal(["1-2", "0-3", "6-6", "0-4"], variant="fives")
    play(team, "1-2")
    assert team.returns() == [5, 0, 5, 0]


def test_dom_24_fives_blocked_and_void() -> None:
    win = deal(["1-2 0-0", "6-6 5-5"], boneyard="", variant="fives")
    play(win, "1-2")
    assert win.end_reason == "blocked" and win.returns() == [20, 0]  # 22 - 0 -> 20
    # Count 5 scored at once, then blocked 5 against 5: the hand is void and, by
    # default, the 5 scored during it is cancelled too.
    assert game(variant="fives").options.void_cancels_count is True
    void = deal(["2-3 1-4", "0-0 0-5"], boneyard="", variant="fives")
    play(void, "2-3")
    assert void.winner is None and void.returns() == [0, 0]
    keep = deal(["2-3 1-4", "0-0 0-5"], boneyard="", variant="fives", void_cancels_count=False)
    play(keep, "2-3")
    assert keep.winner is None and keep.returns() == [5, 0]


def test_dom_24_a_void_team_hand_cancels_both_teams_counts() -> None:
    # 4 players, All Fives, partners: seat 0 lays 5-5 (count 10, team 0+2 scores it), then
    # the hand blocks with both teams on 10 pips: void, and the 10 is cancelled.
    hands = ["5-5 0-4", "4-6", "1-1 2-2", "0-0"]
    state = deal(hands, boneyard="", variant="fives")
    assert state.game.teams
    play(state, "5-5")
    assert state.phase == "over" and state.end_reason == "blocked"
    assert state.winner is None and state.returns() == [0, 0, 0, 0]
    kept = deal(hands, boneyard="", variant="fives", void_cancels_count=False)
    play(kept, "5-5")
    assert kept.returns() == [10, 0, 10, 0]


def test_dom_25_fives_next_hand_led_by_next_seat() -> None:
    g = game(players=5, variant="fives")
    state = g.new_deal(seed=8)
    assert g.match_setup(1, state) == {"leader": (state.leader + 1) % 5}


# -- Chinese set -----------------------------------------------------------------------


def test_dom_30_chinese_set_composition() -> None:
    tiles = chinese_set()
    assert len(tiles) == 32
    civil = [t for t in tiles if t.suit == "civil"]
    military = [t for t in tiles if t.suit == "military"]
    assert len(civil) == 22 and len(military) == 10
    assert {(t.low, t.high) for t in tiles} == {(a, b) for a in range(1, 7) for b in range(a, 7)}
    assert [t.name for t in civil[::2]] == [name for _, _, name in CIVIL]
    assert find("6-6").name == "heaven" and find("1-1").name == "earth"
    assert find("3-1").name == "goose" and find("[6|1]").name == "long leg seven"
    with pytest.raises(ValueError, match="not a tile"):
        find("0-0")


def test_dom_31_chinese_ranks() -> None:
    order = [find(name) for _, _, name in CIVIL]
    for hi, lo in itertools.pairwise(order):
        assert compare(hi, lo) == 1 and compare(lo, hi) == -1
    assert compare(find("heaven"), chinese_set()[1]) == 0  # the two heavens
    military = [find(f"{a}-{b}") for group in MILITARY for a, b in group]
    totals = [t.pips for t in military]
    assert totals == sorted(totals, reverse=True)
    assert compare(find("3-6"), find("4-5")) == 0
    assert compare(find("2-4"), find("1-4")) == 1 and compare(find("1-2"), find("2-3")) == -1
    with pytest.raises(ValueError, match="different suits"):
        compare(find("heaven"), find("3-6"))


def test_dom_32_tile_model_fields() -> None:
    tiles = chinese_set()
    assert [t.index for t in tiles] == list(range(32))
    assert {t.copy for t in tiles if t.suit == "civil"} == {0, 1}
    assert str(find("5-6")) == "5-6" and find("5-6").rank == 8


# -- notation --------------------------------------------------------------------------


def test_dom_40_tile_notation() -> None:
    g = game()
    move = g.parse_move("3-5")
    for text in ("5-3", "[3|5]", "[5|3]", " 3-5 ", "3|5"):
        assert g.parse_move(text) is move
    assert str(move) == "3-5"
    for bad in ("3-7", "35", "3-", "[3|5", "a-b", ""):
        with pytest.raises(InvalidMoveError):
            g.parse_move(bad)
    assert str(game(max_pips=12).parse_move("[12|10]")) == "10-12"


def test_dom_41_move_notation() -> None:
    g = game(variant="fives")
    assert str(g.parse_move("5-3@r")) == "3-5@R"
    assert g.parse_move("3-5@R").end == 1 and g.parse_move("3-5@U").end == 2
    assert str(g.parse_move("draw")) == "draw" and str(g.parse_move("pass")) == "pass"
    with pytest.raises(InvalidMoveError, match="only in All Fives"):
        game().parse_move("3-5@U")
    with pytest.raises(InvalidMoveError, match="L, R, U, D"):
        g.parse_move("3-5@X")
    # With a state, a tile alone names its only play; two ends need saying which.
    state = deal(["3-5 6-6", "5-1 3-2"], boneyard="")
    play(state, "3-5")
    assert str(state.game.parse_move("1-5", state)) == "1-5@R"
    with pytest.raises(InvalidMoveError, match="not a legal play"):
        state.game.parse_move("6-6", state)
    assert round_to_five(0) == 0
