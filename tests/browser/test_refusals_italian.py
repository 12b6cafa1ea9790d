"""An Italian organizer's illegal move on the live table, in a real browser: the rules' refusal
is shown in Italian where the move was typed, and nothing is written."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from chouette import caches
from chouette.extensions import db
from chouette.models import Member
from chouette.services import commands, tables
from tests.factories import PASSWORD, gen_member, gen_night, gen_table


@pytest.mark.browser
def test_an_illegal_move_typed_on_the_board_is_refused_in_italian(page: Page, live_server, screenshot):
    app = live_server.app
    caches.clear_all(app)
    with app.app_context():
        organizer = gen_member("organizer", name="Olga", locale="it")
        night = gen_night(opened_by_id=organizer.id)
        table = gen_table(night, created_by_id=organizer.id, settings=dict(tables.TABLE_DEFAULTS))
        owner = db.session.get(Member, organizer.id)
        names = ["Anna", "Bruno", "Carla"]
        for event in [*({"type": "join", "player": n} for n in names), {"type": "order", "players": names},
                      {"type": "opening_roll", "box": 3, "team": 1}]:
            commands.play(table.id, tables.last_seq(table.id), event, owner)
        db.session.commit()
        before = tables.table_log(table.id)
        username, table_id = organizer.username, table.id
    base = live_server.url
    page.goto(f"{base}/auth/login")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form button[type=submit]").click()
    page.goto(f"{base}/tables/{table_id}")
    page.locator("input[name=move]").fill("24/18 13/8")
    expect(page.locator("button[data-board-play]")).to_have_text("Conferma")  # the play's Confirm
    page.locator("button[data-board-play]").click()
    alert = page.locator(f"#table-live-{table_id} [role=alert]").first
    expect(alert).to_contain_text("24/18 13/8 non si può giocare con 3-1")
    expect(alert).to_contain_text("la mossa copre 11 pip ma 3-1 ne dà 4")
    expect(page.locator("input[name=move]")).to_have_value("24/18 13/8")
    screenshot("illegal-move-in-italian")
    with app.app_context():
        assert tables.table_log(table_id) == before
