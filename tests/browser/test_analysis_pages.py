"""The player's analysis page in a real browser on a phone, a tablet and a TV: the rates, the
trend chart, the night's table and its worst positions drawn on the board (real gnubg)."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import update

from chouette.analysis import runner
from chouette.extensions import db
from chouette.models import Member
from chouette.services import tables
from tests.analysis.night import analysed_night
from tests.browser.conftest import OFF_SITE, sign_in

pytestmark = [
    pytest.mark.browser, pytest.mark.gnubg,
    pytest.mark.skipif(not runner.available() and not os.environ.get("CI"),
                       reason="GNU Backgammon (gnubg) is not installed"),
]

SIZES = {"phone": (390, 844), "tablet": (1024, 768), "tv": (1920, 1080)}


def _no_sideways_scroll(page: Page, size: str) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{size}: the page scrolls sideways by {overflow}px"


def test_the_players_analysis_page_on_a_phone_a_tablet_and_a_tv(live_server, page: Page, screenshot):
    with live_server.app.app_context():
        night_id = analysed_night()
        db.session.remove()
    sign_in(page, live_server.url, "ann")
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


TEXTS = {
    "en": {"worst": "The worst five of the night", "cubes": "Cubes"},
    "it": {"worst": "Le cinque peggiori della serata", "cubes": "Cubi"},
}


def _last_seq(server) -> int:
    with server.app.app_context():
        try:
            return tables.last_seq(1)
        finally:
            db.session.remove()


def _device(browser: Browser, server, username: str, width: int, height: int) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.route(OFF_SITE, lambda route: route.abort())
    context.set_default_timeout(10_000)
    page = context.new_page()
    sign_in(page, server.url, username)
    return page


@pytest.mark.parametrize(("language", "viewer"), [("en", "bob"), ("it", "olga")])
def test_the_worst_five_with_every_cube_while_a_tablet_plays_on(live_server, browser: Browser, screenshot,
                                                                 language, viewer):
    """The night's analysis on a phone, a tablet and a TV, in English (Bob: Bob's own) and in
    Italian (the organizer: everyone's), while the organizer's tablet starts the next game at
    the table: the worst positions draw each member's cube beside the board, with their
    Position ID and XGID, and nothing scrolls sideways."""
    with live_server.app.app_context():
        night_id = analysed_night()
        db.session.execute(update(Member).values(locale=language))
        db.session.commit()
        db.session.remove()
    base, texts = live_server.url, TEXTS[language]
    tablet = _device(browser, live_server, "olga", 1024, 768)
    tablet.goto(f"{base}/tables/1")
    viewing = _device(browser, live_server, viewer, 390, 844)
    for size, (width, height) in SIZES.items():
        viewing.set_viewport_size({"width": width, "height": height})
        viewing.goto(f"{base}/analysis/nights/{night_id}")
        expect(viewing.get_by_role("heading", name=texts["worst"])).to_be_visible()
        cards = viewing.locator(".analysis-position")
        for index in range(cards.count()):
            card = cards.nth(index)
            expect(card.locator(f"ul.board-cubes[aria-label={texts['cubes']}] li")).to_have_count(2)
            expect(card.locator("svg.board").first).to_be_attached()
            expect(card.locator(".ids")).to_contain_text("Position ID:")
            expect(card.locator(".ids")).to_contain_text("XGID=")
            if viewer == "bob":
                expect(card.locator("h3")).to_contain_text("Bob:")
        screenshot(f"analysis-worst-{language}-{size}", viewing)
        _no_sideways_scroll(viewing, size)
        if size == "phone":
            # Meanwhile the tablet scores the next game at the table (the box wins a single,
            # off the board): the analysis stands.
            before = _last_seq(live_server)
            tablet.locator("form[action$='/result']:has(input[name=winner][value=box]):has("
                           "input[name=kind][value=single]) button").first.click()
            for _ in range(50):
                if _last_seq(live_server) > before:
                    break
                tablet.wait_for_timeout(100)
            assert _last_seq(live_server) > before
    if viewer == "olga":
        expect(viewing.locator(".analysis-position")).to_have_count(5)
