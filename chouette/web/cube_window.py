"""The cube window's card on an online table's page (``services.cube_window``; docs/using.md).

The card stands above the live table, drawn for its viewer: who may double now and who has
answered, the viewer's own "Double" / "Roll" / "Hold the roll" buttons and auto-roll, the box's
one-screen answer to every cube that waits for the box, the countdown of the table's time limit
(a house rule, ``decision_seconds``), and for the runner "Close now". It rides the table's push
stream: the table's version moves with the window's answers too (``push``: the answers "roll"
are no events of the log), and the stream brings the card drawn for its viewer each time
(``pushed_card``); the page fetches it only when the stream opens again after a dropped
connection, after its own action, or while the stream is not open (``static/js/cube_window.js``).
Its countdown runs on the device, from the deadline the card was drawn with, and posts "time
up" when it reaches zero: the server decides, under the window's lock.
Every form works without JavaScript too (303 back to the table).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request
from flask_login import current_user, login_required
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from chouette import push
from chouette.models import utcnow
from chouette.services import base, deciders, table_states
from chouette.services import cube_window as windows
from chouette.table import TableState
from chouette.web.catalog import gettext as _
from chouette.web.errors import error_page
from chouette.web.htmx import is_htmx, see_other

bp = Blueprint("cube_window", __name__)


def _load(table_id: int) -> table_states.TablePlay:
    try:
        return table_states.load_play(table_id)
    except base.NotFound:
        abort(404)


def _box_answers(state: TableState, me: str | None, runs: bool) -> list[dict[str, Any]]:
    """The cubes that wait for the box's answer, each with its legal answers, when the
    viewer answers for the box (the box, or the runner)."""
    box = state.box
    if not box or not (runs or me == box):
        return []
    cubes: dict[str, list[str]] = {}
    for event in deciders.waiting_for(box, state):
        if event["type"] in deciders.ANSWERS and "cube" in event:
            cubes.setdefault(str(event["cube"]), []).append(str(event["type"]))
    game = state.game
    found = []
    for cube, kinds in cubes.items():
        offer = game.cubes[cube].cube.offer if game is not None and cube in game.cubes else None
        found.append({"cube": cube, "answers": kinds, "value": offer.value if offer else None})
    return found


def card_context(played: table_states.TablePlay, *, error: str | None = None,
                 message: str | None = None, version: str | None = None) -> dict[str, Any]:
    """What ``tables/_cube_window.html`` draws for the signed-in viewer (``version``: the
    table's version it shows, when known: a push stream's; else read now)."""
    table, state = played.table, played.state
    row = windows.read_row(table.id)
    window = windows.read_view(played) if table.is_open else None
    me = (deciders.seat_name(current_user, table.id, state)
          if current_user.is_authenticated else None)
    runs = deciders.may_run(current_user, table) and table.is_open
    now = utcnow()
    game = state.game
    mine: dict[str, Any] = {}
    if window is not None and me is not None and window.phase.kind == "window":
        answered = window.answers.get(me)
        asked = me in window.asked and answered != windows.ROLL
        mine = {
            "asked": asked,
            "roll": me == window.roller and answered != windows.ROLL and not asked,
            "waits": me == window.roller and answered == windows.ROLL and window.waiting,
            "hold": (me in window.eligible and me not in window.asked
                     and answered != windows.ROLL),
            "box_cubes": ([m for m in (game.live if game else [])
                           if windows.legal(state, {"type": "double", "by": "box", "cubes": [m]})]
                          if asked and me == state.box and window.phase.side == "box"
                          and state.settings.cube_mode != "single" else []),
        }
    in_game = me is not None and (me == state.box or (game is not None and me in game.members))
    return {
        "table": table, "state": state, "seq": played.seq, "window": window, "me": me,
        "runs": runs, "mine": mine, "row": row,
        "auto": windows.auto_roll(row, state, me) if me else False,
        "show_auto": bool(in_game and table.is_open),
        "seconds_left": window.seconds_left(now) if window is not None else None,
        "expired": window is not None and window.expired(now),
        "box_answers": (_box_answers(state, me, runs)
                        if window is not None and window.phase.kind == "answer" else []),
        "seconds": state.settings.decision_seconds,
        "timeout_answer": state.settings.unanswered_double,
        "error": error, "message": message,
        "version": version or push.table_version(table.id),  # the stream's version it shows
    }


def pushed_card(played: table_states.TablePlay, version: str) -> str:
    """The card drawn for the stream's viewer at ``version`` (``live_shared.pushed_drawing``
    sends it before the live table: the page then fetches nothing for its card)."""
    return render_template("tables/_cube_window.html", **card_context(played, version=version))


@bp.app_template_global()
def cube_window_card(played: table_states.TablePlay | None = None, table: Any = None,
                     state: TableState | None = None, seq: int | None = None) -> Markup:
    """The card, for the table page (tables/show.html): empty at a table that plays at the club."""
    if state is None or table is None or not state.settings.online:
        return Markup("")
    return Markup(render_template("tables/_cube_window.html", **card_context(
        played or table_states.TablePlay(table, state, seq or 0))))


def _card(table_id: int, status: int = 200, **context: Any) -> BaseResponse:
    played = _load(table_id)
    if status == 200 and not played.state.settings.online:
        abort(404)  # a club table has no window to show (a refusal says why)
    response = render_template("tables/_cube_window.html", **card_context(played, **context))
    return BaseResponse(response, status=status, content_type="text/html; charset=utf-8")


@bp.get("/tables/<int:table_id>/window")
@login_required
def card(table_id: int) -> BaseResponse:
    """The card as it is now (polled by the page)."""
    return _card(table_id)


def _run(table_id: int, action: Any, *, runner_only: bool = False) -> BaseResponse:
    """Run one window command and answer with the card (htmx) or a 303 to the table. Only
    the organizer who runs the table and the players seated at it post here (``runner_only``:
    the organizer alone, whatever the table)."""
    played = _load(table_id)
    runs = deciders.may_run(current_user, played.table)
    if runner_only and not runs:
        return error_page(403, _("Only the organizer who runs the table does this."))
    if not (runs or deciders.seat_name(current_user, table_id, played.state) is not None):
        return error_page(403, _("That is not your decision: players make their own decisions "
                                 "at the table, and the organizer runs it."))
    try:
        outcome = action()
    except deciders.NotAllowed as refused:
        return error_page(403, str(refused))
    except base.TableChanged:
        return _card(table_id, 409, error=_("The table changed meanwhile: look again and answer."))
    except base.ServiceError as refused:
        return _card(table_id, 422, error=str(refused))
    if not is_htmx():
        return see_other("tables.show", table_id=table_id)
    response = _card(table_id, message=outcome.message)
    if outcome.rolled:
        response.headers["HX-Trigger"] = "table-changed"
    return response


def _player() -> str | None:
    value = request.form.get("player", "").strip()[:80]
    return value or None


@bp.post("/tables/<int:table_id>/window/roll")
@login_required
def roll(table_id: int) -> BaseResponse:
    """Say "roll" (the roller: roll once the window closes)."""
    return _run(table_id, lambda: windows.answer_roll(table_id, current_user, _player()))


@bp.post("/tables/<int:table_id>/window/hold")
@login_required
def hold(table_id: int) -> BaseResponse:
    """A player on auto-roll holds the roll: asked this time."""
    return _run(table_id, lambda: windows.hold(table_id, current_user, _player()))


@bp.post("/tables/<int:table_id>/window/auto")
@login_required
def auto(table_id: int) -> BaseResponse:
    """Turn one's auto-roll on or off."""
    value = request.form.get("auto", "")

    def choose() -> windows.Outcome:
        if value not in ("on", "off"):
            raise base.ServiceError(_("Auto-roll is on or off."))
        return windows.set_auto_roll(table_id, current_user, value == "on", _player())
    return _run(table_id, choose)


@bp.post("/tables/<int:table_id>/window/time-up")
@login_required
def time_up(table_id: int) -> BaseResponse:
    """The page's countdown reached zero: the server decides what the time limit makes."""
    return _run(table_id, lambda: windows.time_up(table_id, current_user))


@bp.post("/tables/<int:table_id>/window/close")
@login_required
def close(table_id: int) -> BaseResponse:
    """The runner closes the decision now, as its time limit would."""
    return _run(table_id, lambda: windows.time_up(table_id, current_user, force=True), runner_only=True)


@bp.post("/tables/<int:table_id>/answer-all")
@login_required
def answer_all(table_id: int) -> BaseResponse:
    """The box answers every waiting cube in one screen."""
    raw = request.form.get("seq", "")
    answers = {key[len("answer-"):]: value for key, value in request.form.items()
               if key.startswith("answer-") and len(key) < 100}

    def answer() -> windows.Outcome:
        if not raw.isdigit() or len(raw) > 9:
            raise base.ServiceError(_("This page is out of date: reload it."))
        return windows.answer_all(table_id, int(raw), current_user, answers)
    return _run(table_id, answer)
