"""Settle a night in a real browser: tick payments with their methods (an early leaver first, an
IOU among them), then the next night shows the IOU carried over, it is paid off in part, and the
balances and the player's own account page show what is left."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import Page, expect

from chouette import caches
from chouette.extensions import db
from tests.factories import PASSWORD, gen_member, gen_night, gen_table
from tests.services.test_money_services import play, play_night

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
TV = {"width": 1920, "height": 1080}


def sign_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/auth/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


def tick(page: Page, payer: str, payee: str, method: str, where: str = "#night-transfers") -> None:
    """Choose the method of one transfer, tick it paid, and wait for the list to recompute."""
    recorded = page.locator("#payments li").count()
    row = page.locator(f'{where} li.transfer[data-payer="{payer}"][data-payee="{payee}"]')
    row.get_by_label(f"How {payer} pays {payee}").select_option(method)
    row.get_by_role("button", name="Paid").click()
    news = f"{payer} owes {payee}" if method == "iou" else f"{payer} paid {payee}"
    expect(page.locator("#settle-up .flash-success")).to_contain_text(news)
    expect(page.locator("#payments li")).to_have_count(recorded + 1)


def corner_game(night, organizer) -> None:
    """The night's table "Corner": Bob, Cy and Dee, one game the team wins (a single)."""
    table = gen_table(night, name="Corner")
    play(table.id, organizer,
         *({"type": "join", "player": name} for name in ("Bob", "Cy", "Dee")),
         {"type": "order", "players": ["Bob", "Cy", "Dee"]},
         {"type": "result", "winner": "team", "kind": "single"})


@pytest.fixture
def nights(live_server):
    """Friday played through the table commands; next Friday, Bob and Cy at one table."""
    with live_server.app.app_context():
        organizer = gen_member("organizer", name="Olga", username="olga")
        gen_member("player", name="Cy", username="cy")
        friday = play_night(organizer, gen_night(name="Friday", date=dt.date(2026, 11, 20)))
        # The member Cy goes home: one person sits at one open table at a time.
        play(friday["tables"][0], organizer, {"type": "leave", "player": "Cy"})
        following = gen_night(name="Next Friday", date=dt.date(2026, 11, 27))
        corner_game(following, organizer)
        caches.clear_all()
        ids = {"friday": friday["night"], "next": following.id}
        db.session.commit()
        db.session.remove()
    return ids


