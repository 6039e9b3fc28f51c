"""Optional parts of shedkit and the pip extra each one needs.

The rules engine needs only the standard library; the envs, the arena, the web
server and the Ray backend need third-party packages, installed with an extra
(``pip install 'shedkit[rl]'``). `require_extra` turns a missing package
into an `ImportError` that names the extra to install.
"""

from __future__ import annotations

import importlib

__all__ = ["EXTRAS", "MissingExtraError", "require_extra"]

#: What each extra brings, by the part of shedkit that needs it.
EXTRAS: dict[str, str] = {
    "rl": "the PettingZoo and Gymnasium environments (shedkit.envs), the douzero agent",
    "arena": "tournament statistics, ratings and plots (shedkit.arena)",
    "server": "the web table server (shedkit serve, shedkit.server)",
    "ray": "the arena's Ray backend (shedkit arena --backend ray)",
    "train": "training DouZero-style agents (shedkit train), with PyTorch",
}


class MissingExtraError(ImportError):
    """A package of an optional extra is not installed; the message names the extra."""


def require_extra(extra: str, feature: str, *modules: str) -> None:
    """Import ``modules``; if one is missing, raise `MissingExtraError` naming ``extra``.

    ``feature`` says what needs them (``shedkit.envs``), for the message.
    """
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}; the extras are {', '.join(EXTRAS)}")
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as missing:
            raise MissingExtraError(
                f"{feature} needs {module!r}, which is not installed; "
                f"install the extra: pip install 'shedkit[{extra}]'",
                name=module,
            ) from missing
