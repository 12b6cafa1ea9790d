"""Closing a night with a game in progress, in a real browser: the page names the game and
what it waits for and asks for the tick; an admin reopens the night saying why, and the
night's page shows it. Screens: a phone, a tablet, a desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from chouette.extensions import db
from chouette.services import commands, tables
from tests.factories import PASSWORD, gen_member, gen_night, gen_table

SIZES = {"phone": (390, 844), "tablet": (1024, 768), "desktop": (1920, 1080)}


def _sign_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/auth/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("link", name="Sign out").or_(page.get_by_role("button", name="Sign out"))).to_have_count(1)


def _shoot(page: Page, screenshot, name: str) -> None:
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{name} at {width}px scrolls sideways by {overflow}px"
        screenshot(f"{name}-{size}", page)


@pytest.mark.browser
def test_closing_mid_game_asks_first_and_an_admin_reopens_the_night(page: Page, live_server, screenshot):
    with live_server.app.app_context():
        owner = gen_member("organizer", name="Olga")
        admin = gen_member("admin", name="Ada")
        night = gen_night(name="Friday chouette", opened_by_id=owner.id)
        table = gen_table(night, name="Upstairs", created_by_id=owner.id)
        for name in ("Ann", "Bob", "Cy", "Dee"):
            commands.play(table.id, tables.last_seq(table.id), {"type": "join", "player": name}, owner)
        commands.play(table.id, tables.last_seq(table.id), {"type": "order", "players": ["Ann", "Bob", "Cy", "Dee"]},
                      owner)
        commands.play(table.id, tables.last_seq(table.id), {"type": "double", "by": "box", "cubes": ["Cy"]}, owner)
        ids = {"night": night.id, "owner": owner.username, "admin": admin.username}
        db.session.remove()
    base = live_server.url
    _sign_in(page, base, ids["owner"])
    page.goto(f"{base}/nights/{ids['night']}")
    page.get_by_role("link", name="Close the night").click()
    expect(page).to_have_url(f"{base}/nights/{ids['night']}/close")
    expect(page.locator(".games-in-progress")).to_contain_text("Upstairs, game 1: the box's double waits for Cy")
    _shoot(page, screenshot, "night-close-confirm")

    # Without the tick the night stays open and the page says why.
    page.get_by_role("button", name="Close the night").click()
    expect(page.locator("#flash")).to_contain_text("Confirm to close all the same")
    expect(page).to_have_url(f"{base}/nights/{ids['night']}/close")
    page.get_by_label("Close all the same: these games stay unfinished").check()
    page.get_by_role("button", name="Close the night").click()
    expect(page).to_have_url(f"{base}/nights/{ids['night']}")
    expect(page.locator("#night-history")).to_contain_text("Closed by Olga on")
    expect(page.get_by_role("button", name="Reopen the night")).to_have_count(0)

    admin_page = page.context.browser.new_context().new_page()
    _sign_in(admin_page, base, ids["admin"])
    admin_page.goto(f"{base}/nights/{ids['night']}")
    _shoot(admin_page, screenshot, "night-closed-admin")
    admin_page.get_by_label("Why reopen it?").fill("Cy had not answered the double")
    admin_page.get_by_role("button", name="Reopen the night").click()
    expect(admin_page.locator("#flash")).to_contain_text("The night is open again.")
    expect(admin_page.locator(".reopenings")).to_contain_text("by Ada: Cy had not answered the double")
    expect(admin_page.locator(".reopenings")).to_contain_text("it had been closed by Olga on")
    _shoot(admin_page, screenshot, "night-reopened")
    admin_page.context.close()
