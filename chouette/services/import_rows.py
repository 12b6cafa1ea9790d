"""The rows an imported table writes (events, ledger rows, snapshots, game lines, facts),
made ready ahead of the import's transaction: converted for the database driver as an ORM
insert would, then written with one ``executemany`` per database table (``PreparedTable``),
or staged on SQLite (``chouette.services.import_staged``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table

from chouette.extensions import db
from chouette.models import GameLineRow, GameLinesMark, LedgerEntry, TableEvent, TableFactsRow, TableSnapshot
from chouette.names import display_name
from chouette.services import import_checks
from chouette.services.facts import table_facts
from chouette.services.game_lines import LINES_VERSION
from chouette.services.import_checks import CheckedTable
from chouette.services.points import split
from chouette.services.stored_facts import FACTS_VERSION
from chouette.table import SNAPSHOT_VERSION


@dataclass
class Rows:
    """One table's rows for one database table, converted for the driver ahead of the
    transaction: ``values`` lack the leading id columns (``ids``: the night's, the table's)."""

    table: Table
    ids: tuple[str, ...]
    names: tuple[str, ...]
    values: list[tuple[Any, ...]]


@dataclass
class PreparedTable:
    """Everything an imported table writes, but its ids (known in the transaction only)."""

    rows: list[Rows]

    def write(self, night_id: int, table_id: int) -> None:
        """Insert every row, in the import's transaction (not on SQLite: ``write_staged``)."""
        known = {"night_id": night_id, "table_id": table_id}
        for rows in self.rows:
            _insert_many(rows, tuple(known[name] for name in rows.ids))


#: How the database driver writes its n-th parameter (PEP 249 ``paramstyle``).
_PLACEHOLDERS = {"qmark": "?", "format": "%s", "pyformat": "%s", "numeric": ":{n}", "named": ":p{n}"}


def _rows(model: Any, ids: tuple[str, ...], names: tuple[str, ...],
          values: Sequence[Sequence[Any]]) -> Rows:
    """``values`` (one tuple per row, in the order of ``names``) put through the columns'
    own conversions (JSON, dates) as an ORM insert would."""
    table = model.__table__
    dialect = db.engine.dialect
    convert = [table.c[name].type.dialect_impl(dialect).bind_processor(dialect) for name in names]
    # Every row has the same time: a date is converted once, not for each of 80,000 rows.
    memo: dict[int, tuple[Any, Any]] = {}

    def converted(value: Any, process: Any) -> Any:
        if process is None:
            return value
        if isinstance(value, dt.datetime):
            seen = memo.get(id(value))
            if seen is None or seen[0] is not value:
                seen = memo[id(value)] = (value, process(value))
            return seen[1]
        return process(value)

    rows = [tuple(converted(value, process) for value, process in zip(row, convert, strict=True))
            for row in values]
    return Rows(table, ids, names, rows)


def insert_statement(rows: Rows, paramstyle: str) -> str:
    """The INSERT of ``rows`` (their id columns first) with the driver's placeholders."""
    placeholder = _PLACEHOLDERS[paramstyle]
    names = (*rows.ids, *rows.names)
    quote = db.engine.dialect.identifier_preparer.quote
    return (f"INSERT INTO {quote(rows.table.name)} ({', '.join(quote(n) for n in names)}) "
            f"VALUES ({', '.join(placeholder.format(n=n) for n in range(1, len(names) + 1))})")


def _insert_many(rows: Rows, ids: tuple[Any, ...]) -> None:
    """INSERT the rows with one ``executemany`` of the driver: the import's transaction lasts
    no longer than the database's own work."""
    if not rows.values:
        return
    connection = db.session.connection()
    dialect = connection.dialect
    statement = insert_statement(rows, dialect.paramstyle)
    values = [(*ids, *row) for row in rows.values]
    if dialect.paramstyle == "named":
        connection.exec_driver_sql(statement, [{f"p{n}": v for n, v in enumerate(row, start=1)}
                                               for row in values])
    else:
        connection.exec_driver_sql(statement, values)


def _fewer_snapshots(rows: Rows) -> Rows:
    """The latest snapshot, and the older ones under ``IMPORT_SNAPSHOT_BYTES`` as the driver
    gets them (JSON text on SQLite; a driver's own JSON value counts as small: no write lock
    to spare there)."""
    state = rows.names.index("state")

    def small(row: tuple[Any, ...]) -> bool:
        value = row[state]
        return not isinstance(value, str | bytes) or len(value) <= import_checks.IMPORT_SNAPSHOT_BYTES

    rows.values = [row for row in rows.values[:-1] if small(row)] + rows.values[-1:]
    return rows


def prepare_table(checked: CheckedTable, actor_id: int | None, at: dt.datetime, closed: bool,
                  members: Mapping[str, int]) -> PreparedTable:
    """The rows an imported table writes (events, ledger rows, snapshots, game lines; for
    a closed night its facts, for the player pages: its tables never move again). ``members``:
    this club's members' ids by name, for the joins and the ledger rows that name them (the
    rows are written by the driver: no ORM hook fills them)."""
    table_id = ("table_id",)
    rows = [
        _rows(TableEvent, table_id, ("seq", "type", "payload", "actor_id", "at"),
              [(seq, str(event["type"]), imported_payload(event, members),
                actor_id, at) for seq, event in enumerate(checked.events, start=1)]),
        _rows(LedgerEntry, ("night_id", "table_id"),
              ("game", "seq", "player", "points", "points_fraction", "cents", "at", "member_id"),
              [(row.game, seq, row.player, *split(row.points), row.cents, at,
                members.get(row.player))
               for seq, ledger in enumerate(checked.rows, start=1) for row in ledger]),
        _fewer_snapshots(_rows(TableSnapshot, table_id, ("seq", "version", "state", "created_at"),
              [(seq, SNAPSHOT_VERSION, state, at) for seq, state in sorted(checked.snapshots.items())])),
        _rows(GameLinesMark, table_id, ("seq", "version", "settings"),
              [(len(checked.events), LINES_VERSION, dict(checked.settings))]),
        _rows(GameLineRow, table_id, ("number", "line"),
              [(number, line) for number, line in sorted(checked.lines.items()) if line is not None]),
    ]
    if closed:
        facts = table_facts(checked.settings, checked.events).to_dict()
        rows.append(_rows(TableFactsRow, table_id, ("seq", "version", "settings", "facts", "computed_at"),
                          [(len(checked.events), FACTS_VERSION, dict(checked.settings), facts, at)]))
    return PreparedTable(rows)


def imported_payload(event: Mapping[str, Any], members: Mapping[str, int]) -> dict[str, Any]:
    """An imported event's payload: a join's ``member_id`` is this club's, never the file's:
    the member whose name the join spells exactly (as the migration matched old joins), else
    none (a guest)."""
    payload = {k: v for k, v in event.items() if k not in ("type", "member_id")}
    if event.get("type") == "join" and isinstance(event.get("player"), str):
        member_id = members.get(display_name(event["player"]))
        if member_id is not None:
            payload["member_id"] = member_id
    return payload
