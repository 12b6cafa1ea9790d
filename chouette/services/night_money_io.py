"""The money of a night beside its tables in the night's export, and back at its import: every
payment (cash, transfer, IOU; an IOU paid off later is its reverse IOU and its cash or transfer,
recorded on the IOU's night), those taken back, and when the night opened and closed.

Export (``night_payments_export``, ``night_times_export``)::

    "night": {..., "opened_at": "2026-11-21T19:02:11.482113", "closed_at": null},
    "payments": [{"payer": "Bob", "payee": "Ann", "cents": 400, "method": "cash",
                  "at": "2026-11-21T23:40:05.120044", "taken_back_at": null}, ...]

Times are naive UTC to the microsecond, as stored: the rows of one recording (an IOU paid off)
share their time, which the settle-up reads (``chouette.services.money``), and an undo takes
back the latest recording. A season's own payments (at its settle-up) are in the season's
payments CSV, never in a night's export.

Import (``check_night_times``, ``check_payments``, ``add_payments``): everything is checked
before anything is written, and one bad payment refuses the whole file (``PaymentsRefused``,
which the import reports as its own refusal). The rows are written with the night, in the
transaction that publishes it: no page sees the night without its payments.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from chouette.extensions import db
from chouette.models import PAYMENT_METHODS, Night, Payment, PaymentVoid
from chouette.services import identity
from chouette.services.base import ServiceError

#: At most this many payments in one night's export (a busy night records a few dozen).
MAX_IMPORT_PAYMENTS = 10_000
#: The largest amount a payment may hold: what the 64-bit ``Cents`` column holds.
MAX_PAYMENT_CENTS = 2**63 - 1


class PaymentsRefused(ServiceError):
    """A night export whose payments or times cannot be imported; the message says which and why."""


@dataclass(frozen=True)
class CheckedPayment:
    """A payment of an import, checked."""

    payer: str
    payee: str
    cents: int
    method: str
    at: dt.datetime
    taken_back_at: dt.datetime | None


# --------------------------------------------------------------------------- export


def _time(value: dt.datetime | None) -> str | None:
    return None if value is None else value.isoformat(timespec="microseconds")


def night_times_export(night: Night) -> dict[str, str | None]:
    """When the night opened and closed (None while open), for its export."""
    return {"opened_at": _time(night.opened_at), "closed_at": _time(night.closed_at)}


def night_payments_export(night_id: int) -> list[dict[str, Any]]:
    """Every payment recorded for the night, those taken back included (with the time they
    were), oldest first."""
    query = (select(Payment, PaymentVoid.at)
             .outerjoin(PaymentVoid, PaymentVoid.payment_id == Payment.id)
             .where(Payment.night_id == night_id).order_by(Payment.at, Payment.id))
    return [{"payer": payment.payer, "payee": payment.payee, "cents": payment.cents,
             "method": payment.method, "at": _time(payment.at), "taken_back_at": _time(voided)}
            for payment, voided in db.session.execute(query)]


# --------------------------------------------------------------------------- import


def _parse_time(value: object) -> dt.datetime | None:
    """A stored time from its ISO text (naive UTC; one with an offset is turned to UTC), or
    None when it is not one."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(dt.UTC).replace(tzinfo=None)
    return parsed


def check_night_times(night: Mapping[str, Any], closed: bool) -> tuple[dt.datetime | None, dt.datetime | None]:
    """The night's opening and closing times of an export (None where it gives none: an older
    export). Raises PaymentsRefused."""
    found: list[dt.datetime | None] = []
    for key in ("opened_at", "closed_at"):
        value = night.get(key)
        parsed = _parse_time(value)
        if value is not None and parsed is None:
            raise PaymentsRefused(_("The night's %(field)s is not a date and time (YYYY-MM-DDTHH:MM:SS).",
                                    field=key))
        found.append(parsed)
    opened, closed_at = found
    if closed_at is not None and not closed:
        raise PaymentsRefused(_("The night has a closing time but is not closed."))
    if opened is not None and closed_at is not None and closed_at < opened:
        raise PaymentsRefused(_("The night closes before it opens."))
    return opened, closed_at


