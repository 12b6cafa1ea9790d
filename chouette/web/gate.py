"""The render gate: how many page drawings a worker process runs at once, and commands first.

After a push every phone and screen of a table fetches its fragment at the same moment: eight
phones and ten screens per command, a festival's worth of threads all wanting the processor.
Python runs one thread of a process at a time, so a command arriving then would wait its turn
behind every one of them, and the organizer's tap would take a second. The gate lets a few
drawings run at once (``RENDER_CONCURRENCY``, per process) and queues the rest, in the order
they came (``Turns``), before they do any work; commands (every POST), streams and static
files never wait at it.

Table commands go first: while one (a POST of ``FIRST``'s blueprints) is being handled in the
process, no drawing starts, and a drawing already under way stops at its next *checkpoint*
(``checkpoint()``: after its loading, between a screen's tables, before its template) until the
commands are answered. The command then has the interpreter nearly to itself; the drawings it
holds back are the ones its own push is about to ask for anyway. Commands are few (a tap every
few seconds per table), so the drawings never starve, and a checkpoint waits at most
``CHECKPOINT_SECONDS``.

The drawings run in the gate's own threads (``RENDER_CONCURRENCY`` of them per process), whose
scheduling priority is ``RENDER_NICE`` lower (10 by default; Linux sets it per thread): when
every core is busy, the machine runs a command, a stream or the database before a page, in this
worker process or in another one; an idle machine draws the pages at full speed. Python's
interpreter lock cannot see across processes, the operating system's scheduler does. Within
a process the drawing stops at its next piece for the command (``GatedTemplate``).

The gate stands in front of Flask (WSGI middleware): a queued drawing holds nothing, neither
a request context nor a database connection, so however many wait, the commands always find
a connection in the pool.
"""

from __future__ import annotations

import collections
import contextlib
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from flask import Flask, current_app, has_request_context, request
from jinja2 import Template
from werkzeug.exceptions import HTTPException

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

#: Requests that never wait at the gate: long-lived streams, files, the health check.
UNGATED = frozenset({"static", "health", "favicon", "streams.table", "streams.display"})
#: Methods whose requests only draw (the writers, POST, never wait).
DRAWING = frozenset({"GET", "HEAD"})
#: The blueprints whose posts are the table's commands, the ones that go first (a sign-in or a
#: form elsewhere is a POST too, but never waited for: a crowd signing in must not stop pages).
FIRST = frozenset({"play"})
#: How many drawings a process runs at once unless RENDER_CONCURRENCY says otherwise: one,
#: as the interpreter runs one thread at a time anyway (two at once only took turns with each
#: other and with the commands: docs/performance.md).
DEFAULT_CONCURRENCY = 1
#: How much lower than the commands' the page drawings' scheduling priority is, unless
#: RENDER_NICE says otherwise (0: drawn in the request's own thread, at its priority).
DEFAULT_NICE = 10
#: The longest a drawing waits for commands at a checkpoint (seconds): a command that hangs
#: (a database lock) must not hold every page of the process with it.
CHECKPOINT_SECONDS = 0.25
#: The longest a stream waits for a drawing another stream is making (``Once``, seconds).
ONCE_SECONDS = 2.0
#: Where the middleware notes what a request is to the gate ("drawing", "command" or None).
ENVIRON_KEY = "chouette.gate"


class Turns:
    """``count`` slots taken in the order they were asked for: a slot let go goes to the one
    who waited longest. (A semaphore lets whoever asks at the moment a slot is free take it:
    under a steady flow of fetches a screen's stream could wait behind newcomers for good.)"""

    def __init__(self, count: int) -> None:
        self._free = count
        self._lock = threading.Lock()
        self._waiting: collections.deque[threading.Event] = collections.deque()

    def acquire(self) -> None:
        """Take a slot: at once if one is free and nobody waits, else in turn."""
        with self._lock:
            if self._free and not self._waiting:
                self._free -= 1
                return
            turn = threading.Event()
            self._waiting.append(turn)
        turn.wait()  # the slot is handed over by ``release``

    def release(self) -> None:
        """Let go of a slot: to the longest waiting, or free."""
        with self._lock:
            if self._waiting:
                self._waiting.popleft().set()
            else:
                self._free += 1

    def waiting(self) -> int:
        """How many wait for a slot."""
        with self._lock:
            return len(self._waiting)

    def free(self) -> int:
        """How many slots are free."""
        with self._lock:
            return self._free


