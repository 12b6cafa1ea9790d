"""Money after play: a night's ledger, its settle-up with payments, balances across nights."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, request
from flask_babel import gettext as _
from flask_login import current_user, login_required
from markupsafe import Markup, escape
from werkzeug.wrappers import Response as BaseResponse

from chouette.amounts import format_cents
from chouette.ledger import LedgerError, cents_to_decimal, parse_cents
from chouette.models import PAYMENT_METHODS
from chouette.services import base, money, night_rows, season_checks
from chouette.services import ledger as ledger_service
from chouette.web import privacy
from chouette.web.auth import has_role, role_required
from chouette.web.converters import MAX_ID
from chouette.web.forms import PostForm
from chouette.web.htmx import is_htmx, render_page, see_other

bp = Blueprint("money", __name__)

MAX_NAME = 80


@bp.app_template_filter("signed_money")
def signed_money(cents: int, currency: str) -> Markup:
    """``cents`` in ``currency`` as a span marked by sign: ``+€5.00`` (won), ``-€5.00`` (owes)."""
    text = format_cents(cents, currency)
    if cents > 0:
        kind, text = "pos", "+" + text
    elif cents < 0:
        kind = "neg"
    else:
        kind = "zero"
    return Markup('<span class="amount {}">{}</span>').format(kind, escape(text))


@bp.app_template_filter("cents_decimal")
def cents_decimal(cents: int) -> str:
    """``cents`` as a plain amount for an input (``12.50``), what the payment forms take back."""
    return cents_to_decimal(cents)


@bp.app_context_processor
def money_helpers() -> dict[str, Any]:
    """``my_balances()``: the signed-in member's balances (matched by their name), per currency."""

    def my_balances() -> list[money.CurrencyBalances]:
        if not current_user.is_authenticated:
            return []
        return money.club_balances(player=current_user.name)

    return {"my_balances": my_balances, "payment_methods": PAYMENT_METHODS}


def _night(night_id: int) -> Any:
    """The night, or 404."""
    try:
        return night_rows.get_night(night_id)
    except base.NotFound:
        abort(404)


def posted_name(field: str) -> str:
    """A player's name from the form (trimmed, bounded)."""
    return (request.form.get(field) or "").strip()[:MAX_NAME]


def typed_amount(text: str) -> int:
    """Typed money (``12.50`` or ``12,50``) as int cents. Raises ServiceError on garbage."""
    try:
        if len(text) > 20:
            raise LedgerError(text[:20])
        return parse_cents(text.strip().replace(",", "."))
    except LedgerError:
        raise base.ServiceError(_("Enter an amount such as 12.50.")) from None


@bp.get("/nights/<int:night_id>/ledger")
@login_required
def ledger(night_id: int) -> BaseResponse:
    """The night's ledger: per player, and game by game (page, or its fragment for htmx);
    for its players and the organizers (``chouette.web.privacy``)."""
    privacy.require_night_money(_night(night_id))
    book = ledger_service.night_ledger(night_id)
    return render_page("money/ledger.html", "money/_ledger.html", book=book, night=book.night)


def _settle_context(night_id: int, leaver: str | None, scope: str) -> dict[str, Any]:
    """What the settle-up page shows, to whoever may see the night's money (else 403); the
    cumulative balances and the IOUs carried over as the privacy rule cuts them."""
    privacy.require_night_money(_night(night_id))
    plan = privacy.settle_up(current_user, money.night_settle_up(night_id, leaver or None))
    cumulative = None
    if scope == "all":
        cumulative = next((group for group in privacy.balances(current_user)
                           if group.currency == plan.night.currency), None)
    return {"plan": plan, "night": plan.night, "scope": scope, "cumulative": cumulative,
            "typed": None, "error": None, **_season_context(plan.night)}


def _season_context(night: Any) -> dict[str, Any]:
    """The night's season, and whether its payments are made there (the season closed, or
    settled as a whole): then the night's ticks are not offered."""
    season = season_checks.season_of(night)
    at_season = season is not None and (not season.is_open or season_checks.is_settled_at_season(season))
    return {"season": season, "at_season": at_season}


def _scope() -> str:
    """``night`` (default) or ``all`` (the cumulative balances too)."""
    return "all" if request.values.get("scope") == "all" else "night"


@bp.get("/nights/<int:night_id>/settle")
@login_required
def settle(night_id: int) -> BaseResponse:
    """The night's settle-up; ``?leaver=Name`` settles one early leaver alone."""
    _night(night_id)
    leaver = (request.args.get("leaver") or "").strip()[:MAX_NAME] or None
    try:
        context = _settle_context(night_id, leaver, _scope())
    except base.ServiceError as error:  # nobody by that name left to settle
        context = _settle_context(night_id, None, _scope())
        context["error"] = str(error)
        return render_page("money/settle.html", "money/_settle_up.html", status=422, **context)
    return render_page("money/settle.html", "money/_settle_up.html", **context)


@bp.post("/nights/<int:night_id>/payments")
@login_required
def record_payment(night_id: int) -> BaseResponse:
    """Tick a transfer as paid (cash, transfer or IOU): records a payment; the list recomputes.

    An organizer ticks any transfer; a player ticks the ones paid to them (the payee confirms
    what they received, so a night settles without the treasurer at every handshake).
    """
    _night(night_id)
    if not has_role(current_user, "organizer") and posted_name("payee") != current_user.name:
        abort(403)
    if not PostForm().validate_on_submit():
        abort(400)
    typed = typed_payment()
    leaver = posted_name("leaver") or None
    try:
        payment = money.record_payment(
            night_id, payer=posted_name("payer"), payee=posted_name("payee"),
            cents=typed_amount(typed["amount"]), method=typed["method"], actor=current_user,
        )
    except base.ServiceError as error:
        return _refused(night_id, leaver, str(error), typed)
    return _after_payment(night_id, leaver, payment_news(payment, _night(night_id).currency))


