"""The project's metadata: licence, changelog, build floor, no links outside the repository."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_licence_is_mit_with_the_authors_copyright() -> None:
    text = (ROOT / "LICENSE").read_text("utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 the shedkit authors" in text


def test_build_floor_reads_the_licence_expression() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    # setuptools reads `license = "MIT"` (PEP 639) from version 77 on.
    floor = re.fullmatch(r"setuptools>=(\d+)", meta["build-system"]["requires"][0])
    assert floor is not None and int(floor[1]) >= 77
    assert meta["project"]["license"] == "MIT"
    assert {"rules/*.md", "rules/*/*.md"} <= set(
        meta["tool"]["setuptools"]["package-data"]["shedkit"]
    )
    assert {"Homepage", "Documentation", "Issues"} <= set(meta["project"]["urls"])


def test_changelog_has_unreleased_and_the_current_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    version = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    assert "## [Unreleased]" in text
    assert f"## [{version}]" in text


def test_readme_links_stay_inside_the_repository() -> None:
    text = (ROOT / "README.md").read_text("utf-8")
    assert "../" not in text
    assert "shedkit rules" in text


def test_make_run_says_where_the_command_is_and_takes_a_host() -> None:
    root = Path(__file__).resolve().parents[2]
    # -n: the commands `make run` would run, printed, nothing run (the stamps are made by
    # whichever make target installed this environment).
    done = subprocess.run(
        ["make", "-n", "-s", "-o", ".venv/.installed-server", "run", "HOST=0.0.0.0", "PORT=8088"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "source .venv/bin/activate" in done.stdout
    assert "shedkit serve --host 0.0.0.0 --port 8088" in done.stdout
