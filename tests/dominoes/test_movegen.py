"""The bitmask board against a plain model of the line (DOM-06, DOM-22, DOM-23).

The reference reads the open ends and the count off the line as a player
lays it out (:func:`shedkit.dominoes.view.layout`, built from the moves
alone), and lists the plays by trying every tile of the hand on every open
end. Random hands of every variant must agree with the engine at each step.
"""

from __future__ import annotations

import random

import pytest

import shedkit
from shedkit.dominoes import Line, State


def reference_ends(line: Line, fives: bool, cross_now: bool) -> list[tuple[int, int]]:
    """``(end, value)`` of every open end, and each end's count."""
    if not line.main:
        return []
    ends = [(0, line.main[0][0]), (1, line.main[-1][1])]
    s = line.spinner
    if fives and s >= 0:
        both_sides = 0 < s < len(line.main) - 1
        if cross_now or both_sides or line.up or line.down:
            d = line.main[s][0]
            ends.append((2, line.up[-1][1] if line.up else d))
            ends.append((3, line.down[-1][1] if line.down else d))
    return ends


def reference_count(line: Line) -> int:
    """The All Fives count from the layout (DOM-23)."""
    if not line.main:
        return 0
    s = line.spinner
    total = 0
    at_spinner = False
    for index, outer in ((0, line.main[0]), (len(line.main) - 1, line.main[-1])):
        if index == s:
            at_spinner = True  # the spinner counts once, while it is an end
        else:
            a, b = outer
            total += a + b if a == b else (a if index == 0 else b)
    if len(line.main) == 1 and s < 0:
        total = sum(line.main[0])
    for arm in (line.up, line.down):
        if arm:
            a, b = arm[-1]
            total += a + b if a == b else b
    if at_spinner:
        total += 2 * line.main[s][0]
    return total


def reference_plays(state: State) -> set[str]:
    game = state.game
    view = state.view(state.current_player)
    opts = game.options
    hand = view.hand
    if not view.line.main:
        return {game.tile_str(t) for t in hand}
    out = set()
    cross_now = opts.spinner_opens == "immediately"
    for end, value in reference_ends(view.line, opts.variant == "fives", cross_now):
        for t in hand:
            if value in game.tables.halves[t]:
                out.add(f"{game.tile_str(t)}@{'LRUD'[end]}")
    return out


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "variant": "fives"},
        {"players": 4, "variant": "fives"},
        {"players": 3, "variant": "fives", "spinner_opens": "immediately"},
        {"players": 3, "variant": "fives", "max_pips": 9},
        {"players": 4, "variant": "block"},
        {"players": 2, "max_pips": 12},
    ],
    ids=str,
)
def test_board_agrees_with_the_line(options: dict[str, object]) -> None:
    game = shedkit.make("dominoes", first_player="draw", **options)
    fives = game.options.variant == "fives"
    cross_now = game.options.spinner_opens == "immediately"
    for seed in range(120):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        while not state.is_over:
            line = state.view(None).line
            ends = reference_ends(line, fives, cross_now)
            assert [(e, v) for e, v in enumerate(state.ends) if v >= 0] == ends
            if fives:
                assert state.count == reference_count(line)
            legal = state.legal_moves()
            plays = {str(m) for m in legal if m.kind in ("lead", "play")}
            if plays:
                assert plays == reference_plays(state)
            else:
                assert not reference_plays(state)
            state.apply(legal[rng.randrange(len(legal))])
