"""The ASGI app: lobby API over HTTP, play over a WebSocket, the web client as static files.

HTTP: ``GET /api/games``; ``GET|POST /api/tables`` (create: ``game``, ``preset``,
``options``, ``bots``, ``bot``, ``deals``, ``target``, ``seed``: a fixed seed, shown
to everyone as ``fixed_seed``; ``hot_seat``: one client may hold several seats;
``turn_clock``: seconds per move, 0 for none); ``GET /api/tables/{id}``;
``GET /api/howto/{game}?lang=xx`` (the "How to play" page: the rules in ``en``,
``zh``, ``it``, ``de`` or ``ja`` and a gallery of moves found by the engine, see
`shedkit.server.howto`); ``POST /api/tables/{id}/join`` (``{"seat", "name",
"token"?, "bot"?}`` → ``{"seat", "token"}``; ``bot``: a program plays the seat, shown
in the lobby as ``is_bot``; ``token``, the client's token at this table if it has
one, takes back a seat its player left during the deal in progress) and ``/leave``
(``{"token"}``); ``GET /api/tables/{id}/deals[/{n}]`` (a finished deal with every
step and all hands; Tien Gow's as anyone may know it, its face-down tiles and seed never
told, TG-25); ``GET /api/stats``. A browser gets a ``sk_client`` cookie
with the pages; it identifies the client for the one-seat rule, with the address
for the quotas.

WebSocket ``/ws/{id}``: the server sends ``state`` (``you``: the seat or
``null``, ``state_id``, ``table``: public facts with ``commitment``, the SHA-256
of the deal's seed, ``turn``: ``{"seat", "deadline", "bank"}`` while a clock runs,
``deadline`` in Unix seconds, and ``next_deal_at``; ``view``: that seat's view
only), ``chat``, ``error`` and ``pong``. The client sends JSON objects with a
``type``: ``hello`` (``token``: bind this connection to that seat; it also ends
"away"), ``move`` (``move``: the notation, ``str(move)``; ``state_id``: the
state it answers, a stale one is refused with ``stale_state``), ``chat``
(``text``, or a quick ``phrase`` or an ``emote`` by its code), ``start`` (bots
take the open seats), ``next`` (next deal, or a rematch), ``leave``, ``sync``,
``ping``. A state message leaves the server only
after the write holding that state is committed. A browser's WebSocket must come
from the page's own origin or an allowed one.

Every error is ``{"error": {"code": ..., "message": ...}}`` over HTTP and
``{"type": "error", "code": ..., "message": ...}`` over the WebSocket; a bad
message never closes the table or changes its state. ``message`` is English for
developers; clients show their own text for ``code``, filled in from ``data``
where the error has facts a person needs (``{"limit": 300}``, ``{"seat": 2}``;
``reason`` tells apart the cases of one code).

Pages: ``/`` the lobby, ``/t/{id}`` a table, ``/replay/{id}/{n}`` a finished
deal, ``/howto/{game}`` how to play a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import FastAPI, Request, Response, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp

import shedkit
from shedkit import rules as rulebook
from shedkit.protocol.views import Json
from shedkit.server.catalogue import games_catalogue
from shedkit.server.errors import ServerError
from shedkit.server.headers import SecurityHeaders
from shedkit.server.health import Health
from shedkit.server.howto import HOWTO_GAMES, howto
from shedkit.server.identity import CLIENT_COOKIE, address_of, client_of
from shedkit.server.inputs import MAX_INT, check_json, check_text
from shedkit.server.node import Node
from shedkit.server.replays import Replays
from shedkit.server.settings import Settings
from shedkit.server.storage import DEFAULT_URL, Storage
from shedkit.server.ws import serve_socket

__all__ = ["create_app"]

STATIC: Final = Path(__file__).parent / "static"
#: A deal number in a path: what the database can hold.
DealNumber = Annotated[int, PathParam(ge=0, le=MAX_INT)]
#: Longest URL path, and longest query value, accepted.
MAX_PATH: Final = 2048
MAX_QUERY: Final = 1024


class CreateTable(BaseModel):
    """Body of ``POST /api/tables``."""

    game: str
    preset: str = "standard"
    options: dict[str, bool | int | str | None] = Field(default_factory=dict)
    bots: int = 0
    bot: str | None = None
    deals: int | None = 5
    target: int | None = None
    seed: int | None = None
    hot_seat: bool = False
    turn_clock: float | None = None
    # Checked by the lobby, so that a bad value gets its ``bad_option`` answer.
    speed: str = "normal"
    card_counter: bool = False


class JoinSeat(BaseModel):
    """Body of ``POST /api/tables/{id}/join``."""

    seat: int
    name: str
    token: str | None = None
    bot: bool = False


class LeaveSeat(BaseModel):
    """Body of ``POST /api/tables/{id}/leave``."""

    token: str


def _tune_gc(models: tuple[str, ...] = ()) -> None:
    """Keep garbage-collection pauses out of move latency (a server process only).

    The games' action tables (built here, once) and the restored tables live as long
    as the server: frozen, they are left out of every collection. Full collections,
    whose pause grows with the bots' caches, run after 1000 young ones instead of 10;
    almost all garbage here is freed by reference counting anyway.
    """
    games_catalogue(models)
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 1000)


class HeadLimit:
    """Refuse a request whose head has too many headers or too many bytes (431).

    uvicorn's h11 parser bounds a head that arrives in pieces; one that arrives whole in
    a single read is parsed whatever its size, so the count and the total are checked
    here too, before any route or middleware sees the request.
    """

    def __init__(self, app: Any, max_headers: int, max_head: int) -> None:
        self.app = app
        self.max_headers = max_headers
        self.max_head = max_head

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Pass the request on, or answer it 431 (a WebSocket: closed before it opens)."""
        kind = scope["type"]
        if kind in ("http", "websocket"):
            headers = scope["headers"]
            size = sum(len(k) + len(v) + 4 for k, v in headers) + len(scope.get("raw_path", b""))
            if len(headers) > self.max_headers or size > self.max_head:
                if kind == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                error = {
                    "code": "too_large",
                    "message": f"at most {self.max_headers} headers and {self.max_head} bytes",
                    "data": {"limit": self.max_head, "reason": "headers"},
                }
                await JSONResponse({"error": error}, 431)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class HeadedApp(FastAPI):
    """The app with `SecurityHeaders` around all of it, Starlette's error middleware too.

    A middleware added the usual way runs inside that one, so an internal error's 500
    would leave without the headers; outermost, every answer has them, the input
    guard's refusals included, and HEAD reaches the routes as GET.
    """

    def build_middleware_stack(self) -> ASGIApp:
        """Starlette's stack, wrapped once in the security headers."""
        return SecurityHeaders(super().build_middleware_stack(), STATIC)


