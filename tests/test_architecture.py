"""The architecture's contracts: layers, no import circle, no mixins, one place for wiring.

The contracts themselves are in ``pyproject.toml`` (``[tool.importlinter]``), checked
here and by ``lint-imports`` in ``make lint``: the engine imports nothing of the server,
the command line, the arena or the environments, and the server is in layers (the edge
above the rooms above their collaborators). Imports inside functions and type-only ones
count.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import shedkit

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "src" / "shedkit" / "server"

needs_sources = pytest.mark.skipif(
    shedkit.compiled or not SERVER.is_dir(),
    reason="reads the package's sources (the compiled build has extension modules)",
)


def _circles() -> list[list[str]]:
    """Every set of modules of ``shedkit`` that import one another (Tarjan's algorithm)."""
    import grimp

    graph = grimp.build_graph("shedkit", include_external_packages=False)
    edges = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for module in sorted(graph.modules):
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return found


@needs_sources
def test_the_import_contracts_hold() -> None:
    from importlinter.cli import lint_imports

    assert lint_imports(config_filename=str(ROOT / "pyproject.toml")) == 0


@needs_sources
def test_no_module_of_shedkit_is_in_an_import_circle() -> None:
    assert _circles() == []


def _classes(path: Path) -> list[ast.ClassDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]


@needs_sources
def test_no_server_class_is_assembled_from_mixins() -> None:
    # A class of the server extends one class at most (an interface, a Protocol, aside):
    # its parts are objects it holds, not bases that share its state.
    assembled = []
    for path in sorted(SERVER.glob("*.py")):
        for cls in _classes(path):
            bases = [ast.unparse(b) for b in cls.bases]
            if len([b for b in bases if b != "Protocol"]) > 1:
                assembled.append(f"{path.name}: {cls.name}({', '.join(bases)})")
    assert assembled == []


@needs_sources
def test_only_the_wiring_asks_whether_it_runs_on_a_cluster() -> None:
    asking = []
    for path in sorted(SERVER.glob("*.py")):
        if path.name in ("node.py", "settings.py"):
            continue  # the wiring, and the setting it reads
        text = path.read_text(encoding="utf-8")
        for needle in ("cluster is None", "cluster is not None", "cluster_url"):
            if needle in text:
                asking.append(f"{path.name}: {needle}")
    assert asking == []
