"""Kicker sets (DDZ-16): ``multisets`` lists every ascending choice of ranks within the caps."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from shedkit.doudizhu.actions import multisets

AVAIL = st.lists(
    st.tuples(st.integers(0, 14), st.integers(1, 3)), unique_by=lambda rc: rc[0], max_size=15
).map(sorted)


@given(AVAIL, st.integers(1, 5))
def test_multisets_are_every_choice_within_the_caps_in_order(
    avail: list[tuple[int, int]], k: int
) -> None:
    """DDZ-16: k solo kickers, at most ``cap`` of a rank, each set once, ascending."""
    pool = [rank for rank, cap in avail for _ in range(cap)]
    expected = sorted({tuple(sorted(c)) for c in itertools.combinations(pool, k)})
    assert multisets(avail, k) == expected
