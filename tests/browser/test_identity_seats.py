"""One person, one member, in a real browser (issue 12, finding 2): the organizer types
"marco" at the table Red while the member Marco sits at Blue; the table says why Marco is not
seated, naming Blue, and seats nobody. Once Marco has left Blue, typing "marco" seats the
member Marco. Screens: a phone, a tablet, a desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from chouette.extensions import db
from chouette.services import commands, members, table_states, tables
from tests.browser.test_night_close import _shoot, _sign_in
from tests.factories import gen_member, gen_night, gen_table


@pytest.mark.browser
def test_typing_a_members_name_at_a_second_table_names_the_first(page: Page, live_server, screenshot):
    with live_server.app.app_context():
        owner = gen_member("organizer", name="Olga")
        gen_member("player", name="Marco", username="marco")
        night = gen_night(name="Friday chouette", opened_by_id=owner.id)
        blue = gen_table(night, name="Blue", created_by_id=owner.id)
        red = gen_table(night, name="Red", created_by_id=owner.id)
        commands.play(blue.id, 0, {"type": "join", "player": "Marco"}, owner)
        ids = {"blue": blue.id, "red": red.id, "owner": owner.username}
        db.session.remove()
    base = live_server.url
    _sign_in(page, base, ids["owner"])
    page.goto(f"{base}/tables/{ids['red']}")
    page.get_by_label("Name (a member or a guest)").fill("marco")
    page.get_by_role("button", name="Sit down").click()
    expect(page.locator(".live-error")).to_contain_text(
        "Marco already sits at the table Blue of Friday chouette")
    _shoot(page, screenshot, "identity-two-tables")
    with live_server.app.app_context():
        assert tables.last_seq(ids["red"]) == 0
        commands.play(ids["blue"], 1, {"type": "leave", "player": "Marco"},
                      db.session.get(members.Member, 1))
        db.session.remove()
    page.goto(f"{base}/tables/{ids['red']}")
    page.get_by_label("Name (a member or a guest)").fill("marco")
    page.get_by_role("button", name="Sit down").click()
    expect(page.locator("#table-live, main").first).to_contain_text("Marco")
    with live_server.app.app_context():
        assert table_states.load_play(ids["red"]).state.players == ["Marco"]
        db.session.remove()
