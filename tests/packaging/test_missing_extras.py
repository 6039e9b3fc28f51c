"""A missing optional package gives an ImportError that names the extra to install.

Each case runs in a fresh interpreter where the package is made unimportable
(``sys.modules[name] = None``), as if the extra had not been installed.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from shedkit.core.extras import MissingExtraError, require_extra


def _run(blocked: str, code: str) -> subprocess.CompletedProcess[str]:
    script = f"import sys\nsys.modules[{blocked!r}] = None\n" + textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize(
    ("blocked", "module", "extra"),
    [
        ("numpy", "shedkit.envs", "rl"),
        ("gymnasium", "shedkit.envs.gymnasium", "rl"),
        ("pettingzoo", "shedkit.envs.pettingzoo", "rl"),
        ("numpy", "shedkit.envs.encodings", "rl"),
        ("scipy", "shedkit.arena.stats", "arena"),
        ("openskill", "shedkit.arena.ratings", "arena"),
        ("fastapi", "shedkit.server", "server"),
        ("sqlalchemy", "shedkit.server.app", "server"),
        ("orjson", "shedkit.server", "server"),
    ],
)
def test_import_without_its_extra_names_the_extra(blocked: str, module: str, extra: str) -> None:
    proc = _run(
        blocked,
        f"""
        try:
            import {module}
        except ImportError as error:
            print(type(error).__name__, error)
        """,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("MissingExtraError ")
    assert f"pip install 'shedkit[{extra}]'" in proc.stdout
    assert repr(blocked) in proc.stdout


def test_arena_plot_without_matplotlib_names_the_extra() -> None:
    proc = _run(
        "matplotlib",
        """
        from shedkit.arena.plot import plot_results
        try:
            plot_results({"stats": {}}, "out.png")
        except ImportError as error:
            print(error)
        """,
    )
    assert "pip install 'shedkit[arena]'" in proc.stdout, proc.stderr


def test_ray_backend_without_ray_names_the_extra() -> None:
    proc = _run(
        "ray",
        """
        from shedkit.arena import Tournament, run_tournament
        from shedkit.core.errors import OptionError
        try:
            run_tournament(Tournament("doudizhu", ("greedy", "random"), deals=1, seed=1),
                           backend="ray")
        except OptionError as error:
            print(error)
        """,
    )
    assert "pip install 'shedkit[ray]'" in proc.stdout, proc.stderr


def test_cli_without_the_extras_still_starts() -> None:
    proc = _run(
        "numpy",
        """
        sys.modules["fastapi"] = None
        from shedkit.cli.main import main
        sys.exit(main(["rules", "PRE-16"]))
        """,
    )
    assert proc.returncode == 0, proc.stderr
    assert "PRE-16" in proc.stdout


def test_require_extra_rejects_an_unknown_extra() -> None:
    with pytest.raises(ValueError, match="unknown extra 'gpu'"):
        require_extra("gpu", "x", "json")
    require_extra("rl", "x", "json")
    assert issubclass(MissingExtraError, ImportError)


def test_serve_without_the_server_extra_says_what_to_install_once() -> None:
    proc = _run(
        "fastapi",
        """
        from shedkit.cli.main import main
        sys.exit(main(["serve"]))
        """,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("pip install 'shedkit[server]'") == 1, proc.stderr
    assert proc.stderr.startswith("shedkit serve: ")
