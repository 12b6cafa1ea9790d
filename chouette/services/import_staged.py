"""An import on SQLite, written without holding the write lock for long, all or nothing
(``write_staged``): its rows are staged in short transactions under ids taken for the
purpose, where no page looks, and the night published in a tiny one.
"""

from __future__ import annotations

import datetime as dt
import logging
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import delete, select

from chouette.extensions import db
from chouette.models import (
    ChouetteTable,
    GameLineRow,
    GameLinesMark,
    ImportStage,
    LedgerEntry,
    Night,
    TableEvent,
    TableFactsRow,
    TableSnapshot,
    free_ids,
)
from chouette.services.base import writing
from chouette.services.import_checks import ImportRefused, refuse_closed_season
from chouette.services.import_rows import PreparedTable, insert_statement
from chouette.services.night_money_io import CheckedPayment, add_payments

log = logging.getLogger(__name__)

#: A staged import writes at most this many rows, or about this many bytes, per transaction:
#: each holds SQLite's write lock for a few milliseconds (``docs/performance.md``, "Big imports").
STAGE_ROWS = 2_000
STAGE_BYTES = 256 * 1024
#: After each of its transactions a staged import waits at least as long as it held the
#: lock, and at least this long: a command waiting for the lock (SQLite's busy handler
#: retries after 1, 2, 5, 10, 15, 20, 25 ms...) gets it between two of the import's.
STAGE_PAUSE_SECONDS = 0.002
#: Staged rows of an import that began longer ago than this and never published are an
#: interrupted import's (its process died): the next import deletes them.
STAGE_ABANDONED_AFTER = dt.timedelta(minutes=10)
#: What an import stages, per table (each with a ``table_id`` column), and how many rows to
#: delete at a time when it gives up (a snapshot is megabytes).
_STAGED: tuple[tuple[Any, int], ...] = (
    (TableEvent, STAGE_ROWS), (LedgerEntry, STAGE_ROWS), (TableSnapshot, 1),
    (GameLinesMark, STAGE_ROWS), (GameLineRow, STAGE_ROWS // 4), (TableFactsRow, STAGE_ROWS),
)


def write_staged(night: Night, tables: list[tuple[ChouetteTable, PreparedTable]],
                 at: dt.datetime, payments: Sequence[CheckedPayment] = (),
                 actor_id: int | None = None) -> Night:
    """Write an import on SQLite without holding the write lock for long, all or nothing.

    1. Ids are taken for the night and its tables (``ImportStage``, one tiny transaction):
       no other night or table gets them (``models.free_ids``).
    2. Every row is written under those ids in short transactions (``STAGE_ROWS``): rows
       of a table and a night that do not exist, which no page, ledger, standings, screen,
       stream or export reads (each reaches rows through their night or their table).
    3. One tiny transaction checks the season again and writes the night, its tables and its
       payments (``payments``, a few rows): everything appears at once.

    If anything fails the staged rows are deleted; if the process dies, the next import
    deletes them (``STAGE_ABANDONED_AFTER``). Raises ImportRefused.
    """
    if not tables:  # nothing to stage: the night alone, in one tiny transaction
        with writing():
            refuse_closed_season(night.date, night.currency)
            (night.id,) = free_ids(db.session.connection(), Night, 1)  # no staged import's id
            db.session.add(night)
            db.session.flush()
            add_payments(night.id, payments, actor_id)
        return night
    _drop_abandoned_imports(at)
    night_id, table_ids = _take_ids(len(tables), at)
    try:
        with _staging_cursor() as cursor:
            for table_id, (_table, prepared) in zip(table_ids, tables, strict=True):
                known = {"night_id": night_id, "table_id": table_id}
                for rows in prepared.rows:
                    ids = tuple(known[name] for name in rows.ids)
                    statement = insert_statement(rows, "qmark")
                    for chunk in _chunks(rows.values):
                        _write_briefly(cursor, statement, [(*ids, *row) for row in chunk])
        with writing():
            refuse_closed_season(night.date, night.currency)  # closed meanwhile?
            staged = set(db.session.scalars(
                select(ImportStage.table_id).where(ImportStage.night_id == night_id)))
            if staged != set(table_ids):  # another import took this one for abandoned
                raise ImportRefused(_("This import was interrupted: import the file again."))
            night.id = night_id
            db.session.add(night)
            db.session.flush()
            for table_id, (table, _prepared) in zip(table_ids, tables, strict=True):
                table.id, table.night_id = table_id, night_id
                db.session.add(table)
            db.session.flush()
            add_payments(night_id, payments, actor_id)
            db.session.execute(delete(ImportStage).where(ImportStage.night_id == night_id))
    except BaseException:
        db.session.rollback()
        _drop_staged(table_ids)
        raise
    return night


def _take_ids(count: int, at: dt.datetime) -> tuple[int, list[int]]:
    """Take a night's id and ``count`` tables' ids for a staged import (one tiny transaction)."""
    with writing():
        connection = db.session.connection()
        (night_id,) = free_ids(connection, Night, 1)
        table_ids = free_ids(connection, ChouetteTable, count)
        db.session.add_all(ImportStage(table_id=table_id, night_id=night_id, started_at=at)
                           for table_id in table_ids)
    return night_id, table_ids


@contextmanager
def _staging_cursor() -> Iterator[Any]:
    """A cursor on a connection of its own whose foreign keys are not checked: the staged
    rows name a night and tables that do not exist yet. The connection goes back to the pool
    with its checks on again (or is thrown away)."""
    connection = db.engine.raw_connection()
    cursor = connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys=OFF")  # outside a transaction, or it does nothing
        yield cursor
    finally:
        try:
            if cursor.connection.in_transaction:
                cursor.connection.rollback()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()
        except sqlite3.Error:  # the connection is unusable: it must not go back to the pool
            connection.invalidate()
        connection.close()


def _chunks(values: Sequence[tuple[Any, ...]]) -> Iterator[Sequence[tuple[Any, ...]]]:
    """``values`` in runs of at most ``STAGE_ROWS`` rows and about ``STAGE_BYTES`` bytes."""
    start, size = 0, 0
    for end, row in enumerate(values):
        size += sum(len(v) if isinstance(v, str | bytes) else 8 for v in row)
        if end + 1 - start >= STAGE_ROWS or size >= STAGE_BYTES:
            yield values[start:end + 1]
            start, size = end + 1, 0
    if start < len(values):
        yield values[start:]


def _write_briefly(cursor: Any, statement: str, values: Sequence[tuple[Any, ...]]) -> None:
    """One short write transaction of a staged import, then a pause (``_between_writes``)."""
    started = time.perf_counter()
    cursor.execute("BEGIN IMMEDIATE")
    try:
        cursor.executemany(statement, values)
        cursor.connection.commit()
    except BaseException:
        cursor.connection.rollback()
        raise
    _between_writes(time.perf_counter() - started)


def _between_writes(held: float) -> None:
    """Leave the write lock to whoever waits for it, as long as the import held it."""
    time.sleep(max(held, STAGE_PAUSE_SECONDS))


def _drop_staged(table_ids: Sequence[int]) -> None:
    """Delete the staged rows of these tables (never of a table that exists), a few at a
    time, then their ids (``ImportStage``). A failure leaves them to ``_drop_abandoned_imports``."""
    try:
        with _staging_cursor() as cursor:
            for table_id in table_ids:
                for model, limit in _STAGED:
                    name = model.__table__.name
                    statement = (f"DELETE FROM {name} WHERE rowid IN (SELECT rowid FROM {name} "
                                 f"WHERE table_id = ? LIMIT {limit}) AND NOT EXISTS "
                                 "(SELECT 1 FROM chouette_table WHERE id = ?)")
                    deleted = limit
                    while deleted >= limit:
                        started = time.perf_counter()
                        cursor.execute("BEGIN IMMEDIATE")
                        deleted = cursor.execute(statement, (table_id, table_id)).rowcount
                        cursor.connection.commit()
                        _between_writes(time.perf_counter() - started)
            cursor.execute("BEGIN IMMEDIATE")
            cursor.executemany("DELETE FROM import_stage WHERE table_id = ?", [(t,) for t in table_ids])
            cursor.connection.commit()
    except sqlite3.Error:  # the import's own error matters; the next import finds the rows
        log.warning("a staged import's rows were not deleted: the next import deletes them",
                    exc_info=True)


def _drop_abandoned_imports(at: dt.datetime) -> None:
    """Delete the staged rows of the imports that began before ``at - STAGE_ABANDONED_AFTER``
    and never published (their process died)."""
    abandoned = list(db.session.scalars(select(ImportStage.table_id).where(
        ImportStage.started_at < at - STAGE_ABANDONED_AFTER)))
    db.session.commit()
    if abandoned:
        _drop_staged(abandoned)
