"""Which build runs: ``shedkit.compiled`` names the compiled modules, and only real ones.

``make test-compiled`` sets ``SHEDKIT_EXPECT_COMPILED=1``: then every hot module
must be loaded from an extension module of the installed wheel, not from
``src/``, or the compiled suite would silently test the pure build.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
from pathlib import Path

import pytest

import shedkit
from shedkit.core.compiled import HOT_MODULES, compiled_modules, describe, main

ROOT = Path(__file__).resolve().parents[2]
EXPECT_COMPILED = os.environ.get("SHEDKIT_EXPECT_COMPILED") == "1"


def test_compiled_names_only_modules_loaded_from_extensions() -> None:
    assert shedkit.compiled == compiled_modules()
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in HOT_MODULES:
        path = importlib.import_module(name).__file__ or ""
        assert (name in shedkit.compiled) == path.endswith(suffixes), name


def test_describe_matches_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--require"])
    out = capsys.readouterr().out
    assert out.strip().endswith(describe())
    if shedkit.compiled:
        assert describe().startswith(f"compiled (mypyc): {len(shedkit.compiled)} of")
    else:
        assert describe() == "pure Python"
    assert code == (0 if len(shedkit.compiled) == len(HOT_MODULES) else 1)


@pytest.mark.skipif(not EXPECT_COMPILED, reason="the compiled build's own check")
def test_the_compiled_suite_tests_the_installed_compiled_wheel() -> None:
    assert shedkit.compiled == HOT_MODULES
    for name in HOT_MODULES:
        path = Path(importlib.import_module(name).__file__ or "")
        assert path.suffix in (".so", ".pyd"), path
    assert not Path(shedkit.__file__ or "").is_relative_to(ROOT / "src")


@pytest.mark.skipif(EXPECT_COMPILED, reason="the pure build's own check")
def test_the_default_build_is_pure() -> None:
    assert shedkit.compiled == ()


def test_options_modules_stay_interpreted() -> None:
    """Option validation, the CLI and the server read ``Literal`` annotations at run time."""
    assert not [name for name in HOT_MODULES if name.endswith(".options")]
    assert "shedkit.core.options" not in HOT_MODULES
