"""The sequential test on paired scores: decisions, bounds and its error rates by simulation."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest

from shedkit.arena.sprt import SPRT, Hypotheses, run_sprt

HYP = Hypotheses(delta0=0.0, delta1=0.1)


def trinomial(mean: float, ties: float, rng: random.Random) -> Iterator[float]:
    """Paired win differences: +1, -1 or 0 (a tie share ``ties``) with the given mean."""
    up = (1.0 - ties + mean) / 2.0
    down = (1.0 - ties - mean) / 2.0
    while True:
        u = rng.random()
        yield 1.0 if u < up else -1.0 if u < up + down else 0.0


def test_wald_bounds_for_five_percent_errors() -> None:
    lower, upper = HYP.bounds()
    assert lower == pytest.approx(math.log(0.05 / 0.95))
    assert upper == pytest.approx(math.log(0.95 / 0.05))
    assert HYP.as_dict()["H0"] == "mean d <= 0" and HYP.as_dict()["H1"] == "mean d >= 0.1"


@pytest.mark.parametrize(
    "bad",
    [
        {"delta0": 0.1, "delta1": 0.1},
        {"alpha": 0.0},
        {"beta": 0.5},
    ],
)
def test_hypotheses_refuse_nonsense(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Hypotheses(**bad)


def test_means_must_lie_inside_the_range_of_scores() -> None:
    with pytest.raises(ValueError, match="strictly between"):
        SPRT(Hypotheses(0.0, 1.0), low=-1.0, high=1.0)
    SPRT(Hypotheses(0.0, 0.25), low=-3.0, high=3.0)  # President's places, 4 players


def test_a_clearly_better_challenger_accepts_h1() -> None:
    test = run_sprt(trinomial(0.4, 0.5, random.Random(1)), HYP, max_n=2000)
    assert test.decision() == "H1"
    assert test.llr() >= HYP.bounds()[1]
    assert test.n < 200
    summary = test.summary()
    assert summary["decision"] == "H1" and summary["n"] == test.n
    lo, hi = summary["ci"]
    assert lo < summary["mean"] < hi


def test_an_equal_challenger_accepts_h0() -> None:
    test = run_sprt(trinomial(0.0, 0.6, random.Random(2)), HYP, max_n=5000)
    assert test.decision() == "H0"
    assert test.llr() <= HYP.bounds()[0]


def test_identical_agents_accept_h0_after_a_run_of_ties() -> None:
    # Every deal a tie: each one moves the ratio by about -0.1, no jump to -inf.
    test = run_sprt([0.0] * 100, HYP, max_n=100, min_n=16)
    assert (test.decision(), test.n) == ("H0", 29)


def test_the_cap_leaves_it_inconclusive() -> None:
    test = run_sprt(trinomial(0.05, 0.5, random.Random(3)), HYP, max_n=30)
    assert test.n == 30 and test.decision() is None
    assert test.summary()["decision"] == "inconclusive"
    assert HYP.bounds()[0] < test.llr() < HYP.bounds()[1]


def test_no_decision_before_the_minimum_and_none_after_one() -> None:
    test = SPRT(HYP, min_n=40)
    for _ in range(39):
        assert test.add(1.0) is None  # 31 wins in a row would have been enough
    assert test.llr() > HYP.bounds()[1]
    assert test.add(1.0) == "H1"
    with pytest.raises(ValueError, match="already accepted"):
        test.add(0.0)
    with pytest.raises(ValueError, match="must lie in"):
        SPRT(HYP).add(2.0)


def test_the_exact_ratio_approaches_the_normal_one_on_large_samples() -> None:
    rng = random.Random(4)
    test = SPRT(HYP, min_n=10**9)
    for d in trinomial(0.05, 0.5, rng):
        test.add(d)
        if test.n == 20000:
            break
    assert test.llr() == pytest.approx(test.llr_normal(), rel=0.05)


def test_a_place_difference_uses_its_own_range() -> None:
    # President, 4 players: d = baseline's place - challenger's, in -3..3.
    hyp = Hypotheses(0.0, 0.25)
    rng = random.Random(5)
    better = run_sprt(
        (float(rng.choice([-1, 0, 0, 1, 1, 2])) for _ in range(5000)), hyp, 5000, -3.0, 3.0
    )
    assert better.decision() == "H1"


@pytest.mark.parametrize(("mean", "wrong"), [(0.0, "H1"), (0.1, "H0")])
def test_error_rates_by_simulation(mean: float, wrong: str) -> None:
    """300 runs at each hypothesis' boundary: the wrong decision at most about 5 % of them."""
    rng = random.Random(11)
    wrongs = sum(
        run_sprt(trinomial(mean, 0.7, rng), HYP, max_n=5000).decision() == wrong for _ in range(300)
    )
    # Wald's bounds aim at 5 %; three standard errors of 300 runs (3.8 %) as slack.
    assert wrongs / 300 <= 0.05 + 0.038
