"""The cube window at an online table, two phones at once (the captain and a member) against
the live server: both see who is asked "double or roll" and the countdown; the member on
auto-roll holds the roll and is asked; the captain's roll waits for the member; the member's
"roll" closes the window and the dice are rolled; the cards ride the table's push stream (no
polling: a member's hold reaches the other phone by the push); then the box's window, unanswered, rolls when
the countdown on a phone reaches zero (the server decides). Screenshots of the window at
390x844, 1024x768 and 1920x1080 go to /tmp/cube-window-*.png.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import Browser, Page, expect

from chouette.extensions import db
from chouette.models import Member, TurnWindow
from chouette.services import commands, table_states, tables
from chouette.services import cube_window as windows
from tests.browser.conftest import online_table, signed_in_device

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
TV = {"width": 1920, "height": 1080}
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def last_event(app, table_id: int) -> dict:
    with app.app_context():
        log = tables.table_log(table_id)
        db.session.commit()
        return log[-1]


@pytest.mark.browser
def test_the_captain_and_a_member_see_the_window_and_its_countdown(live_server, browser: Browser):
    app, base = live_server.app, live_server.url
    table = online_table(app, PLAYERS, [{"type": "opening_roll", "box": 3, "team": 1},
                                        {"type": "move", "move": "8/5 6/5"}], decision_seconds=60)
    table_id, olga_id, logins = table.id, table.organizer_id, table.logins
    url = f"{base}/tables/{table_id}"

    def device(name: str) -> Page:
        return signed_in_device(browser, base, logins[name], PHONE, url=url)

    bob, cy = device("Bob"), device("Cy")
    bob_card, cy_card = bob.locator(f"#cube-window-{table_id}"), cy.locator(f"#cube-window-{table_id}")

    # Both see the team's window: Bob (the captain) is asked, Cy is on auto-roll.
    for card in (bob_card, cy_card):
        expect(card.get_by_role("heading", name="Double or roll")).to_be_visible()
        expect(card).to_contain_text("The team's turn: before the captain rolls.")
        expect(card).to_contain_text("Waiting for: Bob.")
    expect(bob_card.get_by_role("button", name="Double", exact=True)).to_be_visible()
    # Bob, the roller, rolls with the board's Roll button: the card offers Bob no second one.
    bob_roll = bob.locator(f"#table-game-{table_id}").get_by_role("button", name="Roll", exact=True)
    expect(bob_roll).to_be_visible()
    expect(bob_card.get_by_role("button", name="Roll", exact=True)).to_have_count(0)
    expect(cy_card).to_contain_text("Your auto-roll is on")
    expect(cy_card.get_by_role("button", name="Double", exact=True)).to_have_count(0)

    # The countdown runs on each page.
    clock = bob_card.locator(".window-clock-value")
    def left() -> int:
        minutes, seconds = clock.inner_text().split(":")
        return int(minutes) * 60 + int(seconds)

    first = left()
    assert 0 < first <= 60
    bob.wait_for_timeout(2200)
    assert left() < first

    # The card rides the table's push stream: it never polls while nothing moves.
    expect(bob.locator(".live-push")).to_have_attribute("data-push", "open")
    looks: list[str] = []
    bob.on("request", lambda request: looks.append(request.method)
           if request.url.endswith(f"/tables/{table_id}/window") else None)
    bob.wait_for_timeout(3000)
    assert looks == []

    # Cy holds the roll (no event of the log: the stream's version moves all the same):
    # asked now, on both pages; Bob's card comes in Bob's stream, drawn for Bob: no fetch.
    cy_card.get_by_role("button", name="Hold the roll").click()
    expect(cy_card.get_by_role("button", name="Double", exact=True)).to_be_visible()
    expect(bob_card).to_contain_text("Waiting for: Bob, Cy.", timeout=3000)
    expect(bob.locator(".cube-window")).to_have_count(1)  # morphed in place, not nested
    assert looks == []

    for size, label in ((PHONE, "phone"), (TABLET, "tablet"), (TV, "tv")):
        for page, who in ((bob, "captain"), (cy, "member")):
            page.set_viewport_size(size)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
            page.screenshot(path=f"/tmp/cube-window-{who}-{label}.png", full_page=False)
        bob.set_viewport_size(PHONE)
        cy.set_viewport_size(PHONE)

    # Bob says roll: Bob's roll waits for Cy; nothing is rolled.
    bob_roll.click()
    expect(bob_card).to_contain_text("Your roll waits for Cy to say double or roll.")
    assert last_event(app, table_id)["type"] == "move"
    expect(cy_card).to_contain_text("Waiting for: Cy.")

    # Cy says roll: the window closes and the server rolls the team's dice.
    cy_card.get_by_role("button", name="Roll", exact=True).click()
    expect(cy_card.get_by_role("heading", name="The move")).to_be_visible()
    expect(bob_card.get_by_role("heading", name="The move")).to_be_visible()
    assert last_event(app, table_id)["type"] == "roll"

    # The team moves (the organizer, here straight through the commands); the box's window
    # opens, and its clock is set back to three seconds left (Cy's page drawn again to show
    # it): nobody answers, and a phone's countdown posts "time up".
    with app.app_context():
        state = table_states.load_play(table_id).state
        from chouette.engine import legal_moves
        game = state.game
        assert game is not None and game.position is not None and game.dice is not None
        move = str(legal_moves(game.position, game.dice)[0])
        commands.play(table_id, tables.last_seq(table_id), {"type": "move", "move": move},
                      db.session.get(Member, olga_id))
        db.session.commit()
    expect(cy_card).to_contain_text("The box's turn: before the box rolls.")
    with app.test_request_context():
        assert windows.time_up(table_id, db.session.get(Member, olga_id)).rolled is False
        row = db.session.get(TurnWindow, table_id)
        assert row is not None
        row.opened_at -= timedelta(seconds=57)
        db.session.commit()
    cy.reload()
    expect(cy_card).to_contain_text("The box's turn: before the box rolls.")
    expect(cy_card.get_by_role("heading", name="The move")).to_be_visible(timeout=12_000)
    assert last_event(app, table_id)["type"] == "roll"
