"""The big screen ``/display``: public and read-only, every open table, 304 while nothing changed."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any

from flask import Flask

from chouette import caches
from chouette.extensions import db
from chouette.models import Member
from chouette.services import commands, night_rows, nights, table_states, tables
from chouette.table.actions import board_events
from tests.factories import gen_night, gen_table
from tests.serving.test_database import sqlite_only

EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fred", "Gus", "Hal"]
#: The mark after a guest's name (most players of these tests are no members).
GUEST_MARK = r'(?: <small class="dt-guest">[^<]*</small>)?'


def play(table_id: int, organizer: Member, *events: Mapping[str, Any]) -> table_states.TablePlay:
    """Make each command at the table's current seq, as the live table page would."""
    played = None
    for event in events:
        played = commands.play(table_id, tables.last_seq(table_id), event, organizer)
    assert played is not None
    return played


def seat(table_id: int, organizer: Member, names: Iterable[str]) -> table_states.TablePlay:
    """Join ``names`` and record the order as given (the first is the box)."""
    names = list(names)
    return play(table_id, organizer, *({"type": "join", "player": n} for n in names),
                {"type": "order", "players": names})


def settle_partner(table_id: int, organizer: Member) -> None:
    """Offer the partnership until someone accepts (8 players and more have a partner)."""
    state = table_states.load_play(table_id).state
    if state.needs_partner():
        play(table_id, organizer, {"type": "partner", "player": state.next_partner_offer(),
                                   "accept": True})


def busy_table(table_id: int, organizer: Member, names: list[str], games: int) -> None:
    """A table of ``names`` that has played ``games`` games with doubles, takes and drops; in
    the game in progress the captain took, the third of the line dropped, and the second of
    the line doubled the box, who has not answered yet."""
    seat(table_id, organizer, names)
    for number in range(games):
        settle_partner(table_id, organizer)
        state = table_states.load_play(table_id).state
        play(table_id, organizer,
             {"type": "double", "by": "box", "cubes": [state.captain, state.line[0]]},
             {"type": "take", "cube": state.captain}, {"type": "drop", "cube": state.line[0]},
             {"type": "result", "winner": "team" if number % 2 else "box", "kind": "single"})
    settle_partner(table_id, organizer)
    state = table_states.load_play(table_id).state
    play(table_id, organizer,
         {"type": "double", "by": "box", "cubes": [state.captain, state.line[2]]},
         {"type": "take", "cube": state.captain}, {"type": "drop", "cube": state.line[2]},
         {"type": "double", "by": state.line[1]})


def board_table(table_id: int, organizer: Member, names: list[str], seed: int = 5) -> None:
    """A table whose game is played on the app's board: a few turns, rolls and moves."""
    import random

    seat(table_id, organizer, names)
    settle_partner(table_id, organizer)
    rng = random.Random(seed)
    for _turn in range(3):
        state = table_states.load_play(table_id).state
        play(table_id, organizer, *board_events(state, rng.choice, lambda: rng.randint(1, 6)))


def new_table(app: Flask, night_id: int, name: str, build=None, *args: Any) -> int:
    """A table of the night, built by ``build(table_id, organizer, *args)``; no transaction is
    left open (the test client's requests need the SQLite write lock)."""
    with app.app_context():
        table_id = gen_table(night_rows.get_night(night_id), name=name).id
        if build is not None:
            build(table_id, *args)
        db.session.commit()
    return table_id


def etag_of(response) -> str:
    return response.headers["ETag"]


# --- the page and its fragment -------------------------------------------------------


def test_display_is_public_and_shows_every_open_table(app, client, organizer, night_id):
    new_table(app, night_id, "Table one", seat, organizer, ["Ann", "Bob", "Cy", "Dee"])
    new_table(app, night_id, "Table two", seat, organizer, ["Eve", "Fred", "Gus"])
    response = client.get("/display")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert html.startswith("<!doctype html>") and 'data-theme="dark"' in html
    assert html.count('class="display-table') == 2
    assert "Table one" in html and "Table two" in html
    assert 'id="display-board"' in html and 'sse-connect="/display/stream"' in html
    assert 'hx-get="/display"' in html and 'data-poll-seconds="2"' in html
    assert response.headers["Vary"] and "HX-Request" in response.headers["Vary"]


