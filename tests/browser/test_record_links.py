"""The record links in a real browser at a phone's, a tablet's and a TV's size: visible, on
the page (no sideways scroll), and each one downloads. Screenshots under test-artifacts/records/."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, expect

from chouette import caches
from chouette.extensions import db
from tests.browser.conftest import ARTIFACTS, signed_in_device
from tests.factories import gen_member, gen_night, gen_table
from tests.scenarios import SCENARIOS
from tests.web.test_exports import write_log

pytestmark = pytest.mark.browser

SIZES = [(390, 844), (1024, 768), (1920, 1080)]


def test_record_links_are_placed_well_and_download(browser: Browser, live_server):
    log = json.loads((SCENARIOS / "04-board-game.json").read_text())
    with live_server.app.app_context():
        owner = gen_member("admin", name="Olga", username="olga")
        night = gen_night()
        table = gen_table(night, name="Table 1", settings=log["table"], created_by_id=owner.id)
        write_log(table.id, log["events"], owner)
        caches.clear_all()
        db.session.commit()
        pages = {"table": (f"/tables/{table.id}", "[id^=table-history] a[href$='.mat?game=1']"),
                 "exports": (f"/nights/{night.id}/exports", "#record-links a[href$='.sgf']"),
                 "player": ("/players/A", "#player-records a[href*='player.mat']")}
    folder = ARTIFACTS / "records"
    folder.mkdir(parents=True, exist_ok=True)
    wide = []
    for width, height in SIZES:
        page = signed_in_device(browser, live_server.url, "olga", {"width": width, "height": height},
                                accept_downloads=True)
        expect(page.get_by_role("heading", name="Hello, Olga")).to_be_visible()
        for name, (path, selector) in pages.items():
            page.goto(f"{live_server.url}{path}")
            link = page.locator(selector).first
            link.scroll_into_view_if_needed()
            expect(link).to_be_visible()
            box = link.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (name, width, box)
            if page.evaluate("document.documentElement.scrollWidth - window.innerWidth") > 0:
                wide.append(f"{name} at {width}")
            page.screenshot(path=str(folder / f"{name}-{width}.png"))
            with page.expect_download() as download:
                link.click()
            assert download.value.suggested_filename.endswith((".mat", ".sgf"))
        page.context.close()
    assert not wide, wide
