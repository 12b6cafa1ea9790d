"""htmx in a real browser: buttons carry the CSRF header, refusals land in the flash area."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import Page, expect

from tests.factories import PASSWORD, gen_member, gen_night


@pytest.mark.browser
def test_closing_a_night_from_a_stale_page_shows_the_refusal_in_place(page: Page, live_server, screenshot):
    with live_server.app.app_context():
        organizer = gen_member("organizer", name="Olga")
        night = gen_night(name="Sunday social", date=dt.date(2026, 11, 29))
    base = live_server.url
    night_url = f"{base}/nights/{night.id}"
    page.goto(f"{base}/auth/login")
    page.get_by_label("Username").fill(organizer.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Hello, Olga")).to_be_visible()

    page.goto(night_url)
    stale = page.context.new_page()
    stale.goto(night_url)

    # htmx posts with the CSRF header from <body hx-headers>, asks first, then loads the page.
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Close the night").click()
    expect(page.locator("#flash")).to_contain_text("The night is closed.")
    expect(page.get_by_role("button", name="Close the night")).to_have_count(0)

    # The stale page still offers the button: the refusal (422) replaces #flash only.
    stale.once("dialog", lambda dialog: dialog.accept())
    stale.get_by_role("button", name="Close the night").click()
    expect(stale.locator("#flash")).to_contain_text("This night is already closed.")
    expect(stale).to_have_url(night_url)
    expect(stale.get_by_role("heading", name="Sunday social")).to_be_visible()
    screenshot("night-closed-refusal", stale)


@pytest.mark.browser
def test_an_htmx_request_outside_any_form_carries_the_csrf_header(page: Page, live_server):
    """Buttons of the live table will post without a form: the token must come from <body>."""
    with live_server.app.app_context():
        organizer = gen_member("organizer", name="Olga")
        night = gen_night(name="Header check")
    base = live_server.url
    page.goto(f"{base}/auth/login")
    page.get_by_label("Username").fill(organizer.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Hello, Olga")).to_be_visible()
    page.goto(f"{base}/nights/{night.id}")
    with page.expect_response(lambda response: response.request.method == "POST") as answer:
        page.evaluate(f"htmx.ajax('POST', '/nights/{night.id}/close', {{target: '#flash', swap: 'outerHTML'}})")
    expect(page.locator("#flash")).to_contain_text("The night is closed.")
    assert answer.value.status == 200


@pytest.mark.browser
def test_an_htmx_action_beyond_the_members_role_shows_why_in_the_flash_area(page: Page, live_server):
    with live_server.app.app_context():
        player = gen_member("player", name="Pia")
        night = gen_night(name="Role check")
    base = live_server.url
    page.goto(f"{base}/auth/login")
    page.get_by_label("Username").fill(player.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{base}/nights/{night.id}")
    page.evaluate(f"htmx.ajax('POST', '/nights/{night.id}/close', {{target: 'main', swap: 'innerHTML'}})")
    expect(page.locator("#flash")).to_contain_text("Your role does not allow this.")
    expect(page.get_by_role("heading", name="Role check")).to_be_visible()  # nothing else replaced
