"""Fuzzing as a habit: generated hostile input against a real server, on every endpoint.

HTTP (``test_http_api_survives_fuzzing``): Schemathesis loads the app's own OpenAPI schema
from a live server (``/openapi.json``) and generates requests for every operation, valid
ones and, where the schema leaves room for them, invalid ones (its positive and negative
modes). Explicit cases come first: every path and query parameter and every body field with
each edge value of its type (lone surrogates such as ``"A\\ud800"``, control characters,
bidirectional overrides, 5000-character strings; 2**63, 2**64, -1, 10**100; odd option
names and values), on real tables. In the generated cases path parameters name a real
table or its finished deal part of the time, bodies get real games, presets, bots and seat
tokens part of the time, and edge values part of the time. Checks: no status >= 500, the
documented content type and response schema, no traceback in the server's log, and the
storage writer still commits after each request.

WebSocket (``test_websocket_survives_fuzzing``): Hypothesis sends every message type
(``hello``, ``move``, ``chat``, ``start``, ``next``, ``leave``, ``sync``, ``ping``), unknown
and missing types, with fields of random JSON (None, booleans, ±2**64, NaN, strings with
lone surrogates, controls and RTL overrides up to 5000 characters, nested lists and
objects; sometimes the real token, a legal move, the current state id), raw non-JSON text
and binary frames, over a seated connection and a spectator's. After each message a
``ping`` must come back as its ``pong`` on the same connection (it stays open), every reply
must be a JSON object of type state, chat, error or pong, nothing may be logged with a
traceback and the storage writer must still commit. A connection is renewed before the
per-connection rate limit would drop a message, so nearly all reach the handler.

Budget, for ``make test`` on two cores: a fixed seed (``derandomize``), no example
database, no shrinking (phases: explicit, generate). HTTP: about 480 explicit requests,
then up to ``HTTP_EXAMPLES`` generated ones per operation and mode (about 480 in all);
WebSocket: about 220 explicit messages, then ``WS_EXAMPLES`` generated ones. That is
5 to 10 s per test against a sound server; each broken server costs a few seconds more
(20 s and 5 s against the holes of commit d424535), and a hard stop (``*_BUDGET_S``)
bounds a run where much breaks. Every wait has a timeout. A broken server (its storage
writer stuck, a connection dropped, a request unanswered) is replaced by a fresh one, at
most ``MAX_RESTARTS`` times, so that one hole does not hide the others; the test then
fails listing every distinct failure (where, symptom, the logged traceback) with the
first inputs that caused it. Counts and seconds are printed and written to
build/test-artifacts/fuzz-report.json.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import APIOperation, Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core import NOT_SET
from schemathesis.core.failures import FailureGroup
from schemathesis.core.failures import ServerError as StatusFailure
from schemathesis.core.result import Err
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)
from websockets.exceptions import ConnectionClosed

from shedkit import rules as rulebook
from shedkit.server.connection import BURST
from tests.server.fuzzing import (
    EDGE_FLOATS,
    EDGE_INTS,
    EDGE_STRINGS,
    Findings,
    LogTrap,
    encodable,
    hostile_int,
    hostile_number,
    hostile_text,
    json_values,
    shown,
    stop_server,
    stuck,
    write_report,
)
from tests.server.live import Client, LiveServer

Json = dict[str, Any]
Operation = APIOperation[Any, Any, Any, Any]
HttpCase = Case[Any]

HTTP_EXAMPLES = 40
WS_EXAMPLES = 300
HTTP_BUDGET_S = 60.0
WS_BUDGET_S = 45.0
MAX_RESTARTS = 12
REQUEST_TIMEOUT = 5.0
PONG_TIMEOUT = 5.0
CLOSE_TIMEOUT = 2.0
#: How long the storage writer may take to commit what one request or message queued.
COMMIT_TIMEOUT = 3.0

CHECKS = [not_a_server_error, content_type_conformance, response_schema_conformance]


def fuzz_settings(max_examples: int) -> settings:
    """Fixed seed, no example database, no shrinking: the same bounded run every time."""
    return settings(
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        phases=(Phase.explicit, Phase.generate),
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )


@pytest.fixture
def trap() -> Iterator[LogTrap]:
    trap = LogTrap()
    trap.attach()
    yield trap
    trap.detach()


class Rig:
    """A live server on a fresh database, replaced (at most MAX_RESTARTS times) when broken."""

    def __init__(self, tmp_path: Path, trap: LogTrap, budget_s: float) -> None:
        self.tmp_path = tmp_path
        self.trap = trap
        self.findings = Findings()
        self.started = time.monotonic()
        self.stop_at = self.started + budget_s
        self.restarts = 0
        self.examples = 0
        # Examples drawn but not sent: out of time, or too many servers broken.
        self.skipped = 0
        self.server = self._start()
        self.setup()

    def _start(self) -> LiveServer:
        server = LiveServer(f"sqlite:///{self.tmp_path / f'fuzz-{self.restarts}.db'}")
        self.trap.attach()  # uvicorn's logging setup has just removed it from its loggers
        return server

    def setup(self) -> None:
        """Make the tables the fuzzing aims at."""

    def disconnect(self) -> None:
        """Close this rig's own connections to the server."""

    def done(self) -> bool:
        """True once out of time or out of servers to replace; counts what is skipped."""
        if time.monotonic() > self.stop_at or self.restarts >= MAX_RESTARTS:
            self.skipped += 1
            return True
        return False

    def restart(
        self,
        where: str,
        example: str,
        headline: str,
        records: list[logging.LogRecord] | None = None,
    ) -> None:
        """Report ``headline`` with what the dying server logged, then start a fresh server."""
        self.disconnect()
        self.trap.wait_for_new(0.5)
        stop_server(self.server)
        records = [*(records or []), *self.trap.new_tracebacks()]
        self.findings.add_crash(where, headline, records, example)
        self.restarts += 1
        self.server = self._start()
        self.setup()

    def close(self) -> None:
        self.disconnect()
        stop_server(self.server)


