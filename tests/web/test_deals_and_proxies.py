"""Deals and proxies at the live table (docs/rules.md 2.12, issue 14 items 1 and 2).

The organizer records a deal and a proxy from the table page (page and htmx), refusals come
back with their reason and change nothing, a deal books its money in the ledger at once and
an undo books it back; a proxy answers and doubles for the absent member from their own phone
and the money stays the absent member's; the table, its history and the big screen show both.
"""

from __future__ import annotations

import csv as csv_module
import io
import re

import pytest
from flask import Flask
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import LedgerEntry
from chouette.standings import money
from tests.web.test_phone_decisions import Phones, decision_block
from tests.web.test_play_pages import HTMX, post, sign_in

TIED = {"type": "opening_roll", "box": 3, "team": 3}  # starts the game, cubes in the middle


def took_all(phones: Phones, members: str = "BCD") -> None:
    phones.table.play({"type": "double", "by": "box", "cubes": list(members)},
                      *[{"type": "take", "cube": m} for m in members])


def organizer(app: Flask, phones: Phones):
    client = app.test_client()
    sign_in(client, phones.table.owner)
    return client


def ledger(app: Flask, table_id: int) -> dict[str, int]:
    with app.app_context():
        rows = db.session.execute(select(LedgerEntry.player, func.sum(LedgerEntry.cents))
                                  .where(LedgerEntry.table_id == table_id)
                                  .group_by(LedgerEntry.player))
        return {player: int(cents) for player, cents in rows if cents}


# --------------------------------------------------------------------------- deals


def test_organizer_records_a_deal_in_points_and_the_ledger_books_it_at_once(app):
    phones = Phones(app)
    took_all(phones)
    client = organizer(app, phones)
    response = post(client, phones.table, "deal",
                    {"cube": "C", "winner": "box", "amount": "1,5", "unit": "points"})
    assert response.status_code == 303
    assert phones.table.log()[-1] == {"type": "deal", "cube": "C", "winner": "box", "points": 1.5}
    assert ledger(app, phones.table.id) == {"A": 150, "C": -150}
    html = phones.live("C")
    assert "C: settled: C pays the box 1.5 points" in html
    assert "C settles with the box and pays it 1.5 points" in html


def test_organizer_records_a_deal_in_money_as_htmx(app):
    phones = Phones(app)
    took_all(phones)
    response = post(organizer(app, phones), phones.table, "deal",
                    {"cube": "D", "winner": "member", "amount": "2.50", "unit": "money"}, htmx=True)
    assert response.status_code == 200 and response.headers["HX-Trigger"] == "table-changed"
    assert phones.table.log()[-1] == {"type": "deal", "cube": "D", "winner": "member", "cents": 250}
    assert ledger(app, phones.table.id) == {"A": -250, "D": 250}


def test_captain_deal_from_the_page_carries_the_seat(app):
    phones = Phones(app)
    took_all(phones)
    response = post(organizer(app, phones), phones.table, "deal",
                    {"cube": "B", "winner": "member", "amount": "1", "unit": "points",
                     "seat": "captain"})
    assert response.status_code == 303
    assert phones.table.log()[-1]["seat"] == "captain"
    # Another member's deal ignores the seat field the form always carries.
    post(organizer(app, phones), phones.table, "deal",
         {"cube": "C", "winner": "box", "amount": "1", "unit": "points", "seat": "box"})
    assert "seat" not in phones.table.log()[-1]


