"""Writes the tables of docs/api/observations.md from the encodings themselves.

Run ``python docs/observation_layouts.py`` after changing an encoding; the docs
tests fail while the page and the code disagree. Names, offsets and lengths come
from each encoding's ``layout``; the width formula and the meaning of each
segment come from the table in the encoding module's docstring (which a test
also holds to the layout's names, in order). Needs the ``[rl]`` extra.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parent / "api" / "observations.md"
START, END = "<!-- layouts:start -->", "<!-- layouts:end -->"

#: The documented games under their default options: title, game, encoding module, and what
#: the letters of the width column stand for.
GAMES = [
    (
        "Dou Di Zhu",
        "doudizhu",
        "shedkit.envs.encodings.doudizhu",
        "`n` players; `C` the card-set width: 15 ranks × 4 slots per pack (60, or 120 with two).",
    ),
    (
        "President",
        "president",
        "shedkit.envs.encodings.president",
        "`n` players; `D` the cards in the pack (52, or 53 with the joker), one slot each.",
    ),
    (
        "Dominoes",
        "dominoes",
        "shedkit.envs.encodings.dominoes",
        "`n` players; `T` the tiles in the set (28 with double-six); `m` the highest pip.",
    ),
    (
        "Tien Gow",
        "tiengow",
        "shedkit.envs.encodings.tiengow",
        "`n` players (4); `T` the 32 tiles of the Chinese set, one slot each, filled by kind.",
    ),
]


def docstring_segments(doc: str) -> list[tuple[str, str, str]]:
    """(name, width formula, meaning) of each row of the reST table in ``doc``."""
    lines = doc.splitlines()
    rules = [i for i, line in enumerate(lines) if re.fullmatch(r"=+( +=+)+", line.strip())]
    if len(rules) < 3:
        raise ValueError("the docstring has no segment table")
    # Column starts from the table's top rule: name, width, meaning.
    starts = [m.start() for m in re.finditer(r"=+", lines[rules[0]])]
    rows = []
    for line in lines[rules[1] + 1 : rules[2]]:
        name = line[: starts[1]].strip().strip("`")
        width = line[starts[1] : starts[2]].strip()
        meaning = line[starts[2] :].strip()
        rows.append((name, width, meaning))
    return rows


def game_table(title: str, game_name: str, module_name: str, letters: str) -> str:
    """The markdown section of one game: its options, size and segment table."""
    import shedkit
    from shedkit.envs.encodings import encoding_for

    module = importlib.import_module(module_name)
    game = shedkit.make(game_name)
    layout = encoding_for(game).layout
    documented = {
        name: (width, meaning) for name, width, meaning in docstring_segments(module.__doc__ or "")
    }
    out = [
        f"## {title}",
        "",
        f'`shedkit.make("{game_name}")`: {game.num_players} players; '
        f"{layout.size} numbers, {game.num_actions} action ids. Widths: {letters}",
        "",
        "| segment | offset | length | width | what it encodes |",
        "|---|---:|---:|---|---|",
    ]
    for name, length in layout.segments:
        width, meaning = documented[name]
        cells = [f"`{name}`", str(layout.offsets[name]), str(length), width, meaning]
        out.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    return "\n".join(out)


def tables() -> str:
    """Every game's section, as the page holds them between its markers."""
    return "\n\n".join(game_table(*g) for g in GAMES)


def main() -> int:
    """Rewrite the generated part of the page."""
    text = PAGE.read_text("utf-8")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    PAGE.write_text(f"{head}{START}\n{tables()}\n{END}{tail}", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
