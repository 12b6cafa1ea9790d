"""The big screen's reads: which nights it shows, and a cheap version of everything it shows.

The screen polls every two seconds; ``display_version`` is what lets the answer be
``304 Not Modified`` without folding a single log: one query over the nights and their tables.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from flask_babel import gettext as _
from sqlalchemy import Select, bindparam, func, select, tuple_
from sqlalchemy.engine import Connection

from chouette.extensions import db
from chouette.models import ChouetteTable, Night, TableEvent
from chouette.services.base import NotFound


def _nights_query(night_id: int | None) -> Select[Night]:
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


def _version_query(one_night: bool) -> Select[Any]:
    """The query behind ``display_version`` (built once: building it costs more than running it)."""
    night, table, event = Night.__table__, ChouetteTable.__table__, TableEvent.__table__
    last_seq = (select(func.max(event.c.seq)).where(event.c.table_id == table.c.id)
                .correlate(table).scalar_subquery())
    query = (select(night.c.id, night.c.name, night.c.currency, night.c.closed_at.is_not(None),
                    table.c.id, last_seq)
             .select_from(night.outerjoin(table, (table.c.night_id == night.c.id)
                                          & table.c.closed_at.is_(None)))
             .order_by(night.c.date.desc(), night.c.id.desc(), table.c.id))
    if one_night:
        return query.where(night.c.id == bindparam("night_id"))
    return query.where(night.c.closed_at.is_(None))


_VERSION_OPEN = _version_query(one_night=False)
_VERSION_ONE = _version_query(one_night=True)


def display_version(night_id: int | None = None) -> str:
    """A string that changes whenever anything the big screen shows may have changed.

    Per night shown: its id, name, currency and whether it is closed; per open table of it
    (a closed table is off the screen), its id and the last seq of its log (every command, undo and correction appends an event, so the
    last seq only grows). One query in SQLAlchemy Core (no ORM objects), each table's last seq
    read from the end of the ``UNIQUE(table_id, seq)`` index: microseconds, however long the
    night. Raises NotFound when ``night_id`` names no night.
    """
    version = version_on(db.session.connection(), night_id)
    if version is None:
        raise NotFound(_("No such night."))
    return version


def version_on(connection: Connection, night_id: int | None = None) -> str | None:
    """``display_version`` read on ``connection`` (None when ``night_id`` names no night):
    for the screens' shortcut, which runs before Flask and without a session."""
    if night_id is None:
        rows = connection.execute(_VERSION_OPEN).all()
    else:
        rows = connection.execute(_VERSION_ONE, {"night_id": night_id}).all()
        if not rows:
            return None
    return ";".join(":".join(_version_part(value) for value in row) for row in rows) or "none"


def _version_part(value: Any) -> str:
    """A value of the version in letters, digits and ``%_.-``: a night's name may hold ``~``
    (where a live table's version marks its cube window's part, ``static/js/live.js``), ``:``
    and ``;`` (the version's own separators) or what HTML escapes (``&``, quotes): the pages
    compare the version they show with the one their stream says, character for character."""
    return quote(str(value), safe="").replace("~", "%7E")


def last_event_marks(table_ids: list[int]) -> dict[int, tuple[int, str]]:
    """Per table, the seq and the time of its last event, ``(0, "")`` before the first: what
    tells one state of a table from another, even across a restored backup or an emptied
    database. Two queries for all (a screen of twenty tables)."""
    if not table_ids:
        return {}
    # Each table's last seq from the end of the UNIQUE(table_id, seq) index (a GROUP BY would
    # read every event of every table), then those events' times.
    events = TableEvent.__table__
    table = ChouetteTable.__table__
    last_seq = (select(func.max(events.c.seq)).where(events.c.table_id == table.c.id)
                .correlate(table).scalar_subquery())
    seqs = [(table_id, seq) for table_id, seq in db.session.execute(
        select(table.c.id, last_seq).where(table.c.id.in_(table_ids))) if seq is not None]
    found = {}
    if seqs:
        rows = db.session.execute(select(events.c.table_id, events.c.seq, events.c.at)
                                  .where(tuple_(events.c.table_id, events.c.seq).in_(seqs)))
        found = {row[0]: (row[1], row[2].isoformat()) for row in rows}
    return {table_id: found.get(table_id, (0, "")) for table_id in table_ids}
