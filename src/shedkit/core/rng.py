"""Seeds: one match seed gives every deal's seed and every bot's stream, on any machine."""

from __future__ import annotations

import hashlib
import random

__all__ = ["derive_seed", "derived_rng", "randbelow", "shuffle"]


def derive_seed(seed: int, *path: object) -> int:
    """A 63-bit seed determined by ``seed`` and a path such as ``("deal", 3)``.

    >>> derive_seed(7, "deal", 0) == derive_seed(7, "deal", 0) != derive_seed(7, "deal", 1)
    True
    """
    text = "/".join([str(seed), *map(str, path)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def derived_rng(seed: int, *path: object) -> random.Random:
    """A ``random.Random`` seeded with `derive_seed`."""
    return random.Random(derive_seed(seed, *path))


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n > 0``, drawing exactly what CPython's ``random`` draws.

    ``random.Random`` takes ``n.bit_length()`` bits and rejects values ``>= n``;
    this does the same, so the stream and the result are the same, but it runs
    compiled in the compiled build.

    >>> a, b = random.Random(5), random.Random(5)
    >>> [randbelow(a, n) for n in (1, 2, 54, 1000)] == [b.randrange(n) for n in (1, 2, 54, 1000)]
    True
    """
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, items: list[int]) -> None:
    """``rng.shuffle(items)`` bit for bit (the same swaps from the same draws), compiled.

    Deals keep their seeds' orders: records made before replay the same.

    >>> a, b = list(range(54)), list(range(54))
    >>> shuffle(random.Random(9), a); random.Random(9).shuffle(b); a == b
    True
    """
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(rng, i + 1)
        items[i], items[j] = items[j], items[i]
