"""Players seat themselves, and the night page follows live (issue 25), in a real browser:
the organizer watches the night page on a tablet while the member Marco, on their phone, opens
the table (its QR code's address) and sits down; the night page counts Marco, then shows a
game played and Marco the captain, without a reload (pushed on the night's stream). Then the
organizer closes the finished table: it leaves the night's open tables. Screens: a phone, a
tablet, a desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from chouette.extensions import db
from chouette.models import Member
from chouette.services import commands, tables
from tests.browser.conftest import OFF_SITE
from tests.browser.test_night_close import _shoot, _sign_in
from tests.factories import gen_member, gen_night, gen_table


@pytest.mark.browser
def test_a_member_sits_down_from_the_phone_and_the_night_page_follows(
        page: Page, browser: Browser, live_server, screenshot):
    with live_server.app.app_context():
        owner = gen_member("organizer", name="Olga", username="olga")
        gen_member("player", name="Marco", username="marco")
        night = gen_night(name="Venerdì", opened_by_id=owner.id)
        red = gen_table(night, name="Red", created_by_id=owner.id)
        for name in ("Ann", "Bob"):
            commands.play(red.id, tables.last_seq(red.id), {"type": "join", "player": name}, owner)
        commands.play(red.id, tables.last_seq(red.id), {"type": "order", "players": ["Ann", "Bob"]}, owner)
        ids = {"night": night.id, "red": red.id}
        db.session.remove()
    base = live_server.url
    _sign_in(page, base, "olga")
    page.goto(f"{base}/nights/{ids['night']}")
    red_card = page.locator(f'.night-table[data-table="{ids["red"]}"]')
    expect(red_card.locator(".night-table-box")).to_have_text("Ann")
    expect(red_card.locator(".night-table-captain")).to_have_text("Bob")
    expect(red_card.locator(".night-table-players")).to_have_text("2")
    expect(page.locator("[data-push]")).to_have_attribute("data-push", "open")

    phone_context = browser.new_context(viewport={"width": 390, "height": 844})
    phone_context.route(OFF_SITE, lambda route: route.abort())
    phone_context.set_default_timeout(10_000)
    phone = phone_context.new_page()
    try:
        _sign_in(phone, base, "marco")
        phone.goto(f"{base}/tables/{ids['red']}")  # what the table's QR code opens
        phone.get_by_role("button", name="Sit down").click()
        expect(phone.locator(".flash")).to_contain_text("You sit at the table.")
        expect(phone.get_by_role("button", name="Leave the table")).to_be_visible()
        expect(red_card.locator(".night-table-players")).to_have_text("3")  # pushed, no reload
        screenshot("table-seats-phone-seated", phone)
        # A game played: the page, untouched, shows it and Marco the captain (Bob went to the line).
        with live_server.app.app_context():
            olga = db.session.get(Member, 1)
            commands.play(ids["red"], tables.last_seq(ids["red"]),
                          {"type": "result", "winner": "box", "kind": "single"}, olga)
            db.session.remove()
        expect(red_card.locator(".night-table-games")).to_have_text("1")
        expect(red_card.locator(".night-table-captain")).to_have_text("Marco")
    finally:
        phone_context.close()
    _shoot(page, screenshot, "table-seats-night")

    page.goto(f"{base}/tables/{ids['red']}")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Close the table").click()
    expect(page.locator(".flash")).to_contain_text("Table Red is closed")
    expect(page.locator(".night-table")).to_have_count(0)
    expect(page.locator(".closed-tables")).to_contain_text("Red")
    _shoot(page, screenshot, "table-seats-closed")
    # Its history stays a click away; the organizer may reopen it.
    page.locator(".closed-tables").get_by_role("link", name="Red").click()
    expect(page.locator(".live-status")).to_contain_text("Table closed")
    expect(page.get_by_role("button", name="Reopen the table")).to_be_visible()
    _shoot(page, screenshot, "table-seats-closed-table")
