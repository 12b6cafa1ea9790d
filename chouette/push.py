"""Push: every open table page and big screen learns of a change as it commits.

A page holds one server-sent-event stream (``chouette.web.streams``) on a *topic*: a table
(``("table", id)``) or a big screen (``("display", night id or None)``). A stream sends the
topic's *version*, a short string that moves whenever what the page shows may have moved
(for a table: its last seq and whether its night is open, and online its cube window's answers;
for a screen: ``display_version``),
once when it opens (so a page that reconnects catches up) and again each time it moves. The
page then fetches its fragment as usual, drawn for its viewer, and morphs it in.

Each process has one ``Hub`` per app, and the hub one *watcher* thread, started by the first
stream and stopped with the last, that reads the versions of every topic some stream holds,
in one query for the tables and one per screen, whenever something may have changed:

- a commit in this process wakes it at once: ``services.base.writing()`` calls
  ``extensions.announce`` after each commit that wrote, which pokes the hub (``Hub.poke``);
- on PostgreSQL ``announce`` also sends ``NOTIFY chouette_push`` and the watcher
  ``LISTEN``\\ s on a connection of its own, so a command handled by another worker or another
  app node wakes it within milliseconds; it also reads every ``FALLBACK_SECONDS``;
- on SQLite (one machine, a few workers) it reads every ``POLL_SECONDS``: one indexed query.

Streams wait on their topic's condition, never on the database: a hundred quiet screens
cost the watcher's one query per tick, and their keep-alive comments.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, current_app
from sqlalchemy import func, select
from sqlalchemy.engine import Connection, Engine

from chouette.extensions import PUSH_CHANNEL, READ_ONLY, db
from chouette.models import (
    ChouetteTable,
    Night,
    TableEvent,
    TurnWindow,
)

log = logging.getLogger(__name__)

#: The PostgreSQL channel a commit is announced on (``extensions.announce``).
CHANNEL = PUSH_CHANNEL
#: How often the watcher reads the versions on SQLite (other processes' commits).
POLL_SECONDS = 0.1
#: How often it reads them on PostgreSQL when no notification came (a safety net).
FALLBACK_SECONDS = 2.0
#: A stream says it is alive this often (proxies and phones drop silent connections).
KEEPALIVE_SECONDS = 15.0
#: A stream ends after this long and the browser reconnects at once: workers stay balanced
#: and a restarted worker loses nothing (the first message of a stream is the version).
STREAM_SECONDS = 600.0
#: What the browser waits before reconnecting a stream that ended (milliseconds).
RETRY_MS = 1000
#: A screen's version when its night is gone.
GONE = "gone"

Topic = tuple[str, Any]


@dataclass
class _Channel:
    """One topic's latest version and the streams waiting for it to move."""

    version: str | None
    subscribers: int = 0
    changed: threading.Condition = field(default_factory=threading.Condition)


# --------------------------------------------------------------------------- versions


def _table_versions(connection: Connection, table_ids: Iterable[int]) -> dict[int, str]:
    """``"<last seq>-<1 if it and its night are open else 0>"`` for each table (``0-0`` when
    it is gone): what ``tables/_live.html`` carries as its ``data-version``."""
    ids = sorted(set(table_ids))
    if not ids:
        return {}
    table, night, events = ChouetteTable.__table__, Night.__table__, TableEvent.__table__
    last_seq = (select(func.coalesce(func.max(events.c.seq), 0))
                .where(events.c.table_id == table.c.id).correlate(table).scalar_subquery())
    query = (select(table.c.id, last_seq, night.c.closed_at.is_(None) & table.c.closed_at.is_(None))
             .select_from(table.join(night, night.c.id == table.c.night_id))
             .where(table.c.id.in_(ids)))
    found = {row[0]: f"{row[1]}-{int(bool(row[2]))}" for row in connection.execute(query)}
    marks = _window_marks(connection, ids)
    return {table_id: found.get(table_id, "0-0") + marks.get(table_id, "") for table_id in ids}


