"""Exports of a night (score sheet, ledger, table logs) and the import of a night's export.

Formats (DESIGN.md "Log format"):

- a table's log: ``{"table": {settings}, "events": [...]}``, what ``flask --app app replay``
  reads (players named by display name);
- a whole night: ``{"night": {"name", "date", "currency", "closed"}, "tables": [{"name",
  "table": {settings}, "events": [...]}]}``;
- the ledger as CSV, one row per player per game (amounts as plain decimals);
- the score sheet, per table and per game, as CSV (one column per player of the night).

An import checks everything first (shape, settings, every event through the rules) and then
writes the night, its tables, their events and the ledger rows the events cause, in one
transaction: a refused file writes nothing.
"""

from __future__ import annotations

import datetime as dt
import io
import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from chouette.controls import CONTROL, code_point, first_control, strings_in
from chouette.deal_words import deal_sentence, proxy_sentence
from chouette.extensions import db
from chouette.ledger import cents_to_decimal
from chouette.models import (
    ChouetteTable,
    LedgerEntry,
    Member,
    Night,
    TableEvent,
    utcnow,
)
from chouette.refusals import say
from chouette.services.base import ServiceError, _transaction
from chouette.services.csv_cells import safe_writer
from chouette.services.night_rows import CURRENCY_RE, get_night
from chouette.services.season_checks import refuse_night_in_closed_season
from chouette.services.tables import (
    SNAPSHOTS_KEPT,
    LedgerRow,
    add_snapshots,
    get_table,
    normalize_settings,
    preset_of,
    table_log,
)
from chouette.standings import GameMoney, games_money, money_changes
from chouette.table import (
    GameRecord,
    TableError,
    TableState,
    apply_event,
    finishes_game,
    new_table,
)
from chouette.table.cubes import Deal

#: The largest night export an import accepts (a busy night's logs are well under 1 MB).
MAX_IMPORT_BYTES = 5 * 1024 * 1024
#: At most this many tables and events per table in one import.
MAX_IMPORT_TABLES = 100
MAX_IMPORT_EVENTS = 50_000


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
    """A whole night: its name, date and currency, and every table's settings and log.

    Raises NotFound.
    """
    night = get_night(night_id)
    return {
        "night": {
            "name": night.name,
            "date": night.date.isoformat(),
            "currency": night.currency,
            "closed": not night.is_open,
        },
        "tables": [
            {"name": table.name, "table": dict(table.settings), "events": table_log(table.id)}
            for table in night.tables
        ],
    }


def to_json(data: Any) -> str:
    """The export as UTF-8 friendly JSON text (names stay readable)."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


# --------------------------------------------------------------------------- score sheet


@dataclass(frozen=True)
class SheetRow:
    """One game of a table's score sheet: who played where, the result, the points."""

    number: int
    box: str
    partner: str | None
    captain: str
    members: tuple[str, ...]
    winner: str | None
    kind: str | None
    cubes: tuple[tuple[str, int, str], ...]  # (member, value, status)
    points: dict[str, int]
    totals: dict[str, int]  # running points after this game
    voided: bool = False
    correction: str | None = None
    final: bool = True
    deals: tuple[Deal, ...] = ()  # cubes settled for an agreed amount (RULES 2.12)
    proxies: tuple[tuple[str, str], ...] = ()  # (absent member, who decided for him)


@dataclass
class TableSheet:
    """A table's score sheet: its players in order of arrival, one row per game."""

    table: ChouetteTable
    players: list[str]
    rows: list[SheetRow] = field(default_factory=list)
    cents: dict[str, int] = field(default_factory=dict)

    @property
    def totals(self) -> dict[str, int]:
        """Each player's points over the whole table."""
        return self.rows[-1].totals if self.rows else dict.fromkeys(self.players, 0)


def _state(table: ChouetteTable) -> TableState:
    """The table's folded state (through the commands' cache)."""
    from chouette.services.commands import load_play

    return load_play(table.id).state


def table_sheet(table: ChouetteTable) -> TableSheet:
    """The score sheet of one table, folded from its log."""
    state = _state(table)
    money = {m.number: m for m in games_money(state)}
    records = {r.number: r for r in state.games}
    sheet = TableSheet(table, list(state.players))
    running = dict.fromkeys(state.players, 0)
    cents = dict.fromkeys(state.players, 0)
    for number in sorted(set(records) | set(money)):
        game_money = money.get(number) or GameMoney(number, {}, {}, True)
        for player, value in game_money.points.items():
            running[player] = running.get(player, 0) + value
        for player, value in game_money.cents.items():
            cents[player] = cents.get(player, 0) + value
        record = records.get(number)
        if record is not None:
            sheet.rows.append(_sheet_row(record, game_money, dict(running)))
        elif state.game is not None:
            game = state.game
            sheet.rows.append(SheetRow(
                number, state.box or "", state.partner, game.seat_captain, tuple(game.members),
                None, None, tuple((m, game.cubes[m].value, game.cubes[m].status) for m in game.members),
                dict(game_money.points), dict(running), final=False,
                deals=tuple(game.deals.values()), proxies=tuple(game.proxies.items()),
            ))
    sheet.cents = cents
    return sheet


