"""The organizer's own action is on its way when another device changes the table: the
pushed table that comes meanwhile is not swapped in under the organizer (the action's answer
brings the table), and once that answer is in, the page shows the other device's change too.
(A look at a CI flake where an action's answer never showed: this order is not its cause.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Route, expect

from chouette.extensions import db
from chouette.models import Member
from chouette.services import commands, tables
from tests.browser.conftest import signed_in_device
from tests.factories import gen_member, gen_night, gen_table


@pytest.mark.browser
def test_a_push_during_an_action_is_shown_after_the_answer(live_server, browser: Browser):
    app, base = live_server.app, live_server.url
    with app.app_context():
        olga = gen_member("organizer", name="Olga", username="olga")
        table = gen_table(gen_night(name="Friday", opened_by_id=olga.id), name="Red",
                          created_by_id=olga.id)
        for name in ("Ann", "Bob", "Cy"):
            commands.play(table.id, tables.last_seq(table.id), {"type": "join", "player": name}, olga)
        commands.play(table.id, tables.last_seq(table.id),
                      {"type": "order", "players": ["Ann", "Bob", "Cy"]}, olga)
        table_id, olga_id = table.id, olga.id
        db.session.remove()
    page = signed_in_device(browser, base, "olga", {"width": 1024, "height": 768},
                            url=f"{base}/tables/{table_id}")
    expect(page.locator(".live-push")).to_have_attribute("data-push", "open")
    live = page.locator(f"#table-live-{table_id}")

    held: list[tuple[Route, object]] = []
    page.route(f"**/tables/{table_id}/roll", lambda route: held.append((route, route.fetch())))
    page.get_by_role("button", name="Opening roll").click()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the roll was never sent"
    rolled = _last_seq(app, table_id)

    # Another device: Dee joins while the organizer's answer is held back; the page fetches the
    # pushed table with the join (and leaves it aside: the organizer's action is on its way).
    with page.expect_response(lambda response: response.url.endswith(f"/tables/{table_id}/live")
                              and f'data-seq="{rolled + 1}"' in response.text()):
        with app.app_context():
            commands.play(table_id, rolled, {"type": "join", "player": "Dee"}, db.session.get(Member, olga_id))
            db.session.remove()
    joined = _last_seq(app, table_id)
    expect(live).not_to_have_attribute("data-seq", str(joined))  # not under the organizer

    route, answer = held[0]
    route.fulfill(response=answer)
    expect(live).to_have_attribute("data-seq", str(joined))
    expect(live).to_contain_text("Dee")
    page.context.close()


def _last_seq(app, table_id: int) -> int:
    with app.app_context():
        seq = tables.last_seq(table_id)
        db.session.remove()
    return seq
