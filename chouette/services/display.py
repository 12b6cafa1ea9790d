"""The big screen's reads: which nights it shows, and a cheap version of everything it shows.

The screen polls every two seconds; ``display_version`` is what lets the answer be
``304 Not Modified`` without folding a single log: one query over the nights and their tables.
"""

from __future__ import annotations

from flask_babel import gettext as _
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import ChouetteTable, Night, TableEvent
from chouette.services.base import NotFound


def _nights_query(night_id: int | None):  # type: ignore[no-untyped-def]
    """The open nights (most recent first), or the one night ``night_id`` whatever its state."""
    query = select(Night).order_by(Night.date.desc(), Night.id.desc())
    if night_id is None:
        return query.where(Night.closed_at.is_(None))
    return query.where(Night.id == night_id)


def display_nights(night_id: int | None = None) -> list[Night]:
    """The nights the big screen shows: every open night, or the night ``night_id``.

    Raises NotFound when ``night_id`` names no night.
    """
    nights = list(db.session.scalars(_nights_query(night_id)))
    if night_id is not None and not nights:
        raise NotFound(_("No such night."))
    return nights


def display_version(night_id: int | None = None) -> str:
    """A string that changes whenever anything the big screen shows may have changed.

    Per night shown: its id, name, currency and whether it is closed; its number of tables;
    the highest event id of its tables' logs (every command, undo and correction appends an
    event, and ids only grow). One query, answered from the indexes.
    Raises NotFound when ``night_id`` names no night.
    """
    tables = (select(func.count(ChouetteTable.id))
              .where(ChouetteTable.night_id == Night.id).scalar_subquery())
    last_event = (select(func.max(TableEvent.id))
                  .join(ChouetteTable, TableEvent.table_id == ChouetteTable.id)
                  .where(ChouetteTable.night_id == Night.id).scalar_subquery())
    base = _nights_query(night_id)
    query = base.with_only_columns(Night.id, Night.name, Night.currency,
                                   Night.closed_at.is_not(None), tables, last_event)
    rows = db.session.execute(query).all()
    if night_id is not None and not rows:
        raise NotFound(_("No such night."))
    return ";".join(":".join(str(value) for value in row) for row in rows) or "none"
