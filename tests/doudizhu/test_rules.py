"""One or more tests per rule ID of ``rules/doudizhu.md`` (DDZ-01 … DDZ-51).

Each test states the rule's expected outcome from the specification and checks
the engine against it through the public surface: ``new_deal(hands=...)``,
``legal_moves``, ``apply``, ``parse_move``, ``view``, ``returns``, records.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

import shedkit
from shedkit.core.match import Match
from shedkit.doudizhu import State, card_str
from shedkit.doudizhu.combos import card_rank

STD = shedkit.make("doudizhu")
DEW = shedkit.make("doudizhu", preset="de-wikipedia")
FOUR = shedkit.make("doudizhu", preset="four-player")
RANKS = "3456789TJQKA2BR"
KINDS_STANDARD = {
    "solo",
    "pair",
    "trio",
    "trio_solo",
    "trio_pair",
    "chain",
    "pair_chain",
    "plane",
    "plane_solo",
    "plane_pair",
    "bomb",
    "rocket",
    "quad_two_solos",
    "quad_two_pairs",
}


# -- helpers -------------------------------------------------------------------


def make(preset: str = "standard", **options: object) -> shedkit.doudizhu.DouDizhu:
    return shedkit.make("doudizhu", preset=preset, **options)  # type: ignore[no-any-return]


def table(
    hands: list[str], game: shedkit.doudizhu.DouDizhu = STD, landlord: int = 0, bid: int = 1
) -> State:
    """A deal in play with the given hands (missing seats empty), no kitty; seat 0 leads."""
    full = list(hands) + [""] * (game.num_players - len(hands))
    return game.new_deal(seed=1, hands=full, kitty="", landlord=landlord, bid=bid)


def play(state: State, *moves: str) -> State:
    """Apply moves written in DDZ-51 notation, in turn."""
    for text in moves:
        state.apply(state.game.parse_move(text, state))
    return state


def legal(state: State) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def leads(hand: str, game: shedkit.doudizhu.DouDizhu = STD) -> set[str]:
    """Every combination ``hand`` may lead."""
    return legal(table([hand], game))


def leads_of(hand: str, kind: str, game: shedkit.doudizhu.DouDizhu = STD) -> set[str]:
    """The leads of one combination id."""
    return {str(m) for m in table([hand], game).legal_moves() if m.kind == kind}


def answers(
    leader: str, lead: str, responder: str, game: shedkit.doudizhu.DouDizhu = STD
) -> set[str]:
    """What seat 1 holding ``responder`` may play after seat 0 leads ``lead``."""
    return legal(play(table([leader, responder], game), lead))


def auction(*moves: str, game: shedkit.doudizhu.DouDizhu = STD, first_bidder: int = 0) -> State:
    """A random full deal (fixed seed) with the given auction moves applied."""
    return play(game.new_deal(seed=3, first_bidder=first_bidder), *moves)


def score(
    hands: list[str],
    moves: list[str],
    game: shedkit.doudizhu.DouDizhu = STD,
    bid: int = 1,
) -> list[int]:
    """Returns of a scripted deal in which seat 0 is landlord for ``bid``."""
    state = play(table(hands, game, bid=bid), *moves)
    assert state.is_over
    return state.returns()


def finish(state: State) -> State:
    """Play a deal out quickly: highest bid in the auction, first non-pass play after."""
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[-1] if state.phase == "auction" else moves[0])
    return state


# Scripted deals, seat 0 landlord (hands, moves).
# Landlord wins; peasant 1 played a card, peasant 2 never did.
LANDLORD_WINS = (["324", "56", "78"], ["3", "5", "pass", "2", "pass", "pass", "4"])
# Landlord wins; neither peasant played a card.
LANDLORD_SPRING = (["34", "56", "78"], ["3", "pass", "pass", "4"])
# Peasant 1 goes out; the landlord played two combinations.
PEASANTS_WIN = (["35K", "4A", "67"], ["3", "4", "6", "K", "A"])
# Peasant 1 goes out after the landlord's first lead only.
PEASANTS_SPRING = (["34", "5", "67"], ["3", "5"])
# Landlord wins with a bomb and the rocket; peasant 1 played a card.
LANDLORD_BOMB_ROCKET = (
    ["333345BR", "68", "79"],
    ["5", "6", "pass", "3333", "pass", "pass", "BR", "pass", "pass", "4"],
)
# Peasant 1 bombs and goes out; the landlord played two combinations.
PEASANT_BOMB = (["35K", "48888A", "67"], ["3", "4", "6", "K", "8888", "pass", "pass", "A"])


# -- cards and seats -----------------------------------------------------------


def test_ddz_01_one_pack_of_54_cards_with_two_distinct_jokers() -> None:
    assert len(STD.deck) == 54
    names = [card_str(c) for c in STD.deck]
    assert len(set(names)) == 54
    assert "B" in names and "R" in names
    ranks = Counter(card_rank(c) for c in STD.deck)
    assert all(ranks[r] == 4 for r in range(13))
    assert ranks[13] == ranks[14] == 1


def test_ddz_01_suits_never_matter_in_play() -> None:
    a = table(["3s 3h 4s 5s 6s 7s", "9s", "Ts"])
    b = table(["3d 3c 4c 5d 6h 7c", "9h", "Th"])
    assert a.legal_moves() == b.legal_moves()


def test_ddz_01_cards_keep_their_suit_in_records_and_replays() -> None:
    state = table(["3h 3c 4d", "Ts 2h", "Kc"])
    assert [card_str(c) for c in state.dealt[0]] == ["3h", "3c", "4d"]
    play(state, "33")
    assert sorted(card_str(c) for c in state.history[-1][2]) == ["3c", "3h"]
    record = state.record()
    assert record["hands_text"][:2] == ["3h 3c 4d", "Ts 2h"]
    again = shedkit.replay(record)
    assert again.dealt == state.dealt
    assert again.history == state.history


def test_ddz_02_rank_order_from_3_to_red_joker() -> None:
    ranks = [STD.parse_move(ch).rank for ch in RANKS]
    assert ranks == sorted(ranks) and len(set(ranks)) == 15
    assert STD.parse_move("B").rank < STD.parse_move("R").rank


@pytest.mark.parametrize("i", range(len(RANKS)))
def test_ddz_02_solo_beaten_by_exactly_the_higher_ranks(i: int) -> None:
    lead = RANKS[i]
    leader = lead + ("4" if lead == "3" else "3")
    responder = RANKS.replace(lead, "")
    solos = {m for m in answers(leader, lead, responder) if len(m) == 1}
    assert solos == set(RANKS[i + 1 :])


def test_ddz_03_three_players_bidding_goes_to_the_next_seat() -> None:
    assert STD.num_players == 3
    state = auction(game=STD, first_bidder=1)
    seats = [state.current_player]
    for _ in range(2):
        play(state, "pass")
        seats.append(state.current_player)
    assert seats == [1, 2, 0]


def test_ddz_03_play_goes_to_the_next_seat() -> None:
    state = table(["34", "56", "78"], landlord=2)
    assert state.current_player == 2
    play(state, "7")
    assert state.current_player == 0
    play(state, "pass")
    assert state.current_player == 1


# -- deal ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 99])
def test_ddz_04_seventeen_cards_each_and_three_in_the_kitty(seed: int) -> None:
    state = STD.new_deal(seed=seed)
    assert [len(h) for h in state.dealt] == [17, 17, 17]
    assert len(state.kitty) == 3
    every = [c for h in state.dealt for c in h] + list(state.kitty)
    assert sorted(every) == sorted(STD.deck)


def test_ddz_04_first_bidder_is_a_random_seat_by_default() -> None:
    assert STD.options.first_bidder == "random"
    counts = Counter(STD.new_deal(seed=s).first_bidder for s in range(600))
    assert set(counts) == {0, 1, 2}
    assert all(150 <= n <= 250 for n in counts.values()), counts
    assert STD.new_deal(seed=5).first_bidder == STD.new_deal(seed=5).first_bidder


def test_ddz_04_first_bidder_rotate_moves_one_seat_each_deal_of_a_match() -> None:
    match = Match(make(first_bidder="rotate"), seed=11, deals=5)
    firsts = []
    while not match.is_over:
        state = match.next_deal()
        firsts.append(state.first_bidder)
        match.finish_deal(finish(state))
    assert len(firsts) == 5
    assert all(b == (a + 1) % 3 for a, b in itertools.pairwise(firsts))


@pytest.mark.parametrize("value", ["left", 0, None, True])
def test_ddz_04_first_bidder_option_rejects_bad_values(value: object) -> None:
    with pytest.raises(shedkit.OptionError):
        make(first_bidder=value)


# -- auction ---------------------------------------------------------------------


def test_ddz_05_auction_starts_with_the_first_bidder() -> None:
    state = auction(first_bidder=2)
    assert state.phase == "auction"
    assert state.current_player == 2
    assert legal(state) == {"pass", "bid1", "bid2", "bid3"}


def test_ddz_05_bids_must_rise() -> None:
    state = auction("bid2")
    assert legal(state) == {"pass", "bid3"}
    for text in ("bid1", "bid2"):
        with pytest.raises(shedkit.IllegalMoveError):
            play(state, text)
    assert state.current_player == 1 and len(state.history) == 1


def test_ddz_05_no_card_play_during_the_auction() -> None:
    state = auction()
    card = state.hand(0)[0]
    with pytest.raises(shedkit.IllegalMoveError):
        play(state, RANKS[card_rank(card)])


def test_ddz_06_bid_three_ends_the_auction_at_once() -> None:
    state = auction("bid3")
    assert (state.phase, state.landlord, state.current_player) == ("play", 0, 0)
    later = auction("bid1", "bid3")
    assert later.phase == "play" and later.landlord == 1
    assert later.view(None).stake == 3


def test_ddz_07_a_bid_followed_by_two_passes_ends_the_auction() -> None:
    state = auction("bid1", "pass")
    assert state.phase == "auction"
    play(state, "pass")
    assert (state.phase, state.landlord) == ("play", 0)
    assert state.view(None).stake == 1


def test_ddz_07_highest_bidder_becomes_landlord() -> None:
    state = auction("bid1", "bid2", "pass", "pass")
    assert (state.phase, state.landlord, state.current_player) == ("play", 1, 1)
    assert state.view(0).stake == 2


def test_ddz_07_passes_before_the_first_bid_do_not_end_it() -> None:
    state = auction("pass", "pass", "bid1")
    assert state.phase == "auction" and state.current_player == 0
    play(state, "pass", "pass")
    assert state.landlord == 2


def test_ddz_08_all_three_pass_throws_the_deal_in() -> None:
    state = auction("pass", "pass", "pass")
    assert state.is_over and state.thrown_in
    assert state.landlord is None
    assert state.returns() == [0, 0, 0]
    assert state.legal_moves() == ()
    record = state.record()
    assert record["thrown_in"] is True
    assert shedkit.replay(record).thrown_in


def test_ddz_08_thrown_in_deal_does_not_count_in_a_match() -> None:
    match = Match(STD, seed=4, deals=1)
    thrown = play(match.next_deal(), "pass", "pass", "pass")
    result = match.finish_deal(thrown)
    assert result.thrown_in
    assert match.deals_played == 0 and not match.is_over
    assert match.totals == [0, 0, 0]
    match.finish_deal(finish(match.next_deal()))
    assert match.deals_played == 1 and match.is_over


def test_ddz_09_a_player_who_passed_may_bid_later() -> None:
    assert STD.options.pass_is_final is False
    state = auction("pass", "bid1", "pass")
    assert state.current_player == 0
    assert legal(state) == {"pass", "bid2", "bid3"}
    play(state, "bid2", "pass", "pass")
    assert state.landlord == 0 and state.view(0).stake == 2


def test_ddz_09_pass_is_final_removes_the_player_from_the_auction() -> None:
    game = make(pass_is_final=True)
    state = auction("pass", "bid1", "bid2", game=game)
    assert state.current_player == 1  # seat 0 passed and is out
    play(state, "pass")
    assert (state.phase, state.landlord) == ("play", 2)
    assert state.view(None).stake == 2


def test_ddz_09_pass_is_final_bid_then_two_passes() -> None:
    state = auction("bid1", "pass", "pass", game=make(pass_is_final=True))
    assert state.landlord == 0


def test_ddz_09_pass_is_final_all_pass_throws_in() -> None:
    state = auction("pass", "pass", "pass", game=make(pass_is_final=True))
    assert state.thrown_in and state.returns() == [0, 0, 0]


def test_ddz_10_kitty_hidden_during_auction_and_shown_to_all_after() -> None:
    state = auction("bid1")
    assert all(state.view(s).kitty is None for s in (0, 1, 2, None))
    play(state, "pass", "pass")
    assert all(state.view(s).kitty == state.kitty for s in (0, 1, 2, None))


def test_ddz_10_landlord_takes_the_kitty_and_leads_with_20_cards() -> None:
    state = auction("pass", "bid2", "pass", "pass")
    assert state.landlord == 1 and state.current_player == 1
    hand = state.hand(1)
    assert len(hand) == 20 and set(state.kitty) <= set(hand)
    assert set(state.dealt[1]) | set(state.kitty) == set(hand)
    assert [len(state.hand(s)) for s in (0, 2)] == [17, 17]
    assert "pass" not in legal(state)


def test_ddz_10_the_other_two_are_a_team() -> None:
    state = auction("bid3")
    assert state.view(1).is_partner(2) and state.view(2).is_partner(1)
    assert not state.view(1).is_partner(0) and not state.view(0).is_partner(2)


# -- play ------------------------------------------------------------------------


def test_ddz_11_leader_may_play_any_combination() -> None:
    kinds = {m.kind for m in table(["3345678999"]).legal_moves()}
    assert {"solo", "pair", "trio", "chain", "trio_solo", "trio_pair"} <= kinds


def test_ddz_11_next_player_passes_or_beats_the_last_play() -> None:
    assert answers("5K", "5", "346788") == {"pass", "6", "7", "8"}


def test_ddz_11_standard_preset_is_the_default() -> None:
    assert STD.options == make("standard").options
    assert STD.preset == "standard"


def test_ddz_11_standard_has_exactly_the_fourteen_combinations() -> None:
    kinds = {STD.action_to_move(i).kind for i in range(STD.num_actions)}
    assert kinds == KINDS_STANDARD | {"pass", "bid"}


COMBINATIONS = [
    # hand, move, kind, rank char, groups k, cards
    ("7", "7", "solo", "7", 1, 1),
    ("77", "77", "pair", "7", 1, 2),
    ("777", "777", "trio", "7", 1, 3),
    ("7773", "777+3", "trio_solo", "7", 1, 4),
    ("77733", "777+33", "trio_pair", "7", 1, 5),
    ("34567", "34567", "chain", "7", 5, 5),
    ("334455", "334455", "pair_chain", "5", 3, 6),
    ("333444", "333444", "plane", "4", 2, 6),
    ("33344459", "333444+59", "plane_solo", "4", 2, 8),
    ("3334445599", "333444+5599", "plane_pair", "4", 2, 10),
    ("8888", "8888", "bomb", "8", 1, 4),
    ("BR", "BR", "rocket", "R", 1, 2),
    ("888839", "8888+39", "quad_two_solos", "8", 1, 6),
    ("88883399", "8888+3399", "quad_two_pairs", "8", 1, 8),
]


@pytest.mark.parametrize(("hand", "text", "kind", "rank", "k", "size"), COMBINATIONS)
def test_ddz_11_each_combination_of_the_table_can_be_led(
    hand: str, text: str, kind: str, rank: str, k: int, size: int
) -> None:
    state = table([hand])
    move = next(m for m in state.legal_moves() if str(m) == text)
    assert move.kind == kind
    assert move.rank == RANKS.index(rank)
    assert (move.length, move.size) == (k, size)
    assert STD.parse_move(text) == move


def test_ddz_11_unknown_preset_or_option_raises() -> None:
    with pytest.raises(shedkit.OptionError):
        make("nonsense")
    with pytest.raises(shedkit.OptionError):
        make(no_such_option=True)


def test_ddz_12_leader_may_not_pass() -> None:
    state = table(["34", "5", "6"])
    assert "pass" not in legal(state)
    with pytest.raises(shedkit.IllegalMoveError):
        play(state, "pass")
    assert state.current_player == 0 and not state.history


def test_ddz_12_a_pass_does_not_take_a_player_out_of_the_trick() -> None:
    state = play(table(["37K", "49", "58"]), "3", "pass", "5", "7")
    assert state.current_player == 1
    assert "9" in legal(state)
    play(state, "9")
    assert state.last_player == 1


def test_ddz_13_two_passes_end_the_trick_and_the_last_player_leads() -> None:
    state = play(table(["36K", "599", "48"]), "3", "5", "pass")
    assert state.last_play is not None  # one pass is not enough
    play(state, "pass")
    assert state.current_player == 1 and state.last_play is None
    moves = legal(state)
    assert "pass" not in moves and {"9", "99"} <= moves  # any combination


def test_ddz_14_landlord_going_out_wins() -> None:
    state = play(table(LANDLORD_WINS[0]), *LANDLORD_WINS[1])
    assert state.is_over and state.winner == 0
    ret = state.returns()
    assert ret[0] > 0 and ret[1] < 0 and ret[2] < 0


def test_ddz_14_either_peasant_going_out_wins_for_both() -> None:
    state = play(table(PEASANTS_WIN[0]), *PEASANTS_WIN[1])
    assert state.is_over and state.winner == 1
    ret = state.returns()
    assert ret[0] < 0 and ret[1] == ret[2] > 0


def test_ddz_14_the_deal_ends_the_moment_a_hand_is_empty() -> None:
    state = play(table(["33", "56", "78"]), "33")
    assert state.is_over and state.current_player is None
    assert state.legal_moves() == ()
    with pytest.raises(shedkit.IllegalMoveError):
        play(state, "pass")


# -- combinations ------------------------------------------------------------------


def test_ddz_15_kicker_never_shares_a_rank_with_the_base() -> None:
    assert leads_of("7777", "trio_solo") == set()
    assert leads_of("777788", "trio_solo") == {"777+8"}
    assert leads_of("777788", "trio_pair") == {"777+88"}
    assert leads_of("33344445", "plane_solo") == set()
    with pytest.raises(shedkit.InvalidMoveError):
        STD.parse_move("777+7")


def test_ddz_15_kicker_ranks_do_not_rank_the_move() -> None:
    assert STD.parse_move("777+3").rank == STD.parse_move("777+2").rank
    assert STD.parse_move("333444+59").rank == STD.parse_move("333444+2B").rank


def test_ddz_16_solo_kickers_may_share_a_rank() -> None:
    assert "8888+33" in leads_of("888833", "quad_two_solos")
    assert "333444+55" in leads_of("33344455", "plane_solo")


def test_ddz_16_three_solo_kickers_may_share_a_rank() -> None:
    moves = leads("333444555666")
    assert {"333444555+666", "444555666+333", "333444555666"} <= moves


def test_ddz_16_solo_kickers_never_all_four_of_a_rank() -> None:
    planes = leads_of("44455566677733338", "plane_solo")
    assert "444555666777+3338" in planes
    assert "444555666777+3333" not in planes
    with pytest.raises(shedkit.InvalidMoveError):
        STD.parse_move("444555666777+3333")


def test_ddz_16_solo_kickers_never_both_jokers() -> None:
    assert leads_of("8888BR", "quad_two_solos") == set()
    assert leads_of("777BR", "trio_solo") == {"777+B", "777+R"}
    assert leads_of("3334445BR", "plane_solo") == {"333444+5B", "333444+5R"}


def test_ddz_16_pair_kickers_have_distinct_ranks() -> None:
    assert leads_of("88883333", "quad_two_pairs") == set()
    assert leads_of("33344455556", "plane_pair") == set()
    assert leads_of("888833445", "quad_two_pairs") == {"8888+3344"}


def test_ddz_16_a_pair_kicker_may_come_out_of_a_bomb() -> None:
    moves = leads("3334444")
    assert {"333+44", "444+33", "4444"} <= moves


def test_ddz_16_jokers_never_form_a_pair() -> None:
    assert leads("BR") == {"B", "R", "BR"}
    assert STD.parse_move("BR").kind == "rocket"
    assert leads_of("777BR", "trio_pair") == set()
    with pytest.raises(shedkit.InvalidMoveError):
        STD.parse_move("777+BR")


def test_ddz_16_option_defaults() -> None:
    assert STD.options.kickers_may_repeat is True
    assert STD.options.rocket_as_kickers is False


def test_ddz_16_kickers_may_repeat_false_makes_solo_kickers_distinct() -> None:
    game = make(kickers_may_repeat=False)
    assert leads_of("888833", "quad_two_solos", game) == set()
    assert leads_of("888834", "quad_two_solos", game) == {"8888+34"}
    assert "333444555+666" not in leads("333444555666", game)
    assert leads_of("3334445566", "plane_solo", game) == {"333444+56"}
    assert leads_of("88883344", "quad_two_pairs", game) == {"8888+3344"}


def test_ddz_16_rocket_as_kickers_true_lets_both_jokers_be_kickers() -> None:
    game = make(rocket_as_kickers=True)
    assert leads_of("8888BR", "quad_two_solos", game) == {"8888+BR"}
    assert "333444+BR" in leads_of("333444BR", "plane_solo", game)
    assert leads_of("777BR", "trio_pair", game) == set()  # still not a pair


def test_ddz_16a_each_reading_of_one_card_set_is_its_own_move() -> None:
    texts = ["333444555666", "333444555+666", "444555666+333"]
    state = table(["333444555666"])
    moves = [next(m for m in state.legal_moves() if str(m) == t) for t in texts]
    assert [m.kind for m in moves] == ["plane", "plane_solo", "plane_solo"]
    assert len(set(moves)) == 3 and len({m.action_id for m in moves}) == 3
    assert [STD.parse_move(t) for t in texts] == moves


def test_ddz_16a_the_reading_decides_what_may_follow() -> None:
    leader, responder = "333444555666K", "777888999TTTJQ"
    as_plane = answers(leader, "333444555666", responder)
    as_wings = answers(leader, "333444555+666", responder)
    assert "777888999TTT" in as_plane and "777888999TTT" not in as_wings
    assert "777888999+TJQ" in as_wings and "777888999+TJQ" not in as_plane


def test_ddz_17_quad_with_two_solos_beats_only_its_own_kind() -> None:
    state = play(table(["888839K", "TTTT45"]), "8888+39")
    assert state.bombs == 0 and not state.last_play.is_bomb  # type: ignore[union-attr]
    assert legal(state) == {"pass", "TTTT+45", "TTTT"}
    assert answers("3K", "3", "TTTT45") == {"pass", "4", "5", "T", "TTTT"}


def test_ddz_17_quad_with_two_pairs_beats_only_its_own_kind() -> None:
    assert answers("88883399K", "8888+3399", "TTTT4455") == {"pass", "TTTT+4455", "TTTT"}
    assert "TTTT+4455" not in answers("33K", "33", "TTTT4455")


def test_ddz_17_bombs_and_rocket_beat_quad_with_kickers() -> None:
    assert answers("888839K", "8888+39", "44445BR") == {"pass", "4444", "BR"}


def test_ddz_17_de_wikipedia_quad_with_one_kicker() -> None:
    assert leads_of("333345", "quad_solo", DEW) == {"3333+4", "3333+5"}
    assert leads_of("33334455", "quad_pair", DEW) == {"quad_pair:3333+44", "quad_pair:3333+55"}
    assert "3333+44" in leads_of("33334455", "quad_two_solos", DEW)
    assert leads_of("333345", "quad_solo") == set()  # not in the standard preset
    got = answers("33335K", "3333+5", "4444677", DEW)
    assert {"4444+6", "4444+7", "4444"} <= got
    assert not {"quad_pair:4444+77", "4444+67", "4444+77"} & got


def test_ddz_17_de_wikipedia_quad_pair_is_not_a_quad_two_solos() -> None:
    got = answers("333355K", "quad_pair:3333+55", "4444677", DEW)
    assert got == {"pass", "quad_pair:4444+77", "4444"}


def test_ddz_18_chain_is_5_to_12_cards() -> None:
    lengths = {len(m) for m in leads_of("3456789TJQKA", "chain")}
    assert lengths == set(range(5, 13))
    assert leads_of("3456", "chain") == set()
    assert {len(m) for m in leads_of("3456789TJQKA2", "chain", DEW)} == set(range(5, 13))
    with pytest.raises(shedkit.InvalidMoveError):
        DEW.parse_move("3456789TJQKA2")


def test_ddz_18_pair_chain_is_3_to_10_pairs() -> None:
    hand = "".join(r * 2 for r in "3456789TJQKA")
    assert {len(m) // 2 for m in leads_of(hand, "pair_chain")} == set(range(3, 11))
    assert leads_of("3344", "pair_chain") == set()


def test_ddz_18_plane_is_2_to_6_trios() -> None:
    hand = "".join(r * 3 for r in "3456789")
    assert {len(m) // 3 for m in leads_of(hand, "plane")} == set(range(2, 7))
    assert leads_of("333", "plane") == set()


def test_ddz_18_planes_with_kickers_at_most_20_cards() -> None:
    state = table(["333444555666777888" + "9TJQKA"])
    solos = [m for m in state.legal_moves() if m.kind == "plane_solo"]
    assert {m.length for m in solos} == {2, 3, 4, 5}
    assert max(m.size for m in solos) == 20
    state = table(["333444555666777" + "99TTJJQQKK"])
    pairs = [m for m in state.legal_moves() if m.kind == "plane_pair"]
    assert {m.length for m in pairs} == {2, 3, 4}
    assert max(m.size for m in pairs) == 20


def test_ddz_19_no_2_in_chains() -> None:
    assert leads_of("TJQKA2", "chain") == {"TJQKA"}
    assert leads_of("QQKKAA22", "pair_chain") == {"QQKKAA"}
    assert leads_of("AAA222", "plane") == set()
    for text in ("JQKA2", "KKAA22", "AAA222", "23456"):
        with pytest.raises(shedkit.InvalidMoveError):
            STD.parse_move(text)


def test_ddz_19_no_jokers_in_chains() -> None:
    assert leads_of("9TJQKA2BR", "chain", DEW) == {"9TJQK", "TJQKA", "9TJQKA"}
    assert leads_of("KKAA22BR", "pair_chain", DEW) == {"KKAA22"}
    for game in (STD, DEW):
        for text in ("QKA2B", "KA2BR", "A2BR3"):
            with pytest.raises(shedkit.InvalidMoveError):
                game.parse_move(text)


def test_ddz_19_de_wikipedia_2_ends_a_pair_chain_or_a_plane_never_a_single_chain() -> None:
    assert DEW.options.two_in_chains
    assert leads_of("TJQKA2", "chain", DEW) == {"TJQKA"}
    for text in ("TJQKA2", "JQKA2", "3456789TJQKA2"):
        with pytest.raises(shedkit.InvalidMoveError):
            DEW.parse_move(text)
    assert "KKAA22" in leads_of("QQKKAA22", "pair_chain", DEW)
    assert DEW.parse_move("QQKKAA22").kind == "pair_chain"
    assert leads_of("AAA222", "plane", DEW) == {"AAA222"}
    assert DEW.parse_move("AAA222+34").kind == "plane_solo"
    with pytest.raises(shedkit.InvalidMoveError):
        DEW.parse_move("23456")  # the 2 is high, not low


# -- beating -----------------------------------------------------------------------


def test_ddz_20_same_kind_same_length_strictly_higher() -> None:
    chains = {m for m in answers("34567K", "34567", "456789TJQ") if m != "pass"}
    assert chains - {"9999"} == {"45678", "56789", "6789T", "789TJ", "89TJQ"}
    assert "456789" not in chains


def test_ddz_20_equal_rank_is_not_enough() -> None:
    assert answers("7K", "7", "78") == {"pass", "8"}
    assert answers("77K", "77", "7788") == {"pass", "88"}


def test_ddz_20_other_kind_does_not_beat() -> None:
    assert answers("77K", "77", "888") == {"pass", "88"}
    assert answers("333444K", "333444", "555666777") == {"pass", "555666", "666777"}
    assert answers("7773K", "777+3", "88845") == {"pass", "888+4", "888+5"}


def test_ddz_20_a_play_that_does_not_beat_is_illegal() -> None:
    state = play(table(["34567K", "456789TJQ"]), "34567")
    with pytest.raises(shedkit.IllegalMoveError):
        play(state, "456789")
    assert state.current_player == 1


BOMB_TARGETS = [
    ("2K", "2"),
    ("22K", "22"),
    ("222K", "222"),
    ("AAA3K", "AAA+3"),
    ("AAA33K", "AAA+33"),
    ("34567K", "34567"),
    ("334455K", "334455"),
    ("TTTJJJK", "TTTJJJ"),
    ("TTTJJJ34K", "TTTJJJ+34"),
    ("TTTJJJ3344K", "TTTJJJ+3344"),
    ("AAAA34K", "AAAA+34"),
    ("AAAA3344K", "AAAA+3344"),
]


@pytest.mark.parametrize(("leader", "lead"), BOMB_TARGETS)
def test_ddz_21_a_bomb_beats_any_non_bomb(leader: str, lead: str) -> None:
    assert "9999" in answers(leader, lead, "9999")


def test_ddz_21_a_bomb_beats_a_lower_bomb() -> None:
    assert answers("8888K", "8888", "77779999") == {"pass", "9999"}


def test_ddz_22_rocket_beats_everything() -> None:
    assert answers("2222K", "2222", "BR3333") == {"pass", "BR"}
    assert "BR" in answers("AAAA34K", "AAAA+34", "BR")


def test_ddz_22_rocket_cannot_be_beaten() -> None:
    assert answers("BRK", "BR", "2222") == {"pass"}


def test_ddz_23_kicker_ranks_never_decide() -> None:
    assert "888+3" in answers("7772K", "777+2", "8883")
    # Two packs let two players hold the same trio: a higher kicker is not enough.
    got = answers("7773K", "777+3", "77748883", FOUR)
    assert {"888+3", "888+4", "888+7"} <= got
    assert "777+4" not in got and "777+8" not in got


# -- scoring -----------------------------------------------------------------------


def test_ddz_30_stake_is_the_winning_bid() -> None:
    hands = ["67", "32", "89"]
    moves = ["3", "8", "pass", "2", "pass", "pass", "4"]
    for bids, stake in ((["bid1", "bid2", "pass", "pass"], 2), (["pass", "bid3"], 3)):
        state = STD.new_deal(seed=1, hands=hands, kitty="4", first_bidder=0)
        play(state, *bids, *moves)
        assert state.landlord == 1
        assert state.returns() == [-stake, 2 * stake, -stake]


@pytest.mark.parametrize("bid", [1, 2, 3])
def test_ddz_30_stake_with_no_doubling(bid: int) -> None:
    assert score(*LANDLORD_WINS, bid=bid) == [2 * bid, -bid, -bid]


def test_ddz_31_every_bomb_and_rocket_doubles_the_stake() -> None:
    state = play(table(LANDLORD_BOMB_ROCKET[0], bid=2), *LANDLORD_BOMB_ROCKET[1])
    assert state.bombs == 2 and state.multiplier == 4
    assert state.returns() == [16, -8, -8]


def test_ddz_31_a_peasant_bomb_doubles_too() -> None:
    assert score(*PEASANT_BOMB, bid=2) == [-8, 4, 4]


def test_ddz_32_spring_landlord_wins_and_no_peasant_played() -> None:
    assert STD.options.spring == "standard"
    assert score(*LANDLORD_SPRING, bid=2) == [8, -4, -4]
    assert score(*LANDLORD_WINS, bid=2) == [4, -2, -2]  # one peasant played


def test_ddz_32_spring_peasants_win_and_landlord_played_once() -> None:
    assert score(*PEASANTS_SPRING, bid=2) == [-8, 4, 4]
    assert score(*PEASANTS_WIN, bid=2) == [-4, 2, 2]  # landlord played twice


def test_ddz_32_spring_and_bombs_multiply() -> None:
    hands = ["3333BR", "5", "6"]
    moves = ["3333", "pass", "pass", "BR"]
    assert score(hands, moves, bid=3) == [48, -24, -24]  # 3 × 2 × 2 × 2 (spring)


def test_ddz_32_spring_off() -> None:
    game = make(spring="off")
    assert score(*LANDLORD_SPRING, game=game) == [2, -1, -1]
    assert score(*PEASANTS_SPRING, game=game) == [-2, 1, 1]


def test_ddz_32_spring_any_player_one_silent_loser_is_enough() -> None:
    game = make(spring="any_player")
    assert score(*LANDLORD_WINS, game=game) == [4, -2, -2]  # seat 2 still holds all
    assert score(*LANDLORD_SPRING, game=game) == [4, -2, -2]  # doubles once, not twice
    assert score(*PEASANTS_WIN, game=game) == [-2, 1, 1]


def test_ddz_32_spring_any_player_counts_the_winners_partner() -> None:
    # The landlord always leads, so a losing landlord never still holds every card; the
    # partner of the peasant who went out can, and that doubles the stake too.
    game = make(spring="any_player")
    assert score(*PEASANTS_SPRING, game=game) == [-4, 2, 2]  # seat 2 never played
    silent_partner = (["35K", "4A2", "67"], ["3", "4", "pass", "5", "A", "pass", "pass", "2"])
    assert score(*silent_partner, game=game) == [-4, 2, 2]
    assert score(*silent_partner, game=STD) == [-2, 1, 1]  # the landlord played twice
    assert score(*PEASANTS_WIN, game=game) == [-2, 1, 1]  # everyone played


def test_ddz_32_de_wikipedia_uses_spring_any_player() -> None:
    assert DEW.options.spring == "any_player"
    assert score(*LANDLORD_WINS, game=DEW) == [4, -2, -2]


@pytest.mark.parametrize("value", ["none", "any", True, 1])
def test_ddz_32_spring_option_rejects_bad_values(value: object) -> None:
    with pytest.raises(shedkit.OptionError):
        make(spring=value)


def test_ddz_33_landlord_wins_each_peasant_pays_the_stake() -> None:
    assert score(*LANDLORD_WINS, bid=3) == [6, -3, -3]


def test_ddz_33_peasants_win_landlord_pays_each_peasant() -> None:
    assert score(*PEASANTS_WIN, bid=3) == [-6, 3, 3]


@pytest.mark.parametrize("game", [STD, DEW, FOUR], ids=["standard", "de-wikipedia", "four"])
def test_ddz_33_a_deal_is_zero_sum(game: shedkit.doudizhu.DouDizhu) -> None:
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        while not state.is_over:
            moves = state.legal_moves()
            if state.phase == "auction" and rng.random() < 0.7:
                moves = moves[1:]  # bid more often than not
            state.apply(rng.choice(moves))
        ret = state.returns()
        assert sum(ret) == 0
        if not state.thrown_in:
            peasants = {ret[s] for s in range(game.num_players) if s != state.landlord}
            assert len(peasants) == 1


def test_ddz_34_match_ends_after_a_set_number_of_deals() -> None:
    match = Match(STD, seed=8, deals=3)
    expected = [0, 0, 0]
    while not match.is_over:
        result = match.finish_deal(finish(match.next_deal()))
        expected = [t + r for t, r in zip(expected, result.returns, strict=True)]
        assert match.totals == expected  # running totals
    assert match.deals_played == 3
    with pytest.raises(shedkit.OptionError):
        match.next_deal()


def test_ddz_34_match_ends_when_a_player_reaches_the_target() -> None:
    match = Match(STD, seed=0, target=10)
    match.finish_deal(play(table(LANDLORD_WINS[0], bid=2), *LANDLORD_WINS[1]))
    assert match.totals == [4, -2, -2] and not match.is_over
    match.finish_deal(play(table(LANDLORD_WINS[0], bid=3), *LANDLORD_WINS[1]))
    assert match.totals == [10, -5, -5] and match.is_over


def test_ddz_34_being_that_far_behind_does_not_end_the_match() -> None:
    match = Match(STD, seed=0, target=6)
    # The landlord loses 2 x 3 = 6 (peasant 1 goes out); the peasants only reach 3 each.
    match.finish_deal(play(table(PEASANTS_WIN[0], bid=3), *PEASANTS_WIN[1]))
    assert match.totals == [-6, 3, 3] and not match.is_over
    match.finish_deal(play(table(PEASANTS_WIN[0], bid=3), *PEASANTS_WIN[1]))
    assert match.totals == [-12, 6, 6] and match.is_over


# -- four players ------------------------------------------------------------------


def test_ddz_40_two_packs_108_cards_four_jokers() -> None:
    assert FOUR.num_players == 4
    assert len(FOUR.deck) == 108
    ranks = Counter(card_rank(c) for c in FOUR.deck)
    assert all(ranks[r] == 8 for r in range(13))
    assert ranks[13] == ranks[14] == 2


def test_ddz_40_25_cards_each_kitty_8_landlord_33() -> None:
    state = FOUR.new_deal(seed=2, first_bidder=1)
    assert [len(h) for h in state.dealt] == [25] * 4 and len(state.kitty) == 8
    assert sorted([c for h in state.dealt for c in h] + list(state.kitty)) == list(FOUR.deck)
    play(state, "bid3")
    assert state.landlord == 1 and len(state.hand(1)) == 33


def test_ddz_41_bombs_are_4_to_8_cards_of_a_rank() -> None:
    assert leads_of("33333333", "bomb", FOUR) == {"3" * n for n in range(4, 9)}
    assert leads_of("333", "bomb", FOUR) == set()


def test_ddz_41_bigger_bomb_beats_higher_rank() -> None:
    got = answers("22222K", "22222", "333333", FOUR)
    assert got == {"pass", "333333"}


def test_ddz_41_same_size_higher_rank_wins() -> None:
    got = answers("44444K", "44444", "3333355555", FOUR)
    assert got == {"pass", "55555"}
    assert answers("4444K", "4444", "3333", FOUR) == {"pass"}


def test_ddz_42_rocket_is_all_four_jokers() -> None:
    assert FOUR.parse_move("BBRR").kind == "rocket"
    assert answers("22222222K", "22222222", "BBRR", FOUR) == {"pass", "BBRR"}
    assert answers("BBRRK", "BBRR", "33333333", FOUR) == {"pass"}
    assert "BR" not in leads("BRR", FOUR)


def test_ddz_42_same_colour_jokers_are_a_pair_black_and_red_are_not() -> None:
    assert leads("BBRR", FOUR) == {"B", "R", "BB", "RR", "BBRR"}
    assert FOUR.parse_move("BB").kind == FOUR.parse_move("RR").kind == "pair"
    with pytest.raises(shedkit.InvalidMoveError):
        FOUR.parse_move("BR")
    assert answers("BBK", "BB", "RR", FOUR) == {"pass", "RR"}
    assert leads_of("777BBR", "trio_pair", FOUR) == {"777+BB"}
    with pytest.raises(shedkit.InvalidMoveError):
        FOUR.parse_move("777+BR")


def test_ddz_42_kickers_never_split_the_four_joker_rocket() -> None:
    assert "8888+BBRR" not in leads("8888BBRR", FOUR)
    assert "8888+BBRR" in leads("8888BBRR", make("four-player", rocket_as_kickers=True))


FOUR_LANDLORD_WINS = (
    ["324", "56", "78", "9T"],
    ["3", "5", "pass", "pass", "2", "pass", "pass", "pass", "4"],
)
FOUR_PEASANTS_WIN = (["35K", "4A", "67", "89"], ["3", "4", "6", "8", "K", "A"])


def test_ddz_43_landlord_settles_with_each_of_three_peasants() -> None:
    assert score(*FOUR_LANDLORD_WINS, game=FOUR, bid=2) == [6, -2, -2, -2]
    assert score(*FOUR_PEASANTS_WIN, game=FOUR, bid=2) == [-6, 2, 2, 2]


def test_ddz_43_deal_ends_when_anyone_goes_out() -> None:
    state = play(table(["35", "4", "6", "7"], FOUR), "3", "pass", "pass", "7")
    assert state.is_over and state.winner == 3
    assert state.returns() == [-6, 2, 2, 2]  # the landlord played once: spring


def test_ddz_43_trick_ends_when_the_three_others_pass() -> None:
    state = play(table(["36K", "5", "4", "7"], FOUR), "3", "pass", "pass")
    assert state.current_player == 3 and state.last_play is not None
    play(state, "pass")
    assert state.current_player == 0 and state.last_play is None


def test_ddz_43_four_player_auction() -> None:
    state = auction("bid1", "pass", "pass", game=FOUR)
    assert state.phase == "auction"
    play(state, "pass")
    assert state.landlord == 0
    thrown = auction("pass", "pass", "pass", "pass", game=FOUR)
    assert thrown.thrown_in and thrown.returns() == [0, 0, 0, 0]


# -- notation ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("10JQKA", "TJQKA"),
        ("tjqka", "TJQKA"),
        ("T J Q K A", "TJQKA"),
        ("10 10", "TT"),
        ("br", "BR"),
        ("b", "B"),
        ("2", "2"),
        ("  777 + 3 ", "777+3"),
    ],
)
def test_ddz_50_input_accepts_10_lower_case_and_spaces(text: str, canonical: str) -> None:
    assert str(STD.parse_move(text)) == canonical


def test_ddz_50_card_is_rank_plus_suit_jokers_are_b_and_r() -> None:
    state = table(["Ts 2h 3d 4c B R", "10h", "kd"])
    assert [card_str(c) for c in state.dealt[0]] == ["3d", "4c", "Ts", "2h", "B", "R"]
    assert [card_str(c) for c in state.dealt[1]] == ["Th"]
    assert [card_str(c) for c in state.dealt[2]] == ["Kd"]


@pytest.mark.parametrize("text", ["1", "X", "", "11", "33+"])
def test_ddz_50_bad_text_is_rejected(text: str) -> None:
    with pytest.raises(shedkit.InvalidMoveError):
        STD.parse_move(text)


@pytest.mark.parametrize(
    "text", ["7", "77", "34567", "333444+59", "8888+3399", "BR", "pass", "bid1", "bid2", "bid3"]
)
def test_ddz_51_canonical_form_round_trips(text: str) -> None:
    assert str(STD.parse_move(text)) == text


@pytest.mark.parametrize("game", [STD, DEW, FOUR], ids=["standard", "de-wikipedia", "four"])
def test_ddz_51_every_move_round_trips(game: shedkit.doudizhu.DouDizhu) -> None:
    for i in range(game.num_actions):
        move = game.action_to_move(i)
        assert game.parse_move(str(move)) == move, str(move)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("76543", "34567"),
        ("95 444 333", "333444+59"),
        ("9 3 8 8 3 9 8 8", "8888+3399"),
        ("444333+95", "333444+59"),
        ("RB", "BR"),
        ("3 7 7 7", "777+3"),
    ],
)
def test_ddz_51_any_order_when_only_one_reading(text: str, canonical: str) -> None:
    assert str(STD.parse_move(text)) == canonical


def test_ddz_51_the_plus_form_picks_the_reading() -> None:
    plane = STD.parse_move("333444555666")
    low = STD.parse_move("333444555+666")
    high = STD.parse_move("444555666+333")
    assert (plane.kind, low.kind, high.kind) == ("plane", "plane_solo", "plane_solo")
    assert len({plane, low, high}) == 3
    assert (str(plane), str(low), str(high)) == ("333444555666", "333444555+666", "444555666+333")


def test_ddz_51_several_readings_and_no_plus_is_an_error() -> None:
    with pytest.raises(shedkit.InvalidMoveError):
        STD.parse_move("3334445556667778")
    assert STD.parse_move("333444555666+7778").base[-1] == RANKS.index("6")
    assert STD.parse_move("444555666777+3338").base[0] == RANKS.index("4")


def test_ddz_51_de_wikipedia_quad_pair_has_a_prefix() -> None:
    solos = DEW.parse_move("3333+44")
    pair = DEW.parse_move("quad_pair:3333+44")
    assert (solos.kind, pair.kind) == ("quad_two_solos", "quad_pair")
    assert (str(solos), str(pair)) == ("3333+44", "quad_pair:3333+44")
    assert str(DEW.parse_move("3333+5")) == "3333+5"
    assert DEW.parse_move("3333+5").kind == "quad_solo"
