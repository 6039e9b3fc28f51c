"""A sequential probability ratio test on paired duplicate deals, as fishtest runs them.

Every deal gives one *paired score* ``d``: the challenger's result minus the
baseline's result on the very same deal, oriented so that a positive ``d``
means the challenger did better (for a win rate ``d`` is in {-1, 0, +1}; for
President's average place it is the baseline's place minus the challenger's,
because a lower place is better). The two hypotheses are stated before the
first deal:

- H0: the mean of ``d`` is at most ``delta0`` (the challenger is no better),
- H1: the mean of ``d`` is at least ``delta1`` (it is at least that much better).

After each deal the test computes the log-likelihood ratio (LLR) of a
generalized SPRT (GSPRT, Michel Van den Bergh's formulation in fishtest): the
distribution of ``d`` over its observed values is left free, and the ratio is
that of the most likely such distribution with mean ``delta1`` to the most
likely one with mean ``delta0``. A tiny pseudo-count (fishtest's 1e-3) at
both ends of the range of ``d`` keeps the ratio finite when no deal has yet
gone one way. For large samples the LLR is close to the normal approximation
`SPRT.llr_normal`, ``n (delta1 - delta0) (mean - (delta0 + delta1) / 2) / var``;
the exact form keeps the error rates near their targets over the tens to
hundreds of deals a measurement here takes, where the approximation's plug-in
variance lets more errors through when most deals are ties.

Wald's bounds for error rates ``alpha`` (accepting H1 when H0 holds) and
``beta`` (accepting H0 when H1 holds) are ``ln(beta / (1 - alpha))`` and
``ln((1 - beta) / alpha)``: the test accepts H0 at or below the lower bound,
H1 at or above the upper one, and is *inconclusive* when a cap on the deals
comes first. No decision is taken before ``min_n`` deals.

The interval reported with a decision is the ordinary 95 % normal interval of
the mean of ``d``; it does not correct for the early stop, so read it as a
description of the sample, not as the test.

>>> test = SPRT(Hypotheses(delta0=0.0, delta1=0.1))
>>> for d in [1, 0, 0, 1, -1, 0, 1, 1, 0, 0] * 3:
...     _ = test.add(d)
>>> test.n, round(test.llr(), 2), test.decision()
(30, 1.55, None)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["SPRT", "Hypotheses", "run_sprt"]

Z95 = 1.959963984540054
#: The pseudo-count put at each end of the range of ``d`` (fishtest regularizes so).
PSEUDO = 1e-3


@dataclass(frozen=True)
class Hypotheses:
    """H0: mean paired score ≤ ``delta0``; H1: ≥ ``delta1``; error rates ``alpha`` and ``beta``."""

    delta0: float = 0.0
    delta1: float = 0.1
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.delta1 > self.delta0:
            raise ValueError(f"delta1 ({self.delta1}) must be above delta0 ({self.delta0})")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5, not {value!r}")

    def bounds(self) -> tuple[float, float]:
        """Wald's bounds on the LLR: accept H0 at or below the first, H1 at or above the second."""
        return (
            math.log(self.beta / (1.0 - self.alpha)),
            math.log((1.0 - self.beta) / self.alpha),
        )

    def as_dict(self) -> dict[str, Any]:
        """The hypotheses and bounds as JSON-able data (for a results file's first line)."""
        lower, upper = self.bounds()
        return {
            "H0": f"mean d <= {self.delta0:g}",
            "H1": f"mean d >= {self.delta1:g}",
            "delta0": self.delta0,
            "delta1": self.delta1,
            "alpha": self.alpha,
            "beta": self.beta,
            "bounds": [_round(lower), _round(upper)],
        }


