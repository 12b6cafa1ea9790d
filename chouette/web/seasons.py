"""Seasons: the list, creating one, its page (nights, standings, payments, IOUs, its settle-up
with "paid" ticks), closing it, and its CSV exports."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, flash, render_template
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response as BaseResponse
from wtforms import BooleanField, DateField, StringField
from wtforms.validators import InputRequired, Length, Regexp

from chouette.models import Season
from chouette.services import base, season_checks
from chouette.services import seasons as seasons_service
from chouette.web import privacy
from chouette.web.auth import role_required
from chouette.web.exports import download
from chouette.web.forms import PostForm
from chouette.web.htmx import is_htmx, render_page, see_other
from chouette.web.money import (
    payment_news,
    posted_name,
    signed_amount,
    typed_amount,
    typed_payment,
)

bp = Blueprint("seasons", __name__, url_prefix="/seasons")


class SeasonForm(FlaskForm):
    """Create a season: its name, first and last date, currency."""

    name = StringField(_l("Name"), validators=[InputRequired(), Length(max=80)])
    first_date = DateField(_l("First date"),
                           validators=[InputRequired(message=_l("Enter a date such as 2026-11-21."))])
    last_date = DateField(_l("Last date"),
                          validators=[InputRequired(message=_l("Enter a date such as 2026-11-21."))])
    currency = StringField(
        _l("Currency"),
        validators=[InputRequired(), Regexp(r"^[A-Za-z]{3}$", message=_l("A three-letter code such as EUR."))],
    )


class CloseSeasonForm(FlaskForm):
    """Close a season: the organizer ticks that the standings are final."""

    confirm = BooleanField(_l("The standings are final: close the season"))


def get_season(season_id: int) -> Season:
    """The season, or 404."""
    try:
        return season_checks.get_season(season_id)
    except base.NotFound:
        abort(404)


@bp.get("/")
@login_required
def index() -> BaseResponse:
    """Every season, the latest first."""
    seasons = seasons_service.list_seasons()
    nights = {season.id: len(seasons_service.season_nights(season)) for season in seasons}
    return render_page("seasons/index.html", "seasons/_season_list.html", seasons=seasons,
                       night_counts=nights)


@bp.route("/new", methods=["GET", "POST"])
@role_required("organizer")
def new() -> BaseResponse | tuple[str, int]:
    """Create a season (an organizer's use-case)."""
    form = SeasonForm()
    if not form.is_submitted():
        form.currency.data = seasons_service.usual_currency()
        form.name.data = _("Season")
    if form.validate_on_submit():
        try:
            season = seasons_service.create_season(
                name=form.name.data or "", first=form.first_date.data, last=form.last_date.data,
                currency=form.currency.data or "", actor=current_user,
            )
        except base.ServiceError as error:
            form.form_errors.append(str(error))
        else:
            flash(_("The season is created."), "success")
            return see_other("seasons.show", season_id=season.id)
    return render_template("seasons/new.html", form=form), 422 if form.is_submitted() else 200


def _context(season_id: int) -> dict[str, Any]:
    """What the season's page shows, cut by the privacy rule (a player: their own row)."""
    plan = privacy.season(current_user, seasons_service.season_settle_up(season_id))
    return {"plan": plan, "season": plan.season, "typed": None, "error": None, "notice": None,
            "close_form": CloseSeasonForm(), "everyone": privacy.sees_everyones_money(current_user)}


@bp.get("/<int:season_id>")
@login_required
def show(season_id: int) -> BaseResponse:
    """The season: its nights, standings, payments, IOUs, settle-up (page, or its fragment)."""
    get_season(season_id)
    return render_page("seasons/show.html", "seasons/_season.html", **_context(season_id))


def _refused(season_id: int, message: str, typed: dict[str, str] | None = None) -> BaseResponse:
    """The season again, status 422, the refusal shown and what was typed kept."""
    context = _context(season_id)
    context.update(typed=typed, error=message)
    return render_page("seasons/show.html", "seasons/_season.html", status=422, **context)


def _after(season_id: int, message: str) -> BaseResponse:
    """htmx: the recomputed season (with the news); a browser: a flash and back to the page."""
    if is_htmx():
        context = _context(season_id)
        context["notice"] = message
        response = render_page("seasons/show.html", "seasons/_season.html", **context)
        response.headers["HX-Trigger"] = "ledger-changed"
        return response
    flash(message, "success")
    return see_other("seasons.show", season_id=season_id)


@bp.post("/<int:season_id>/payments")
@role_required("organizer")
def record_payment(season_id: int) -> BaseResponse:
    """Tick a season transfer as paid (cash, transfer or IOU): a payment at the season."""
    season = get_season(season_id)
    if not PostForm().validate_on_submit():
        abort(400)
    typed = typed_payment()
    try:
        payment = seasons_service.record_season_payment(
            season.id, payer=posted_name("payer"), payee=posted_name("payee"),
            cents=typed_amount(typed["amount"]), method=typed["method"], actor=current_user,
        )
    except base.ServiceError as error:
        return _refused(season.id, str(error), typed)
    return _after(season.id, payment_news(payment, season.currency))


@bp.post("/<int:season_id>/payments/undo")
@role_required("organizer")
def undo_payment(season_id: int) -> BaseResponse:
    """Take back the season's latest payment (a wrong tick)."""
    season = get_season(season_id)
    if not PostForm().validate_on_submit():
        abort(400)
    try:
        removed = seasons_service.undo_last_season_payment(season.id, actor=current_user)
    except base.ServiceError as error:
        return _refused(season.id, str(error))
    last = removed[-1]
    return _after(season.id, _("Taken back: %(payer)s to %(payee)s, %(amount)s.", payer=last.payer,
                               payee=last.payee, amount=signed_amount(last.cents, season.currency)))


@bp.post("/<int:season_id>/close")
@role_required("organizer")
def close(season_id: int) -> BaseResponse:
    """Close the season (the box ticked): refused while a night is open or money is owed."""
    season = get_season(season_id)
    form = CloseSeasonForm()
    if not form.validate_on_submit():
        abort(400)
    if not form.confirm.data:
        return _refused(season.id, _("Tick the box to confirm that the season's standings are final."))
    try:
        seasons_service.close_season(season.id, actor=current_user)
    except base.ServiceError as error:
        return _refused(season.id, str(error))
    return _after(season.id, _("The season is closed."))


@bp.get("/<int:season_id>/standings.csv")
@role_required("organizer")
def standings_csv(season_id: int) -> Response:
    """The season's standings as CSV: each player night by night, and their totals."""
    season = get_season(season_id)
    return download(seasons_service.season_standings_csv(season.id), "text/csv",
                     seasons_service.season_filename(season, "standings.csv"))


@bp.get("/<int:season_id>/payments.csv")
@role_required("organizer")
def payments_csv(season_id: int) -> Response:
    """Every payment of the season (its nights' and its own), those taken back marked."""
    season = get_season(season_id)
    return download(seasons_service.season_payments_csv(season.id), "text/csv",
                     seasons_service.season_filename(season, "payments.csv"))
