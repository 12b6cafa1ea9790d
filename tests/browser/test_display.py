"""The big screen in a real browser: it updates by itself, survives the server going away, and
fits a 1920x1080 TV with four tables of eight players."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from playwright.sync_api import Page, expect
from werkzeug.serving import make_server

from chouette import commands
from chouette.extensions import db
from chouette.models import Member
from tests.factories import gen_member, gen_night, gen_table
from tests.web.test_display import EIGHT, board_table, busy_table, play, seat

pytestmark = pytest.mark.browser

#: Four tables of eight: names of several lengths, as at a real club.
CLUB = [
    ["Alessandro", "Beatrice", "Carlo", "Daniela", "Enrico", "Francesca", "Giorgio", "Ilaria"],
    ["Marco", "Nadia", "Oscar", "Paola", "Quinto", "Rita", "Stefano", "Tiziana"],
    ["Ugo", "Valeria", "Walter", "Ximena", "Yuri", "Zoe", "Bartolomeo", "Costanza"],
    EIGHT,
]


@contextmanager
def in_app(app: Flask) -> Iterator[None]:
    """An app context that commits before it ends (no SQLite lock is left held)."""
    with app.app_context():
        yield
        db.session.commit()


def organizer_of(app: Flask) -> Member:
    """An organizer whose attributes stay readable (gen_member commits without expiring)."""
    with app.app_context():
        return gen_member("organizer")


def count_polls(page: Page) -> None:
    """Count the screen's poll answers by status in ``window.polls`` (e.g. ``polls[304]``)."""
    page.evaluate("""window.polls = {};
        document.addEventListener("htmx:beforeOnLoad", (event) => {
            const status = event.detail.xhr.status;
            window.polls[status] = (window.polls[status] || 0) + 1;
        });""")


def test_the_big_screen_updates_by_itself_and_is_left_alone_while_nothing_changes(
        live_server, page: Page):
    app = live_server.app
    organizer = organizer_of(app)
    with in_app(app):
        table_id = gen_table(gen_night(), name="Table one").id
        seat(table_id, organizer, ["Ann", "Bob", "Cy", "Dee"])
    page.goto(f"{live_server.url}/display")
    expect(page.locator(f"#display-table-{table_id}")).to_contain_text("Ann")
    count_polls(page)
    # The first poll has no ETag to send yet; from then on, a mark on the shown fragment
    # survives as long as htmx swaps nothing in (304s).
    page.wait_for_function("(window.polls[200] || 0) + (window.polls[304] || 0) >= 1")
    page.evaluate("document.getElementById('display-board').dataset.probe = 'kept'")
    page.wait_for_function("(window.polls[304] || 0) >= 2", timeout=15_000)
    assert page.evaluate("document.getElementById('display-board').dataset.probe") == "kept"

    with in_app(app):
        play(table_id, organizer, {"type": "double", "by": "box", "cubes": ["Cy"]})
    cy = page.locator(f"#display-table-{table_id} tr", has_text="Cy")
    expect(cy.locator(".cube.offered")).to_be_visible(timeout=10_000)
    expect(cy).to_contain_text("to answer")
    assert page.evaluate("document.getElementById('display-board').dataset.probe") is None
    assert page.evaluate("window.polls[200]") >= 1


def test_the_big_screen_keeps_the_last_state_while_the_server_is_away_and_recovers(
        live_server, page: Page):
    app = live_server.app
    organizer = organizer_of(app)
    with in_app(app):
        table_id = gen_table(gen_night(), name="Table one").id
        seat(table_id, organizer, ["Ann", "Bob", "Cy", "Dee"])
    page.goto(f"{live_server.url}/display")
    board = page.locator(f"#display-table-{table_id}")
    expect(board).to_contain_text("Dee")
    offline = page.locator(".display-offline")
    expect(offline).to_be_hidden()

    # The server goes away: connections are refused.
    port = int(live_server.url.rsplit(":", 1)[1])
    live_server._server.shutdown()
    live_server._server.server_close()
    with in_app(app):
        play(table_id, organizer, {"type": "double", "by": "Dee"})
    expect(offline).to_be_visible(timeout=10_000)
    expect(board).to_contain_text("Dee")  # the last state is still on the screen
    expect(board.locator(".cube.offered")).to_have_count(0)

    # It comes back on the same address: the screen catches up by itself.
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        expect(board.locator(".cube.offered")).to_have_count(1, timeout=10_000)
        expect(board.locator("tr", has_text="Dee")).to_contain_text("box to answer")
        expect(offline).to_be_hidden()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def test_the_big_screen_fits_a_tv_with_four_tables_of_eight(live_server, page: Page, screenshot):
    app = live_server.app
    organizer = organizer_of(app)
    with in_app(app):
        night = gen_night(name="Friday chouette")
        tables = [gen_table(night, name=f"Table {n}").id for n in range(1, 5)]
        busy_table(tables[0], organizer, CLUB[0], 2)
        board_table(tables[1], organizer, CLUB[1])
        busy_table(tables[2], organizer, CLUB[2], 4)
        busy_table(tables[3], organizer, CLUB[3], 5)
        commands.clear_cache()
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/display")
    expect(page.locator(".display-table")).to_have_count(4)
    expect(page.locator(".dt-board svg")).to_have_count(1)
    for table_id in tables:
        expect(page.locator(f"#display-table-{table_id} tbody tr")).to_have_count(8)
    expect(page.locator(".is-next")).to_have_count(4)
    # No scrolling, and nothing cut off inside a table's cell.
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    clipped = page.evaluate("""[...document.querySelectorAll('.display-table')]
        .filter(cell => cell.scrollHeight > cell.clientHeight + 1 || cell.scrollWidth > cell.clientWidth + 1)
        .map(cell => cell.id)""")
    assert clipped == []
    overlaps = page.evaluate("""[...document.querySelectorAll('.with-board')].filter(cell => {
        const seats = cell.querySelector('.dt-seats').getBoundingClientRect();
        const board = cell.querySelector('.dt-board').getBoundingClientRect();
        return seats.right > board.left; }).length""")
    assert overlaps == 0
    # Readable from across the room: a player's name is at least 28 px high on a 1080p TV.
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('td.dt-name')).fontSize)")
    assert size >= 28
    screenshot("display-tv-1920x1080")

    page.set_viewport_size({"width": 1024, "height": 768})
    expect(page.locator(".display-table")).to_have_count(4)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    screenshot("display-tablet-1024x768")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    screenshot("display-phone-390x844")
