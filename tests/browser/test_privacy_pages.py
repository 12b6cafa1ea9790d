"""Money is private by default, in a real browser: the pages a player who did not play reads
(the table without its money, another member's page, their own season row, the refused ledger)
and the big screen with the money hidden, on a phone, a tablet and a TV."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import Page, expect

from chouette import caches
from chouette.extensions import db
from chouette.services import seasons
from tests.browser.conftest import sign_in
from tests.browser.test_display import CLUB
from tests.browser.test_player_pages import SIZES
from tests.factories import gen_member, gen_night, gen_table
from tests.web.test_display import busy_table

pytestmark = pytest.mark.browser


def _club(server) -> dict[str, int]:
    """An open night of two tables of eight with a few games each, a season over it, and Eve,
    a member who did not play."""
    with server.app.app_context():
        organizer = gen_member("organizer", username="org", name="Olga")
        gen_member("player", username="eve", name="Eve")
        gen_member("player", username="carlo", name="Carlo")
        night = gen_night(name="Friday chouette", date=dt.date(2026, 11, 20))
        tables = [gen_table(night, name=f"Table {n}").id for n in (1, 2)]
        busy_table(tables[0], organizer, CLUB[0], 4)
        busy_table(tables[1], organizer, CLUB[1], 3)
        season = seasons.create_season(name="Autumn", first=dt.date(2026, 11, 1),
                                         last=dt.date(2026, 11, 30), currency="EUR", actor=organizer)
        caches.clear_all()
        db.session.commit()
        return {"night": night.id, "table": tables[0], "season": season.id}


def _fits(page: Page, size: str) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{size}: the page scrolls sideways by {overflow}px"


def test_a_player_who_did_not_play_reads_the_night_without_its_money(live_server, page: Page, screenshot):
    ids = _club(live_server)
    sign_in(page, live_server.url, "eve")
    url = live_server.url
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{url}/tables/{ids['table']}")
        seats = page.locator(".seat-table")
        expect(seats).to_contain_text("Alessandro")
        expect(seats.locator("th")).to_have_text(["Seat", "Player", "Points"])
        expect(page.locator(".history-table")).not_to_contain_text("€")
        _fits(page, size)
        screenshot(f"privacy-table-without-money-{size}")
        page.goto(f"{url}/players/Carlo")
        expect(page.locator("#money-private")).to_be_visible()
        expect(page.locator("#balance-chart")).to_have_count(0)
        _fits(page, size)
        screenshot(f"privacy-other-player-{size}")
        page.goto(f"{url}/nights/{ids['night']}")
        expect(page.locator(".money-links")).not_to_contain_text("Ledger")
        _fits(page, size)
        screenshot(f"privacy-night-{size}")
        page.goto(f"{url}/nights/{ids['night']}/ledger")
        expect(page.locator("main")).to_contain_text("Only the players of this night and the organizers see its money.")
        screenshot(f"privacy-ledger-refused-{size}")


def test_a_player_reads_their_own_row_of_the_season(live_server, page: Page, screenshot):
    ids = _club(live_server)
    sign_in(page, live_server.url, "carlo")
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/seasons/{ids['season']}")
        expect(page.locator("#season-standings tbody tr")).to_have_count(1)
        expect(page.locator("#season-standings tbody tr")).to_have_attribute("data-player", "Carlo")
        expect(page.locator("#season-private")).to_be_visible()
        _fits(page, size)
        screenshot(f"privacy-season-own-row-{size}")


def test_the_big_screen_with_the_money_hidden(live_server, page: Page, screenshot):
    live_server.app.config["DISPLAY_MONEY"] = False
    ids = _club(live_server)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/display/{ids['night']}")
        expect(page.locator(".display-table")).to_have_count(2)
        expect(page.locator(".dt-money")).to_have_count(0)
        expect(page.locator(".display-table tbody tr").first.locator("td.dt-points")).to_have_count(1)
        expect(page.locator(".dt-seats thead th")).to_have_count(8)  # seat, player, cube, points
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        if size == "tv":  # the TV shows both tables whole, without scrolling
            assert page.evaluate("document.documentElement.scrollHeight <= innerHeight")
        screenshot(f"privacy-display-no-money-{size}")
