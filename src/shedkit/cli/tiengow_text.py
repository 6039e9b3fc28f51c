"""Tien Gow told in the terminal: the tiles drawn, each move narrated, the payments explained.

A tile stands upright as on the table, its lower number on top (TG-80), in
a box seven cells wide and nine rows high: the notation in the top border,
the two halves as dice faces, and the suit in the bottom border, 文 for
civil and 武 for military (TG-01). The pips are coloured as on the real
tiles: the ones and the fours red, the others white, and on the double six
one column of three red in each half. A tile laid face down is its back.

`narrate` says what a move did (a discard is named only to whoever may know
it); `payments` says who pays whom and why (TG-30…34, TG-61…64) from a
finished hand's view, so the end of a hand can be read rather than trusted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.text import Text

from shedkit.cli.common import signed, verb, with_note
from shedkit.dominoes.chinese import chinese_set
from shedkit.tiengow.combos import (
    CIVIL_KINDS,
    KIND_NAMES,
    QUAD,
    SINGLE_CIVIL,
    SINGLE_MILITARY,
    SUPREME,
    SUPREME_KINDS,
    WEN_SUPREME,
    Move,
    kinds_text,
)
from shedkit.tiengow.movegen import CAPTURE_KIND, WEN_KIND
from shedkit.tiengow.rules import HAND_SIZE, SPECIAL_PAYMENT
from shedkit.tiengow.view import View

__all__ = [
    "TILE_WIDTH",
    "back",
    "early_death",
    "face",
    "kind_label",
    "narrate",
    "no_beat",
    "payments",
    "row_of",
    "tile_name",
]

#: Cells a drawn tile takes across; tiles in a row are one cell apart.
TILE_WIDTH: Final = 7

#: The pips of each number in a 3 × 3 grid, (row, column); a two lies on the tile's end.
_PIPS: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    1: ((1, 1),),
    2: ((0, 0), (0, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (0, 2), (2, 0), (2, 2)),
    5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
    6: ((0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)),
}
_RED_NUMBERS: Final = frozenset({1, 4})
_FACE: Final = "on grey15"
_RED: Final = "bold red1 on grey15"
_WHITE: Final = "bold bright_white on grey15"
_EDGE: Final = "grey62"
_SUIT_STYLE: Final = ("bold cyan", "bold yellow")
_SUIT_MARK: Final = ("文", "武")

#: The name of each kind (heaven, goose, nine …) from the set's model (DOM-30).
_NAMES: Final = {str(t): t.name for t in chinese_set()}

#: How a combination id is said: "mixed pair" for ``mixed_pair``.
_LABELS: Final = {
    "single": "single",
    "civil_pair": "civil pair",
    "military_pair": "military pair",
    "supreme": "Supreme",
    "wen_supreme": "Civil Supreme",
    "mixed_pair": "mixed pair",
    "civil_triple": "civil triple",
    "military_triple": "military triple",
    "quad": "quad",
    "two_pairs": "two pairs",
    "discard": "discard",
}


def kind_label(kind: str) -> str:
    """A combination id in words (``mixed_pair`` is "mixed pair")."""
    return _LABELS.get(kind, kind.replace("_", " "))


def tile_name(kind: int) -> str:
    """A kind with its name and suit: ``6-6 heaven (civil)``."""
    name = KIND_NAMES[kind]
    suit = "civil" if kind < CIVIL_KINDS else "military"
    return f"{name} {_NAMES[name]} ({suit})"


def _half(number: int, bottom: bool, double_six: bool) -> list[Text]:
    """Three rows of one half: pips at columns 0, 2 and 4 of five cells."""
    cells = set(_PIPS[number])
    if number == 2 and bottom:  # the two sits at the tile's end, top or bottom
        cells = {(2, c) for _, c in cells}
    rows = []
    for r in range(3):
        row = Text()
        for c in range(3):
            if c:
                row.append(" ", _FACE)
            if (r, c) not in cells:
                row.append(" ", _FACE)
                continue
            red = number in _RED_NUMBERS or (double_six and c == 0)
            row.append("●", _RED if red else _WHITE)
        rows.append(row)
    return rows


def _boxed(top: Text, body: list[Text], bottom: Text) -> list[Text]:
    out = [top]
    for row in body:
        out.append(Text.assemble(("│", _EDGE), row, ("│", _EDGE)))
    out.append(bottom)
    return out


def _border(left: str, label: str, right: str, style: str = "") -> Text:
    """A top or bottom border with ``label`` in its middle (five cells inside)."""
    label_cells = Text(label).cell_len
    pad = 5 - label_cells
    text = Text(left + "─" * (pad // 2), _EDGE)
    text.append(label, style or _EDGE)
    text.append("─" * (pad - pad // 2) + right, _EDGE)
    return text


def face(kind: int) -> list[Text]:
    """The nine rows of a tile of ``kind`` seen face up."""
    name = KIND_NAMES[kind]
    low, high = (int(x) for x in name.split("-"))
    double_six = name == "6-6"
    body = _half(low, False, double_six)
    body.append(Text("     ", _FACE))
    body += _half(high, True, double_six)
    suit = 0 if kind < CIVIL_KINDS else 1
    top = _border("╭", name, "╮", "bold")
    bottom = _border("╰", _SUIT_MARK[suit], "╯", _SUIT_STYLE[suit])
    return _boxed(top, body, bottom)


def back(kind: int | None = None) -> list[Text]:
    """A tile laid face down; ``kind`` names it on its border for the one who laid it."""
    body = [Text("░░░░░", "grey42") for _ in range(7)]
    label = KIND_NAMES[kind] if kind is not None else " ? "
    return _boxed(_border("╭", label, "╮", "dim"), body, _border("╰", "", "╯"))


def row_of(tiles: Sequence[list[Text]]) -> Text:
    """Drawn tiles side by side, one cell apart, as one multi-line text."""
    if not tiles:
        return Text()
    lines = []
    for r in range(len(tiles[0])):
        line = Text()
        for i, tile in enumerate(tiles):
            if i:
                line.append(" ")
            line.append_text(tile[r])
        lines.append(line)
    out = Text("\n").join(lines)
    # Cropped rather than wrapped on a narrow screen: a wrapped row breaks every drawing.
    out.no_wrap = True
    out.overflow = "crop"
    return out


# -- narration --------------------------------------------------------------------


def _units(n: int) -> str:
    return f"{n} unit{'s' if n != 1 else ''}"


def early_death(view: View, seat: int) -> bool:
    """True when TG-28 forbids ``seat`` to beat the trick in play of ``view``."""
    lead = view.trick[0][1] if view.trick else None
    return (
        view.options.early_death
        and lead is not None
        and lead.size == 1
        and view.tiles_left[seat] == 1
        and view.units[seat] == 0
    )


def no_beat(move: Move, high: Move) -> str:
    """Why ``move`` does not beat the current ``high`` (TG-07, TG-22, TG-23)."""
    suits = ("civil", "military")
    if move.suit >= 0 and high.suit >= 0 and move.suit != high.suit:
        return (
            f"{move} is {suits[move.suit]} and {high} {suits[high.suit]}: civil and military "
            "tiles never beat each other (TG-07)"
        )
    if move.cls != high.cls:
        return (
            f"{move} is a {kind_label(move.kind)}: only a higher {kind_label(high.kind)} "
            f"beats {high} (TG-23)"
        )
    if move.rank == high.rank:
        return (
            f"{move} only equals {high}: an equal rank never beats, the earlier play stands (TG-22)"
        )
    return f"{move} ranks below {high}: a beat must rank higher (TG-22)"


def narrate(
    names: Sequence[str], human: int | None, before: View, seat: int, move: Move, after: View
) -> list[str]:
    """Rich-markup lines telling what ``move`` by ``seat`` did; ``move`` as the teller knows it."""
    you = seat == human
    who = names[seat]
    out: list[str] = []
    if move.is_discard:
        shown = f" [bold]{kinds_text(move.kinds)}[/]" if move.kinds else ""
        count = f" {move.size} tile{'s' if move.size > 1 else ''}" if not shown else ""
        out.append(f"{who} {verb(you, 'discard', 'discards')}{count}{shown} face down")
        if after.options.discards_exposed and shown:
            out[-1] = f"{who} {verb(you, 'discard', 'discards')}{shown} (open discards, TG-54)"
        if early_death(before, seat):
            out.append(
                f"[dim]Early death (TG-28): {who.lower() if you else who} "
                f"{verb(you, 'have', 'has')} won no trick, so "
                f"{verb(you, 'you', 'they')} may not beat this last single tile.[/]"
            )
    elif not before.trick:
        out.append(f"{who} {verb(you, 'lead', 'leads')} [bold]{move}[/] ({kind_label(move.kind)})")
        if move.cls == SUPREME:
            out.append("[dim]Nothing beats a led Supreme (TG-24).[/]")
    else:
        out.append(f"{who} {verb(you, 'beat', 'beats')} with [bold]{move}[/]")
        if after.captured and not before.captured:
            out[-1] += " and captures the Civil Supreme (TG-60)"
    if len(after.tricks) > len(before.tricks):
        _, winner, size = after.tricks[-1]
        won = verb(winner == human, "win", "wins")
        out.append(
            f"[bold]{names[winner]} {won} the trick[/]: +{_units(size)} (now {after.units[winner]})"
        )
        bonus = [a - b for a, b in zip(after.bonus, before.bonus, strict=True)]
        if any(bonus):
            paid = ", ".join(f"{names[s]} {signed(b)}" for s, b in enumerate(bonus) if b)
            out.append(f"Bonus for the trick (TG-61): {paid}")
        if after.is_over:
            out.append(f"[bold]{names[winner]} {won} the last trick and the hand (TG-27).[/]")
    return out


# -- payments ---------------------------------------------------------------------


def _finish_factor(view: View) -> tuple[int, int, list[str]]:
    """The finishing factor of the last trick, the seat caught leading 1-2, and why (TG-62/63)."""
    opts = view.options
    lead = view.trick[0][1]
    final = view.high
    assert final is not None
    factor = 1
    why: list[str] = []
    if final.cls in (SUPREME, WEN_SUPREME) and opts.supreme_finish_multiplier > 1:
        factor *= opts.supreme_finish_multiplier
        why.append(f"{opts.supreme_finish_multiplier} (won by a Supreme, TG-62)")
    if final.cls == QUAD and opts.quad_finish_multiplier > 1:
        factor *= opts.quad_finish_multiplier
        why.append(f"{opts.quad_finish_multiplier} (won by a quad, TG-62)")
    led = lead.kinds[0] if lead.cls in (SINGLE_CIVIL, SINGLE_MILITARY) else -1
    yao = led == SUPREME_KINDS[1] or (opts.wen_supreme and led == WEN_KIND)
    winner = view.winner
    if yao and winner == view.leader and opts.yao_finish_multiplier > 1:
        factor *= opts.yao_finish_multiplier
        why.append(f"{opts.yao_finish_multiplier} (a led {KIND_NAMES[led]} unbeaten, TG-62)")
    capturer = -1
    if opts.yao_capture_multiplier > 0 and yao and winner != view.leader:
        caught = final.kinds[0]
        if (led, caught) in ((SUPREME_KINDS[1], SUPREME_KINDS[0]), (WEN_KIND, CAPTURE_KIND)):
            capturer = view.leader
    return factor, capturer, why


def payments(view: View, names: Sequence[str]) -> tuple[list[str], list[int]]:
    """How a finished hand was paid: lines of text, and each seat's chips from them.

    The chips are the hand's returns less the bonuses of TG-61 (``view.bonus``),
    which were paid during the hand.
    """
    n = view.num_players
    chips = [0] * n
    m = view.multiplier
    banker = view.banker
    lines: list[str] = []
    winner = view.winner
    assert winner is not None
    if view.special is not None:
        seat, factor = view.special
        for payer in range(n):
            if payer == seat:
                continue
            with_banker = banker in (payer, seat)
            paid = SPECIAL_PAYMENT * factor * (m if with_banker else 1)
            how = f"{SPECIAL_PAYMENT} × {factor} (special hand)" + (
                f" × {m} (banker)" if with_banker else ""
            )
            lines.append(f"{names[payer]} pays {names[seat]} {how} = {paid} (TG-64)")
            chips[payer] -= paid
            chips[seat] += paid
        return lines, chips
    opts = view.options
    finish, capturer, finish_why = _finish_factor(view)
    slam = all(view.units[s] == 0 for s in range(n) if s != winner)
    owed_total = 0
    for loser in range(n):
        if loser == winner:
            continue
        t = view.units[loser]
        who = with_note(names[loser], _units(t))
        with_banker = banker in (winner, loser)
        if t >= 5:
            if not opts.over_par_refund:
                lines.append(f"{who} is paid nothing: refunds are off (TG-31)")
                continue
            refund = (t - 4) * (m if banker == winner else 1)
            how = f"{t - 4} ({t} - 4)" + (f" × {m} (banker) = {refund}" if banker == winner else "")
            lines.append(f"{names[winner]} refunds {who} {how} (TG-31)")
            chips[winner] -= refund
            chips[loser] += refund
            continue
        base = opts.zero_trick_payment if t == 0 else 4 - t
        if base == 0:
            lines.append(f"{who} pays nothing (TG-31)")
            continue
        parts = [f"{base}" + (" (no unit)" if t == 0 else f" (4 - {t})")]
        owed = base
        if with_banker and m > 1:
            parts.append(f"{m} (banker)")
            owed *= m
        if finish > 1:
            parts += finish_why
            owed *= finish
        if slam and opts.slam_multiplier > 1:
            parts.append(f"{opts.slam_multiplier} (all {HAND_SIZE} units, TG-33)")
            owed *= opts.slam_multiplier
        how = " × ".join(parts) + (f" = {owed}" if len(parts) > 1 else "")
        if capturer >= 0:
            owed_total += owed
            lines.append(f"{who} owes {names[winner]} {how}, paid by {names[capturer]}")
            continue
        lines.append(f"{who} pays {names[winner]} {how}")
        chips[loser] -= owed
        chips[winner] += owed
    if capturer >= 0:
        paid = owed_total * opts.yao_capture_multiplier
        lines.append(
            f"{names[capturer]} led the last 1-2 and was caught (TG-63): pays "
            f"{owed_total} × {opts.yao_capture_multiplier} = {paid}"
        )
        chips[capturer] -= paid
        chips[winner] += paid
    return lines, chips
