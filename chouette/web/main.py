"""The home page (dashboard), the first-run page and the member's own preferences."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response as BaseResponse

from chouette.services import base, members, tables
from chouette.services import nights as nights_service
from chouette.web import live_seats
from chouette.web.auth import sign_in
from chouette.web.forms import AccountForm, SetupForm
from chouette.web.htmx import see_other

bp = Blueprint("main", __name__)


@bp.get("/")
def home() -> BaseResponse | str:
    """The dashboard: the member's own tables (their seat, a decision waiting for them), tonight's
    open nights and their tables; the first run goes to setup."""
    if not current_user.is_authenticated:
        if members.needs_setup():
            return redirect(url_for("main.setup"))
        return render_template("main/welcome.html")
    nights = nights_service.open_nights()
    mine = live_seats.player_tables(current_user, nights)
    # Not seated anywhere: a "Sit down" at each open table, posted at its seq now.
    seqs = {} if mine else {table.id: tables.last_seq(table.id)
                            for night in nights for table in night.tables if table.closed_at is None}
    return render_template("main/home.html", nights=nights, my_tables=mine, seqs=seqs)


@bp.route("/setup", methods=["GET", "POST"])
def setup() -> BaseResponse | tuple[str, int]:
    """First start: the first visitor creates the admin, only while no member exists."""
    if not members.needs_setup():
        flash(_("The club is already set up: please sign in."), "info")
        return see_other("auth.login")
    form = SetupForm()
    if form.validate_on_submit():
        try:
            member = members.create_first_admin(
                name=form.name.data or "", username=form.username.data or "", password=form.password.data or ""
            )
        except base.AlreadySetUp as error:
            flash(str(error), "info")
            return see_other("auth.login")
        except base.ServiceError as error:
            form.form_errors.append(str(error))
        else:
            sign_in(member)
            flash(_("Welcome, %(name)s: you are the club's admin. Add the members next.", name=member.name), "success")
            return see_other("admin.members")
    return render_template("main/setup.html", form=form), 422 if form.errors else 200


@bp.route("/account", methods=["GET", "POST"])
@login_required
def account() -> BaseResponse | tuple[str, int]:
    """The signed-in member's language, and whether a forced move plays by itself online."""
    form = AccountForm(locale=current_user.locale or "",
                       auto_forced_moves=bool(current_user.auto_forced_moves))
    if form.validate_on_submit():
        members.set_locale(current_user, form.locale.data or None)
        members.set_auto_forced_moves(current_user, bool(form.auto_forced_moves.data))
        flash(_("Saved."), "success")
        return see_other("main.account")
    return render_template("main/account.html", form=form), 422 if form.errors else 200