def _window_marks(connection: Connection, table_ids: list[int]) -> dict[int, str]:
    """``~<checksum>`` of an online table's cube window (the decision waited for, who said
    "roll" or holds it, each auto-roll: ``services.cube_window``), for the tables that have
    one: its answers are no events of the log, and the table's version moves with them all
    the same (the card rides the table's stream). The live table shows the version without
    it (``static/js/live.js`` compares the part before ``~``)."""
    window = TurnWindow.__table__
    query = (select(window.c.table_id, window.c.key, window.c.answers, window.c.auto_roll)
             .where(window.c.table_id.in_(table_ids)))
    return {row[0]: f"~{zlib.crc32(json.dumps([row[1], row[2], row[3]], sort_keys=True).encode()):08x}"
            for row in connection.execute(query)}


def table_version(table_id: int) -> str:
    """A table's version, read in the current session (a stream's first message)."""
    return _table_versions(db.session.connection(), [table_id])[table_id]


def display_version(night_id: int | None) -> str:
    """A screen's version (``services.display_version``; ``gone`` when the night is)."""
    from chouette.services.display import version_on

    return version_on(db.session.connection(), night_id) or GONE


def read_versions(connection: Connection, topics: Iterable[Topic]) -> dict[Topic, str]:
    """The version of every topic: one query for the tables, one per screen."""
    from chouette.services.display import version_on
    from chouette.services.social import social_versions

    topics = list(topics)
    versions: dict[Topic, str] = {}
    tables = _table_versions(connection, [key for kind, key in topics if kind == "table"])
    # A table's talk and presence (``web.social``): one query per part for all its tables.
    social = social_versions(connection, [key for kind, key in topics if kind == "social"])
    for kind, key in topics:
        if kind == "table":
            versions[(kind, key)] = tables[key]
        elif kind == "social":
            versions[(kind, key)] = social[key]
        else:
            versions[(kind, key)] = version_on(connection, key) or GONE
    return versions


def message(event: str, data: str) -> str:
    """One server-sent event: its name and its data, each line of ``data`` a ``data:`` line
    (the browser joins them again with newlines)."""
    return f"event: {event}\ndata: " + data.replace("\r", "").replace("\n", "\ndata: ") + "\n\n"


def _drawn(draw: Callable[[str], str | None] | None, version: str) -> str | None:
    if draw is None:
        return None
    try:
        return draw(version)
    except Exception:  # a page that cannot be drawn now still learns that its table moved
        log.exception("push: drawing a pushed fragment failed; sending the version")
        return None


# --------------------------------------------------------------------------- the hub


