"""Every page a club uses passes axe-core, at a phone's, a tablet's and a TV's size.

The first-run page is checked on the empty database; then the live server holds the demo night
(``chouette.demo.build_demo``: three tables, score-sheet games, a board game in progress with a
double waiting) and a season. The admin visits every page (the signed-out pages first); the
organizer and a member whose answer waits see their own pages. axe-core runs in the page (the
package bundles axe.min.js: no network); a failure lists each violation's rule, impact, elements
and help. Each page is loaded once and checked at the three sizes in turn.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from chouette.demo import DEMO_PASSWORD, DemoNight, build_demo
from chouette.extensions import db
from chouette.models import Member
from chouette.services import account_links
from chouette.services import seasons as seasons_service
from tests.browser.conftest import LiveServer

pytestmark = pytest.mark.browser

SIZES = [(390, 844), (1024, 768), (1920, 1080)]
AXE = Axe()


def build_night(server: LiveServer) -> tuple[DemoNight, int, int]:
    """The demo night and a season holding it; the season's id and the admin's member id."""
    with server.app.app_context():
        demo = build_demo(today=dt.date.today())
        olga = db.session.scalar(db.select(Member).filter_by(username="olga"))
        ada = db.session.scalar(db.select(Member).filter_by(username="ada"))
        today = dt.date.today()
        season = seasons_service.create_season(name="Autumn", first=today - dt.timedelta(days=30),
                                               last=today + dt.timedelta(days=30), currency="EUR",
                                               actor=olga)
        db.session.commit()
        return demo, season.id, ada.id


def sign_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/auth/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/auth/login" not in url)


def violations_at_every_size(page: Page, url: str) -> list[tuple[str, list[dict[str, Any]]]]:
    """axe-core's violations on the page at ``url`` at each size: loaded once, then the
    viewport set to each size in turn (the layout follows the width through CSS), axe-core
    injected once and run at each."""
    page.goto(url)
    page.wait_for_load_state("load")
    found = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => new Promise(requestAnimationFrame)")  # the layout at this width
        if page.evaluate("typeof axe === 'undefined'"):
            page.evaluate(AXE.axe_script)
        response = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        found.append((f"{width}x{height}", list(response["violations"])))
    return found


def describe(where: str, violations: list[dict[str, Any]]) -> list[str]:
    """One readable line per violation and element."""
    lines = []
    for violation in violations:
        for node in violation["nodes"]:
            lines.append(f"{where}: {violation['id']} ({violation['impact']}) {node['target']} "
                         f"- {violation['help']}: {node.get('failureSummary', '').splitlines()[-1:]}")
    return lines


def test_every_page_passes_axe_at_every_size(live_server: LiveServer, page: Page) -> None:
    demo, season_id, admin_id = build_night(live_server)
    base = live_server.url
    night = demo.night_id
    sheet_table = demo.tables["Upstairs"]
    board_table = demo.live_table
    signed_out = ["/auth/login"]
    signed_in = [
        "/", "/nights/", "/nights/new", f"/nights/{night}", f"/nights/{night}/tables/new",
        f"/nights/{night}/matches/new", f"/nights/{night}/close",
        f"/tables/{board_table}", f"/tables/{board_table}/live", f"/tables/{board_table}/rules",
        f"/tables/{sheet_table}", f"/tables/{sheet_table}/live",
        f"/nights/{night}/score-sheet", f"/nights/{night}/ledger", f"/nights/{night}/settle",
        f"/nights/{night}/exports", "/nights/import", "/balances",
        "/seasons/", "/seasons/new", f"/seasons/{season_id}",
        "/players/", "/players/Ann",
        "/admin/members", f"/admin/members/{admin_id}", "/admin/invitations", "/members/password-links",
        "/account", "/account/password",
        "/display", f"/display/{night}",
        "/analysis/players/Ann", f"/analysis/nights/{night}", f"/analysis/seasons/{season_id}",
    ]
    found = visit_at_every_size(page, base, "ada", signed_in, signed_out)
    assert not found, f"{len(found)} accessibility violations:\n" + "\n".join(found)


def test_the_organizers_and_a_players_pages_pass_axe_at_every_size(live_server: LiveServer, page: Page) -> None:
    """The organizer's tablet and the phone of a member whose answer to the box's double waits
    (the answer buttons on the board's page) show other pages than the admin's."""
    demo, season_id, _ = build_night(live_server)
    base = live_server.url
    night, board_table = demo.night_id, demo.live_table
    waiting = demo.waiting[0]
    organizer = ["/", f"/nights/{night}", f"/tables/{board_table}", f"/tables/{demo.tables['Upstairs']}",
                 f"/nights/{night}/ledger", f"/seasons/{season_id}"]
    player = ["/", f"/tables/{board_table}", f"/players/{waiting}", f"/nights/{night}/ledger", "/balances",
              "/account"]
    found = visit_at_every_size(page, base, "olga", organizer)
    found += visit_at_every_size(page, base, waiting.lower(), player)
    assert not found, f"{len(found)} accessibility violations:\n" + "\n".join(found)


def visit_at_every_size(page: Page, base: str, username: str, signed_in: list[str],
                        signed_out: tuple[str, ...] | list[str] = (), sign_in_as: bool = True) -> list[str]:
    """The violations on the pages at each size: ``signed_out`` first, then signed in as
    ``username`` (unless ``sign_in_as`` is false)."""
    found: list[str] = []
    page.context.clear_cookies()
    for path in signed_out:
        for size, violations in violations_at_every_size(page, base + path):
            found += describe(f"{size} {path}", violations)
    if sign_in_as:
        sign_in(page, base, username)
    for path in signed_in:
        for size, violations in violations_at_every_size(page, base + path):
            found += describe(f"{username} {size} {path}", violations)
    return found


def test_the_first_run_and_the_signed_out_link_pages_pass_axe_at_every_size(live_server: LiveServer,
                                                                            page: Page) -> None:
    """A new club's first page (setup, on an empty database), then, with the demo built, the
    pages a link opens before anyone signs in: an invitation to join, a password link."""
    base = live_server.url
    found = visit_at_every_size(page, base, "", [], ["/setup"], sign_in_as=False)
    build_night(live_server)
    with live_server.app.app_context():
        ada = db.session.scalar(db.select(Member).filter_by(username="ada"))
        olga = db.session.scalar(db.select(Member).filter_by(username="olga"))
        ann = db.session.scalar(db.select(Member).filter_by(username="ann"))
        join, _ = account_links.make_invitation(ada, label="Newcomers", hours=24, max_uses=5)
        reset, _ = account_links.make_password_link(ann.id, olga)
        db.session.commit()
    found += visit_at_every_size(page, base, "", [], [f"/join/{join}", f"/auth/reset/{reset}"], sign_in_as=False)
    assert not found, f"{len(found)} accessibility violations:\n" + "\n".join(found)
