"""The web client stays readable: small files, one folder per game, components documented."""

from __future__ import annotations

import re

from shedkit.server.app import STATIC

CODE = [
    p for p in STATIC.rglob("*") if p.suffix in {".js", ".html", ".css"} and "vendor" not in p.parts
]


def test_no_client_file_is_over_300_lines() -> None:
    long = {
        str(p.relative_to(STATIC)): n for p in CODE if (n := len(p.read_text().splitlines())) > 300
    }
    assert long == {}


def test_one_folder_per_game_with_its_module() -> None:
    for name in ("doudizhu", "president", "dominoes", "tiengow"):
        assert (STATIC / "games" / name / "index.js").is_file(), name
    listed = set(
        re.findall(
            r'import (\w+) from "\./(\w+)/index\.js"', (STATIC / "games" / "index.js").read_text()
        )
    )
    assert {folder for _, folder in listed} == {"doudizhu", "president", "dominoes", "tiengow"}


def test_every_component_is_named_in_the_readme() -> None:
    readme = (STATIC / "README.md").read_text()
    for path in (STATIC / "components").glob("*.js"):
        exported = re.findall(r"export function ([A-Z]\w*)", path.read_text())
        assert exported, path.name
        assert any(f"`{name}`" in readme for name in exported), path.name


def test_every_vendored_library_has_its_licence_and_a_row_in_the_readme() -> None:
    readme = (STATIC / "README.md").read_text()
    licences = {p.stem for p in (STATIC / "vendor" / "licenses").iterdir()}
    for path in (STATIC / "vendor").glob("*.mjs"):
        assert f"`vendor/{path.name}`" in readme, path.name
        assert path.stem.split("-")[0] in licences, path.name
