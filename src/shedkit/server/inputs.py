"""One door for what clients send: every string, number and name is checked here.

Whatever arrives (an HTTP body, a path or query value, a WebSocket message) passes
`check_json` or `check_text` before anything else reads it, so that nothing
the server stores or sends can fail to encode later: a lone UTF-16 surrogate (valid in
JSON as ``"\\ud800"``, but no Unicode scalar value) or an integer past 64 bits would
make the row holding it unwritable. Control characters and bidirectional overrides,
which no field here needs, are refused too. Each problem is a `ServerError`
with a code a client can show in its language (``bad_text``, ``bad_number``).

Display names are compared by their confusable skeleton (`name_keys`), in the
manner of Unicode TS #39: ``bob``, Cyrillic ``bоb``, ``bob`` with a combining accent
and ``ｂｏｂ`` are one name at a table.

>>> check_text("Alice", "name")
'Alice'
>>> check_text("A\\ud800", "name")
Traceback (most recent call last):
...
shedkit.server.errors.ServerError: name: lone surrogate (not valid Unicode text)
>>> keys = [name_keys(n) for n in ("bob", "b\\u043eb", "bo\\u0301b", "ＢＯＢ", "b\\u0336ob")]
>>> all(keys[0] & other for other in keys)
True
>>> name_keys("bob") & name_keys("rob")
frozenset()
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import cache
from typing import Any, Final

from shedkit.server.errors import ID_SHAPE, ServerError

__all__ = [
    "MAX_INT",
    "MAX_TEXT",
    "check_id",
    "check_json",
    "check_text",
    "name_keys",
    "text_problem",
]

#: Longest single string accepted anywhere (fields have tighter limits of their own).
MAX_TEXT: Final = 4096
#: Integers beyond 64 bits cannot be stored (the database and the JSON encoder refuse them).
MAX_INT: Final = 2**63 - 1
#: Ids and tokens are URL-safe base64 the server made itself.
MAX_ID: Final = 64

_SURROGATE: Final = re.compile("[\ud800-\udfff]")
# C0 and C1 controls, and the bidirectional controls that turn text around on screen.
_CONTROL: Final = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def text_problem(value: str) -> str | None:
    """Why ``value`` may not come in: ``"encoding"``, ``"control"``, or ``None`` if fine."""
    if _SURROGATE.search(value):
        return "encoding"
    if _CONTROL.search(value):
        return "control"
    return None


_REASONS: Final = {
    "encoding": "lone surrogate (not valid Unicode text)",
    "control": "control or direction-override character",
}


def check_text(value: str, field: str, limit: int = MAX_TEXT) -> str:
    """``value`` if it is clean text of at most ``limit`` characters, else ``bad_text``."""
    if len(value) > limit:
        raise ServerError(
            "bad_text",
            f"{field}: at most {limit} characters",
            data={"field": field, "reason": "too_long", "limit": limit},
        )
    problem = text_problem(value)
    if problem is not None:
        raise ServerError(
            "bad_text", f"{field}: {_REASONS[problem]}", data={"field": field, "reason": problem}
        )
    return value


def check_id(value: Any) -> bool:
    """True if ``value`` has the shape of an id or token the server hands out."""
    return isinstance(value, str) and ID_SHAPE.fullmatch(value) is not None


def _bad_number(field: str) -> ServerError:
    return ServerError(
        "bad_number",
        f"{field}: numbers are finite and at most {MAX_INT} in size",
        data={"field": field, "max": MAX_INT},
    )


def check_json(value: Any, field: str = "body", depth: int = 0) -> None:
    """Check every string (keys too) and number of a parsed JSON value, or raise.

    Strings as `check_text`; integers within ±``MAX_INT``; floats finite. The
    parsers refuse nesting deeper than the interpreter's recursion limit before this
    runs; a value nested past 64 levels is refused here (no client message needs 3).
    """
    if depth > 64:
        raise ServerError("bad_json", f"{field}: nested too deeply")
    if isinstance(value, str):
        check_text(value, field)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if not -MAX_INT <= value <= MAX_INT:
            raise _bad_number(field)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise _bad_number(field)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_text(str(key), f"{field} key", 256)
            # Errors name the field as the request wrote it: "name", "options.players".
            inner = str(key) if depth == 0 else f"{field}.{key}"
            check_json(item, inner[:60], depth + 1)
    elif isinstance(value, list):
        for item in value:
            check_json(item, field, depth + 1)


# -- names ----------------------------------------------------------------------------


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, from confusable-homoglyphs' copy of UTS #39 data.

    The data lists, for a character, what it can be confused with: a source character
    lists its one prototype; a prototype lists its sources. A pair that list only each
    other is one class either way; the smaller code point stands for it.
    """
    from confusable_homoglyphs.confusables import confusables_data

    def clean(glyph: str) -> str:
        return glyph.replace("\u200e", "").replace("\u200f", "")

    out: dict[str, str] = {}
    for char, entries in confusables_data.items():
        if len(char) != 1 or len(entries) != 1:
            continue
        other = clean(entries[0]["c"])
        back = confusables_data.get(other, [])
        if len(back) > 1:
            out[char] = other  # a source of a prototype with several sources
        elif len(other) == 1 and other < char:
            out[char] = other
    return out


# Kana voicing marks change the word (か, が); every other combining mark is dropped.
_KEPT_MARKS: Final = frozenset("\u3099\u309a")


def _skeleton(text: str) -> str:
    protos = _prototypes()
    for _ in range(4):
        decomposed = unicodedata.normalize("NFKD", text)
        bare = "".join(
            ch for ch in decomposed if ch in _KEPT_MARKS or not unicodedata.combining(ch)
        )
        mapped = unicodedata.normalize("NFC", "".join(protos.get(ch, ch) for ch in bare))
        if mapped == text:
            break
        text = mapped
    return text


def name_keys(name: str) -> frozenset[str]:
    """The forms two names are compared in: names sharing one look alike on screen.

    NFKC (fullwidth and compatibility forms), combining marks dropped (accents,
    overlays, strike-throughs), then each character replaced by its confusable
    prototype (Cyrillic ``о`` by Latin ``o``, ``I`` by ``l``): the name's skeleton, and
    that of its case-folded form, so that ``Bob`` and ``bob`` are one name too.
    """
    normal = unicodedata.normalize("NFKC", name)
    return frozenset((_skeleton(normal), _skeleton(normal.casefold())))
