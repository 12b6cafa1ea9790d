"""The table page's social panel: who is connected, seat requests, handing one's cube over, and
the consulting channel of an online table (``services.social``, ``services.seat_requests``).

The panel has a push stream of its own (``("social", table id)``): it sends only the panel's
version, which moves with the table, its messages, requests and who is connected, never a
message's text; each device then fetches its own panel, drawn for its viewer, so a channel's
text reaches only the devices allowed to read it. The stream is also how a device is seen:
while it is open it notes the member's last-seen time (``social.touch``), at most every
``PRESENCE_WRITE_SECONDS``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    copy_current_request_context,
    current_app,
    flash,
    render_template,
    request,
)
from flask_login import current_user, login_required
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from chouette import push
from chouette.extensions import db, read_only
from chouette.models import ChouetteTable, Member
from chouette.refusals import say
from chouette.services import base, deciders, seat_requests, social, table_states
from chouette.table import TableError, TableState
from chouette.table.cubes import LIVE
from chouette.web import live_shared
from chouette.web.catalog import gettext as _
from chouette.web.htmx import is_htmx, see_other
from chouette.web.live_seats import seat_ids

bp = Blueprint("social", __name__)
log = logging.getLogger(__name__)


def _table(table_id: int) -> ChouetteTable:
    table = db.session.get(ChouetteTable, table_id)
    if table is None:
        abort(404)
    return table


def _role(state: TableState, name: str) -> str:
    if state.settings.match_length:  # a match speaks of its two players, not of a box
        return _("match player")
    if name == state.box:
        return _("box")
    if name == state.partner:
        return _("box's partner")
    game = state.game
    if name == (game.acting_captain if game is not None else state.captain):
        return _("captain")
    return _("member")


def _hand_over_to(state: TableState, me: str | None) -> list[str]:
    """The teammates ``me`` may hand their cube to now (docs/rules.md 2.12), or none."""
    game = state.game
    if me is None or game is None or me not in game.cubes or game.cubes[me].status != LIVE:
        return []
    if me == game.acting_captain or me in game.proxies or me in game.proxies.values():
        return []
    return [name for name, cube in game.cubes.items()
            if name != me and cube.status == LIVE and name not in game.proxies]


def panel_context(table: ChouetteTable, *, error: str | None = None, typed: str = "",
                  played: table_states.TablePlay | None = None) -> dict[str, Any]:
    """Everything ``tables/_social.html`` shows to the signed-in viewer (``played``: the
    table as the view loaded it, else loaded here)."""
    played = played or table_states.load_play(table.id)
    state = played.state
    me = deciders.seat_name(current_user, table.id, state)
    runs = deciders.may_run(current_user, table)
    members = seat_ids(played)  # read once per state (the live table's shared drawings too)
    here = social.present(table.id)
    seats = [{"name": name, "role": _role(state, name), "member": name in members,
              "connected": members.get(name) in here} for name in state.seated]
    channel = social.channel_of(table, state, me)
    mine = None
    if me is None or not state.is_seated(me):
        mine = seat_requests.latest_of(table.id, current_user.id)
    return {
        "table": table, "state": state, "seq": played.seq, "me": me, "runs": runs,
        "online": state.settings.online, "seats": seats, "in_game": state.game is not None,
        "requests": seat_requests.waiting(table.id) if runs else [],
        "admits_by_itself": seat_requests.admits_by_itself(table, state),
        "my_request": mine, "hand_over_to": _hand_over_to(state, me),
        "channel": channel,
        "messages": social.messages(table.id, channel) if channel is not None else [],
        "max_message": social.MAX_MESSAGE, "social_error": error, "typed": typed,
        "social_version": social.social_version(table.id, here),
    }


@bp.app_context_processor
def _panel_helper() -> dict[str, Any]:
    return {"social_panel": panel_html}


def panel_html(table: ChouetteTable) -> Markup:
    """The viewer's panel, drawn into the table page itself (it works without JavaScript, and
    the stream's first message then finds it current)."""
    if not current_user.is_authenticated:
        return Markup("")
    return Markup(render_template("tables/_social.html", **panel_context(table)))


def _panel(table: ChouetteTable, status: int = 200, **extra: Any) -> BaseResponse:
    html = render_template("tables/_social.html", **panel_context(table, **extra))
    return Response(html, status=status)


def _answer(table: ChouetteTable, error: str | None = None, done: str | None = None,
            **extra: Any) -> BaseResponse:
    """The panel for htmx (422 with the reason when refused); a flash and back to the table
    without JavaScript."""
    if is_htmx():
        return _panel(table, 422 if error else 200, error=error, **extra)
    if error:
        flash(error, "error")
    elif done:
        flash(done, "success")
    return see_other("tables.show", table_id=table.id)


@bp.get("/tables/<int:table_id>/social")
@login_required
def panel(table_id: int) -> BaseResponse:
    """The viewer's social panel (fetched when its stream moves)."""
    read_only()
    try:
        played = table_states.load_play(table_id)  # the table with its state: one query
    except base.NotFound:
        abort(404)
    return _panel(played.table, played=played)


