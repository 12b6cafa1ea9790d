"""Drawings in the push streams (``live_shared.pushed_drawing``, ``display.pushed_drawing``): where a
page's fragment is shared, its stream sends the new drawing itself, so the page need not fetch.

- A phone whose decisions now are at most its player's doubles of the box gets, at every state of a
  played table, exactly the bytes its own fetch would bring (the drawing of that version,
  the same for every such phone: its page marks its own rows and buttons, htmx sends its
  CSRF token); a phone with another decision, and the organizer, get the version.
- A screen gets the whole fragment at its stream's first move, then only the tables that
  moved, each the bytes of that table in the fragment a fetch brings then.
- Signed out meanwhile, a phone gets the version only; ``PUSH_FRAGMENTS = False`` sends
  versions only.

Real database, real requests and real streams, read in threads as a browser reads them.
"""

from __future__ import annotations

import queue
import random
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask

from chouette.services import display
from chouette.web import play
from tests.factories import gen_member
from tests.production.helpers import next_command
from tests.web.test_phone_decisions import Phones
from tests.web.test_play_pages import HTMX, Table, sign_in

WAIT = 10.0  # seconds a test waits for an event before it fails (a bound, not a measure)


class Events:
    """A stream read in a thread of its own, event by event (keep-alive comments skipped)."""

    def __init__(self, client: Any, path: str) -> None:
        self.response = client.get(path, buffered=False)
        assert self.response.status_code == 200, self.response.status_code
        self.events: queue.Queue[tuple[str, str]] = queue.Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        text = ""
        for chunk in self.response.response:
            text += chunk.decode() if isinstance(chunk, bytes) else chunk
            while "\n\n" in text:
                block, text = text.split("\n\n", 1)
                name, data = "message", []
                for line in block.split("\n"):
                    if line.startswith("event: "):
                        name = line.removeprefix("event: ")
                    elif line.startswith("data: "):
                        data.append(line.removeprefix("data: "))
                if data:
                    self.events.put((name, "\n".join(data)))
            if self._stop.is_set():
                break
        self.response.close()

    def next(self) -> tuple[str, str]:
        return self.events.get(timeout=WAIT)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(WAIT)


@pytest.fixture
def quick_streams(app: Flask) -> None:
    # Drawings in the streams: the default (set here whatever the environment says).
    app.config.update(PUSH_KEEPALIVE_SECONDS=0.2, PUSH_STREAM_SECONDS=120.0, PUSH_FRAGMENTS=True)


def _own_drawing(monkeypatch, client, url: str) -> tuple[str, bool]:
    """The fragment this client's fetch brings now, and whether the shared drawing serves it."""
    real = play.shared_live_html
    took: list[bool] = []
    with monkeypatch.context() as patch:
        patch.setattr(play, "shared_live_html",
                      lambda played: (found := real(played), took.append(found is not None))[0])
        html = client.get(url, headers=HTMX).get_data(as_text=True)
    return html, took[0]


@pytest.mark.parametrize("settings", [{"cube_mode": "multi"}, {"cube_mode": "single"},
                                      {"cube_mode": "multi", "beavers": True, "extras": True}])
def test_each_phone_stream_brings_its_own_drawing_or_the_version(app, monkeypatch, quick_streams, settings):
    phones = Phones(app, "ABCDE", **settings)
    with app.app_context():
        watcher = gen_member("player", name="Walt")  # signed in, not seated: a spectator
    spectator = app.test_client()
    sign_in(spectator, watcher)
    organizer = app.test_client()
    sign_in(organizer, phones.table.owner)
    viewers = {**{name: phones.phone(name) for name in "ABCDE"}, "Walt": spectator, "Olga": organizer}
    streams = {name: Events(client, f"{phones.table.url}/stream") for name, client in viewers.items()}
    url = f"{phones.table.url}/live"
    rng = random.Random(20261125)
    kinds: dict[str, int] = {"fragment": 0, "changed": 0}
    try:
        for events in streams.values():
            assert events.next() == ("changed", f"{phones.table.seq()}-1")  # the version on opening
        for _turn in range(40):
            phones.table.play(next_command(phones.table.state(), rng))
            version = f"{phones.table.seq()}-1"
            for name, events in streams.items():
                kind, data = events.next()
                own, shared = _own_drawing(monkeypatch, viewers[name], url)
                kinds[kind] += 1
                if name == "Olga" or not shared:  # runs the table, or a decision of their own now
                    assert (kind, data) == ("changed", version), name
                else:
                    assert kind == "fragment", name
                    assert f'data-version="{version}"' in data
                    assert data == own, f"{name}'s pushed table is not the one his fetch brings"
    finally:
        for events in streams.values():
            events.close()
    # Both kinds were sent: phones with decisions and phones without.
    assert kinds["fragment"] > 40 and kinds["changed"] > 40


