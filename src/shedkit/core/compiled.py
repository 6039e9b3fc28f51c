"""Which modules run compiled: the hot modules that ``SHEDKIT_COMPILE=1`` builds with mypyc.

The same typed source is the pure build and the compiled one: ``setup.py``
reads `HOT_MODULES` to know what to hand to mypyc, and at run time
`compiled_modules` tells which of them were loaded from an extension
module rather than from their ``.py`` file. `mypyc_attr` is mypyc's class
decorator where mypy_extensions is installed and a no-op where it is not
(a pure install needs nothing beyond its own dependencies).

>>> set(compiled_modules()) <= set(HOT_MODULES)
True
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import sys
from typing import TYPE_CHECKING, Any, Final

__all__ = ["HOT_MODULES", "compiled_modules", "describe", "mypyc_attr"]

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:

        def mypyc_attr(*attrs: str, **kwattrs: object) -> Any:
            """mypyc's settings for a class; nothing to do where nothing is compiled."""
            return lambda cls: cls


#: The modules a compiled build compiles: move generation, state updates and views,
#: then the search bots' playouts (the engine, its per-game knowledge with the sampler
#: and the settings it reads at every rollout step, the greedy rollout policies).
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
    "shedkit.tiengow.combos",
    "shedkit.tiengow.actions",
    "shedkit.tiengow.movegen",
    "shedkit.tiengow.rules",
    "shedkit.tiengow.view",
    "shedkit.agents.search.engine",
    "shedkit.agents.search.endgame",
    "shedkit.agents.search.knowledge.settings",
    "shedkit.agents.search.knowledge.sampler",
    "shedkit.agents.search.knowledge.doudizhu",
    "shedkit.agents.search.knowledge.president",
    "shedkit.agents.search.knowledge.dominoes",
    "shedkit.agents.search.knowledge.tiengow",
    "shedkit.agents.greedy_doudizhu",
    "shedkit.agents.greedy_president",
    "shedkit.agents.greedy_dominoes",
    "shedkit.agents.greedy_tiengow",
)


def compiled_modules() -> tuple[str, ...]:
    """The modules of `HOT_MODULES` that are loaded compiled (empty in the pure build)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return tuple(name for name in HOT_MODULES if _origin(name).endswith(suffixes))


def _origin(name: str) -> str:
    """The file module ``name`` was (or would be) loaded from, without importing it.

    ``import shedkit`` asks this of every hot module: importing the bots here
    would slow every start down, so a module not imported yet is only looked
    up, the way its import would find it.
    """
    module = sys.modules.get(name)
    if module is not None:
        return getattr(module, "__file__", None) or ""
    package = sys.modules.get("shedkit") or importlib.import_module("shedkit")
    parts = name.split(".")
    paths = [os.path.join(p, *parts[1:-1]) for p in package.__path__]
    spec = importlib.machinery.PathFinder.find_spec(name, paths)
    return (spec.origin if spec is not None else None) or ""


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
