"""The push streams: one server-sent-event stream per open table page and per big screen.

A stream carries the version of what its page shows (``chouette.push``) or, where the drawing
is shared, the drawing itself. A phone whose decisions now are at most its player's doubles
of the box gets the live table (``live_shared.pushed_drawing``: the state's one drawing, made
theirs); anyone else (a decision to answer, the organizer) gets the version, and their page
fetches its own fragment, drawn for them with their buttons, and morphs it in. A screen gets
the tables that moved (``display.pushed_drawing``). ``PUSH_FRAGMENTS`` (on by default:
``chouette.config``) False sends versions only. A table's stream is for the signed-in (like
its page); a screen's is public (like the screen). The database session is closed before the stream starts: a stream holds a
worker thread, never a connection or a transaction.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, abort, copy_current_request_context, current_app
from flask_login import login_required
from flask_wtf.csrf import generate_csrf

from chouette import push
from chouette.extensions import db, read_only
from chouette.models import ChouetteTable
from chouette.services import base
from chouette.services import display as display_service
from chouette.web import display as display_view
from chouette.web import display_rooms, live_shared

bp = Blueprint("streams", __name__)


def _stream(topic: push.Topic, version: str,
            draw: Callable[[str], str | None] | None = None) -> Response:
    """The event stream on ``topic``, starting at ``version``; the session is let go first.
    ``draw`` runs each time in a copy of this request's context (who is signed in, their
    language and session), with an application context of its own: its own database
    session and ``g``, as for a new request."""
    hub = push.hub()
    db.session.remove()
    keepalive = current_app.config.get("PUSH_KEEPALIVE_SECONDS", push.KEEPALIVE_SECONDS)
    lifetime = current_app.config.get("PUSH_STREAM_SECONDS", push.STREAM_SECONDS)
    if not current_app.config.get("PUSH_FRAGMENTS", True):
        draw = None
    if draw is not None:
        draw = copy_current_request_context(draw)
    response = Response(hub.stream(topic, version, keepalive=keepalive, lifetime=lifetime, draw=draw),
                        mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


@bp.get("/tables/<int:table_id>/stream")
@login_required
def table(table_id: int) -> Response:
    """The table's versions, for its open pages (organizer's and phones')."""
    db.session.commit()  # loading the member began a transaction: end it, then only read
    read_only()
    if db.session.get(ChouetteTable, table_id) is None:
        abort(404)
    # The forms of the drawings it brings carry the session's CSRF token: the session has one
    # from now on (a stream opened before any page was drawn sets it with its answer).
    generate_csrf()
    return _stream(("table", table_id), push.table_version(table_id), live_shared.pushed_drawing(table_id))


@bp.get("/display/stream")
@bp.get("/display/<int:night_id>/stream")
def display(night_id: int | None = None) -> Response:
    """A big screen's versions: every open night, or one night (the tables chosen, or all)."""
    read_only()
    try:
        chosen = display_rooms.chosen_tables()
        version = display_service.display_version(night_id)
    except display_rooms.BadChoice:
        abort(400)
    except base.NotFound:
        abort(404)
    return _stream(("display", night_id), version, display_view.pushed_drawing(night_id, chosen))


@bp.get("/nights/<int:night_id>/stream")
@login_required
def night(night_id: int) -> Response:
    """A night page's versions: the night's big-screen version (its open tables and their
    last seqs), sent as versions only; the page fetches its list of tables when it moves."""
    db.session.commit()  # loading the member began a transaction: end it, then only read
    read_only()
    try:
        version = display_service.display_version(night_id)
    except base.NotFound:
        abort(404)
    return _stream(("display", night_id), version)
