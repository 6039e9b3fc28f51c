"""The Python snippets of the docs and the README tagged ``<!-- run -->`` run as written.

The snippets of one page run in order in one namespace, as a reader would run them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shedkit.agents import AGENTS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TAGGED = re.compile(r"<!-- run -->\n```python\n(.*?)```", re.DOTALL)
PAGES = sorted(
    p for p in [*DOCS.rglob("*.md"), ROOT / "README.md"] if "<!-- run -->" in p.read_text("utf-8")
)
RL = ("numpy", "gymnasium", "pettingzoo")
NEEDS = {
    "pettingzoo.md": RL,
    "observations.md": RL,
    "README.md": RL,
    "bot.md": ("scipy", "openskill"),
}


def test_the_docs_have_tagged_snippets() -> None:
    names = {p.name for p in PAGES}
    assert {"index.md", "bot.md", "pettingzoo.md", "observations.md", "README.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_tagged_snippets_run(page: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for module in NEEDS.get(page.name, ()):
        pytest.importorskip(module)
    snippets = TAGGED.findall(page.read_text("utf-8"))
    assert snippets, f"{page.name}: a <!-- run --> tag must sit right above a python block"
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem}"}
    # A tutorial registers its own bot: the registry is put back for the other tests.
    saved = {name: dict(games) for name, games in AGENTS.items()}
    try:
        for code in snippets:
            exec(compile(code, str(page), "exec"), namespace)
    finally:
        AGENTS.clear()
        AGENTS.update(saved)
    assert capsys.readouterr().out.strip()