class Gate:
    """A bounded number of drawings at once in this process, and none while a command runs."""

    def __init__(self, concurrency: int, nice: int = 0) -> None:
        self.concurrency = concurrency
        #: The drawings' slots, taken in turn.
        self.slots = Turns(concurrency)
        self._quiet = threading.Condition()
        self._commands = 0
        #: The drawings' own threads, at a lower priority (``nice``), or None: drawn in the
        #: request's thread
        self.drawers = (ThreadPoolExecutor(concurrency, "chouette-drawing", _lower_priority, (nice,))
                        if nice > 0 and hasattr(os, "setpriority") else None)

    def enter_drawing(self) -> None:
        """Wait for a slot (in turn), then for the commands under way (at most CHECKPOINT_SECONDS)."""
        self.slots.acquire()
        self.wait_for_commands()

    def leave_drawing(self) -> None:
        self.slots.release()

    def enter_command(self) -> None:
        with self._quiet:
            self._commands += 1

    def leave_command(self) -> None:
        with self._quiet:
            self._commands -= 1
            if self._commands == 0:
                self._quiet.notify_all()

    def commands(self) -> int:
        """How many commands the process is handling now."""
        with self._quiet:
            return self._commands

    def wait_for_commands(self) -> None:
        """Until no command is under way in the process (at most CHECKPOINT_SECONDS)."""
        if self._commands:
            with self._quiet:
                self._quiet.wait_for(lambda: self._commands == 0, timeout=CHECKPOINT_SECONDS)

    def piece_by_piece(self, pieces: Iterable[str]) -> Iterator[str]:
        """A template's pieces as Jinja yields them, each a checkpoint (``GatedTemplate``)."""
        for piece in pieces:
            if self._commands:
                self.wait_for_commands()
            yield piece


class GateMiddleware:
    """The gate in front of the Flask app: each request is classed by its route."""

    def __init__(self, app: Flask, wsgi_app: WSGIApp, gate: Gate) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.gate = gate

    def kind(self, environ: dict[str, Any]) -> str | None:
        """"drawing", "command" or None (never waits, never counted)."""
        method = environ.get("REQUEST_METHOD", "GET")
        try:
            endpoint, _values = self.app.url_map.bind_to_environ(environ).match(method=method)
        except HTTPException:  # no such page (404, 405): Flask answers it at once
            return None
        if endpoint in UNGATED:
            return None
        if method in DRAWING:
            return "drawing"
        return "command" if endpoint.partition(".")[0] in FIRST else None

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        kind = self.kind(environ)
        environ[ENVIRON_KEY] = kind
        if kind == "drawing":
            self.gate.enter_drawing()
            try:
                if self.gate.drawers is not None:
                    return self.gate.drawers.submit(self.wsgi_app, environ, start_response).result()
                return self.wsgi_app(environ, start_response)
            finally:
                self.gate.leave_drawing()
        if kind == "command":
            self.gate.enter_command()
            try:
                return self.wsgi_app(environ, start_response)
            finally:
                self.gate.leave_command()
        return self.wsgi_app(environ, start_response)


