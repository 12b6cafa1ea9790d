from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from chouette.extensions import db
from chouette.services import commands, tables
from tests.browser.conftest import OFF_SITE
from tests.factories import PASSWORD, gen_member, gen_night, gen_table

SIZES = {"390": {"width": 390, "height": 844}, "1024": {"width": 1024, "height": 768},
         "1920": {"width": 1920, "height": 1080}}


@pytest.mark.browser
def test_shots(live_server, browser: Browser):
    app, base = live_server.app, live_server.url
    with app.app_context():
        olga = gen_member("organizer", name="Olga")
        night = gen_night(opened_by_id=olga.id, name="Friday")
        night_id = night.id
        t1 = gen_table(night, created_by_id=olga.id, name="Upstairs",
                       settings={**tables.TABLE_DEFAULTS, "stake_cents": 250, "extras": True}).id
        t2 = gen_table(night, created_by_id=olga.id, name="Single",
                       settings={**tables.TABLE_DEFAULTS, "cube_mode": "single"}).id
        for event in ([{"type": "join", "player": n} for n in ["Dan", "Eve", "Fay", "Gus"]]
                      + [{"type": "order", "players": ["Dan", "Eve", "Fay", "Gus"]},
                         {"type": "result", "winner": "team", "kind": "single"},
                         {"type": "double", "by": "box", "cubes": ["Fay", "Gus", "Dan"]},
                         {"type": "take", "cube": "Fay"}, {"type": "take", "cube": "Gus"},
                         {"type": "take", "cube": "Dan"},
                         {"type": "deal", "cube": "Gus", "winner": "member", "points": 1.5},
                         {"type": "deal", "cube": "Dan", "winner": "box", "points": 1},
                         {"type": "result", "winner": "box", "kind": "single"},
                         {"type": "settings", "settings": {"stake_cents": 300}}]):
            commands.play(t1, tables.last_seq(t1), event, olga)
        login = olga.username
        db.session.commit()
    context = browser.new_context(viewport=SIZES["1024"])
    context.route(OFF_SITE, lambda route: route.abort())
    page = context.new_page()
    page.goto(f"{base}/auth/login")
    page.get_by_label("Username").fill(login)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Hello, Olga")).to_be_visible()
    pages = {"night": f"/nights/{night_id}", "ledger": f"/nights/{night_id}/ledger",
             "sheet": f"/nights/{night_id}/score-sheet", "rules1": f"/tables/{t1}/rules",
             "rules2": f"/tables/{t2}/rules", "table": f"/tables/{t1}", "player": "/players/Gus"}
    for name, url in pages.items():
        for label, size in SIZES.items():
            page.set_viewport_size(size)
            page.goto(base + url)
            page.screenshot(path=f"/tmp/shots/{name}-{label}.png", full_page=True)
