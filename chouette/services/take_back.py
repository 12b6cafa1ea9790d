"""A player takes back their own drop, tapped by mistake (issue 25).

A drop is final in the rules (docs/rules.md 2.5: it is booked the moment it is made); the
table's undo is the organizer's. A player may still take back a drop from their own phone
for a short while (``DROP_TAKE_BACK``, 20 seconds by default) as long as nothing came after
it: the drop must be the table's last event, of the player's own cube, made by the player.
The take-back is an ``undo`` in the log like any other, written by the player.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import select

from chouette.extensions import db
from chouette.models import Member, TableEvent, utcnow
from chouette.table import TableState


def own_drop_until(member: Member | None, table_id: int, state: TableState,
                   seat: str | None, now: datetime | None = None) -> datetime | None:
    """Until when ``member`` (seated as ``seat``) may take back the table's last event, their
    own drop; None when it is not theirs to take back (not a drop, not their cube, not made by
    them, something came after it, or the time is up)."""
    last = state.effective[-1] if state.effective else None
    member_id = getattr(member, "id", None)
    if (seat is None or last is None or not isinstance(member_id, int)
            or last.get("type") != "drop" or last.get("cube") != seat or "extra" in last):
        return None
    row = db.session.execute(
        select(TableEvent.type, TableEvent.actor_id, TableEvent.at)
        .where(TableEvent.table_id == table_id).order_by(TableEvent.seq.desc()).limit(1)).first()
    if row is None or row.type != "drop" or row.actor_id != member_id:
        return None  # an undo came after it, or the organizer entered it
    window: timedelta = current_app.config["DROP_TAKE_BACK"]
    until = row.at + window
    return until if (now or utcnow()) < until else None
