"""Which modules run compiled: the hot rules modules that ``SHEDKIT_COMPILE=1`` builds with mypyc.

The same typed source is the pure build and the compiled one: ``setup.py``
reads `HOT_MODULES` to know what to hand to mypyc, and at run time
`compiled_modules` tells which of them were loaded from an extension
module rather than from their ``.py`` file.

>>> set(compiled_modules()) <= set(HOT_MODULES)
True
"""

from __future__ import annotations

import importlib
import importlib.machinery
from typing import Final

__all__ = ["HOT_MODULES", "compiled_modules", "describe"]

#: The modules a compiled build compiles: move generation, state updates and views.
HOT_MODULES: Final = (
    "shedkit.core.bits",
    "shedkit.core.rng",
    "shedkit.doudizhu.combos",
    "shedkit.doudizhu.actions",
    "shedkit.doudizhu.movegen",
    "shedkit.doudizhu.rules",
    "shedkit.doudizhu.view",
    "shedkit.president.combos",
    "shedkit.president.actions",
    "shedkit.president.movegen",
    "shedkit.president.rules",
    "shedkit.president.view",
    "shedkit.dominoes.combos",
    "shedkit.dominoes.actions",
    "shedkit.dominoes.movegen",
    "shedkit.dominoes.rules",
    "shedkit.dominoes.view",
)


def compiled_modules() -> tuple[str, ...]:
    """The modules of `HOT_MODULES` that were loaded compiled (empty in the pure build)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    out = []
    for name in HOT_MODULES:
        path = getattr(importlib.import_module(name), "__file__", None) or ""
        if path.endswith(suffixes):
            out.append(name)
    return tuple(out)


def describe() -> str:
    """``pure Python`` or ``compiled (mypyc): N of M hot modules``, for ``shedkit --version``."""
    done = compiled_modules()
    if not done:
        return "pure Python"
    return f"compiled (mypyc): {len(done)} of {len(HOT_MODULES)} hot modules"


def main(argv: list[str] | None = None) -> int:
    """List each hot module, compiled or not, and where it was loaded from.

    With ``--require`` the exit status is 1 unless every hot module is compiled.
    """
    import sys

    args = sys.argv[1:] if argv is None else argv
    done = compiled_modules()
    for name in HOT_MODULES:
        path = getattr(importlib.import_module(name), "__file__", "")
        print(f"{'compiled' if name in done else 'pure    '}  {name}  {path}")
    print(describe())
    if "--require" in args and len(done) != len(HOT_MODULES):
        return 1
    return 0
