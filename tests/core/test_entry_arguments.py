"""Bad arguments to the public entry points get the contract's errors on both builds.

A compiled (mypyc) function would raise a bare ``TypeError`` for an argument of
the wrong type; the entry points check their arguments themselves, so these
tests pass unchanged under ``make test`` (pure) and ``make test-compiled``.
"""

from __future__ import annotations

import pytest

import shedkit
from shedkit import IllegalMoveError, InvalidMoveError
from shedkit.core.errors import SetupError

GAMES = sorted(shedkit.GAMES)
# The seat-valued set-up argument of each game's new_deal.
SEAT_ARG = {
    "doudizhu": "first_bidder",
    "president": "dealer",
    "dominoes": "leader",
    "tiengow": "banker",
}
NOT_A_SEAT = ["1", 1.5, True, -1, 9, [0]]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", [None, 5, 1.5, b"pass", ("pass",)])
def test_parse_move_of_non_text_is_an_invalid_move(name: str, bad: object) -> None:
    with pytest.raises(InvalidMoveError, match="text"):
        shedkit.make(name).parse_move(bad)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", ["pass", 0, None, object(), ("pass",)])
def test_apply_of_a_non_move_is_illegal_and_changes_nothing(name: str, bad: object) -> None:
    state = shedkit.make(name).new_deal(seed=3)
    before = state.record()
    with pytest.raises(IllegalMoveError):
        state.apply(bad)
    assert state.record() == before


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seat", ["0", 0.0, [0], 7])
def test_apply_for_a_bad_seat_is_illegal(name: str, seat: object) -> None:
    state = shedkit.make(name).new_deal(seed=3)
    with pytest.raises(IllegalMoveError, match="turn"):
        state.apply(state.legal_moves()[0], seat=seat)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seat", ["0", 0.0, True, -1, 4, [0]])
def test_view_of_a_bad_seat_is_a_value_error(name: str, seat: object) -> None:
    state = shedkit.make(name).new_deal(seed=3)
    with pytest.raises(ValueError, match="seat must be"):
        state.view(seat)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", ["1", 1.5, True, [1]])
def test_new_deal_with_a_non_integer_seed_is_a_setup_error(name: str, seed: object) -> None:
    with pytest.raises(SetupError, match="seed must be an integer"):
        shedkit.make(name).new_deal(seed=seed)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seat", NOT_A_SEAT)
def test_new_deal_with_a_bad_seat_is_a_setup_error(name: str, seat: object) -> None:
    arg = SEAT_ARG[name]
    with pytest.raises(SetupError, match=f"{arg} must be a seat"):
        shedkit.make(name).new_deal(seed=1, **{arg: seat})


@pytest.mark.parametrize("bid", ["2", 2.0, 4, None])
def test_doudizhu_bad_stake_is_a_setup_error(bid: object) -> None:
    """DDZ-06: a stake is a bid of 1, 2 or 3."""
    with pytest.raises(SetupError, match="bid must be 1, 2 or 3"):
        shedkit.make("doudizhu").new_deal(seed=1, landlord=0, bid=bid)


def test_doudizhu_bad_landlord_is_a_setup_error() -> None:
    with pytest.raises(SetupError, match="landlord must be a seat"):
        shedkit.make("doudizhu").new_deal(seed=1, landlord="0")


@pytest.mark.parametrize("value", [1, "yes", None])
def test_president_revolution_must_be_a_bool(value: object) -> None:
    with pytest.raises(SetupError, match="revolution must be true or false"):
        shedkit.make("president").new_deal(seed=1, revolution=value)


def test_dominoes_bad_lead_tile_is_a_setup_error() -> None:
    """DOM-04: the forced first tile must be in the leader's hand."""
    with pytest.raises(SetupError, match="lead_tile"):
        shedkit.make("dominoes").new_deal(seed=1, leader=0, lead_tile="6-6")
