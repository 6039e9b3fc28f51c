"""Scripted Dou Di Zhu deals built with ``hands=``: auction, kitty, tricks, scoring, records.

Every step is asserted against the rule specification (``rules/doudizhu.md``):
whose turn it is, what they may play, and the exact score at the end.
"""

from __future__ import annotations

import json

import pytest

import shedkit
from shedkit.core.match import Match
from shedkit.doudizhu import DouDizhu, State, card_str

STD = shedkit.make("doudizhu")
DEW = shedkit.make("doudizhu", preset="de-wikipedia")
FOUR = shedkit.make("doudizhu", preset="four-player")


def step(state: State, seat: int, text: str, only: set[str] | None = None) -> None:
    """Check it is ``seat``'s turn (and, if given, exactly what it may do), then play ``text``."""
    assert state.current_player == seat
    if only is not None:
        assert {str(m) for m in state.legal_moves()} == only
    state.apply(state.game.parse_move(text, state), seat=seat)


def run(state: State, script: list[tuple[int, str]]) -> State:
    for seat, text in script:
        step(state, seat, text)
    return state


def everyone_passes(state: State, seats: list[int]) -> None:
    """Each seat in turn has nothing that beats the table and passes."""
    for seat in seats:
        step(state, seat, "pass", only={"pass"})


def test_scenario_landlord_spring_with_rocket_full_hands() -> None:
    """DDZ-04…10, DDZ-13/14, DDZ-22, DDZ-31…33: a 17-card deal the landlord sweeps."""
    hands = ["333444555666777QQ", "3456789TJQKA222BR", "888999TTTJJJKAAA2"]
    state = STD.new_deal(seed=42, hands=hands, kitty="QKK", first_bidder=0)
    assert [len(h) for h in state.dealt] == [17, 17, 17]
    assert state.view(0).kitty is None
    run(state, [(0, "pass"), (1, "bid2"), (2, "pass")])
    assert state.phase == "auction"  # one pass after the bid is not enough
    step(state, 0, "pass")
    assert (state.phase, state.landlord, state.current_player) == ("play", 1, 1)
    assert sorted(card_str(c)[0] for c in state.view(2).kitty or ()) == ["K", "K", "Q"]
    assert len(state.hand(1)) == 20

    step(state, 1, "3456789TJQKA")
    everyone_passes(state, [2, 0])
    step(state, 1, "BR")
    everyone_passes(state, [2, 0])
    step(state, 1, "222+KK")
    everyone_passes(state, [2, 0])
    step(state, 1, "Q")
    assert state.is_over and state.winner == 1
    # stake 2, the rocket doubles, spring (no peasant played) doubles: 8 from each peasant
    assert state.returns() == [-8, 16, -8]


def test_scenario_partner_bombs_and_goes_out() -> None:
    """DDZ-09/12/14, DDZ-21, DDZ-31…33: a peasant bombs, leads, goes out; both peasants win."""
    hands = ["456789K", "33TTTTA", "JQKA22"]
    state = STD.new_deal(seed=7, hands=hands, kitty="JQ", first_bidder=1)
    run(state, [(1, "bid1"), (2, "bid2"), (0, "pass"), (1, "pass")])
    assert state.landlord == 2 and len(state.hand(2)) == 8

    step(state, 2, "K")
    step(state, 0, "pass", only={"pass"})  # K does not beat K (DDZ-20)
    step(state, 1, "A")
    step(state, 2, "2")
    step(state, 0, "pass", only={"pass"})
    step(state, 1, "TTTT", only={"pass", "TTTT"})
    everyone_passes(state, [2, 0])
    assert state.current_player == 1 and state.bombs == 1
    step(state, 1, "33")
    assert state.is_over and state.winner == 1
    # stake 2, one bomb; the landlord played twice, so no spring: 4 to each peasant
    assert state.returns() == [4, 4, -8]


def test_scenario_rebid_after_pass_and_trick_play() -> None:
    """DDZ-05…07, DDZ-09, DDZ-11…13: a passer comes back to bid; tricks change hands."""
    hands = ["3579JJ", "468TQQ", "77KKA2"]
    state = STD.new_deal(seed=5, hands=hands, kitty="", first_bidder=2)
    run(state, [(2, "pass"), (0, "bid1"), (1, "pass"), (2, "bid2")])
    assert state.phase == "auction"
    run(state, [(0, "pass"), (1, "pass")])
    assert state.landlord == 2 and state.view(1).stake == 2

    step(state, 2, "A")
    step(state, 0, "pass", only={"pass"})
    step(state, 1, "pass", only={"pass"})
    step(state, 2, "77")  # new trick, any combination
    step(state, 0, "JJ", only={"pass", "JJ"})
    step(state, 1, "QQ", only={"pass", "QQ"})
    step(state, 2, "KK", only={"pass", "KK"})
    everyone_passes(state, [0, 1])
    step(state, 2, "2")
    assert state.is_over and state.winner == 2
    # both peasants played, the landlord won: stake 2, no doubling
    assert state.returns() == [-2, -2, 4]


