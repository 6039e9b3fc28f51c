"""The built docs site: no raw reST markup on any page, no build script copied into it.

``make test`` runs ``make docs`` first, so an up-to-date ``build/site`` is read as it
is; otherwise (or when a source is newer than it) the site is built into a temporary
folder with ``mkdocs build --strict``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILT = ROOT / "build" / "site"
# A Sphinx role that mkdocstrings does not read shows on the page as typed.
ROLE = re.compile(r":(class|mod|func|meth|attr|data|exc|obj):")


def newest_source() -> float:
    """When the newest file the site is built from last changed."""
    sources = [ROOT / "mkdocs.yml", *(ROOT / "docs").rglob("*"), *(ROOT / "src").rglob("*.py")]
    return max(p.stat().st_mtime for p in sources if p.is_file())


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    for module in ("mkdocs", "material", "mkdocstrings"):
        pytest.importorskip(module, reason="the [docs] extra (mkdocs) is not installed")
    index = BUILT / "index.html"
    if index.is_file() and index.stat().st_mtime >= newest_source():
        return BUILT
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    build = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)]
    done = subprocess.run(build, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def test_no_page_shows_raw_rest_roles(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    raw = {}
    for page in pages:
        text = page.read_text("utf-8")
        found = [text[max(0, m.start() - 30) : m.end() + 40] for m in ROLE.finditer(text)]
        if found:
            raw[str(page.relative_to(site))] = found
    assert raw == {}


def test_the_api_pages_link_across_modules(site: Path) -> None:
    # The cross-references that replaced the roles are links, not text.
    envs = (site / "api" / "envs" / "index.html").read_text("utf-8")
    assert re.search(r'<a[^>]+href="[^"]*#shedkit\.IllegalMoveError"', envs)


def test_no_build_script_in_the_site(site: Path) -> None:
    assert not (site / "doctest_blocks.py").exists()
    assert sorted(site.rglob("*.py")) == []


def test_the_observation_layouts_page_is_built(site: Path) -> None:
    page = (site / "api" / "observations" / "index.html").read_text("utf-8")
    assert "Observation layouts" in page and "<table>" in page
    # One table a game: Dou Di Zhu, President, Dominoes, Tien Gow.
    assert page.count("<table>") == 4


def test_no_docstring_in_the_package_uses_rest_roles() -> None:
    # One docstring style, the one mkdocstrings reads: pages not on the site today may be.
    src = Path(__file__).resolve().parents[2] / "src" / "shedkit"
    found = [
        f"{path.relative_to(src)}:{n}"
        for path in src.rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(ROLE.pattern + "`", line)
    ]
    assert found == []
