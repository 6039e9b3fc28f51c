"""Faults for the cluster tests, in the manner of Jepsen: a PostgreSQL server and a Redis of
the suite's own (so that stopping them touches no other test), and a TCP proxy on loopback
between one node and PostgreSQL that the test cuts and heals.

Everything here runs on loopback and cleans up after itself; `Private.start` raises
`Unavailable` when the machine lacks PostgreSQL's or Redis's programs.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["Private", "Proxy", "Unavailable", "free_port"]


class Unavailable(RuntimeError):
    """PostgreSQL's or Redis's programs are not installed here."""


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A loopback port nothing listens on now, below the kernel's ephemeral range.

    A server stopped by a fault is started again on the same port, and a port the kernel
    hands out (to ``--port 0`` servers of the tests running in parallel, or as the source
    port of a connection) could be taken meanwhile; the kernel never hands these out.
    """
    low = _ephemeral_low()
    rng = random.SystemRandom()  # parallel runs must not pick the same ports
    if low > 20_000:
        for _ in range(200):
            port = rng.randrange(20_000, low)
            if _bindable(port):
                return port
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _pg_bin() -> Path:
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    if initdb is None:
        raise Unavailable("PostgreSQL's initdb is not installed")
    return Path(initdb).parent


def _wait(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} did not come up within {timeout:g} s")
        time.sleep(0.05)


def _redis_pong(port: int) -> bool:
    """True if a Redis answers PING on ``port`` (not merely something listening)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class Private:
    """A PostgreSQL server and a Redis server for one test module, each stoppable.

    Their logs are copied to ``logs`` (if given) when they are closed.
    """

    def __init__(self, logs: Path | None = None) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="shedkit-faults-"))
        self.logs = logs
        self.pg_port = free_port()
        self.redis_port = free_port()
        while self.redis_port == self.pg_port:
            self.redis_port = free_port()
        self.redis: subprocess.Popen[bytes] | None = None
        self.pg_bin = Path()
        self.user: str | None = None

    @property
    def pg_url(self) -> str:
        """The URL of the server's ``postgres`` database."""
        return f"postgresql://postgres@127.0.0.1:{self.pg_port}/postgres"

    @property
    def redis_url(self) -> str:
        """The URL of the Redis server's database 0."""
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def start(self) -> None:
        """Make and start both servers."""
        self.pg_bin = _pg_bin()
        if shutil.which("redis-server") is None:
            raise Unavailable("redis-server is not installed")
        data = self.root / "pg"
        data.mkdir()
        if os.geteuid() == 0:
            # PostgreSQL refuses to run as root.
            self.user = "postgres"
            entry = pwd.getpwnam("postgres")
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
            os.chown(data, entry.pw_uid, entry.pw_gid)
        self._pg("initdb", "-D", str(data), "-A", "trust", "-U", "postgres")
        self.start_pg()
        self.start_redis()

    def _pg(self, program: str, *args: str) -> None:
        command = [str(self.pg_bin / program), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        # Not captured: a server started by pg_ctl would hold a captured pipe open for
        # ever, and the call would never return. From the data's parent: the postgres
        # user may not enter the directory the tests run in.
        subprocess.run(
            command,
            check=True,
            cwd=self.root,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=120,
        )

    def start_pg(self) -> None:
        """Start PostgreSQL (fsync off: the test needs no durability from the disk)."""
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.pg_port} -k {self.root / 'pg'} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._pg(
            "pg_ctl", "-D", str(self.root / "pg"), "-l", str(self.root / "pg.log"),
            "-w", "-o", options, "start",
        )  # fmt: skip

    def restart_pg(self) -> None:
        """Restart PostgreSQL: every connection is cut, and it answers again a moment later."""
        self._pg(
            "pg_ctl", "-D", str(self.root / "pg"), "-l", str(self.root / "pg.log"),
            "-m", "fast", "-w", "restart",
        )  # fmt: skip

    def stop_pg(self) -> None:
        """Stop PostgreSQL (if it runs); kill it if pg_ctl cannot."""
        pid_file = self.root / "pg" / "postmaster.pid"
        if not pid_file.exists():
            return
        with contextlib.suppress(subprocess.SubprocessError):
            self._pg("pg_ctl", "-D", str(self.root / "pg"), "-m", "immediate", "-w", "stop")
        # Never leave a server running on a data directory about to be removed; but only
        # ours: a stale pid file may name another process by now.
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid = int(pid_file.read_text().split()[0])
            if str(self.root).encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                os.kill(pid, signal.SIGKILL)

    def start_redis(self) -> None:
        """Start Redis on its port, with nothing kept on disk."""
        log = open(self.root / "redis.log", "ab")  # noqa: SIM115 (the process holds it)
        with log:
            self.redis = subprocess.Popen(
                [
                    "redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--daemonize", "no",
                    "--dir", str(self.root),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        process = self.redis

        def up() -> bool:
            if process.poll() is not None:
                raise RuntimeError(
                    f"redis-server exited ({process.returncode}) on port {self.redis_port}"
                )
            return _redis_pong(self.redis_port)

        _wait(up, "Redis")

    def stop_redis(self) -> None:
        """Kill Redis: its clients see connections refused until `start_redis`."""
        if self.redis is not None and self.redis.poll() is None:
            self.redis.kill()
            self.redis.wait()
        self.redis = None

    def close(self) -> None:
        """Stop both servers, keep their logs, and remove their files."""
        self.stop_redis()
        self.stop_pg()
        if self.logs is not None:
            self.logs.mkdir(parents=True, exist_ok=True)
            for name in ("pg.log", "redis.log"):
                with contextlib.suppress(OSError):
                    shutil.copyfile(self.root / name, self.logs / name)
        shutil.rmtree(self.root, ignore_errors=True)


class Proxy:
    """A TCP proxy on loopback to ``target`` that can be cut (every connection dropped, new
    ones refused) and healed, like a network partition between one node and its database."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self.lock = threading.Lock()
        self.conns: list[socket.socket] = []
        self.listener: socket.socket | None = None
        self.heal()

    def heal(self) -> None:
        """Listen again: new connections go through."""
        with self.lock:
            if self.listener is not None:
                return
            listener = socket.socket()
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", self.port))
            listener.listen(64)
            self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Drop every connection and refuse new ones."""
        with self.lock:
            listener, self.listener = self.listener, None
            conns, self.conns = self.conns, []
        if listener is not None:
            # shutdown first: close alone does not wake a thread blocked in accept.
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            conn.close()

    def close(self) -> None:
        """Cut for good."""
        self.cut()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self.lock:
                if self.listener is not listener:
                    # Cut while this one was connecting: it must not get through.
                    client.close()
                    upstream.close()
                    return
                self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            # Either side ending ends the pair, as a TCP connection through a router does.
            for sock in (src, dst):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