def unknown_key(data: Mapping[Any, Any], known: frozenset[str]) -> str | None:
    """The first key of ``data`` (sorted, cut to 40 characters) that is not ``known``: an
    export's misspelt key is refused, never passed over (``import_checks`` too)."""
    unknown = sorted(str(key)[:40] for key in data if key not in known)
    return unknown[0] if unknown else None


#: The keys of a payment in a night export (``night_payments_export``).
PAYMENT_KEYS = frozenset({"payer", "payee", "cents", "method", "at", "taken_back_at"})


def check_payments(raw: object, players: Collection[str]) -> list[CheckedPayment]:
    """The payments of a night export, each checked: between two players of the night's ledger
    (``players``), an amount of more than zero, a known method, its time (and the time it was
    taken back, not before it). An export without payments (an older one) has none.

    Raises:
        PaymentsRefused: the payment's number (from 1) and what is wrong with it.
    """
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise PaymentsRefused(_('A night export\'s "payments" is a list.'))
    if len(raw) > MAX_IMPORT_PAYMENTS:
        raise PaymentsRefused(_("A night has at most %(count)d payments.", count=MAX_IMPORT_PAYMENTS))
    return [_check_payment(number, item, players) for number, item in enumerate(raw, start=1)]


def _check_payment(number: int, item: object, players: Collection[str]) -> CheckedPayment:
    def refuse(reason: str) -> PaymentsRefused:
        return PaymentsRefused(_("Payment %(number)d: %(reason)s", number=number, reason=reason))

    if not isinstance(item, Mapping):
        raise refuse(_("a payment is an object with a payer, a payee, cents, a method and a time."))
    if (key := unknown_key(item, PAYMENT_KEYS)) is not None:
        raise refuse(_("unknown key “%(key)s”.", key=key))
    payer, payee, cents, method = (item.get(k) for k in ("payer", "payee", "cents", "method"))
    for name in (payer, payee):
        if not isinstance(name, str) or name not in players:
            raise refuse(_("%(name)s has no money on this night.", name=str(name)[:80]))
    if payer == payee:
        raise refuse(_("a payment goes from one player to another."))
    if isinstance(cents, bool) or not isinstance(cents, int) or not 0 < cents <= MAX_PAYMENT_CENTS:
        raise refuse(_("the amount is a whole number of cents, more than zero."))
    if method not in PAYMENT_METHODS:
        raise refuse(_("unknown payment method: %(method)s.", method=str(method)[:16]))
    at = _parse_time(item.get("at"))
    if at is None:
        raise refuse(_("its time is not a date and time (YYYY-MM-DDTHH:MM:SS)."))
    taken_back = item.get("taken_back_at")
    taken_back_at = _parse_time(taken_back)
    if taken_back is not None and taken_back_at is None:
        raise refuse(_("the time it was taken back is not a date and time (YYYY-MM-DDTHH:MM:SS)."))
    if taken_back_at is not None and taken_back_at < at:
        raise refuse(_("it is taken back before it was made."))
    assert isinstance(payer, str) and isinstance(payee, str) and isinstance(method, str)
    return CheckedPayment(payer, payee, cents, method, at, taken_back_at)


def add_payments(night_id: int, payments: Sequence[CheckedPayment], actor_id: int | None) -> None:
    """Add the imported payments of night ``night_id`` (and the voids of those taken back) to
    the session, in the transaction that writes the night (with the ids of the members they
    name, as a payment recorded at the night)."""
    for checked in payments:
        payment = Payment(night_id=night_id, payer=checked.payer, payee=checked.payee, cents=checked.cents, method=checked.method, recorded_by_id=actor_id,
                          at=checked.at)
        db.session.add(identity.with_member_ids(payment))
        if checked.taken_back_at is not None:
            db.session.flush()
            db.session.add(PaymentVoid(payment_id=payment.id, voided_by_id=actor_id,
                                       at=checked.taken_back_at))


__all__ = [
    "MAX_IMPORT_PAYMENTS",
    "CheckedPayment",
    "PaymentsRefused",
    "add_payments",
    "check_night_times",
    "check_payments",
    "night_payments_export",
    "night_times_export",
]
