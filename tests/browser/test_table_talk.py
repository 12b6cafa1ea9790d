"""A table's talk and seat requests in real browsers (issue 26, items 4 and 5): the box, the
captain and a member of an online table each on their own page; a team message reaches the
captain's page by push (the panel in its stream, no fetch) and never the box's; the pages show who is connected; a member asks to
sit down and the runner admits them from the table page. Screenshots at 390x844, 1024x768 and
1920x1080 go to /tmp/table-talk/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from chouette.extensions import db
from chouette.services import commands, tables
from tests.browser.conftest import signed_in_device
from tests.factories import gen_member, gen_night, gen_table

SHOTS = Path("/tmp/table-talk")
SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 1024, "height": 768},
         "tv": {"width": 1920, "height": 1080}}
PLAYERS = ["Ann", "Bob", "Cy"]


@pytest.mark.browser
def test_team_talk_reaches_the_team_only_and_the_runner_admits_a_seat(
        live_server, browser: Browser):
    app, base = live_server.app, live_server.url
    with app.app_context():
        olga = gen_member("organizer", name="Olga")
        members = {name: gen_member("player", name=name) for name in [*PLAYERS, "Dee"]}
        night = gen_night(opened_by_id=olga.id, name="Friday")
        table_id = gen_table(night, created_by_id=olga.id, name="Online",
                             settings={**tables.TABLE_DEFAULTS, "play": "online"}).id
        for event in ([{"type": "join", "player": n} for n in PLAYERS]
                      + [{"type": "order", "players": PLAYERS},
                         {"type": "opening_roll", "box": 3, "team": 3}]):
            commands.play(table_id, tables.last_seq(table_id), event, olga)
        logins = {"Olga": olga.username, **{n: m.username for n, m in members.items()}}
        dee_id = members["Dee"].id
        db.session.commit()
    url = f"{base}/tables/{table_id}"

    def device(name: str, size: str = "phone") -> Page:
        return signed_in_device(browser, base, logins[name], SIZES[size], url=url)

    box, captain, member = device("Ann"), device("Bob", "tablet"), device("Cy")
    for page in (box, captain, member):
        expect(page.get_by_role("heading", name="Who is here")).to_be_visible()
    # Every seated player's device holds the page open: all three are connected.
    expect(captain.locator(".presence.is-connected")).to_have_count(3)
    expect(member.get_by_role("heading", name="Team talk")).to_be_visible()
    expect(box.get_by_role("heading", name="Team talk")).to_have_count(0)

    # The panels come in their streams: the captain's page fetches none of its own.
    fetched: list[str] = []
    captain.on("request", lambda request: fetched.append(request.url)
               if request.url.endswith(f"/tables/{table_id}/social") else None)
    member.get_by_role("textbox", name="Message").fill("Double now, Bob?")
    member.get_by_role("button", name="Send").click()
    expect(member.locator(".talk-message")).to_contain_text("Double now, Bob?")
    expect(member.get_by_role("textbox", name="Message")).to_have_value("")
    # The captain's page gets it by push, without a reload; the box's never.
    expect(captain.locator(".talk-message")).to_contain_text("Double now, Bob?")
    assert fetched == [], fetched
    box.wait_for_timeout(500)
    assert "Double now" not in box.content()

    # Dee asks to sit down; Olga admits her from the table page.
    dee, olga_page = device("Dee"), device("Olga", "tv")
    dee.get_by_role("button", name="Sit down").click()
    expect(dee.get_by_text("Your request to sit down has gone to the table's organizer.")).to_be_visible()
    expect(olga_page.get_by_role("button", name="Admit Dee")).to_be_visible()
    for size, page in (("phone", member), ("tablet", captain), ("tv", olga_page)):
        SHOTS.mkdir(exist_ok=True)
        page.locator(".table-social").screenshot(path=str(SHOTS / f"talk-{size}.png"))
    for size, viewport in SIZES.items():
        captain.set_viewport_size(viewport)
        captain.screenshot(path=str(SHOTS / f"captain-page-{size}.png"), full_page=True)
        assert captain.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    olga_page.get_by_role("button", name="Admit Dee").click()
    expect(olga_page.get_by_text("Nobody is waiting to sit down.")).to_be_visible()
    expect(olga_page.locator(".presence-list")).to_contain_text("Dee")
    dee.reload()
    expect(dee.get_by_role("button", name="Leave the table")).to_be_visible()
    with app.app_context():
        assert tables.table_log(table_id)[-1] == {"type": "join", "player": "Dee",
                                                  "member_id": dee_id}
