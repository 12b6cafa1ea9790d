"""A night's exports (score sheet, ledger, table logs) and the import of a night's export:
the names the views and the command line use, each from the module of its idea.

- ``night_json``: a table's log and a whole night as JSON (docs/log-format.md), the
  download names, the round trip's ledger totals;
- ``score_sheet``: a night's score sheet, per table and per game;
- ``night_csv``: the score sheet and the ledger as CSV;
- ``import_checks``: an uploaded export read and checked entirely, writing nothing;
- ``night_import``: the checked night written, all or nothing (its rows made ready by
  ``import_rows``, staged on SQLite by ``import_staged``).
"""

from __future__ import annotations

from collections.abc import Sequence

from chouette.services.import_checks import (
    MAX_IMPORT_BYTES,
    ImportRefused,
    ImportTooLarge,
    check_night_export,
    check_night_money,
    read_night_export,
)
from chouette.services.night_csv import ledger_csv, score_sheet_csv
from chouette.services.night_import import import_night
from chouette.services.night_json import (
    night_export,
    night_filename,
    night_ledger_totals,
    table_export,
    to_json,
)
from chouette.services.score_sheet import SheetRow, TableSheet, result_words, score_sheet, table_sheet

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
