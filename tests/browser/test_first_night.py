"""A new club's first steps in a real browser: first run, members, a night, a table, its rules."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from chouette.services.tables import TABLE_DEFAULTS

PASSWORD = "a-long-password"


def sign_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/auth/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()


@pytest.mark.browser
def test_first_run_to_a_table_with_its_house_rules(page: Page, live_server, screenshot):
    base = live_server.url

    # First run: the first visitor is sent to the setup page and creates the admin.
    page.goto(base + "/")
    expect(page).to_have_url(f"{base}/setup")
    page.get_by_label("Your name").fill("Ada Admin")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create the admin").click()
    expect(page).to_have_url(f"{base}/admin/members")
    expect(page.locator("#flash")).to_contain_text("you are the club's admin")
    # The CDN is unreachable here: htmx came from the vendored copy.
    assert page.evaluate("window.htmx && window.htmx.version") == "2.0.11"

    # The admin adds an organizer.
    page.get_by_label("Name", exact=True).fill("Olga Organizer")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Role").select_option("organizer")
    page.get_by_role("button", name="Add the member").click()
    expect(page.locator("#flash")).to_contain_text("Olga Organizer is a member.")
    expect(page.locator("#member-list")).to_contain_text("olga")
    screenshot("members-page")
    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(f"{base}/auth/login")

    # The organizer signs in and opens a night.
    sign_in(page, base, "olga")
    expect(page.get_by_role("heading", name="Hello, Olga Organizer")).to_be_visible()
    page.get_by_role("link", name="Open a night").first.click()
    page.get_by_label("Name").fill("Friday chouette")
    page.get_by_label("Date").fill("2026-11-27")
    page.get_by_role("button", name="Open the night").click()
    expect(page.get_by_role("heading", name="Friday chouette")).to_be_visible()
    screenshot("night-page")

    # A table from a preset: choosing it fills in the settings (htmx swaps the form).
    page.get_by_role("link", name="New table").click()
    expect(page.get_by_label("Automatic doubles")).to_have_value("0")
    page.get_by_label("Table name").fill("By the window")
    page.get_by_label("Preset").select_option("money-night")
    expect(page.get_by_label("Automatic doubles")).to_have_value("1")
    expect(page.get_by_label("Beavers")).to_be_checked()
    expect(page.get_by_label("Table name")).to_have_value("By the window")
    screenshot("new-table-form")
    page.get_by_role("button", name="Create the table").click()

    # The table page shows its house-rules card.
    expect(page.get_by_role("heading", name="By the window", exact=True)).to_be_visible()
    card = page.locator(".rules-card")
    expect(card).to_contain_text("Money night: beavers, raccoons, automatic doubles (cap 1), Jacoby")
    expect(card).to_contain_text("On, at most 1: a tied opening roll turns the cube.")
    # Every house rule, but what an unanswered double becomes: without a time limit (the
    # default) nothing goes unanswered, and the card says "No time limit" instead.
    expect(card.locator("[data-setting]")).to_have_count(len(TABLE_DEFAULTS) - 1)
    expect(card.locator('[data-setting="unanswered_double"]')).to_have_count(0)
    expect(card).to_contain_text("No time limit")
    screenshot("table-page")
    page.set_viewport_size({"width": 1920, "height": 1080})
    screenshot("table-page-tv")
    page.set_viewport_size({"width": 1280, "height": 720})

    # The printable card, in English and in Italian.
    page.get_by_role("link", name="Print the house rules").click()
    expect(page.locator('.rules-card[lang="it"]')).to_contain_text("Regole della casa")
    expect(page.locator('.rules-card[lang="en"]')).to_contain_text("House rules")
    screenshot("house-rules-card")


@pytest.mark.browser
def test_a_refused_form_keeps_what_was_typed_on_a_phone(page: Page, live_server, screenshot):
    base = live_server.url
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(base + "/setup")
    page.get_by_label("Your name").fill("Ada Admin")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill("something-else")
    page.get_by_role("button", name="Create the admin").click()
    expect(page.get_by_text("The two passwords differ.")).to_be_visible()
    expect(page.get_by_label("Your name")).to_have_value("Ada Admin")
    # Nothing overflows sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot("setup-refused-phone")
