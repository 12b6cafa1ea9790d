"""A night's import, all or nothing: a new night from a night export (``night_json``) with its
tables, their events, the ledger rows the events cause, the game lines of the ledger and
the night's payments. Everything is checked first (``chouette.services.import_checks``):
a refused file writes nothing. On SQLite the rows are staged in short transactions and the
night published in a tiny one (``chouette.services.import_staged``), so no other command
waits long for the write lock; elsewhere everything is written in one transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select

from chouette.extensions import db, read_only
from chouette.models import ChouetteTable, Member, Night, utcnow
from chouette.services.base import writing
from chouette.services.import_checks import (
    check_night_export,
    check_night_money,
    refuse_closed_season,
)
from chouette.services.import_rows import prepare_table
from chouette.services.import_staged import write_staged
from chouette.services.night_money_io import add_payments
from chouette.services.tables import preset_of


def import_night(data: Mapping[str, Any], actor: Member | None) -> Night:
    """A new night from a night export: its tables, every event through the rules, the
    ledger rows the events cause, and its payments at their times, all or nothing.

    The caller's transaction is ended first (on SQLite a request that loaded the member holds
    the write lock): the export is checked, folded and made into rows outside any
    transaction. On SQLite the rows are then written in short transactions under ids taken
    for the purpose, where no page looks, and the night and its tables are published in one
    tiny transaction (``write_staged``); elsewhere in one transaction. What another request
    may have changed meanwhile (the season closed) is checked again as the night is written.

    Raises ImportRefused (the table, the event number and the reason; a date inside a closed
    season): nothing is written.
    """
    actor_id = actor.id if actor is not None else None
    db.session.commit()  # nothing of the import is written yet: no lock is held while folding
    read_only()  # whatever is read meanwhile (a refusal's language: the member) is read so
    at = utcnow()
    (name, date, currency, closed), tables = check_night_export(data)
    money = check_night_money(data, closed, tables)
    members = dict(db.session.execute(select(Member.name, Member.id)).all())
    prepared = [prepare_table(checked, actor_id, at, closed, members) for checked in tables]
    refuse_closed_season(date, currency)  # refused at once, before any lock is taken
    db.session.commit()
    night = Night(name=name, date=date, currency=currency, opened_by_id=actor_id,
                  opened_at=money.opened_at or at,
                  closed_at=(money.closed_at or at) if closed else None)
    rows = [ChouetteTable(name=checked.name, settings=checked.settings,
                          preset=preset_of(checked.settings), created_at=at)
            for checked in tables]
    if db.engine.dialect.name == "sqlite":
        return write_staged(night, list(zip(rows, prepared, strict=True)), at,
                            money.payments, actor_id)
    with writing():
        refuse_closed_season(date, currency)  # again under the lock: closed meanwhile?
        db.session.add(night)
        db.session.flush()
        add_payments(night.id, money.payments, actor_id)
        for table, table_rows in zip(rows, prepared, strict=True):
            table.night_id = night.id
            db.session.add(table)
            db.session.flush()
            table_rows.write(night.id, table.id)
    return night