def create_app(
    db_url: str = DEFAULT_URL,
    bot_delay: float | None = None,
    away_after: float | None = None,
    tune_gc: bool = False,
    settings: Settings | None = None,
) -> FastAPI:
    """The server app on the database ``db_url`` with ``settings`` (limits, clocks, hosts).

    ``bot_delay`` and ``away_after`` override those two settings. ``tune_gc`` adjusts
    the process's garbage collector for latency (``shedkit serve``).
    """
    base = settings or Settings()
    # The server's models by name: the catalogue lists them, never their folders.
    models = tuple(base.model_dirs)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(db_url)
        node = Node(storage, bot_delay=bot_delay, away_after=away_after, settings=base)
        if tune_gc:
            _tune_gc(models)
        app.state.node = node
        app.state.replays = replays = Replays(base.replay_cache, base.replays_per_minute)
        await node.open()
        try:
            yield
        finally:
            await node.close()
            replays.close()
            storage.close()

    app = HeadedApp(title="shedkit", lifespan=lifespan)
    checks = Health()
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    if "*" not in base.trusted_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(base.trusted_hosts))
    app.add_middleware(HeadLimit, max_headers=base.max_headers, max_head=base.max_head)

    def refuse(err: ServerError) -> JSONResponse:
        return JSONResponse({"error": err.body()}, err.status)

    @app.middleware("http")
    async def guard(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        # The one door for HTTP input: the path, the query and the whole JSON body are
        # checked here, before any endpoint reads them (shedkit.server.inputs).
        try:
            check_text(request.scope["path"], "path", MAX_PATH)
            for key, value in request.query_params.multi_items():
                check_text(key, "query", 64)
                check_text(value, key[:64], MAX_QUERY)
        except ServerError as err:
            return refuse(err)
        # Refuse a large body before anything reads it (a declared length over the
        # limit, or a chunked one that grows past it), and a slow one.
        declared = request.headers.get("content-length")
        message = f"bodies are at most {base.max_body} bytes"
        too_big = ServerError("too_large", message, 413, {"limit": base.max_body})
        if declared is not None and (not declared.isdigit() or int(declared) > base.max_body):
            return refuse(too_big)
        if request.method not in ("POST", "PUT", "PATCH"):
            return await call_next(request)
        body = b""
        try:
            async with asyncio.timeout(base.request_timeout):
                async for chunk in request.stream():
                    body += chunk
                    if len(body) > base.max_body:
                        return refuse(too_big)
        except ClientDisconnect:
            # The client hung up before its body was in: nobody is left to answer.
            return Response(status_code=400)
        except TimeoutError:
            slow = f"the request body did not arrive within {base.request_timeout:g} s"
            return refuse(ServerError("slow_request", slow, 408, {"limit": base.request_timeout}))
        request._body = body
        if body:
            try:
                parsed = json.loads(body)
            except (ValueError, RecursionError):
                parsed = None  # not JSON: the endpoint answers bad_request
            try:
                check_json(parsed)
            except ServerError as err:
                return refuse(err)
        return await call_next(request)

    def node_of(request: Request) -> Node:
        node: Node = request.app.state.node
        return node

    @app.exception_handler(ServerError)
    async def servererror_message(request: Request, exc: ServerError) -> JSONResponse:
        return refuse(exc)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for e in exc.errors():
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
            parts.append(f"{where}: {e.get('msg', 'invalid')}" if where else e.get("msg", ""))
        message = "; ".join(parts) or "bad request"
        return JSONResponse({"error": {"code": "bad_request", "message": message}}, 400)

    @app.exception_handler(RecursionError)
    async def too_deep(request: Request, exc: RecursionError) -> JSONResponse:
        message = "the JSON is nested too deeply"
        return JSONResponse({"error": {"code": "bad_json", "message": message}}, 400)

    def page(name: str, request: Request) -> FileResponse:
        response = FileResponse(STATIC / name)
        if CLIENT_COOKIE not in request.cookies:
            response.set_cookie(
                CLIENT_COOKIE,
                secrets.token_urlsafe(18),
                max_age=365 * 86400,
                httponly=True,
                samesite="lax",
            )
        return response

    @app.get("/", include_in_schema=False)
    async def lobby_page(request: Request) -> FileResponse:
        return page("index.html", request)

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> FileResponse:
        return page("table.html", request)

    @app.get("/howto/{game}", include_in_schema=False)
    async def howto_page(request: Request, game: str) -> FileResponse:
        return page("howto.html", request)

    @app.get("/replay/{table_id}/{number}", include_in_schema=False)
    async def replay_page(request: Request, table_id: str, number: DealNumber) -> FileResponse:
        return page("replay.html", request)

    @app.get("/api/games")
    async def games() -> list[Json]:
        """Games, presets with every option value, and the bots that play each."""
        return games_catalogue(models)

    @app.get("/api/howto/{game}")
    async def how_to_play(game: str, lang: str = "en") -> Json:
        """The rules of ``game`` in ``lang`` and the gallery of its moves, for "How to play"."""
        if game not in HOWTO_GAMES:
            raise ServerError(
                "bad_game",
                f"no How to play page for game {game!r}; the games are {', '.join(HOWTO_GAMES)}",
                404,
                data={"game": game, "games": list(HOWTO_GAMES)},
            )
        if lang not in rulebook.LANGS:
            raise ServerError(
                "bad_lang",
                f"no rules in language {lang!r}; the languages are {', '.join(rulebook.LANGS)}",
                data={"lang": lang, "langs": list(rulebook.LANGS)},
            )
        # The first request per game builds its gallery (cached); keep it off the event loop.
        return await asyncio.to_thread(howto, game, lang)

    @app.get("/api/tables")
    async def list_tables(request: Request) -> list[Json]:
        """Tables with open seats first, then those with players, newest first."""
        return await node_of(request).tables()

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request, body: CreateTable) -> Json:
        """Create a table; its last ``bots`` seats are bots."""
        room = await node_of(request).create(
            address_of(request),
            game=body.game,
            preset=body.preset,
            options=dict(body.options),
            bots=body.bots,
            bot=body.bot,
            deals=body.deals,
            target=body.target,
            seed=body.seed,
            hot_seat=body.hot_seat,
            turn_clock=body.turn_clock,
            speed=body.speed,
            card_counter=body.card_counter,
        )
        return {**room.table.public(), "invite": f"/t/{room.id}"}

    @app.get("/api/tables/{table_id}")
    async def get_table(request: Request, table_id: str) -> Json:
        """A table's public state (no hand of any seat)."""
        public: Json = await node_of(request).on_table(table_id, "public", {})
        return public

    @app.post("/api/tables/{table_id}/join")
    async def join_table(request: Request, table_id: str, body: JoinSeat) -> Json:
        """Take a seat; the token returned authorises that seat's moves."""
        node = node_of(request)
        # The join quota counts per address; the one-seat rule per client.
        per_minute, address = node.settings.joins_per_minute, address_of(request)
        if not await node.limits.allow("join", address, per_minute):
            raise ServerError(
                "rate_limited", "too many joins; wait a little", 429, {"reason": "join"}
            )
        seat = {"seat": body.seat, "name": body.name, "token": body.token, "bot": body.bot}
        token = await node.on_table(table_id, "join", {**seat, "client": client_of(request)})
        return {"seat": body.seat, "token": token}

    @app.post("/api/tables/{table_id}/leave")
    async def leave_table(request: Request, table_id: str, body: LeaveSeat) -> Json:
        """Give up a seat; its bot plays on."""
        seat = await node_of(request).on_table(table_id, "leave", {"token": body.token})
        return {"seat": seat}

    @app.get("/api/tables/{table_id}/deals")
    async def table_deals(request: Request, table_id: str) -> list[Json]:
        """The last 100 finished deals of a table, oldest first."""
        summaries: list[Json] = await node_of(request).on_table(table_id, "summaries", {})
        return summaries

    @app.get(
        "/api/tables/{table_id}/deals/{number}",
        response_class=JSONResponse,
        responses={200: {"content": {"application/json": {}}}},
    )
    async def deal_replay(request: Request, table_id: str, number: DealNumber) -> Response:
        """A finished deal's record and every step of it with all hands (`Replays`)."""
        replays: Replays = request.app.state.replays
        found = await replays.get(node_of(request).storage, table_id, number, address_of(request))
        return Response(found, media_type="application/json")

    @app.get("/api/stats")
    async def stats(request: Request) -> Json:
        """Counters for monitoring and the load benchmark."""
        return {
            "node": base.node_id,
            "build": "compiled" if shedkit.compiled else "pure",  # which build the bots run on
            **node_of(request).stats(),
        }

    @app.get("/api/health")
    async def health(request: Request) -> JSONResponse:
        """For a load balancer: 503 while the database does not answer, else 200 (also while
        Redis does not: the node still serves its own tables). See `shedkit.server.health`."""
        status, body = await checks.report(node_of(request), base.node_id)
        return JSONResponse(body, status)

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await serve_socket(websocket, table_id, base.allowed_origins)

    return app
