"""Records: JSON-able descriptions of a deal, and rebuilding a state from one."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from shedkit.core.errors import OptionError, RecordError
from shedkit.core.registry import make

__all__ = ["load_record", "replay", "save_record"]


def replay(record: Mapping[str, Any], steps: int | None = None) -> Any:
    """Rebuild exactly the state ``record`` was taken from (or the one after ``steps`` moves).

    Raises `RecordError` for a malformed record or one that does not replay.
    """
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    try:
        name, preset, options = record["game"], record["preset"], record["options"]
    except KeyError as err:
        raise RecordError(f"malformed record: no {err.args[0]!r} field") from err
    if not isinstance(options, Mapping):
        raise RecordError("malformed record: 'options' must be an object")
    try:
        game = make(name, preset=preset, **options)
    except (OptionError, TypeError) as err:
        raise RecordError(f"record names an unknown game or bad options: {err}") from err
    return game.replay(record, steps)


def save_record(record: Mapping[str, Any], path: str | Path) -> Path:
    """Write a record as JSON, atomically (a crash leaves the old file or the new one)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file; `RecordError` if it is not a JSON object."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise RecordError(f"cannot read record {str(path)!r}: {err}") from err
    if not isinstance(data, dict):
        raise RecordError(f"{str(path)!r} does not hold a record (a JSON object)")
    return data
