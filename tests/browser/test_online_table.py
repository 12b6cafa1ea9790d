"""A table played online (issue 26), through three pages at once: the box's phone, the
captain's phone and the big screen. The box and the captain roll and move on their own phones
by taps only; each page sees every roll and move as it happens (pushed)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from chouette.engine import legal_moves
from chouette.extensions import db
from chouette.services import commands, tables
from tests.browser.conftest import LiveServer, signed_in_device, start_live_server
from tests.browser.test_accessibility import AXE, describe
from tests.browser.test_club_night import PHONE, board_point, live, table_state
from tests.factories import gen_member, gen_night, gen_table
from tests.online_game import FORCED, FORCED_DICE, GAME, SEED

TV = {"width": 1920, "height": 1080}


@pytest.fixture
def online_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = start_live_server(tmp_path, TESTING=True, DICE_SEED=SEED)
    yield server
    server.stop()


def seeded_dice(events: int) -> tuple[int, int]:
    """The server's roll after ``events`` events (``chance.server_event`` with the seed)."""
    rng = random.Random(f"{SEED}:{events}")
    return rng.randint(1, 6), rng.randint(1, 6)


def tap(page: Page, table_id: int, point: int) -> None:
    board_point(page, table_id, point).click()


def rolled_on(page: Page, table_id: int, dice: tuple[int, int]) -> None:
    """The page's board shows ``dice`` (the shown drawing: a phone's upright one)."""
    expect(page.locator(f"#board-{table_id} svg.board:visible")).to_have_attribute(
        "data-dice", f"{dice[0]}-{dice[1]}")


def tv_shows(tv: Page, table_id: int, position_id: str, dice: tuple[int, int] | None) -> None:
    board = tv.locator(f"#display-table-{table_id} svg.board")
    expect(board).to_have_attribute("data-position-id", position_id)
    expect(board).to_have_attribute("data-dice", f"{dice[0]}-{dice[1]}" if dice else "")