def signed_amount(cents: int, currency: str) -> str:
    """An amount as plain text for messages."""
    return format_cents(cents, currency)


def typed_payment() -> dict[str, str]:
    """What a tick's form carried, kept to give it back when the payment is refused."""
    return {key: (request.form.get(key) or "")[:40] for key in ("payer", "payee", "amount", "method")}


def payment_news(payment: Any, currency: str) -> str:
    """The message after a tick: who paid (or owes, an IOU) whom how much."""
    amount = signed_amount(payment.cents, currency)
    if payment.method == "iou":
        return _("%(payer)s owes %(payee)s %(amount)s (IOU).", payer=payment.payer,
                 payee=payment.payee, amount=amount)
    return _("%(payer)s paid %(payee)s %(amount)s.", payer=payment.payer, payee=payment.payee,
             amount=amount)


def _refused(night_id: int, leaver: str | None, message: str, typed: dict[str, str]) -> BaseResponse:
    """The settle-up again, status 422, the refusal shown and what was typed kept."""
    try:
        context = _settle_context(night_id, leaver, _scope())
    except base.ServiceError:
        context = _settle_context(night_id, None, _scope())
    context.update(typed=typed, error=message)
    return render_page("money/settle.html", "money/_settle_up.html", status=422, **context)


def _after_payment(night_id: int, leaver: str | None, message: str) -> BaseResponse:
    """htmx: the recomputed settle-up (with the news); a browser: a flash and back to the page."""
    if is_htmx():
        try:
            context = _settle_context(night_id, leaver, _scope())
        except base.ServiceError:  # the leaver is settled: back to the whole night
            context = _settle_context(night_id, None, _scope())
        context["notice"] = message
        response = render_page("money/settle.html", "money/_settle_up.html", **context)
        response.headers["HX-Trigger"] = "ledger-changed"
        return response
    flash(message, "success")
    values: dict[str, Any] = {"night_id": night_id}
    if leaver and leaver in money.night_settle_up(night_id).open_balances:
        values["leaver"] = leaver
    if _scope() == "all":
        values["scope"] = "all"
    return see_other("money.settle", **values)


@bp.post("/nights/<int:night_id>/payments/undo")
@role_required("organizer")
def undo_payment(night_id: int) -> BaseResponse:
    """Take back the night's latest payment (a wrong tick)."""
    _night(night_id)
    if not PostForm().validate_on_submit():
        abort(400)
    try:
        removed = money.undo_last_payment(night_id, actor=current_user)
    except base.ServiceError as error:
        return _refused(night_id, None, str(error), {})
    currency = _night(night_id).currency
    last = removed[-1]
    message = _("Taken back: %(payer)s to %(payee)s, %(amount)s.", payer=last.payer,
                payee=last.payee, amount=signed_amount(last.cents, currency))
    return _after_payment(night_id, None, message)


@bp.post("/ious/pay")
@role_required("organizer")
def pay_iou() -> BaseResponse:
    """Pay off (part of) a standing IOU in cash or by transfer."""
    if not PostForm().validate_on_submit():
        abort(400)
    back = request.form.get("back_night", "")
    back_season = request.form.get("back_season", "")
    iou_night: int | None = _form_id("iou_night")
    iou_season = _form_id("iou_season") if "iou_season" in request.form else None
    if iou_season is not None:  # an IOU made at a season's settle-up
        iou_night = None
    try:
        payment = money.pay_iou(
            iou_night, payer=posted_name("payer"), payee=posted_name("payee"),
            cents=typed_amount(request.form.get("amount") or ""),
            method=(request.form.get("method") or "")[:20], actor=current_user, season_id=iou_season,
        )
    except base.NotFound:
        abort(404)
    except base.ServiceError as error:
        if is_htmx():
            raise
        flash(str(error), "error")
        return _back_to(back, back_season)
    currency = (_night(iou_night).currency if iou_night is not None
                else season_checks.get_season(iou_season or 0).currency)
    flash(_("%(payer)s paid off %(amount)s of the IOU to %(payee)s.", payer=payment.payer,
            payee=payment.payee, amount=signed_amount(payment.cents, currency)),
          "success")
    return _back_to(back, back_season)


def _form_id(field: str) -> int:
    """An id posted in the form (0, which names no row, when it is not a number)."""
    text = request.form.get(field, "")
    number = int(text) if text.isdecimal() and len(text) <= 10 else 0
    return number if number <= MAX_ID else 0


def _back_to(back: str, back_season: str = "") -> BaseResponse:
    """The settle-up page (of a night, or a season) the form came from, else the balances."""
    if back.isdecimal() and len(back) <= 10:
        return see_other("money.settle", night_id=int(back))
    if back_season.isdecimal() and len(back_season) <= 10:
        return see_other("seasons.show", season_id=int(back_season))
    return see_other("money.balances")


@bp.get("/balances")
@login_required
def balances() -> BaseResponse:
    """Balances across nights: everyone's for whoever sees everyone's money (the treasurer),
    a player's own otherwise (``chouette.web.privacy``)."""
    everyone = privacy.sees_everyones_money(current_user)
    groups = privacy.balances(current_user)
    return render_page("money/balances.html", "money/_balances.html", groups=groups,
                       everyone=everyone)
