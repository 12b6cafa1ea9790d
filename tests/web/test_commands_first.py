"""Commands first: a command reads without SQLite's write lock and is checked again when it
writes; the render gate queues page drawings, never commands or streams.

Real database, real threads, real requests through the app.
"""

from __future__ import annotations

import sqlite3
import threading

import pytest
from flask import Flask
from sqlalchemy import select

from chouette.extensions import db, read_only
from chouette.models import Member, TableEvent
from chouette.services import base, commands
from chouette.web.gate import Gate
from tests.conftest import dispose, make_app
from tests.web.test_play_pages import Table, post, sign_in

WAIT = 10.0  # seconds a thread may take before the test fails (a bound, not a measure)


@pytest.fixture
def table(app: Flask) -> Table:
    commands.clear_cache()
    return Table(app)


def _sqlite_path(app: Flask) -> str:
    return app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")


@pytest.mark.sqlite_only
def test_a_command_reads_while_another_connection_holds_the_write_lock(app, client, table):
    """While another writer holds the lock, a command still reads and decides; it waits only
    to write, and lands once the lock is free (it used to wait from its first read)."""
    table.seat("ABCD")
    sign_in(client, table.owner)
    seq = table.seq()
    holder = sqlite3.connect(_sqlite_path(app), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    reads: list[str] = []

    def watch(conn, cursor, statement: str, *args: object) -> None:
        if "FROM table_event" in statement and statement.lstrip().upper().startswith("SELECT"):
            reads.append(statement)

    from sqlalchemy import event as sa_event
    with app.app_context():
        engine = db.engine
    sa_event.listen(engine, "before_cursor_execute", watch)
    answers: list[int] = []
    thread = threading.Thread(target=lambda: answers.append(
        post(client, table, "roll", {"how": "dice", "die1": "3", "die2": "1"}, seq=seq).status_code))
    try:
        thread.start()
        deadline = threading.Event()
        for _ in range(int(WAIT / 0.05)):
            if reads:
                break
            deadline.wait(0.05)
        assert reads, "the command did not read the table while the lock was held"
        assert thread.is_alive() and not answers  # it waits to write
    finally:
        holder.execute("COMMIT")
        holder.close()
        thread.join(WAIT)
        sa_event.remove(engine, "before_cursor_execute", watch)
    assert answers == [303]
    assert table.seq() == seq + 1


def test_a_command_overtaken_between_its_read_and_its_write_is_refused_and_writes_nothing(app, table):
    """Read at seq N as a reader; another worker appends N+1 meanwhile; the command, judged on
    N, is refused as stale when it writes, and the log keeps the other worker's event alone."""
    table.seat("ABCD")
    seq = table.seq()
    with app.app_context():
        read_only()
        owner = db.session.get(Member, table.owner.id)
        assert commands.load_play(table.id).seq == seq  # the reader's view is taken here

        def another_worker() -> None:
            with app.app_context():  # another thread: a session of its own
                db.session.remove()
                actor = db.session.get(Member, table.owner.id)
                commands.clear_cache()
                commands.play(table.id, seq, {"type": "opening_roll", "box": 5, "team": 2}, actor)
                db.session.commit()

        worker = threading.Thread(target=another_worker)
        worker.start()
        worker.join(WAIT)
        assert not worker.is_alive()
        with pytest.raises(base.TableChanged, match="The table changed while you were deciding"):
            commands.play(table.id, seq, {"type": "opening_roll", "box": 6, "team": 1}, owner)
        db.session.rollback()
        written = db.session.scalars(select(TableEvent).where(TableEvent.table_id == table.id,
                                                              TableEvent.seq > seq)).all()
        assert [(e.seq, e.payload) for e in written] == [(seq + 1, {"box": 5, "team": 2})]


def test_the_gate_queues_a_drawing_beyond_its_slots_and_lets_it_in_when_one_is_free(app):
    gate = Gate(1)
    entered = threading.Event()
    second_in = threading.Event()

    def draw(first: bool) -> None:
        with app.test_request_context("/tables/1/live", method="GET"):
            gate.enter()
            (entered if first else second_in).set()
            if first:
                release.wait(WAIT)
            gate.leave()

    release = threading.Event()
    first = threading.Thread(target=draw, args=(True,))
    first.start()
    assert entered.wait(WAIT)
    second = threading.Thread(target=draw, args=(False,))
    second.start()
    assert not second_in.wait(0.3)  # queued while the only slot is taken
    release.set()
    assert second_in.wait(WAIT)
    first.join(WAIT)
    second.join(WAIT)


def test_the_gate_never_queues_a_command_or_a_stream(app):
    gate = Gate(1)
    with app.test_request_context("/tables/1/live", method="GET"):
        gate.enter()  # the only slot, held for the whole test
        for path, method in (("/tables/1/roll", "POST"), ("/tables/1/stream", "GET"),
                             ("/display/stream", "GET"), ("/static/js/live.js", "GET")):
            passed = threading.Event()

            def request_(path: str = path, method: str = method,
                         passed: threading.Event = passed) -> None:
                with app.test_request_context(path, method=method):
                    gate.enter()
                    passed.set()
                    gate.leave()

            thread = threading.Thread(target=request_)
            thread.start()
            assert passed.wait(WAIT), f"{method} {path} waited at the gate"
            thread.join(WAIT)
        gate.leave()


def test_every_page_is_answered_with_a_gate_of_one_slot(tmp_path):
    """Many threads fetching at once through a one-slot gate: all answered, none lost."""
    app = make_app(tmp_path, RENDER_CONCURRENCY=1)
    try:
        statuses: list[int] = []
        lock = threading.Lock()

        def fetch() -> None:
            status = app.test_client().get("/health").status_code
            page = app.test_client().get("/display").status_code
            with lock:
                statuses.extend([status, page])

        threads = [threading.Thread(target=fetch) for _ in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT)
        assert statuses.count(200) == 40
    finally:
        dispose(app)


def test_render_concurrency_comes_from_the_environment(tmp_path, monkeypatch):
    """A deployment sets the gate's slots with RENDER_CONCURRENCY (docs/deployment.md)."""
    from chouette.web.gate import gate

    monkeypatch.setenv("RENDER_CONCURRENCY", "1")
    app = make_app(tmp_path)
    try:
        with app.app_context():
            found = gate()
            assert found is not None and found.concurrency == 1
    finally:
        dispose(app)
