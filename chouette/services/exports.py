"""Exports of a night (score sheet, ledger, table logs) and the import of a night's export.

Formats (docs/log-format.md):

- a table's log: ``{"table": {settings}, "events": [...]}``, what ``flask --app app replay``
  reads (players named by display name);
- a whole night: ``{"night": {"name", "date", "currency", "closed", "opened_at",
  "closed_at"}, "tables": [{"name", "table": {settings}, "events": [...]}], "payments": [...]}``
  (the payments, those taken back included: ``chouette.services.night_money_io``);
- the ledger as CSV, one row per player per game (amounts as plain decimals);
- the score sheet, per table and per game, as CSV (one column per player of the night).

An import checks everything first (shape, settings, every event through the rules: a fold
as long as the log, outside any transaction, so a big log never holds the database's write
lock while it is folded) and then writes the night, its tables, their events, the ledger rows
the events cause, the game lines of the ledger and the night's payments, all or nothing: a
refused file writes nothing. On SQLite the rows are staged in short transactions and the night published in a
tiny one (``_write_staged``), so no other command waits long for the write lock.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import logging
import sqlite3
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import Table, delete, func, select

from chouette.controls import (
    CONTROL,
    code_point,
    first_control,
    first_invisible,
    strings_in,
)
from chouette.deal_words import deal_sentence, proxy_sentence
from chouette.extensions import db, read_only
from chouette.ledger import cents_to_decimal
from chouette.models import (
    ChouetteTable,
    GameLineRow,
    GameLinesMark,
    ImportStage,
    LedgerEntry,
    Member,
    Night,
    TableEvent,
    TableFactsRow,
    TableSnapshot,
    free_ids,
    utcnow,
)
from chouette.names import display_name
from chouette.point_words import points_text
from chouette.refusals import say
from chouette.services.base import ServiceError, _transaction
from chouette.services.csv_cells import safe_writer
from chouette.services.facts import table_facts
from chouette.services.game_lines import LINES_VERSION, Lines, lines_of
from chouette.services.match_sheet import MatchSheet, match_sheet
from chouette.services.night_money_io import (
    CheckedPayment,
    PaymentsRefused,
    add_payments,
    check_night_times,
    check_payments,
    night_payments_export,
    night_times_export,
)
from chouette.services.night_rows import CURRENCY_RE, get_night
from chouette.services.points import fraction_sums, joined, split
from chouette.services.sheet import SheetGame, line_words, stake_periods, table_games
from chouette.services.stored_facts import FACTS_VERSION
from chouette.services.tables import (
    SNAPSHOTS_KEPT,
    LedgerRow,
    get_table,
    normalize_settings,
    preset_of,
    table_log,
)
from chouette.sqlite_writers import begin_immediate
from chouette.standings import Points, exact, money_changes
from chouette.table import (
    SNAPSHOT_VERSION,
    TableError,
    TableState,
    apply_event,
    finishes_game,
    new_table,
)

#: The largest night export an import accepts (a busy night's logs are well under 1 MB).
MAX_IMPORT_BYTES = 5 * 1024 * 1024
#: At most this many tables and events per table in one import.
MAX_IMPORT_TABLES = 100
MAX_IMPORT_EVENTS = 50_000


log = logging.getLogger(__name__)


class ImportRefused(ServiceError):
    """A night export that cannot be imported; the message names the table, event and why."""


class ImportTooLarge(ImportRefused):
    """The uploaded export is larger than ``MAX_IMPORT_BYTES``."""


# --------------------------------------------------------------------------- logs as JSON


def table_export(table_id: int) -> dict[str, Any]:
    """One table's log in the replay format. Raises NotFound."""
    table = get_table(table_id)
    return {"table": dict(table.settings), "events": table_log(table.id)}


def night_export(night_id: int) -> dict[str, Any]:
    """A whole night: its name, date, currency, opening and closing times, every table's
    settings and log, and every payment (those taken back included).

    Raises NotFound.
    """
    night = get_night(night_id)
    return {
        "night": {
            "name": night.name,
            "date": night.date.isoformat(),
            "currency": night.currency,
            "closed": not night.is_open,
            **night_times_export(night),
        },
        "tables": [
            {"name": table.name, "table": dict(table.settings), "events": table_log(table.id)}
            for table in night.tables
        ],
        "payments": night_payments_export(night.id),
    }


