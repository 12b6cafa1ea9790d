"""Club nights: the list, opening one, its page with its tables, closing it (asking first
when a game is in progress), an admin reopening it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Blueprint, abort, current_app, flash, render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response as BaseResponse
from wtforms import BooleanField, StringField

from chouette.models import Night
from chouette.services import base, display, night_rows, nights, table_close, table_states
from chouette.web.auth import has_role, role_required
from chouette.web.forms import NightForm
from chouette.web.htmx import is_htmx, render_page, see_other

bp = Blueprint("nights", __name__, url_prefix="/nights")


class CloseNightForm(FlaskForm):
    """Close a night: with a game in progress, the organizer ticks that it stays unfinished."""

    confirm = BooleanField(_l("Close all the same: these games stay unfinished"))


class ReopenNightForm(FlaskForm):
    """Reopen a closed night (an admin): why."""

    reason = StringField(_l("Why reopen it?"))


def get_night(night_id: int, *, for_change: bool = False) -> Night:
    """The night, if it exists (404) and, ``for_change``, if this member may run it (403)."""
    try:
        night = night_rows.get_night(night_id)
    except base.NotFound:
        abort(404)
    if for_change and not has_role(current_user, "organizer"):
        abort(403)
    return night


@bp.get("/")
@login_required
def index() -> BaseResponse:
    """Every night, the latest first."""
    return render_page("nights/index.html", "nights/_night_list.html", nights=nights.list_nights())


@bp.route("/new", methods=["GET", "POST"])
@role_required("organizer")
def new() -> BaseResponse | tuple[str, int]:
    """Open a night (an organizer's use-case)."""
    form = NightForm()
    if not form.is_submitted():
        form.date.data = dt.date.today()
        form.name.data = _("Club night")
        form.currency.data = current_app.config["CLUB_CURRENCY"]
    if form.validate_on_submit():
        try:
            night = nights.open_night(
                name=form.name.data or "", on=form.date.data, currency=form.currency.data or "", actor=current_user
            )
        except base.ServiceError as error:
            form.form_errors.append(str(error))
        else:
            flash(_("The night is open. Add its tables."), "success")
            return see_other("nights.show", night_id=night.id)
    return render_template("nights/new.html", form=form), 422 if form.is_submitted() else 200


@bp.get("/<int:night_id>")
@login_required
def show(night_id: int) -> BaseResponse:
    """A night and its tables."""
    night = get_night(night_id)
    may_close = night.is_open and nights.may_close_night(current_user, night)
    return render_page("nights/show.html", "nights/_table_list.html", night=night, may_close=may_close,
                       in_force=nights.rules_in_force(night),
                       open_tables=table_rows(night.id), closed_tables=table_close.closed_tables(night.id),
                       display_version=display.display_version(night.id),
                       games=nights.games_in_progress(night.id) if may_close and not is_htmx() else [],
                       may_reopen=not night.is_open and nights.may_reopen_night(current_user),
                       reopen_form=ReopenNightForm(), reopenings=nights.night_reopenings(night.id))


def table_rows(night_id: int) -> list[dict[str, Any]]:
    """The night's open tables, each with its box, its captain, its players and the games played (the
    night page's list, fetched again whenever the night's push stream says a table moved)."""
    rows = []
    for table in table_close.open_tables(night_id):
        state = table_states.load_play(table.id).state
        rows.append({"table": table, "box": state.box, "captain": state.captain,
                     "players": len(state.seated), "games": len(state.games),
                     "in_game": state.game is not None})
    return rows


@bp.route("/<int:night_id>/close", methods=["GET", "POST"])
@role_required("organizer")
def close(night_id: int) -> BaseResponse | str:
    """Close a night: its tables stop changing. The page asks first, naming the games in
    progress and what they wait for; a close with a game in progress needs the box ticked."""
    night = get_night(night_id, for_change=True)
    if not nights.may_close_night(current_user, night):
        abort(403)
    form = CloseNightForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        try:
            nights.close_night(night.id, actor=current_user, confirm_games=bool(form.confirm.data))
        except nights.GamesInProgress as error:
            flash(str(error), "error")
            return see_other("nights.close", night_id=night.id)
        flash(_("The night is closed."), "success")
        return see_other("nights.show", night_id=night.id)
    if not night.is_open:
        flash(_("This night is already closed."), "info")
        return see_other("nights.show", night_id=night.id)
    return render_template("nights/close.html", night=night, form=form,
                           games=nights.games_in_progress(night.id))


@bp.post("/<int:night_id>/reopen")
@role_required("admin")
def reopen(night_id: int) -> BaseResponse:
    """Reopen a closed night (an admin, saying why): its tables take commands again."""
    night = get_night(night_id, for_change=True)
    form = ReopenNightForm()
    if not form.validate_on_submit():
        abort(400)
    nights.reopen_night(night.id, actor=current_user, reason=form.reason.data or "")
    flash(_("The night is open again."), "success")
    return see_other("nights.show", night_id=night.id)