@pytest.mark.browser
def test_settle_a_night_then_see_the_iou_carried_to_the_next(page: Page, live_server, nights, screenshot):
    base = live_server.url
    sign_in(page, base, "olga")

    # From the night's page to its ledger: players summing to zero, games one tap away.
    page.goto(f"{base}/nights/{nights['friday']}")
    page.get_by_role("link", name="Ledger").click()
    expect(page.get_by_role("heading", name="Ledger: Friday")).to_be_visible()
    ann = page.locator('details.player-ledger[data-player="Ann"]')
    ann.locator("summary").click()
    expect(ann.locator("table")).to_contain_text("the box won (gammon)")
    expect(page.locator(".ledger-row.total")).to_contain_text("€0.00")
    expect(page.locator(".ledger-warning")).to_have_count(0)
    page.set_viewport_size(TABLET)
    screenshot("money-ledger-tablet")

    # Settle up: six transfers. Fay leaves early and is settled alone first.
    page.get_by_role("link", name="Settle up").click()
    expect(page.locator("#night-transfers")).to_contain_text("6 transfers settle the night.")
    page.get_by_role("link", name="Settle Fay now").click()
    panel = page.locator("#leaver-transfers")
    expect(panel).to_contain_text("Fay leaves: -€2.00")
    screenshot("money-settle-leaver-tablet")
    # Her transfers are the night's own (the plan holds): each tick takes one off.
    methods = iter(["cash", "transfer"])
    while panel.locator("li.transfer").count():
        row = panel.locator("li.transfer").first
        tick(page, row.get_attribute("data-payer"), row.get_attribute("data-payee"), next(methods),
             "#leaver-transfers")
    expect(page.locator("#leaver-transfers")).to_have_count(0)
    expect(page.locator("#settle-up tr[data-player='Fay']")).to_contain_text("✔")

    # The rest: Cy gives Bob an IOU (ticked as cash first by mistake, taken back), the others
    # pay in cash or by transfer.
    tick(page, "Cy", "Bob", "cash")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo the last payment").click()
    expect(page.locator("#settle-up .flash-success")).to_contain_text("Taken back: Cy to Bob, €4.00.")
    tick(page, "Cy", "Bob", "iou")
    page.set_viewport_size(PHONE)
    screenshot("money-settle-phone")
    methods = iter(["cash", "transfer"] * 5)
    rows = page.locator("#night-transfers li.transfer")
    while rows.count():
        tick(page, rows.first.get_attribute("data-payer"), rows.first.get_attribute("data-payee"),
             next(methods))
    expect(page.locator("#night-transfers")).to_contain_text("The night is settled.")
    expect(page.locator("#payments")).to_contain_text("IOU")
    page.set_viewport_size(TABLET)
    screenshot("money-settled-tablet")

    # The next night: Cy's IOU to Bob is carried over until paid; pay part of it.
    page.goto(f"{base}/nights/{nights['next']}/settle")
    carried = page.locator("#carried-over")
    expect(carried).to_contain_text("Cy owes Bob")
    expect(carried).to_contain_text("IOU of Friday")
    expect(carried).to_contain_text("€4.00")
    screenshot("money-carried-over-tablet")
    carried.get_by_label("Amount Cy pays off to Bob").fill("1.50")
    carried.get_by_label("How Cy pays off Bob").select_option("cash")
    carried.get_by_role("button", name="Paid off").click()
    expect(page.locator("#flash")).to_contain_text("Cy paid off €1.50 of the IOU to Bob.")
    expect(page.locator("#carried-over")).to_contain_text("€2.50")

    # A refusal keeps the page and says why: more than the IOU.
    page.locator("#carried-over").get_by_label("Amount Cy pays off to Bob").fill("9")
    page.locator("#carried-over").get_by_role("button", name="Paid off").click()
    expect(page.locator("#flash")).to_contain_text("The IOU is only €2.50.")

    # The treasurer's balances: Cy still owes the IOU's rest; the cumulative option agrees.
    page.get_by_role("link", name="Balances").first.click()
    cy = page.locator('#balances tr[data-player="Cy"]')
    expect(cy).to_contain_text("-€2.50")  # the IOU's rest
    expect(cy.locator("td.balance")).to_have_text("-€1.50")  # and tonight's +€1.00 still open
    expect(page.locator("#balances")).to_contain_text("IOUs still standing")
    screenshot("money-balances-tablet")
    page.set_viewport_size(TV)
    screenshot("money-balances-tv")
    page.goto(f"{base}/nights/{nights['next']}/settle")
    page.get_by_role("link", name="All nights (cumulative)").click()
    expect(page.locator("#cumulative")).to_contain_text("Cy")
    screenshot("money-settle-cumulative-tv")

    # Cy signs in on their phone: their own balance and their IOU, nobody else's.
    page.set_viewport_size(PHONE)
    page.get_by_role("button", name="Sign out").click()
    sign_in(page, base, "cy")
    page.goto(f"{base}/account")
    mine = page.locator("#my-balance")
    expect(mine).to_contain_text("Cy owes Bob €2.50 (IOU of Friday).")
    screenshot("money-my-balance-phone")
    page.goto(f"{base}/balances")
    expect(page.locator('tr[data-player="Cy"]')).to_be_visible()
    expect(page.locator('tr[data-player="Ann"]')).to_have_count(0)
    expect(page.get_by_role("button", name="Paid off")).to_have_count(0)
