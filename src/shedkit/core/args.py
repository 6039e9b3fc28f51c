"""Argument checks of the public entry points, the same in the pure and the compiled build.

A compiled (mypyc) function checks its typed arguments itself and raises a bare
``TypeError``; the entry points take ``object`` instead and check here, so a bad
argument gets the contract's error whichever build runs.

>>> seat_arg(2, 3, "dealer")
2
>>> seat_arg("2", 3, "dealer")
Traceback (most recent call last):
...
shedkit.core.errors.SetupError: dealer must be a seat 0…2, not '2'
"""

from __future__ import annotations

import secrets

from shedkit.core.errors import SetupError

__all__ = ["is_int", "seat_arg", "seed_arg", "view_seat_arg"]


def is_int(value: object) -> bool:
    """True for an ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def seed_arg(seed: object) -> int:
    """``seed``, or a fresh random seed for ``None``; `SetupError` for a non-integer."""
    if seed is None:
        return secrets.randbits(63)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError(f"seed must be an integer, not {seed!r}")
    return seed


def seat_arg(value: object, n: int, name: str) -> int:
    """``value`` if it is a seat ``0 … n-1``, else `SetupError` naming ``name``."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise SetupError(f"{name} must be a seat 0…{n - 1}, not {value!r}")
    return value


def view_seat_arg(value: object, n: int) -> int | None:
    """A seat ``0 … n-1`` or ``None`` (a spectator), else ``ValueError``."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise ValueError(f"seat must be 0…{n - 1} or None, not {value!r}")
    return value
