"""Club nights: open, list, close."""


from __future__ import annotations

import datetime as dt
import re

from flask_babel import gettext as _
from sqlalchemy import select

from chouette.extensions import db
from chouette.models import (
    Member,
    Night,
    utcnow,
)
from chouette.services.base import NightClosed, NotFound, ServiceError, _transaction

# --------------------------------------------------------------------------- nights

CURRENCY_RE = re.compile(r"^[A-Z]{3}$")


def list_nights() -> list[Night]:
    """Every night, the most recent first."""
    return list(db.session.scalars(select(Night).order_by(Night.date.desc(), Night.id.desc())))


def open_nights() -> list[Night]:
    """The nights not closed yet, the most recent first."""
    query = select(Night).where(Night.closed_at.is_(None)).order_by(Night.date.desc(), Night.id.desc())
    return list(db.session.scalars(query))


def get_night(night_id: int) -> Night:
    """The night with this id. Raises NotFound."""
    night = db.session.get(Night, night_id)
    if night is None:
        raise NotFound(_("No such night."))
    return night


def open_night(*, name: str, on: dt.date, currency: str = "EUR", actor: Member) -> Night:
    """Open a club night. Raises ServiceError on an empty name, a malformed currency code, or a
    date inside a closed season of that currency."""
    name = name.strip()
    currency = currency.strip().upper()
    if not name or len(name) > 80:
        raise ServiceError(_("A night needs a name (at most 80 characters)."))
    if not CURRENCY_RE.match(currency):
        raise ServiceError(_("A currency is a three-letter code such as EUR."))
    from chouette.services.seasons import refuse_night_in_closed_season

    refuse_night_in_closed_season(on, currency)
    with _transaction():
        night = Night(name=name, date=on, currency=currency, opened_by_id=actor.id)
        db.session.add(night)
    return night


def close_night(night_id: int, *, actor: Member) -> Night:
    """Close a night: its tables stop changing. Raises NotFound, NightClosed.

    Then its tables' facts for the player pages are folded and stored (a cache: its failure is
    only logged), so no player page ever folds this night's logs.
    """
    from chouette.services.stored_facts import store_night_facts

    with _transaction():
        night = get_night(night_id)
        if not night.is_open:
            raise NightClosed(_("This night is already closed."))
        night.closed_at = utcnow()
    store_night_facts(night.id)
    return night