def test_a_phone_signed_out_meanwhile_gets_the_version_only(app, quick_streams):
    phones = Phones(app, "ABCD", cube_mode="single")
    client = phones.phone("D")
    events = Events(client, f"{phones.table.url}/stream")
    try:
        events.next()
        phones.table.play({"type": "join", "player": "E"})
        assert events.next()[0] == "fragment"  # D has nothing of their own to do
        # Signed out from another device of theirs: the server-side session is gone.
        other = app.test_client()
        with client.session_transaction() as session:
            cookie = dict(session)
        with other.session_transaction() as session:
            session.update(cookie)
        other.post("/auth/logout", headers={"X-CSRFToken": _csrf(other, phones.table.url)})
        phones.table.play({"type": "join", "player": "F"})
        assert events.next() == ("changed", f"{phones.table.seq()}-1")
    finally:
        events.close()


def _csrf(client: Any, url: str) -> str:
    found = re.search(r'<meta name="csrf-token" content="([^"]+)"', client.get(url).get_data(as_text=True))
    assert found
    return found.group(1)


def test_versions_only_when_push_fragments_is_off(app, quick_streams):
    app.config["PUSH_FRAGMENTS"] = False
    table = Table(app)
    table.seat("ABCD")
    screen = Events(app.test_client(), f"/display/{table.night_id}/stream")
    try:
        assert screen.next()[0] == "changed"
        table.play({"type": "double", "by": "box", "cubes": ["B"]})
        with app.app_context():
            assert screen.next() == ("changed", display.display_version(table.night_id))
    finally:
        screen.close()


def parts_of(data: str) -> tuple[str, str, str]:
    """A ``parts`` event's version, the version it builds on (its stream's last), its parts."""
    version, base, parts = [*data.split("\n", 2), "", ""][:3]
    return version, base, parts


def tables_of(fragment: str) -> dict[str, str]:
    """Each table's drawing in a screen's fragment, by its element's id."""
    found = re.findall(r'(<article id="(display-table-\d+)".*?</article>)', fragment, re.S)
    return {name: html for html, name in found}


def test_a_screen_stream_brings_the_whole_fragment_then_the_tables_that_moved(app, quick_streams):
    first, second = Table(app), Table(app)  # each of its own night: the screen of every open night
    first.seat("ABCD")
    second.seat("EFGH")
    url = "/display"
    screen = app.test_client()
    events = Events(screen, f"{url}/stream")
    try:
        events.next()  # the version on opening
        first.play({"type": "double", "by": "box", "cubes": ["B"]})
        kind, data = events.next()
        fetched = screen.get(url, headers=HTMX).get_data(as_text=True)
        assert kind == "fragment" and data == fetched  # the first move: the whole fragment
        first_version = re.search(r'data-version="([^"]*)"', data).group(1)
        second.play({"type": "double", "by": "box", "cubes": ["F"]})
        kind, data = events.next()
        fetched = screen.get(url, headers=HTMX).get_data(as_text=True)
        version, base, parts = parts_of(data)
        assert kind == "parts"
        assert f'data-version="{version}"' in fetched and base == first_version
        # Only the table that moved, and the bytes it has in the fragment fetched now.
        assert tables_of(parts) == {f"display-table-{second.id}": tables_of(fetched)[f"display-table-{second.id}"]}
    finally:
        events.close()


def test_a_screen_that_takes_in_what_its_stream_brings_shows_what_a_fetch_would(app, quick_streams):
    tables = [Table(app), Table(app), Table(app)]
    for table, names in zip(tables, ("ABCD", "EFGH", "IJKLM"), strict=True):
        table.seat(names)
    screen = app.test_client()
    events = Events(screen, "/display/stream")
    rng = random.Random(20261124)
    shown: dict[str, Any] = {"version": None, "tables": {}}
    kinds = {"fragment": 0, "parts": 0}
    try:
        events.next()
        for _turn in range(30):
            table = rng.choice(tables)
            table.play(next_command(table.state(), rng))
            kind, data = events.next()
            kinds[kind] += 1
            if kind == "fragment":  # the page morphs the whole fragment in
                shown["version"] = re.search(r'data-version="([^"]*)"', data).group(1)
                shown["tables"] = tables_of(data)
            else:  # built on what the page shows: each part replaces the element of its id
                version, base, parts = parts_of(data)
                assert base == shown["version"]
                shown["version"] = version
                shown["tables"].update(tables_of(parts))
            fetched = screen.get("/display", headers=HTMX).get_data(as_text=True)
            assert f'data-version="{shown["version"]}"' in fetched
            assert shown["tables"] == tables_of(fetched)
    finally:
        events.close()
    assert kinds == {"fragment": 1, "parts": 29}


