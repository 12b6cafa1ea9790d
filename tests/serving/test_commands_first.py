"""Commands first: a command reads without SQLite's write lock and is checked again when it
writes; the render gate queues page drawings, never commands or streams.

Real database, real threads, real requests through the app.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time

import pytest
from flask import Flask
from sqlalchemy import select
from werkzeug.test import Client

from chouette import caches
from chouette.extensions import db, read_only
from chouette.models import Member, TableEvent
from chouette.services import base, commands, table_states
from chouette.web.gate import ENVIRON_KEY, Gate, GateMiddleware, checkpoint
from tests.conftest import dispose, make_app
from tests.web.test_play_pages import Table, post, sign_in

WAIT = 10.0  # seconds a thread may take before the test fails (a bound, not a measure)


@pytest.fixture
def table(app: Flask) -> Table:
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
        assert table_states.load_play(table.id).seq == seq  # the reader's view is taken here

        def another_worker() -> None:
            with app.app_context():  # another thread: a session of its own
                db.session.remove()
                actor = db.session.get(Member, table.owner.id)
                caches.clear_all(app)
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


class Held:
    """The app behind a gate, where the first request to ``path`` stops until released (a
    drawing under way); every other request goes straight through to Flask."""

    def __init__(self, app: Flask, path: str) -> None:
        self.app, self.path = app, path
        self.inside = threading.Event()
        self.release = threading.Event()
        self.held = False
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        with self.lock:
            hold = environ.get("PATH_INFO") == self.path and not self.held
            self.held = self.held or hold
        if hold:
            self.inside.set()
            self.release.wait(WAIT)
        return Flask.wsgi_app(self.app, environ, start_response)


def _gated(app: Flask, held: Held, slots: int = 1) -> tuple[Gate, Client]:
    gate = Gate(slots)
    return gate, Client(GateMiddleware(app, held, gate))


def _in_thread(work) -> tuple[threading.Thread, threading.Event, list]:
    done, found = threading.Event(), []

    def run() -> None:
        found.append(work())
        done.set()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, done, found


def test_the_gate_queues_a_drawing_beyond_its_slots_and_lets_it_in_when_one_is_free(app, table):
    table.seat("ABCD")
    held = Held(app, "/display")
    _gate, client = _gated(app, held)
    first, _first_done, _ = _in_thread(lambda: client.get(held.path).status_code)
    assert held.inside.wait(WAIT)  # the only slot, taken by a drawing under way
    second, second_done, statuses = _in_thread(lambda: client.get("/display").status_code)
    assert not second_done.wait(0.3)  # queued while the only slot is taken
    held.release.set()
    assert second_done.wait(WAIT) and statuses == [200]
    first.join(WAIT)
    second.join(WAIT)


def test_the_gate_never_queues_a_command_or_a_stream(app, table):
    table.seat("ABCD")
    held = Held(app, "/display")
    _gate, client = _gated(app, held)
    sign_in(client, table.owner)
    drawing, _done, _ = _in_thread(lambda: client.get("/display").status_code)
    assert held.inside.wait(WAIT)  # the only slot, held for the whole test
    try:
        for method, path, data in (
                ("POST", f"/tables/{table.id}/roll", {"seq": str(table.seq()), "how": "dice",
                                                      "die1": "3", "die2": "1"}),
                ("GET", f"/tables/{table.id}/stream", None), ("GET", "/display/stream", None),
                ("GET", "/static/js/live.js", None)):
            thread, done, statuses = _in_thread(
                lambda method=method, path=path, data=data: client.open(path, method=method, data=data).status_code)
            assert done.wait(WAIT), f"{method} {path} waited at the gate"
            assert statuses[0] in (200, 303), (method, path, statuses)
            thread.join(WAIT)
    finally:
        held.release.set()
        drawing.join(WAIT)


def test_no_drawing_starts_while_a_command_is_under_way(app, table):
    """Commands first: a drawing arriving while a table command is handled waits for it."""
    table.seat("ABCD")
    held = Held(app, f"/tables/{table.id}/roll")
    gate, client = _gated(app, held, slots=2)
    sign_in(client, table.owner)
    seq = str(table.seq())
    command, command_done, answers = _in_thread(lambda: client.post(
        f"/tables/{table.id}/roll", data={"seq": seq, "how": "dice", "die1": "3", "die2": "1"}).status_code)
    assert held.inside.wait(WAIT) and gate.commands() == 1
    drawing, drawing_done, statuses = _in_thread(lambda: client.get("/display").status_code)
    assert not drawing_done.wait(0.1)  # a free slot, but a command is under way
    held.release.set()
    assert command_done.wait(WAIT) and answers == [303]
    assert drawing_done.wait(WAIT) and statuses == [200]
    assert gate.commands() == 0
    command.join(WAIT)
    drawing.join(WAIT)


@pytest.mark.sqlite_only
def test_drawings_queued_at_the_gate_hold_no_database_connection(app, table):
    """More drawings queued than the pool has connections: a command still gets one (a gate
    inside Flask held a connection per queued drawing, and the commands waited for the pool)."""
    table.seat("ABCD")
    with app.app_context():
        pool_room = db.engine.pool.size() + db.engine.pool._max_overflow
    held = Held(app, "/display")
    _gate, client = _gated(app, held)
    sign_in(client, table.owner)
    first, _done, _ = _in_thread(lambda: client.get("/display").status_code)
    assert held.inside.wait(WAIT)
    queued = [_in_thread(lambda: client.get(f"/tables/{table.id}/live").status_code)
              for _ in range(pool_room + 5)]
    try:
        seq = str(table.seq())
        command, done, answers = _in_thread(lambda: client.post(
            f"/tables/{table.id}/roll", data={"seq": seq, "how": "dice", "die1": "3", "die2": "1"}).status_code)
        assert done.wait(WAIT) and answers == [303]
        command.join(WAIT)
        assert all(not finished.is_set() for _thread, finished, _found in queued)  # still queued
    finally:
        held.release.set()
        for thread, finished, found in queued:
            assert finished.wait(WAIT) and found == [200]
            thread.join(WAIT)
        first.join(WAIT)


def test_a_drawing_under_way_waits_at_its_checkpoint_while_a_command_runs(app):
    gate = Gate(1)
    gate.enter_command()
    waited = threading.Event()

    def draw() -> None:
        with app.test_request_context("/display", environ_base={ENVIRON_KEY: "drawing"}):
            checkpoint()
        waited.set()

    thread = threading.Thread(target=draw)
    app.extensions["render_gate"], kept = gate, app.extensions.get("render_gate")
    try:
        thread.start()
        assert not waited.wait(0.1)  # held at the checkpoint
        gate.leave_command()
        assert waited.wait(WAIT)
    finally:
        app.extensions["render_gate"] = kept
        thread.join(WAIT)


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

    monkeypatch.setenv("RENDER_CONCURRENCY", "3")
    app = make_app(tmp_path)
    try:
        with app.app_context():
            found = gate()
            assert found is not None and found.concurrency == 3
    finally:
        dispose(app)


def test_a_template_drawn_for_a_page_stops_between_its_pieces_while_a_command_runs(app):
    """A command that arrives in the middle of a template's drawing has the process to itself
    from the next piece on (``GatedTemplate``): the drawing waits there, then finishes, and
    draws the same text as a template drawn outside any page."""
    gate = Gate(1)
    reached: list[int] = []
    command_in = threading.Event()

    def note(number: int) -> str:
        reached.append(number)
        if number == 3:  # a command arrives while the template is drawn
            gate.enter_command()
            command_in.set()
        return f"<p>{number}</p>"

    template = app.jinja_env.from_string("{% for n in numbers %}{{ note(n) }}|{% endfor %}")
    drawn: list[str] = []

    def draw() -> None:
        with app.test_request_context("/display", environ_base={ENVIRON_KEY: "drawing"}):
            drawn.append(template.render(numbers=range(10), note=note))

    thread = threading.Thread(target=draw)
    app.extensions["render_gate"], kept = gate, app.extensions.get("render_gate")
    try:
        thread.start()
        assert command_in.wait(WAIT)
        time.sleep(0.1)
        assert reached == [0, 1, 2, 3] and not drawn  # held at the piece after the command came
        gate.leave_command()
        thread.join(WAIT)
        assert reached == list(range(10))
        with app.test_request_context("/display"):  # not a drawing: drawn at once, the same
            assert drawn == [template.render(numbers=range(10), note=lambda n: f"<p>{n}</p>")]
    finally:
        app.extensions["render_gate"] = kept
        thread.join(WAIT)


class Priorities:
    """The app behind a gate, noting the scheduling priority of the thread each request is
    drawn in (Linux: per thread)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.seen: dict[str, tuple[int, str]] = {}

    def __call__(self, environ, start_response):
        priority = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        self.seen[f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}"] = (
            priority, threading.current_thread().name)
        return Flask.wsgi_app(self.app, environ, start_response)


