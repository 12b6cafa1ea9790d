"""Close a season in a real browser: a treasurer creates a season over two closed nights, ticks
the season's transfers (an IOU among them), is refused closing until the box is ticked, closes
it, and sees it closed: who closed it, the final standings, no more ticks."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import Page, expect

from chouette import caches
from chouette.extensions import db
from chouette.services import nights as nights_service
from tests.browser.test_settle_up import PHONE, TABLET, corner_game, sign_in
from tests.factories import gen_member, gen_night
from tests.services.test_money_services import play_night


@pytest.fixture
def nights(live_server):
    """Two Fridays of October played through the table commands, both closed."""
    with live_server.app.app_context():
        organizer = gen_member("organizer", name="Tess", username="tess")
        first = play_night(organizer, gen_night(name="First Friday", date=dt.date(2026, 10, 2)))
        second = gen_night(name="Second Friday", date=dt.date(2026, 10, 9))
        corner_game(second, organizer)
        caches.clear_all()
        for night_id in (first["night"], second.id):
            nights_service.close_night(night_id, actor=organizer)
        db.session.commit()
        db.session.remove()


def tick(page: Page, payer: str, payee: str, method: str) -> None:
    """Choose the method of one season transfer, tick it paid, wait for the page to recompute."""
    recorded = page.locator("#season-payments li").count()
    row = page.locator(f'#season-transfers li.transfer[data-payer="{payer}"][data-payee="{payee}"]')
    row.get_by_label(f"How {payer} pays {payee}").select_option(method)
    row.get_by_role("button", name="Paid").click()
    news = f"{payer} owes {payee}" if method == "iou" else f"{payer} paid {payee}"
    expect(page.locator("#season .flash-success")).to_contain_text(news)
    expect(page.locator("#season-payments li")).to_have_count(recorded + 1)


@pytest.mark.browser
def test_a_treasurer_closes_a_season_over_two_nights(page: Page, live_server, nights, screenshot):
    base = live_server.url
    page.set_viewport_size(TABLET)
    sign_in(page, base, "tess")

    # From the menu to the seasons, and a new season over October.
    page.goto(f"{base}/balances")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Seasons").click()
    expect(page.get_by_role("heading", name="Seasons")).to_be_visible()
    page.get_by_role("link", name="New season").click()
    page.get_by_label("Name").fill("October")
    page.get_by_label("First date").fill("2026-10-01")
    page.get_by_label("Last date").fill("2026-10-31")
    expect(page.get_by_label("Currency")).to_have_value("EUR")
    page.get_by_role("button", name="Create the season").click()
    expect(page.get_by_role("heading", name="Season: October")).to_be_visible()
    expect(page.locator("#season-state")).to_contain_text("2 nights in this season.")
    expect(page.locator("#season-nights tr[data-night]")).to_have_count(2)
    screenshot("season-open-tablet")

    # Closing now is refused: money is still owed, and the message says who owes what.
    page.get_by_label("The standings are final: close the season").check()
    page.get_by_role("button", name="Close the season").click()
    expect(page.locator("#season .form-errors")).to_contain_text("The season cannot be closed while money is still owed:")
    expect(page.locator("#season-state")).not_to_contain_text("Closed by")

    # Tick every season transfer: one IOU, the others in cash or by transfer.
    rows = page.locator("#season-transfers li.transfer")
    count = rows.count()
    assert count >= 2
    first = rows.first
    tick(page, first.get_attribute("data-payer"), first.get_attribute("data-payee"), "iou")
    methods = iter(["cash", "transfer"] * count)
    page.set_viewport_size(PHONE)
    while rows.count():
        tick(page, rows.first.get_attribute("data-payer"), rows.first.get_attribute("data-payee"), next(methods))
    expect(page.locator("#season-transfers")).to_contain_text("Nothing is open over the season.")
    expect(page.locator("#season-standings td.open .settled")).to_have_count(
        page.locator("#season-standings tbody tr").count())
    expect(page.locator("#season-ious")).to_contain_text("IOU of October")
    screenshot("season-settled-phone")

    # Close it, the box ticked: the page says who closed it, the standings are final.
    page.set_viewport_size(TABLET)
    page.get_by_label("The standings are final: close the season").check()
    page.get_by_role("button", name="Close the season").click()
    expect(page.locator("#season .flash-success")).to_contain_text("The season is closed.")
    expect(page.locator("#season-state")).to_contain_text("Closed by Tess on")
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
    expect(page.locator("#season-transfers .pay-form")).to_have_count(0)
    expect(page.locator("#season-ious").get_by_role("button", name="Paid off")).to_be_visible()  # still payable
    expect(page.get_by_role("button", name="Close the season")).to_have_count(0)
    screenshot("season-closed-tablet")

    # Still readable after a reload, and its nights' settle-ups link back and say it is closed.
    page.reload()
    expect(page.locator("#season-state")).to_contain_text("Closed by Tess")
    page.locator("#season-nights").get_by_role("link", name="Settle up").first.click()
    expect(page.locator(".season-note")).to_contain_text("which is closed: its payments are final.")
    page.get_by_role("link", name="Season: October").click()
    expect(page.get_by_role("heading", name="Season: October")).to_be_visible()
    page.goto(f"{base}/seasons/")
    expect(page.locator('#season-list tr[data-season="October"]')).to_contain_text("closed")