@pytest.mark.parametrize(("url", "environment", "expected"), [
    ("sqlite:///{folder}/club.db", None, True),
    ("postgresql+psycopg://club@127.0.0.1:9/club", None, True),
    ("sqlite:///{folder}/club.db", "0", False),
    ("postgresql+psycopg://club@127.0.0.1:9/club", "0", False),
    ("postgresql+psycopg://club@127.0.0.1:9/club", "1", True),
])
def test_drawings_in_the_streams_by_default(tmp_path, monkeypatch, url, environment, expected):
    """Measured (docs/performance.md, "Push"): on by default, on SQLite and on PostgreSQL;
    PUSH_FRAGMENTS decides when set."""
    from app import create_app

    if environment is None:
        monkeypatch.delenv("PUSH_FRAGMENTS", raising=False)
    else:
        monkeypatch.setenv("PUSH_FRAGMENTS", environment)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app({"SQLALCHEMY_DATABASE_URI": url.format(folder=tmp_path), "TESTING": True})
    assert app.config["PUSH_FRAGMENTS"] is expected


@contextmanager
def noting_statements(app: Flask, note: Callable[[Any, str], None]) -> Iterator[None]:
    """``note(connection, statement)`` for each statement sent to the database meanwhile."""
    from sqlalchemy import event

    from chouette.extensions import db

    with app.app_context():
        engine = db.engine

    def listener(connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        note(connection, statement)

    event.listen(engine, "before_cursor_execute", listener)
    try:
        yield
    finally:
        event.remove(engine, "before_cursor_execute", listener)


def test_screens_streams_in_one_process_read_a_version_once(app, quick_streams):
    """Two screens' streams in one process: after a move, one draws the screen at the version
    the hub read, the other takes that drawing as it is, with no query of its own."""
    table = Table(app)
    table.seat("ABCD")
    selects: dict[int, list[str]] = {}

    def note(_connection: Any, statement: str) -> None:
        if re.match(r"\s*SELECT\b.*\bFROM\b", statement, re.I | re.S):  # a read (not a ping)
            selects.setdefault(threading.get_ident(), []).append(statement)

    screens = [Events(app.test_client(), "/display/stream") for _ in range(2)]
    try:
        for events in screens:
            events.next()  # the version on opening
        with noting_statements(app, note):
            table.play({"type": "double", "by": "box", "cubes": ["B"]})
            drawn = [events.next() for events in screens]
    finally:
        for events in screens:
            events.close()
    assert drawn[0] == drawn[1] and drawn[0][0] == "fragment"
    streams = {events._thread.ident for events in screens}
    readers = {thread: statements for thread, statements in selects.items() if thread in streams}
    assert len(readers) == 1, readers  # one stream read and drew; the other read nothing


def test_a_screen_drawn_by_another_stream_is_taken_without_a_turn_at_the_gate(app):
    """The second screen's stream of a process takes the drawing the first made, even while
    the process's one drawing slot is held (a phone's page being drawn): it has nothing to
    draw, so it does not queue behind the drawings."""
    from flask import copy_current_request_context

    from chouette import push
    from chouette.extensions import db
    from chouette.web import display as display_view
    from chouette.web import gate

    table = Table(app)
    table.seat("ABCD")
    table.play({"type": "double", "by": "box", "cubes": ["B"]})
    with app.test_request_context("/display/stream"):
        version = push.display_version(None)  # as the hub reads it
        db.session.remove()
        first, second = (copy_current_request_context(display_view.pushed_drawing(None)) for _ in range(2))
        drawn = first(version)
        assert drawn is not None and drawn.startswith("event: fragment")
        slot = gate.gate()
        assert slot is not None
        slot.enter_drawing()  # the process's drawing under way
        try:
            taken: list[str | None] = []
            thread = threading.Thread(target=copy_current_request_context(lambda: taken.append(second(version))))
            thread.start()
            thread.join(WAIT)
            assert taken == [drawn], "the second screen waited for the gate"
        finally:
            slot.leave_drawing()
