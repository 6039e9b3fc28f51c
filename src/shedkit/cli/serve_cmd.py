"""``shedkit serve``: tables in the browser; needs the ``[server]`` extra.

Its limits, clocks, cluster and model flags are the fields of
`shedkit.server.settings.Settings` whose metadata names a ``flag``: the flag's
name, help and default come from the field, and the values given become a
``Settings`` in one step. The flags that are no field (where to listen, the
database, the ``Host`` names answered) take their defaults from
`shedkit.server.run.serve`.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import re
import socket
import typing
from typing import Any

from rich.console import Console

from shedkit.core.extras import MissingExtraError

__all__ = ["add_serve_parser", "run_serve"]

_HELP = "host tables in the browser (needs the [server] extra)"
_DESCRIPTION = "Serve the web client: tables with friends and bots, replays of every deal."


def add_serve_parser(sub: Any, flags: bool = True) -> argparse.ArgumentParser:
    """Add the ``serve`` command to ``sub`` (the result of ``add_subparsers``).

    Without ``flags`` only the command's name and help are added: its flags come from
    the server package, which takes most of a second to import, so a command line that
    does not serve skips them. Without the server extra the command takes any
    arguments and `run_serve` says what to install.
    """
    serve: argparse.ArgumentParser = sub.add_parser("serve", help=_HELP, description=_DESCRIPTION)
    if not flags:
        return serve
    try:
        from shedkit.server.run import serve as run_server
        from shedkit.server.settings import Settings
        from shedkit.server.storage import DEFAULT_URL
    except ImportError as missing:
        # A missing extra's message already says what to install; a bare ImportError does not.
        advice = (
            ""
            if isinstance(missing, MissingExtraError)
            else "; install the server extra: pip install 'shedkit[server]'"
        )
        serve.set_defaults(unavailable=f"{missing}{advice}")
        serve.description = f"{_DESCRIPTION} Its flags need the server extra: {missing}{advice}"
        return serve
    defaults = {name: p.default for name, p in inspect.signature(run_server).parameters.items()}
    serve.add_argument("--host", default=defaults["host"], help="address to listen on")
    serve.add_argument(
        "--port",
        type=int,
        default=defaults["port"],
        help="port; 0 lets the system pick a free one, shown once bound",
    )
    serve.add_argument(
        "--db",
        default=defaults["db"],
        help=f"SQLAlchemy URL (default: {DEFAULT_URL} here)".replace("%", "%%"),
    )
    serve.add_argument(
        "--trusted-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a Host name the server answers to (repeatable; default: loopback names and "
        "--host; '*' for any)",
    )
    group = serve.add_argument_group(
        "settings",
        "the server's limits, clocks, cluster and bot models (shedkit.server.settings.Settings)",
    )
    hints = typing.get_type_hints(Settings)
    for field in _flag_fields(Settings):
        meta = dict(field.metadata)
        flag, text = meta.pop("flag"), meta.pop("help").replace("%", "%%")
        hint = hints[field.name]
        if typing.get_origin(hint) is tuple:
            # Repeatable: each use adds one item; None (not given) keeps the field's default.
            group.add_argument(flag, dest=field.name, action="append", help=text, **meta)
            continue
        if hint in (int, float):
            meta["type"] = hint
        group.add_argument(flag, dest=field.name, default=field.default, help=text, **meta)
    return serve


def _flag_fields(settings: type[Any]) -> list[dataclasses.Field[Any]]:
    """The fields of ``settings`` that are flags of ``shedkit serve``, in field order."""
    return [f for f in dataclasses.fields(settings) if "flag" in f.metadata]


def _node_name(port: int) -> str:
    """A default node name: this machine's name and the port, as a node id allows."""
    host = re.sub(r"[^A-Za-z0-9_-]", "-", socket.gethostname())[:24] or "node"
    return f"{host}-{port}"


def run_serve(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Run ``shedkit serve`` with parsed ``args`` until interrupted; the exit status."""
    unavailable = getattr(args, "unavailable", None)
    if unavailable is not None:
        err.print(f"shedkit serve: {unavailable}", markup=False)
        return 2
    from shedkit.server.run import serve
    from shedkit.server.settings import Settings

    given: dict[str, Any] = {}
    for field in _flag_fields(Settings):
        value = getattr(args, field.name)
        if value is not None:
            given[field.name] = tuple(value) if isinstance(value, list) else value
    # A node's name defaults to one that tells the nodes of a cluster on one machine apart.
    given["node_id"] = given.get("node_id") or _node_name(args.port)
    try:
        settings = Settings(**given)
        if settings.cluster_url and not (args.db or "").startswith("postgresql"):
            raise ValueError("a cluster's nodes share one PostgreSQL: add --db postgresql://…")
    except ValueError as bad:
        err.print(f"shedkit serve: {bad}", markup=False)
        return 2
    return serve(args.host, args.port, args.db, settings, tuple(args.trusted_host), out)