def test_pages_are_drawn_at_a_lower_priority_than_the_commands(app, table):
    """The drawings run in the gate's own threads, ``nice`` lower: when every core is busy the
    machine runs a command before a page (of this process or another one)."""
    table.seat("ABCD")
    recorder = Priorities(app)
    gate = Gate(1, nice=10)
    client = Client(GateMiddleware(app, recorder, gate))
    sign_in(client, table.owner)
    own = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    assert client.get("/display").status_code == 200
    assert client.get(f"/tables/{table.id}/live", headers={"HX-Request": "true"}).status_code == 200
    answer = client.post(f"/tables/{table.id}/roll",
                         data={"seq": str(table.seq()), "how": "dice", "die1": "3", "die2": "1"})
    assert answer.status_code == 303
    drawn, live = recorder.seen["GET /display"], recorder.seen[f"GET /tables/{table.id}/live"]
    assert drawn[0] == live[0] == min(own + 10, 19)
    assert drawn[1].startswith("chouette-drawing") and live[1].startswith("chouette-drawing")
    assert recorder.seen[f"POST /tables/{table.id}/roll"] == (own, threading.current_thread().name)


def test_while_one_stream_draws_a_key_the_others_wait_for_its_drawing_not_the_gate(app):
    """``gate.Once``: the screens' streams of a process all ask for the same drawing after a
    move; the first draws it at the gate, the others take that drawing, drawing nothing
    themselves, and none of them takes a turn at the gate."""
    from chouette.web.gate import Once

    once = Once()
    made: dict[str, str] = {}
    calls: list[str] = []
    drawing, release = threading.Event(), threading.Event()

    def make() -> str:
        calls.append(threading.current_thread().name)
        drawing.set()
        assert release.wait(WAIT)
        made["key"] = "the drawing"
        return made["key"]

    results: dict[str, str | None] = {}

    def ask(name: str) -> None:
        with app.test_request_context("/display/stream"):
            results[name] = once.get("key", lambda: made.get("key"), make)

    first = threading.Thread(target=ask, args=("first",), name="first")
    first.start()
    assert drawing.wait(WAIT)  # the first is drawing, at the gate
    slots = app.extensions["render_gate"].slots
    others = [threading.Thread(target=ask, args=(f"other {n}",), name=f"other {n}") for n in range(3)]
    for thread in others:
        thread.start()
    time.sleep(0.1)
    # The others wait for the drawing, not in the queue for the gate's one slot (the first's).
    assert all(thread.is_alive() for thread in others)
    assert slots.free() == 0 and slots.waiting() == 0 and calls == ["first"]
    release.set()
    for thread in [first, *others]:
        thread.join(WAIT)
    assert results == {"first": "the drawing", **{f"other {n}": "the drawing" for n in range(3)}}
    assert calls == ["first"]
