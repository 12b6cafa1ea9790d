"""A screen's pushed drawing says the version of what it shows (``display.pushed_drawing``).

The hub reads a screen's version, then its stream draws the screen; commands committed in
between (another thread, another worker) are in the drawing. The drawing is labelled with the
version it was drawn at, never with the older one the hub read: a screen that already shows a
version leaves a drawing labelled with it (``static/js/live.js``), and the stream sends the
next drawing as the tables that moved since its last one. A drawing of newer tables labelled
with an older version was left by a screen that had fetched that older version, and the
tables it held were never sent again: the screen stayed on the older tables under the newest
version (the TV of the captain-seat browser test, after the drop, for good).

Real database, real requests and a real stream, read in a thread as a browser reads it.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from chouette.web import display as display_view
from tests.serving.test_pushed_drawings import WAIT, Events, parts_of, tables_of
from tests.web.test_play_pages import HTMX, Table


def _label(html: str) -> str:
    found = re.search(r'data-version="([^"]*)"', html)
    assert found, html[:200]
    return found.group(1)


class Screen:
    """What a screen's page shows, taking in its stream's drawings as ``live.js`` does: a
    drawing labelled with the version it shows already is left; a fragment replaces the
    board; parts replace the tables of their ids."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.fetch()

    def fetch(self) -> None:
        html = self.client.get("/display", headers=HTMX).get_data(as_text=True)
        self.version, self.tables = _label(html), tables_of(html)

    def take(self, kind: str, data: str) -> None:
        if kind == "fragment":
            if _label(data) != self.version:
                self.version, self.tables = _label(data), tables_of(data)
        elif kind == "parts":
            version, base, parts = parts_of(data)
            if version == self.version:
                return
            if base != self.version:  # built on another version than shown: fetch it whole
                self.fetch()
            else:
                self.version = version
                self.tables = {**self.tables, **tables_of(parts)}
        elif data != self.version:  # "changed": the page fetches when it shows another version
            self.fetch()


def _pausing(monkeypatch: Any) -> tuple[threading.Event, threading.Event]:
    """The screen streams' next drawing waits, once its stream took the version the hub read,
    until ``go`` is set (``about`` says it is waiting)."""
    about, go = threading.Event(), threading.Event()
    real = display_view._making.get

    def get(key: Any, made: Any, make: Any, *args: Any) -> Any:
        if not about.is_set():
            about.set()
            assert go.wait(WAIT)
        return real(key, made, make, *args)

    monkeypatch.setattr(display_view._making, "get", get)
    return about, go


def test_a_drawing_made_after_later_commands_is_labelled_with_their_version(app, monkeypatch):
    app.config.update(PUSH_KEEPALIVE_SECONDS=0.2, PUSH_STREAM_SECONDS=120.0, PUSH_FRAGMENTS=True)
    table = Table(app)
    table.seat("ABCDE")
    client = app.test_client()
    events = Events(client, "/display/stream")
    about, go = _pausing(monkeypatch)
    try:
        assert events.next()[0] == "changed"  # the version on opening
        table.play({"type": "double", "by": "box"})
        assert about.wait(WAIT)  # the stream took that version; it draws it now
        # The screen fetches meanwhile (its stream opened, or it caught up): it shows it.
        screen = Screen(client)
        # Three more commands before the drawing reads the tables (the browser test's).
        table.play({"type": "drop", "cube": "B"}, {"type": "leave", "player": "B"},
                   {"type": "take", "cube": "C"})
        go.set()
        last = Screen(app.test_client())  # what a screen opened now shows
        while screen.version != last.version:  # each event comes within WAIT, or the test fails
            screen.take(*events.next())
    finally:
        go.set()
        events.close()
    assert screen.tables == last.tables, "the screen shows older tables under the last version"


def test_a_screen_that_fetched_meanwhile_takes_no_parts_built_on_another_version(app, monkeypatch):
    """Parts are the tables that moved since the stream's last event: a screen that fetched
    a version in between (a take) holds other tables than the stream last sent. When the table
    goes back to how the stream last sent it (the take undone), nothing moved for the stream,
    but the screen shows the take: the parts say the version they build on, and a screen that
    shows another fetches the whole fragment."""
    app.config.update(PUSH_KEEPALIVE_SECONDS=0.2, PUSH_STREAM_SECONDS=120.0, PUSH_FRAGMENTS=True)
    table = Table(app)
    table.seat("ABCDE")
    client = app.test_client()
    events = Events(client, "/display/stream")
    try:
        assert events.next()[0] == "changed"  # the version on opening
        screen = Screen(client)
        table.play({"type": "double", "by": "box"})
        kind, data = events.next()
        assert kind == "fragment"  # the stream's first drawing: the whole fragment
        screen.take(kind, data)
        doubled = screen.tables
        about, go = _pausing(monkeypatch)
        table.play({"type": "take", "cube": "B"})
        assert about.wait(WAIT)  # the stream took the take's version; it draws it now
        screen.fetch()  # the screen fetches the take meanwhile
        assert screen.tables != doubled
        table.play({"type": "undo"})  # the table as the stream last sent it
        go.set()
        last = Screen(app.test_client())
        assert last.tables == doubled  # nothing moved since the stream's last drawing
        while screen.version != last.version:
            screen.take(*events.next())
    finally:
        events.close()
    assert screen.tables == last.tables, "the screen kept the take that was undone"
