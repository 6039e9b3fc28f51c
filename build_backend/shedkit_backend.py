"""setuptools' build backend, plus mypy as a build requirement when ``SHEDKIT_COMPILE=1``.

The pure build needs nothing beyond setuptools; the compiled build needs mypyc,
which ships with mypy, in the isolated build environment.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403

MYPYC = "mypy>=1.11"


def _requires(hook: Callable[..., list[str]], config_settings: object) -> list[str]:
    compiling = os.environ.get("SHEDKIT_COMPILE", "0") not in ("", "0")
    if not compiling:
        return hook(config_settings)
    # setuptools runs setup.py to list its requirements, before mypy is there to import.
    os.environ["SHEDKIT_COMPILE"] = "0"
    try:
        return [*hook(config_settings), MYPYC]
    finally:
        os.environ["SHEDKIT_COMPILE"] = "1"


def get_requires_for_build_wheel(config_settings=None):  # type: ignore[no-untyped-def]
    """setuptools' requirements, with mypy when compiling."""
    return _requires(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings=None):  # type: ignore[no-untyped-def]
    """setuptools' requirements, with mypy when compiling."""
    return _requires(_setuptools.get_requires_for_build_editable, config_settings)
