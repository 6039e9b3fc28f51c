"""Options as frozen dataclasses, built from presets plus overrides with validation."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from shedkit.core.errors import OptionError, did_you_mean

__all__ = ["build_options", "options_to_dict"]

OptionsT = TypeVar("OptionsT")


def _check_type(label: str, name: str, value: Any, hint: Any) -> None:
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        allowed = typing.get_args(hint)
        if value not in allowed or type(value) is not type(allowed[0]):
            raise OptionError(
                f"{label} option {name!r} must be one of "
                f"{', '.join(repr(a) for a in allowed)}, not {value!r}"
                + did_you_mean(value, allowed)
            )
        return
    if hint is bool:
        if not isinstance(value, bool):
            raise OptionError(f"{label} option {name!r} must be true or false, not {value!r}")
        return
    if hint is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise OptionError(f"{label} option {name!r} must be an integer, not {value!r}")
        return
    if origin in (types.UnionType, typing.Union):
        for arm in typing.get_args(hint):
            try:
                _check_type(label, name, value, arm)
                return
            except OptionError:
                continue
        raise OptionError(f"{label} option {name!r} has a bad value {value!r}")
    if hint is type(None):
        if value is not None:
            raise OptionError(f"{label} option {name!r} must be None")
        return


def build_options(
    cls: type[OptionsT],
    presets: Mapping[str, Mapping[str, Any]],
    preset: str,
    overrides: Mapping[str, Any],
    label: str = "",
) -> OptionsT:
    """Build ``cls`` from a named preset and overrides, checking names and value types.

    Raises `OptionError` naming the valid presets or options; ``label``
    (the game's name) starts each message.
    """
    label = label or cls.__name__
    if preset not in presets:
        raise OptionError(
            f"unknown {label} preset {preset!r}{did_you_mean(preset, presets)}; "
            f"valid presets: {', '.join(sorted(presets))}"
        )
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(overrides) - set(fields))
    if unknown:
        raise OptionError(
            f"unknown {label} option(s) {', '.join(unknown)}{did_you_mean(unknown[0], fields)}; "
            f"valid options: {', '.join(sorted(fields))}"
        )
    values = {**presets[preset], **overrides}
    hints = typing.get_type_hints(cls)
    for name, value in values.items():
        _check_type(label, name, value, hints[name])
    return cls(**values)


def options_to_dict(options: Any) -> dict[str, Any]:
    """Return the options as a plain JSON-able dict."""
    return dataclasses.asdict(options)
