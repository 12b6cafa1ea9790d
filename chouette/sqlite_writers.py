"""SQLite's writers take turns in a queue, each woken the moment the one before it commits.

Every SQLite transaction that may write begins with ``BEGIN IMMEDIATE`` (``extensions``), and
SQLite has one write lock per database. A writer that finds it taken does not wait for it to be
let go: SQLite's busy handler sleeps and tries again, 1, 2, 5, 10, 15, 20, 25 ... 100 ms apart.
A command that met another table's command (a few milliseconds of writing) could so lose
50-100 ms asleep after the lock was already free; under a festival's load that was most of the
organizers' slowest taps.

Here the writers of one database queue before they ask SQLite: a lock per process (the
threads of a worker), then an ``flock`` on a file beside the database (the workers of the
machine: gunicorn's processes, the command line). Both wake the next waiter as soon as the
holder lets go, which it does when its transaction ends (``commit``, ``rollback``, ``close``
of the connection: ``QueuedConnection``). SQLite's own lock and busy timeout stay as they were:
the queue only decides who asks first, so a writer that does not queue (another program on
the file) is still safe, only slower. A process that dies lets go of its ``flock`` with it.

Readers (``BEGIN DEFERRED``) never queue: in WAL mode they wait for nobody.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
from typing import Any

#: The queue file beside the database: ``<database>-writers``.
SUFFIX = "-writers"


class WriterQueue:
    """The writers of one database file: one at a time on this machine."""

    def __init__(self, database: str) -> None:
        self.path = database + SUFFIX
        self._lock = threading.Lock()
        self._owner: int | None = None
        self._depth = 0
        self._fd: int | None = None
        self._pid = os.getpid()

    def _file(self) -> int:
        """This process's descriptor of the queue file (a forked process opens its own: an
        ``flock`` belongs to the open file, which a fork would share)."""
        if self._fd is None or self._pid != os.getpid():
            # Readable by the app's user only, like the database beside it.
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            os.fchmod(self._fd, 0o600)
            self._pid = os.getpid()
        return self._fd

    def take_turn(self) -> None:
        """Wait until this thread is the machine's only writer of the database (a thread that
        already is, with a second connection, goes on: SQLite's own lock answers it)."""
        me = threading.get_ident()
        if self._owner == me:
            self._depth += 1
            return
        self._lock.acquire()
        try:
            fcntl.flock(self._file(), fcntl.LOCK_EX)
        except BaseException:
            self._lock.release()
            raise
        self._owner, self._depth = me, 1

    def let_go(self) -> None:
        """The transaction is over: wake the next writer."""
        self._depth -= 1
        if self._depth > 0:
            return
        self._owner = None
        try:
            if self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            self._lock.release()


_queues: dict[str, WriterQueue] = {}
_queues_lock = threading.Lock()


def queue_for(database: str) -> WriterQueue | None:
    """The queue of a database file (None in memory: one connection, nobody to queue with)."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    key = os.path.realpath(database)
    with _queues_lock:
        found = _queues.get(key)
        if found is None:
            found = _queues[key] = WriterQueue(key)
        return found


class QueuedConnection(sqlite3.Connection):
    """A SQLite connection that lets go of its turn when its transaction ends.

    ``extensions`` gives it its queue when it connects and makes it take its turn before each
    ``BEGIN IMMEDIATE`` (``extensions._sqlite_on_begin``, for ``services.base.writing()``).
    """

    queue: WriterQueue | None = None
    turn = False

    def take_turn(self) -> None:
        """Queue for the write lock (once per transaction)."""
        if self.queue is not None and not self.turn:
            self.queue.take_turn()
            self.turn = True

    def let_go(self) -> None:
        """Wake the next writer, if this connection had its turn."""
        if self.turn:
            self.turn = False
            if self.queue is not None:
                self.queue.let_go()

    def commit(self) -> None:
        try:
            super().commit()
        finally:
            self.let_go()

    def rollback(self) -> None:
        try:
            super().rollback()
        finally:
            self.let_go()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.let_go()


def connect_args(options: dict[str, Any]) -> dict[str, Any]:
    """``connect_args`` for the engine with the queued connection class added."""
    return {**(options.get("connect_args") or {}), "factory": QueuedConnection}


def begin_immediate(cursor: sqlite3.Cursor) -> None:
    """``BEGIN IMMEDIATE`` on a raw cursor, after its connection's turn in the queue (end the
    transaction with the connection's ``commit()`` or ``rollback()``, which let go of it)."""
    connection = cursor.connection
    queued = connection if isinstance(connection, QueuedConnection) else None
    if queued is not None:
        queued.take_turn()
    try:
        cursor.execute("BEGIN IMMEDIATE")
    except BaseException:
        if queued is not None:
            queued.let_go()
        raise
