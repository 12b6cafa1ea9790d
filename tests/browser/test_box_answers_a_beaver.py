"""The box answers a beaver at once, before the other members answer its double (docs/rules.md 2.5)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from chouette.services import commands, tables
from tests.factories import PASSWORD, gen_member, gen_night, gen_table


@pytest.mark.browser
@pytest.mark.parametrize("size", [(390, 844), (1024, 768), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_box_answers_a_beaver_while_another_member_is_still_to_answer(page: Page, live_server,
                                                                      screenshot, size):
    with live_server.app.app_context():
        owner = gen_member("organizer", name="Olga")
        night = gen_night(opened_by_id=owner.id)
        table = gen_table(night, created_by_id=owner.id,
                          settings={**tables.TABLE_DEFAULTS, "beavers": True})
        events = [*({"type": "join", "player": p} for p in ("Ann", "Bob", "Cy", "Dee")),
                  {"type": "order", "players": ["Ann", "Bob", "Cy", "Dee"]},
                  {"type": "double", "by": "box", "cubes": ["Bob", "Cy"]},
                  {"type": "beaver", "cube": "Bob"}]
        for event in events:
            commands.play(table.id, tables.last_seq(table.id), event, owner)
        table_id, username = table.id, owner.username
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{live_server.url}/auth/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{live_server.url}/tables/{table_id}")

    bob = page.locator('.cube-row[data-member="Bob"]')
    cy = page.locator('.cube-row[data-member="Cy"]')
    # Bob's beaver waits for the box, Cy's answer for Cy: both rows offer their answers.
    expect(bob).to_have_class(re.compile("waiting"))
    expect(bob.get_by_role("button", name="Take")).to_be_visible()
    expect(cy.get_by_role("button", name="Beaver")).to_be_visible()
    screenshot(f"box-answers-beaver-{size[0]}x{size[1]}")
    bob.get_by_role("button", name="Take").click()
    expect(page.locator('.cube-row[data-member="Bob"] .cube-value')).to_have_text("4")
    expect(page.locator('.cube-row[data-member="Cy"]').get_by_role("button", name="Take")).to_be_visible()
    screenshot(f"box-took-beaver-{size[0]}x{size[1]}")