def test_scenario_record_replays_exactly() -> None:
    """DDZ-01, DDZ-51: a record (through JSON) rebuilds the same cards, moves and score."""
    hands = ["3579JJ", "468TQQ", "77KKA2"]
    state = STD.new_deal(seed=5, hands=hands, kitty="", first_bidder=2)
    moves = ["pass", "bid1", "pass", "bid2", "pass", "pass", "A", "pass", "pass", "77"]
    moves += ["JJ", "QQ", "KK", "pass", "pass", "2"]
    for text in moves:
        state.apply(STD.parse_move(text, state))
    assert state.is_over
    record = json.loads(json.dumps(state.record()))
    assert record["moves"] == moves
    assert record["hands_text"][2] == " ".join(card_str(c) for c in state.dealt[2])
    again = shedkit.replay(record)
    assert again.is_over and again.returns() == state.returns() == [-2, -2, 4]
    assert again.dealt == state.dealt and again.history == state.history
    record["moves"][6] = "3"  # the landlord holds no 3
    record["returns"] = None
    with pytest.raises(shedkit.RecordError):
        shedkit.replay(record)


def test_scenario_illegal_moves_leave_the_state_unchanged() -> None:
    """DDZ-11/12, DDZ-20: wrong seat, cards not held, a non-beating play, a pass on lead."""
    state = STD.new_deal(seed=1, hands=["3456K", "78", "9T"], landlord=0)
    for text, seat in (("3", 1), ("99", None), ("pass", None), ("bid3", None)):
        with pytest.raises(shedkit.IllegalMoveError):
            state.apply(STD.parse_move(text), seat=seat)
    assert state.current_player == 0 and not state.history
    step(state, 0, "5")
    for text, seat in (("3", None), ("7", 2), ("88", None)):
        with pytest.raises(shedkit.IllegalMoveError):
            state.apply(STD.parse_move(text), seat=seat)
    assert state.current_player == 1 and len(state.history) == 1
    step(state, 1, "7", only={"pass", "7", "8"})


def test_scenario_four_players_landlord_sweeps_with_big_bombs() -> None:
    """DDZ-40…43: 25-card hands, an 8-card kitty, 8-card bombs, the four-joker rocket."""
    hands = [
        "33333333" + "44444444" + "22222" + "BBRR",
        "5555555" + "6666666" + "7777777" + "8888",
        "888" + "9999999" + "TTTTTTTT" + "JJJJJJJ",
        "J" + "QQQQQQQQ" + "KKKKKKKK" + "AAAAAAAA",
    ]
    state = FOUR.new_deal(seed=3, hands=hands, kitty="222" + "56789", first_bidder=0)
    assert [len(h) for h in state.dealt] == [25] * 4 and len(state.kitty) == 8
    step(state, 0, "bid3")
    assert state.landlord == 0 and len(state.hand(0)) == 33

    step(state, 0, "56789")
    run(state, [(1, "pass"), (2, "pass"), (3, "pass")])
    step(state, 0, "33333333")
    moves = {str(m) for m in state.legal_moves()}
    assert moves == {"pass"}  # seat 1's bombs have fewer cards
    run(state, [(1, "pass")])
    assert "TTTTTTTT" in {str(m) for m in state.legal_moves()}  # same size, higher rank
    run(state, [(2, "pass"), (3, "pass")])
    step(state, 0, "44444444")
    run(state, [(1, "pass"), (2, "pass"), (3, "pass")])
    step(state, 0, "22222222")
    everyone_passes(state, [1, 2, 3])
    step(state, 0, "BBRR")
    assert state.is_over and state.winner == 0
    # stake 3, three bombs and the rocket (2^4), spring (2): 96 from each of three peasants
    assert state.returns() == [288, -96, -96, -96]


def test_scenario_de_wikipedia_two_in_chain_quad_pair_and_spring_any_player() -> None:
    """Preset "de-wikipedia": QQ-KK-AA-22 pair chain, quad_pair, spring: one loser never played."""
    hands = ["72QQKKAA22333355", "89", "6T"]
    script = [(0, "7"), (1, "8"), (2, "pass"), (0, "2"), (1, "pass"), (2, "pass")]
    script += [(0, "QQKKAA22"), (1, "pass"), (2, "pass"), (0, "quad_pair:3333+55")]
    state = run(DEW.new_deal(seed=2, hands=hands, landlord=0, bid=2), script)
    assert state.is_over and state.bombs == 0
    # stake 2; quad_pair is no bomb; seat 2 never played: spring under "any_player"
    assert state.returns() == [8, -4, -4]


def test_scenario_match_redeals_a_thrown_in_deal() -> None:
    """DDZ-08, DDZ-34: a thrown-in deal is redealt and does not count; totals run on."""
    game: DouDizhu = shedkit.make("doudizhu", first_bidder="rotate")
    match = Match(game, seed=9, deals=2)
    first = match.next_deal()
    for _ in range(3):
        first.apply(game.parse_move("pass"))
    match.finish_deal(first)
    assert match.deals_played == 0 and match.totals == [0, 0, 0]
    played = []
    while not match.is_over:
        state = match.next_deal()
        state.apply(game.parse_move("bid3"))
        while not state.is_over:
            state.apply(state.legal_moves()[0])
        played.append(match.finish_deal(state))
    assert len(played) == 2 and match.deals_played == 2
    assert match.totals == [sum(r.returns[s] for r in played) for s in range(3)]
    assert sum(match.totals) == 0


def test_scenario_pass_is_final_auction() -> None:
    """DDZ-09 with ``pass_is_final``: passers are skipped; the last bidder standing wins."""
    game = shedkit.make("doudizhu", pass_is_final=True)
    state = game.new_deal(seed=4, hands=["34", "56", "78"], kitty="9", first_bidder=0)
    run(state, [(0, "pass"), (1, "bid1"), (2, "bid2")])
    assert state.current_player == 1  # seat 0 is out of the auction
    step(state, 1, "pass")
    assert state.landlord == 2
    assert sorted(card_str(c)[0] for c in state.hand(2)) == ["7", "8", "9"]