class Hub:
    """A process's topics, their versions and the watcher thread that moves them."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._channels: dict[Topic, _Channel] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()
        self._closed = False
        #: How many times the watcher read the versions (the tests read it; a counter).
        self.reads = 0

    # streams ---------------------------------------------------------------------------

    def subscribe(self, topic: Topic, version: str) -> _Channel:
        """Hold ``topic`` (whose version the caller just read) until ``unsubscribe``."""
        with self._lock:
            if self._pid != os.getpid():  # forked after the watcher started: start afresh
                self._channels, self._thread, self._pid = {}, None, os.getpid()
            channel = self._channels.get(topic)
            if channel is None:
                channel = self._channels[topic] = _Channel(version)
            channel.subscribers += 1
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._watch, name="chouette-push",
                                                daemon=True)
                self._thread.start()
        self._wake.set()  # read the new topic's version now: it may have moved already
        return channel

    def unsubscribe(self, topic: Topic) -> None:
        """Let go of ``topic``; the watcher stops reading it with its last stream."""
        with self._lock:
            channel = self._channels.get(topic)
            if channel is None:
                return
            channel.subscribers -= 1
            if channel.subscribers <= 0:
                del self._channels[topic]
            if not self._channels:
                self._wake.set()  # the watcher's last topic is gone: let it stop now

    def close(self) -> None:
        """End every stream and the watcher (a server stopping; the browsers reconnect)."""
        with self._lock:
            self._closed = True
            channels = list(self._channels.values())
        for channel in channels:
            with channel.changed:
                channel.changed.notify_all()
        self._wake.set()

    def streams(self) -> int:
        """How many streams this process holds."""
        with self._lock:
            return sum(channel.subscribers for channel in self._channels.values())

    def poke(self) -> None:
        """Something was committed here: read the versions now."""
        self._wake.set()

    def stream(self, topic: Topic, version: str, *, lifetime: float = STREAM_SECONDS,
               keepalive: float = KEEPALIVE_SECONDS,
               clock: Callable[[], float] = time.monotonic,
               draw: Callable[[str], str | None] | None = None) -> Iterator[str]:
        """The text of a server-sent-event stream on ``topic``: the version now, then each
        new version as it comes, a comment every ``keepalive`` seconds, until ``lifetime``.

        ``draw``: what to send instead of a bare version when it moves (the page's new
        fragment, ``message``), or None for the version (the page then fetches); a drawing
        that fails sends the version."""
        channel = self.subscribe(topic, version)
        try:
            yield f"retry: {RETRY_MS}\n" + message("changed", version)
            sent, ends = version, clock() + lifetime
            while clock() < ends and not self._closed:
                with channel.changed:
                    if channel.version == sent and not self._closed:
                        channel.changed.wait(min(keepalive, max(0.0, ends - clock())))
                    now = channel.version
                if now is not None and now != sent:
                    sent = now
                    yield _drawn(draw, now) or message("changed", now)
                else:
                    yield ": alive\n\n"
        finally:
            self.unsubscribe(topic)

    # the watcher -----------------------------------------------------------------------

    def _topics(self) -> list[Topic]:
        with self._lock:
            return list(self._channels)

    def _publish(self, versions: dict[Topic, str]) -> None:
        """Move the topics whose version moved, and wake their streams."""
        for topic, version in versions.items():
            with self._lock:
                channel = self._channels.get(topic)
            if channel is None:
                continue
            with channel.changed:
                if channel.version != version:
                    channel.version = version
                    channel.changed.notify_all()

    def _read(self, engine: Engine) -> None:
        topics = self._topics()
        if not topics:
            return
        with engine.connect() as connection:
            connection = connection.execution_options(**{READ_ONLY: True})
            with connection.begin():
                versions = read_versions(connection, topics)
        self.reads += 1
        self._publish(versions)

    def _watch(self) -> None:
        """The watcher's loop: until no stream is left, read the versions when woken."""
        with self.app.app_context():
            engine = db.engine
        listener = _Listener(engine) if engine.dialect.name == "postgresql" else None
        wait = FALLBACK_SECONDS if listener is not None else POLL_SECONDS
        try:
            while self._topics() and not self._closed:
                self._wake.clear()
                try:
                    with self.app.app_context():
                        self._read(engine)
                except Exception:  # the database may be restarting: try again next tick
                    log.exception("push: reading the versions failed")
                    time.sleep(wait)
                if listener is not None:
                    listener.wait(wait, self._wake)
                else:
                    self._wake.wait(wait)
        finally:
            if listener is not None:
                listener.close()
            with self._lock:
                if self._thread is threading.current_thread():
                    self._thread = None
            if self._topics() and not self._closed:  # a stream came while stopping: go on
                with self._lock:
                    if self._thread is None:
                        self._thread = threading.Thread(target=self._watch, daemon=True,
                                                        name="chouette-push")
                        self._thread.start()


class _Listener:
    """PostgreSQL's ``LISTEN chouette_push`` on a connection of the watcher's own."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._connection: Any = None

    def _connect(self) -> Any:
        if self._connection is None or self._connection.closed:
            raw = self._engine.raw_connection()
            connection: Any = raw.driver_connection
            raw.detach()  # the watcher's for good: not given back to the pool
            connection.autocommit = True
            connection.execute(f"LISTEN {CHANNEL}")
            self._connection = connection
        return self._connection

    def wait(self, seconds: float, wake: threading.Event) -> None:
        """Until a notification, ``wake`` (checked every tenth of a second) or ``seconds``."""
        ends = time.monotonic() + seconds
        try:
            connection = self._connect()
            while not wake.is_set() and time.monotonic() < ends:
                heard = list(connection.notifies(timeout=0.1, stop_after=1))
                if heard:
                    # Several commands committed together: one read of the versions for all.
                    # (After the first generator is done: each holds the connection's lock.)
                    for _more in connection.notifies(timeout=0.005):
                        pass
                    return
        except Exception:
            log.exception("push: listening failed; reconnecting")
            self.close()
            wake.wait(max(0.0, ends - time.monotonic()))

    def close(self) -> None:
        if self._connection is not None:
            try:
                self._connection.close()
            finally:
                self._connection = None


# --------------------------------------------------------------------------- commits


def hub(app: Flask | None = None) -> Hub:
    """This process's hub for ``app`` (the current app by default)."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    return app.extensions["chouette_push"]


def init_app(app: Flask) -> None:
    """Give ``app`` its hub."""
    app.extensions["chouette_push"] = Hub(app)
