"""Tables: create one with settings or a preset, its page, its printable house-rules card;
closing and reopening a finished table; a signed-in member sitting down and standing up."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, flash, render_template, request
from flask_babel import force_locale
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response as BaseResponse

from chouette.models import ChouetteTable
from chouette.refusals import say
from chouette.services import base, table_close, tables
from chouette.table import TableError
from chouette.web import house_rules
from chouette.web.auth import has_role, role_required
from chouette.web.forms import TableForm
from chouette.web.htmx import render_page, see_other
from chouette.web.nights import get_night

bp = Blueprint("tables", __name__)


def get_table(table_id: int, *, for_change: bool = False) -> ChouetteTable:
    """The table, if it exists (404) and, ``for_change``, if this member may run it (403)."""
    try:
        table = tables.get_table(table_id)
    except base.NotFound:
        abort(404)
    if for_change and not has_role(current_user, "organizer"):
        abort(403)
    return table


@bp.route("/nights/<int:night_id>/tables/new", methods=["GET", "POST"])
@role_required("organizer")
def new(night_id: int) -> BaseResponse:
    """The new-table form; choosing a preset (``?preset=``) fills in its settings."""
    night = get_night(night_id, for_change=True)
    form = TableForm()
    status = 200
    if request.method == "GET":
        preset = request.args.get("preset", "club-standard")
        form.fill(tables.PRESETS.get(preset, tables.TABLE_DEFAULTS))
        form.preset.data = preset if preset in tables.PRESETS else ""
        form.name.data = request.args.get("name") or _("Table %(number)d", number=len(night.tables) + 1)
    elif form.validate_on_submit():
        try:
            table = tables.create_table(night.id, name=form.name.data or "", settings=form.settings(), actor=current_user)
        except base.ServiceError as error:
            form.form_errors.append(str(error))
            status = 422
        else:
            flash(_("Table %(name)s is ready.", name=table.name), "success")
            return see_other("tables.show", table_id=table.id)
    else:
        status = 422
    return render_page("tables/new.html", "tables/_table_form.html", status=status, form=form, night=night)


@bp.get("/tables/<int:table_id>")
@login_required
def show(table_id: int) -> BaseResponse:
    """A table: the live table (chouette.web.play), its QR code, its house-rules card."""
    from chouette.services import table_states
    from chouette.web.live import page_context

    table = get_table(table_id)
    played = table_states.load_play(table_id)
    context = page_context(played)
    context.update(house_rules.card(played.state, table.night.currency))
    return render_page("tables/show.html", "tables/_rules_card.html", **context)


@bp.get("/tables/<int:table_id>/rules")
@login_required
def rules(table_id: int) -> str:
    """The printable house-rules card, in English and in Italian side by side."""
    from chouette.services import table_states

    table = get_table(table_id)
    state = table_states.load_play(table_id).state
    cards = []
    for locale in ("en", "it"):
        with force_locale(locale):
            cards.append(
                render_template(
                    "tables/_rules_card.html", table=table, night=table.night, lang=locale,
                    **house_rules.card(state, table.night.currency),
                )
            )
    return render_template("tables/rules.html", table=table, night=table.night, cards=cards)


# --------------------------------------------------------------------------- close, reopen, seats


def _seq_posted() -> int | None:
    raw = request.form.get("seq", "")
    return int(raw) if raw.isdigit() and len(raw) < 10 else None


def _close_or_reopen(table_id: int, change: Callable[..., Any],
                     said: Callable[[ChouetteTable], str],
                     then: Callable[[ChouetteTable], BaseResponse]) -> BaseResponse:
    """Close or reopen the table (``change``, of ``table_close``): ``said`` flashed, then the
    page ``then`` names; a refusal flashed on the table's page; 403 for another's table."""
    table = get_table(table_id, for_change=True)
    try:
        change(table.id, actor=current_user)
    except table_close.NotYourTable:
        abort(403)
    except base.ServiceError as refused:
        flash(str(refused), "error")
        return see_other("tables.show", table_id=table_id)
    flash(said(table), "success")
    return then(table)


@bp.post("/tables/<int:table_id>/close")
@role_required("organizer")
def close(table_id: int) -> BaseResponse:
    """Close a finished table (refused while a game is in progress, with the reason)."""
    return _close_or_reopen(
        table_id, table_close.close_table,
        lambda table: _("Table %(name)s is closed: its history stays. It can be reopened.",
                        name=table.name),
        lambda table: see_other("nights.show", night_id=table.night_id))


@bp.post("/tables/<int:table_id>/reopen")
@role_required("organizer")
def reopen(table_id: int) -> BaseResponse:
    """Reopen a closed table of an open night."""
    return _close_or_reopen(
        table_id, table_close.reopen_table,
        lambda table: _("Table %(name)s is open again.", name=table.name),
        lambda table: see_other("tables.show", table_id=table.id))


@bp.post("/tables/<int:table_id>/sit")
@login_required
def sit(table_id: int) -> BaseResponse:
    """The signed-in member sits down at the table (from its QR code or the home page), or
    asks its runner to admit them where the table does not admit members by itself
    (``web.social.ask_to_sit``)."""
    from chouette.services import deciders, seat_requests
    from chouette.web import social

    table = get_table(table_id)
    if not seat_requests.admits_by_itself(table) and not deciders.may_run(current_user, table):
        seq = _seq_posted()
        if seq is None:
            flash(_("This page is out of date: reload it."), "error")
            return see_other("tables.show", table_id=table_id)
        return social.ask_to_sit(table_id, seq)
    return _own_seat(table_id, table_close.sit_down, _("You sit at the table."))


@bp.post("/tables/<int:table_id>/stand")
@login_required
def stand(table_id: int) -> BaseResponse:
    """The signed-in member leaves the table, when the rules let them."""
    get_table(table_id)
    return _own_seat(table_id, table_close.stand_up, _("You left the table."))


def _own_seat(table_id: int, act: Callable[[int, int, Any], Any], done: str) -> BaseResponse:
    """Sit down or stand up: the page's seq, the command, a flashed answer, back to the table."""
    seq = _seq_posted()
    if seq is None:
        flash(_("This page is out of date: reload it."), "error")
        return see_other("tables.show", table_id=table_id)
    try:
        act(table_id, seq, current_user)
    except (base.ServiceError, TableError) as refused:
        flash(say(refused), "error")
    else:
        flash(done, "success")
    return see_other("tables.show", table_id=table_id)
