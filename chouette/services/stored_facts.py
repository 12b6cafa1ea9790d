"""Table facts cached by the app and stored in the ``table_facts`` rows.

The facts of a table (``chouette.services.facts``) are cached in the app's ``table_facts``
cache (``chouette.caches``), keyed by the table and its last seq, and stored in the
``table_facts`` rows (a projection of the log, keyed by the seq it was folded at), so a cold
process reads them instead of folding: a table is folded again only when its log moved, and
a closed night's tables never move (their facts are stored when the night closes).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Table, func, insert, or_, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from chouette import caches
from chouette.extensions import db
from chouette.models import (
    ChouetteTable,
    TableEvent,
    TableFactsRow,
    TableSnapshot,
    utcnow,
)
from chouette.services.base import writing
from chouette.services.facts import TableFacts, facts_since, table_facts
from chouette.table import (
    SNAPSHOT_VERSION,
    Settings,
    TableError,
    can_resume,
)

#: The format of the stored facts (``TableFacts.to_dict``); rows of another version are
#: folded again (bump it when the facts' shape, or what the rules make of a log, changes).
FACTS_VERSION = 4  # 4: a deal counts in the seats' won and lost (issue 25 item 6)

log = logging.getLogger(__name__)


TABLE_FACTS = caches.declare(
    "table_facts", 4096,
    "a table's facts (TableFacts) by (table id, last seq, its settings and the rename generation)")


#: Facts folded by a read, to be stored: table id -> (seq, settings, facts).
Folded = dict[int, tuple[int, dict[str, Any], TableFacts]]


def facts_of(tables: Iterable[ChouetteTable], seqs: Mapping[int, int]
              ) -> tuple[dict[int, TableFacts], Folded]:
    """Each table's facts: cached in the process, else stored (``table_facts``) at the
    table's seq, else folded from its log (one query for all the missing); and the facts
    folded here, for ``store_facts`` once the page is read.

    A table whose stored facts are of an older seq (a live night's) is folded only from its
    latest stored snapshot at or before that seq that the log still leads to
    (``facts_since``), else from the start.
    """
    from chouette.services.identity import relabel_log, relabels_of, rename_generation

    cache = caches.cache(TABLE_FACTS)
    # A rename anywhere moves the generation: facts cached in memory are read again.
    generation = rename_generation()
    found: dict[int, TableFacts] = {}
    folded: Folded = {}
    missing: dict[int, tuple[tuple[int, int, str], ChouetteTable]] = {}
    for table in tables:
        key = (table.id, seqs.get(table.id, 0),
               f"{sorted(table.settings.items())!r}#{generation}")
        cached = cache.get(key)
        if cached is not None:
            found[table.id] = cached
        else:
            missing[table.id] = (key, table)
    stale: dict[int, tuple[int, TableFacts]] = {}
    stored = stored_facts({table_id: table.settings for table_id, (_key, table) in missing.items()})
    for table_id, (seq, facts) in stored.items():
        key = missing[table_id][0]
        if seq == key[1]:
            cache.put(key, facts)
            found[table_id] = facts
            del missing[table_id]
        elif seq < key[1]:
            stale[table_id] = (seq, facts)
    if missing:
        logs: dict[int, list[dict[str, Any]]] = defaultdict(list)
        # Plain rows, not ORM objects: a thousand games are some twenty thousand events.
        query = (select(TableEvent.table_id, TableEvent.seq, TableEvent.type, TableEvent.payload)
                 .where(TableEvent.table_id.in_(missing))
                 .order_by(TableEvent.table_id, TableEvent.seq))
        for table_id, seq, kind, payload in db.session.execute(query):
            if seq <= missing[table_id][0][1]:
                logs[table_id].append({"type": kind, **(payload or {})})
        # A renamed member's old labels read as their name (``identity.relabels_of``).
        for table_id, names in relabels_of(list(missing)).items():
            if names:
                logs[table_id] = relabel_log(logs[table_id], names)
        since = _facts_since_snapshots(
            {table_id: (stale[table_id], missing[table_id][1], logs[table_id]) for table_id in stale})
        for table_id, (key, table) in missing.items():
            facts = since.get(table_id) or table_facts(table.settings, logs[table_id])
            cache.put(key, facts)
            found[table_id] = facts
            folded[table_id] = (key[1], dict(table.settings), facts)
    return found, folded


def _facts_since_snapshots(
    stale: Mapping[int, tuple[tuple[int, TableFacts], ChouetteTable, Sequence[Mapping[str, Any]]]]
) -> dict[int, TableFacts]:
    """The facts of tables whose stored facts are of an older seq (table id -> ((that seq,
    those facts), the table, its log)), from their stored snapshots where one serves."""
    if not stale:
        return {}
    points: dict[int, list[int]] = defaultdict(list)
    for table_id, seq in db.session.execute(
        select(TableSnapshot.table_id, TableSnapshot.seq)
        .where(TableSnapshot.table_id.in_(stale), TableSnapshot.version == SNAPSHOT_VERSION)
        .order_by(TableSnapshot.seq.desc())
    ):
        points[table_id].append(seq)
    chosen: dict[int, int] = {}
    for table_id, ((seen, _facts), _table, events) in stale.items():
        # The facts stored at ``seen`` are final for the games finished at ``at`` only if the
        # log as it was then led from ``at`` too (a correction made and later undone).
        at = next((p for p in points[table_id] if p <= seen and can_resume(events, p)
                   and can_resume(events[:seen], p)), None)
        if at is not None:
            chosen[table_id] = at
    result: dict[int, TableFacts] = {}
    for table_id, at, snapshot in db.session.execute(
        select(TableSnapshot.table_id, TableSnapshot.seq, TableSnapshot.state)
        .where(tuple_(TableSnapshot.table_id, TableSnapshot.seq).in_(list(chosen.items())))
    ) if chosen else ():
        (_seen, earlier), table, events = stale[table_id]
        if snapshot.get("settings") != Settings.from_dict(table.settings).to_dict():
            continue
        try:
            result[table_id] = facts_since(earlier, snapshot, at, events)
        except TableError:
            continue  # a snapshot this code cannot read: the table is folded whole
    return result


def stored_facts(wanted: Mapping[int, Mapping[str, Any]]) -> dict[int, tuple[int, TableFacts]]:
    """The stored facts of the tables ``wanted`` (table id -> settings) folded with those
    settings and this ``FACTS_VERSION``: table id -> (the seq they were folded at, facts)."""
    if not wanted:
        return {}
    query = (select(TableFactsRow.table_id, TableFactsRow.seq, TableFactsRow.settings,
                    TableFactsRow.facts)
             .where(TableFactsRow.table_id.in_(wanted), TableFactsRow.version == FACTS_VERSION))
    found: dict[int, tuple[int, TableFacts]] = {}
    for table_id, seq, settings, data in db.session.execute(query):
        if dict(settings or {}) != dict(wanted[table_id]):
            continue
        try:
            found[table_id] = (seq, TableFacts.from_dict(data))
        except (KeyError, TypeError, ValueError, AttributeError):
            log.warning("table %s: stored facts unreadable, folding its log", table_id)
    return found


def store_facts(folded: Folded) -> None:
    """Store tables' facts (table id -> (seq, settings, facts)) for the next cold process.

    Called by a read: one short ``writing()`` of its own upserts the rows (the page's reader
    ends before it and reads again after it). An upsert, because two workers may fold the same table at once (on PostgreSQL
    ``INSERT ... ON CONFLICT`` waits for the other and then updates or skips); a row is only
    replaced by one folded at the same or a later seq (the log only grows). A cache that
    cannot be written (the database busy) is logged and the page served all the same.
    """
    if not folded:
        return
    at = utcnow()
    values = [{"table_id": table_id, "seq": seq, "version": FACTS_VERSION,
               "settings": dict(settings), "facts": facts.to_dict(), "computed_at": at}
              for table_id, (seq, settings, facts) in sorted(folded.items())]
    try:
        with writing():
            for row in values:
                db.session.execute(_upsert(row))
    except SQLAlchemyError as error:
        log.warning("table facts not stored (they will be folded again): %s", error)


def store_night_facts(night_id: int) -> None:
    """Fold and store the facts of a night's tables, once it is closed (or imported closed):
    its tables never move again (until an admin reopens it, which drops these rows), so no
    player page ever folds them. Every table's row is written, the facts this process had
    cached included. After the caller's transaction (``store_facts`` ends it); a failure is
    logged, never raised."""
    tables = list(db.session.scalars(select(ChouetteTable).where(ChouetteTable.night_id == night_id)))
    if not tables:
        return
    seqs = dict(db.session.execute(
        select(TableEvent.table_id, func.max(TableEvent.seq))
        .where(TableEvent.table_id.in_([table.id for table in tables])).group_by(TableEvent.table_id)
    ).all())
    found = facts_of(tables, seqs)[0]
    store_facts({table.id: (seqs.get(table.id, 0), dict(table.settings), found[table.id]) for table in tables})


def _upsert(row: Mapping[str, Any]) -> Any:
    """INSERT the facts row, or UPDATE the stored one when it is older or of another version."""
    table = cast(Table, TableFactsRow.__table__)
    dialect = db.session.get_bind().dialect.name
    maker: Callable[[Table], Any] | None = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}.get(dialect)
    if maker is None:  # another database: no upsert, a plain insert refused by the key
        return insert(table).values(**row)
    statement: Any = maker(table).values(**row)
    return statement.on_conflict_do_update(
        index_elements=[table.c.table_id],
        set_={name: statement.excluded[name] for name in row if name != "table_id"},
        where=or_(table.c.seq <= statement.excluded.seq, table.c.version != statement.excluded.version),
    )
