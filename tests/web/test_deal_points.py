"""A deal's points count wherever points are shown (issue 25 item 6, docs/rules.md 2.12): the ledger's
lines and totals, the player pages, the score sheet and both CSVs say the agreed 1.5 points
(not +0), exactly (a fraction, never a float), and points x stake is the money on every
line; the sentences say "1 point" and "2 points" (Italian "1 punto", "2 punti")."""

from __future__ import annotations

import csv
import html
import io
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from flask import Flask
from flask_babel import refresh
from sqlalchemy import select

from chouette.extensions import db
from chouette.models import LedgerEntry
from chouette.point_words import points_text, points_words
from chouette.services import exports, players
from tests.web.test_play_pages import Table, sign_in

STAKE = 250  # 2.50 a point: 1.5 points are 3.75


@pytest.fixture
def night(app: Flask) -> Table:
    """A (box), B captain, C and D: the box doubles all, all take; C settles for 1.5 points
    that the box pays them; the box wins a single against B and D (2 each at the cube of 2).
    A +2.5, B -2, C +1.5, D -2 points; at 2.50: +6.25, -5.00, +3.75, -5.00."""
    table = Table(app, {"stake_cents": STAKE})
    table.seat("ABCD")
    table.play({"type": "double", "by": "box", "cubes": ["B", "C", "D"]},
               *[{"type": "take", "cube": m} for m in "BCD"],
               {"type": "deal", "cube": "C", "winner": "member", "points": 1.5},
               {"type": "result", "winner": "box", "kind": "single"})
    return table


POINTS = {"A": Fraction(5, 2), "B": -2, "C": Fraction(3, 2), "D": -2}
CENTS = {"A": 625, "B": -500, "C": 375, "D": -500}


def test_the_ledger_rows_keep_the_deals_points_exactly(app, night):
    with app.app_context():
        rows = db.session.scalars(select(LedgerEntry).where(LedgerEntry.table_id == night.id)).all()
        per_player: dict[str, Fraction] = {}
        for row in rows:
            exact = row.points + Fraction(row.points_fraction or 0)
            assert exact * STAKE == row.cents, row  # points x stake == money on every row
            per_player[row.player] = per_player.get(row.player, Fraction(0)) + exact
    assert per_player == POINTS


def _unescaped(client, url: str) -> str:
    return html.unescape(client.get(url).get_data(as_text=True))


def test_the_ledger_page_shows_the_deals_points_on_each_line(app, client, night):
    sign_in(client, night.owner)
    page = _unescaped(client, f"/nights/{night.night_id}/ledger")
    expected = {"A": ("+2.5", "+€6.25"), "B": ("-2", "-€5.00"), "C": ("+1.5", "+€3.75"),
                "D": ("-2", "-€5.00")}
    # Each player's night (points, money; a guest marked), then that player's game line:
    # the same (no "+0 €3.75").
    totals = re.findall(r'<span class="name">(\w)(?: <span class="badge guest-badge"[^>]*>guest</span>)?'
                        r'</span>\s*<span class="num">([^<]*)</span>\s*'
                        r'<span class="num"><span class="amount[^"]*">([^<]*)</span>', page)
    assert {player: (points, money) for player, points, money in totals} == expected
    lines = re.findall(r'data-player="(\w)".*?<td class="num">([^<]*)</td>\s*'
                       r'<td class="num"><span class="amount[^"]*">([^<]*)</span>', page, re.S)
    assert {player: (points, money) for player, points, money in lines} == expected
    for points, money in expected.values():  # points x stake == money
        assert Decimal(points) * STAKE / 100 == Decimal(money.replace("€", ""))
    assert "+0" not in page


def test_the_ledger_csv_counts_the_deals_points(app, client, night):
    sign_in(client, night.owner)
    text = client.get(f"/nights/{night.night_id}/ledger.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {row["player"]: row["points"] for row in rows} == {
        "A": "2.5", "B": "-2", "C": "1.5", "D": "-2"}
    for row in rows:  # points x stake == money on every line
        assert Decimal(row["points"]) * STAKE / 100 == Decimal(row["amount"]), row


def test_the_score_sheet_and_its_csv_count_the_deals_points(app, client, night):
    sign_in(client, night.owner)
    sheet = _unescaped(client, f"/nights/{night.night_id}/score-sheet")
    foot = sheet[sheet.index("<tfoot>"):sheet.index("</tfoot>")]
    assert re.findall(r"<strong>([^<]*)</strong>", foot) == ["+2.5", "-2", "+1.5", "-2"]
    assert "C: settled: the box pays C 1.5 points" in sheet
    text = client.get(f"/nights/{night.night_id}/score-sheet.csv").get_data(as_text=True)
    row = next(csv.DictReader(io.StringIO(text)))
    assert {p: row[p] for p in "ABCD"} == {"A": "2.5", "B": "-2", "C": "1.5", "D": "-2"}


