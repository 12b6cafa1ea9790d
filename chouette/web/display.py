"""The big screen: every open table of the night on a TV, refreshing itself (read-only, public).

It shows tonight's table scores: each player's points and, unless the club turned
``DISPLAY_MONEY`` off (``chouette.web.privacy``), their money at that table tonight.

The page includes the fragment ``display-board`` and holds a push stream (``chouette.push``):
when the stream says the display version moved, the page fetches the fragment and morphs it
in; while no stream is open it polls every two seconds. The fetch is answered ``304 Not
Modified`` while ``services.display_version`` (one cheap query) has not moved, so a TV costs
almost nothing while the tables are quiet; the tables are folded and drawn only when
something changed.

A screen may show some tables only (one TV per room: ``/display?tables=3,5``, by their number
on the screen, ``chouette.web.display_rooms``): its fetches, ETag, drawings and stream carry
the choice. The tables where nobody is seated are one line each at the screen's foot.

What the screen shows of each table is ``chouette.web.display_tables``; here, the screen
itself: its tables drawn (each kept while its log has not moved), the fragment its push
stream sends, and the page, each kept in the app's caches (``chouette.caches``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import get_locale
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from chouette import caches, push
from chouette.extensions import READ_ONLY, db, read_only
from chouette.models import ChouetteTable, Night
from chouette.services import base, display
from chouette.web import display_rooms, gate, privacy
from chouette.web.display_tables import signed_money, signed_points, table_view
from chouette.web.errors import error_page
from chouette.web.htmx import render_if_changed
from chouette.web.quiet_screens import ENVIRON_KEY

bp = Blueprint("display", __name__, url_prefix="/display")

#: How often the screen asks for news, and how long it waits for an answer.
POLL_SECONDS = 2
POLL_TIMEOUT_MS = 8000

TABLE_DRAWINGS = caches.declare(
    "display_tables", 256,
    "a table drawn for the screens, (html, nobody seated), by (table id, its last event's "
    "marks, night name, currency, language, address, several nights shown, money shown)")
SCREENS = caches.declare(
    "display_screens", 64,
    "a screen drawn (page or fragment), by its ETag's text (display version, address, money "
    "shown, tables chosen, fragment or page, language): after a push every TV fetches the "
    "same version, and only the first one draws it")


@dataclass(frozen=True)
class BoardParts:
    """A screen's fragment drawn once for every stream of a process (``pushed_drawing``): the
    whole fragment, what its frame is made of (the tables shown, which of them are empty,
    every table of the chooser), and each table's drawing by table id."""

    version: str
    frame: tuple[Any, ...]
    html: str
    tables: dict[int, str]


BOARD_PARTS = caches.declare(
    "display_board_parts", 16,
    "a screen's pushed fragment in parts (BoardParts), by (night shown, display version, "
    "address, language, money shown, tables chosen), under the version it was drawn at and "
    "the hub's it was asked for (at or before it): after a command, the first stream of a "
    "process draws, the others take it")
#: Who is drawing which of them now (``gate.Once``).
_making = gate.Once()


