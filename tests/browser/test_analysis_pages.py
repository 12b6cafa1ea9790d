"""The player's analysis page in a real browser on a phone, a tablet and a TV: the rates, the
trend chart, the night's table and its worst positions drawn on the board (real gnubg)."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page, expect

from chouette.analysis import runner
from chouette.extensions import db
from tests.analysis.night import analysed_night
from tests.factories import PASSWORD

pytestmark = [
    pytest.mark.browser, pytest.mark.gnubg,
    pytest.mark.skipif(not runner.available() and not os.environ.get("CI"),
                       reason="GNU Backgammon (gnubg) is not installed"),
]

SIZES = {"phone": (390, 844), "tablet": (1024, 768), "tv": (1920, 1080)}


def _sign_in(page: Page, server, username: str) -> None:
    page.goto(f"{server.url}/auth/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{server.url}/")


def _no_sideways_scroll(page: Page, size: str) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{size}: the page scrolls sideways by {overflow}px"


def test_the_players_analysis_page_on_a_phone_a_tablet_and_a_tv(live_server, page: Page, screenshot):
    with live_server.app.app_context():
        night_id = analysed_night()
        db.session.remove()
    _sign_in(page, live_server, "ann")
    page.goto(f"{live_server.url}/players/Ann")
    page.click("#player-analysis a")
    expect(page.locator("h1")).to_contain_text("Ann")
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/analysis/players/Ann")
        expect(page.locator(".stat-value").first).to_be_visible()
        chart = page.locator("#analysis-trend")
        expect(chart).to_be_visible()
        box = chart.bounding_box()
        assert box and box["width"] > width * 0.6, size
        screenshot(f"analysis-player-{size}")
        _no_sideways_scroll(page, size)
        page.goto(f"{live_server.url}/analysis/nights/{night_id}")
        expect(page.locator("#analysis-players")).to_contain_text("Ann")
        screenshot(f"analysis-night-{size}")
        _no_sideways_scroll(page, size)
    # Sorting by a column is a link: the table comes back sorted, the column marked.
    page.click("#analysis-players th >> text=Player")
    expect(page.locator("#analysis-players th[aria-sort=ascending]")).to_contain_text("Player")