# -- HTTP ---------------------------------------------------------------------------------

#: A valid body per operation, into which explicit cases put one edge value at a time.
BASE_BODIES: dict[str, Json] = {
    "POST /api/tables": {"game": "doudizhu"},
    "POST /api/tables/{table_id}/join": {"seat": 0, "name": "Fuzz"},
    "POST /api/tables/{table_id}/leave": {"token": "not-a-token"},
}
PATH_DEFAULTS: dict[str, Any] = {"number": 1, "game": "doudizhu"}


@dataclass
class Lobby:
    """What the server offers (from ``GET /api/games``): the values that get past validation."""

    games: list[str]
    presets: list[str]
    agents: list[str]
    options: dict[str, list[str]]

    @classmethod
    def read(cls, server: LiveServer) -> Lobby:
        catalogue = server.http.get("/api/games").json()
        return cls(
            games=[g["name"] for g in catalogue],
            presets=sorted({p for g in catalogue for p in g["presets"]}),
            agents=sorted({a for g in catalogue for a in g["agents"]}),
            options={g["name"]: [o["name"] for o in g["options"]] for g in catalogue},
        )


def _resolve(openapi: Json, schema: Json) -> Json:
    while "$ref" in schema:
        node: Any = openapi
        for part in schema["$ref"].removeprefix("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def _types(schema: Json) -> set[str]:
    return {arm.get("type", "any") for arm in schema.get("anyOf", [schema])}


def parameters(openapi: Json, op: Operation) -> list[tuple[str, str, set[str]]]:
    """``(location, name, JSON types)`` of each path and query parameter of ``op``."""
    spec = openapi["paths"][op.path][op.method.lower()]
    return [(p["in"], p["name"], _types(p.get("schema", {}))) for p in spec.get("parameters", [])]


def body_fields(openapi: Json, op: Operation) -> dict[str, set[str]]:
    """The JSON types of each field of ``op``'s JSON body (none without a body)."""
    spec = openapi["paths"][op.path][op.method.lower()]
    content = spec.get("requestBody", {}).get("content", {}).get("application/json")
    if content is None:
        return {}
    schema = _resolve(openapi, content.get("schema", {}))
    return {name: _types(prop) for name, prop in schema.get("properties", {}).items()}


def path_segment(text: str) -> str:
    """``text`` percent-encoded for a path; a lone surrogate as its WTF-8 bytes, as sent raw."""
    return urllib.parse.quote(text.encode("utf-8", "surrogatepass"), safe="")


def short_edges(surrogates: bool) -> list[str]:
    return [s for s in EDGE_STRINGS if len(s) <= 300 and (surrogates or encodable(s))]


def edge_values(types: set[str], options: list[str]) -> list[Any]:
    """The edge values of a body field of ``types`` (``options``: the option names)."""
    values: list[Any] = []
    if "string" in types:
        values += EDGE_STRINGS
    if "integer" in types or "number" in types:
        values += EDGE_INTS
    if "number" in types:
        values += EDGE_FLOATS
    if "object" in types:
        values += [{"A\ud800": True}, {"\x00": None}, {"": 1}]
        values += [{name: v} for name in options for v in ("A\ud800", 2**64, -1)]
    return values


@dataclass
class Explicit:
    """One explicit request; a path without ``table_id`` gets a real table when sent."""

    path: Json
    query: Json
    body: Any
    aspect: str  # what has the edge value: "path number", "body name"...


def explicit_cases(openapi: Json, op: Operation, lobby: Lobby) -> Iterator[Explicit]:
    """Each parameter and body field of ``op`` with each edge value, the rest valid."""
    fields = body_fields(openapi, op)
    base_body: Any = dict(BASE_BODIES.get(op.label, {})) if fields else NOT_SET
    base_path = {
        name: PATH_DEFAULTS.get(name, "x")
        for location, name, _ in parameters(openapi, op)
        if location == "path" and name != "table_id"
    }

    def body() -> Any:
        return dict(base_body) if isinstance(base_body, dict) else base_body

    for location, name, types in parameters(openapi, op):
        values: list[Any]
        if "integer" in types:
            values = list(EDGE_INTS)
        elif location == "path":
            values = [path_segment(s) for s in short_edges(surrogates=True)]
        else:  # a query string cannot carry a lone surrogate
            values = short_edges(surrogates=False)
        for value in values:
            aspect = f"{location} {name}"
            if location == "path":
                yield Explicit({**base_path, name: value}, {}, body(), aspect)
            else:
                yield Explicit(dict(base_path), {name: value}, body(), aspect)
    for name, types in fields.items():
        for value in edge_values(types, lobby.options.get("doudizhu", [])):
            yield Explicit(dict(base_path), {}, {**body(), name: value}, f"body {name}")


class HttpRig(Rig):
    """The HTTP fuzzer's server: real tables, a finished deal, a seat token."""

    tables: list[str]
    finished: str
    tokens: list[str]

    def __init__(self, tmp_path: Path, trap: LogTrap) -> None:
        self.session = requests.Session()
        self.explicit = 0
        super().__init__(tmp_path, trap, HTTP_BUDGET_S)

    def setup(self) -> None:
        s = self.server
        waiting = s.create(game="doudizhu")["id"]
        partly = s.create(game="president", bots=1)["id"]
        hot = s.create(game="dominoes", hot_seat=True)["id"]
        finished = s.create(game="doudizhu", bots=3, deals=1)["id"]
        self.tokens = [s.join(partly, 0, "Seeded"), s.join(hot, 0, "Hot")]
        deadline = time.monotonic() + 20
        while s.table(finished).status != "finished":
            assert time.monotonic() < deadline, "the bots did not finish their deal"
            time.sleep(0.01)
        assert s.node.storage.flush(timeout=10)
        self.tables = [waiting, partly, hot, finished]
        self.finished = finished

    def disconnect(self) -> None:
        self.session.close()
        self.session = requests.Session()

    def table_for(self, op: Operation) -> str:
        """A table where ``op`` gets past the table lookup: a free seat, a finished deal."""
        if op.path.endswith("/join"):
            return str(self.server.create(game="doudizhu")["id"])
        if "/deals" in op.path:
            return self.finished
        return self.tables[0]

    def send_explicit(self, op: Operation, explicit: Explicit) -> None:
        path = dict(explicit.path)
        if "{table_id}" in op.path:
            path["table_id"] = self.table_for(op)
        case = op.Case(path_parameters=path, query=explicit.query, body=explicit.body)
        self.explicit += 1
        self.send(case, op.label, explicit.aspect)

    def send(self, case: HttpCase, where: str, aspect: str) -> None:
        """One request; every way it goes wrong becomes a finding."""
        self.examples += 1
        example = f"[{aspect}] {describe(case)}"
        try:
            response = case.call(
                base_url=self.server.url, session=self.session, timeout=REQUEST_TIMEOUT
            )
        except requests.Timeout:
            self.restart(where, example, f"no answer within {REQUEST_TIMEOUT:g} s")
            return
        except requests.RequestException as err:
            self.restart(where, example, f"request failed: {type(err).__name__}")
            return
        failures: list[Any] = []
        try:
            case.validate_response(response, checks=CHECKS)
        except FailureGroup as group:
            failures = list(group.exceptions)
        status = f"status {response.status_code}"
        if response.status_code >= 500:
            self.trap.wait_for_new(1.0)
        records = self.trap.new_tracebacks()
        for failure in failures:
            if not (records and isinstance(failure, StatusFailure)):  # reported with its cause
                self.findings.add(where, f"{failure.title} ({status})", example)
        if stuck(self.server, COMMIT_TIMEOUT):
            headline = f"storage writer stuck after this request ({status}): nothing commits"
            self.restart(where, example, headline, records)
        elif records:
            self.findings.add_crash(where, status, records, example)


def describe(case: HttpCase) -> str:
    text = f"{case.method} {case.formatted_path}"
    if case.query:
        text += f" query={shown(case.query, 200)}"
    if case.body is not NOT_SET:
        text += f" body={shown(case.body)}"
    return text


def plausible_body(lobby: Lobby, rig: HttpRig) -> dict[str, st.SearchStrategy[Any]]:
    """Values of body fields that pass validation, so the fuzzing reaches deeper code."""
    option_names = sorted({name for names in lobby.options.values() for name in names})
    small = st.none() | st.booleans() | st.integers(-2, 10) | st.sampled_from(["", "random"])
    return {
        "game": st.sampled_from(lobby.games),
        "preset": st.sampled_from(lobby.presets),
        "bot": st.sampled_from(lobby.agents),
        "options": st.dictionaries(st.sampled_from(option_names), small, max_size=3),
        # Tables and tokens change when the server is replaced: draw an index, not a value.
        "token": st.integers(0, 7).map(lambda i: rig.tokens[i % len(rig.tokens)]),
        "seat": st.integers(0, 4),
        "name": st.text(min_size=1, max_size=24),
        "bots": st.integers(0, 3),
        "deals": st.integers(1, 3),
        "target": st.integers(1, 1000),
        "seed": st.integers(0, 2**62),
        "turn_clock": st.sampled_from([0, 5, 30.5]),
        "hot_seat": st.booleans(),
    }


def hostile_for(types: set[str]) -> st.SearchStrategy[Any]:
    if "string" in types:
        return hostile_text()
    if "integer" in types:
        return hostile_int()
    if "number" in types:
        return hostile_number()
    if "object" in types:
        return st.dictionaries(hostile_text(60), json_values(nan=False, long_text=100), max_size=3)
    return json_values(nan=False, long_text=100)


#: How a generated value is changed: kept, made real (a table, a game), or made hostile.
TWEAK = st.sampled_from(("keep", "keep", "real", "real", "hostile"))


def tweak(
    case: HttpCase,
    data: st.DataObject,
    *,
    rig: HttpRig,
    params: list[tuple[str, str, set[str]]],
    fields: dict[str, set[str]],
    plausible: dict[str, st.SearchStrategy[Any]],
    lobby: Lobby,
) -> None:
    """Point a generated case at real things part of the time, and at edge values."""
    for location, name, types in params:
        how = data.draw(TWEAK)
        if how == "keep":
            continue
        value: Any
        if "integer" in types:
            value = 1 if how == "real" else data.draw(hostile_int())
        elif location == "query":
            real = st.sampled_from(rulebook.LANGS)
            value = data.draw(real if how == "real" else hostile_text(300, surrogates=False))
        elif how == "hostile":
            value = path_segment(data.draw(hostile_text(300)))
        elif name == "table_id":
            value = data.draw(st.integers(0, 7).map(lambda i: rig.tables[i % len(rig.tables)]))
        else:
            value = data.draw(st.sampled_from(lobby.games))
        if location == "path":
            case.path_parameters[name] = value
        else:
            case.query[name] = value
    if not isinstance(case.body, dict):
        return
    for name, types in fields.items():
        how = data.draw(TWEAK)
        if how == "real" and name in plausible:
            case.body[name] = data.draw(plausible[name])
        elif how == "hostile":
            case.body[name] = data.draw(hostile_for(types))


def fuzz_operation(
    rig: HttpRig,
    strategy: st.SearchStrategy[HttpCase],
    where: str,
    invalid: bool,
    aim: Callable[[HttpCase, st.DataObject], None],
) -> None:
    """Send HTTP_EXAMPLES cases drawn from ``strategy``, each ``aim``-ed first (fewer if done)."""

    @fuzz_settings(HTTP_EXAMPLES)
    @given(case=strategy, data=st.data())
    def fuzz(case: HttpCase, data: st.DataObject) -> None:
        aim(case, data)  # drawn even when out of time: Hypothesis wants the same draws
        if not rig.done():
            rig.send(case, where, "generated, invalid" if invalid else "generated")

    with contextlib.suppress(Unsatisfiable):  # no invalid request fits the operation after all
        fuzz()


def test_http_api_survives_fuzzing(tmp_path: Path, trap: LogTrap) -> None:
    rig = HttpRig(tmp_path, trap)
    operations: list[Operation] = []
    try:
        schema = schemathesis.openapi.from_url(f"{rig.server.url}/openapi.json")
        openapi: Json = schema.raw_schema
        for result in schema.get_all_operations():
            if isinstance(result, Err):
                pytest.fail(f"an operation of the app's schema is invalid: {result.err()}")
            operations.append(result.ok())
        lobby = Lobby.read(rig.server)
        plausible = plausible_body(lobby, rig)

        for op in operations:
            for explicit in explicit_cases(openapi, op, lobby):
                if not rig.done():
                    rig.send_explicit(op, explicit)

        for op in operations:
            params, fields = parameters(openapi, op), body_fields(openapi, op)
            modes = [GenerationMode.POSITIVE]
            # Without a body or a non-string parameter there is nothing invalid to send.
            if fields or any(loc == "query" or "string" not in t for loc, _, t in params):
                modes.append(GenerationMode.NEGATIVE)
            for mode in modes:
                aim = functools.partial(
                    tweak, rig=rig, params=params, fields=fields, plausible=plausible, lobby=lobby
                )
                strategy = op.as_strategy(generation_mode=mode)
                fuzz_operation(rig, strategy, op.label, mode is GenerationMode.NEGATIVE, aim)
    finally:
        rig.close()
    report = finish(rig, "http", operations=len(operations), explicit=rig.explicit)
    print(f"HTTP fuzzing: {report}")
    if rig.findings:
        pytest.fail(rig.findings.render(), pytrace=False)


def finish(rig: Rig, section: str, **counts: Any) -> str:
    """Take in late tracebacks, write the report section; the counts as one line."""
    seconds = time.monotonic() - rig.started
    if late := rig.trap.new_tracebacks():
        rig.findings.add_crash("the log, after the run", "logged", late, "-")
    summary = {
        "examples": rig.examples,
        **counts,
        "skipped": rig.skipped,
        "servers_replaced": rig.restarts,
        "seconds": round(seconds, 1),
        "distinct_failures": len(rig.findings.items),
    }
    write_report(section, **summary, failures=rig.findings.as_json())
    return ", ".join(f"{k} {v}" for k, v in summary.items() if not isinstance(v, dict))


# -- WebSocket ----------------------------------------------------------------------------

#: Each message type the server takes, and its fields.
MESSAGE_FIELDS: dict[str, tuple[str, ...]] = {
    "hello": ("token",),
    "move": ("move", "state_id"),
    "chat": ("text",),
    "start": (),
    "next": (),
    "leave": (),
    "sync": (),
    "ping": ("id",),
}
REPLY_TYPES = frozenset({"state", "chat", "error", "pong"})
ROLES = ("seated", "spectator")
#: Messages a connection sends before it is renewed: the server allows BURST at once,
#: and a dropped probe would look like a hang.
PER_CONNECTION = BURST - 4
#: Frames (in characters, up to 4 bytes each) stay under the server's WebSocket frame
#: limit (64 KiB), past which closing
#: the connection is the right answer; past MAX_MESSAGE (4096) it is already refused.
FRAME_CAP = 12_000

RAW_TEXTS = (
    "",
    " ",
    "{",
    "{not json",
    "[1, 2]",
    "null",
    "true",
    '"ping"',
    "1e999",
    "NaN",
    "-Infinity",
    '{"type": "ping"',
    '{"type": "sync"} trailing',
    '\ufeff{"type": "sync"}',
    '{"type": "ping", "type": "chat", "text": "two types"}',
    '{"type": "move", "move": "pass", "state_id": 1e400}',
    '{"type": "chat", "text": "\\ud800"}',
    '{"type": "hello", "token": "\\udfff"}',
    '{"type": "ping", "id": ' + "9" * 4000 + "}",
    "[" * 3000,
    '{"a":' * 600 + "1" + "}" * 600,
    "1" * 4095,
    "x" * 4097,
)
RAW_BYTES = (
    b"",
    b"\xed\xa0\x80",
    b"\xff\xfe\xfd",
    b"\x00" * 64,
    b'{"type": "ping", "id": 1}',
    b'{"type": "chat", "text": "\xed\xa0\x80"}',
    b'{"type": "hello", "token": "\xc0\xaf"}',
)
FRAME_KINDS = ("typed",) * 7 + ("unknown", "untyped", "raw", "binary")
PRESENT = st.sampled_from((True, True, True, False))


@dataclass
class Line:
    """One WebSocket connection in a role, with what its last state said."""

    role: str
    client: Client
    sent: int = 0
    you: int | None = None
    state_id: int | None = None
    legal: list[str] = field(default_factory=list)

    def close(self) -> None:
        self.client.ws.close_timeout = CLOSE_TIMEOUT
        with contextlib.suppress(Exception):  # a connection the server already dropped
            self.client.close()


class Setback(Exception):
    """The rig could not get a connection ready (reported; the server is replaced)."""


class WsRig(Rig):
    """The WebSocket fuzzer's server: a Dou Di Zhu table, a seat on it and a spectator."""

    table_id: str
    token: str
    lines: dict[str, Line]

    def __init__(self, tmp_path: Path, trap: LogTrap) -> None:
        self.lines = {}
        self.rate_limited = 0
        self.explicit = 0
        self.per_kind: dict[str, int] = {}
        # Replies by type and error code: shows how deep the messages got.
        self.replies: Counter[str] = Counter()
        super().__init__(tmp_path, trap, WS_BUDGET_S)

    def setup(self) -> None:
        # Three open seats: `start` has seats to give to bots, and the deal waits for it.
        # One deal a match: once the seat is left, the bots finish the match and stop,
        # rather than deal on by themselves (hundreds of states to read, cores kept busy).
        self.table_id = self.server.create(game="doudizhu", deals=1)["id"]
        self.token = self.server.join(self.table_id, 0, "Fuzzer", client="fuzz-seat")
        self.lines = {role: self._open(role) for role in ROLES}
        if not self._reseat(self.lines["seated"]):
            raise Setback("the seat just taken was refused")

    def disconnect(self) -> None:
        for line in self.lines.values():
            self.retire(line)
        self.lines = {}

    def retire(self, line: Line) -> None:
        """Close ``line``, reading (and checking) what still arrives meanwhile.

        The client reads the server's close frame only while fewer than 16 messages wait
        unread, and the server may be sending many (bots playing out a deal a seat left).
        """
        problems: list[str] = []

        def read() -> None:
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                while True:
                    self.receive(line, CLOSE_TIMEOUT + 1, problems)

        reader = threading.Thread(target=read, name="fuzz-ws-reader", daemon=True)
        reader.start()
        line.close()
        reader.join(timeout=CLOSE_TIMEOUT + 2)
        for problem in problems:
            self.findings.add(f"ws replies ({line.role})", problem, "-", key=problem[:30])

    def _open(self, role: str) -> Line:
        """A new connection, a spectator until :meth:`line` seats it (the token may be stale)."""
        client = self.server.client(self.table_id)
        line = Line(role, client)
        if client.state is not None:
            self._note_state(line, client.state)
        return line

    @staticmethod
    def _note_state(line: Line, message: Json) -> None:
        line.you, line.state_id = message.get("you"), message.get("state_id")
        view = message.get("view")
        view = view if isinstance(view, dict) else {}
        mine = line.you is not None and view.get("current_player") == line.you
        legal = (view.get("legal") or []) if mine else []
        line.legal = [m["m"] for m in legal if isinstance(m, dict) and isinstance(m.get("m"), str)]

    def receive(self, line: Line, timeout: float, problems: list[str]) -> Json | None:
        """The next reply, checked; ``None`` (and a problem noted) if it is malformed."""
        raw = line.client.ws.recv(timeout=timeout)
        if not isinstance(raw, str):
            problems.append(f"a binary reply: {shown(raw, 120)}")
            return None
        try:
            message = json.loads(raw)
        except ValueError:
            problems.append(f"a reply that is not JSON: {shown(raw, 120)}")
            return None
        if not isinstance(message, dict) or message.get("type") not in REPLY_TYPES:
            problems.append(f"a reply that is not a state, chat, error or pong: {shown(raw, 120)}")
            return None
        self.replies[message["type"]] += 1
        if message["type"] == "error":
            self.replies[f"error {message.get('code')}"] += 1
            if not (
                isinstance(message.get("code"), str) and isinstance(message.get("message"), str)
            ):
                problems.append(f"an error without code and message: {shown(raw, 120)}")
            elif message["code"] == "rate_limited":
                self.rate_limited += 1
        elif message["type"] == "state":
            self._note_state(line, message)
        return message

    def drain(self, line: Line, problems: list[str]) -> None:
        """Read what is waiting: a connection nobody reads is closed as too slow."""
        while True:
            try:
                self.receive(line, 0, problems)
            except TimeoutError:
                return

    def line(self, role: str) -> Line:
        """The connection of ``role``, renewed before the rate limit, seated if it should be."""
        line = self.lines[role]
        renew = line.sent + 3 > PER_CONNECTION
        if role == "spectator" and line.you is not None:
            renew = True  # it said hello with the seat's token: a fresh one is a spectator
        if renew:
            self.retire(line)
            line = self.lines[role] = self._open(role)
        if role == "seated" and line.you is None and not self._reseat(line):
            # The seat is gone for now (with nobody seated the bots deal on, and a hand in
            # play is locked): carry on at a new table.
            self.disconnect()
            self.setup()
        return self.lines[role]

    def _reseat(self, line: Line) -> bool:
        """Bind the seated connection (again, after a `leave` or a ``hello`` without a token).

        False if the seat cannot be had back now.
        """
        problems: list[str] = []
        try:
            for _ in range(2):
                if self._hello(line, problems):
                    return True
                # The seat was given up: take it back (with the same token during the deal).
                answer = self.server.try_join(
                    self.table_id, 0, "Fuzzer", client="fuzz-seat", token=self.token
                )
                if answer.status_code != 200:
                    return False
                self.token = answer.json()["token"]
            return False
        finally:
            for problem in problems:
                self.findings.add("ws hello (taking the seat)", problem, "-", key=problem[:30])

    def _hello(self, line: Line, problems: list[str]) -> bool:
        """Say hello with the seat's token: True once a state shows the seat, False if refused."""
        line.client.ws.send(json.dumps({"type": "hello", "token": self.token}))
        line.sent += 1
        deadline = time.monotonic() + PONG_TIMEOUT
        while time.monotonic() < deadline:
            message = self.receive(line, deadline - time.monotonic(), problems)
            if message is None:
                continue
            if message["type"] == "state" and message.get("you") is not None:
                return True
            if message["type"] == "error":
                return False
        return False

    def exercise(self, role: str, frame: Frame, what: str, aspect: str) -> None:
        """Send ``frame`` over the connection of ``role``, filled in for it."""
        try:
            line = self.line(role)
        except (Setback, ConnectionClosed, TimeoutError, httpx.HTTPError) as err:
            headline = f"could not set up a connection: {type(err).__name__}: {err}"
            self.restart(f"ws connect ({role})", "-", headline)
            return
        except (AssertionError, ValueError, KeyError) as err:
            # Client checks the replies it waits for while connecting (JSON with a type).
            headline = f"a malformed reply while connecting: {type(err).__name__}: {err}"
            self.restart(f"ws connect ({role})", "-", headline)
            return
        self.per_kind[what] = self.per_kind.get(what, 0) + 1
        self.send(line, encode(frame, line, self), f"{what} ({role})", aspect)

    def send(self, line: Line, frame: str | bytes, where: str, aspect: str) -> None:
        """Send ``frame`` and a ping; the pong must come back. Everything else is a finding."""
        self.examples += 1
        example = f"[{aspect}] {shown(frame, 400)}"
        marker = f"probe-{self.examples}"
        problems: list[str] = []
        broken: str | None = None
        try:
            line.client.ws.send(frame)
            line.client.ws.send(json.dumps({"type": "ping", "id": marker}))
            line.sent += 2
            deadline = time.monotonic() + PONG_TIMEOUT
            while True:
                message = self.receive(line, deadline - time.monotonic(), problems)
                if message is not None and message == {"type": "pong", "ref": marker}:
                    break
            for other in self.lines.values():
                if other is not line:
                    self.drain(other, problems)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else "none"
            broken = f"connection closed (close code {code}: {closed})"
        except TimeoutError:
            broken = f"no pong within {PONG_TIMEOUT:g} s"
        for problem in problems:
            self.findings.add(where, problem, example, key=problem[:30])
        if broken is not None:
            self.restart(where, example, broken)
            return
        records = self.trap.new_tracebacks()
        if records:
            self.findings.add_crash(where, "answered", records, example)
        if stuck(self.server, COMMIT_TIMEOUT):
            self.restart(where, example, "storage writer stuck after this message: nothing commits")


Frame = Json | str | bytes


@dataclass(frozen=True)
class Live:
    """A field value filled in from the connection when the message is sent.

    A real token, a legal move, the current state id: what Hypothesis draws must not depend
    on the server's state, or it reports the generation as flaky.
    """

    name: str
    pick: int = 0

    def value(self, line: Line, rig: WsRig) -> Any:
        if self.name == "token":
            return rig.token
        if self.name == "state_id":
            return line.state_id
        moves = line.legal or ["pass", "bid 3"]
        return moves[self.pick % len(moves)]


#: Values each field of each message type takes in the explicit cases, one at a time.
WS_EDGES: tuple[Any, ...] = (
    "A\ud800",
    "\udfffB",
    "\x00",
    "\u202etxt.exe",
    "",
    "x" * 301,
    "x" * 5000,
    None,
    True,
    0,
    -1,
    2**63,
    2**64,
    -(2**64),
    1.5,
    float("nan"),
    float("inf"),
    [],
    {"a": ["\ud800"]},
)
#: The other fields of an explicit case: real values, so that the edge value is what counts.
BASE_MESSAGES: dict[str, Json] = {
    "hello": {"token": Live("token")},
    "move": {"move": Live("move"), "state_id": Live("state_id")},
    "chat": {"text": "hello"},
    "ping": {"id": 1},
}


def explicit_frames() -> Iterator[tuple[Frame, str, str]]:
    """``(frame, what, aspect)``: each field of each message type with each edge value
    (``id`` where there is none: errors echo it), edge values as the type, the raw texts
    and binary frames."""
    for kind, fields in MESSAGE_FIELDS.items():
        for name in fields or ("id",):
            for value in WS_EDGES:
                message = {"type": kind, **BASE_MESSAGES.get(kind, {}), name: value}
                yield message, f"ws {kind}", name
    for value in WS_EDGES:
        yield {"type": value}, "ws unknown type", "type"
    for text in RAW_TEXTS:
        yield text, raw_kind(text), "raw"
    for blob in RAW_BYTES:
        yield blob, "ws binary frame", "binary"


def raw_kind(text: str) -> str:
    """What a raw text is, for the report: the message type it parses to, if any."""
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return "ws raw text"
    kind = message.get("type") if isinstance(message, dict) else None
    return f"ws {kind}" if kind in MESSAGE_FIELDS else "ws raw text"


def typed_message(data: st.DataObject, kind: str) -> Json:
    """A ``kind`` message whose fields are real values part of the time, any JSON otherwise."""
    real: dict[str, st.SearchStrategy[Any]] = {
        "token": st.just(Live("token")),
        "move": st.integers(0, 255).map(lambda i: Live("move", i)),
        "state_id": st.just(Live("state_id")) | st.integers(-1, 100),
        "text": st.text(min_size=1, max_size=300),
        "id": st.integers() | st.text(max_size=20),
    }
    message: Json = {"type": kind}
    for name in MESSAGE_FIELDS[kind]:
        if data.draw(PRESENT):
            message[name] = data.draw(real[name] | json_values())
    if kind != "ping" and data.draw(st.booleans()):
        message["id"] = data.draw(json_values(long_text=100))  # echoed in errors as `ref`
    if data.draw(st.booleans()):
        message[data.draw(hostile_text(40))] = data.draw(json_values(long_text=100))
    return message


def draw_frame(data: st.DataObject) -> tuple[Frame, str]:
    """A frame to send (a message still to encode, or raw) and what it is, for the report."""
    kind = data.draw(st.sampled_from(FRAME_KINDS))
    if kind == "typed":
        name = data.draw(st.sampled_from(sorted(MESSAGE_FIELDS)))
        return typed_message(data, name), f"ws {name}"
    if kind == "unknown":
        message = {"type": data.draw(json_values(long_text=200))}
        if data.draw(st.booleans()):
            message["id"] = data.draw(json_values(long_text=100))
        return message, "ws unknown type"
    if kind == "untyped":
        untyped = st.dictionaries(hostile_text(40), json_values(long_text=300), max_size=4)
        return data.draw(untyped), "ws object without type"
    if kind == "raw":
        text = st.sampled_from(RAW_TEXTS) | hostile_text(surrogates=False)
        raw = data.draw(text | json_values().map(json.dumps))
        return raw, raw_kind(raw)
    return data.draw(st.sampled_from(RAW_BYTES) | st.binary(max_size=300)), "ws binary frame"


def encode(frame: Frame, line: Line, rig: WsRig) -> str | bytes:
    """The frame as sent: live values filled in; JSON escapes lone surrogates (``\\ud800``)."""
    if isinstance(frame, dict):
        filled = {k: v.value(line, rig) if isinstance(v, Live) else v for k, v in frame.items()}
        frame = json.dumps(filled)
    return frame[:FRAME_CAP]


def test_websocket_survives_fuzzing(tmp_path: Path, trap: LogTrap) -> None:
    rig = WsRig(tmp_path, trap)
    try:
        # The seated connection reaches the most code (chat, moves, leaving); explicit
        # cases go there.
        for frame, what, aspect in explicit_frames():
            if not rig.done():
                rig.exercise("seated", frame, what, aspect)
        rig.explicit = rig.examples

        @fuzz_settings(WS_EXAMPLES)
        @given(data=st.data())
        def fuzz(data: st.DataObject) -> None:
            # Everything is drawn before anything is sent: the same draws every run.
            role = data.draw(st.sampled_from(ROLES))
            frame, what = draw_frame(data)
            if not rig.done():
                rig.exercise(role, frame, what, "generated")

        fuzz()
    finally:
        rig.close()
    report = finish(
        rig,
        "websocket",
        explicit=rig.explicit,
        rate_limited=rig.rate_limited,
        per_kind=dict(sorted(rig.per_kind.items())),
        replies=dict(rig.replies.most_common()),
    )
    print(f"WebSocket fuzzing: {report}")
    if rig.findings:
        pytest.fail(rig.findings.render(), pytrace=False)
    # Not a server bug: the pacing must let the messages through to be worth anything.
    assert rig.rate_limited <= rig.examples // 20, f"{rig.rate_limited} messages rate-limited"