class Screen:
    """What the screen shows, computed only when a template asks (never for a 304).

    Memoised by hand: on Python 3.11 ``functools.cached_property`` takes one lock shared by
    every instance, so screens drawn at once in a worker's threads waited for each other."""

    def __init__(self, night_id: int | None, chosen: tuple[int, ...] | None = None) -> None:
        self.night_id = night_id
        self.chosen = chosen  # the table numbers shown (display_rooms), None: all
        self._nights: list[Night] | None = None
        self._all: list[tuple[ChouetteTable, Night]] | None = None
        self._tables: list[tuple[ChouetteTable, Night]] | None = None
        self._drawn: list[tuple[int, Markup, bool]] | None = None

    @property
    def nights(self) -> list[Night]:
        """The nights shown."""
        if self._nights is None:
            self._nights = display.display_nights(self.night_id)
        return self._nights

    @property
    def all_tables(self) -> list[tuple[ChouetteTable, Night]]:
        """Every table of the open nights shown, in the order they were created: table 1, 2..."""
        if self._all is None:
            self._all = [(table, night) for night in self.nights if night.is_open
                         for table in night.tables]
        return self._all

    @property
    def tables(self) -> list[tuple[ChouetteTable, Night]]:
        """The tables this screen shows: the open ones, those chosen by number or all (a table's
        number counts the closed ones too, so that a bookmarked screen keeps its tables)."""
        if self._tables is None:
            chosen = set(self.chosen or ())
            self._tables = [pair for number, pair in enumerate(self.all_tables, start=1)
                            if pair[0].closed_at is None and (not chosen or number in chosen)]
        return self._tables

    @property
    def closed(self) -> bool:
        """Whether the screen was asked for one night, and that night is closed."""
        return self.night_id is not None and not any(night.is_open for night in self.nights)

    @property
    def several_nights(self) -> bool:
        """Whether tables of more than one night are shown (then each names its night)."""
        return len({night.id for _table, night in self.tables}) > 1

    @property
    def drawn(self) -> list[tuple[int, Markup, bool]]:
        """Each table shown: its id, its drawing, whether nobody is seated at it (an emptied
        table, or one still waiting for its players: a line at the foot of the screen)."""
        if self._drawn is None:
            self._drawn = self._draw_tables()
        return self._drawn

    @property
    def playing_html(self) -> list[Markup]:
        """The drawings of the tables with players seated: the screen's grid."""
        return [html for _id, html, empty in self.drawn if not empty]

    @property
    def empty_html(self) -> list[Markup]:
        """The drawings of the tables where nobody is seated."""
        return [html for _id, html, empty in self.drawn if empty]

    def _draw_tables(self) -> list[tuple[int, Markup, bool]]:
        several = self.several_nights
        show_money = privacy.display_shows_money()
        context = (str(get_locale()), request.host_url, several, show_money)
        drawn = []
        marks = display.last_event_marks([table.id for table, _night in self.tables])
        for table, night in self.tables:
            key = (table.id, *marks[table.id], night.name, night.currency,
                   *context)
            found = caches.cache(TABLE_DRAWINGS).get(key)
            if found is None:
                gate.checkpoint()  # between two tables' drawings, the process's commands first
                view = table_view(table.id)
                found = (Markup(render_template(
                    "display/_table.html", view=view, several_nights=several,
                    signed_money=signed_money, signed_points=signed_points, show_money=show_money)),
                    not view.rows)
                # Kept when drawn at the seq of its key: on PostgreSQL a reader outside a
                # snapshot reads each statement anew, and a command committed in between is
                # in the drawing (the next poll draws it again, under its own seq).
                if view.seq == key[1]:
                    caches.cache(TABLE_DRAWINGS).put(key, found)
            drawn.append((table.id, *found))
        return drawn


def _parts_context(night_id: int | None, version: str,
                   chosen: tuple[int, ...] | None = None) -> tuple[Any, ...]:
    """What a screen's drawing at ``version`` depends on: its key in ``BOARD_PARTS``."""
    return (night_id, version, request.host_url, str(get_locale()), privacy.display_shows_money(),
            chosen)


def _parts(night_id: int | None, version: str,
           chosen: tuple[int, ...] | None = None) -> BoardParts | None:
    """The screen's fragment at ``version`` (the hub's, read by its watcher) or after it, in
    parts, or None when the night is gone.

    Commands committed after the hub read ``version`` are in the drawing (it reads the tables
    as they are now): it is labelled with the version read with its tables, in one snapshot
    (``_read_at_once``), never with the older one. A screen leaves a drawing of the version it
    shows already (``static/js/live.js``) and its stream then sends only the tables that moved:
    older tables labelled with a newer version would have stayed on the screen for good. The
    drawing is kept under both versions: the other streams asking for ``version`` take it."""
    if version == push.GONE:
        return None
    drawings = caches.cache(BOARD_PARTS)
    context = _parts_context(night_id, version, chosen)
    found = drawings.get(context)
    if found is not None:
        return found
    drawn_at = push.display_version(night_id)
    if drawn_at == push.GONE:
        return None
    found = drawings.get(_parts_context(night_id, drawn_at, chosen))
    if found is None:
        screen = Screen(night_id, chosen)
        html = render_template("display/_board.html", screen=screen, display_version=drawn_at)
        drawn = screen.drawn
        frame = (screen.closed, tuple(table_id for table_id, _html, _empty in drawn),
                 tuple(table_id for table_id, _html, empty in drawn if empty),
                 tuple((table.id, table.name, table.closed_at is None)
                       for table, _night in screen.all_tables))
        found = BoardParts(drawn_at, frame, html,
                           {table_id: str(html) for table_id, html, _empty in drawn})
        drawings.put(_parts_context(night_id, drawn_at, chosen), found)
    drawings.put(context, found)
    return found


