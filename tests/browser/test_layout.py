"""Every page at a phone's, a tablet's and a TV's size: nothing scrolls sideways, and nothing
breaks the Content-Security-Policy (no inline script or style, no eval).

A night with a table in the middle of a board game, a finished game, a season: every HTML page
an organizer (and a player) can open, at 390x844, 1024x768 and 1920x1080. Screenshots of each
are kept under test-artifacts/layout/.
"""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import Browser, expect

from chouette.extensions import db
from chouette.models import Member
from chouette.services import commands, seasons
from chouette.services import tables as tables_service
from tests.browser.conftest import ARTIFACTS, OFF_SITE
from tests.factories import PASSWORD, gen_member, gen_night, gen_table

pytestmark = pytest.mark.browser

SIZES = [(390, 844), (1024, 768), (1920, 1080)]


def _night(server) -> dict[str, str]:
    """A night with two tables: one finished game, then a board game in progress."""
    app = server.app
    with app.app_context():
        owner = gen_member("admin", name="Olga", username="olga")
        for name in ("Ann", "Bob", "Cy", "Dee"):
            gen_member("player", name=name)
        night = gen_night(opened_by_id=owner.id, date=dt.date(2026, 11, 21))
        tables = [gen_table(night, created_by_id=owner.id, name=f"Table {n}",
                            settings=dict(tables_service.TABLE_DEFAULTS)) for n in (1, 2)]
        actor = db.session.get(Member, owner.id)
        for table, names in zip(tables, (["Ann", "Bob", "Cy", "Dee"], ["Eve", "Finn", "Gus"]), strict=True):
            events = [*({"type": "join", "player": n} for n in names), {"type": "order", "players": names},
                      {"type": "double", "by": "box", "cubes": [names[2]]}, {"type": "take", "cube": names[2]},
                      {"type": "result", "winner": "team", "kind": "gammon"},
                      {"type": "opening_roll", "box": 6, "team": 1}]
            for event in events:
                commands.play(table.id, tables_service.last_seq(table.id), event, actor)
        season = seasons.create_season(name="Autumn", first=dt.date(2026, 9, 1),
                                        last=dt.date(2026, 12, 31), currency="EUR", actor=actor)
        db.session.commit()
        night_id, table_id, season_id, member_id = night.id, tables[0].id, season.id, owner.id
    return {
        "home": "/", "account": "/account", "members": "/admin/members",
        "member": f"/admin/members/{member_id}", "balances": "/balances", "display": "/display",
        "night display": f"/display/{night_id}", "nights": "/nights/", "night": f"/nights/{night_id}",
        "exports": f"/nights/{night_id}/exports", "ledger": f"/nights/{night_id}/ledger",
        "score sheet": f"/nights/{night_id}/score-sheet", "settle up": f"/nights/{night_id}/settle",
        "new table": f"/nights/{night_id}/tables/new", "import": "/nights/import",
        "new night": "/nights/new", "players": "/players/", "player": "/players/Ann",
        "seasons": "/seasons/", "season": f"/seasons/{season_id}", "new season": "/seasons/new",
        "table": f"/tables/{table_id}", "rules": f"/tables/{table_id}/rules",
        "position": f"/tables/{table_id}/position?position_id=4HPwATDgc/ABMA",
    }


def test_no_page_scrolls_sideways_or_breaks_the_csp_on_a_phone_a_tablet_or_a_tv(browser: Browser, live_server):
    pages = _night(live_server)
    folder = ARTIFACTS / "layout"
    folder.mkdir(parents=True, exist_ok=True)
    wide: list[str] = []
    refused: list[str] = []
    for width, height in SIZES:
        context = browser.new_context(viewport={"width": width, "height": height})
        context.route(OFF_SITE, lambda route: route.abort())
        page = context.new_page()
        page.on("console", lambda message, page=page: refused.append(f"{page.url}: {message.text}")
                if "Content Security Policy" in message.text else None)
        page.goto(f"{live_server.url}/auth/login")
        page.get_by_label("Username").fill("olga")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        expect(page.get_by_role("heading", name="Hello, Olga")).to_be_visible()
        for name, path in pages.items():
            response = page.goto(f"{live_server.url}{path}")
            assert response is not None and response.status == 200, (name, path, response and response.status)
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            if overflow > 0:
                wide.append(f"{name} ({path}) at {width}x{height}: {overflow} px too wide")
            page.screenshot(path=str(folder / f"{name.replace(' ', '-')}-{width}.png"))
        context.close()
    assert not wide, "\n".join(wide)
    assert not refused, "\n".join(refused)
