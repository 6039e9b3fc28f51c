"""The Observation layouts page says what the encodings really lay out.

Its tables are written by ``docs/observation_layouts.py`` from each encoding's
``layout`` and its module docstring; these tests rebuild them from the code.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("gymnasium", reason="the [rl] extra is not installed")

import shedkit
from shedkit.envs.encodings import encoding_for

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "observation_layouts.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("observation_layouts", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_holds_the_tables_of_the_current_code() -> None:
    script = load_script()
    page = script.PAGE.read_text("utf-8")
    generated = page.split(script.START, 1)[1].split(script.END, 1)[0].strip()
    assert generated == script.tables(), "run: python docs/observation_layouts.py"


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("doudizhu", {}),
        ("doudizhu", {"players": 4}),
        ("president", {"players": 5, "preset": "all-options"}),
        ("dominoes", {"players": 2}),
        ("tiengow", {"preset": "hong-kong"}),
    ],
)
def test_each_module_documents_every_segment_in_order(game: str, options: dict[str, int]) -> None:
    # The page's meanings come from the docstring tables: they name the layout's segments.
    script = load_script()
    module = next(m for _, g, m, _ in script.GAMES if g == game)
    documented = [
        row[0] for row in script.docstring_segments(importlib.import_module(module).__doc__)
    ]
    layout = encoding_for(shedkit.make(game, **options)).layout
    assert documented == [name for name, _ in layout.segments]


def test_the_tables_give_offsets_and_lengths_that_cover_the_vector() -> None:
    script = load_script()
    for title, game, _, _ in script.GAMES:
        layout = encoding_for(shedkit.make(game)).layout
        section = script.tables().split(f"## {title}")[1].splitlines()
        rows = [r for r in section if r.startswith("| `")][: len(layout.segments)]
        end = 0
        for row, (name, length) in zip(rows, layout.segments, strict=True):
            cells = [c.strip() for c in row.strip("|").split("|")]
            assert cells[:3] == [f"`{name}`", str(end), str(length)]
            end += length
        assert end == layout.size