@pytest.mark.browser
def test_an_online_game_is_played_by_taps_on_the_players_phones_and_the_tv_follows(
        online_server, browser, screenshot):
    app, base = online_server.app, online_server.url
    with app.app_context():
        olga = gen_member("organizer", name="Olga")
        members = {name: gen_member("player", name=name) for name in "ABCD"}
        night = gen_night(opened_by_id=olga.id)
        table_id = gen_table(night, created_by_id=olga.id,
                             settings={**tables.TABLE_DEFAULTS, "play": "online"}).id
        # The game so far, as the organizer imported it: the captain (B) is on roll.
        for event in ([{"type": "join", "player": n} for n in "ABCD"]
                      + [{"type": "order", "players": list("ABCD")}] + GAME):
            commands.play(table_id, tables.last_seq(table_id), event, olga)
        logins = {"A": members["A"].username, "B": members["B"].username, "Olga": olga.username}
        night_id = night.id
        db.session.commit()

    def device(username: str, size: dict[str, int], path: str) -> Page:
        return signed_in_device(browser, base, username, size, url=f"{base}{path}")

    box = device(logins["A"], PHONE, f"/tables/{table_id}")
    captain = device(logins["B"], PHONE, f"/tables/{table_id}")
    tv = device(logins["Olga"], TV, f"/display/{night_id}")
    for page in (box, captain):
        expect(page.locator(".live-push")).to_have_attribute("data-push", "open")

    # The captain rolls on their phone (the server's dice); the box may not, and types none.
    expect(box.get_by_role("button", name="Roll", exact=True)).to_have_count(0)
    expect(captain.locator('input[name="die1"]')).to_have_count(0)
    captain.get_by_role("button", name="Roll", exact=True).click()
    for page in (captain, box):
        rolled_on(page, table_id, FORCED_DICE)
    state = table_state(app, table_id)
    tv_shows(tv, table_id, state.game.position.id, FORCED_DICE)
    # Each sees the board from their own side; the captain's points are named buttons.
    expect(captain.locator(f"#board-{table_id} svg.board:visible")).to_have_class(re.compile("bottom-team"))
    expect(box.locator(f"#board-{table_id} svg.board:visible")).to_have_class(re.compile("bottom-box"))
    expect(captain.get_by_role("button", name=re.compile(r"^Bar: 2 to enter"))).to_be_visible()
    screenshot("online-captain-phone-forced", captain)
    # The board played on passes axe-core: its points are named buttons in a named group.
    found = describe("the captain's phone", list(AXE.run(captain).response["violations"]))
    assert not found, "\n".join(found)

    # Only one legal play: one tap plays it.
    captain.get_by_role("button", name=f"Play the forced move: {FORCED}").click()
    expect(box.locator(f"#table-live-{table_id} p.on-roll")).to_contain_text("A is on roll.")
    state = table_state(app, table_id)
    assert state.game.last_move == FORCED and state.game.on_roll == "box"
    tv_shows(tv, table_id, state.game.position.id, None)
    expect(captain.locator(f"#table-live-{table_id}")).to_contain_text(f"last move: {FORCED}")

    # The box rolls and composes the play by taps: a step, taken back, then the whole play.
    dice = seeded_dice(len(state.effective))
    box.get_by_role("button", name="Roll", exact=True).click()
    for page in (box, captain):
        rolled_on(page, table_id, dice)
    state = table_state(app, table_id)
    tv_shows(tv, table_id, state.game.position.id, dice)
    plays = legal_moves(state.game.position, dice)
    assert len(plays) > 1, "the box's roll leaves a choice"
    play = plays[0]
    first, to = play.steps[0][0], play.steps[0][1]
    composing = box.locator(f"#board-{table_id} [data-board-composing]")
    tap(box, table_id, first)
    expect(board_point(box, table_id, first)).to_have_attribute("aria-pressed", "true")
    tap(box, table_id, to)
    expect(composing).to_contain_text(f"{'bar' if first == 25 else first}/")
    box.get_by_role("button", name="Undo step").click()
    expect(composing).to_be_hidden()
    for start, end, _hit in play.steps:
        tap(box, table_id, start)
        tap(box, table_id, end)
    expect(box.locator(f"#board-{table_id} [data-board-play]")).to_have_class(re.compile("ready"))
    screenshot("online-box-phone-composed", box)
    box.locator(f"#board-{table_id} [data-board-play]").click()
    expect(captain.locator(f"#table-live-{table_id} p.on-roll")).to_contain_text("B is on roll.")
    state = table_state(app, table_id)
    assert state.game.last_move == str(play) and state.game.on_roll == "member"
    tv_shows(tv, table_id, state.game.position.id, None)
    expect(box.locator(f"#table-live-{table_id}")).to_contain_text(f"last move: {play}")

    # The captain rolls again: 1-5, no legal play; the turn passes by itself, said on both
    # phones, and the box is on roll.
    dice = seeded_dice(len(state.effective))
    seq = len(state.effective)
    captain.get_by_role("button", name="Roll", exact=True).click()
    expect(live(box, table_id)).not_to_have_attribute("data-seq", str(seq))
    state = table_state(app, table_id)
    assert state.game.dice is None and state.game.on_roll == "box"
    word = f"B rolled {dice[0]}-{dice[1]}: no legal play, the turn passes."
    for page in (box, captain):
        expect(page.locator(f"#table-live-{table_id} .no-play")).to_have_text(word)
    tv_shows(tv, table_id, state.game.position.id, None)

    # The box rolls and plays by keyboard: each point a button, Enter taps it.
    dice = seeded_dice(len(state.effective))
    box.get_by_role("button", name="Roll", exact=True).click()
    rolled_on(captain, table_id, dice)
    state = table_state(app, table_id)
    play = legal_moves(state.game.position, dice)[0]
    for start, end, _hit in play.steps:
        board_point(box, table_id, start).press("Enter")
        board_point(box, table_id, end).press("Enter")
    box.locator(f"#board-{table_id} [data-board-play]").click()
    expect(captain.locator(f"#table-live-{table_id} p.on-roll")).to_contain_text("B is on roll.")
    state = table_state(app, table_id)
    assert state.game.last_move == str(play)
    tv_shows(tv, table_id, state.game.position.id, None)
    screenshot("online-tv", tv)
