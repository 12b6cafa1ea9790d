"""SQLite's writers take turns (chouette.sqlite_writers): a writer waits in the machine's queue,
not in SQLite's busy handler, and is let in when the writer before it commits or rolls back.

Real SQLite files, real threads, a real second process holding the queue.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from sqlalchemy import event, text

from chouette.extensions import db
from chouette.sqlite_writers import SUFFIX, QueuedConnection
from tests.conftest import dispose, make_app

pytestmark = pytest.mark.sqlite_only

WAIT = 10.0  # a bound for a thread to finish, not a measure


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    dispose(app)


def _begins(app) -> list[str]:
    """Every BEGIN IMMEDIATE sent to SQLite, in order, by thread name."""
    seen: list[str] = []
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute",
                     lambda conn, cursor, statement, *rest: seen.append(threading.current_thread().name)
                     if statement == "BEGIN IMMEDIATE" else None)
    return seen


def _writer(app, started: threading.Event, release: threading.Event | None, end: str = "commit") -> None:
    with app.app_context():
        db.session.execute(text("CREATE TABLE IF NOT EXISTS scratch (n INTEGER)"))
        started.set()
        if release is not None:
            release.wait(WAIT)
        getattr(db.session, end)()
        db.session.remove()


@pytest.mark.parametrize("end", ["commit", "rollback", "close"])
def test_a_writer_waits_in_the_queue_until_the_one_before_it_ends(app, end):
    begins = _begins(app)
    first_in, release = threading.Event(), threading.Event()
    first = threading.Thread(target=_writer, args=(app, first_in, release, end), name="first")
    first.start()
    assert first_in.wait(WAIT)
    second_in = threading.Event()
    second = threading.Thread(target=_writer, args=(app, second_in, None), name="second")
    second.start()
    assert not second_in.wait(0.2)
    assert begins == ["first"]  # the second has not asked SQLite: it waits in the queue
    release.set()
    assert second_in.wait(WAIT)
    assert begins == ["first", "second"]
    first.join(WAIT)
    second.join(WAIT)


def test_a_writer_of_another_process_holds_the_queue_until_it_lets_go(app, tmp_path):
    """The workers of a machine queue too: the queue is a file lock beside the database."""
    with app.app_context():
        database = db.engine.url.database
    queue_file = Path(os.path.realpath(database) + SUFFIX)
    script = ("import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600); "
              "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); sys.stdin.readline()")
    holder = subprocess.Popen([sys.executable, "-c", script, str(queue_file)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        begins = _begins(app)
        started = threading.Event()
        writer = threading.Thread(target=_writer, args=(app, started, None), name="writer")
        writer.start()
        assert not started.wait(0.2)
        assert begins == []
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert started.wait(WAIT)
        writer.join(WAIT)
    finally:
        holder.kill()
        holder.wait(WAIT)


def test_readers_never_queue(app):
    first_in, release = threading.Event(), threading.Event()
    first = threading.Thread(target=_writer, args=(app, first_in, release))
    first.start()
    assert first_in.wait(WAIT)
    try:
        with app.app_context(), db.engine.connect() as connection:
            reader = connection.execution_options(chouette_read_only=True)
            assert reader.execute(text("SELECT 1")).scalar() == 1
    finally:
        release.set()
        first.join(WAIT)


def test_the_queue_file_is_readable_by_the_app_user_only(app):
    with app.app_context():
        db.session.execute(text("CREATE TABLE IF NOT EXISTS scratch (n INTEGER)"))
        db.session.commit()
        database = db.engine.url.database
        raw = db.engine.raw_connection()
        try:
            assert isinstance(raw.driver_connection, QueuedConnection)
        finally:
            raw.close()
    mode = stat.S_IMODE(os.stat(os.path.realpath(database) + SUFFIX).st_mode)
    assert mode == 0o600