def test_htmx_gets_the_polled_fragment_alone(app, client, htmx, organizer, night_id):
    new_table(app, night_id, "Table one", seat, organizer, ["Ann", "Bob", "Cy", "Dee"])
    response = client.get("/display", headers=htmx)
    assert response.status_code == 200
    html = response.get_data(as_text=True).strip()
    assert html.startswith('<section id="display-board"') and html.endswith("</section>")
    assert "<html" not in html and "Table one" in html
    assert "sse-connect" not in html  # the stream is the page's, never swapped away
    with app.app_context():
        from chouette.services import display as display_service

        assert f'data-version="{display_service.display_version(None)}"' in html


def test_display_is_read_only(app, client, night_id):
    assert client.post("/display").status_code == 405
    assert client.post(f"/display/{night_id}").status_code == 405


def test_without_an_open_night_the_screen_says_no_table_is_playing(app, client, htmx):
    response = client.get("/display", headers=htmx)
    assert response.status_code == 200
    assert "No table is playing right now." in response.get_data(as_text=True)


# --- 304 while nothing changed ----------------------------------------------------------


def test_unchanged_display_answers_304_with_the_same_etag(app, client, htmx, organizer, night_id):
    new_table(app, night_id, "Table one", busy_table, organizer, EIGHT, 2)
    first = client.get("/display", headers=htmx)
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache"
    again = client.get("/display", headers={**htmx, "If-None-Match": etag_of(first)})
    assert again.status_code == 304
    assert again.data == b""
    assert etag_of(again) == etag_of(first)


def test_a_command_changes_the_etag_and_the_screen(app, client, htmx, organizer, night_id):
    table_id = new_table(app, night_id, "Table one", seat, organizer, ["Ann", "Bob", "Cy", "Dee"])
    first = client.get("/display", headers=htmx)
    assert "to answer" not in first.get_data(as_text=True)
    with app.app_context():
        play(table_id, organizer, {"type": "double", "by": "box", "cubes": ["Cy"]})
    changed = client.get("/display", headers={**htmx, "If-None-Match": etag_of(first)})
    assert changed.status_code == 200
    assert etag_of(changed) != etag_of(first)
    html = changed.get_data(as_text=True)
    assert re.search(r'class="cube owner-middle status-live offered to-answer-member".*?<b class="cube-face">1</b>'
                     r'.*?<b class="cube-face cube-offer">2</b>', html, re.DOTALL)
    assert "to answer" in html
    assert client.get("/display", headers={**htmx, "If-None-Match": etag_of(changed)}).status_code == 304


def test_an_undo_changes_the_etag_too(app, client, htmx, organizer, night_id):
    table_id = new_table(app, night_id, "Table one", seat, organizer, ["Ann", "Bob", "Cy", "Dee"])
    with app.app_context():
        play(table_id, organizer, {"type": "double", "by": "box", "cubes": ["Cy"]})
    offered = client.get("/display", headers=htmx)
    with app.app_context():
        play(table_id, organizer, {"type": "undo"})
    undone = client.get("/display", headers={**htmx, "If-None-Match": etag_of(offered)})
    assert undone.status_code == 200 and "to answer" not in undone.get_data(as_text=True)


def test_a_new_table_changes_the_etag(app, client, htmx, night_id):
    first = client.get("/display", headers=htmx)
    new_table(app, night_id, "Late table")
    changed = client.get("/display", headers={**htmx, "If-None-Match": etag_of(first)})
    assert changed.status_code == 200 and "Late table" in changed.get_data(as_text=True)


def test_page_and_fragment_have_different_etags(app, client, htmx, night_id):
    new_table(app, night_id, "Table one")
    page = client.get("/display")
    fragment = client.get("/display", headers={**htmx, "If-None-Match": etag_of(page)})
    assert fragment.status_code == 200 and etag_of(fragment) != etag_of(page)