@bp.get("/tables/<int:table_id>/social/stream")
@login_required
def stream(table_id: int) -> Response:
    """The panel's versions; while it is open, the member's device counts as connected."""
    db.session.commit()
    read_only()
    _table(table_id)
    version = social.social_version(table_id)
    hub, app, member_id = push.hub(), current_app._get_current_object(), current_user.id  # type: ignore[attr-defined]
    db.session.remove()
    keepalive = app.config.get("PUSH_KEEPALIVE_SECONDS", push.KEEPALIVE_SECONDS)
    lifetime = app.config.get("PUSH_STREAM_SECONDS", push.STREAM_SECONDS)
    draw = None
    if app.config.get("PUSH_FRAGMENTS", True):
        generate_csrf()  # the panel's forms carry the session's token: it has one from now on
        draw = copy_current_request_context(_pushed_panel(table_id))

    def seen() -> Iterator[str]:
        with app.app_context():
            every = social.write_seconds()
        noted = -every
        for chunk in hub.stream(("social", table_id), version, keepalive=keepalive,
                                lifetime=lifetime, draw=draw):
            if time.monotonic() - noted >= every:
                noted = time.monotonic()
                try:
                    with app.app_context():
                        social.touch(table_id, member_id)
                except Exception:  # the database restarting: noted at the next keep-alive
                    log.exception("social: noting a device's presence failed")
            yield chunk

    response = Response(seen(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _pushed_panel(table_id: int) -> Callable[[str], str | None]:
    """What the panel's stream sends its viewer when the panel moves: the viewer's own panel
    (a ``fragment`` event: the same drawing their fetch would bring, morphed in by live.js), or
    None when it cannot be drawn (the version: the page fetches). Drawn as the live table's
    stream draws (``live_shared.viewer_drawing``: who is signed in loaded again, at the gate
    after the commands); it spares the fetch's request, some 1,600 a minute at a festival."""

    def make(played: table_states.TablePlay, _version: str) -> str:
        html = render_template("tables/_social.html", **panel_context(played.table, played=played))
        return push.message("fragment", html)

    return live_shared.viewer_drawing(table_id, make)


@bp.post("/tables/<int:table_id>/messages")
@login_required
def post_message(table_id: int) -> BaseResponse:
    """A message to the viewer's consulting channel."""
    table = _table(table_id)
    text = request.form.get("text", "")
    state = table_states.load_play(table_id).state
    me = deciders.seat_name(current_user, table_id, state)
    if me is None:  # not a player of this table: like any table command of someone else's
        abort(403)
    try:
        social.post_message(table, state, me, current_user, text)
    except base.ServiceError as refused:
        return _answer(table, str(refused), typed=text[:social.MAX_MESSAGE * 2])
    return _answer(table)


@bp.post("/tables/<int:table_id>/seat-requests/<int:request_id>/admit")
@login_required
def admit_request(table_id: int, request_id: int) -> BaseResponse:
    """The runner admits a member who asked to sit down: the member is seated."""
    return _answer_request(table_id, request_id, "admit")


@bp.post("/tables/<int:table_id>/seat-requests/<int:request_id>/refuse")
@login_required
def refuse_request(table_id: int, request_id: int) -> BaseResponse:
    """The runner refuses a member who asked to sit down."""
    return _answer_request(table_id, request_id, "refuse")


def _answer_request(table_id: int, request_id: int, answer: str) -> BaseResponse:
    table = _table(table_id)
    act = seat_requests.admit if answer == "admit" else seat_requests.refuse
    try:
        request_row = act(table, request_id, current_user)
    except deciders.NotAllowed:
        abort(403)
    except base.NotFound:
        abort(404)
    except (base.ServiceError, TableError) as refused:
        return _answer(table, say(refused))
    member = db.session.get(Member, request_row.member_id)
    name = member.name if member is not None else "?"
    done = (_("%(name)s sits at the table.", name=name) if answer == "admit"
            else _("%(name)s's request is refused.", name=name))
    return _answer(table, done=done)


@bp.post("/tables/<int:table_id>/admission")
@login_required
def admission(table_id: int) -> BaseResponse:
    """The runner says whether the table seats a member who asks at once."""
    table = _table(table_id)
    if not deciders.may_run(current_user, table):
        abort(403)
    value = request.form.get("auto", "")
    if value not in ("0", "1"):
        return _answer(table, _("Choose whether the table admits members by itself."))
    try:
        seat_requests.set_admission(table, value == "1", current_user)
    except deciders.NotAllowed:
        abort(403)
    return _answer(table, done=_("Saved."))


def ask_to_sit(table_id: int, seq: int) -> BaseResponse:
    """The table page's Sit down (``web.tables.sit``): seated at once where the table admits
    by itself, else a request for its runner."""
    table = _table(table_id)
    try:
        asked = seat_requests.ask(table, seq, current_user)
    except (base.ServiceError, TableError) as refused:
        flash(say(refused), "error")
    else:
        flash(_("You sit at the table.") if asked.seated else
              _("Your request to sit down has gone to the table's organizer."), "success")
    return see_other("tables.show", table_id=table_id)
