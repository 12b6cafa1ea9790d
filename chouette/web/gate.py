"""The render gate: how many page drawings a worker process runs at once.

After a push every phone and screen of a table fetches its fragment at the same moment: eight
phones and ten screens per command, a festival's worth of threads all wanting the processor.
Python runs one thread of a process at a time, so a command arriving then would wait its turn
behind every one of them, and the organizer's tap would take a second. The gate lets a few
drawings run at once (``RENDER_CONCURRENCY``, per process) and queues the rest before they do
any work; commands (every POST), streams and static files never wait at it. The queue costs a
fetch what it would have lost to the crowd anyway; the command that caused it does not wait.
"""

from __future__ import annotations

import threading

from flask import Flask, current_app, g, request

#: Requests that never wait at the gate: long-lived streams, files, the health check.
UNGATED = frozenset({"static", "health", "favicon", "streams.table", "streams.display"})
#: Methods whose requests only draw (the writers, POST, never wait).
DRAWING = frozenset({"GET", "HEAD"})
#: How many drawings a process runs at once unless RENDER_CONCURRENCY says otherwise.
DEFAULT_CONCURRENCY = 2


class Gate:
    """A bounded number of drawings at once in this process."""

    def __init__(self, concurrency: int) -> None:
        self.concurrency = concurrency
        self._slots = threading.BoundedSemaphore(concurrency)

    def enter(self) -> None:
        """Wait for a slot when this request draws a page (before it loads anything)."""
        if request.method in DRAWING and request.endpoint not in UNGATED:
            self._slots.acquire()
            g.render_gate = True

    def leave(self, _error: BaseException | None = None) -> None:
        """Give the slot back once the request is answered (or failed)."""
        if g.pop("render_gate", False):
            self._slots.release()


def init_app(app: Flask) -> None:
    """Install the gate (off when RENDER_CONCURRENCY is 0)."""
    concurrency = int(app.config.get("RENDER_CONCURRENCY", DEFAULT_CONCURRENCY))
    if concurrency <= 0:
        return
    gate = Gate(concurrency)
    app.extensions["render_gate"] = gate
    app.before_request(gate.enter)
    app.teardown_request(gate.leave)


def gate() -> Gate | None:
    """This app's gate, if it has one."""
    found = current_app.extensions.get("render_gate")
    return found if isinstance(found, Gate) else None
