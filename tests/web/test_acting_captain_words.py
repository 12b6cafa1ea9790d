"""The seats and the ledger say who captained: the acting captain is named as such on the
seats, and the ledger names every captain of a game, not only the last (issue 25 item 10)."""

from __future__ import annotations

from tests.web.test_play_pages import HTMX, Table, sign_in


def test_the_seats_say_acting_captain_after_the_captains_drop(app, client):
    table = Table(app)
    table.seat("ABCD")
    table.play({"type": "double", "by": "box"}, {"type": "drop", "cube": "B"},
               {"type": "take", "cube": "C"}, {"type": "take", "cube": "D"})
    sign_in(client, table.owner)
    html = client.get(f"{table.url}/live", headers=HTMX).get_data(as_text=True)
    seats = html[html.index('id="table-seats-'):]
    row = seats[seats.index('<tr class="seat-captain'):]
    assert "Acting captain" in row[:row.index("</tr>")] and "C" in row[:row.index("</tr>")]


def test_the_seats_say_acting_captain_when_the_box_dropped_the_captains_cube(app, client):
    table = Table(app)
    table.seat("ABCD")
    table.play({"type": "double", "by": "B"}, {"type": "drop", "cube": "B"})
    sign_in(client, table.owner)
    html = client.get(f"{table.url}/live", headers=HTMX).get_data(as_text=True)
    seats = html[html.index('id="table-seats-'):]
    assert "Line 1 · acting captain" in seats


def test_the_ledger_names_every_captain_of_a_game(app, client):
    table = Table(app)
    table.seat("ABCD")
    table.play({"type": "double", "by": "box"}, {"type": "drop", "cube": "B"},
               {"type": "take", "cube": "C"}, {"type": "take", "cube": "D"},
               {"type": "result", "winner": "box", "kind": "single"})
    sign_in(client, table.owner)
    html = client.get(f"/nights/{table.night_id}/ledger").get_data(as_text=True)
    assert "captain: B, then C (acting)" in html
