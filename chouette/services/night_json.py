"""A night's logs as JSON, what its import reads back (docs/log-format.md).

- a table's log: ``{"table": {settings}, "events": [...]}``, what ``flask --app app replay``
  reads (players named by display name);
- a whole night: ``{"night": {"name", "date", "currency", "closed", "opened_at",
  "closed_at"}, "tables": [{"name", "table": {settings}, "events": [...]}], "payments": [...]}``
  (the payments, those taken back included: ``chouette.services.night_money_io``).

``night_ledger_totals`` is the round trip's check: a night and its import have the same.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import LedgerEntry, Night
from chouette.services.night_money_io import night_payments_export, night_times_export
from chouette.services.night_rows import get_night
from chouette.services.points import fraction_sums, joined
from chouette.services.tables import get_table, table_log
from chouette.standings import Points


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
