"""The web client's message catalogues, and the client code that reads them.

Every string a person reads in the browser comes from ``static/i18n/<lang>/<part>.json``
(i18next v4 JSON: nested keys, ``{{name}}`` interpolation, ``_one``/``_other`` plural
suffixes). These tests hold the catalogues and the code to that:

- every language has the same parts and the same keys (plural forms aside), no empty
  value, the English placeholders only, and top-level keys unique across parts;
- every key the client code asks for with ``t("…")`` exists in English;
- no client template or page carries visible text of its own (text nodes, and the
  ``aria-label``, ``title``, ``placeholder`` and ``alt`` attributes);
- every error code the server can send has its sentence in every language.

Run one file's checks with ``-k``: ``pytest tests/client/test_catalogues.py -k lobby``.
"""

from __future__ import annotations

import dataclasses
import json
import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "shedkit" / "server" / "static"
I18N = STATIC / "i18n"
SERVER = ROOT / "src" / "shedkit" / "server"
LANGS = ("en", "zh", "it", "de", "ja")
PLURAL = re.compile(r"_(zero|one|two|few|many|other)$")
PLACEHOLDER = re.compile(r"\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}")
#: Words a page may show as they are, in every language.
ALLOWED_WORDS = {"shedkit"}
#: Attributes a person reads (or hears) whose literal text must come from the catalogues.
READ_ATTRS = {"aria-label", "title", "placeholder", "alt"}


def parts() -> list[str]:
    """The catalogue parts, as ``lib/i18n.js`` loads them."""
    source = (STATIC / "lib" / "i18n.js").read_text(encoding="utf-8")
    found = re.search(r"export const PARTS = \[([^\]]*)\]", source)
    assert found, "lib/i18n.js lists its catalogue PARTS"
    return re.findall(r"[\"'](\w+)[\"']", found.group(1))


