"""Bots in any language: a program that speaks the bot protocol on stdin and stdout.

``cmd:./mybot --level 3`` names such a bot wherever an agent name goes (the
arena, ``shedkit play --bots``). The program is started once per seat and
kept running across deals; it gets ``hello``, then an ``act`` per decision
and a ``deal_end`` per deal, and ``match_end`` before its stdin is closed
([`shedkit.protocol`][shedkit.protocol], ``docs/bot-protocol.md``). Its stderr goes to a log
file of its own.

A bot that does not start or answer ``hello`` within the start-up limit,
does not answer a move within the move limit, exits, writes a line that is
not the JSON asked for (or one longer than `MAX_LINE`),
writes when nobody asked, or answers an illegal move *forfeits*:
`BotForfeit` is raised with the reason, and the process (with anything
it started, its process group) is killed. The next deal starts it afresh.

The process group is the bot's own, so a Ctrl-C at the terminal reaches
shedkit, which then closes the bot; on Linux the bot is also killed if the
process that started it dies without closing it. Pipes are read with
``select``: this needs a POSIX system.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final

from shedkit.core.errors import OptionError, ShedkitError
from shedkit.protocol import (
    MAX_LINE,
    ProtocolError,
    act_message,
    deal_end_message,
    hello_message,
    match_end_message,
    read_answer,
    read_ready,
)
from shedkit.protocol.views import Json

__all__ = [
    "PREFIX",
    "BotForfeit",
    "BotLimits",
    "BotProcess",
    "ExternalAgent",
    "is_external",
    "parse_command",
]

#: Agent names that start with this run a program: ``cmd:COMMAND LINE``.
PREFIX: Final = "cmd:"
#: Failed starts in a row after which a bot is not started again in this process.
MAX_FAILED_STARTS: Final = 3


def is_external(name: str) -> bool:
    """True if the agent name ``name`` runs a program (``cmd:...``)."""
    return name.startswith(PREFIX)


def parse_command(name: str) -> list[str]:
    """The argv of a ``cmd:`` agent name; an `OptionError` if it names no program."""
    text = name[len(PREFIX) :] if is_external(name) else name
    try:
        argv = shlex.split(text)
    except ValueError as err:
        raise OptionError(f"cannot read the bot command {text!r}: {err}") from None
    if not argv:
        raise OptionError("a cmd: agent names a program, e.g. cmd:./mybot or cmd:node bot.js")
    program = argv[0]
    found = shutil.which(program) if os.sep not in program else program
    if found is None or not os.path.isfile(found):
        raise OptionError(f"bot program {program!r} not found (in {name!r})")
    return argv


@dataclass(frozen=True)
class BotLimits:
    """Time limits of a bot program and where its stderr goes."""

    #: Seconds to answer one ``act``.
    move_time: float = 5.0
    #: Seconds from the start of the program to its ``ready``.
    startup_time: float = 10.0
    #: Folder of the bots' stderr logs, one file per started process.
    log_dir: str = "bot-logs"

    def __post_init__(self) -> None:
        for what, value in (("move time", self.move_time), ("start-up time", self.startup_time)):
            if not isinstance(value, (int, float)) or not 0 < value <= 3600:
                raise OptionError(f"the bot {what} is 0…3600 seconds, not {value!r}")


class BotForfeit(ShedkitError):
    """A bot program broke the protocol or its limits; it has been stopped.

    ``code`` is one word (``start_failed``, ``timeout``, ``crashed``, ``bad_output``,
    ``illegal_move``, ``flood``); ``reason`` is ``code: what happened``.
    """

    def __init__(self, agent: str, seat: int | None, code: str, detail: str, log: str) -> None:
        self.agent, self.seat, self.code, self.detail, self.log = agent, seat, code, detail, log
        self.reason = f"{code}: {detail}"
        where = "" if seat is None else f" (seat {seat})"
        super().__init__(f"bot {agent!r}{where} forfeits: {self.reason}; its stderr is in {log}")


class _Broken(Exception):
    """A bot process failed; ``code`` says how (the forfeit's code)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


def _die_with_parent() -> None:
    """In the child before exec: the kernel kills the bot when its parent dies (Linux)."""
    if _PRCTL is not None:
        _PRCTL(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _load_prctl() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL: Final = _load_prctl()
_LOG_NUMBERS = itertools.count(1)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:40] or "bot"


class BotProcess:
    """One running bot program: JSON lines in and out with deadlines, stderr to a log file."""

    def __init__(self, argv: Sequence[str], log_path: Path) -> None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        self.log_path = log_path
        self._log: IO[bytes] = open(log_path, "ab")  # noqa: SIM115 (closed in close())
        self._buffer = bytearray()
        try:
            self.proc = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
                start_new_session=True,
                preexec_fn=_die_with_parent if _PRCTL is not None else None,
            )
        except OSError as err:
            self._log.close()
            raise _Broken("start_failed", f"cannot start {argv[0]!r}: {err.strerror}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in, self._out = self.proc.stdin, self.proc.stdout
        os.set_blocking(self._in.fileno(), False)
        os.set_blocking(self._out.fileno(), False)
        self.closed = False

    @property
    def pid(self) -> int:
        """The program's process id."""
        return self.proc.pid

    def _exit_text(self) -> str:
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "it closed its output"
        if code < 0:
            return f"it was killed by signal {-code}"
        return f"it exited with status {code}"

    def send(self, message: Json, deadline: float) -> None:
        """Write one message line before ``deadline`` (``time.monotonic``)."""
        data = memoryview((json.dumps(message, separators=(",", ":")) + "\n").encode())
        fd = self._in.fileno()
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Broken("timeout", "it did not read its input in time")
            _, ready, _ = select.select([], [fd], [], left)
            if not ready:
                continue
            try:
                written = os.write(fd, data)
            except BrokenPipeError:
                raise _Broken("crashed", self._exit_text()) from None
            except BlockingIOError:
                continue
            data = data[written:]

    def _fill(self, timeout: float) -> bool:
        """Read what is there within ``timeout``; False at the end of the output."""
        fd = self._out.fileno()
        ready, _, _ = select.select([fd], [], [], max(0.0, timeout))
        if not ready:
            return True
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        self._buffer += chunk
        return True

    def read_line(self, deadline: float, limit: float) -> str:
        """The next line the program writes, before ``deadline``; ``limit`` is for messages."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                raw = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                if len(raw) > MAX_LINE:
                    raise _Broken("flood", f"it wrote a line of {len(raw)} bytes")
                try:
                    return raw.decode("utf-8").rstrip("\r")
                except UnicodeDecodeError:
                    raise _Broken("bad_output", "it wrote a line that is not UTF-8") from None
            if len(self._buffer) > MAX_LINE:
                raise _Broken("flood", f"it wrote over {MAX_LINE} bytes without a newline")
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Broken("timeout", f"no answer within {limit:g} s")
            if not self._fill(left):
                raise _Broken("crashed", self._exit_text())

    def unasked(self) -> int:
        """Bytes the program wrote that no request asked for (0 for none)."""
        with contextlib.suppress(OSError):
            self._fill(0.0)
        return len(self._buffer)

    def close(self, farewell: Json | None = None, grace: float = 1.0) -> None:
        """Say ``farewell``, close its input, give it ``grace`` seconds, then kill its group."""
        if self.closed:
            return
        self.closed = True
        if farewell is not None and self.proc.poll() is None:
            with contextlib.suppress(_Broken, OSError):
                self.send(farewell, time.monotonic() + grace)
        with contextlib.suppress(OSError):
            self._in.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=grace if farewell is not None else 0.0)
        self.kill()

    def kill(self) -> None:
        """Kill the program and every process it started (its process group); reap it."""
        self.closed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5.0)
        for stream in (self._in, self._out, self._log):
            with contextlib.suppress(OSError):
                stream.close()


class ExternalAgent:
    """An agent played by a program over the bot protocol (``cmd:COMMAND``) in one seat.

    The program starts on the first decision (or `start`) and runs until
    `close`; a protocol or time fault raises `BotForfeit` and kills it,
    and the next decision starts it again.
    """

    def __init__(
        self,
        name: str,
        game: Any,
        seed: int = 0,
        limits: BotLimits | None = None,
        table: str | None = None,
    ) -> None:
        self.name = name
        self.argv = parse_command(name)
        self.game = game
        self.seed = seed
        self.limits = limits or BotLimits()
        self.table = table
        self.seat: int | None = None
        self.process: BotProcess | None = None
        self.bot_name: str | None = None
        self.requests = 0
        self.failed_starts = 0
        self.starts = 0
        self.deals = 0
        self.totals: list[int] = [0] * game.num_players
        self._lock = threading.Lock()

    def _log_path(self, seat: int) -> Path:
        number = next(_LOG_NUMBERS)
        stem = f"{_slug(' '.join(self.argv))}-seat{seat}-{os.getpid()}-{number}"
        return Path(self.limits.log_dir) / f"{stem}.log"

    def _forfeit(self, code: str, detail: str) -> BotForfeit:
        log = str(self.process.log_path) if self.process is not None else self.limits.log_dir
        if self.process is not None:
            self.process.kill()
            self.process = None
        return BotForfeit(self.name, self.seat, code, detail, log)

    def start(self, seat: int) -> None:
        """Start the program for ``seat`` and wait for its ``ready`` (the start-up limit)."""
        if self.process is not None and self.seat == seat and self.process.proc.poll() is None:
            return
        self.stop()
        self.seat = seat
        if self.failed_starts >= MAX_FAILED_STARTS:
            raise BotForfeit(
                self.name,
                seat,
                "start_failed",
                f"not started again after {MAX_FAILED_STARTS} failed starts",
                self.limits.log_dir,
            )
        limit = self.limits.startup_time
        try:
            self.process = BotProcess(self.argv, self._log_path(seat))
            self.starts += 1
            deadline = time.monotonic() + limit
            hello = hello_message(self.game, seat, self.seed, self.limits.move_time, self.table)
            self.process.send(hello, deadline)
            ready = read_ready(self.process.read_line(deadline, limit))
        except _Broken as err:
            self.failed_starts += 1
            detail = f"{err.detail} (starting)" if err.code != "start_failed" else err.detail
            raise self._forfeit("start_failed", detail) from None
        except ProtocolError as err:
            self.failed_starts += 1
            raise self._forfeit("start_failed", str(err)) from None
        self.failed_starts = 0
        name = ready.get("name")
        self.bot_name = name if isinstance(name, str) else None

    def act(self, view: Any) -> Any:
        """Ask the program for a move of ``view.legal_moves``; `BotForfeit` on a fault."""
        message = act_message(self.game.name, view, 0)
        text = self.ask(view.seat, message["moves"], message["view"])
        return view.legal_moves[message["moves"].index(text)]

    def ask(self, seat: int, moves: Sequence[str], view: Json) -> str:
        """Send ``act`` with ``moves`` and the view JSON ``view``; the move string answered.

        The web table bridge (``shedkit bot connect``) calls this with the view JSON the
        server sent; `act` with a view it serialises.
        """
        with self._lock:
            self.start(seat)
            process = self.process
            assert process is not None
            extra = process.unasked()
            if extra:
                raise self._forfeit("flood", f"it wrote {extra} bytes nobody asked for")
            self.requests += 1
            message = {"type": "act", "id": self.requests, "moves": list(moves), "view": view}
            limit = self.limits.move_time
            deadline = time.monotonic() + limit
            try:
                process.send(message, deadline)
                return read_answer(process.read_line(deadline, limit), message)
            except _Broken as err:
                raise self._forfeit(err.code, err.detail) from None
            except ProtocolError as err:
                code = "illegal_move" if "illegal move" in str(err) else "bad_output"
                raise self._forfeit(code, str(err)) from None

    def deal_end(
        self,
        view: Any,
        deal: int,
        returns: Sequence[int] | None,
        forfeit: Json | None = None,
    ) -> None:
        """Tell the program a deal it sat in is over (``returns`` ``None``: a forfeit ended it)."""
        if returns is not None:
            self.record_deal(returns)
        if self.process is not None and not self.process.closed:
            message = deal_end_message(self.game.name, view, deal, returns or [])
            if returns is None:
                message["returns"] = None
                message["forfeit"] = forfeit
            self.tell(message)

    def tell(self, message: Json) -> None:
        """Send a message that needs no answer (``deal_end``); a dead program is dropped."""
        with self._lock:
            process = self.process
            if process is None or process.closed:
                return
            try:
                process.send(message, time.monotonic() + self.limits.move_time)
            except (_Broken, OSError):
                # The deal is scored already; a dead bot is restarted at its next decision.
                process.kill()
                self.process = None

    def record_deal(self, returns: Sequence[int]) -> None:
        """Count a finished deal's returns into the totals of ``match_end``."""
        self.deals += 1
        self.totals = [t + r for t, r in zip(self.totals, returns, strict=True)]

    def stop(self, reason: str = "finished") -> None:
        """Send ``match_end`` and close the program (killed if it does not exit in a second)."""
        process, self.process = self.process, None
        if process is not None:
            process.close(match_end_message(self.deals, self.totals, reason))

    def close(self, reason: str = "finished") -> None:
        """Stop the program for good (the same as `stop`, under the lock)."""
        with self._lock:
            self.stop(reason)
