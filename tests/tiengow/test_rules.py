"""One or more tests per rule ID of ``rules/tiengow.md`` (TG-01 … TG-82).

Each test states the rule's expected outcome from the specification and checks
the engine through the public surface: ``new_deal(hands=...)``, ``legal_moves``,
``apply``, ``parse_move``, ``view``, ``returns``, ``match_setup`` and records.
Scenario hands are written in TG-80 notation; seat 0 leads unless said. The
worked "Test cases" of the specification are in ``test_scenarios.py``.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import shedkit
from shedkit import IllegalMoveError, InvalidMoveError, OptionError, RecordError
from shedkit.agents import make_agent
from shedkit.core.match import Match, play_deal
from shedkit.dominoes.chinese import chinese_set
from shedkit.tiengow import PRESETS, TILE_NAMES, State, banker_factor, settle
from shedkit.tiengow.combos import NUM_TILES, TILE_KIND
from shedkit.tiengow.options import Options
from shedkit.tiengow.rules import SetupError

from .helpers import beats, discards, game, legal, play, table


def finish_randomly(state: State, seed: int = 0) -> State:
    rng = random.Random(seed)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    return state


# -- tiles, seats and deal -------------------------------------------------------------


def test_tg_01_the_chinese_set_of_dom_30() -> None:
    names = Counter(TILE_NAMES)
    assert len(TILE_NAMES) == NUM_TILES == 32
    assert [t.index for t in chinese_set()] == list(range(32))  # DOM-30's tile ids
    civil = [n for n, c in names.items() if c == 2]
    military = [n for n, c in names.items() if c == 1]
    assert len(civil) == 11 and len(military) == 10
    assert set(civil) == {
        "6-6",
        "1-1",
        "4-4",
        "1-3",
        "5-5",
        "3-3",
        "2-2",
        "5-6",
        "4-6",
        "1-6",
        "1-5",
    }


def test_tg_01_the_two_copies_of_a_civil_tile_are_one_tile_to_play() -> None:
    g = game()
    assert g.parse_move("6-6") is g.parse_move("6-6")
    assert {TILE_KIND[0], TILE_KIND[1]} == {TILE_KIND[0]}
    # Text names pips, never a copy: "6-6 6-6" takes both copies.
    state = g.new_deal(seed=2, hands=["6-6 6-6", None, None, None])
    assert state.hand(0) == (0, 1)
    with pytest.raises(SetupError, match=r"twice|already"):
        g.new_deal(seed=2, hands=["6-6 6-6 6-6", None, None, None])


def test_tg_02_four_seats_counter_clockwise() -> None:
    state = game(first_banker=1).new_deal(seed=4)
    assert state.num_players == 4 and state.current_player == 1
    seen = []
    for _ in range(4):
        seen.append(state.current_player)
        state.apply(state.legal_moves()[0])
    assert seen == [1, 2, 3, 0]
    with pytest.raises(OptionError, match="unknown tiengow option"):
        shedkit.make("tiengow", players=3)


def test_tg_02_option_alternate_direction() -> None:
    g = game(alternate_direction=True, first_banker=0)
    assert g.match_setup(0, None) == {}
    assert g.match_setup(1, None) == {"direction": -1}
    state = g.new_deal(seed=4, **g.match_setup(1, None))
    seen = []
    for _ in range(4):
        seen.append(state.current_player)
        state.apply(state.legal_moves()[0])
    assert seen == [0, 3, 2, 1]
    assert game().match_setup(1, None) == {}
    with pytest.raises(SetupError, match="direction"):
        g.new_deal(seed=1, direction=2)


def test_tg_03_first_banker_random_from_the_seed_or_a_seat() -> None:
    g = game()
    bankers = {g.new_deal(seed=s).banker for s in range(40)}
    assert bankers == {0, 1, 2, 3}
    assert g.new_deal(seed=9).banker == g.new_deal(seed=9).banker
    for seat in range(4):
        assert game(first_banker=seat).new_deal(seed=9).banker == seat
    for bad in (4, -1, "north", True):
        with pytest.raises(OptionError, match="first_banker"):
            game(first_banker=bad)


def test_tg_04_all_32_dealt_8_each_uniformly() -> None:
    g = game()
    holder: Counter[tuple[int, int]] = Counter()
    for seed in range(400):
        state = g.new_deal(seed=seed)
        hands = [state.hand(s) for s in range(4)]
        assert all(len(h) == 8 for h in hands)
        assert sorted(t for h in hands for t in h) == list(range(32))
        assert state.out_of_play == ()
        for s, h in enumerate(hands):
            holder.update((t, s) for t in h)
    # Each tile goes to each seat about a quarter of the time (100 of 400).
    assert all(60 <= holder[(t, s)] <= 140 for t in range(32) for s in range(4))


def test_tg_04_a_player_sees_only_their_own_tiles() -> None:
    state = game().new_deal(seed=5)
    for seat in range(4):
        view = state.view(seat)
        assert view.hand == state.hand(seat) and view.tiles_left == (8, 8, 8, 8)
    assert state.view(None).hand == ()


# -- single tiles -----------------------------------------------------------------------

CIVIL_ORDER = ["6-6", "1-1", "4-4", "1-3", "5-5", "3-3", "2-2", "5-6", "4-6", "1-6", "1-5"]
MILITARY_ORDER = [["3-6", "4-5"], ["2-6", "3-5"], ["2-5", "3-4"], ["2-4"], ["1-4", "2-3"], ["1-2"]]


def single_beats(lead: str, other: str) -> bool:
    """Whether a follower holding only ``other`` may beat a led ``lead``."""
    fill = [t for t in ("6-6", "1-1", "4-4", "1-3") if t not in (lead, other)][:2]
    state = play(table([lead, other, *fill], units=[1, 1, 1, 1]), lead)
    return other in beats(state)


def test_tg_05_civil_order() -> None:
    for i, high in enumerate(CIVIL_ORDER):
        for low in CIVIL_ORDER[i + 1 :]:
            assert single_beats(low, high) and not single_beats(high, low), (high, low)


def test_tg_06_military_order_by_total_equal_totals_tie() -> None:
    flat = [(g, t) for g, group in enumerate(MILITARY_ORDER) for t in group]
    for ga, a in flat:
        for gb, b in flat:
            if a != b:
                assert single_beats(b, a) == (ga < gb), (a, b)


def test_tg_07_suits_never_meet() -> None:
    for civil in ("6-6", "1-5"):
        for military in ("3-6", "1-2"):
            assert not single_beats(civil, military)
            assert not single_beats(military, civil)
    # The other suit can still be laid down, face down.
    state = play(table(["1-2 1-1", "6-6 2-2", "5-5 4-4", "1-3 3-3"]), "1-2")
    assert beats(state) == set() and discards(state) == {"discard 6-6", "discard 2-2"}


# -- combinations -----------------------------------------------------------------------


def test_tg_10_2_4_and_1_2_are_only_the_supreme() -> None:
    g = game()
    supreme = g.parse_move("1-2 2-4")
    assert supreme.kind == "supreme" and str(supreme) == "2-4 1-2"
    pairs = {str(m) for m in g.tables.plays if m.kind == "military_pair"}
    assert pairs == {"3-6 4-5", "2-6 3-5", "2-5 3-4", "1-4 2-3"}
    assert not any("2-4" in p or "1-2" in p for p in pairs)
    assert single_beats("1-4", "2-4") and single_beats("2-4", "2-5")
    assert single_beats("1-2", "2-3") and not single_beats("2-3", "1-2")


@pytest.mark.parametrize("text", ["6-6 1-1", "6-6 2-6", "5-5 4-5", "6-6 6-6 2-6", "1-2 1-4"])
def test_tg_11_nothing_else_is_a_combination(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="not a combination"):
        game().parse_move(text)


def test_tg_11_the_table_of_combinations() -> None:
    kinds = Counter(m.kind for m in game().tables.plays)
    assert kinds == {
        "single": 21,
        "civil_pair": 11,
        "military_pair": 4,
        "supreme": 1,
        "mixed_pair": 8,
        "civil_triple": 8,
        "military_triple": 4,
        "quad": 4,
    }
    g = game()
    assert g.parse_move("1-1 1-1 3-5").kind == "civil_triple"
    assert g.parse_move("4-4 2-5 3-4").kind == "military_triple"
    assert g.parse_move("1-3 1-3 1-4 2-3").kind == "quad"
    assert g.parse_move("6-6 4-5").kind == "mixed_pair"


def test_tg_12_a_set_of_tiles_is_at_most_one_combination() -> None:
    for preset in PRESETS:
        for extra in ({}, {"two_pairs": True} if preset != "ku-pai" else {}):
            g = game(preset, **extra)
            needs = [m.need for m in g.tables.plays]
            assert len(set(needs)) == len(needs)
    wen = game(wen_supreme=True)
    assert wen.parse_move("1-5 1-5").kind == "wen_supreme"
    assert game().parse_move("1-5 1-5").kind == "civil_pair"


# -- play of a trick --------------------------------------------------------------------


def test_tg_20_the_banker_leads_any_combination_in_hand() -> None:
    state = table(["6-6 6-6 3-6", "5-5 5-5 2-2", "4-4 4-4 2-5", "1-3 1-3 1-4"], banker=0)
    assert state.current_player == 0
    assert legal(state) == {"6-6", "3-6", "6-6 6-6", "6-6 3-6", "6-6 6-6 3-6"}
    with pytest.raises(IllegalMoveError, match="TG-20"):
        state.apply(state.game.parse_move("discard 6-6"))
    deal = game(first_banker=2).new_deal(seed=8)
    assert deal.current_player == deal.banker == deal.leader == 2


def test_tg_20_the_winner_of_a_trick_leads_the_next() -> None:
    state = table(["6-6 1-5", "5-5 1-6", "4-4 4-6", "3-3 5-6"])
    play(state, "1-5", "1-6", "4-6", "5-6")
    assert state.tricks == [(0, 3, 1)] and state.current_player == 3 and state.opens_trick()


def test_tg_21_followers_beat_or_discard_as_many_tiles_as_led() -> None:
    state = play(table(["2-2 2-2 6-6", "5-5 5-5 1-5", "4-4 3-3 1-6", "1-1 1-3 4-6"]), "2-2 2-2")
    # s1 may beat, or discard any two tiles although it could beat.
    assert legal(state) == {"5-5 5-5", "discard 5-5 5-5", "discard 5-5 1-5"}
    with pytest.raises(IllegalMoveError, match="as many tiles as were led"):
        state.apply(state.game.parse_move("5-5"))
    play(state, "discard 5-5 1-5")
    # s2 holds no beating pair: it can only discard.
    assert beats(state) == set() and discards(state)


def test_tg_22_equal_never_beats_and_the_current_high_is_the_bar() -> None:
    state = play(table(["4-5 1-1", "3-6 6-6", "2-6 1-2", "5-5 2-2"]), "4-5")
    with pytest.raises(IllegalMoveError, match="does not beat"):
        state.apply(state.game.parse_move("3-6"))
    state = play(table(["2-2 1-5", "5-5 1-6", "3-3 4-6", "1-3 5-6"]), "2-2", "5-5")
    assert beats(state) == set()  # 3-3 beats the lead but not the current high


def test_tg_23_classes_do_not_cross() -> None:
    state = play(table(["1-4 2-3", "6-6 6-6", "3-6 4-5", "1-1 2-6"]), "1-4 2-3")
    assert beats(state) == set()
    play(state, "discard 6-6 6-6")
    assert beats(state) == {"3-6 4-5"}
    play(state, "3-6 4-5")
    assert beats(state) == set()  # a mixed pair never beats a military pair
    state = play(table(["4-4 4-4 2-5", "6-6 3-6 4-5", "5-5 5-5 2-2", "1-3 1-3 1-4"]), "4-4 4-4 2-5")
    assert beats(state) == set()


def test_tg_24_a_led_supreme_cannot_be_beaten() -> None:
    state = play(table(["2-4 1-2", "6-6 6-6", "3-6 4-5", "1-1 2-6"]), "2-4 1-2")
    with pytest.raises(IllegalMoveError, match="TG-24"):
        state.apply(state.game.parse_move("6-6 6-6"))
    for _ in range(3):
        assert beats(state) == set()
        state.apply(state.legal_moves()[0])
    assert state.winner == 0


def test_tg_24_a_supreme_after_the_lead_is_two_discarded_tiles() -> None:
    state = play(table(["2-5 3-4", "2-4 1-2", "1-1 1-1", "4-4 4-4"]), "2-5 3-4")
    assert legal(state) == {"discard 2-4 1-2"}


def test_tg_25_the_last_beat_wins_and_discards_stay_hidden() -> None:
    state = table(["2-2 1-5 5-6", "5-5 1-6 4-6", "3-3 3-3 1-3", "1-1 6-6 6-6"])
    play(state, "2-2", "5-5", "discard 3-3", "discard 6-6")
    assert state.tricks == [(0, 1, 1)] and state.current_player == 1
    assert state.units == [0, 1, 0, 0] and state.discarded == [0, 0, 1, 1]
    for seat in range(4):
        view = state.view(seat)
        assert view.discarded == (0, 0, 1, 1)
        for who, move, tiles in view.history:
            if move.is_discard and who != seat:
                assert move.hidden and str(move) == "discard ??" and tiles == ()
            if who == seat:
                assert tiles
    assert [str(m) for _, m, _ in state.view(None).history] == [
        "2-2",
        "5-5",
        "discard ??",
        "discard ??",
    ]
    # Still hidden once the hand is over.
    finish_randomly(state)
    assert all(m.hidden for w, m, _ in state.view(0).history if w != 0 and m.is_discard)


def test_tg_25_nobody_beats_the_leader_wins() -> None:
    state = play(table(["6-6 1-5", "5-5 1-6", "4-4 4-6", "3-3 5-6"]), "6-6")
    play(state, "discard 1-6", "discard 4-6", "discard 5-6")
    assert state.tricks == [(0, 0, 1)] and state.current_player == 0


def test_tg_26_units_of_a_hand_add_up_to_8() -> None:
    g = game()
    for seed in range(60):
        state = finish_randomly(g.new_deal(seed=seed), seed)
        assert sum(state.units) == 8
        assert [sum(n for _, w, n in state.tricks if w == s) for s in range(4)] == state.units


def test_tg_27_the_last_trick_wins_the_hand_whatever_the_units() -> None:
    state = table(["5-5", "1-1", "2-2", "6-6"], leader=1, banker=1, units=[5, 1, 1, 0])
    play(state, "1-1", "discard 2-2", "discard 6-6", "discard 5-5")
    assert state.is_over and state.winner == 1 and state.units == [5, 2, 1, 0]
    # s1 banks in its first hand (m = 2): it refunds s0 1 x 2; s2 pays 3 x 2, s3 5 x 2.
    assert state.returns() == [2, 14, -6, -10]
    assert state.legal_moves() == ()
    with pytest.raises(IllegalMoveError, match="over"):
        state.apply(state.game.parse_move("5-5"))


def test_tg_28_early_death_only_on_a_single_tile_last_trick() -> None:
    # A two-tile last trick: a player with no unit may beat it.
    state = table(["2-2 2-2", "3-3 3-3", "5-5 5-5", "1-5 1-5"], units=[3, 3, 0, 0])
    play(state, "2-2 2-2", "3-3 3-3")
    assert beats(state) == {"5-5 5-5"}
    # A single tile that is not the last trick: beating is free.
    state = table(["2-3 2-2", "2-6 5-5", "4-5 3-3", "6-6 1-3"], units=[3, 3, 0, 0])
    play(state, "2-3", "2-6")
    assert beats(state) == {"4-5"}
    # The single-tile last trick, with and without a unit.
    state = table(["2-3", "2-6", "4-5", "3-5"], units=[3, 3, 0, 1])
    play(state, "2-3")
    assert beats(state) == {"2-6"}
    play(state, "2-6")
    assert beats(state) == set()
    with pytest.raises(IllegalMoveError, match="TG-28"):
        state.apply(state.game.parse_move("4-5"))
    play(state, "discard 4-5")
    assert beats(state) == set()  # 3-5 equals 2-6: one unit or not, it cannot beat
    state = table(["2-3", "2-6", "4-5", "3-6"], units=[3, 3, 0, 1])
    play(state, "2-3", "2-6", "discard 4-5")
    assert beats(state) == {"3-6"}
    assert game().options.early_death and not game("ancient").options.early_death


# -- scoring ----------------------------------------------------------------------------


def test_tg_30_every_hand_is_zero_sum_and_totals_may_go_negative() -> None:
    g = game()
    match = Match(g, seed=3, deals=6)
    agents = [make_agent("random", g, s) for s in range(4)]
    while not match.is_over:
        result = match.finish_deal(play_deal(match.next_deal(), agents))
        assert sum(result.returns) == 0
    assert sum(match.totals) == 0 and min(match.totals) < 0


@pytest.mark.parametrize(
    ("t", "owed"), [(0, 5), (1, 3), (2, 2), (3, 1), (4, 0), (5, -1), (6, -2), (7, -3)]
)
def test_tg_31_base_amounts(t: int, owed: int) -> None:
    """A loser with ``t`` units pays the winner ``owed`` (negative: is refunded)."""
    units = [8 - t, t, 0, 0] if t else [4, 0, 4, 0]
    # Seat 0 wins, seat 1 is the loser looked at; the banker (seat 3) has m = 1 under "none".
    opts = Options(banker_multiplier="none")
    out = settle(opts, units, winner=0, banker=3, streak=1)
    assert out[1] == -owed


def test_tg_31_options_zero_trick_payment_and_over_par_refund() -> None:
    units = [2, 6, 0, 0]
    assert settle(Options(zero_trick_payment=4), units, 0, 0, 1, 1)[2:] == [-8, -8]
    assert settle(Options(banker_multiplier="none"), units, 0, 3, 1)[1] == 2
    assert settle(Options(banker_multiplier="none", over_par_refund=False), units, 0, 3, 1)[1] == 0
    with pytest.raises(OptionError, match="zero_trick_payment"):
        game(zero_trick_payment=-1)


@pytest.mark.parametrize(
    ("style", "streak", "m"),
    [
        ("increasing", 1, 2),
        ("increasing", 2, 3),
        ("increasing", 7, 8),
        ("fixed", 5, 2),
        ("none", 3, 1),
    ],
)
def test_tg_32_banker_factor(style: str, streak: int, m: int) -> None:
    opts = Options(banker_multiplier=style)  # type: ignore[arg-type]
    assert banker_factor(opts, streak) == m
    # The banker wins: every amount, a refund it owes included, times m.
    assert settle(opts, [2, 1, 5, 0], winner=0, banker=0, streak=streak) == [
        3 * m - 1 * m + 5 * m,
        -3 * m,
        1 * m,
        -5 * m,
    ]
    # The banker loses: its payment times m, a refund owed to it not.
    assert settle(opts, [1, 2, 0, 5], winner=1, banker=0, streak=streak) == [
        -3 * m,
        3 * m + 5 - 1,
        -5,
        1,
    ]


def test_tg_32_banker_factor_in_a_played_hand() -> None:
    state = table(["6-6", "5-5", "2-2", "1-3"], leader=0, banker=1, streak=3, units=[3, 2, 2, 0])
    play(state, "6-6", "discard 5-5", "discard 2-2", "discard 1-3")
    assert state.view(0).multiplier == 4
    assert state.returns() == [2 * 4 + 2 + 5, -2 * 4, -2, -5]


def test_tg_33_slam() -> None:
    assert settle(Options(), [8, 0, 0, 0], 0, 2, 1) == [10 + 20 + 10, -10, -20, -10]
    assert settle(Options(slam_multiplier=3), [8, 0, 0, 0], 0, 2, 1)[0] == 15 + 30 + 15
    with pytest.raises(OptionError, match="slam_multiplier"):
        game(slam_multiplier=0)


def test_tg_34_factors_stack_but_never_on_refunds() -> None:
    opts = Options(banker_multiplier="fixed", slam_multiplier=3)
    # Banker 0 wins a slam with a finishing factor 4: 5 x 2 x 3 x 4 from each.
    assert settle(opts, [8, 0, 0, 0], 0, 0, 1, finish=4) == [360, -120, -120, -120]
    # A refund keeps its banker factor only.
    assert settle(opts, [2, 5, 1, 0], 0, 0, 1, finish=4) == [-2 + 24 + 40, 2, -24, -40]


# -- banker and match -------------------------------------------------------------------


def test_tg_40_the_winner_banks_next_and_a_kept_bank_grows() -> None:
    g = game(first_banker=0)
    state = table(["6-6", "5-5", "2-2", "1-3"], banker=0, units=[4, 1, 1, 1])
    play(state, "6-6", "discard 5-5", "discard 2-2", "discard 1-3")
    assert g.match_setup(1, state) == {"banker": 0, "banker_streak": 2}
    state = table(["1-3", "5-5", "2-2", "6-6"], banker=0, streak=4, units=[4, 1, 1, 1])
    play(state, "1-3", "discard 5-5", "discard 2-2", "6-6")
    assert g.match_setup(5, state) == {"banker": 3, "banker_streak": 1}
    nxt = g.new_deal(seed=1, **g.match_setup(5, state))
    assert nxt.banker == nxt.current_player == 3 and nxt.view(0).multiplier == 2


def test_tg_40_a_match_rotates_the_bank_to_each_winner() -> None:
    g = game()
    match = Match(g, seed=11)
    agents = [make_agent("greedy", g, s) for s in range(4)]
    previous = None
    while not match.is_over:
        state = play_deal(match.next_deal(), agents)
        if previous is not None:
            assert state.banker == previous.winner
            expected = previous.banker_streak + 1 if previous.winner == previous.banker else 1
            assert state.banker_streak == expected
        match.finish_deal(state)
        previous = state


def test_tg_41_a_match_lasts_hands_hands() -> None:
    for hands in (1, 5, 16):
        g = game(hands=hands)
        match = Match(g, seed=2)
        agents = [make_agent("random", g, s) for s in range(4)]
        while not match.is_over:
            match.finish_deal(play_deal(match.next_deal(), agents))
        assert match.deals_played == hands


def test_tg_41_a_match_ends_at_plus_or_minus_target() -> None:
    g = game(target=15, hands=100)
    assert g.info.match_target == 15
    assert g.match_over([16, -6, -5, -5], 1) and g.match_over([5, 5, 5, -15], 1)
    assert not g.match_over([14, 0, 0, -14], 99) and g.match_over([0, 0, 0, 0], 100)
    match = Match(g, seed=4)
    agents = [make_agent("random", g, s) for s in range(4)]
    while not match.is_over:
        match.finish_deal(play_deal(match.next_deal(), agents))
    assert max(abs(t) for t in match.totals) >= 15
    assert g.match_winners([3, 9, 9, -21]) == (1, 2)
    with pytest.raises(OptionError, match="target"):
        game(target=0)


def test_tg_41_a_special_hand_counts_as_a_hand() -> None:
    g = game(special_hands=True, hands=200)
    match = Match(g, seed=1)
    agents = [make_agent("random", g, s) for s in range(4)]
    specials = 0
    while not match.is_over:
        result = match.finish_deal(play_deal(match.next_deal(), agents))
        specials += match.previous.special is not None
        assert not result.thrown_in
    assert specials and match.deals_played == 200


# -- variants ---------------------------------------------------------------------------


def test_tg_50_which_combinations_exist() -> None:
    def kinds(preset: str = "standard", **options: object) -> set[str]:
        return {m.kind for m in game(preset, **options).tables.plays}

    assert kinds(combinations="pairs") == {
        "single",
        "civil_pair",
        "military_pair",
        "supreme",
        "mixed_pair",
    }
    assert kinds(combinations="pure-pairs") == {"single", "civil_pair", "military_pair", "supreme"}
    assert kinds(combinations="singles") == {"single"}
    singles = game(combinations="singles")
    assert singles.tables.max_size == 1
    with pytest.raises(InvalidMoveError, match="1 to 1"):
        singles.parse_move("discard 6-6 6-6")
    with pytest.raises(InvalidMoveError, match="not a combination"):
        game(combinations="pure-pairs").parse_move("6-6 4-5")
    with pytest.raises(OptionError, match="'full', 'pairs', 'pure-pairs', 'singles'"):
        game(combinations="triples")


def test_tg_51_civil_guarded_a_civil_triple_high_stays_guarded() -> None:
    hands = ["1-3 1-4 2-3", "1-1 1-1 2-6", "6-6 3-6 4-5", "5-5 5-5 2-2"]
    state = play(table(hands, triplet_match="civil-guarded"), "1-3 1-4 2-3", "1-1 1-1 2-6")
    assert beats(state) == set()  # a higher military triple no longer beats
    state = play(table(hands), "1-3 1-4 2-3")
    assert beats(state) == set()  # composition: the civil triple is another class
    with pytest.raises(OptionError, match="'composition', 'civil-guarded'"):
        game(triplet_match="any")


def test_tg_52_two_pairs() -> None:
    hands = ["2-2 2-2 3-3 3-3", "6-6 6-6 1-5 1-5", "1-1 1-1 2-6 3-5", "5-5 5-5 1-3 1-3"]
    assert "2-2 2-2 3-3 3-3" not in legal(table(hands))
    state = table(hands, two_pairs=True)
    assert "3-3 3-3 2-2 2-2" in legal(state)
    play(state, "3-3 3-3 2-2 2-2")
    assert beats(state) == {"6-6 6-6 1-5 1-5"}
    play(state, "discard 6-6 6-6 1-5 1-5")
    assert beats(state) == set()  # a quad never beats two pairs
    play(state, "discard 1-1 1-1 2-6 3-5")
    assert beats(state) == {"1-3 1-3 5-5 5-5"}
    # Two military pairs: only two military pairs with a higher top pair beat them.
    hands = ["2-5 3-4 1-4 2-3", "3-6 4-5 2-6 3-5", "1-1 1-1 4-4 4-4", "6-6 6-6 5-5 5-5"]
    state = play(table(hands, two_pairs=True), "2-5 3-4 1-4 2-3")
    assert beats(state) == {"3-6 4-5 2-6 3-5"}
    play(state, "3-6 4-5 2-6 3-5")
    assert beats(state) == set()
    with pytest.raises(OptionError, match="two_pairs"):
        game(combinations="singles", two_pairs=True)


def test_tg_53_follow_suit() -> None:
    hands = ["2-2 1-2", "5-5 1-5", "2-6 1-6", "3-6 4-5"]
    state = play(table(hands, must_follow_suit=True), "2-2")
    # s1 holds civil tiles: the beating 5-5 face up, or the lower 1-5 face down.
    assert legal(state) == {"5-5", "discard 1-5"}
    with pytest.raises(IllegalMoveError, match="TG-53"):
        state.apply(state.game.parse_move("discard 5-5"))
    play(state, "5-5")
    assert legal(state) == {"discard 1-6"}  # 2-6 is military: 1-6 must go
    play(state, "discard 1-6")
    assert legal(state) == {"discard 3-6", "discard 4-5"}  # no civil tile: free
    # Without the option, any discard.
    state = play(table(hands), "2-2")
    assert legal(state) == {"5-5", "discard 5-5", "discard 1-5"}


def test_tg_53_early_death_overrides_follow_suit() -> None:
    state = table(["2-2", "5-5", "6-6", "1-3"], units=[4, 3, 0, 0], must_follow_suit=True)
    play(state, "2-2", "5-5")
    assert legal(state) == {"discard 6-6"}


def test_tg_54_open_discards() -> None:
    hands = ["6-6 1-5", "5-5 1-6", "4-4 4-6", "3-3 5-6"]
    state = play(table(hands, discards_exposed=True), "6-6", "discard 1-6", "discard 4-6")
    for seat in (0, 1, 2, 3, None):
        assert [str(m) for _, m, _ in state.view(seat).history] == [
            "6-6",
            "discard 1-6",
            "discard 4-6",
        ]
    assert game("ku-pai").options.discards_exposed


# -- Hong Kong extras -------------------------------------------------------------------


def test_tg_60_civil_supreme_no_civil_pair_beats_it() -> None:
    hands = ["1-5 1-5 2-2", "6-6 6-6 3-3", "1-6 1-6 5-6", "2-6 3-5 4-6"]
    state = play(table(hands, wen_supreme=True), "1-5 1-5")
    assert beats(state) == set()
    play(state, "discard 6-6 6-6")
    assert beats(state) == set()  # no capture without wen_supreme_capture
    state = play(table(hands, wen_supreme=True, wen_supreme_capture=True), "1-5 1-5")
    play(state, "discard 6-6 6-6")
    assert beats(state) == {"1-6 1-6"}
    play(state, "1-6 1-6")
    assert state.captured and beats(state) == set()


def test_tg_60_nothing_beats_the_capture() -> None:
    hands = ["1-5 1-5 2-2", "1-6 1-6 3-3", "6-6 6-6 5-6", "2-6 3-5 4-6"]
    state = play(table(hands, preset="hong-kong"), "1-5 1-5", "1-6 1-6")
    assert beats(state) == set()
    with pytest.raises(IllegalMoveError, match="capture"):
        state.apply(state.game.parse_move("6-6 6-6"))


def test_tg_60_a_civil_supreme_after_the_lead_beats_nothing() -> None:
    hands = ["6-6 6-6 2-2", "1-5 1-5 3-3", "1-6 4-6 5-6", "2-6 3-5 2-5"]
    state = play(table(hands, preset="hong-kong"), "6-6 6-6")
    assert legal(state) == {"discard 1-5 1-5", "discard 3-3 1-5"}
    # Ignored without wen_supreme; an error with single tiles only.
    assert game(wen_supreme_capture=True).parse_move("1-5 1-5").kind == "civil_pair"
    with pytest.raises(OptionError, match="wen_supreme"):
        game(wen_supreme=True, combinations="singles")


def test_tg_61_quad_bonus_with_banker_factor_not_on_the_last_trick() -> None:
    hands = [
        "6-6 6-6 3-6 4-5 1-2",
        "5-5 5-5 1-3 1-3 2-4",
        "1-1 1-1 2-6 3-5 2-2",
        "4-4 3-3 3-3 2-2 1-5",
    ]
    state = table(hands, banker=1, preset="hong-kong")
    play(state, "6-6 6-6 3-6 4-5")
    state.apply(state.legal_moves()[-1])
    state.apply(state.legal_moves()[-1])
    state.apply(state.legal_moves()[-1])
    # quad_bonus 4: the banker s1 (m = 2) pays 8, s2 and s3 pay 4 each.
    assert state.bonus == [16, -8, -4, -4]
    finish_randomly(state)
    assert sum(state.returns()) == 0
    # A quad winning the last trick pays no bonus but its finishing factor (TG-62).
    last = table(
        ["6-6 6-6 3-6 4-5", "5-5 5-5 1-3 1-3", "1-1 1-1 2-6 3-5", "4-4 3-3 3-3 2-2"],
        banker=2,
        units=[1, 1, 1, 1],
        preset="hong-kong",
    )
    play(last, "6-6 6-6 3-6 4-5")
    for _ in range(3):
        last.apply(last.legal_moves()[-1])
    assert last.bonus == [0, 0, 0, 0]
    # Losers with 1 unit owe 3; the banker's 3 x 2; all times quad_finish_multiplier 4.
    assert last.returns() == [12 + 24 + 12, -12, -24, -12]


def test_tg_61_supreme_bonus() -> None:
    hands = ["2-4 1-2 6-6", "5-5 5-5 1-3", "1-1 1-1 2-6", "4-4 3-3 3-3"]
    state = play(table(hands, banker=0, preset="hong-kong"), "2-4 1-2")
    for _ in range(3):
        state.apply(state.legal_moves()[0])
    assert state.bonus == [12, -4, -4, -4]  # 2 x m = 2 from each: the banker receives
    assert game().options.supreme_bonus == 0


def test_tg_62_finishing_factors() -> None:
    # The Supreme wins the last trick: supreme_finish_multiplier 2.
    state = table(
        ["2-4 1-2", "5-5 1-3", "1-1 2-2", "4-4 3-3"],
        banker=1,
        units=[2, 2, 1, 1],
        preset="hong-kong",
    )
    play(state, "2-4 1-2")
    for _ in range(3):
        state.apply(state.legal_moves()[0])
    assert state.returns() == [2 * 2 * 2 + 3 * 2 + 3 * 2, -2 * 2 * 2, -3 * 2, -3 * 2]
    assert state.bonus == [0, 0, 0, 0]
    # A led 1-2 nobody beats: yao_finish_multiplier 2.
    state = table(["1-2", "5-5", "1-1", "4-4"], banker=1, units=[2, 2, 2, 1], preset="hong-kong")
    play(state, "1-2", "discard 5-5", "discard 1-1", "discard 4-4")
    assert state.returns() == [2 * 2 * 2 + 2 * 2 + 3 * 2, -2 * 2 * 2, -2 * 2, -3 * 2]
    # Defaults: every factor 1.
    assert (Options().supreme_finish_multiplier, Options().quad_finish_multiplier) == (1, 1)
    with pytest.raises(OptionError, match="yao_finish_multiplier"):
        game(yao_finish_multiplier=0)


def test_tg_63_capture_of_a_led_1_5_by_1_6() -> None:
    state = table(["1-5", "1-6", "2-2", "4-4"], banker=3, units=[2, 2, 2, 1], preset="hong-kong")
    play(state, "1-5", "1-6", "discard 2-2", "discard 4-4")
    # s1 wins; s0 owes 2, s2 owes 2, the banker s3 owes 3 x 2: s0 pays all, times 4.
    assert state.returns() == [-(2 + 2 + 6) * 4, 40, 0, 0]
    plain = table(
        ["1-5", "1-6", "2-2", "4-4"], banker=3, units=[2, 2, 2, 1], yao_capture_multiplier=4
    )
    play(plain, "1-5", "1-6", "discard 2-2", "discard 4-4")
    assert plain.returns() == [-2, 10, -2, -6]  # without wen_supreme a 1-5 is no yao


SPECIAL_NO_RED = [
    "1-1 1-1 4-4 4-4 1-3 1-3 5-6 5-6",
    "6-6 6-6 5-5 5-5 3-3 3-3 2-2 2-2",  # no end shows 1 or 4: factor 4
    "4-6 4-6 1-6 1-6 3-6 4-5 2-6 3-5",
    "1-5 1-5 2-5 3-4 2-4 1-4 2-3 1-2",
]
SPECIAL_TWO = [
    "6-6 6-6 5-5 5-5 3-3 3-3 2-2 1-6",  # one red end: factor 2
    "1-1 1-1 4-4 4-4 1-3 1-3 5-6 2-2",
    "3-6 4-5 2-6 3-5 2-5 3-4 2-4 5-6",  # seven military tiles: factor 2
    "4-6 4-6 1-6 1-5 1-5 1-4 2-3 1-2",
]


def test_tg_64_special_hands_win_at_once() -> None:
    g = game(special_hands=True)
    state = g.new_deal(seed=1, hands=SPECIAL_NO_RED, banker=0)
    assert state.special == (1, 4) and state.is_over and state.winner == 1
    assert state.legal_moves() == () and state.history == []
    # Each other seat pays 5 x 4, the banker s0 times m = 2.
    assert state.returns() == [-40, 80, -20, -20]
    view = state.view(2)
    assert view.special == (1, 4) and view.special_hand == state.hand(1) and view.is_over
    assert game().new_deal(seed=1, hands=SPECIAL_NO_RED).special is None
    military = "3-6 4-5 2-6 3-5 2-5 3-4 2-4 1-2"  # eight military tiles: factor 4
    assert g.new_deal(seed=1, hands=[military, None, None, None], banker=0).special == (0, 4)


@pytest.mark.parametrize(
    ("banker", "direction", "winner"), [(0, 1, 0), (1, 1, 2), (2, 1, 2), (3, 1, 0), (1, -1, 0)]
)
def test_tg_64_the_banker_first_then_play_order(banker: int, direction: int, winner: int) -> None:
    g = game(special_hands=True)
    state = g.new_deal(seed=1, hands=SPECIAL_TWO, banker=banker, direction=direction)
    assert state.special == (winner, 2)
    m = 2
    paid = [-(5 * 2 * (m if banker in (s, winner) else 1)) for s in range(4)]
    paid[winner] = -sum(p for s, p in enumerate(paid) if s != winner)
    assert state.returns() == paid


def test_tg_65_preset_hong_kong() -> None:
    opts = game("hong-kong").options
    assert (opts.wen_supreme, opts.wen_supreme_capture, opts.special_hands) == (True, True, True)
    assert (opts.supreme_bonus, opts.quad_bonus) == (2, 4)
    assert (
        opts.supreme_finish_multiplier,
        opts.quad_finish_multiplier,
        opts.yao_finish_multiplier,
        opts.yao_capture_multiplier,
    ) == (2, 4, 2, 4)
    assert opts.slam_multiplier == 2 and opts.combinations == "full"


def test_tg_66_other_presets_and_overrides() -> None:
    ancient = game("ancient").options
    assert ancient.combinations == "pure-pairs" and not ancient.early_death
    kupai = game("ku-pai").options
    assert (kupai.combinations, kupai.discards_exposed, kupai.early_death) == (
        "singles",
        True,
        False,
    )
    assert kupai.banker_multiplier == "fixed"
    dominorules = game("dominorules").options
    assert (dominorules.combinations, dominorules.two_pairs, dominorules.must_follow_suit) == (
        "pairs",
        True,
        True,
    )
    assert game("ancient", early_death=True).options.early_death
    assert set(PRESETS) == {"standard", "hong-kong", "ancient", "ku-pai", "dominorules"}
    with pytest.raises(OptionError, match="ancient, dominorules, hong-kong, ku-pai, standard"):
        game("macau")


# -- notation ---------------------------------------------------------------------------


def test_tg_80_tile_notation() -> None:
    g = game()
    assert g.parse_move("3-1") is g.parse_move("1-3") is g.parse_move("[1|3]")
    assert g.parse_move("[3|1]") is g.parse_move(" 1|3 ")
    for bad in ("0-1", "7-7", "1-", "x", "[1-3"):
        with pytest.raises(InvalidMoveError):
            g.parse_move(bad)
    assert [g.tile_str(t) for t in range(0, 32, 8)] == ["6-6", "5-5", "4-6", "2-6"]


def test_tg_81_play_notation() -> None:
    g = game()
    for written, text in [
        ("4-5 6-6", "6-6 4-5"),
        ("3-5 1-1 1-1", "1-1 1-1 3-5"),
        ("4-5 3-6 6-6 6-6", "6-6 6-6 3-6 4-5"),
        ("1-2 2-4", "2-4 1-2"),
        ("2-3 1-3 1-4 1-3", "1-3 1-3 1-4 2-3"),
        ("3-4 2-5", "2-5 3-4"),
    ]:
        assert str(g.parse_move(written)) == text
    for m in g.tables.moves:
        assert g.parse_move(str(m)) is m


def test_tg_82_discards_in_views_and_records() -> None:
    hands = ["2-2 1-5 5-6", "5-5 1-6 4-6", "3-3 3-3 1-3", "1-1 6-6 6-6"]
    state = play(table(hands), "5-6", "discard 4-6", "discard 1-3", "discard 1-1")
    own = state.view(2).history[2]
    assert str(own[1]) == "discard 1-3" and own[2] == state.history[2][2]
    assert str(state.view(1).history[2][1]) == "discard ??"
    assert str(state.record(0)["moves"][2]) == "discard ??"
    assert state.record(2)["moves"][2] == "discard 1-3"
    assert state.record()["moves"][2:] == ["discard 1-3", "discard 1-1"]
    play(state, "2-2", "5-5")
    state.apply(state.game.parse_move("discard 3-3 ", state))
    assert str(state.view(0).history[-1][1]) == "discard ??"
    with pytest.raises(InvalidMoveError, match="TG-82"):
        state.game.parse_move("discard ??")
    # Several tiles: one ?? each.
    pair = play(table(["1-1 1-1", "2-2 2-2", "5-5 1-5", "3-3 4-6"]), "1-1 1-1", "discard 2-2 2-2")
    assert str(pair.view(0).history[-1][1]) == "discard ?? ??"


def test_tg_82_a_seats_record_hides_the_others_and_does_not_replay() -> None:
    state = finish_randomly(game().new_deal(seed=12), 12)
    full = json.loads(json.dumps(state.record()))
    assert shedkit.replay(full).record() == full
    for seat in range(4):
        mine = json.loads(json.dumps(state.record(seat)))
        assert "seed" not in mine and mine["seat"] == seat
        assert mine["setup"]["hands"][seat] == list(state.dealt[seat])
        assert all(h is None for s, h in enumerate(mine["setup"]["hands"]) if s != seat)
        hidden = [m for m in mine["moves"] if m.startswith("discard") and "?" in m]
        others = [m for w, m, _ in state.history if w != seat and m.is_discard]
        assert len(hidden) == len(others)
        with pytest.raises(RecordError, match="cannot be replayed"):
            shedkit.replay(mine)
