"""The first half of a night's import: the uploaded file read and checked entirely, writing
nothing (``chouette.services.night_import`` writes what passes).

The checks: the size (``MAX_IMPORT_BYTES``), JSON, no control or invisible character in any
string, the night's name, date and currency, each table's name and settings, every event
through the rules (a fold as long as the log, outside any transaction, so a big log never
holds the database's write lock while it is folded), the night's times and payments, and
the season (a night inside a closed one is refused). A refusal is ``ImportRefused``, naming
the table, the event and why.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

from chouette.controls import (
    CONTROL,
    code_point,
    first_control,
    first_invisible,
    strings_in,
)
from chouette.extensions import db
from chouette.refusals import say
from chouette.services.base import ServiceError
from chouette.services.game_lines import Lines, lines_of
from chouette.services.night_money_io import (
    CheckedPayment,
    PaymentsRefused,
    check_night_times,
    check_payments,
    unknown_key,
)
from chouette.services.night_rows import CURRENCY_RE
from chouette.services.tables import SNAPSHOTS_KEPT, LedgerRow, normalize_settings
from chouette.standings import money_changes
from chouette.table import TableError, TableState, apply_event, finishes_game, new_table

#: The largest night export an import accepts (a busy night's logs are well under 1 MB).
MAX_IMPORT_BYTES = 5 * 1024 * 1024
#: At most this many tables and events per table in one import.
MAX_IMPORT_TABLES = 100
MAX_IMPORT_EVENTS = 50_000
#: An imported table gets the snapshot of its last game's end, and those of the games before
#: (``SNAPSHOTS_KEPT``, for an undo past a game's end) only while they are this small: a
#: snapshot holds every game of the table (some 7 MB after 4,000 games), and each one written
#: holds SQLite's write lock (a cache: without it, such an undo folds the log).
IMPORT_SNAPSHOT_BYTES = 1024 * 1024


class ImportRefused(ServiceError):
    """A night export that cannot be imported; the message names the table, event and why."""


class ImportTooLarge(ImportRefused):
    """The uploaded export is larger than ``MAX_IMPORT_BYTES``."""

@dataclass
class CheckedTable:
    """A table of the import, checked: its settings and every event with its ledger rows."""

    name: str
    settings: dict[str, Any]
    events: list[dict[str, Any]]
    rows: list[list[LedgerRow]]  # per event
    #: the snapshots of the states after the last games' ends (seq -> snapshot data)
    snapshots: dict[int, dict[str, Any]] = field(default_factory=dict)
    lines: Lines = field(default_factory=dict)  # every game's line for the ledger


def read_night_export(raw: bytes | str) -> dict[str, Any]:
    """The JSON object of an uploaded night export. Raises ImportRefused."""
    if len(raw) > MAX_IMPORT_BYTES:
        raise ImportTooLarge(_("The file is too large (at most %(size)d MB).",
                              size=MAX_IMPORT_BYTES // (1024 * 1024)))
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ImportRefused(_("The file is not a JSON export: %(reason)s", reason=str(error))) from error
    except RecursionError as error:  # "[[[[...]]]]" nested beyond any export's depth
        raise ImportRefused(_("A night export is a JSON object with a night and its tables.")) from error
    if not isinstance(data, dict):
        raise ImportRefused(_("A night export is a JSON object with a night and its tables."))
    for where, text in strings_in(data):
        char = first_control(text, lines_ok=True)
        if char is not None:
            raise ImportRefused(_("The file holds a control character (%(code)s) at %(where)s: "
                                  "no name or field may hold one.",
                                  code=code_point(char), where=CONTROL.sub("?", where)[:80]))
        char = first_invisible(text)
        if char is not None:  # "A\u200bnn" would look exactly like Ann on the ledger
            raise ImportRefused(_("The file holds an invisible character (%(code)s) at %(where)s: "
                                  "no name or field may hold one.",
                                  code=code_point(char), where=CONTROL.sub("?", where)[:80]))
    return data


#: The keys of a night export and of its night (``night_json.night_export``): a misspelt
#: one is refused, never passed over ("paymnets" would import a night without its payments).
EXPORT_KEYS = frozenset({"night", "tables", "payments"})
NIGHT_KEYS = frozenset({"name", "date", "currency", "closed", "opened_at", "closed_at"})


def _night_fields(data: Mapping[str, Any]) -> tuple[str, dt.date, str, bool]:
    night = data.get("night")
    if not isinstance(night, Mapping):
        raise ImportRefused(_("A night export is a JSON object with a night and its tables."))
    if (key := unknown_key(data, EXPORT_KEYS)) is not None:
        raise ImportRefused(_('Unknown key “%(key)s” in the night export (it has "night", "tables" '
                              'and "payments").', key=key))
    if (key := unknown_key(night, NIGHT_KEYS)) is not None:
        raise ImportRefused(_('Unknown key “%(key)s” in the export\'s "night".', key=key))
    name = night.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 80:
        raise ImportRefused(_("A night needs a name (at most 80 characters)."))
    try:
        date = dt.date.fromisoformat(str(night.get("date")))
    except ValueError as error:
        raise ImportRefused(_("The night's date is not a date (YYYY-MM-DD).")) from error
    currency = night.get("currency", "EUR")
    if not isinstance(currency, str) or not CURRENCY_RE.match(currency):
        raise ImportRefused(_("A currency is a three-letter code such as EUR."))
    return name.strip(), date, currency, bool(night.get("closed", False))


#: The keys of a table in a night export (``night_json.night_export``).
TABLE_KEYS = frozenset({"name", "table", "events"})


def _check_table(index: int, raw: object, seen: set[str]) -> CheckedTable:
    """One table of the import through the rules. Raises ImportRefused naming what fails."""
    if not isinstance(raw, Mapping):
        raise ImportRefused(_("Table %(number)d is not an object with a name, settings and events.",
                              number=index))
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 60:
        raise ImportRefused(_("Table %(number)d needs a name (at most 60 characters).", number=index))
    name = name.strip()
    if name in seen:
        raise ImportRefused(_("Two tables are called “%(name)s”.", name=name))
    settings_raw = raw.get("table", {})
    events = raw.get("events")
    if not isinstance(settings_raw, Mapping) or not isinstance(events, list):
        raise ImportRefused(_('Table “%(name)s” needs "table" settings and an "events" list.', name=name))
    if (key := unknown_key(raw, TABLE_KEYS)) is not None:  # "settings" for "table": the defaults
        raise ImportRefused(_('Table “%(name)s”: unknown key “%(key)s” (a table has "name", "table" '
                              'and "events").', name=name, key=key))
    if len(events) > MAX_IMPORT_EVENTS:
        raise ImportRefused(_("Table “%(name)s” has too many events.", name=name))
    try:
        settings = normalize_settings(settings_raw)
    except ServiceError as error:
        raise ImportRefused(_("Table “%(name)s”: %(reason)s", name=name, reason=str(error))) from error
    # One fold, as long as the log (``apply_event`` shares what the state before holds).
    state = new_table(settings)
    rows: list[list[LedgerRow]] = []
    ends: list[tuple[int, TableState]] = []
    for number, event in enumerate(events, start=1):
        kind = event.get("type") if isinstance(event, Mapping) else None
        if not isinstance(kind, str) or not kind or len(kind) > 32:
            raise ImportRefused(_("Table “%(name)s”, event %(number)d: an event needs a type.",
                                  name=name, number=number))
        try:
            before, state = state, apply_event(state, event)
        except TableError as error:
            raise ImportRefused(_("Table “%(name)s”, event %(number)d (%(type)s): %(reason)s",
                                  name=name, number=number, type=kind, reason=say(error))) from error
        rows.append([LedgerRow(*change) for change in money_changes(before, state)])
        if finishes_game(before, state, event):
            ends = [*ends, (number, state)][-SNAPSHOTS_KEPT:]  # states are never changed
    return CheckedTable(name, settings, [dict(e) for e in events], rows, _snapshots(ends),
                        lines_of(state))


def _snapshots(ends: Sequence[tuple[int, TableState]]) -> dict[int, dict[str, Any]]:
    """The snapshots an imported table writes: the latest game end's, and the older ones when
    they are small (``import_rows._fewer_snapshots``): on SQLite, the older ones are not even
    drawn up when the latest is already big (they hold one game fewer each: as big, or nearly)."""
    if not ends:
        return {}
    seq, state = ends[-1]
    latest = state.snapshot()
    if db.engine.dialect.name == "sqlite" and len(json.dumps(latest)) > IMPORT_SNAPSHOT_BYTES:
        return {seq: latest}
    return {**{at: ended.snapshot() for at, ended in ends[:-1]}, seq: latest}


def check_night_export(data: Mapping[str, Any]) -> tuple[tuple[str, dt.date, str, bool], list[CheckedTable]]:
    """Check a night export entirely, writing nothing. Raises ImportRefused."""
    fields = _night_fields(data)
    tables = data.get("tables")
    if not isinstance(tables, list):
        raise ImportRefused(_('A night export needs a "tables" list.'))
    if len(tables) > MAX_IMPORT_TABLES:
        raise ImportRefused(_("A night has at most %(count)d tables.", count=MAX_IMPORT_TABLES))
    checked: list[CheckedTable] = []
    seen: set[str] = set()
    for index, raw in enumerate(tables, start=1):
        table = _check_table(index, raw, seen)
        seen.add(table.name)
        checked.append(table)
    return fields, checked


@dataclass(frozen=True)
class CheckedMoney:
    """The night's opening and closing times (None: not in the file) and its payments."""

    opened_at: dt.datetime | None
    closed_at: dt.datetime | None
    payments: list[CheckedPayment]


def check_night_money(data: Mapping[str, Any], closed: bool, tables: Sequence[CheckedTable]) -> CheckedMoney:
    """The night's times and payments of an export, checked against its tables' ledger rows
    (a payment is between players of the night's ledger), writing nothing. Raises ImportRefused."""
    players = {row.player for table in tables for rows in table.rows for row in rows}
    try:
        opened_at, closed_at = check_night_times(data["night"], closed)
        return CheckedMoney(opened_at, closed_at, check_payments(data.get("payments"), players))
    except PaymentsRefused as error:
        raise ImportRefused(str(error)) from None


def refuse_closed_season(date: dt.date, currency: str) -> None:
    """Raise ImportRefused when the night's date is inside a closed season."""
    from chouette.services.season_checks import refuse_night_in_closed_season

    try:
        refuse_night_in_closed_season(date, currency)
    except ServiceError as error:
        raise ImportRefused(str(error)) from None