@pytest.mark.parametrize(("form", "message"), [
    ({"cube": "C", "winner": "box", "amount": "7", "unit": "points"},
     "C&#39;s cube is at 2: a deal is at most 6 points"),
    ({"cube": "C", "winner": "box", "amount": "-1", "unit": "points"},
     "the agreed amount cannot be negative"),
    ({"cube": "C", "winner": "box", "amount": "lots", "unit": "points"},
     "the agreed points are a number in halves, like 1.5"),
    ({"cube": "C", "winner": "box", "amount": "1.25", "unit": "points"},
     "the agreed points are whole or halves"),
    ({"cube": "C", "winner": "box", "amount": "2,505", "unit": "money"}, "An amount is like 2.50"),
    ({"cube": "C", "winner": "box", "amount": "", "unit": "points"}, "Type the agreed amount."),
    ({"cube": "B", "winner": "box", "amount": "1", "unit": "points"},
     "B is the captain: say who keeps the seat"),
    ({"cube": "A", "winner": "box", "amount": "1", "unit": "points"}, "A plays for the box side"),
    ({"cube": "Zed", "winner": "box", "amount": "1", "unit": "points"}, "Zed is not at this table"),
])
def test_deal_refusals_come_back_with_the_reason_and_change_nothing(app, form, message):
    phones = Phones(app)
    took_all(phones)
    before, rows = phones.table.log(), ledger(app, phones.table.id)
    for htmx in (False, True):
        response = post(organizer(app, phones), phones.table, "deal", form, htmx=htmx)
        assert response.status_code == 422
        assert message in response.get_data(as_text=True)
    assert phones.table.log() == before and ledger(app, phones.table.id) == rows


def test_deal_of_a_dropped_cube_is_refused_with_the_reason(app):
    phones = Phones(app)
    phones.table.play({"type": "double", "by": "box", "cubes": ["C"]}, {"type": "drop", "cube": "C"})
    response = post(organizer(app, phones), phones.table, "deal",
                    {"cube": "C", "winner": "box", "amount": "1", "unit": "points"})
    assert response.status_code == 422
    assert "C&#39;s cube was dropped: it is settled already" in response.get_data(as_text=True)


def test_a_deal_is_the_organizers_not_a_players(app):
    phones = Phones(app)
    took_all(phones)
    before = phones.table.log()
    for name in ("A", "C"):
        response = phones.post(name, "deal", {"cube": "C", "winner": "member", "amount": "6",
                                              "unit": "points"})
        assert response.status_code == 403
    assert phones.table.log() == before


def test_undo_of_a_deal_books_the_money_back(app):
    phones = Phones(app)
    took_all(phones)
    client = organizer(app, phones)
    post(client, phones.table, "deal", {"cube": "C", "winner": "box", "amount": "2", "unit": "points"})
    assert post(client, phones.table, "undo").status_code == 303
    assert ledger(app, phones.table.id) == {}
    assert phones.table.state().game.cubes["C"].is_live


def test_the_history_and_the_big_screen_show_a_deal(app):
    phones = Phones(app)
    took_all(phones)
    phones.table.play({"type": "deal", "cube": "C", "winner": "box", "points": 1.5},
                      {"type": "result", "winner": "box", "kind": "single"})
    html = phones.live("B")
    assert re.search(r'class="deal-line">C: settled: C pays the box 1.5 points', html)
    client = organizer(app, phones)
    phones.table.play(TIED, {"type": "deal", "cube": "D", "winner": "box", "points": 1})
    screen = client.get(f"/display/{phones.table.night_id}").get_data(as_text=True)
    assert "settled" in screen


# --------------------------------------------------------------------------- proxies


def test_organizer_records_a_proxy_and_the_table_and_screen_show_it(app):
    phones = Phones(app)
    phones.table.play(TIED)
    client = organizer(app, phones)
    response = post(client, phones.table, "proxy", {"player": "C", "to": "D"})
    assert response.status_code == 303
    assert phones.table.log()[-1] == {"type": "proxy", "player": "C", "to": "D"}
    html = phones.live("B")
    assert "D decides for C" in html
    assert "C steps away: D decides for C for the rest of the game" in html
    phones.table.play({"type": "double", "by": "box", "cubes": ["C"]})
    screen = client.get(f"/display/{phones.table.night_id}").get_data(as_text=True)
    assert "D decides instead" in screen and "D for C" in screen


def test_proxy_refusal_comes_back_with_the_reason(app):
    phones = Phones(app)
    phones.table.play(TIED)
    before = phones.table.log()
    response = post(organizer(app, phones), phones.table, "proxy", {"player": "B", "to": "D"})
    assert response.status_code == 422
    assert "B is the captain, who plays the board for the team" in response.get_data(as_text=True)
    assert phones.table.log() == before


