"""Small layout fixes seen during a club night played through the pages (issue #25): the QR
caption's words never break, long names beside the board wrap instead of being cut, the
balance chart fits a phone, the score sheet prints on an A4 page.

Screenshots are kept under test-artifacts/small-fixes/.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from chouette.extensions import db
from chouette.models import Member
from chouette.services import commands
from chouette.services import tables as tables_service
from tests.browser.conftest import ARTIFACTS, OFF_SITE
from tests.factories import PASSWORD, gen_member, gen_night, gen_table

pytestmark = pytest.mark.browser

LONG = "Bartholomew Featherstonehaughe"  # 30 characters, one long word
SIZES = [(390, 844), (1024, 768), (1920, 1080)]


def _night(server) -> dict[str, str]:
    """A night whose table has a 30-character name at it: games won and lost, then a board
    game in progress; the long-named member's page has a balance chart."""
    assert len(LONG) == 30
    app = server.app
    with app.app_context():
        owner = gen_member("admin", name="Olga", username="olga")
        names = [LONG, "Ann", "Bob", "Cy"]
        for name in names:
            gen_member("player", name=name)
        night = gen_night(opened_by_id=owner.id, date=dt.date(2026, 11, 21))
        table = gen_table(night, created_by_id=owner.id, name="Table 1",
                          settings=dict(tables_service.TABLE_DEFAULTS))
        actor = db.session.get(Member, owner.id)
        events = [*({"type": "join", "player": n} for n in names), {"type": "order", "players": names}]
        for number in range(12):
            events.append({"type": "result", "winner": "box",  # the long name stays the box
                           "kind": "gammon" if number % 4 == 0 else "single"})
        events.append({"type": "opening_roll", "box": 6, "team": 1})
        for event in events:
            commands.play(table.id, tables_service.last_seq(table.id), event, actor)
        # A second table of eight (the partner drawn), whose sheet has eight players' columns.
        eight = gen_table(night, created_by_id=owner.id, name="Table 2",
                          settings=dict(tables_service.TABLE_DEFAULTS))
        crowd = [f"{LONG[:25]} {n}" for n in range(2, 5)] + ["Dee", "Eve", "Finn", "Gus", "Hal"]
        events = [*({"type": "join", "player": n} for n in crowd), {"type": "order", "players": crowd},
                  *({"type": "partner", "player": n, "accept": False} for n in crowd[1:]),
                  {"type": "partner_draw", "player": crowd[3]},
                  {"type": "double", "by": "box", "cubes": crowd[1:3]}, {"type": "take", "cube": crowd[1]},
                  {"type": "drop", "cube": crowd[2]}, {"type": "result", "winner": "team", "kind": "gammon"}]
        for event in events:
            commands.play(eight.id, tables_service.last_seq(eight.id), event, actor)
        db.session.commit()
        night_id, table_id = night.id, table.id
    return {"table": f"/tables/{table_id}", "player": f"/players/{LONG}",
            "sheet": f"/nights/{night_id}/score-sheet", "display": f"/display/{night_id}"}


def _page(browser: Browser, server, width: int, height: int) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.route(OFF_SITE, lambda route: route.abort())
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{server.url}/auth/login")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Hello, Olga")).to_be_visible()
    return page


def _shot(target: Page | Locator, name: str) -> None:
    """A screenshot of the page (whole) or of one element, looked at by hand."""
    folder = ARTIFACTS / "small-fixes"
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(target, Page):
        target.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    else:
        target.screenshot(path=str(folder / f"{name}.png"))


#: The caption's lines, as the browser laid them out: the text of each line box.
CAPTION_LINES = """el => {
  const node = [...el.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
  const text = node.textContent, range = document.createRange(), lines = [];
  let top = null;
  for (let i = 0; i < text.length; i++) {
    range.setStart(node, i); range.setEnd(node, i + 1);
    const rect = range.getClientRects()[0];
    if (!rect) continue;
    if (top === null || rect.top > top + 2) { lines.push(""); top = rect.top; }
    lines[lines.length - 1] += text[i];
  }
  return lines;
}"""


