"""Build hook: ``SHEDKIT_COMPILE=1`` compiles the hot modules with mypyc.

The project's metadata lives in ``pyproject.toml``; this file only adds the
extension modules. Without ``SHEDKIT_COMPILE`` (or with it set to ``0``) the
wheel is pure Python, built from the same source.
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent


def hot_modules() -> list[str]:
    """HOT_MODULES of ``shedkit.core.compiled``, read without importing the package."""
    tree = ast.parse((ROOT / "src/shedkit/core/compiled.py").read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "HOT_MODULES":
            return list(ast.literal_eval(node.value))  # type: ignore[arg-type]
    raise RuntimeError("HOT_MODULES not found in src/shedkit/core/compiled.py")


def ext_modules() -> list[object]:
    """The mypyc extensions, or none for the pure build."""
    if os.environ.get("SHEDKIT_COMPILE", "0") in ("", "0"):
        return []
    if set(sys.argv[1:2]) & {"egg_info", "dist_info", "sdist"}:
        # Metadata and the sdist need no compiling; mypyc runs once, for the wheel.
        return []
    from mypyc.build import mypycify

    paths = ["src/" + name.replace(".", "/") + ".py" for name in hot_modules()]
    # mypyc type-checks every module the compiled ones import, the whole of shedkit.agents
    # included, in a build environment without the optional extras some of them use (numpy,
    # the dominoes package): a missing one is no error here. `mypy --strict src`, where the
    # extras are installed, checks those imports.
    flags = ["--ignore-missing-imports", "--no-warn-unused-ignores"]
    return list(mypycify([*flags, *paths], opt_level=os.environ.get("SHEDKIT_OPT_LEVEL", "3")))


setup(ext_modules=ext_modules())
