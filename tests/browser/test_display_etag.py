"""The big screen's ETag is that of what it shows (``static/js/display.js``).

A fetch of the screen answered after its stream brought a drawing is not taken in
(``static/js/live.js``); its ETag must not be kept either: the screen's next fetch of that
version would be answered ``304 Not Modified`` over the older tables it shows, for good.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from chouette.web import display as display_view
from tests.browser.test_display import in_app, organizer_of, table_one
from tests.factories import gen_night, gen_table
from tests.web.test_display import play, seat

pytestmark = pytest.mark.browser


def test_a_screen_that_left_a_fetched_answer_fetches_the_last_version_again(live_server, page: Page,
                                                                            monkeypatch):
    app = live_server.app
    organizer, table_id = table_one(app)
    page.goto(f"{live_server.url}/display")
    expect(page.locator(".display-push")).to_have_attribute("data-push", "open")
    cy = page.locator(f"#display-table-{table_id} tr", has_text="Cy")

    # A fetch of the screen goes out (as the screen makes one to catch up) and is slow to
    # come back: held until the test lets it go.
    held: list[Route] = []

    def hold(route: Route) -> None:
        if route.request.headers.get("hx-request") and not held:
            held.append(route)
        else:
            route.continue_()

    page.route(re.compile(r"/display(\?[^/]*)?$"), hold)
    page.evaluate("htmx.trigger('#display-refresh', 'chouette:refresh')")
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the fetch was never sent"

    # Meanwhile the box doubles Cy: the stream brings the drawing, the screen takes it in.
    with in_app(app):
        play(table_id, organizer, {"type": "double", "by": "box", "cubes": ["Cy"]})
    expect(cy.locator(".cube.offered")).to_be_visible()

    # Cy takes; this time the stream sends the version only (a drawing that failed, or that
    # waited too long for another screen's stream making it).
    monkeypatch.setattr(display_view, "_parts", lambda *_args: None)
    with in_app(app):
        play(table_id, organizer, {"type": "take", "cube": "Cy"})
    # The slow fetch is answered now, with Cy's take: not taken in (a drawing came since it
    # was sent). The screen fetches the last version and shows it.
    held[0].continue_()
    expect(cy).to_contain_text("owns")
    expect(cy.locator(".cube.offered")).to_have_count(0)


def test_a_night_named_with_a_tilde_and_an_ampersand_keeps_its_screen_current(live_server, page: Page):
    """A screen's version holds its night's name; the live table's version marks its cube
    window's part with ``~``, and the page compares the part before it. A night named
    "Friday ~ Tom & Co" must not make the screen take a later version for one it shows."""
    app = live_server.app
    organizer = organizer_of(app)
    with in_app(app):
        table_id = gen_table(gen_night(name="Friday ~ Tom & Co"), name="Table one").id
        seat(table_id, organizer, ["Ann", "Bob", "Cy", "Dee"])
    page.goto(f"{live_server.url}/display")
    expect(page.locator(".display-push")).to_have_attribute("data-push", "open")
    row = page.locator(f"#display-table-{table_id} tr", has_text="Cy")
    for event, shown in (({"type": "double", "by": "box", "cubes": ["Cy"]}, "to answer"),
                         ({"type": "take", "cube": "Cy"}, "owns"),
                         ({"type": "double", "by": "box", "cubes": ["Dee"]}, "to answer")):
        with in_app(app):
            play(table_id, organizer, event)
        if shown == "to answer":
            expect(page.locator(f"#display-table-{table_id} .cube.offered")).to_be_visible()
        else:
            expect(row).to_contain_text(shown)
    expect(page.locator(f"#display-table-{table_id} tr", has_text="Dee").locator(".cube.offered")).to_be_visible()