def to_json(data: Any) -> str:
    """The export as UTF-8 friendly JSON text (names stay readable)."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


# --------------------------------------------------------------------------- score sheet


@dataclass(frozen=True)
class SheetRow:
    """One game of a table's score sheet (``chouette.services.sheet.SheetGame``, the model
    every sheet shares) and each player's running points after it."""

    game: SheetGame
    totals: dict[str, Points]


@dataclass
class TableSheet:
    """A table's score sheet: its players in order of arrival, one row per game, the house
    rules in force now (each change is on the game it applied from) and the stakes played."""

    table: ChouetteTable
    players: list[str]
    rows: list[SheetRow] = field(default_factory=list)
    cents: dict[str, int] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    #: The stakes its games were played at: (first game, last game or None, cents), the
    #: last the stake in force now (``sheet.stake_periods``).
    stakes: list[tuple[int, int | None, int]] = field(default_factory=list)
    #: At a match table, the match's own sheet (its two players, game by game, the score).
    match: MatchSheet | None = None

    @property
    def totals(self) -> dict[str, Points]:
        """Each player's points over the whole table."""
        return self.rows[-1].totals if self.rows else dict.fromkeys(self.players, 0)


def _state(table: ChouetteTable) -> TableState:
    """The table's folded state (through the commands' cache)."""
    from chouette.services.commands import load_play

    return load_play(table.id).state


def table_sheet(table: ChouetteTable) -> TableSheet:
    """The score sheet of one table, folded from its log.

    A player who never played a game of it (never sat in one, never had money in one) has
    no column.
    """
    state = _state(table)
    games = table_games(state)
    played = {name for game in games
              for name in (game.box, game.partner, *game.members, *game.points) if name}
    players = [p for p in state.players if p in played]
    sheet = TableSheet(table, players, settings=state.settings.to_dict(),
                       stakes=stake_periods(state), match=match_sheet(state))
    running: dict[str, Points] = dict.fromkeys(players, 0)
    cents = dict.fromkeys(players, 0)
    for game in games:
        for player, value in game.points.items():
            running[player] = exact(running.get(player, 0) + value)
        for player, value in game.cents.items():
            cents[player] = cents.get(player, 0) + value
        sheet.rows.append(SheetRow(game, dict(running)))
    sheet.cents = cents
    return sheet


def score_sheet(night_id: int) -> tuple[Night, list[TableSheet]]:
    """The night and every table's score sheet. Raises NotFound."""
    night = get_night(night_id)
    return night, [table_sheet(table) for table in night.tables]


def result_words(game: SheetGame) -> str:
    """The result of a game in a few words (CSV and the printed sheet)."""
    if game.voided:
        return _("void")
    if not game.final:
        return _("in progress")
    if game.winner is None:
        return _("all cubes dropped")
    kinds = {"single": _("single"), "gammon": _("gammon"), "backgammon": _("backgammon")}
    side = _("box") if game.winner == "box" else _("team")
    return _("%(side)s wins %(kind)s", side=side, kind=kinds.get(game.kind or "", game.kind or ""))


def _owner_code(owner: str | None) -> str:
    """A cube's owner in the CSV: ``box``, ``member`` or ``middle``."""
    return "middle" if owner is None else "box" if owner == "box" else "member"


def _rules_text(changed: Mapping[str, tuple[Any, Any]]) -> str:
    """The settings a game changed, for the CSV: ``key=new (was old)``."""
    return "; ".join(f"{key}={json.dumps(new)} (was {json.dumps(old)})"
                     for key, (old, new) in changed.items())