def test_the_player_statistics_count_the_deals_points(app, client, night):
    sign_in(client, night.owner)
    for player, points in POINTS.items():
        page = _unescaped(client, f"/players/{player}")
        shown = points_text(points)
        # The lifetime total, the night's line and the game's line.
        assert re.search(rf'<span class="stat-label">Points</span><span class="stat-value[^"]*">'
                         rf'{re.escape(shown)}</span>', page), player
        assert len(re.findall(rf'<td class="num[^"]*">{re.escape(shown)}</td>', page)) >= 2, player
        assert Fraction(points) * STAKE == CENTS[player]


def test_a_partners_share_of_a_deal_is_a_fraction_and_money_follows_it(app, client):
    """With a partner at 50%, 1.5 points the box side wins are 0.75 each (75 cents at 1.00)."""
    table = Table(app, {"partner_min_players": 4})
    table.play(*[{"type": "join", "player": n} for n in "ABCD"],
               {"type": "order", "players": list("ABCD")},
               {"type": "partner", "player": "B", "accept": True})
    table.play({"type": "double", "by": "box", "cubes": ["C", "D"]},
               *[{"type": "take", "cube": m} for m in "CD"],
               {"type": "deal", "cube": "D", "winner": "box", "points": 1.5})
    with app.app_context():
        rows = db.session.scalars(select(LedgerEntry).where(LedgerEntry.table_id == table.id)).all()
        exact = {row.player: row.points + Fraction(row.points_fraction or 0) for row in rows}
        assert exact == {"A": Fraction(3, 4), "B": Fraction(3, 4), "D": Fraction(-3, 2)}
        assert all((row.points + Fraction(row.points_fraction or 0)) * 100 == row.cents
                   for row in rows)
    sign_in(client, table.owner)
    sheet = _unescaped(client, f"/nights/{table.night_id}/score-sheet")
    assert "Partner's share: +0.75" in sheet


def test_points_in_words_singular_and_plural(app):
    with app.test_request_context():
        assert [points_words(p) for p in (1, 2, Fraction(3, 2), Fraction(1, 2), "1,5", 1.0)] == [
            "1 point", "2 points", "1.5 points", "0.5 points", "1.5 points", "1 point"]
    with app.test_request_context(headers={"Accept-Language": "it"}):
        refresh()
        assert [points_words(p) for p in (1, 2, Fraction(3, 2))] == [
            "1 punto", "2 punti", "1.5 punti"]


def test_a_one_point_deal_says_one_point_on_the_pages(app, client):
    table = Table(app)
    table.seat("ABCD")
    table.play({"type": "double", "by": "box", "cubes": ["B", "C", "D"]},
               *[{"type": "take", "cube": m} for m in "BCD"],
               {"type": "deal", "cube": "C", "winner": "box", "points": 1},
               {"type": "deal", "cube": "D", "winner": "box", "points": 2})
    sign_in(client, table.owner)
    page = _unescaped(client, table.url)
    assert "settled: C pays the box 1 point;" in page or "settled: C pays the box 1 point<" in page
    assert "pays the box 1 points" not in page
    assert "pays the box 2 points" in page
    sheet = _unescaped(client, f"/nights/{table.night_id}/score-sheet")
    assert "C: settled: C pays the box 1 point" in sheet and "1 points" not in sheet


def test_rows_a_deal_wrote_before_its_points_counted_raise_no_warning(app, client, night):
    """An older database's deal rows hold the cents and no points: the money matches the
    logs, so the ledger page gives no warning (the check is on the money)."""
    with app.app_context():
        for row in db.session.scalars(select(LedgerEntry).where(
                LedgerEntry.table_id == night.id, LedgerEntry.points_fraction.is_not(None))):
            db.session.execute(LedgerEntry.__table__.update().where(LedgerEntry.id == row.id)
                               .values(points=0, points_fraction=None))
        db.session.commit()
    sign_in(client, night.owner)
    page = client.get(f"/nights/{night.night_id}/ledger").get_data(as_text=True)
    assert "ledger-warning" not in page and "+€3.75" in page


def test_a_won_or_lost_deal_counts_in_the_seats_won_and_lost(app, night):
    """C settled for 1.5 points the box paid them: a game they won as a member; the box won
    2 + 2 - 1.5 (a win), B and D lost."""
    with app.app_context():
        history = {name: players.player_history(name) for name in "ABCD"}
    assert (history["C"].roles["member"].won, history["C"].roles["member"].lost) == (1, 0)
    assert history["C"].points == Fraction(3, 2)
    assert history["A"].roles["box"].won == 1 and history["A"].points == Fraction(5, 2)
    assert history["B"].roles["captain"].lost == 1 and history["D"].roles["member"].lost == 1


def test_an_exported_night_imports_with_the_deals_points(app, night):
    """The import writes the ledger rows again from the log: the fractions come back too."""
    with app.app_context():
        export = exports.to_json(exports.night_export(night.night_id))
        totals = exports.night_ledger_totals(night.night_id)
        imported = exports.import_night(exports.read_night_export(export.encode()), None)
        assert exports.night_ledger_totals(imported.id) == totals
    assert {player: points for player, (points, _cents) in totals.items()} == POINTS
