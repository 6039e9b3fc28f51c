"""``shedkit bot connect URL --table ID --seat N -- PROGRAM ...``: a bot program at a web table.

The bridge takes the seat over HTTP as a bot (``"bot": true``), opens the
table's WebSocket with the seat token, starts the program and speaks the bot
protocol to it: ``hello`` with the table's game and options, ``act`` with the
view JSON the server sent when it is the seat's turn, answered by a ``move``
message naming the ``state_id`` it answers, ``deal_end`` after each deal and
``match_end`` when the match is over. The same program plays locally (``cmd:``
in the arena) and online. The server's rules apply as to any player: the turn
clock (its bot stands in for a slow move), stale states, rate limits.

A bot program that forfeits (crash, time-out, garbage, illegal move) is
stopped; the bridge gives the seat up (the table's stand-in bot plays on) and
exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import shlex
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import quote, urlsplit

from rich.console import Console

import shedkit
from shedkit.agents.external import BotForfeit, BotLimits, ExternalAgent
from shedkit.core.errors import OptionError

__all__ = ["add_bot_parser", "connect", "run_bot"]

Json = dict[str, Any]


def add_bot_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``bot`` subcommand (``bot connect``) to ``shedkit``'s subparsers."""
    bot = sub.add_parser(
        "bot",
        help="run a bot program (bot protocol) at a web table",
        description="Bridge a program that speaks the bot protocol on stdin/stdout to a web table.",
    )
    actions = bot.add_subparsers(dest="bot_command", metavar="ACTION")
    connect_parser = actions.add_parser(
        "connect",
        usage="shedkit bot connect URL --table ID --seat N [options] -- PROGRAM [ARGS ...]",
        help="take a seat at a table and let a bot program play it",
        description=(
            "Take SEAT at table ID of the server at URL as a bot, and play it with "
            "PROGRAM (after --), which speaks the bot protocol on stdin/stdout."
        ),
    )
    connect_parser.add_argument("url", help="the server, e.g. http://localhost:8000")
    connect_parser.add_argument("--table", required=True, help="the table id (from /t/ID)")
    connect_parser.add_argument("--seat", type=int, required=True, help="the seat to take")
    connect_parser.add_argument("--name", default=None, help="display name (default: Bot N)")
    connect_parser.add_argument(
        "--token", default=None, help="a seat token held already (skips the join)"
    )
    connect_parser.add_argument(
        "--move-time", type=float, default=5.0, help="seconds the program has a move"
    )
    connect_parser.add_argument(
        "--startup-time", type=float, default=10.0, help="seconds the program has to start"
    )
    connect_parser.add_argument(
        "--bot-logs", default="bot-logs", metavar="DIR", help="folder of the program's stderr log"
    )
    # The program and its arguments follow "--": main() splits them off before parsing, so
    # that they may hold options of their own (--level 3).
    connect_parser.set_defaults(program=[])
    return bot  # type: ignore[no-any-return]


def _http(url: str, body: Json | None = None) -> Json:
    """GET (or POST ``body``) JSON; a refusal becomes an `OptionError` with its message."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            answer: Json = json.loads(response.read())
            return answer
    except urllib.error.HTTPError as err:
        try:
            message = json.loads(err.read())["error"]["message"]
        except (ValueError, KeyError, TypeError):
            message = f"HTTP {err.code}"
        raise OptionError(f"{url}: {message}") from None
    except urllib.error.URLError as err:
        raise OptionError(f"cannot reach {url}: {err.reason}") from None


def connect(
    url: str,
    table_id: str,
    seat: int,
    program: list[str],
    name: str | None = None,
    token: str | None = None,
    limits: BotLimits | None = None,
    out: Console | None = None,
) -> int:
    """Play ``seat`` of table ``table_id`` at ``url`` with ``program``; the exit status."""
    try:
        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect as ws_connect
    except ImportError as err:
        raise OptionError(
            f"shedkit bot connect needs websockets: pip install 'shedkit[server]' ({err})"
        ) from err
    console = out or Console(stderr=True, highlight=False)
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise OptionError(f"the server URL is http://HOST[:PORT] or https://…, not {url!r}")
    base = f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"
    api = f"{base}/api/tables/{quote(table_id, safe='')}"
    info = _http(api)
    game = shedkit.make(info["game"], preset=info["preset"], **info["options"])
    if not 0 <= seat < game.num_players:
        raise OptionError(f"--seat must be 0 to {game.num_players - 1}, not {seat}")
    if token is None:
        body = {"seat": seat, "name": name or f"Bot {seat}", "bot": True}
        token = str(_http(f"{api}/join", body)["token"])
    agent = ExternalAgent("cmd:" + shlex.join(program), game, 0, limits, table=table_id)
    ws_scheme = "wss" if parts.scheme == "https" else "ws"
    ws_url = f"{ws_scheme}://{parts.netloc}{parts.path.rstrip('/')}/ws/{quote(table_id, safe='')}"
    answered: set[int] = set()
    told: set[int] = set()
    try:
        agent.start(seat)
        with ws_connect(ws_url, open_timeout=30, max_size=2**22) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            while True:
                message = json.loads(ws.recv())
                kind = message.get("type")
                if kind == "error":
                    if message.get("code") in ("bad_token", "not_found"):
                        raise OptionError(f"the server refused: {message.get('message')}")
                    continue  # a stale state or a late move: the next state says what to do
                if kind != "state" or message.get("you") != seat:
                    continue
                table, view = message["table"], message["view"]
                if view is not None and view["is_over"] and table["deal_number"] not in told:
                    told.add(table["deal_number"])
                    agent.record_deal(view["returns"])
                    agent.tell(
                        {
                            "type": "deal_end",
                            "deal": table["deal_number"],
                            "returns": view["returns"],
                            "view": view,
                        }
                    )
                if table["status"] == "finished":
                    agent.close()
                    console.print(f"match over at table {table_id}: totals {table['totals']}")
                    return 0
                state_id = message["state_id"]
                mine = view is not None and view["current_player"] == seat and view["legal"]
                if table["status"] == "playing" and mine and state_id not in answered:
                    answered.add(state_id)
                    moves = [m["m"] for m in view["legal"]]
                    move = agent.ask(seat, moves, view)
                    ws.send(json.dumps({"type": "move", "move": move, "state_id": state_id}))
    except BotForfeit as forfeit:
        console.print(f"shedkit bot connect: {forfeit}; the seat is given up", markup=False)
        try:
            _http(f"{api}/leave", {"token": token})
        except OptionError as err:
            console.print(f"(leaving the seat failed: {err})", markup=False)
        return 1
    except ConnectionClosed:
        console.print(f"the server closed the connection to table {table_id}", markup=False)
        return 1
    finally:
        agent.close("disconnected")  # no-op once the match's end was said


def run_bot(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Run the ``bot`` subcommand; errors are `ShedkitError`s."""
    if args.bot_command != "connect":
        raise OptionError("say what to do: shedkit bot connect URL --table ID --seat N -- PROGRAM")
    program = list(args.program)
    if not program:
        raise OptionError("name the bot program after --, e.g. -- node examples/bots/js/bot.js")
    limits = BotLimits(args.move_time, args.startup_time, args.bot_logs)
    return connect(args.url, args.table, args.seat, program, args.name, args.token, limits, out=err)
