"""Push: a table page's and a screen's event stream sends each new version as it commits.

Real database, real threads: the stream is the generator the server sends, read from another
thread while commands are played. "Another worker" is a second app on the same database:
its own hub, its own engine and pool, exactly what a second gunicorn worker or app node has;
its commits reach the first app's streams by the database alone (SQLite: the watcher's
version read; PostgreSQL: NOTIFY, in the PostgreSQL run of this suite).
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from app import create_app
from chouette import push
from chouette.extensions import db
from chouette.services import display, nights
from tests.factories import gen_member
from tests.web.test_play_pages import Table, post, sign_in

WAIT = 10.0  # seconds a test waits for an event before it fails (a bound, not a measure)


class Reader:
    """Reads a stream's messages in a thread of its own, as a browser would."""

    def __init__(self, chunks: Iterator[Any], closer: Any = None) -> None:
        self.messages: queue.Queue[str] = queue.Queue()
        self._chunks = chunks
        self._closer = closer or getattr(chunks, "close", None)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        # Like a browser that goes away: the generator is closed where it runs, between two
        # messages (the tests' keep-alive is short).
        for chunk in self._chunks:
            self.messages.put(chunk.decode() if isinstance(chunk, bytes) else chunk)
            if self._stop.is_set():
                break
        if self._closer is not None:
            self._closer()

    def next_version(self) -> str:
        """The version of the next ``changed`` event (keep-alive comments are skipped)."""
        while True:
            message = self.messages.get(timeout=WAIT)
            for line in message.splitlines():
                if line.startswith("data: "):
                    return line.removeprefix("data: ")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(WAIT)


@pytest.fixture
def table(app: Flask) -> Table:
    return Table(app)


def _open(app: Flask, topic: push.Topic, **options: Any) -> Reader:
    with app.app_context():
        version = (push.table_version(topic[1]) if topic[0] == "table"
                   else push.display_version(topic[1]))
        db.session.remove()
    return Reader(push.hub(app).stream(topic, version, **options))


def test_a_table_stream_starts_with_the_version_on_the_page_then_sends_each_new_one(app, table):
    table.seat("ABCD")
    seq = table.seq()
    reader = _open(app, ("table", table.id), keepalive=0.2)
    try:
        assert reader.next_version() == f"{seq}-1"
        table.play({"type": "double", "by": "box", "cubes": ["C"]})
        assert reader.next_version() == f"{seq + 1}-1"
        table.play({"type": "take", "cube": "C"})
        assert reader.next_version() == f"{seq + 2}-1"
    finally:
        reader.close()
    assert push.hub(app).streams() == 0  # a closed stream lets go of its topic


def test_closing_the_night_moves_the_table_version(app, table):
    from chouette.models import Member

    table.seat("ABCD")
    seq = table.seq()
    reader = _open(app, ("table", table.id), keepalive=0.2)
    try:
        assert reader.next_version() == f"{seq}-1"
        with app.app_context():
            nights.close_night(table.night_id, actor=db.session.get(Member, table.owner.id))
            db.session.commit()
        assert reader.next_version() == f"{seq}-0"
    finally:
        reader.close()


def test_a_screen_stream_moves_with_any_table_of_its_night(app, table):
    table.seat("ABCD")
    reader = _open(app, ("display", None), keepalive=0.2)
    try:
        first = reader.next_version()
        table.play({"type": "double", "by": "box", "cubes": ["C"]})
        second = reader.next_version()
        assert second != first
        with app.app_context():
            assert second == display.display_version(None)
    finally:
        reader.close()


def test_a_command_made_by_another_worker_reaches_the_stream(app, table, tmp_path):
    """The second app shares only the database: no hub, no thread, no memory in common."""
    table.seat("ABCD")
    seq = table.seq()
    other = create_app({**{k: app.config[k] for k in (
        "TESTING", "SQLALCHEMY_DATABASE_URI", "WTF_CSRF_ENABLED", "PASSWORD_HASH_METHOD")}})
    assert push.hub(other) is not push.hub(app)
    reader = _open(app, ("table", table.id), keepalive=0.2)
    try:
        assert reader.next_version() == f"{seq}-1"
        Table.play(_on(other, table), {"type": "double", "by": "box", "cubes": ["D"]})
        assert reader.next_version() == f"{seq + 1}-1"
    finally:
        reader.close()
        with other.app_context():
            db.session.remove()
            for engine in db.engines.values():
                engine.dispose()


def _on(other: Flask, table: Table) -> Table:
    """The same table, played through another app."""
    twin = object.__new__(Table)
    twin.__dict__.update(table.__dict__, app=other)
    return twin


def test_the_watcher_reads_the_database_only_while_someone_listens(app, table):
    table.seat("ABCD")
    hub = push.hub(app)
    reader = _open(app, ("table", table.id), keepalive=0.2)
    try:
        reader.next_version()
        table.play({"type": "double", "by": "box", "cubes": ["C"]})
        reader.next_version()
    finally:
        reader.close()
    thread = hub._thread
    if thread is not None:
        thread.join(WAIT)
    assert hub._thread is None or not hub._thread.is_alive()
    reads = hub.reads
    table.play({"type": "take", "cube": "C"})
    assert hub.reads == reads  # nobody listens: a commit costs the watcher nothing


