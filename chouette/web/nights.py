"""Club nights: the list, opening one, its page with its tables, closing it."""

from __future__ import annotations

import datetime as dt

from flask import Blueprint, abort, current_app, flash, render_template
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response as BaseResponse

from chouette import services
from chouette.models import Night
from chouette.web.auth import has_role, role_required
from chouette.web.forms import NightForm, PostForm
from chouette.web.htmx import render_page, see_other

bp = Blueprint("nights", __name__, url_prefix="/nights")


def get_night(night_id: int, *, for_change: bool = False) -> Night:
    """The night, if it exists (404) and, ``for_change``, if this member may run it (403)."""
    try:
        night = services.get_night(night_id)
    except services.NotFound:
        abort(404)
    if for_change and not has_role(current_user, "organizer"):
        abort(403)
    return night


@bp.get("/")
@login_required
def index() -> BaseResponse:
    """Every night, the latest first."""
    return render_page("nights/index.html", "nights/_night_list.html", nights=services.list_nights())


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
            night = services.open_night(
                name=form.name.data or "", on=form.date.data, currency=form.currency.data or "", actor=current_user
            )
        except services.ServiceError as error:
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
    return render_page("nights/show.html", "nights/_table_list.html", night=night, close_form=PostForm())


@bp.post("/<int:night_id>/close")
@role_required("organizer")
def close(night_id: int) -> BaseResponse:
    """Close a night: its tables stop changing."""
    night = get_night(night_id, for_change=True)
    if not PostForm().validate_on_submit():
        abort(400)
    services.close_night(night.id, actor=current_user)
    flash(_("The night is closed."), "success")
    return see_other("nights.show", night_id=night.id)
