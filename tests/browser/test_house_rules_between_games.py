"""House rules changed between games, in a real browser (issue 14 item 3): the organizer opens
the form on the table's page, changes the stake and the Jacoby rule after game 1, and the card
says from which game they apply; during a game the same form is refused with the reason. The
card and the night's score sheet are looked at on a phone, a tablet and a TV."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from chouette.extensions import db
from chouette.models import Member
from chouette.services import commands, tables
from tests.browser.conftest import play_as, sign_in
from tests.factories import gen_member, gen_night, gen_table

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "tablet": (1024, 768), "tv": (1920, 1080)}


def _table(server) -> tuple[int, int]:
    """A table run by "org": Ann box, Bob captain, Cy and Dee in line; game 1 played."""
    with server.app.app_context():
        organizer = gen_member("organizer", username="org", name="Olga")
        night = gen_night(name="Friday", opened_by_id=organizer.id)
        table = gen_table(night, name="Table 1", created_by_id=organizer.id)
        owner = db.session.get(Member, organizer.id)
        for event in [*({"type": "join", "player": p} for p in ("Ann", "Bob", "Cy", "Dee")),
                      {"type": "order", "players": ["Ann", "Bob", "Cy", "Dee"]},
                      {"type": "double", "by": "box", "cubes": ["Bob", "Cy", "Dee"]},
                      {"type": "take", "cube": "Bob"}, {"type": "drop", "cube": "Cy"},
                      {"type": "take", "cube": "Dee"},
                      {"type": "result", "winner": "team", "kind": "single"}]:
            commands.play(table.id, tables.last_seq(table.id), event, owner)
        db.session.commit()
        return night.id, table.id


def test_a_settings_change_between_games_made_in_the_page(live_server, page: Page, screenshot):
    night_id, table_id = _table(live_server)
    sign_in(page, live_server.url, "org")
    page.goto(f"{live_server.url}/tables/{table_id}")
    card = page.locator(f"#rules-card-{table_id}")
    expect(card.locator("[data-setting=stake_cents]")).to_contain_text("€1.00 a point.")
    settings = page.locator(f"#table-settings-{table_id}")
    settings.locator("summary").click()
    expect(settings).to_contain_text("A change applies from game 2 on.")
    settings.locator("input[name='rule-stake_cents']").fill("2.50")
    settings.locator("input[name='rule-jacoby']").check()
    settings.get_by_role("button", name="Change from the next game").click()
    expect(card.locator("[data-setting=stake_cents]")).to_contain_text("€2.50 a point. From game 2.")
    expect(card.locator("[data-setting=jacoby]")).to_contain_text("From game 2.")
    expect(card.locator(".rule-changes")).to_contain_text(
        "From game 2: Stake per point: €2.50 (was €1.00); Jacoby rule: on (was off)")
    expect(page.locator(".recent-log").first).to_contain_text("House rules changed, from the next game")

    # Game 2 starts: the same form is refused with the reason, and nothing changes.
    play_as(live_server.app, "org", table_id, {"type": "double", "by": "box", "cubes": ["Cy"]})
    page.reload()
    settings.locator("summary").click()
    expect(settings).to_contain_text("finish game 2 first")
    settings.locator("input[name='rule-stake_cents']").fill("5")
    settings.get_by_role("button", name="Change from the next game").click()
    expect(page.locator(".live-error")).to_contain_text("the house rules change between games: finish game 2 first")
    expect(card.locator("[data-setting=stake_cents]")).to_contain_text("€2.50 a point.")
    play_as(live_server.app, "org", table_id, {"type": "take", "cube": "Cy"},
          {"type": "result", "winner": "box", "kind": "gammon"})

    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/tables/{table_id}")
        page.locator(f"#table-settings-{table_id} summary").click()
        expect(card).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        screenshot(f"house-rules-card-{size}")
        page.goto(f"{live_server.url}/nights/{night_id}/score-sheet")
        row = page.locator("tr.rules-changed")
        expect(row).to_contain_text("House rules from game 2: Stake per point: €2.50 (was €1.00)")
        expect(page.locator("tr[data-game='1']")).to_contain_text("Cy drops and loses 1")
        screenshot(f"score-sheet-rules-{size}")
