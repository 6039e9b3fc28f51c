"""Seeds: one match seed gives every deal's seed and every bot's stream, on any machine."""

from __future__ import annotations

import hashlib
import random

__all__ = ["derive_seed", "derived_rng"]


def derive_seed(seed: int, *path: object) -> int:
    """A 63-bit seed determined by ``seed`` and a path such as ``("deal", 3)``.

    >>> derive_seed(7, "deal", 0) == derive_seed(7, "deal", 0) != derive_seed(7, "deal", 1)
    True
    """
    text = "/".join([str(seed), *map(str, path)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def derived_rng(seed: int, *path: object) -> random.Random:
    """A ``random.Random`` seeded with :func:`derive_seed`."""
    return random.Random(derive_seed(seed, *path))