@cache
def load(lang: str, part: str) -> dict[str, Any] | None:
    path = I18N / lang / f"{part}.json"
    if not path.exists():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def leaves(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"a.b.c": value}`` for every leaf of a nested catalogue."""
    out: dict[str, Any] = {}
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(leaves(value, path + "."))
        else:
            out[path] = value
    return out


def base(key: str) -> str:
    """A key without its plural suffix: ``players_other`` is ``players``."""
    return PLURAL.sub("", key)


@cache
def english() -> dict[str, Any]:
    """The English catalogue as the client sees it: the parts merged at the top level."""
    merged: dict[str, Any] = {}
    for part in parts():
        merged.update(load("en", part) or {})
    return merged


# --- (a) the same parts and keys in every language, (d) no empty value -----------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_has_every_part(lang: str) -> None:
    missing = [p for p in parts() if load(lang, p) is None]
    assert not missing, f"{lang} lacks the parts {missing}"


@pytest.mark.parametrize("part", parts())
@pytest.mark.parametrize("lang", LANGS[1:])
def test_same_keys_as_english(part: str, lang: str) -> None:
    en, other = load("en", part), load(lang, part)
    if en is None or other is None:
        pytest.fail(f"{part}: missing in {'en' if en is None else lang}")
    want = {base(k) for k in leaves(en)}
    have = {base(k) for k in leaves(other)}
    assert not want - have, f"{lang}/{part}.json lacks {sorted(want - have)}"
    assert not have - want, f"{lang}/{part}.json has keys English lacks: {sorted(have - want)}"


@pytest.mark.parametrize("part", parts())
@pytest.mark.parametrize("lang", LANGS)
def test_no_empty_value_and_english_placeholders(part: str, lang: str) -> None:
    tree = load(lang, part)
    if tree is None:
        pytest.skip(f"{lang}/{part}.json is missing (reported above)")
    empty = [k for k, v in leaves(tree).items() if not isinstance(v, str) or not v.strip()]
    assert not empty, f"{lang}/{part}.json has empty or non-text values: {empty}"
    # A translation fills in the same facts as the English sentence, no others.
    en_vars: dict[str, set[str]] = {}
    for k, v in leaves(load("en", part) or {}).items():
        en_vars.setdefault(base(k), set()).update(PLACEHOLDER.findall(str(v)))
    strange = {}
    for k, v in leaves(tree).items():
        extra = set(PLACEHOLDER.findall(str(v))) - en_vars.get(base(k), set()) - {"count"}
        if extra:
            strange[k] = sorted(extra)
    assert not strange, f"{lang}/{part}.json uses placeholders English does not: {strange}"


@pytest.mark.parametrize("lang", LANGS)
def test_top_level_keys_unique_across_parts(lang: str) -> None:
    owner: dict[str, str] = {}
    clashes = []
    for part in parts():
        for key in load(lang, part) or {}:
            if key in owner:
                clashes.append(f"{key!r} in {owner[key]} and {part}")
            owner[key] = part
    assert not clashes, f"{lang}: parts are merged shallowly, a key would hide another: {clashes}"


# --- (b) every key the client asks for exists in English --------------------------------


def client_files(suffix: str) -> list[Path]:
    return sorted(
        p
        for p in STATIC.rglob(f"*{suffix}")
        if "vendor" not in p.relative_to(STATIC).parts and "i18n" not in p.parts
    )


def rel(path: Path) -> str:
    return str(path.relative_to(STATIC))


T_CALL = re.compile(r"(?<![\w.$])t\(\s*(?:\"([^\"\\]*)\"|'([^'\\]*)'|`([^`\\]*)`)")


def keys_used(source: str) -> list[str]:
    """The first argument of every ``t(…)`` call that is a literal (or a template)."""
    return [next(g for g in m.groups() if g is not None) for m in T_CALL.finditer(source)]


def lookup(tree: Any, dotted: str) -> Any:
    node = tree
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def key_exists(key: str) -> bool:
    if "${" in key:
        # A template key: what comes before the first ${…} must be a group of keys, or
        # the start of some key's name in a group (`table.unit_${u}`).
        parent, _, partial = key.split("${", 1)[0].rpartition(".")
        node = lookup(english(), parent) if parent else english()
        return isinstance(node, dict) and any(str(k).startswith(partial) for k in node)
    if isinstance(lookup(english(), key), str):
        return True
    # A plural: i18next picks key_one, key_other… from {count}.
    parent, _, last = key.rpartition(".")
    node = lookup(english(), parent) if parent else english()
    return isinstance(node, dict) and any(
        isinstance(k, str) and base(k) == last and k != last for k in node
    )


@pytest.mark.parametrize("path", client_files(".js"), ids=rel)
def test_keys_used_exist_in_english(path: Path) -> None:
    used = keys_used(path.read_text(encoding="utf-8"))
    missing = sorted({k for k in used if not key_exists(k)})
    assert not missing, f"{rel(path)} asks for keys English lacks: {missing}"


def test_key_scanner() -> None:
    src = 'x = t("a.b"); y = t(\'c\', {n}); z = t(`d.${e}.f`); w = i18next.t(key); at("q")'
    assert keys_used(src) == ["a.b", "c", "d.${e}.f"]


# --- (c) no visible text built in client code ------------------------------------------


HOLE = "\x00"  # where a ${…} expression sits in a template's markup


class _Scanner:
    """Finds the markup of every html`…` template in a JavaScript module.

    It walks the source as JavaScript (strings, comments, regular expressions, template
    literals with their ${…} expressions, nested to any depth) and keeps the literal
    chunks of the templates tagged ``html``, joined with a mark where each expression
    was: the markup as Preact's htm reads it.
    """

    def __init__(self, source: str) -> None:
        self.s = source
        self.templates: list[str] = []

    def run(self) -> list[str]:
        self.code(0, top=True)
        return self.templates

    def code(self, i: int, top: bool = False) -> int:
        """Scan code from ``i`` to the ``}`` closing a ${…} (or to the end); return past it."""
        s, depth, last = self.s, 0, ""
        while i < len(s):
            c = s[i]
            if c in "\"'":
                i = self.string(i)
                last = "a"
                continue
            if s.startswith("//", i):
                i = s.find("\n", i)
                i = len(s) if i < 0 else i
                continue
            if s.startswith("/*", i):
                end = s.find("*/", i + 2)
                i = len(s) if end < 0 else end + 2
                continue
            if c == "/" and (last == "" or last in "(,=:[!&|?{};+-*%<>~^"):
                i = self.regex(i)
                last = "a"
                continue
            if c == "`":
                tagged = re.search(r"\bhtml\s*$", s[max(0, i - 10) : i]) is not None
                i = self.template(i, tagged)
                last = "a"
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                if depth == 0 and not top:
                    return i + 1
                depth -= 1
            if not c.isspace():
                last = c if not (c.isalnum() or c in "_$") else "a"
                # A keyword before a slash starts a regular expression, not a division.
                if last == "a" and re.search(r"\b(return|typeof|case|in|of)$", s[: i + 1]):
                    last = "("
            i += 1
        return i

    def string(self, i: int) -> int:
        quote, i = self.s[i], i + 1
        while i < len(self.s) and self.s[i] != quote:
            i += 2 if self.s[i] == "\\" else 1
        return i + 1

    def regex(self, i: int) -> int:
        s, i, klass = self.s, i + 1, False
        while i < len(s) and s[i] != "\n":
            c = s[i]
            if c == "\\":
                i += 2
                continue
            if c == "[":
                klass = True
            elif c == "]":
                klass = False
            elif c == "/" and not klass:
                return i + 1
            i += 1
        return i

    def template(self, i: int, tagged: bool) -> int:
        s, i, chunks, chunk = self.s, i + 1, [], []
        while i < len(s):
            c = s[i]
            if c == "\\":
                chunk.append(s[i : i + 2])
                i += 2
            elif c == "`":
                i += 1
                break
            elif s.startswith("${", i):
                chunks.append("".join(chunk))
                chunk = []
                i = self.code(i + 2)
            else:
                chunk.append(c)
                i += 1
        chunks.append("".join(chunk))
        if tagged:
            self.templates.append(HOLE.join(chunks))
        return i


def html_templates(source: str) -> list[str]:
    return _Scanner(source).run()


ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|\w+);")
TAG_START = re.compile(r"<(/?[A-Za-z\x00]|!--|!|//)")
ATTR = re.compile(r"""([^\s=/>\x00]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?""")


def wordy(text: str) -> str | None:
    """``text`` if it holds a letter outside the allowed words, else None."""
    bare = ENTITY.sub(" ", text.replace(HOLE, " "))
    for word in ALLOWED_WORDS:
        bare = re.sub(rf"\b{re.escape(word)}\b", " ", bare)
    if any(unicodedata.category(ch).startswith("L") for ch in bare):
        return " ".join(text.replace(HOLE, "${…}").split())
    return None


def markup_text(markup: str, skip: tuple[str, ...] = ()) -> list[str]:
    """Visible text nodes and read attributes with literal letters in ``markup``.

    ``skip`` names elements whose content is not shown (``script``, ``style``).
    """
    found: list[str] = []
    i = 0
    while i < len(markup):
        m = TAG_START.search(markup, i)
        text = markup[i : m.start() if m else len(markup)]
        if wordy(text):
            found.append(f"text {wordy(text)!r}")
        if not m:
            break
        if m.group(1) == "!--":
            end = markup.find("-->", m.end())
            i = len(markup) if end < 0 else end + 3
            continue
        end = m.end()
        quote = ""
        while end < len(markup):  # the tag ends at the first > outside quotes
            c = markup[end]
            if quote:
                quote = "" if c == quote else quote
            elif c in "\"'":
                quote = c
            elif c == ">":
                break
            end += 1
        tag = markup[m.start() + 1 : end]
        name = re.match(r"/?([\w-]*)", tag)
        for attr in ATTR.finditer(tag[len(name.group(0)) if name else 0 :]):
            key, value = attr.group(1).lower(), attr.group(2)
            if key in READ_ATTRS and value and wordy(value.strip("\"'")):
                found.append(f"{key}={wordy(value)}")
        i = end + 1
        tag_name = name.group(1).lower() if name else ""
        if tag_name in skip and not tag.startswith("/"):
            close = markup.lower().find(f"</{tag_name}", i)
            i = len(markup) if close < 0 else close
    return found


@pytest.mark.parametrize("path", client_files(".js"), ids=rel)
def test_no_text_in_templates(path: Path) -> None:
    found = [
        t
        for markup in html_templates(path.read_text(encoding="utf-8"))
        for t in markup_text(markup)
    ]
    assert not found, f"{rel(path)} shows text that is not from the catalogues: {found}"


@pytest.mark.parametrize("path", sorted(STATIC.glob("*.html")), ids=rel)
def test_no_text_in_pages(path: Path) -> None:
    found = markup_text(path.read_text(encoding="utf-8"), skip=("script", "style"))
    assert not found, f"{rel(path)} shows text that is not from the catalogues: {found}"


def test_text_finder() -> None:
    src = (
        'const a = html`<p class="big" id="x1">${t("k")} · 3</p>`;\n'
        'const b = html`<b title="Fixed seed">${n}</b><i aria-label=${t("x")}>Hello ${name}</i>`;\n'
        "const c = html`<${Comp} label=${html`<em>Nested</em>`} />`;\n"
        'const d = "not a template: <p>Words</p>"; const e = x / 2 + `<p>${y}</p>`;\n'
        "const f = s.replace(/`/g, '') + html`<span>shedkit &nbsp; ©</span>`;\n"
    )
    found = [t for m in html_templates(src) for t in markup_text(m)]
    assert found == ['title="Fixed seed"', "text 'Hello ${…}'", "text 'Nested'"]


# --- server codes ------------------------------------------------------------------------


def server_codes() -> set[str]:
    """Every error code the server's source can send."""
    codes: set[str] = set()
    for path in SERVER.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        codes.update(re.findall(r"ServerError\(\s*\"(\w+)\"", source))
        codes.update(re.findall(r"\"code\":\s*\"(\w+)\"", source))
    return codes


def test_server_codes_found() -> None:
    # The scan works: codes raised in table.py and written in app.py are both found.
    assert {"seat_taken", "not_your_turn", "too_large", "bad_request"} <= server_codes()


@pytest.mark.parametrize("lang", LANGS)
def test_every_server_code_has_a_sentence(lang: str) -> None:
    errors = (load(lang, "errors") or {}).get("error", {})
    missing = sorted(c for c in server_codes() if c not in {base(k) for k in errors})
    assert not missing, f"{lang}/errors.json has no sentence for the server codes {missing}"


def test_errors_carry_their_data(tmp_path: Path) -> None:
    """The facts a sentence needs come with the code, over HTTP and the WebSocket."""
    from fastapi.testclient import TestClient

    from shedkit.server import create_app
    from shedkit.server.settings import LOOPBACK_HOSTS
    from tests.server.live import TEST_SETTINGS

    settings = dataclasses.replace(TEST_SETTINGS, trusted_hosts=(*LOOPBACK_HOSTS, "testserver"))
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite'}", bot_delay=0.0, settings=settings)
    with TestClient(app) as http:
        bad = http.post("/api/tables", json={"game": "doudizhu", "deals": 5000})
        assert bad.json()["error"] == {
            "code": "bad_deals",
            "message": "deals must be 1…1000 or none, not 5000",
            "data": {"max": 1000},
        }
        table = http.post("/api/tables", json={"game": "doudizhu", "bots": 1}).json()
        http.post(f"/api/tables/{table['id']}/join", json={"seat": 0, "name": "Ana"})
        taken = http.post(f"/api/tables/{table['id']}/join", json={"seat": 0, "name": "Bo"})
        assert taken.json()["error"]["data"] == {"seat": 0, "name": "Ana"}
        with http.websocket_connect(f"/ws/{table['id']}") as ws:
            ws.receive_json()  # the state
            ws.send_json({"type": "chat", "text": "hi"})
            error = ws.receive_json()
            assert error["code"] == "not_seated" and error["data"] == {"reason": "chat"}
    # The client finds a sentence for each reason it is sent.
    errors = load("en", "errors")["error"]  # type: ignore[index]
    assert {"not_seated_chat", "bad_deals_bots_only", "rate_limited_create"} <= set(errors)


#: One word per idea in each language, in the catalogues and the rules alike: the term the
#: rules use (and the German source's *Lehnsherr*), never the other reading beside it.
TERMS = {
    "it": {"ossario": ("mucchio",)},
    "de": {"Lehnsherr": ("Grundbesitzer",)},
    "ja": {"ビッド": ("入札",)},
    "zh": {"纳税": ("进贡",)},
}


@pytest.mark.parametrize("lang", sorted(TERMS))
def test_one_term_per_idea_in_the_catalogues_and_the_rules(lang: str) -> None:
    files = [
        *sorted((I18N / lang).glob("*.json")),
        *sorted((SERVER.parent / "rules" / lang).glob("*.md")),
    ]
    assert files
    text = {f.name: f.read_text(encoding="utf-8") for f in files}
    for term, others in TERMS[lang].items():
        assert any(term in t for t in text.values()), f"{lang}: {term} is used nowhere"
        for other in others:
            found = sorted(name for name, t in text.items() if other in t)
            assert not found, f"{lang}: {other!r} in {found}; the word is {term!r}"