# --------------------------------------------------------------------------- the HTTP streams


def test_a_table_stream_is_for_the_signed_in(app, client, table):
    response = client.get(f"{table.url}/stream")
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]


def test_a_table_stream_answers_404_for_no_such_table(app, client, table):
    with app.app_context():
        member = gen_member("player", name="Pia")
    sign_in(client, member)
    assert client.get("/tables/999/stream").status_code == 404


def test_a_table_stream_over_http_is_an_unbuffered_event_stream(app, client, table):
    table.seat("ABCD")
    with app.app_context():
        member = gen_member("player", name="C")
    sign_in(client, member)
    app.config.update(PUSH_KEEPALIVE_SECONDS=0.2, PUSH_STREAM_SECONDS=60.0)
    response = client.get(f"{table.url}/stream", buffered=False)
    reader = Reader(response.response, response.close)
    try:
        assert response.status_code == 200
        assert response.mimetype == "text/event-stream"
        assert response.headers["Cache-Control"] == "no-cache"
        assert response.headers["X-Accel-Buffering"] == "no"  # nginx passes events on at once
        assert reader.next_version() == f"{table.seq()}-1"
        table.play({"type": "double", "by": "box", "cubes": ["C"]})
        assert reader.next_version() == f"{table.seq()}-1"
    finally:
        reader.close()


def test_a_screen_stream_is_public_and_404s_for_no_such_night(app, client, table):
    table.seat("ABCD")
    assert client.get("/display/999/stream").status_code == 404
    app.config.update(PUSH_KEEPALIVE_SECONDS=0.2, PUSH_STREAM_SECONDS=60.0)
    response = client.get(f"/display/{table.night_id}/stream", buffered=False)
    reader = Reader(response.response, response.close)
    try:
        assert response.status_code == 200 and response.mimetype == "text/event-stream"
        with app.app_context():
            expected = display.display_version(table.night_id)
        assert reader.next_version() == expected
    finally:
        reader.close()


def test_the_table_page_holds_a_stream_and_polls_only_without_it(app, client, table):
    table.seat("ABCD")
    with app.app_context():
        member = gen_member("player", name="C")
    sign_in(client, member)
    page = client.get(table.url).get_data(as_text=True)
    assert f'sse-connect="{table.url}/stream"' in page
    assert 'data-poll-seconds="4"' in page and 'data-refresh' in page
    assert 'hx-trigger="chouette:refresh"' in page
    fragment = client.get(f"{table.url}/live", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "sse-connect" not in fragment  # the stream is the page's, never swapped away
    assert f'data-version="{table.seq()}-1"' in fragment


@contextlib.contextmanager
def _listening(app: Flask) -> Iterator[Any]:
    """A connection of our own that LISTENs on the push channel (PostgreSQL)."""
    with app.app_context():
        raw = db.engine.raw_connection()
        connection = raw.driver_connection
        connection.autocommit = True
        connection.execute(f"LISTEN {push.CHANNEL}")
    try:
        yield connection
    finally:
        raw.close()


@pytest.mark.postgres_only
def test_on_postgresql_a_commit_notifies_the_listeners(app, table):
    """Read the notification PostgreSQL delivers for a command, on a connection of our own."""
    with _listening(app) as connection:
        table.seat("ABCD")
        notices = list(connection.notifies(timeout=WAIT, stop_after=1))
        assert notices and notices[0].channel == push.CHANNEL


@pytest.mark.postgres_only
def test_on_postgresql_a_command_notifies_after_its_commit_and_a_refused_one_does_not(
        app, client, table):
    """The organizer's command from the live page: ``writing()`` commits it and announces it
    (``extensions.announce``) before the answer is drawn; a command refused (a stale page) writes
    nothing and tells nobody."""
    table.seat("ABCD")
    with _listening(app) as connection:
        sign_in(client, table.owner)
        seq = table.seq()
        answer = post(client, table, "double", {"by": "box", "cubes": "C"}, htmx=True)
        assert answer.status_code == 200 and table.seq() == seq + 1  # written, committed
        notices = list(connection.notifies(timeout=WAIT, stop_after=1))
        assert notices and notices[0].channel == push.CHANNEL
        stale = post(client, table, "undo", seq=seq, htmx=True)  # from the page before the double
        assert stale.status_code == 409 and table.seq() == seq + 1  # nothing written
        assert list(connection.notifies(timeout=0.5, stop_after=1)) == []


def test_a_stream_with_no_time_left_sends_the_version_and_ends(app, client, table):
    """What a test client or a crawler reading the whole body gets (and a stream at its end)."""
    table.seat("ABCD")
    app.config["PUSH_STREAM_SECONDS"] = 0.0
    body = client.get(f"/display/{table.night_id}/stream").get_data(as_text=True)
    with app.app_context():
        assert body == f"retry: {push.RETRY_MS}\nevent: changed\ndata: {display.display_version(table.night_id)}\n\n"
    assert push.hub(app).streams() == 0