def init_app(app: Flask) -> None:
    """Install the gate in front of ``app`` (off when RENDER_CONCURRENCY is 0)."""
    concurrency = int(app.config.get("RENDER_CONCURRENCY", DEFAULT_CONCURRENCY))
    if concurrency <= 0:
        return
    found = Gate(concurrency, int(app.config.get("RENDER_NICE", DEFAULT_NICE)))
    app.extensions["render_gate"] = found
    app.jinja_env.template_class = GatedTemplate
    app.wsgi_app = GateMiddleware(app, app.wsgi_app, found)  # type: ignore[method-assign]


def gate() -> Gate | None:
    """This app's gate, if it has one."""
    found = current_app.extensions.get("render_gate")
    return found if isinstance(found, Gate) else None


@contextmanager
def drawing() -> Iterator[None]:
    """A drawing made inside a request the gate let through unclassed (a push stream drawing
    the fragment it sends): it takes its turn among the process's drawings, goes after the
    commands and stops at the checkpoints, like a page fetched."""
    found = gate()
    environ = request.environ
    kind = environ.get(ENVIRON_KEY)
    if found is not None:
        found.enter_drawing()
    environ[ENVIRON_KEY] = "drawing"
    try:
        yield
    finally:
        environ[ENVIRON_KEY] = kind
        if found is not None:
            found.leave_drawing()


class Once:
    """One drawing per key at a time: the first to ask for a key draws it, at the gate
    (``drawing``); those who ask for the same key meanwhile wait for that drawing instead of
    queueing at the gate behind it to find it made (after a move, every screen's stream of
    the process asks for the same drawing at the same moment)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[Any, threading.Event] = {}

    def get(self, key: Any, made: Callable[[], Any], make: Callable[[], Any],
            wait: float = ONCE_SECONDS) -> Any:
        """``made()`` when it is there; else ``make()`` at the gate, or, while another thread
        is making ``key``, what ``made()`` gives once it has (None if it failed or took longer
        than ``wait`` seconds: the caller then sends something cheaper)."""
        found = made()
        if found is not None:
            return found
        with self._lock:
            pending = self._pending.get(key)
            mine = pending is None
            if pending is None:
                pending = self._pending[key] = threading.Event()
        if not mine:
            pending.wait(wait)
            return made()
        try:
            with drawing():
                return make()
        finally:
            with self._lock:
                self._pending.pop(key, None)
            pending.set()


def _lower_priority(nice: int) -> None:
    """The calling thread's scheduling priority lowered by ``nice`` (Linux: per thread; a
    process's priority is at most 19 lower than the default)."""
    thread = threading.get_native_id()
    with contextlib.suppress(OSError):  # not allowed here: drawn at the process's priority
        os.setpriority(os.PRIO_PROCESS, thread, min(os.getpriority(os.PRIO_PROCESS, thread) + nice, 19))


def _drawing_gate() -> Gate | None:
    """The process's gate when the current request is a drawing, else None."""
    if has_request_context() and request.environ.get(ENVIRON_KEY) == "drawing":
        return gate()
    return None


class GatedTemplate(Template):
    """A template whose drawing, in a drawing request, is a checkpoint between every two of
    its pieces (Jinja draws a template piece by piece; the pieces are joined as ``render``
    joins them). A command that arrives while a page is drawn gets the interpreter back
    each time its database answers, instead of waiting for the whole template: a command
    makes some ten round trips to the database, and each would wait for the drawing thread
    to be made to let go (the interpreter's switch interval, 5 ms)."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        found = _drawing_gate()
        if found is None:
            return super().render(*args, **kwargs)
        context = self.new_context(dict(*args, **kwargs))
        try:
            return self.environment.concat(
                found.piece_by_piece(self.root_render_func(context)))
        except Exception:  # noqa: BLE001 - Jinja re-raises it with the template's lines
            self.environment.handle_exception()


def checkpoint() -> None:
    """Where a drawing lets the commands of its process finish first (a command, or a request
    the gate did not class as a drawing, goes straight on)."""
    if has_request_context() and request.environ.get(ENVIRON_KEY) == "drawing":
        found = gate()
        if found is not None:
            found.wait_for_commands()
