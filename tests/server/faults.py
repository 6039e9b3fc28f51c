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
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

__all__ = ["Private", "Proxy", "Unavailable", "free_port"]


class Unavailable(RuntimeError):
    """PostgreSQL's or Redis's programs are not installed here."""


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _pg_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    if initdb is None:
        raise Unavailable("PostgreSQL's initdb is not installed")
    return Path(initdb).parent


def _wait(check: Any, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} did not come up")
        time.sleep(0.05)


def _answers(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


class Private:
    """A PostgreSQL server and a Redis server for one test module, each stoppable."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="shedkit-faults-"))
        self.pg_port = free_port()
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
        # ever, and the call would never return.
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

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
        """Stop PostgreSQL (if it runs)."""
        with contextlib.suppress(subprocess.CalledProcessError):
            self._pg("pg_ctl", "-D", str(self.root / "pg"), "-m", "immediate", "-w", "stop")

    def start_redis(self) -> None:
        """Start Redis on its port, with nothing kept on disk."""
        self.redis = subprocess.Popen(
            [
                "redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", str(self.root),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        _wait(lambda: _answers(self.redis_port), "Redis")

    def stop_redis(self) -> None:
        """Kill Redis: its clients see connections refused until `start_redis`."""
        if self.redis is not None and self.redis.poll() is None:
            self.redis.kill()
            self.redis.wait()
        self.redis = None

    def close(self) -> None:
        """Stop both servers and remove their files."""
        self.stop_redis()
        self.stop_pg()
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
        self.closed = False
        self.heal()

    def heal(self) -> None:
        """Listen again: new connections go through."""
        with self.lock:
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
            listener.close()
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            conn.close()

    def close(self) -> None:
        """Cut for good."""
        self.closed = True
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
            for sock in (src, dst):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
