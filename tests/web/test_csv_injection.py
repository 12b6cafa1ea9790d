"""CSV exports never hand a spreadsheet a formula (issue 12, finding 3): every cell that starts
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'`` (OWASP), the
plain numbers the exports write (amounts such as ``-6.00``, points) stay numbers."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest

from chouette.extensions import db
from chouette.services import money, seasons
from chouette.services.csv_cells import FORMULA_STARTS, safe_cell
from tests.factories import gen_member, gen_night, gen_table
from tests.web.test_exports import play_log

#: Names a hostile member types, each a formula in a spreadsheet.
HYPERLINK = '=HYPERLINK("http://evil.example","x")'
ONE_PLUS_ONE = "=1+1"
SUM_CMD = "@SUM(1+1)*cmd"
PLUS = "+1+cmd"
MINUS = "-2+3"
NIGHT_NAME = "=cmd|' /C calc'!A0"
TABLE_NAME = "-1+1"

HOSTILE_LOG = [
    {"type": "join", "player": HYPERLINK}, {"type": "join", "player": ONE_PLUS_ONE},
    {"type": "join", "player": SUM_CMD}, {"type": "join", "player": PLUS},
    {"type": "join", "player": MINUS},
    {"type": "order_roll", "rolls": {HYPERLINK: 6, ONE_PLUS_ONE: 5, SUM_CMD: 4, PLUS: 3, MINUS: 2}},
    # The box doubles everyone; all take; the box wins a gammon: everyone has money.
    {"type": "double", "by": "box", "cubes": [ONE_PLUS_ONE, SUM_CMD, PLUS, MINUS]},
    {"type": "take", "cube": ONE_PLUS_ONE}, {"type": "take", "cube": SUM_CMD},
    {"type": "take", "cube": PLUS}, {"type": "take", "cube": MINUS},
    {"type": "result", "winner": "box", "kind": "gammon"},
]
HOSTILE = (HYPERLINK, ONE_PLUS_ONE, SUM_CMD, PLUS, MINUS, NIGHT_NAME, TABLE_NAME)


@pytest.fixture
def hostile(app):
    """A night, a table and players named as formulas; a game played; a payment at the night;
    a season around it."""
    with app.app_context():
        organizer = gen_member("organizer", name="@Olga")
        night = gen_night(name=NIGHT_NAME, date=dt.date(2026, 11, 21))
        table = gen_table(night, name=TABLE_NAME)
        play_log(table.id, HOSTILE_LOG, organizer)
        money.record_payment(night.id, payer=SUM_CMD, payee=HYPERLINK, cents=100, method="cash",
                                actor=organizer)
        season = seasons.create_season(name="+Autumn", first=dt.date(2026, 10, 1),
                                        last=dt.date(2026, 12, 31), currency="EUR", actor=organizer)
        db.session.commit()
        return {"night": night.id, "season": season.id}


def _cells(client, url: str) -> list[list[str]]:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    assert response.mimetype == "text/csv"
    return list(csv.reader(io.StringIO(response.data.decode())))


def _is_plain_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return cell.lstrip("-").replace(".", "", 1).isdigit()


@pytest.mark.parametrize("export", ["ledger.csv", "score-sheet.csv", "standings.csv", "payments.csv"])
def test_no_exported_cell_is_a_formula_and_every_hostile_name_is_neutralised(app, client, login_as,
                                                                             hostile, export):
    login_as("organizer")
    url = (f"/seasons/{hostile['season']}/{export}" if export in ("standings.csv", "payments.csv")
           else f"/nights/{hostile['night']}/{export}")
    rows = _cells(client, url)
    cells = [cell for row in rows for cell in row]
    formulas = [cell for cell in cells if cell.startswith(FORMULA_STARTS) and not _is_plain_number(cell)]
    assert formulas == [], f"{export}: cells a spreadsheet reads as formulas: {formulas}"
    found = {name for name in HOSTILE if any(cell == "'" + name or cell.startswith("'" + name + ":")
                                             for cell in cells)}
    assert found, f"{export}: no hostile name at all: {cells}"
    for name in found:
        assert name not in cells


def test_each_export_carries_the_names_it_should_neutralised(app, client, login_as, hostile):
    login_as("organizer")
    night, season = hostile["night"], hostile["season"]
    ledger = {cell for row in _cells(client, f"/nights/{night}/ledger.csv") for cell in row}
    assert {"'" + name for name in (HYPERLINK, ONE_PLUS_ONE, SUM_CMD, PLUS, MINUS, NIGHT_NAME,
                                    TABLE_NAME)} <= ledger
    sheet = _cells(client, f"/nights/{night}/score-sheet.csv")
    # The header names every player in a column of their own: neutralised there too.
    assert {"'" + name for name in (HYPERLINK, ONE_PLUS_ONE, SUM_CMD, PLUS, MINUS)} <= set(sheet[0])
    standings = {cell for row in _cells(client, f"/seasons/{season}/standings.csv") for cell in row}
    assert {"'+Autumn", "'" + NIGHT_NAME, "'" + SUM_CMD} <= standings
    payments = {cell for row in _cells(client, f"/seasons/{season}/payments.csv") for cell in row}
    assert {"'" + SUM_CMD, "'" + HYPERLINK, "'@Olga"} <= payments


def test_amounts_and_points_stay_numbers_negative_ones_included(app, client, login_as, hostile):
    login_as("organizer")
    rows = list(csv.DictReader(io.StringIO(client.get(f"/nights/{hostile['night']}/ledger.csv").data.decode())))
    amounts = {row["player"]: row["amount"] for row in rows}
    points = {row["player"]: row["points"] for row in rows}
    # Each member took the box's double and lost a gammon at 2: -4 points, -4.00.
    assert amounts["'" + ONE_PLUS_ONE] == "-4.00" and points["'" + ONE_PLUS_ONE] == "-4"
    assert amounts["'" + HYPERLINK] == "16.00"
    standings = list(csv.DictReader(io.StringIO(
        client.get(f"/seasons/{hostile['season']}/standings.csv").data.decode())))
    assert "-4.00" in {row["result"] for row in standings}


@pytest.mark.parametrize(("cell", "written"), [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1+2", "'-1+2"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\t=1+1", "'\t=1+1"), ("\r=1+1", "'\r=1+1"), ("-", "'-"), ("--1", "'--1"),
    ("-1.50", "-1.50"), ("-3", "-3"), ("0.05", "0.05"), ("Ann", "Ann"), ("", ""),
    ("Ann=1", "Ann=1"), (-150, -150), (4, 4),
])
def test_safe_cell_follows_owasp_and_keeps_plain_numbers(cell, written):
    assert safe_cell(cell) == written
