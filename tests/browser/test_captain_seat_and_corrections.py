"""In a real browser at 390x844, 1024x768 and 1920x1080: the captain's seat waits for the
answers when the captain dropped and left (rules 2.5), on the organizer's page and the TV while
another device answers; and a correction of a cube answer made in its form, with a refusal
said inside the form."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import play_as, sign_in
from tests.factories import gen_member, gen_night, gen_table

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "tablet": (1024, 768), "tv": (1920, 1080)}
WAITING = "Waiting for the answers to the box's double"


def _table(server) -> int:
    with server.app.app_context():
        organizer = gen_member("organizer", username="org", name="Olga")
        night = gen_night(name="Friday", opened_by_id=organizer.id)
        table_id = gen_table(night, name="Table 1", created_by_id=organizer.id).id
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    play_as(server.app, "org", table_id, *({"type": "join", "player": p} for p in names),
          {"type": "order", "players": names})
    return table_id


@pytest.mark.parametrize("size", SIZES)
def test_the_captain_seat_waits_on_the_table_and_the_tv(live_server, page: Page, context,
                                                          screenshot, size):
    table_id = _table(live_server)
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    sign_in(page, live_server.url, "org")
    page.goto(f"{live_server.url}/tables/{table_id}")
    tv = context.new_page()
    tv.set_viewport_size({"width": 1920, "height": 1080})
    tv.goto(f"{live_server.url}/display")
    # Another device: the box doubles, Bob (captain) drops and leaves, Cy takes.
    play_as(live_server.app, "org", table_id, {"type": "double", "by": "box"}, {"type": "drop", "cube": "Bob"},
          {"type": "leave", "player": "Bob"}, {"type": "take", "cube": "Cy"})
    seats = page.locator(f"#table-seats-{table_id}")
    expect(seats.locator("tr.seat-captain")).to_contain_text(WAITING)
    expect(tv.locator("tr.seat-captain.is-waiting")).to_contain_text(WAITING)
    screenshot(f"captain-seat-waiting-{size}")
    screenshot(f"captain-seat-waiting-tv-{size}", tv)
    play_as(live_server.app, "org", table_id, {"type": "drop", "cube": "Dee"}, {"type": "take", "cube": "Eve"})
    expect(seats.locator("tr.seat-captain")).to_contain_text("Cy")
    expect(tv.locator("tr.seat-captain")).to_contain_text("Cy")
    expect(tv.locator("body")).not_to_contain_text(WAITING)


@pytest.mark.parametrize("size", SIZES)
def test_a_cube_answer_corrected_in_the_form(live_server, page: Page, screenshot, size):
    table_id = _table(live_server)
    play_as(live_server.app, "org", table_id, {"type": "double", "by": "box", "cubes": ["Cy"]},
          {"type": "take", "cube": "Cy"}, {"type": "double", "by": "Cy"},
          {"type": "take", "cube": "Cy"}, {"type": "result", "winner": "team", "kind": "single"})
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    sign_in(page, live_server.url, "org")
    page.goto(f"{live_server.url}/tables/{table_id}")
    details = page.locator(f"#correct-{table_id}-1")
    details.locator("summary").click()
    select = details.locator("select[name=fix]")
    expect(select).to_have_value("")
    select.select_option("answer:1:drop:Cy")
    details.locator("input[name=reason]").fill("Cy dropped")
    details.get_by_role("button", name="Record the correction").click()
    error = page.locator(f"#correct-{table_id}-1 .form-error")
    expect(error).to_contain_text("would be refused")
    screenshot(f"correction-refused-{size}")
    # The box's take of Cy's redouble turned into a drop: that the log can bear.
    details = page.locator(f"#correct-{table_id}-1")
    details.locator("select[name=fix]").select_option("answer:2:drop:Cy")
    details.locator("input[name=reason]").fill("the box dropped")
    details.get_by_role("button", name="Record the correction").click()
    expect(page.locator(f"#table-history-{table_id} tr[data-game='1']")).to_contain_text(
        "Corrected by Olga: the box dropped")
    screenshot(f"correction-made-{size}")
