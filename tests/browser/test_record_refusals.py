"""A record link in a real browser: a table whose house rules changed downloads its file; a
record that cannot be made shows the page that says why (never a redirect saved as the file).
Screenshots under test-artifacts/records/ at a phone's, a tablet's and a TV's size."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from chouette import caches
from chouette.extensions import db
from chouette.models import TableEvent, utcnow
from tests.browser.conftest import ARTIFACTS, signed_in_device
from tests.factories import gen_member, gen_night, gen_table
from tests.records.games import club_night_log
from tests.web.test_exports import write_log

pytestmark = pytest.mark.browser

SIZES = [(390, 844), (1024, 768), (1920, 1080)]


def _tables(live_server) -> tuple[int, int, int]:
    """Two tables of one closed night with the same log (its house rules changed); the second's
    log then gets an event the rules refuse (as an old imported log may hold). Closed: an open
    night's tables are folded by the home page too."""
    log = club_night_log(1)
    with live_server.app.app_context():
        owner = gen_member("admin", name="Olga", username="olga")
        night = gen_night()
        good = gen_table(night, name="Table 1", settings=log["table"], created_by_id=owner.id)
        bad = gen_table(night, name="Table 2", settings=log["table"], created_by_id=owner.id)
        for table in (good, bad):
            write_log(table.id, log["events"], owner)
        db.session.add(TableEvent(table_id=bad.id, seq=len(log["events"]) + 1, type="settings",
                                  payload={"settings": {"jacoby": True}}))
        night.closed_at = utcnow()
        caches.clear_all()
        db.session.commit()
        return night.id, good.id, bad.id


def test_a_record_link_downloads_after_a_change_of_rules_and_a_refusal_says_why(browser: Browser, live_server):
    night, good, bad = _tables(live_server)
    folder = ARTIFACTS / "records"
    folder.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        page = signed_in_device(browser, live_server.url, "olga", {"width": width, "height": height},
                                accept_downloads=True)
        expect(page.get_by_role("heading", name="Hello, Olga")).to_be_visible()
        page.goto(f"{live_server.url}/nights/{night}/exports")
        with page.expect_download() as download:
            page.locator(f"a[href$='/records/tables/{good}.sgf']").click()
        assert download.value.suggested_filename == f"table-{good}-games.sgf"
        assert download.value.failure() is None
        assert download.value.path().read_text().startswith("(;FF[4]GM[6]")
        page.locator(f"a[href$='/records/tables/{bad}.sgf']").click()
        expect(page.get_by_role("heading", name="Error 422")).to_be_visible()
        expect(page.get_by_text("The game records of table “Table 2” cannot be made")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        page.screenshot(path=str(folder / f"refused-{width}.png"))
        page.context.close()
