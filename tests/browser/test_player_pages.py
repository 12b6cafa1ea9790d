"""The player page and the night's exports in a real browser: the chart drawn on a phone, a
tablet and a TV, the score sheet printed, and a night imported through the upload form."""

from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import Page, expect

from chouette.extensions import db
from chouette.services import exports, table_states, tables
from chouette.table import fold, new_table
from chouette.table.simulate import random_night
from tests.browser.conftest import sign_in
from tests.factories import gen_member, gen_night, gen_table

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "tablet": (1024, 768), "tv": (1920, 1080)}


def _fill(server) -> int:
    """Three nights of random games for five players; returns the last night's id."""
    rng = random.Random(11)
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    with server.app.app_context():
        organizer = gen_member("organizer", username="org", name="Olga")
        gen_member("player", username="ann", name="Ann")
        night_id = 0
        for day in (7, 14, 21):
            night = gen_night(name=f"Friday {day}", date=__import__("datetime").date(2026, 11, day))
            for number in (1, 2):
                table = gen_table(night, name=f"Table {number}",
                                  settings={**tables.TABLE_DEFAULTS, "beavers": True})
                _state, events = random_night({"beavers": True}, names, 12, rng.choice,
                                              lambda: rng.randint(1, 6))
                settings = table.settings
                rows = table_states.ledger_changes(new_table(settings), fold(settings, events))
                tables.append_events(table.id, 0, events, organizer, rows)
            night_id = night.id
        db.session.commit()
        return night_id


def test_player_page_and_its_chart_on_a_phone_a_tablet_and_a_tv(live_server, page: Page, screenshot):
    _fill(live_server)
    sign_in(page, live_server.url, "ann")
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/players/Ann")
        chart = page.locator("#balance-chart")
        expect(chart).to_be_visible()
        box = chart.bounding_box()
        assert box and box["width"] > width * 0.6, size
        # Nothing wider than the screen but the tables that scroll on their own.
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        screenshot(f"player-page-{size}")
        assert overflow <= 0, f"{size}: the page scrolls sideways by {overflow}px"
    expect(page.locator("#seat-box")).to_contain_text("Box")


def test_score_sheet_prints_and_a_night_is_imported_through_the_form(live_server, page: Page, screenshot, tmp_path):
    night_id = _fill(live_server)
    sign_in(page, live_server.url, "org")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/nights/{night_id}/exports")
    screenshot("exports-page")
    page.click("text=Printable sheet")
    expect(page.locator(".sheet")).to_have_count(2)
    screenshot("score-sheet-tablet")
    page.emulate_media(media="print")
    expect(page.locator(".topbar")).to_be_hidden()
    screenshot("score-sheet-print")
    page.emulate_media(media="screen")
    with live_server.app.app_context():
        export = exports.night_export(night_id)
    path = tmp_path / "night.json"
    path.write_text(json.dumps(export))
    page.goto(f"{live_server.url}/nights/import")
    page.set_input_files("input[type=file]", str(path))
    page.click("button:has-text('Import')")
    page.wait_for_url(f"{live_server.url}/nights/{night_id + 1}")
    expect(page.locator("#flash")).to_contain_text("imported with 2 tables")
    # A refused file: the reason on the form, nothing written.
    path.write_text('{"night": {"name": "x", "date": "2026-11-21"}, "tables": [{"name": "T", "events": [{"type": "take", "cube": "Ann"}]}]}')
    page.goto(f"{live_server.url}/nights/import")
    page.set_input_files("input[type=file]", str(path))
    page.click("button:has-text('Import')")
    expect(page.locator("#import-form .form-errors")).to_contain_text("event 1 (take)")
    screenshot("import-refused")