def score_sheet_csv(night_id: int) -> str:
    """The score sheet as CSV: one row per game of every table, one column per player.

    ``cubes`` lists ``member:value:status:owner`` (owner ``box``, ``member`` or ``middle``),
    ``extras`` ``giver>taker:value:status:owner``; ``events`` says what happened in order;
    ``rules_changed`` the house rules that changed from that game on. A match's rows leave
    the chouette's seats and cubes empty and fill the ``match_*`` columns and ``crawford``.
    """
    night, sheets = score_sheet(night_id)
    players: list[str] = []
    for sheet in sheets:
        players += [p for p in sheet.players if p not in players]
    out = io.StringIO()
    writer = safe_writer(out)
    writer.writerow(["night", "date", "table", "game", "box", "partner", "captain",
                     "acting_captains", "members", "cubes", "extras", "events", "winner",
                     "kind", "voided", "correction", "partner_points", "rules_changed",
                     *players, "deals and proxies", "match_first", "match_second",
                     "match_winner", "match_how", "match_cube", "match_points", "match_score",
                     "crawford"])
    for sheet in sheets:
        for row in sheet.rows:
            game = row.game
            cubes = " ".join(f"{c.member}:{c.value}:{c.status}:{_owner_code(c.owner)}"
                             for c in game.cubes)
            extras = " ".join(f"{e.giver}>{e.taker}:{e.value}:{e.status}:"
                              f"{'giver' if e.owner == e.giver else 'taker'}" for e in game.extras)
            cells = [
                night.name, night.date.isoformat(), sheet.table.name, game.number, game.box,
                game.partner or "", game.captain, " ".join(game.acting_captains),
                " ".join(game.members), cubes, extras,
                "; ".join(line_words(line) for line in game.lines),
                game.winner or ("" if game.final else "in progress"), game.kind or "",
                "yes" if game.voided else "", game.correction or "",
                "" if game.partner_points is None else points_text(game.partner_points, False),
                _rules_text(game.rules_changed),
                *[points_text(game.points[p], False) if p in game.points else ""
                  for p in players],
                " | ".join([*(deal_sentence(d, night.currency) for d in game.deals),
                            *(proxy_sentence(a, p) for a, p in game.proxies)]),
                *_match_cells(sheet.match, game.number),
            ]
            if sheet.match is not None:
                # A match has no box, captain, team or cubes of members: its own columns say it.
                cells[4:11] = [""] * 7
                cells[12] = cells[-6]
            writer.writerow(cells)
    return out.getvalue()


def _match_cells(match: MatchSheet | None, number: int) -> list[str]:
    """A match game's cells: the two players, the winner by name, how, the cube, the points,
    the match score after it, the Crawford game (empty at a chouette table)."""
    game = next((g for g in match.games if g.number == number), None) if match else None
    if match is None or game is None:
        return [""] * 8
    return [match.first, match.second, game.winner or "", game.how or "", str(game.cube),
            str(game.points) if game.winner else "", f"{game.score[0]}-{game.score[1]}",
            "yes" if game.crawford else ""]


# --------------------------------------------------------------------------- ledger


def ledger_csv(night_id: int) -> str:
    """The night's ledger as CSV: one row per player per game, from the ledger rows."""
    night = get_night(night_id)
    query = (
        select(ChouetteTable.name, LedgerEntry.table_id, LedgerEntry.game, LedgerEntry.player,
               func.sum(LedgerEntry.points), func.sum(LedgerEntry.cents))
        .join(ChouetteTable, ChouetteTable.id == LedgerEntry.table_id)
        .where(LedgerEntry.night_id == night.id)
        .group_by(ChouetteTable.name, LedgerEntry.table_id, LedgerEntry.game, LedgerEntry.player)
        .order_by(LedgerEntry.table_id, LedgerEntry.game, LedgerEntry.player)
    )
    out = io.StringIO()
    writer = safe_writer(out)
    fractions = fraction_sums(LedgerEntry.table_id, LedgerEntry.game, LedgerEntry.player,
                              where=LedgerEntry.night_id == night.id)
    writer.writerow(["night", "date", "currency", "table", "game", "player", "points", "amount"])
    for table_name, table_id, game, player, whole, cents in db.session.execute(query):
        points = joined(int(whole), fractions.get((table_id, game, player)))
        if not points and not cents:
            continue
        writer.writerow([night.name, night.date.isoformat(), night.currency, table_name, game,
                         player, points_text(points, False), cents_to_decimal(int(cents))])
    return out.getvalue()


# --------------------------------------------------------------------------- import


@dataclass
class _CheckedTable:
    """A table of the import, checked: its settings and every event with its ledger rows."""

    name: str
    settings: dict[str, Any]
    events: list[dict[str, Any]]
    rows: list[list[LedgerRow]]  # per event
    #: the snapshots of the states after the last games' ends (seq -> snapshot data)
    snapshots: dict[int, dict[str, Any]] = field(default_factory=dict)
    lines: Lines = field(default_factory=dict)  # every game's line for the ledger


