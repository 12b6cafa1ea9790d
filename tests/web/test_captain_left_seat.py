"""The live page and the big screen while a captain who dropped and left waits for the others'
answers: the captain's seat says it waits, and no stand-in is shown (rules 2.4, 2.5)."""

from __future__ import annotations

import re

from chouette.services import table_states
from tests.factories import gen_member
from tests.web.test_display import new_table, play, seat

WAITING = "Waiting for the answers to the box's double"


def _captain_left(table_id, organizer):
    seat(table_id, organizer, ["Ann", "Bob", "Cy", "Dee", "Eve"])
    play(table_id, organizer, {"type": "double", "by": "box"}, {"type": "drop", "cube": "Bob"},
         {"type": "leave", "player": "Bob"}, {"type": "take", "cube": "Cy"})


def _captain_row(html: str) -> str:
    return re.search(r'<tr class="seat-captain[^"]*"[^>]*>.*?</tr>', html, re.S).group(0)


def test_live_page_and_screen_show_the_captain_seat_waiting(app, client, login_as, night_id):
    organizer = login_as("organizer")
    table_id = new_table(app, night_id, "Window", _captain_left, organizer)
    live = client.get(f"/tables/{table_id}/live").get_data(as_text=True)
    screen = client.get("/display").get_data(as_text=True)
    for html in (live, screen):
        row = _captain_row(html)
        assert WAITING in row
        assert "Cy" not in row and "Bob" not in row  # no stand-in, and not the leaver
    # Once the answers are in, the best-placed live member is captain, on both.
    with app.app_context():
        play(table_id, organizer, {"type": "drop", "cube": "Dee"}, {"type": "take", "cube": "Eve"})
        assert table_states.load_play(table_id).state.captain == "Cy"
    for html in (client.get(f"/tables/{table_id}/live").get_data(as_text=True),
                 client.get("/display").get_data(as_text=True)):
        assert WAITING not in html
        assert "Cy" in _captain_row(html)


def test_captain_seat_waits_for_a_member_as_well(app, client, login_as, night_id):
    login_as("player")
    with app.app_context():
        organizer = gen_member("organizer")
    table_id = new_table(app, night_id, "Window", _captain_left, organizer)
    html = client.get(f"/tables/{table_id}/live").get_data(as_text=True)
    assert WAITING in _captain_row(html)
