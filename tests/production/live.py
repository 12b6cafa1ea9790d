"""A real gunicorn on 127.0.0.1 and a small HTTP client that signs in and posts table commands
the way the live table page does (htmx, CSRF header, the seq the page was rendered at).

Used by the worker-kill test and by ``benchmarks/load.py``. Standard library only.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Self

ROOT = Path(__file__).resolve().parents[2]
SEQ = re.compile(rb'data-seq="(\d+)"')  # the live table's root (its forms send it: hx-vals)
CSRF = re.compile(rb'<meta name="csrf-token" content="([^"]+)"')
FORM_CSRF = re.compile(rb'name="csrf_token" (?:type="hidden" )?value="([^"]+)"')


def free_port() -> int:
    """A port the OS says is free on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Gunicorn:
    """``gunicorn 'app:create_app()'`` from the repository's root, so with its gunicorn.conf.py
    (threaded workers), on a SQLite file as in production; ``extra_env={"DATABASE_URL": ...}``
    puts it on another database (several of them make several app nodes)."""

    def __init__(self, database: Path, *, workers: int = 2, log: Path | None = None,
                 extra_env: dict[str, str] | None = None, access_log: Path | None = None) -> None:
        self.database = database
        self.access_log = access_log
        self.workers = workers
        self.port = free_port()
        self.log = log or database.with_suffix(".gunicorn.log")
        self.extra_env = extra_env or {}
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> Self:
        """Start the server and wait until ``/health`` answers."""
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{self.database}", "SECRET_KEY": "production-tests",
               "SESSION_COOKIE_SECURE": "0", **self.extra_env}
        command = [sys.executable, "-m", "gunicorn", "--workers", str(self.workers),
                   "--bind", f"127.0.0.1:{self.port}", "--no-control-socket",
                   "--graceful-timeout", "2", "--timeout", "30", "app:create_app()"]
        if self.access_log is not None:  # method, path, status, server time in microseconds
            command[-1:-1] = ["--access-logfile", str(self.access_log),
                              "--access-logformat", "%(m)s %(U)s %(s)s %(D)s"]
        handle = self.log.open("ab")
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=handle, stderr=handle,
                                        start_new_session=True)
        handle.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=2) as response:
                    if response.status == 200 and len(self.worker_pids()) == self.workers:
                        return self
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"gunicorn did not start: {self.log.read_text()[-2000:]}")

    def worker_pids(self) -> list[int]:
        """The worker processes the master runs now."""
        assert self.process is not None
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(pid) for pid in children.read_text().split()]
        except FileNotFoundError:
            return []

    def kill_worker(self, pid: int) -> None:
        """SIGKILL one worker: no cleanup, no rollback, the process is simply gone."""
        os.kill(pid, signal.SIGKILL)

    def stop(self) -> None:
        """Stop the master and its workers (SIGTERM, then SIGKILL if they linger)."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class ConnectionCut(ConnectionError):
    """The connection failed or the answer was cut short (a killed worker, a reset, a timeout).

    An ``OSError``, so ``except OSError`` catches every transport failure, including those that
    ``http.client`` raises outside ``OSError`` (``IncompleteRead``, ``BadStatusLine``).
    """


class Client:
    """One browser: its own cookies, signing in through the real form, htmx-style posts."""

    def __init__(self, base_url: str, timeout: float = 10) -> None:
        self.base_url = base_url
        self.timeout = timeout
        self.csrf = ""
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def request(self, method: str, path: str, data: dict[str, Any] | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, bytes, float]:
        """One request: status, body and seconds taken; HTTP errors are answers, not raised.

        Connection failures and answers cut short (a killed worker) raise ``ConnectionCut``.
        """
        body = urllib.parse.urlencode(data or {}, doseq=True).encode() if data is not None else None
        request = urllib.request.Request(self.base_url + path, data=body, method=method, headers=headers or {})
        started = time.perf_counter()
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                content = response.read()
                return response.status, content, time.perf_counter() - started
        except urllib.error.HTTPError as error:
            try:
                content = error.read()
            except (OSError, http.client.HTTPException) as cut:
                raise ConnectionCut(f"{method} {path}: the error page was cut short: {cut!r}") from cut
            return error.code, content, time.perf_counter() - started
        except (OSError, http.client.HTTPException) as error:
            raise ConnectionCut(f"{method} {path}: {error!r}") from error

    def sign_in(self, username: str, password: str, page: str = "/") -> None:
        """Sign in through the form, then keep the CSRF token of ``page`` (the session's)."""
        status, html, _ = self.request("GET", "/auth/login")
        match = FORM_CSRF.search(html)
        data = {"username": username, "password": password}
        if match:
            data["csrf_token"] = match.group(1).decode()
        status, html, _ = self.request("POST", "/auth/login", data)
        assert status == 200, f"sign-in answered {status}"
        status, html, _ = self.request("GET", page)
        match = CSRF.search(html)
        assert status == 200 and match, f"no CSRF token on {page} ({status})"
        self.csrf = match.group(1).decode()

    def htmx(self, method: str, path: str, data: dict[str, Any] | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, bytes, float]:
        """A request as htmx makes it (fragment answers, the CSRF header)."""
        return self.request(method, path, data, {"HX-Request": "true", "X-CSRFToken": self.csrf, **(headers or {})})


def seq_in(html: bytes) -> int | None:
    """The seq a live table fragment was rendered at."""
    match = SEQ.search(html)
    return int(match.group(1)) if match else None


def command_form(table_id: int, event: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The live table's endpoint and form fields for one event of the log format."""
    kind = event["type"]
    base = f"/tables/{table_id}"
    if kind == "result":
        return f"{base}/result", {"winner": event["winner"], "kind": event["kind"]}
    if kind == "double":
        if event["by"] == "box":
            return f"{base}/double", {"by": "box", "cubes": list(event.get("cubes") or [])}
        return f"{base}/double", {"by": event["by"]}
    if kind in ("take", "drop", "beaver", "raccoon"):
        return f"{base}/answer", {"answer": kind, "cube": event["cube"]}
    if kind == "partner":
        return f"{base}/partner", {"answer": "accept" if event["accept"] else "decline", "player": event["player"]}
    if kind == "partner_draw":
        return f"{base}/partner", {"answer": "draw"}
    if kind == "extra":
        return f"{base}/extra", {"giver": event["from"], "taker": event["to"]}
    if kind == "undo":
        return f"{base}/undo", {}
    if kind == "join":
        return f"{base}/join", {"player": event["player"]}
    raise ValueError(f"no form for {event}")
