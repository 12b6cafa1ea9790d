"""A typo at "Join the table" in a real browser (issue 25, item 4): the organizer's tablet and
the big screen are open at once. "ann archr" asks "Did you mean Ann Archer?" in place in the
Join card and seats nobody; picking the member seats Ann Archer, and the TV shows her seat with
no reload. "Zed Quill" is seated as a guest at once, marked "guest" on both screens. The
question is looked at on a phone, a tablet and a desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from chouette.services import members
from tests.browser.test_live_room import TABLET, TV, Room, device, open_table
from tests.factories import PASSWORD

pytestmark = pytest.mark.browser

SIZES = {"390x844": (390, 844), "1024x768": (1024, 768), "1920x1080": (1920, 1080)}


def test_a_close_name_asks_the_member_is_picked_and_the_tv_shows_the_seat(browser: Browser, live_server, screenshot):
    room = Room(live_server)
    with live_server.app.app_context():
        members.create_member(name="Ann Archer", username="ann", password=PASSWORD)
    tablet = open_table(browser, room, room.owner, TABLET)
    tv = device(browser, TV).new_page()
    tv.goto(f"{live_server.url}/display")
    expect(tv.locator(f"#display-table-{room.table_id}")).to_contain_text("Waiting for players")

    join = tablet.locator(f"#table-join-{room.table_id}")
    join.get_by_label("Name (a member or a guest)").fill("ann archr")
    join.get_by_role("button", name="Sit down").click()
    question = join.locator(".join-question")
    expect(question).to_contain_text("Did you mean Ann Archer?")
    expect(question.get_by_role("button", name="Seat a new guest, ann archr")).to_be_visible()
    assert room.seq() == 0  # nobody seated while the question waits
    for size, (width, height) in SIZES.items():
        tablet.set_viewport_size({"width": width, "height": height})
        overflow = tablet.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the question at {width}px scrolls sideways by {overflow}px"
        question.scroll_into_view_if_needed()
        screenshot(f"join-question-{size}", tablet)
    tablet.set_viewport_size(TABLET)

    question.get_by_role("button", name="Seat the member Ann Archer").click()
    expect(join.locator(".join-question")).to_have_count(0)
    seats = tablet.locator(f"#table-seats-{room.table_id}")
    expect(seats).to_contain_text("Ann Archer")
    assert room.state().players == ["Ann Archer"]
    # The TV shows her seat, pushed: no reload, no guest mark.
    tv_table = tv.locator(f"#display-table-{room.table_id}")
    expect(tv_table.locator(".dt-name", has_text="Ann Archer")).to_be_visible()
    expect(tv_table.locator(".dt-guest")).to_have_count(0)

    # A clearly new name: a guest at once, marked on both screens.
    join.get_by_label("Name (a member or a guest)").fill("Zed Quill")
    join.get_by_role("button", name="Sit down").click()
    expect(seats.locator(".seat", has_text="Zed Quill").locator(".guest-badge")).to_have_text("guest")
    expect(seats.locator(".seat", has_text="Ann Archer").locator(".guest-badge")).to_have_count(0)
    expect(tv_table.locator("tr", has_text="Zed Quill").locator(".dt-guest")).to_have_text("guest")
    screenshot("join-guest-marked-tv-1920x1080", tv)
    assert room.state().players == ["Ann Archer", "Zed Quill"]
    for page in (tablet, tv):
        page.context.close()
