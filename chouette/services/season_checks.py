"""What a night's changes ask of its season: a closed season's nights and money are final.

A new night inside a closed season is refused; a payment on a night of a season settled as a
whole, or taking one back once the season closed, is refused. Below the services that ask
(``nights``, ``money``) and the one that settles and closes a season (``seasons``), so that
none of them imports another back.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import exists, select

from chouette.extensions import db
from chouette.models import Night, Payment, PaymentVoid, Season
from chouette.services.base import NotFound, ServiceError


def standing_payment() -> Any:
    """The condition of a payment that was not taken back."""
    return ~exists().where(PaymentVoid.payment_id == Payment.id)


def get_season(season_id: int) -> Season:
    """The season with this id. Raises NotFound."""
    season = db.session.get(Season, season_id)
    if season is None:
        raise NotFound(_("No such season."))
    return season


def season_of(night: Night) -> Season | None:
    """The season the night belongs to (its date in the range, the same currency), if any."""
    return _season_on(night.date, night.currency)


def _season_on(on: dt.date, currency: str) -> Season | None:
    """The season of ``currency`` whose range holds ``on``, if any."""
    query = select(Season).where(Season.currency == currency, Season.first_date <= on,
                                 Season.last_date >= on)
    return db.session.scalars(query).first()


def refuse_night_in_closed_season(on: dt.date, currency: str) -> None:
    """Refuse a new night (opened or imported) inside a closed season: its standings are final.

    Raises ServiceError.
    """
    season = _season_on(on, currency.strip().upper())
    if season is not None and not season.is_open:
        raise ServiceError(_("The season %(season)s is closed: no night can be added to it.",
                             season=season.name))


def season_payments(season_id: int) -> list[Payment]:
    """The payments recorded at the season and not taken back, oldest first."""
    query = (select(Payment).where(Payment.season_id == season_id, standing_payment())
             .order_by(Payment.at, Payment.id))
    return list(db.session.scalars(query))


def locked_season(season_id: int) -> Season:
    """The season, locked for this transaction: payments and closing are read-check-write, and
    two clerks ticking the same transfer at once must record it once (see ``_locked_night``)."""
    db.session.execute(select(Season.id).where(Season.id == season_id).with_for_update())
    return get_season(season_id)


def refuse_closed(season: Season) -> None:
    """Refuse a change to a closed season's money. Raises ServiceError."""
    if not season.is_open:
        raise ServiceError(_("The season %(season)s is closed: its payments are final.",
                             season=season.name))


def check_night_payment(night: Night) -> None:
    """For a payment on ``night`` (inside the caller's transaction): refused when the night's
    season is closed, or is already being settled as a whole (it has payments of its own: a
    night's tick could then pay again what the season's settle-up cleared). Raises ServiceError."""
    season = season_of(night)
    if season is None:
        return
    season = locked_season(season.id)
    refuse_closed(season)
    if is_settled_at_season(season):
        raise ServiceError(_("The season %(season)s is being settled as a whole: record this "
                             "payment on the season's page.", season=season.name))


def is_settled_at_season(season: Season) -> bool:
    """True once payments were recorded at the season: its nights are then settled there."""
    return bool(season_payments(season.id))


def check_night_undo(night: Night, payments: Iterable[Payment]) -> None:
    """For taking back ``payments`` of ``night``: refused when its season is closed, unless
    they change no balance (an IOU paid off: the reverse IOU and the payment). Raises
    ServiceError."""
    season = season_of(night)
    if season is not None:
        check_undo(locked_season(season.id), payments)


def check_undo(season: Season, payments: Iterable[Payment]) -> None:
    """Refuse taking back payments of a closed season when that would reopen a balance."""
    if season.is_open:
        return
    if any(balances_moved(payments).values()):
        refuse_closed(season)


def balances_moved(payments: Iterable[Payment]) -> dict[str, int]:
    """What these payments change in each player's balance."""
    moved: dict[str, int] = defaultdict(int)
    for payment in payments:
        moved[payment.payer] += payment.cents
        moved[payment.payee] -= payment.cents
    return moved
