"""A player's drop tapped by mistake, taken back from the phone within a few seconds (issue
25), while the organizer's tablet watches the same table."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from chouette.extensions import db
from chouette.models import Member
from chouette.services import commands, tables
from tests.browser.conftest import sign_in
from tests.factories import gen_member, gen_night, gen_table

pytestmark = pytest.mark.browser


def _table(server) -> int:
    with server.app.app_context():
        organizer = gen_member("organizer", username="org", name="Olga")
        for name in ("Ann", "Bob", "Cy"):
            gen_member("player", username=name.lower(), name=name)
        night = gen_night(name="Friday", opened_by_id=organizer.id)
        table_id = gen_table(night, name="Table 1", created_by_id=organizer.id).id
        owner = db.session.get(Member, organizer.id)
        for event in [*({"type": "join", "player": p} for p in ("Ann", "Bob", "Cy")),
                      {"type": "order", "players": ["Ann", "Bob", "Cy"]},
                      {"type": "double", "by": "box"}]:
            commands.play(table_id, tables.last_seq(table_id), event, owner)
        db.session.commit()
    return table_id


def test_a_drop_taken_back_from_the_phone(live_server, browser, screenshot):
    table_id = _table(live_server)
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    tablet = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    sign_in(phone, live_server.url, "cy")
    sign_in(tablet, live_server.url, "org")
    phone.goto(f"{live_server.url}/tables/{table_id}")
    tablet.goto(f"{live_server.url}/tables/{table_id}")
    decision = phone.locator(".my-decision")
    decision.get_by_role("button", name="Drop").click()
    take_back = phone.get_by_role("button", name="Take back my drop")
    expect(take_back).to_be_visible()
    expect(tablet.locator(".cube-row[data-member='Cy']")).to_contain_text("dropped")
    screenshot("take-back-phone", phone)
    take_back.click()
    expect(decision.get_by_role("button", name="Take")).to_be_visible()
    expect(phone.get_by_role("button", name="Take back my drop")).to_have_count(0)
    expect(tablet.locator(".cube-row[data-member='Cy']")).not_to_contain_text("dropped")