def test_proxy_answers_the_absent_members_cube_from_their_own_phone(app):
    phones = Phones(app)
    phones.table.play(TIED, {"type": "proxy", "player": "C", "to": "D"},
                      {"type": "double", "by": "box", "cubes": ["C", "D"]})
    block = decision_block(phones.live("D"))
    assert "C&#39;s cube" in block and "A doubles C to 2: you decide for C." in block
    assert "Your cube" in block
    assert decision_block(phones.live("C")) == ""
    phones.refused("C", "answer", {"cube": "C", "answer": "drop"})
    phones.made("D", "answer", {"cube": "C", "answer": "drop"}, {"type": "drop", "cube": "C"})
    # The money stays the absent member's.
    assert ledger(app, phones.table.id) == {"A": 100, "C": -100}


def test_proxy_doubles_for_the_absent_member_from_their_own_phone(app):
    phones = Phones(app)
    phones.table.play(TIED, {"type": "proxy", "player": "C", "to": "D"})
    html = phones.live("D")
    assert re.search(r'name="by" value="C">\s*<button type="submit" class="secondary">Double', html)
    phones.refused("C", "double", {"by": "C"})
    phones.made("D", "double", {"by": "C"}, {"type": "double", "by": "C"})


def test_proxy_ends_with_the_game_the_member_decides_again(app):
    phones = Phones(app)
    phones.table.play(TIED, {"type": "proxy", "player": "C", "to": "D"},
                      {"type": "result", "winner": "team", "kind": "single"},
                      TIED, {"type": "double", "by": "box", "cubes": ["C"]})
    phones.refused("D", "answer", {"cube": "C", "answer": "take"})
    phones.made("C", "answer", {"cube": "C", "answer": "take"}, {"type": "take", "cube": "C"})


def test_money_of_a_proxied_game_is_the_absent_members(app):
    phones = Phones(app)
    phones.table.play(TIED, {"type": "proxy", "player": "C", "to": "D"},
                      {"type": "double", "by": "box", "cubes": ["C"]})
    phones.made("D", "answer", {"cube": "C", "answer": "take"}, {"type": "take", "cube": "C"})
    phones.table.play({"type": "result", "winner": "team", "kind": "gammon"})
    _points, cents = money(phones.table.state())
    assert cents == {"A": -800, "B": 200, "C": 400, "D": 200}
    assert ledger(app, phones.table.id) == {"A": -800, "B": 200, "C": 400, "D": 200}


def test_proxy_form_shows_for_the_organizer_only(app):
    phones = Phones(app)
    phones.table.play(TIED)
    assert f'action="/tables/{phones.table.id}/proxy"' not in phones.live("C")
    html = organizer(app, phones).get(f"{phones.table.url}/live", headers=HTMX).get_data(as_text=True)
    assert f'action="/tables/{phones.table.id}/proxy"' in html
    assert f'action="/tables/{phones.table.id}/deal"' in html




# --------------------------------------------------------------------------- the sheet, the player


def test_score_sheet_and_its_csv_show_the_deal_and_the_proxy(app):
    phones = Phones(app)
    phones.table.play(TIED, {"type": "proxy", "player": "C", "to": "D"},
                      {"type": "deal", "cube": "B", "winner": "member", "points": 1.5,
                       "seat": "captain"},
                      {"type": "result", "winner": "box", "kind": "single"})
    client = organizer(app, phones)
    night = phones.table.night_id
    sheet = client.get(f"/nights/{night}/score-sheet").get_data(as_text=True)
    assert "B: settled: the box pays B 1.5 points; B takes the box" in sheet
    assert "D decides for C" in sheet
    csv = client.get(f"/nights/{night}/score-sheet.csv").get_data(as_text=True)
    header, row = list(csv_module.reader(io.StringIO(csv)))[:2]
    assert row[header.index("deals and proxies")] == ("B: settled: the box pays B 1.5 points; "
                                                      "B takes the box | D decides for C")


def test_player_page_shows_the_deals_money_in_its_game(app):
    phones = Phones(app)
    took_all(phones)
    phones.table.play({"type": "deal", "cube": "C", "winner": "box", "points": 1.5})
    client = organizer(app, phones)
    page = client.get("/players/C").get_data(as_text=True)
    assert '<span class="stat-value down">-€1.50</span>' in page
    assert "game 1: -€1.50 (balance -€1.50)" in page