@sqlite_only  # SQLite's write lock: deselected in the PostgreSQL run
def test_a_poll_answers_while_a_writer_holds_the_lock(app, client, htmx, night_id):
    new_table(app, night_id, "Table one")
    first = client.get("/display", headers=htmx)
    writer = sqlite3.connect(app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///"),
                             timeout=0.1, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        polled = client.get("/display", headers={**htmx, "If-None-Match": etag_of(first)})
        assert polled.status_code == 304
    finally:
        writer.execute("ROLLBACK")
        writer.close()


# --- what the screen shows ------------------------------------------------------------


def test_seats_are_listed_in_rotation_order_with_the_next_up_marked(app, client, htmx, organizer,
                                                                    night_id):
    table_id = new_table(app, night_id, "Table one", busy_table, organizer, EIGHT, 3)
    with app.app_context():
        state = table_states.load_play(table_id).state
        order = [state.box, state.partner, state.captain, *state.line]
        db.session.commit()
    html = client.get("/display", headers=htmx).get_data(as_text=True)
    shown = re.findall(r'<td class="dt-name"><span>([^<]+)</span>', html)
    assert shown == order and len(shown) == 8
    rows = re.findall(r'<tr class="([^"]+)">', html)
    assert rows[:4] == ["seat-box", "seat-partner", "seat-captain", "seat-line is-next"]
    assert [row.split()[0] for row in rows[4:]] == ["seat-line"] * 4
    assert rows[5] == "seat-line is-out"  # the third of the line dropped their cube
    assert re.search(r'class="seat-line is-next">\s*<th scope="row" class="dt-seat">'
                     r'<span class="seat-tag">Next</span>', html)


def test_cubes_show_value_owner_drops_and_offers(app, client, htmx, organizer, night_id):
    table_id = new_table(app, night_id, "Table one", seat, organizer, ["Ann", "Bob", "Cy", "Dee"])
    with app.app_context():
        play(table_id, organizer, {"type": "double", "by": "box", "cubes": ["Bob", "Cy"]},
             {"type": "take", "cube": "Bob"}, {"type": "drop", "cube": "Cy"},
             {"type": "double", "by": "Dee"})
    html = client.get("/display", headers=htmx).get_data(as_text=True)

    def cell(name: str) -> str:
        return re.search(rf'<span>{name}</span>{GUEST_MARK}</td>\s*<td class="dt-cube">(.*?)</td>', html, re.DOTALL).group(1)

    assert 'owner-member status-live' in cell("Bob") and '<b class="cube-face">2</b>' in cell("Bob")
    assert "owns" in cell("Bob")
    assert "status-dropped" in cell("Cy") and "dropped" in cell("Cy")
    assert "offered" in cell("Dee") and "box to answer" in cell("Dee")
    assert cell("Ann").strip() == ""  # the box has no cube of their own


def test_running_scores_show_points_and_money_in_the_nights_currency(app, client, htmx, organizer):
    with app.app_context():
        night_id = gen_night(currency="USD").id
    table_id = new_table(app, night_id, "Table one", seat, organizer, ["Ann", "Bob", "Cy"])
    with app.app_context():
        play(table_id, organizer, {"type": "result", "winner": "team", "kind": "gammon"})
    html = client.get("/display", headers={**htmx, "Accept-Language": "en"}).get_data(as_text=True)

    def scores(name: str) -> tuple[str, str]:
        found = re.search(rf'<span>{name}</span>{GUEST_MARK}</td>.*?<td class="dt-points[^"]*">([^<]+)</td>'
                          rf'\s*<td class="dt-money[^"]*">([^<]+)</td>', html, re.DOTALL)
        return found.group(1), found.group(2)

    assert scores("Ann") == ("\u22124", "-$4.00")
    assert scores("Bob") == ("+2", "+$2.00")
    assert scores("Cy") == ("+2", "+$2.00")
    assert ">USD</th>" in html


def test_players_who_left_keep_their_result_on_the_screen(app, client, htmx, organizer, night_id):
    table_id = new_table(app, night_id, "Table one", seat, organizer, ["Ann", "Bob", "Cy", "Dee"])
    with app.app_context():
        play(table_id, organizer, {"type": "result", "winner": "box", "kind": "single"},
             {"type": "leave", "player": "Bob"})
    html = client.get("/display", headers=htmx).get_data(as_text=True)
    assert "<span>Bob</span>" not in html
    assert re.search(rf'Left the table:\s*<span>Bob{GUEST_MARK} -€1.00</span>', html)


def test_player_names_are_escaped(app, client, htmx, organizer, night_id):
    evil = "<script>alert(1)</script>"
    new_table(app, night_id, "<b>Table</b>", seat, organizer, [evil, "Bob", "Cy"])
    for headers in ({}, htmx):
        html = client.get("/display", headers=headers).get_data(as_text=True)
        assert evil not in html and "<b>Table</b>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "&lt;b&gt;Table&lt;/b&gt;" in html


def test_board_mode_shows_the_board_and_scoresheet_mode_does_not(app, client, htmx, organizer,
                                                                 night_id):
    board_id = new_table(app, night_id, "On the board", board_table, organizer, ["Ann", "Bob", "Cy"])
    sheet_id = new_table(app, night_id, "On paper", seat, organizer, ["Dee", "Eve", "Fred"])
    html = client.get("/display", headers=htmx).get_data(as_text=True)
    board = re.search(rf'id="display-table-{board_id}".*?</article>', html, re.DOTALL).group(0)
    sheet = re.search(rf'id="display-table-{sheet_id}".*?</article>', html, re.DOTALL).group(0)
    assert re.search(r"<svg [^>]*class=\"board ", board) and "with-board" in board
    assert 'aria-label="Board:' in board and "Ann (box)" in board
    assert "<svg" in sheet and not re.search(r"<svg [^>]*class=\"board ", sheet)  # a QR code only


def test_each_table_has_a_qr_code_that_opens_its_page(app, client, htmx, night_id):
    table_id = new_table(app, night_id, "Table one")
    html = client.get("/display", headers=htmx).get_data(as_text=True)
    assert f'href="http://localhost/tables/{table_id}"' in html
    assert 'class="qr"' in html


def test_several_tables_each_get_a_cell_and_the_grid_follows_the_count(app, client, htmx, organizer,
                                                                      night_id):
    for number in range(1, 6):
        new_table(app, night_id, f"Table {number}", seat, organizer, [f"P{number}{c}" for c in "ABC"])
    html = client.get("/display", headers=htmx).get_data(as_text=True)
    assert "display-board tables-5" in html
    assert [f"Table {n}" for n in range(1, 6)] == re.findall(r"<h2>([^<]+)</h2>", html)


# --- closed nights, one night ---------------------------------------------------------


def test_closed_nights_are_not_shown(app, client, htmx, organizer, night_id):
    new_table(app, night_id, "Still playing")
    with app.app_context():
        closed = gen_night(name="Last week", closed_at=dt.datetime(2026, 11, 14, 23, 30)).id
    new_table(app, closed, "Long gone")
    first = client.get("/display", headers=htmx)
    html = first.get_data(as_text=True)
    assert "Still playing" in html and "Long gone" not in html
    with app.app_context():
        nights.close_night(night_id, actor=organizer)
    after = client.get("/display", headers={**htmx, "If-None-Match": etag_of(first)})
    assert after.status_code == 200 and "Still playing" not in after.get_data(as_text=True)


def test_tables_of_two_open_nights_name_their_night(app, client, htmx, night_id):
    new_table(app, night_id, "Table one")
    with app.app_context():
        other = gen_night(name="Saturday cup").id
    new_table(app, other, "Cup table")
    html = client.get("/display", headers=htmx).get_data(as_text=True)
    assert "Friday chouette ·" in html and "Saturday cup ·" in html


def test_one_nights_screen_shows_only_that_night(app, client, htmx, night_id):
    new_table(app, night_id, "Ours")
    with app.app_context():
        other = gen_night().id
    new_table(app, other, "Theirs")
    for headers in ({}, htmx):
        response = client.get(f"/display/{night_id}", headers=headers)
        html = response.get_data(as_text=True)
        assert response.status_code == 200 and "Ours" in html and "Theirs" not in html
        if not headers:  # the page fetches and listens to its own night only
            assert f'hx-get="/display/{night_id}"' in html
            assert f'sse-connect="/display/{night_id}/stream"' in html


def test_a_closed_nights_screen_says_so(app, client, htmx, organizer, night_id):
    new_table(app, night_id, "Table one")
    with app.app_context():
        nights.close_night(night_id, actor=organizer)
    response = client.get(f"/display/{night_id}", headers=htmx)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "This night is closed." in html and "Table one" not in html


def test_an_unknown_night_is_404(app, client, htmx):
    assert client.get("/display/999").status_code == 404
    assert client.get("/display/999", headers=htmx).status_code == 404


def test_the_screen_speaks_italian(app, client, htmx, organizer, night_id):
    new_table(app, night_id, "Tavolo uno", seat, organizer, ["Ann", "Bob", "Cy", "Dee"])
    english = client.get("/display", headers={**htmx, "Accept-Language": "en"})
    italian = client.get("/display", headers={**htmx, "Accept-Language": "it",
                                              "If-None-Match": etag_of(english)})
    assert italian.status_code == 200 and etag_of(italian) != etag_of(english)
    assert "Capitano" in italian.get_data(as_text=True)


def test_the_night_page_links_to_its_big_screen(app, client, login_as, night_id):
    login_as("player")
    html = client.get(f"/nights/{night_id}").get_data(as_text=True)
    assert f'href="/display/{night_id}"' in html and "Big screen" in html


def test_a_command_at_one_table_redraws_that_table_only(app, client, htmx, organizer, night_id):
    quiet = new_table(app, night_id, "Quiet", seat, organizer, ["Ann", "Bob", "Cy"])
    busy = new_table(app, night_id, "Busy", seat, organizer, ["Dee", "Eve", "Fred"])
    first = client.get("/display", headers=htmx)
    with app.app_context():
        play(busy, organizer, {"type": "double", "by": "box", "cubes": ["Eve"]})
    # The quiet table is taken from the cache: rename its box's row behind the app's back to
    # see which table was drawn again (the cache is keyed by each log's last event).
    from chouette.web import display

    drawn = caches.cache(display.TABLE_DRAWINGS, app)
    for key, (html, empty) in drawn.items():
        drawn.put(key, (html.replace("<span>Ann</span>", "<span>Ann (cached)</span>"), empty))
    html = client.get("/display", headers={**htmx, "If-None-Match": etag_of(first)}).get_data(
        as_text=True)
    quiet_html = re.search(rf'id="display-table-{quiet}".*?</article>', html, re.DOTALL).group(0)
    busy_html = re.search(rf'id="display-table-{busy}".*?</article>', html, re.DOTALL).group(0)
    assert "Ann (cached)" in quiet_html
    assert "to answer" in busy_html


def test_clear_all_forgets_every_table_and_screen_drawn(app, client, htmx, night_id):
    from chouette.web import display

    new_table(app, night_id, "Table one")
    client.get("/display", headers=htmx)
    assert len(caches.cache(display.TABLE_DRAWINGS, app)) and len(caches.cache(display.SCREENS, app))
    caches.clear_all(app)
    assert not len(caches.cache(display.TABLE_DRAWINGS, app))
    assert not len(caches.cache(display.SCREENS, app))


# --- every cube's true state, at once -----------------------------------------------------


def cube_cell(html: str, name: str) -> str:
    """The cube cell of ``name``'s row on the screen."""
    found = re.search(rf'<span>{name}</span>{GUEST_MARK}</td>\s*<td class="dt-cube">(.*?)</td>', html, re.DOTALL)
    assert found, f"no row for {name}"
    return found.group(1)


def status_of(html: str) -> str:
    return re.search(r'<p class="dt-status">([^<]*)</p>', html).group(1)


def test_a_members_answer_to_the_boxs_double_shows_at_once(app, client, htmx, organizer, night_id):
    """The box's double of several cubes is applied once every member answered; until then
    each member's answer is shown on their row, and only those still thinking are 'to answer'."""
    table_id = new_table(app, night_id, "Table one", seat, organizer, ["Ann", "Bob", "Cy", "Dee"])
    with app.app_context():
        play(table_id, organizer, {"type": "double", "by": "box", "cubes": ["Bob", "Cy", "Dee"]})
    first = client.get("/display", headers=htmx)
    html = first.get_data(as_text=True)
    assert all("to answer" in cube_cell(html, name) for name in ("Bob", "Cy", "Dee"))
    assert status_of(html) == "Game 1: waiting for Bob, Cy, Dee"

    with app.app_context():
        play(table_id, organizer, {"type": "take", "cube": "Bob"})
    took = client.get("/display", headers={**htmx, "If-None-Match": etag_of(first)})
    assert took.status_code == 200 and etag_of(took) != etag_of(first)
    html = took.get_data(as_text=True)
    assert "to answer" not in cube_cell(html, "Bob") and "takes" in cube_cell(html, "Bob")
    assert "answer-take" in cube_cell(html, "Bob")
    assert "to answer" in cube_cell(html, "Cy") and "to answer" in cube_cell(html, "Dee")
    assert status_of(html) == "Game 1: waiting for Cy, Dee"

    with app.app_context():
        play(table_id, organizer, {"type": "drop", "cube": "Cy"})
    dropped = client.get("/display", headers={**htmx, "If-None-Match": etag_of(took)})
    assert dropped.status_code == 200
    html = dropped.get_data(as_text=True)
    assert "drops" in cube_cell(html, "Cy") and "takes" in cube_cell(html, "Bob")
    assert status_of(html) == "Game 1: waiting for Dee"

    with app.app_context():
        play(table_id, organizer, {"type": "take", "cube": "Dee"})
    html = client.get("/display", headers={**htmx, "If-None-Match": etag_of(dropped)}).get_data(
        as_text=True)
    # Every member answered: the answers are applied and the cubes show their new state.
    assert "owns" in cube_cell(html, "Bob") and '<b class="cube-face">2</b>' in cube_cell(html, "Bob")
    assert "status-dropped" in cube_cell(html, "Cy")
    assert "offered" not in html and "waiting for" not in html


def test_the_status_names_the_box_when_they_must_answer(app, client, htmx, organizer, night_id):
    table_id = new_table(app, night_id, "Table one", seat, organizer, ["Ann", "Bob", "Cy", "Dee"])
    with app.app_context():
        play(table_id, organizer, {"type": "double", "by": "Dee"}, {"type": "double", "by": "Cy"})
    html = client.get("/display", headers=htmx).get_data(as_text=True)
    assert status_of(html) == "Game 1: waiting for Ann (box)"
    assert "box to answer" in cube_cell(html, "Dee") and "box to answer" in cube_cell(html, "Cy")


def test_extra_cubes_show_on_the_lone_takers_row(app, client, htmx, organizer, night_id):
    with app.app_context():
        table = gen_table(night_rows.get_night(night_id), name="Extras",
                          settings={**tables.TABLE_DEFAULTS, "extras": True})
        table_id = table.id
        seat(table_id, organizer, ["Ann", "Bob", "Cy", "Dee"])
        play(table_id, organizer, {"type": "double", "by": "box", "cubes": ["Bob", "Cy", "Dee"]},
             {"type": "take", "cube": "Bob"}, {"type": "drop", "cube": "Cy"},
             {"type": "drop", "cube": "Dee"}, {"type": "extra", "from": "Cy", "to": "Bob"})
        db.session.commit()
    html = client.get("/display", headers=htmx).get_data(as_text=True)
    assert "extra from Cy" in cube_cell(html, "Bob")
    assert "extra from" not in cube_cell(html, "Dee")


def test_the_answers_and_who_is_waited_for_speak_italian(app, client, htmx, organizer, night_id):
    table_id = new_table(app, night_id, "Tavolo uno", seat, organizer, ["Ann", "Bob", "Cy", "Dee"])
    with app.app_context():
        play(table_id, organizer, {"type": "double", "by": "box", "cubes": ["Bob", "Cy"]},
             {"type": "take", "cube": "Bob"})
    html = client.get("/display", headers={**htmx, "Accept-Language": "it"}).get_data(as_text=True)
    assert status_of(html) == "Partita 1: si attende Cy"
    assert '<span class="cube-note">accetta</span>' in cube_cell(html, "Bob")


def test_screens_fetching_the_same_version_draw_it_once(app, client, htmx, organizer, night_id):
    """After a push every TV fetches the same version: the first one draws it, the others are
    served that drawing (the page is the same for every viewer of the screen)."""
    from flask import template_rendered

    new_table(app, night_id, "Table one", seat, organizer, ["Ann", "Bob", "Cy", "Dee"])
    caches.clear_all(app)
    drawn: list[str] = []

    def note(sender, template, context, **extra):
        drawn.append(template.name)

    template_rendered.connect(note, app)
    try:
        answers = [app.test_client().get("/display", headers=htmx) for _screen in range(5)]
    finally:
        template_rendered.disconnect(note, app)
    assert {answer.status_code for answer in answers} == {200}
    assert len({answer.get_data() for answer in answers}) == 1
    assert len({answer.headers["ETag"] for answer in answers}) == 1
    assert drawn.count("display/_board.html") == 1


def test_the_status_names_the_box_when_they_owe_the_answer_to_a_beaver(app, client, htmx, organizer,
                                                                       night_id):
    """A member beavers the box's double while the others still think: the beaver is applied
    at once and the box owes its answer, so the box is among those waited for."""
    with app.app_context():
        table_id = gen_table(night_rows.get_night(night_id), name="Beavers",
                             settings={**tables.TABLE_DEFAULTS, "beavers": True}).id
        seat(table_id, organizer, ["Ann", "Bob", "Cy", "Dee"])
        play(table_id, organizer, {"type": "double", "by": "box", "cubes": ["Bob", "Cy"]},
             {"type": "beaver", "cube": "Bob"})
        db.session.commit()
    html = client.get("/display", headers=htmx).get_data(as_text=True)
    assert status_of(html) == "Game 1: waiting for Ann (box), Cy"
    assert "beavers · box to answer" in cube_cell(html, "Bob")
    assert "box to answer" not in cube_cell(html, "Cy")

    with app.app_context():
        play(table_id, organizer, {"type": "take", "cube": "Cy"})
    html = client.get("/display", headers=htmx).get_data(as_text=True)
    assert status_of(html) == "Game 1: waiting for Ann (box)"
