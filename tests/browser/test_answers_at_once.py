"""Four members answer the box's double from their phones at the same moment (docs/rules.md 2.5: each
answer stands on its own), against the live server: every page posts the seq it was drawn at,
the same one (the pages take no update meanwhile: their push and fetches are cut), and every
answer is taken, none refused as stale. A second device of one of them, still showing the
double, then taps Drop: the cube was answered already, and the rules' reason is shown in that
page, on the table as it is now. Screenshots of that page at 390x844, 1024x768 and 1920x1080
go to /tmp.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import Browser, Page, Request, expect

from chouette.extensions import db
from chouette.services import table_states, tables
from tests.browser.conftest import seated_table, signed_in_device

PHONE = {"width": 390, "height": 844}
SIZES = {"phone": PHONE, "tablet": {"width": 1024, "height": 768}, "tv": {"width": 1920, "height": 1080}}
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SHOTS = Path("/tmp/answers-at-once")


@pytest.mark.browser
def test_members_answering_the_same_double_at_once_are_all_taken(live_server, browser: Browser):
    app, base = live_server.app, live_server.url
    table = seated_table(app, PLAYERS, [{"type": "double", "by": "box", "cubes": PLAYERS[1:]}],
                         beavers=True, partner_min_players=9)
    table_id = table.id
    with app.app_context():
        seq = tables.last_seq(table_id)
    url = f"{base}/tables/{table_id}"
    posted: dict[str, list[str]] = {}

    def device(name: str, label: str) -> Page:
        page = signed_in_device(browser, base, table.logins[name], PHONE)
        expect(page.get_by_role("heading", name=f"Hello, {name}")).to_be_visible()
        context = page.context
        # The page takes no update (no push stream, no fetch): it shows the double as drawn
        # at ``seq`` until its own answer brings the table.
        context.route(re.compile(r".*/(stream|live)(\?.*)?$"), lambda route: route.abort())
        page.goto(url)
        expect(page.locator(f"#my-decision-{table_id}")).to_contain_text("Ann doubles you to 2.")

        def note(request: Request) -> None:
            if request.method == "POST" and request.url.endswith("/answer"):
                posted.setdefault(label, []).extend(parse_qs(request.post_data or "").get("seq", []))
        page.on("request", note)
        return page

    phones = {name: device(name, name) for name in PLAYERS[1:]}
    tablet = device("Cy", "Cy's tablet")  # a second device of Cy's, at the same seq
    answers = {"Bob": "Take", "Cy": "Drop", "Dee": "Beaver", "Eve": "Take"}
    for name, answer in answers.items():  # four taps at once: none waits for another's answer
        phones[name].locator(f"#my-decision-{table_id}").get_by_role("button", name=answer).click()
    for name in answers:
        # No answer waits any more (a drop may still be taken back for a few seconds: its own card).
        expect(phones[name].locator(f"#my-decision-{table_id} .decision-cube")).to_have_count(0)
        expect(phones[name].get_by_text("The table changed while you were deciding")).to_have_count(0)
    assert posted == {name: [str(seq)] for name in answers}  # every answer carried the same seq
    assert tablet.locator(f"#table-live-{table_id}").get_attribute("data-seq") == str(seq)
    with app.app_context():
        game = table_states.load_play(table_id).state.game
        db.session.commit()
    assert {name: game.cubes[name].status for name in answers} == {
        "Bob": "live", "Cy": "dropped", "Dee": "live", "Eve": "live"}
    assert game.cubes["Dee"].to_answer == "box"  # Dee's beaver waits for the box

    # Cy's tablet still shows the double (drawn at the same seq): its Take is refused, with
    # the reason, in that page, which now shows the table as it is.
    tablet.locator(f"#my-decision-{table_id}").get_by_role("button", name="Take").click()
    alert = tablet.locator(f"#table-live-{table_id} .live-error")
    expect(alert).to_contain_text("Cy's cube has already been answered")
    expect(tablet.locator(f"#my-decision-{table_id}")).to_have_count(0)
    expect(tablet.locator(f"#table-live-{table_id}")).to_have_attribute("data-seq", str(seq + 4))
    SHOTS.mkdir(exist_ok=True)
    for label, size in SIZES.items():
        tablet.set_viewport_size(size)
        assert tablet.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        tablet.screenshot(path=str(SHOTS / f"refused-{label}.png"))
    with app.app_context():
        assert tables.last_seq(table_id) == seq + 4
        db.session.commit()
