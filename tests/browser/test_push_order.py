"""Answers that come back out of order: whatever order the table's fetches and the reader's
own action come back in, the page ends showing the table as it is, never an older one."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, Route, expect

from chouette.extensions import db
from chouette.models import Member
from chouette.services import commands, tables
from tests.browser.conftest import signed_in_device
from tests.factories import gen_member, gen_night, gen_table

pytestmark = pytest.mark.browser


def _table(app) -> tuple[int, int]:
    """A table of three, the line ordered, run by Olga: (table id, Olga's id)."""
    with app.app_context():
        olga = gen_member("organizer", name="Olga", username="olga")
        table = gen_table(gen_night(name="Friday", opened_by_id=olga.id), name="Red", created_by_id=olga.id)
        for name in ("Ann", "Bob", "Cy"):
            commands.play(table.id, tables.last_seq(table.id), {"type": "join", "player": name}, olga)
        commands.play(table.id, tables.last_seq(table.id), {"type": "order", "players": ["Ann", "Bob", "Cy"]}, olga)
        ids = table.id, olga.id
        db.session.remove()
    return ids


def _last_seq(app, table_id: int) -> int:
    with app.app_context():
        seq = tables.last_seq(table_id)
        db.session.remove()
    return seq


#: The page's stream has said the table's version at ``seq`` (``static/js/live.js`` keeps the
#: stream's last word on the element holding it).
HEARD = """(seq) => {
    const latest = document.querySelector('[sse-connect]').chouetteLatest || '';
    return latest.split('-')[0] === String(seq);
}"""


def _held(page: Page, pattern: str) -> list[tuple[Route, Any]]:
    """The first request to ``pattern`` goes to the server at once (its answer is made then),
    and its answer is held back until the test lets it go; later ones pass."""
    held: list[tuple[Route, Any]] = []

    def hold(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route(pattern, hold)
    return held


def _until(page: Page, held: list) -> None:
    for _ in range(200):
        if held:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the request was never sent")


def _roll_held(page: Page, app, table_id: int) -> tuple[list[tuple[Route, Any]], int]:
    """The organizer rolls; the roll's answer is held back on its way: (the held answer, the
    seq the roll committed at)."""
    held = _held(page, f"**/tables/{table_id}/roll")
    page.get_by_role("button", name="Opening roll").click()
    _until(page, held)
    return held, _last_seq(app, table_id)


def _organizer_page(live_server, browser: Browser) -> tuple[int, int, Page, Locator]:
    """The table (``_table``) open on Olga's tablet, its stream open and watched from inside:
    (table id, Olga's id, the page, its live table)."""
    base = live_server.url
    table_id, olga_id = _table(live_server.app)
    page = signed_in_device(browser, base, "olga", {"width": 1024, "height": 768}, url=f"{base}/tables/{table_id}")
    expect(page.locator(".live-push")).to_have_attribute("data-push", "open")
    # What the page does, seen from inside: the seq of each fetched live table htmx has handled
    # (swapped in or not), and every seq the live table has shown, in order.
    page.evaluate("""(tableId) => {
        window.chouetteFetched = [];
        window.chouetteAsked = 0;  // fetches of the live table sent
        document.addEventListener('htmx:beforeRequest', (event) => {
          if (event.detail.elt && event.detail.elt.id === 'table-refresh-' + tableId) {
            window.chouetteAsked += 1;
          }
        });
        document.addEventListener('htmx:afterRequest', (event) => {
          if (event.detail.elt && event.detail.elt.id === 'table-refresh-' + tableId) {
            const found = /data-seq="(\\d+)"/.exec(event.detail.xhr.responseText || '');
            window.chouetteFetched.push(found ? Number(found[1]) : null);
          }
        });
        const live = document.getElementById('table-live-' + tableId);
        window.chouetteShown = [Number(live.dataset.seq)];
        new MutationObserver(() => window.chouetteShown.push(Number(live.dataset.seq)))
          .observe(live, {attributes: true, attributeFilter: ['data-seq']});
    }""", table_id)
    return table_id, olga_id, page, page.locator(f"#table-live-{table_id}")


def test_a_fetch_sent_before_the_readers_action_and_answered_after_it_does_not_take_the_page_back(
        live_server, browser: Browser):
    app = live_server.app
    table_id, _olga, page, live = _organizer_page(live_server, browser)
    before = _last_seq(app, table_id)

    # A fetch of the live table goes out (as a push or a poll makes it) and is slow to come back.
    held = _held(page, f"**/tables/{table_id}/live")
    page.evaluate(f"htmx.trigger('#table-refresh-{table_id}', 'chouette:refresh')")
    _until(page, held)

    # Meanwhile the organizer rolls; the roll's answer shows at once.
    page.get_by_role("button", name="Opening roll").click()
    expect(live).to_have_attribute("data-seq", str(before + 1))

    # The slow fetch comes back now, with the table before the roll: not swapped in.
    route, answer = held[0]
    assert f'data-seq="{before}"' in answer.text()
    route.fulfill(response=answer)
    page.wait_for_function("(seq) => window.chouetteFetched.includes(seq)", arg=before)
    expect(live).to_have_attribute("data-seq", str(before + 1))
    assert page.evaluate("window.chouetteShown") == [before, before + 1]  # never back
    assert _last_seq(app, table_id) == before + 1
    page.context.close()


def test_a_change_pushed_while_the_readers_action_is_on_its_way_shows_after_its_answer(
        live_server, browser: Browser):
    app = live_server.app
    table_id, olga_id, page, live = _organizer_page(live_server, browser)
    held, rolled = _roll_held(page, app, table_id)

    # Another device: Dee joins. The page hears it, and neither fetches the table nor takes
    # it in under the organizer while the roll is on its way (the roll's answer brings a table).
    with app.app_context():
        commands.play(table_id, rolled, {"type": "join", "player": "Dee"}, db.session.get(Member, olga_id))
        db.session.remove()
    joined = _last_seq(app, table_id)
    page.wait_for_function(HEARD, arg=joined)
    assert page.evaluate("window.chouetteAsked") == 0
    expect(live).not_to_have_attribute("data-seq", str(joined))

    # The roll's answer comes; then the page fetches and shows Dee's join too: the stream's
    # last word, later than the answer.
    route, answer = held[0]
    route.fulfill(response=answer)
    expect(live).to_have_attribute("data-seq", str(joined))
    expect(live).to_contain_text("Dee")
    assert page.evaluate("window.chouetteShown") == [rolled - 1, rolled, joined]
    assert page.evaluate("window.chouetteAsked") == 1
    page.context.close()


def test_a_readers_own_action_whose_answer_is_the_streams_last_word_fetches_nothing(
        live_server, browser: Browser):
    """The stream says the roll's version while the roll's answer is on its way: the answer
    brings that table, so the page sends no fetch for it, then or after."""
    app = live_server.app
    table_id, _olga, page, live = _organizer_page(live_server, browser)
    held, rolled = _roll_held(page, app, table_id)
    page.wait_for_function(HEARD, arg=rolled)  # the stream said the roll's version first

    route, answer = held[0]
    route.fulfill(response=answer)
    expect(live).to_have_attribute("data-seq", str(rolled))
    # The page has handled the answer's end (its loadend, then a turn of the event loop, where
    # it would look again) and the next poll tick (where it would catch up): nothing asked.
    page.evaluate("() => new Promise((done) => setTimeout(done, 1100))")
    assert page.evaluate("window.chouetteAsked") == 0
    assert page.evaluate("window.chouetteShown") == [rolled - 1, rolled]
    page.context.close()


def test_a_page_whose_fetch_brought_an_older_table_than_the_stream_said_fetches_it_again(
        live_server, browser: Browser):
    """A proxy on the way answers the fetch a push caused with a copy it kept of the table
    before: the page, still behind the stream's last version, fetches it once more and shows it."""
    app = live_server.app
    table_id, olga_id, page, live = _organizer_page(live_server, browser)
    before = _last_seq(app, table_id)

    # The proxy's copy of the table as it is now; it serves it once, for the next fetch.
    copy = page.request.get(f"{live_server.url}/tables/{table_id}/live")
    assert f'data-seq="{before}"' in copy.text()
    served: list[bool] = []

    def stale_proxy(route: Route) -> None:
        if served:
            route.continue_()
        else:
            served.append(True)
            route.fulfill(response=copy)

    page.route(f"**/tables/{table_id}/live", stale_proxy)

    with app.app_context():  # another device: Dee joins
        commands.play(table_id, before, {"type": "join", "player": "Dee"}, db.session.get(Member, olga_id))
        db.session.remove()
    page.wait_for_function("() => window.chouetteFetched.length >= 1")
    assert page.evaluate("window.chouetteFetched")[0] == before  # the proxy's copy
    expect(live).to_have_attribute("data-seq", str(before + 1))
    expect(live).to_contain_text("Dee")
    page.context.close()
