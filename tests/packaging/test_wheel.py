"""The wheel builds, installs without any extra into a fresh venv, and works.

This builds the package from the checkout and installs it with pip (its one
dependency, rich, comes from the package index), so it takes a minute.
"""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEAL = """
import random, shedkit
from shedkit.agents import make_agent
game = shedkit.make("president", players=4)
state = game.new_deal(seed=5)
bots = [make_agent("greedy" if seat == 0 else "random", game, seed=seat) for seat in range(4)]
while not state.is_over:
    seat = state.current_player
    state.apply(bots[seat].act(state.view(seat)))
print("returns", state.returns())
"""


def _run(*argv: str | Path, cwd: Path) -> str:
    proc = subprocess.run(
        [str(a) for a in argv], capture_output=True, text=True, cwd=cwd, timeout=600, check=False
    )
    assert proc.returncode == 0, f"{argv}: {proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel and no extras; returns its bin directory."""
    tmp = tmp_path_factory.mktemp("wheel")
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp / "dist", ROOT, cwd=tmp)
    (wheel,) = (tmp / "dist").glob("shedkit-*.whl")
    venv.create(tmp / "venv", with_pip=True)
    bin_dir = tmp / "venv" / ("Scripts" if sys.platform == "win32" else "bin")
    _run(bin_dir / "python", "-m", "pip", "install", "-q", wheel, cwd=tmp)
    return bin_dir


def test_wheel_ships_the_rules_static_files_and_licence(installed: Path) -> None:
    (wheel,) = (installed.parent.parent / "dist").glob("shedkit-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for game in ("doudizhu", "president", "dominoes", "tiengow"):
        assert f"shedkit/rules/{game}.md" in names
        for lang in ("zh", "it", "de", "ja"):
            assert f"shedkit/rules/{lang}/{game}.md" in names
    assert "shedkit/py.typed" in names
    # Every file of the web client, in every folder, is in the wheel (pages, modules,
    # catalogues, vendored libraries and their licences), and nothing else of the tree.
    static = Path(__file__).parents[2] / "src" / "shedkit" / "server" / "static"
    client = {
        "shedkit/server/static/" + p.relative_to(static).as_posix()
        for p in static.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert client and client <= names, sorted(client - names)[:10]
    assert any(n.endswith("licenses/LICENSE") for n in names)
    # The default build is pure Python: one wheel for every platform, no extension module.
    assert wheel.name.endswith("-py3-none-any.whl")
    assert not any(n.endswith((".so", ".pyd")) for n in names)


def test_installed_without_extras_only_rich_comes_along(installed: Path) -> None:
    listed = _run(installed / "python", "-m", "pip", "list", "--format=freeze", cwd=installed)
    names = {line.split("==")[0].lower() for line in listed.split()}
    assert "numpy" not in names
    assert "fastapi" not in names
    assert {"shedkit", "rich"} <= names


def test_installed_cli_help_and_rules(installed: Path) -> None:
    cwd = installed.parent.parent
    assert "rules" in _run(installed / "shedkit", "--help", cwd=cwd)
    assert "\nDDZ-16 · " in _run(installed / "shedkit", "rules", "doudizhu", cwd=cwd)
    one = _run(installed / "shedkit", "rules", "president", "PRE-16", cwd=cwd)
    assert one.startswith("PRE-16 ·")
    source = _run(installed / "shedkit", "rules", "PRE-16", "--markdown", cwd=cwd)
    assert source.startswith("### PRE-16 ·")


def test_installed_bot_only_deal(installed: Path) -> None:
    out = _run(installed / "python", "-c", DEAL, cwd=installed.parent.parent)
    assert out.startswith("returns (") or out.startswith("returns [")