@dataclass
class SPRT:
    """The running test: feed paired scores with `add`, read `llr` and `decision`.

    ``low`` and ``high`` are the smallest and largest paired score a deal can
    give (-1 and 1 for a win rate); both hypotheses' means must lie between them.
    """

    hypotheses: Hypotheses
    low: float = -1.0
    high: float = 1.0
    min_n: int = 16
    counts: dict[float, int] = field(default_factory=dict)
    _decided: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        h = self.hypotheses
        if not self.low < h.delta0 < h.delta1 < self.high:
            raise ValueError(
                f"the hypotheses' means ({h.delta0}, {h.delta1}) must lie strictly "
                f"between the lowest and highest paired scores ({self.low}, {self.high})"
            )

    @property
    def n(self) -> int:
        """How many paired scores the test has counted."""
        return sum(self.counts.values())

    def add(self, d: float) -> str | None:
        """Count one paired score; the decision (``"H0"``/``"H1"``) once one is reached.

        Scores added after a decision are refused: the test stopped there.
        """
        if self._decided is not None:
            raise ValueError(f"the test already accepted {self._decided} at n={self.n}")
        if not self.low <= d <= self.high:
            raise ValueError(f"a paired score must lie in [{self.low}, {self.high}], not {d!r}")
        d = float(d)
        self.counts[d] = self.counts.get(d, 0) + 1
        self._decided = self.decision()
        return self._decided

    def mean(self) -> float:
        """The mean paired score (0 before the first deal)."""
        n = self.n
        return sum(d * c for d, c in self.counts.items()) / n if n else 0.0

    def variance(self) -> float:
        """The maximum-likelihood variance of the paired scores (divides by n)."""
        n = self.n
        if n == 0:
            return 0.0
        m = self.mean()
        return sum(c * (d - m) ** 2 for d, c in self.counts.items()) / n

    def llr(self) -> float:
        """The GSPRT log-likelihood ratio of H1 to H0 (0 before the first deal)."""
        if self.n == 0:
            return 0.0
        weights: dict[float, float] = dict(self.counts.items())
        for end in (self.low, self.high):
            weights[end] = weights.get(end, 0) + PSEUDO
        h = self.hypotheses
        return _max_loglik(weights, h.delta1) - _max_loglik(weights, h.delta0)

    def llr_normal(self) -> float:
        """The large-sample approximation of `llr` (±inf when every score is equal)."""
        if self.n == 0:
            return 0.0
        h = self.hypotheses
        lean = self.mean() - (h.delta0 + h.delta1) / 2.0
        var = self.variance()
        if var == 0.0:
            return 0.0 if lean == 0.0 else math.copysign(math.inf, lean)
        return self.n * (h.delta1 - h.delta0) * lean / var

    def decision(self) -> str | None:
        """``"H1"`` or ``"H0"`` once the LLR crosses a bound (from ``min_n`` deals on), or None."""
        if self.n < max(self.min_n, 1):
            return None
        lower, upper = self.hypotheses.bounds()
        value = self.llr()
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None

    def interval(self) -> tuple[float, float] | None:
        """The 95 % normal interval of the mean paired score (None below two scores)."""
        n = self.n
        if n < 2:
            return None
        half = Z95 * math.sqrt(self.variance() / (n - 1))
        return (self.mean() - half, self.mean() + half)

    def summary(self) -> dict[str, Any]:
        """Decision (``"H0"``, ``"H1"`` or ``"inconclusive"``), n, mean, interval, LLR, bounds."""
        ci = self.interval()
        return {
            "decision": self.decision() or "inconclusive",
            "n": self.n,
            "mean": _round(self.mean()),
            "ci": None if ci is None else [_round(ci[0]), _round(ci[1])],
            "llr": _round(self.llr()),
            "bounds": [_round(b) for b in self.hypotheses.bounds()],
        }


def _max_loglik(weights: dict[float, float], mu: float) -> float:
    """Σ w·log p of the most likely distribution on the values with mean ``mu``.

    The maximum has ``p_i = (w_i / W) / (1 + lam (a_i - mu))`` with ``lam`` the root
    of ``g(lam) = Σ w_i (a_i - mu) / (1 + lam (a_i - mu))``, which falls
    strictly between the poles; ``mu`` lies strictly inside the values' range.
    """
    total = sum(weights.values())
    items = [(a - mu, w) for a, w in weights.items()]
    lo = -1.0 / max(x for x, _ in items)
    hi = -1.0 / min(x for x, _ in items)

    def g(lam: float) -> float:
        return sum(w * x / (1.0 + lam * x) for x, w in items)

    # g falls from +inf to -inf between the poles: bisect, stepping by Newton when it stays inside.
    lam = 0.0
    for _ in range(200):
        value = g(lam)
        if value > 0:
            lo = lam
        else:
            hi = lam
        slope = -sum(w * x * x / (1.0 + lam * x) ** 2 for x, w in items)
        step = lam - value / slope
        new = step if lo < step < hi else (lo + hi) / 2.0
        if abs(new - lam) <= 1e-15 * (1.0 + abs(lam)):
            break
        lam = new
    return sum(w * math.log(w / total / (1.0 + lam * x)) for x, w in items)


def _round(x: float) -> float:
    # Six decimals keep the JSON short; equal inputs still give equal text.
    return round(x, 6)


def run_sprt(
    scores: Iterable[float],
    hypotheses: Hypotheses,
    max_n: int,
    low: float = -1.0,
    high: float = 1.0,
    min_n: int = 16,
) -> SPRT:
    """Feed ``scores`` in order until a decision or ``max_n`` scores; the stopped test."""
    test = SPRT(hypotheses, low=low, high=high, min_n=min_n)
    for d in scores:
        if test.n >= max_n or test.add(d) is not None:
            break
    return test