def _sheet_row(record: GameRecord, game_money: GameMoney, totals: dict[str, int]) -> SheetRow:
    return SheetRow(
        record.number, record.box, record.partner, record.captain,
        tuple(c.member for c in record.cubes), record.winner, record.kind,
        tuple((c.member, c.value, c.status) for c in record.cubes),
        dict(game_money.points), totals, record.voided, record.correction,
        deals=record.deals, proxies=record.proxies,
    )


def score_sheet(night_id: int) -> tuple[Night, list[TableSheet]]:
    """The night and every table's score sheet. Raises NotFound."""
    night = get_night(night_id)
    return night, [table_sheet(table) for table in night.tables]


def result_words(row: SheetRow) -> str:
    """The result of a game in a few words (CSV and the printed sheet)."""
    if row.voided:
        return _("void")
    if not row.final:
        return _("in progress")
    if row.winner is None:
        return _("all cubes dropped")
    kinds = {"single": _("single"), "gammon": _("gammon"), "backgammon": _("backgammon")}
    side = _("box") if row.winner == "box" else _("team")
    return _("%(side)s wins %(kind)s", side=side, kind=kinds.get(row.kind or "", row.kind or ""))


def score_sheet_csv(night_id: int) -> str:
    """The score sheet as CSV: one row per game of every table, one column per player."""
    night, sheets = score_sheet(night_id)
    players: list[str] = []
    for sheet in sheets:
        players += [p for p in sheet.players if p not in players]
    out = io.StringIO()
    writer = safe_writer(out)
    writer.writerow(["night", "date", "table", "game", "box", "partner", "captain", "members",
                     "cubes", "winner", "kind", "voided", "correction", *players,
                     "deals and proxies"])
    for sheet in sheets:
        for row in sheet.rows:
            cubes = " ".join(f"{member}:{value}:{status}" for member, value, status in row.cubes)
            writer.writerow([
                night.name, night.date.isoformat(), sheet.table.name, row.number, row.box,
                row.partner or "", row.captain, " ".join(row.members), cubes,
                row.winner or ("" if row.final else "in progress"), row.kind or "",
                "yes" if row.voided else "", row.correction or "",
                *[row.points.get(p, "") for p in players],
                " | ".join([*(deal_sentence(d, night.currency) for d in row.deals),
                            *(proxy_sentence(a, p) for a, p in row.proxies)]),
            ])
    return out.getvalue()


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
    writer.writerow(["night", "date", "currency", "table", "game", "player", "points", "amount"])
    for table_name, _table_id, game, player, points, cents in db.session.execute(query):
        if not points and not cents:
            continue
        writer.writerow([night.name, night.date.isoformat(), night.currency, table_name, game,
                         player, int(points), cents_to_decimal(int(cents))])
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
    return _CheckedTable(name, settings, [dict(e) for e in events], rows,
                         {seq: ended.snapshot() for seq, ended in ends})


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


def import_night(data: Mapping[str, Any], actor: Member | None) -> Night:
    """A new night from a night export: its tables, every event through the rules, and the
    ledger rows the events cause, in one transaction.

    Raises ImportRefused (the table, the event number and the reason; a date inside a closed
    season): nothing is written.
    """
    (name, date, currency, closed), tables = check_night_export(data)
    try:
        refuse_night_in_closed_season(date, currency)
    except ServiceError as error:
        raise ImportRefused(str(error)) from None
    actor_id = actor.id if actor is not None else None
    at = utcnow()
    with _transaction():
        night = Night(name=name, date=date, currency=currency, opened_by_id=actor_id,
                      closed_at=at if closed else None)
        db.session.add(night)
        db.session.flush()
        for checked in tables:
            table = ChouetteTable(night_id=night.id, name=checked.name, settings=checked.settings,
                                  preset=preset_of(checked.settings))
            db.session.add(table)
            db.session.flush()
            for seq, (event, rows) in enumerate(zip(checked.events, checked.rows, strict=False), start=1):
                db.session.add(TableEvent(
                    table_id=table.id, seq=seq, type=str(event["type"]),
                    payload={k: v for k, v in event.items() if k != "type"},
                    actor_id=actor_id, at=at,
                ))
                db.session.add_all(
                    LedgerEntry(night_id=night.id, table_id=table.id, game=row.game, seq=seq,
                                player=row.player, points=row.points, cents=row.cents, at=at)
                    for row in rows
                )
            add_snapshots(table.id, checked.snapshots)
    if closed:  # its tables never move again: their facts for the player pages, stored now
        from chouette.services.stored_facts import store_night_facts

        store_night_facts(night.id)
    return night


def night_ledger_totals(night_id: int) -> dict[str, tuple[int, int]]:
    """Each player's points and cents over a night, from its ledger rows (the round-trip check)."""
    query = (select(LedgerEntry.player, func.sum(LedgerEntry.points), func.sum(LedgerEntry.cents))
             .where(LedgerEntry.night_id == night_id).group_by(LedgerEntry.player))
    totals: dict[str, tuple[int, int]] = defaultdict(lambda: (0, 0))
    for player, points, cents in db.session.execute(query):
        totals[player] = (int(points), int(cents))
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