def _read_at_once() -> None:
    """Begin the session's transaction as a reader that sees one moment, the version and the
    tables alike: a reader's transaction does on SQLite (its first read fixes the snapshot);
    on PostgreSQL a ``REPEATABLE READ`` one (``read_only(alone=True)`` reads each statement
    anew, a command committed between two of them would be in the tables, not the version)."""
    session = db.session()
    options: dict[str, Any] = {READ_ONLY: True}
    if session.get_bind().dialect.name == "postgresql":
        options["isolation_level"] = "REPEATABLE READ"
    session.connection(execution_options=options)


def pushed_drawing(night_id: int | None,
                   chosen: tuple[int, ...] | None = None) -> Callable[[str], str | None]:
    """What a screen's push stream sends when the display version moves
    (``push.Hub.stream``): the tables that moved since its last event (``parts``: the version
    on the first line, the version of the stream's last event on the second, the one they
    build on, then each moved table's drawing), or the whole fragment (``fragment``) when the
    tables shown are others or in another order, and on the stream's first move. The screen
    then holds what a fetch would bring: a screen that shows another version than the parts
    build on (it fetched one meanwhile) fetches the whole fragment (``static/js/live.js``), or
    a table that went back to how the stream last sent it (a double, then its undo) would keep
    the look the screen fetched in between. Runs in a copy of the stream's request context
    (``streams._stream``)."""
    sent: dict[str, Any] = {"frame": None, "tables": {}, "version": ""}

    def make(version: str) -> BoardParts | None:
        try:
            _read_at_once()
            return _parts(night_id, version, chosen)
        finally:
            db.session.remove()

    def draw(version: str) -> str | None:
        # The first screen's stream of the process draws the version, at the gate; the others
        # take its drawing, without a query and without a turn at the gate.
        try:
            read_only(alone=True)  # the language may be a signed-in member's
            context = _parts_context(night_id, version, chosen)
        finally:
            db.session.remove()  # nothing held while waiting
        drawn = caches.cache(BOARD_PARTS)
        parts = _making.get(context, lambda: drawn.get(context), lambda: make(version))
        if parts is None:
            return None
        if parts.frame != sent["frame"]:
            message = push.message("fragment", parts.html)
        else:
            moved = [html for table_id, html in parts.tables.items()
                     if sent["tables"].get(table_id) != html]
            message = push.message("parts", "\n".join([parts.version, sent["version"], *moved]))
        sent["frame"], sent["tables"], sent["version"] = parts.frame, parts.tables, parts.version
        return message

    return draw


def _screen(night_id: int | None) -> BaseResponse:
    """The page, or its fragment for htmx; ``304`` while nothing changed."""
    read_only()
    try:
        chosen = display_rooms.chosen_tables()
    except display_rooms.BadChoice as refusal:
        return error_page(400, str(refusal))
    try:
        version = display.display_version(night_id)
    except base.NotFound:
        abort(404)
    # What the ETag is made from, for the screens' shortcut (chouette.web.quiet_screens).
    request.environ[ENVIRON_KEY] = (night_id, version)
    # The QR codes carry the address the screen was opened with; the money is shown or not;
    # the tables chosen.
    query = display_rooms.as_query(chosen)
    etag_version = f"{version}|{request.host_url}|{privacy.display_shows_money()}|{query}"
    here = url_for(request.endpoint or "display.index", night_id=night_id, tables=query)
    return render_if_changed(
        etag_version, "display/index.html", "display/_board.html",
        screen=Screen(night_id, chosen), poll_url=here, poll_seconds=POLL_SECONDS,
        poll_timeout_ms=POLL_TIMEOUT_MS, display_version=version,
        stream_url=url_for("streams.display", night_id=night_id, tables=query),
        shared=caches.cache(SCREENS),
    )


@bp.get("")
def index() -> BaseResponse:
    """Every open table of every open night."""
    return _screen(None)


@bp.get("/<int:night_id>")
def night(night_id: int) -> BaseResponse:
    """Every table of one night (a closed night says so)."""
    return _screen(night_id)
