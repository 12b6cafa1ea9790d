"""A member hands their cube over from the social panel after the board has moved on.

The social panel is drawn again only when what it shows moves (``services.social.panel_mark``),
not for every roll and move; its "Hand my cube over" form then still holds the seq of its
drawing, and the page sends the live table's seq instead (``data-seq-of``, static/js/live.js):
the hand-over is taken, not refused as made on a stale table. Two devices: the member's phone
and the box's, which plays meanwhile (through the commands, as the box's phone would).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from chouette.extensions import db
from chouette.models import Member
from chouette.services import commands, tables
from tests.browser.conftest import online_table, signed_in_device
from tests.web.test_social import OPENED
from tests.web.test_social_marks import CHECKER_PLAY

PHONE = {"width": 390, "height": 844}


@pytest.mark.browser
def test_a_cube_handed_over_after_rolls_and_moves_is_taken(live_server, browser: Browser):
    app, base = live_server.app, live_server.url
    table = online_table(app, ["Ann", "Bob", "Cy", "Dee"], OPENED)
    url = f"{base}/tables/{table.id}"
    cy = signed_in_device(browser, base, table.logins["Cy"], PHONE, url=url)
    signed_in_device(browser, base, table.logins["Ann"], PHONE, url=url)  # the box's phone, open
    live, form = cy.locator(f"#table-live-{table.id}"), cy.locator("form.hand-over")
    expect(form.get_by_role("button", name="Hand over my cube")).to_be_visible()
    # Both phones connected (each arrival moves the panels): from here only the board moves.
    expect(cy.locator(".presence.is-connected")).to_have_count(2)
    drawn_at = form.locator('input[name="seq"]').get_attribute("value")
    with app.app_context():
        olga = db.session.get(Member, table.organizer_id)
        for event in CHECKER_PLAY:
            commands.play(table.id, tables.last_seq(table.id), event, olga)
        db.session.commit()
        seq = tables.last_seq(table.id)
    expect(live).to_have_attribute("data-seq", str(seq))  # the board followed, by push
    assert form.locator('input[name="seq"]').get_attribute("value") == drawn_at  # the panel did not
    form.get_by_label("Stepping away? Hand my cube to").select_option("Dee")
    form.get_by_role("button", name="Hand over my cube").click()
    expect(cy.locator(".flash-error")).to_have_count(0)
    with app.app_context():
        last = tables.table_events(table.id)[-1]
        assert last.seq == seq + 1 and last.as_dict() == {"type": "proxy", "player": "Cy", "to": "Dee"}
    expect(cy.locator("form.hand-over")).to_have_count(0)  # Cy's cube is Dee's to play now
