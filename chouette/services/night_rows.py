"""A night's row: found, or locked against its close (``lock_night``, ``lock_for_append``); a
new night's or table's id (``new_id``); a currency code's shape.

Below the services that touch a night (tables, ledger, money, seasons) and the one that opens,
closes and reopens it (``nights``), so that none of them imports another back.
"""

from __future__ import annotations

import re

from flask_babel import gettext as _
from sqlalchemy import func, select
from sqlalchemy.orm import contains_eager

from chouette.extensions import db
from chouette.models import ChouetteTable, Night, TableEvent, free_ids
from chouette.services.base import NotFound

CURRENCY_RE = re.compile(r"^[A-Z]{3}$")


def new_id(model: type[Night] | type[ChouetteTable]) -> int | None:
    """The id a new night or table takes, given by the service that creates it: on SQLite one
    past every row's and every id a staged import has taken (``models.free_ids``), so no night
    or table opened meanwhile takes an import's; elsewhere None (the database's sequence)."""
    connection = db.session.connection()
    if connection.dialect.name != "sqlite":
        return None
    return free_ids(connection, model, 1)[0]


def get_night(night_id: int) -> Night:
    """The night with this id. Raises NotFound."""
    night = db.session.get(Night, night_id)
    if night is None:
        raise NotFound(_("No such night."))
    return night


def lock_night(night_id: int, *, exclusive: bool) -> Night:
    """The night, read afresh with its row locked until the transaction ends: ``exclusive``
    to close or reopen it (``SELECT ... FOR UPDATE``), shared by the commands that need it
    open (``FOR SHARE``: they do not wait for each other, only for a close). SQLite's writing
    transactions hold the whole database's lock from their start (``BEGIN IMMEDIATE``) and
    need no row lock. Raises NotFound."""
    query = (select(Night).where(Night.id == night_id).with_for_update(read=not exclusive)
             .execution_options(populate_existing=True))
    night = db.session.scalar(query)
    if night is None:
        raise NotFound(_("No such night."))
    return night


def lock_for_append(table_id: int) -> tuple[ChouetteTable, Night, int, int]:
    """What appending to a table's log checks, in one round trip: the table and its night read
    afresh, the night's row locked as ``lock_night(exclusive=False)`` locks it (a close waits
    for the append, or the append sees the night closed), and the log's count of events and
    highest seq (0 and 0 for an empty log). Raises NotFound."""
    events = select(TableEvent).where(TableEvent.table_id == ChouetteTable.id)
    count = events.with_only_columns(func.count(TableEvent.id)).scalar_subquery()
    highest = events.with_only_columns(func.coalesce(func.max(TableEvent.seq), 0)).scalar_subquery()
    query = (select(ChouetteTable, count, highest)
             .join(ChouetteTable.night).options(contains_eager(ChouetteTable.night))
             .where(ChouetteTable.id == table_id)
             .with_for_update(read=True, of=Night)
             .execution_options(populate_existing=True))
    found = db.session.execute(query).first()
    if found is None:
        raise NotFound(_("No such table."))
    table, counted, seq = found
    return table, table.night, int(counted), int(seq)
