"""A dropped device reconnecting mid-turn catches up (issue 26, the proof's last line): at an
online table, a member's phone goes offline (its push stream drops); meanwhile the box rolls
and moves from the box's own phone and the team's cube window opens on the other devices: the
member's page, back online, shows the table as it is now
(the live table's seq, the board's position and no dice, the team's window asking the captain)
without a reload, from the first message of its stream reconnecting.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from chouette.engine import legal_moves
from chouette.extensions import db
from chouette.services import table_states
from tests.browser.conftest import LiveServer, online_table, signed_in_device, start_live_server

PHONE = {"width": 390, "height": 844}
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
# What a page shows: its live table's seq, its board's position and dice, and its cube window.
SHOWN = """(table) => {
  const live = document.querySelector(`#table-live-${table}`);
  const board = [...document.querySelectorAll(`#board-${table} svg.board`)].find((svg) => svg.checkVisibility());
  const card = document.querySelector(`#cube-window-${table}`);
  return {seq: live && live.getAttribute("data-seq"),
          position: board ? board.getAttribute("data-position-id") : null,
          dice: board ? board.getAttribute("data-dice") : null,
          window: card ? card.getAttribute("data-window-key") : null};
}"""


@pytest.fixture
def short_streams(tmp_path: Path) -> Iterator[LiveServer]:
    """The app with streams that end every 3 s (deployed: 10 minutes; the browser reconnects
    at once): a connection an offline device holds ends, and it cannot open another."""
    server = start_live_server(tmp_path, PUSH_STREAM_SECONDS=3.0)
    yield server
    server.stop()


@pytest.mark.browser
def test_a_dropped_phone_catches_up_when_it_reconnects(short_streams: LiveServer, browser: Browser):
    app, base = short_streams.app, short_streams.url
    # The team opened and moved: the box is on roll, before the box's window.
    table = online_table(app, PLAYERS, [{"type": "opening_roll", "box": 1, "team": 3},
                                        {"type": "move", "move": "8/5 6/5"}])
    table_id, logins = table.id, table.logins
    url = f"{base}/tables/{table_id}"

    def state() -> table_states.TablePlay:
        with app.app_context():
            played = table_states.load_play(table_id)
            db.session.commit()
            return played

    ann, bob, cy = (signed_in_device(browser, base, logins[n], PHONE, url=url) for n in ("Ann", "Bob", "Cy"))
    for page in (ann, bob, cy):
        expect(page.locator(".live-push")).to_have_attribute("data-push", "open")
    start = cy.evaluate(SHOWN, table_id)
    assert start["seq"] == str(state().seq) and start["window"] is not None

    # Cy's phone drops: its stream is lost when it ends (the page says it is polling, and its
    # polls fail).
    cy.context.set_offline(True)
    expect(cy.locator(".live-push")).to_have_attribute("data-push", "polling", timeout=15_000)

    # The box rolls and moves from the box's own phone; the team's window opens elsewhere.
    ann.locator(f"#table-game-{table_id}").get_by_role("button", name="Roll", exact=True).click()
    expect(ann.locator(f"#board-{table_id} input[name=move]")).to_be_visible()
    rolled = state()
    game = rolled.state.game
    assert game is not None and game.dice is not None and game.position is not None
    move = str(legal_moves(game.position, game.dice)[0])
    ann.locator(f"#board-{table_id} input[name=move]").fill(move)
    ann.locator(f"#board-{table_id}").get_by_role("button", name="Confirm", exact=True).click()
    expect(ann.locator(f"#table-live-{table_id}")).not_to_have_attribute("data-seq", str(rolled.seq))
    now = state()
    assert now.state.effective[-1]["type"] == "move" and now.state.game is not None
    bob_card = bob.locator(f"#cube-window-{table_id}")
    expect(bob_card).to_contain_text("The team's turn: before the captain rolls.")
    expect(bob_card).to_contain_text("Waiting for: Bob.")
    # The card comes in the stream before the table's version; the captain's page then
    # fetches its own table (they roll next).
    expect(bob.locator(f"#table-live-{table_id}")).to_have_attribute("data-seq", str(now.seq))
    want = bob.evaluate(SHOWN, table_id)
    assert want["seq"] == str(now.seq) and want["position"] == now.state.game.position.id
    assert want["dice"] == "" and want["window"] != start["window"]
    cy.wait_for_timeout(1500)
    assert cy.evaluate(SHOWN, table_id) == start  # offline: nothing reached it

    # Back online: the stream reconnects and the page fetches what moved, without a reload.
    cy.context.set_offline(False)
    expect(cy.locator(".live-push")).to_have_attribute("data-push", "open", timeout=15_000)
    expect(cy.locator(f"#table-live-{table_id}")).to_have_attribute("data-seq", str(now.seq))
    cy_card = cy.locator(f"#cube-window-{table_id}")
    expect(cy_card).to_contain_text("The team's turn: before the captain rolls.")
    expect(cy_card).to_contain_text("Waiting for: Bob.")
    expect(cy_card).to_contain_text("Your auto-roll is on")
    assert cy.evaluate(SHOWN, table_id) == want
    assert cy.evaluate("performance.getEntriesByType('navigation').length") == 1  # never reloaded
    for size, label in (({"width": 390, "height": 844}, "phone"), ({"width": 1024, "height": 768}, "tablet"),
                        ({"width": 1920, "height": 1080}, "tv")):
        cy.set_viewport_size(size)
        cy.screenshot(path=f"/tmp/online-reconnect-{label}.png")
