"""One big screen per room: ``/display?tables=3,5`` shows those tables of the night (by their
number on the screen), its fetches, its ETag and its push stream keep to them; a bad choice is
refused with a clear message; a table where nobody is seated is one line at the screen's foot."""

from __future__ import annotations

import re

from chouette.services import display
from tests.serving.test_pushed_drawings import Events, parts_of, tables_of
from tests.web.test_display import etag_of, new_table, play, seat
from tests.web.test_play_pages import HTMX


def shown(html: str) -> list[str]:
    """The tables drawn in a fragment, by name, in order."""
    return re.findall(r'<article id="display-table-\d+"[^>]*>\s*(?:<header[^>]*>\s*<div[^>]*>\s*)?<h2>([^<]*)</h2>', html)


def three_tables(app, organizer, night_id) -> list[int]:
    return [new_table(app, night_id, name, seat, organizer, names)
            for name, names in (("Red", ["Ann", "Bob", "Cy"]), ("Green", ["Dee", "Eve", "Fay"]),
                                ("Blue", ["Gus", "Hal", "Ivy"]))]


def test_a_screen_shows_the_tables_chosen_by_their_number(app, client, htmx, organizer, night_id):
    three_tables(app, organizer, night_id)
    assert shown(client.get("/display", headers=htmx).get_data(as_text=True)) == ["Red", "Green", "Blue"]
    for query in ("?tables=1,3", "?tables=3,1", "?tables=1&tables=3", "?tables=1,,3,1", "?tables=%201%20,3"):
        html = client.get(f"/display{query}", headers=htmx).get_data(as_text=True)
        assert shown(html) == ["Red", "Blue"], query
    assert shown(client.get("/display?tables=2", headers=htmx).get_data(as_text=True)) == ["Green"]
    # A number without a table yet (it may be opened later) shows nothing of it.
    assert shown(client.get("/display?tables=2,7", headers=htmx).get_data(as_text=True)) == ["Green"]
    assert shown(client.get(f"/display/{night_id}?tables=3", headers=htmx).get_data(as_text=True)) == ["Blue"]
    # The whole page fetches and streams with its choice, so that the TV can be bookmarked.
    page = client.get("/display?tables=3,1").get_data(as_text=True)
    assert 'hx-get="/display?tables=1,3"' in page.replace("%2C", ",")
    assert 'sse-connect="/display/stream?tables=1,3"' in page.replace("%2C", ",")
    assert shown(page) == ["Red", "Blue"]
    # The chooser lists every table, the chosen ones ticked.
    assert re.search(r'value="1" checked> 1 · Red', page) and re.search(r'value="2"> 2 · Green', page)


def test_each_choice_has_its_own_etag_and_drawing(app, client, htmx, organizer, night_id):
    three_tables(app, organizer, night_id)
    every = client.get("/display", headers=htmx)
    one = client.get("/display?tables=1", headers=htmx)
    assert etag_of(every) != etag_of(one) and every.get_data() != one.get_data()
    again = client.get("/display?tables=1", headers={**htmx, "If-None-Match": etag_of(one)})
    assert again.status_code == 304
    # The shared drawing of one choice is never served for another.
    two = client.get("/display?tables=2", headers=htmx).get_data(as_text=True)
    assert shown(two) == ["Green"]


def test_a_bad_choice_is_refused_with_a_clear_message(app, client, htmx, organizer, night_id):
    three_tables(app, organizer, night_id)
    for bad in ("abc", "1,x", "0", "-1", "100", "1.5", "²"):
        answer = client.get(f"/display?tables={bad}")
        assert answer.status_code == 400, bad
        text = answer.get_data(as_text=True)
        assert "Tables are chosen by their number on the screen, from 1 to 99" in text, bad
        assert "display-table" not in text
    assert client.get("/display/stream?tables=x").status_code == 400
    italian = client.get("/display?tables=x", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "I tavoli si scelgono con il loro numero sullo schermo" in italian
    # An empty choice is every table.
    assert shown(client.get("/display?tables=", headers=htmx).get_data(as_text=True)) == ["Red", "Green", "Blue"]


def test_a_screens_stream_keeps_to_its_tables(app, organizer, night_id):
    app.config.update(PUSH_KEEPALIVE_SECONDS=0.2, PUSH_STREAM_SECONDS=120.0, PUSH_FRAGMENTS=True)
    red, green, _blue = three_tables(app, organizer, night_id)
    screen = app.test_client()
    events = Events(screen, "/display/stream?tables=1")
    try:
        events.next()  # the version on opening
        with app.app_context():
            play(red, organizer, {"type": "double", "by": "box", "cubes": ["Bob"]})
        kind, data = events.next()
        fetched = screen.get("/display?tables=1", headers=HTMX).get_data(as_text=True)
        assert kind == "fragment" and data == fetched and shown(data) == ["Red"]
        # Another room's table moves: the version moves, nothing of that table is sent.
        with app.app_context():
            play(green, organizer, {"type": "double", "by": "box", "cubes": ["Eve"]})
        kind, data = events.next()
        version, _base, parts = parts_of(data)
        assert kind == "parts" and parts == ""
        with app.app_context():
            assert version == display.display_version(None)
        # Its own table moves: that table is sent, as a fetch draws it.
        with app.app_context():
            play(red, organizer, {"type": "take", "cube": "Bob"})
        kind, data = events.next()
        version, _base, parts = parts_of(data)
        fetched = screen.get("/display?tables=1", headers=HTMX).get_data(as_text=True)
        assert kind == "parts" and f'data-version="{version}"' in fetched
        assert tables_of(parts) == {f"display-table-{red}": tables_of(fetched)[f"display-table-{red}"]}
    finally:
        events.close()


def test_a_table_where_everyone_left_is_one_line_at_the_foot(app, client, htmx, organizer, night_id):
    playing = new_table(app, night_id, "Playing", seat, organizer, ["Ann", "Bob", "Cy"])
    emptied = new_table(app, night_id, "Emptied", seat, organizer, ["Dee", "Eve", "Fay"])
    with app.app_context():
        play(emptied, organizer, {"type": "double", "by": "box", "cubes": ["Eve"]},
             {"type": "take", "cube": "Eve"}, {"type": "result", "winner": "box", "kind": "single"},
             *({"type": "leave", "player": name} for name in ("Dee", "Eve", "Fay")))
    html = client.get("/display", headers=htmx).get_data(as_text=True)
    assert 'class="display-board tables-1 with-empty"' in html
    idle = re.search(r'<div class="display-idle">(.*?)</div>\s*<details', html, re.S).group(1)
    assert f'id="display-table-{emptied}" class="display-table is-empty"' in idle
    assert f'display-table-{playing}' not in idle
    assert "Waiting for players" in idle and "about to start" not in idle
    assert "Left the table:" in idle and "Dee +€3.00" in idle and "Eve -€2.00" in idle
    assert "<table" not in idle  # no seats, no cube column: one line
    # Someone sits down again: the table is back in the grid.
    with app.app_context():
        play(emptied, organizer, {"type": "join", "player": "Gus"})
    html = client.get("/display", headers=htmx).get_data(as_text=True)
    assert "display-idle" not in html and 'tables-2' in html


def test_the_page_has_a_main_landmark_and_a_heading(app, client, night_id):
    html = client.get("/display").get_data(as_text=True)
    assert html.count("<main") == 1 and html.count("</main>") == 1
    assert re.search(r'<h1 class="sr-only">Big screen · Chouette club</h1>', html)
    assert html.index("<main") < html.index('id="display-board"') < html.index("</main>")
    assert html.index("<main") < html.index('class="display-offline"') < html.index("</main>")
