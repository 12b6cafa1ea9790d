"""The essential forms work with JavaScript turned off (old phones, locked-down tablets)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import OFF_SITE
from tests.factories import PASSWORD, gen_member


@pytest.mark.browser
def test_an_organizer_runs_the_night_setup_without_javascript(browser: Browser, live_server, screenshot):
    with live_server.app.app_context():
        organizer = gen_member("organizer", name="Olga")
    context = browser.new_context(java_script_enabled=False)
    context.route(OFF_SITE, lambda route: route.abort())
    page = context.new_page()
    base = live_server.url
    try:
        page.goto(f"{base}/auth/login")
        page.get_by_label("Username").fill(organizer.username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        expect(page.get_by_role("heading", name="Hello, Olga")).to_be_visible()

        page.goto(f"{base}/nights/new")
        page.get_by_label("Name").fill("Quiet Tuesday")
        page.get_by_label("Date").fill("2026-12-01")
        page.get_by_role("button", name="Open the night").click()
        expect(page.get_by_role("heading", name="Quiet Tuesday")).to_be_visible()

        # The preset is applied by a plain GET form when htmx cannot run.
        page.get_by_role("link", name="New table").click()
        page.get_by_label("Preset").select_option("single-cube-jacoby")
        page.get_by_role("button", name="Use this preset").click()
        expect(page.get_by_label("Cube", exact=True)).to_have_value("single")
        expect(page.get_by_label("Jacoby rule")).to_be_checked()
        page.get_by_label("Table name").fill("Corner")
        page.get_by_role("button", name="Create the table").click()
        expect(page.locator(".rules-card")).to_contain_text("Single cube, Jacoby")

        page.get_by_role("link", name="Quiet Tuesday").click()
        page.get_by_role("button", name="Close the night").click()
        expect(page.locator("#flash")).to_contain_text("The night is closed.")
        expect(page.get_by_role("link", name="New table")).to_have_count(0)
        page.get_by_role("button", name="Sign out").click()
        expect(page).to_have_url(f"{base}/auth/login")
    finally:
        context.close()