def test_the_qr_caption_breaks_between_words_only(browser: Browser, live_server):
    pages = _night(live_server)
    for width, height in SIZES:
        page = _page(browser, live_server, width, height)
        page.goto(f"{live_server.url}{pages['table']}")
        caption = page.locator(".qr-card figcaption")
        lines = caption.evaluate(CAPTION_LINES)
        words = ["Scan", "to", "open", "this", "table", "on", "your", "phone"]
        assert [w for line in lines for w in line.split()] == words, (width, lines)
        url = caption.locator("small")
        assert url.evaluate("e => e.scrollWidth <= e.clientWidth"), width
        _shot(page.locator(".qr-card"), f"qr-{width}")
        page.context.close()


def test_the_balance_chart_fits_a_phone(browser: Browser, live_server):
    pages = _night(live_server)
    for width, height in SIZES:
        page = _page(browser, live_server, width, height)
        page.goto(f"{live_server.url}{pages['player']}")
        chart = page.locator("svg.chart")
        expect(chart).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        box = page.locator(".chart-scroll")
        assert box.evaluate("e => e.scrollWidth <= e.clientWidth"), width  # no scrolling inside
        assert chart.evaluate("e => e.getBoundingClientRect().right") <= width
        _shot(page.locator(".chart-card"), f"chart-{width}")
        page.context.close()


A4_WIDTH = 794  # an A4 page's width at 96 dpi
PRINTED_WIDTH = A4_WIDTH - 2 * 38  # within its 10 mm margins (exports.css, @page)


def test_the_score_sheet_prints_on_an_a4_page(browser: Browser, live_server):
    pages = _night(live_server)
    for width in (A4_WIDTH, PRINTED_WIDTH):
        page = _page(browser, live_server, width, 1123)
        page.emulate_media(media="print")
        page.goto(f"{live_server.url}{pages['sheet']}")
        grids = page.locator(".sheet-grid")
        expect(grids).to_have_count(2)  # the table of four and the table of eight
        for index in range(2):
            wide = grids.nth(index).evaluate("e => e.scrollWidth")
            assert wide <= width, (width, index, wide)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        if width == A4_WIDTH:
            page.context.close()
    assert "@page" in page.evaluate(
        "[...document.styleSheets].flatMap(s => [...s.cssRules]).map(r => r.cssText).join(' ')")
    _shot(page, "score-sheet-print")
    pdf = page.pdf(prefer_css_page_size=True)
    sizes = {(float(w), float(h)) for w, h in re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)}
    assert sizes == {(595.92, 842.88)} or sizes == {(595.0, 842.0)} or all(
        abs(w - 595) < 2 and abs(h - 842) < 2 for w, h in sizes), sizes  # A4 in points
    page.context.close()


#: The long-named side beside the board: its name's lines, and whether each fits its place
#: (inside the rail's chip on a landscape board; left of the pips in a portrait board's heading).
SIDE_NAME = """name => {
  const board = [...document.querySelectorAll('svg.board')].find(b => b.getBoundingClientRect().width);
  const side = [...board.querySelectorAll('g.side')]
    .find(g => g.querySelector('title').textContent === name);
  const texts = [...side.querySelectorAll('.side-name')], pips = side.querySelector('.pips');
  const chip = side.querySelector('.side-chip'), box = (chip || side).getBoundingClientRect();
  const pipsBox = pips.getBoundingClientRect();
  return {
    text: texts.map(t => t.textContent).join(' '),
    fits: texts.map(t => {
      const r = t.getBoundingClientRect();
      const clear = chip ? r.bottom <= pipsBox.top + 1 : r.right <= pipsBox.left;
      return r.left >= box.left - 1 && r.right <= box.right + 1 && clear;
    }),
  };
}"""


def test_long_names_beside_the_board_wrap_whole(browser: Browser, live_server):
    pages = _night(live_server)
    for width, height in SIZES:
        page = _page(browser, live_server, width, height)
        page.goto(f"{live_server.url}{pages['table']}")
        expect(page.locator("svg.board >> visible=true")).to_be_visible()
        shown = page.evaluate(SIDE_NAME, LONG)
        assert shown["text"] == LONG, (width, shown)  # all of it, never cut with "…"
        assert all(shown["fits"]) and len(shown["fits"]) == 2, (width, shown)
        turn = page.locator(".live-game p.on-roll")
        assert LONG in turn.inner_text()
        assert turn.evaluate("e => e.scrollWidth <= e.clientWidth"), width
        _shot(page.locator(".live-game"), f"board-{width}")
        page.context.close()