class _SwitchInterval:
    """Python's thread switch interval, shortened while imports read and fold a file
    (reference-counted).

    A fold holds the interpreter for seconds; a request in another thread of the same worker
    (a phone's poll, another table's command) gives it up at each database call and then
    waits for the fold to hand it back: up to the switch interval (5 ms) each time, tens of
    times per request. At 0.5 ms those waits stay short, for the import's duration only.
    """

    def __init__(self, seconds: float) -> None:
        self._seconds = seconds
        self._lock = threading.Lock()
        self._running = 0
        self._saved = sys.getswitchinterval()

    @contextmanager
    def __call__(self) -> Iterator[None]:
        with self._lock:
            if not self._running:
                self._saved = sys.getswitchinterval()
                sys.setswitchinterval(min(self._saved, self._seconds))
            self._running += 1
        try:
            yield
        finally:
            with self._lock:
                self._running -= 1
                if not self._running:
                    sys.setswitchinterval(self._saved)


_sharing_the_interpreter = _SwitchInterval(0.0005)


def read_night_export(raw: bytes | str) -> dict[str, Any]:
    """The JSON object of an uploaded night export. Raises ImportRefused."""
    if len(raw) > MAX_IMPORT_BYTES:
        raise ImportTooLarge(_("The file is too large (at most %(size)d MB).",
                              size=MAX_IMPORT_BYTES // (1024 * 1024)))
    with _sharing_the_interpreter():
        return _read_night_export(raw)


def _read_night_export(raw: bytes | str) -> dict[str, Any]:
    """``read_night_export`` once the size is known to be within bounds."""
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


def _night_fields(data: Mapping[str, Any]) -> tuple[str, dt.date, str, bool]:
    night = data.get("night")
    if not isinstance(night, Mapping):
        raise ImportRefused(_("A night export is a JSON object with a night and its tables."))
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


def _check_table(index: int, raw: object, seen: set[str]) -> _CheckedTable:
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
    return _CheckedTable(name, settings, [dict(e) for e in events], rows, _snapshots(ends),
                         lines_of(state))


def _snapshots(ends: Sequence[tuple[int, TableState]]) -> dict[int, dict[str, Any]]:
    """The snapshots an imported table writes: the latest game end's, and the older ones when
    they are small (``_fewer_snapshots``): on SQLite, the older ones are not even drawn up when
    the latest is already big (they hold one game fewer each: as big, or nearly)."""
    if not ends:
        return {}
    seq, state = ends[-1]
    latest = state.snapshot()
    if db.engine.dialect.name == "sqlite" and len(json.dumps(latest)) > IMPORT_SNAPSHOT_BYTES:
        return {seq: latest}
    return {**{at: ended.snapshot() for at, ended in ends[:-1]}, seq: latest}


def check_night_export(data: Mapping[str, Any]) -> tuple[tuple[str, dt.date, str, bool], list[_CheckedTable]]:
    """Check a night export entirely, writing nothing. Raises ImportRefused."""
    fields = _night_fields(data)
    tables = data.get("tables")
    if not isinstance(tables, list):
        raise ImportRefused(_('A night export needs a "tables" list.'))
    if len(tables) > MAX_IMPORT_TABLES:
        raise ImportRefused(_("A night has at most %(count)d tables.", count=MAX_IMPORT_TABLES))
    checked: list[_CheckedTable] = []
    seen: set[str] = set()
    for index, raw in enumerate(tables, start=1):
        table = _check_table(index, raw, seen)
        seen.add(table.name)
        checked.append(table)
    return fields, checked


@dataclass(frozen=True)
class _CheckedMoney:
    """The night's opening and closing times (None: not in the file) and its payments."""

    opened_at: dt.datetime | None
    closed_at: dt.datetime | None
    payments: list[CheckedPayment]


def check_night_money(data: Mapping[str, Any], closed: bool, tables: Sequence[_CheckedTable]) -> _CheckedMoney:
    """The night's times and payments of an export, checked against its tables' ledger rows
    (a payment is between players of the night's ledger), writing nothing. Raises ImportRefused."""
    players = {row.player for table in tables for rows in table.rows for row in rows}
    try:
        opened_at, closed_at = check_night_times(data["night"], closed)
        return _CheckedMoney(opened_at, closed_at, check_payments(data.get("payments"), players))
    except PaymentsRefused as error:
        raise ImportRefused(str(error)) from None


def import_night(data: Mapping[str, Any], actor: Member | None) -> Night:
    """A new night from a night export: its tables, every event through the rules, the
    ledger rows the events cause, and its payments at their times, all or nothing.

    The caller's transaction is ended first (on SQLite a request that loaded the member holds
    the write lock): the export is checked, folded and made into rows outside any
    transaction. On SQLite the rows are then written in short transactions under ids taken
    for the purpose, where no page looks, and the night and its tables are published in one
    tiny transaction (``_write_staged``); elsewhere in one transaction. What another request
    may have changed meanwhile (the season closed) is checked again as the night is written.

    Raises ImportRefused (the table, the event number and the reason; a date inside a closed
    season): nothing is written.
    """
    actor_id = actor.id if actor is not None else None
    db.session.commit()  # nothing of the import is written yet: no lock is held while folding
    read_only()  # whatever is read meanwhile (a refusal's language: the member) is read so
    at = utcnow()
    with _sharing_the_interpreter():
        (name, date, currency, closed), tables = check_night_export(data)
        money = check_night_money(data, closed, tables)
        members = dict(db.session.execute(select(Member.name, Member.id)).all())
        prepared = [_prepare(checked, actor_id, at, closed, members) for checked in tables]
        _refuse_closed_season(date, currency)  # refused at once, before any lock is taken
        db.session.commit()
        night = Night(name=name, date=date, currency=currency, opened_by_id=actor_id,
                      opened_at=money.opened_at or at,
                      closed_at=(money.closed_at or at) if closed else None)
        rows = [ChouetteTable(name=checked.name, settings=checked.settings,
                              preset=preset_of(checked.settings), created_at=at)
                for checked in tables]
        if db.engine.dialect.name == "sqlite":
            return _write_staged(night, list(zip(rows, prepared, strict=True)), at,
                                 money.payments, actor_id)
        with _transaction():
            _refuse_closed_season(date, currency)  # again under the lock: closed meanwhile?
            db.session.add(night)
            db.session.flush()
            add_payments(night.id, money.payments, actor_id)
            for table, table_rows in zip(rows, prepared, strict=True):
                table.night_id = night.id
                db.session.add(table)
                db.session.flush()
                table_rows.write(night.id, table.id)
    return night


def _refuse_closed_season(date: dt.date, currency: str) -> None:
    """Raise ImportRefused when the night's date is inside a closed season."""
    from chouette.services.season_checks import refuse_night_in_closed_season

    try:
        refuse_night_in_closed_season(date, currency)
    except ServiceError as error:
        raise ImportRefused(str(error)) from None


@dataclass
class _Rows:
    """One table's rows for one database table, converted for the driver ahead of the
    transaction: ``values`` lack the leading id columns (``ids``: the night's, the table's)."""

    table: Table
    ids: tuple[str, ...]
    names: tuple[str, ...]
    values: list[tuple[Any, ...]]


@dataclass
class _Prepared:
    """Everything an imported table writes, but its ids (known in the transaction only)."""

    rows: list[_Rows]

    def write(self, night_id: int, table_id: int) -> None:
        """Insert every row, in the import's transaction (not on SQLite: ``_write_staged``)."""
        known = {"night_id": night_id, "table_id": table_id}
        for rows in self.rows:
            _insert_many(rows, tuple(known[name] for name in rows.ids))


#: How the database driver writes its n-th parameter (PEP 249 ``paramstyle``).
_PLACEHOLDERS = {"qmark": "?", "format": "%s", "pyformat": "%s", "numeric": ":{n}", "named": ":p{n}"}


def _rows(model: Any, ids: tuple[str, ...], names: tuple[str, ...],
          values: Sequence[Sequence[Any]]) -> _Rows:
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
    return _Rows(table, ids, names, rows)


def _insert_statement(rows: _Rows, paramstyle: str) -> str:
    """The INSERT of ``rows`` (their id columns first) with the driver's placeholders."""
    placeholder = _PLACEHOLDERS[paramstyle]
    names = (*rows.ids, *rows.names)
    quote = db.engine.dialect.identifier_preparer.quote
    return (f"INSERT INTO {quote(rows.table.name)} ({', '.join(quote(n) for n in names)}) "
            f"VALUES ({', '.join(placeholder.format(n=n) for n in range(1, len(names) + 1))})")


def _insert_many(rows: _Rows, ids: tuple[Any, ...]) -> None:
    """INSERT the rows with one ``executemany`` of the driver: the import's transaction lasts
    no longer than the database's own work."""
    if not rows.values:
        return
    connection = db.session.connection()
    dialect = connection.dialect
    statement = _insert_statement(rows, dialect.paramstyle)
    values = [(*ids, *row) for row in rows.values]
    if dialect.paramstyle == "named":
        connection.exec_driver_sql(statement, [{f"p{n}": v for n, v in enumerate(row, start=1)}
                                               for row in values])
    else:
        connection.exec_driver_sql(statement, values)


# --------------------------------------------------------------------------- staged (SQLite)

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


def _write_staged(night: Night, tables: list[tuple[ChouetteTable, _Prepared]], at: dt.datetime,
                  payments: Sequence[CheckedPayment] = (), actor_id: int | None = None) -> Night:
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
        with _transaction():
            _refuse_closed_season(night.date, night.currency)
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
                    statement = _insert_statement(rows, "qmark")
                    for chunk in _chunks(rows.values):
                        _write_briefly(cursor, statement, [(*ids, *row) for row in chunk])
        with _transaction():
            _refuse_closed_season(night.date, night.currency)  # closed meanwhile?
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
    with _transaction():
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
    begin_immediate(cursor)
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
                        begin_immediate(cursor)
                        deleted = cursor.execute(statement, (table_id, table_id)).rowcount
                        cursor.connection.commit()
                        _between_writes(time.perf_counter() - started)
            begin_immediate(cursor)
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


#: An imported table gets the snapshot of its last game's end, and those of the games before
#: (``SNAPSHOTS_KEPT``, for an undo past a game's end) only while they are this small: a
#: snapshot holds every game of the table (some 7 MB after 4,000 games), and each one written
#: holds SQLite's write lock (a cache: without it, such an undo folds the log).
IMPORT_SNAPSHOT_BYTES = 1024 * 1024


def _fewer_snapshots(rows: _Rows) -> _Rows:
    """The latest snapshot, and the older ones under ``IMPORT_SNAPSHOT_BYTES`` as the driver
    gets them (JSON text on SQLite; a driver's own JSON value counts as small: no write lock
    to spare there)."""
    state = rows.names.index("state")

    def small(row: tuple[Any, ...]) -> bool:
        value = row[state]
        return not isinstance(value, str | bytes) or len(value) <= IMPORT_SNAPSHOT_BYTES

    rows.values = [row for row in rows.values[:-1] if small(row)] + rows.values[-1:]
    return rows


def _prepare(checked: _CheckedTable, actor_id: int | None, at: dt.datetime, closed: bool,
             members: Mapping[str, int]) -> _Prepared:
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
    return _Prepared(rows)


# --------------------------------------------------------------------------- round trip


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


def night_ledger_totals(night_id: int) -> dict[str, tuple[Points, int]]:
    """Each player's points and cents over a night, from its ledger rows (the round-trip check)."""
    query = (select(LedgerEntry.player, func.sum(LedgerEntry.points), func.sum(LedgerEntry.cents))
             .where(LedgerEntry.night_id == night_id).group_by(LedgerEntry.player))
    fractions = fraction_sums(LedgerEntry.player, where=LedgerEntry.night_id == night_id)
    totals: dict[str, tuple[Points, int]] = defaultdict(lambda: (0, 0))
    for player, points, cents in db.session.execute(query):
        totals[player] = (joined(int(points), fractions.get(player)), int(cents))
    return dict(totals)


def night_filename(night: Night, suffix: str) -> str:
    """A safe download name: ``night-2026-11-21-3-<suffix>``."""
    return f"night-{night.date.isoformat()}-{night.id}-{suffix}"


__all__: Sequence[str] = (
    "MAX_IMPORT_BYTES",
    "ImportRefused",
    "ImportTooLarge",
    "SheetRow",
    "TableSheet",
    "check_night_export",
    "check_night_money",
    "import_night",
    "ledger_csv",
    "night_export",
    "night_filename",
    "night_ledger_totals",
    "read_night_export",
    "result_words",
    "score_sheet",
    "score_sheet_csv",
    "table_export",
    "table_sheet",
    "to_json",
)
