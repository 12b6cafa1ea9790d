"""A whole club night in a real browser, as a new organizer runs it with real clicks.

First run (the admin), an organizer, a night, a table, five players, the order rolled, a game on
the board to its end (the test asks the engine for a legal play each turn and taps it on the SVG
board), a cube doubled and dropped, a game on the score sheet, an undo; the big screen, open in
a second page, follows by itself. Screenshots of the table page (tablet, phone, TV) go to
test-artifacts/.

The server's dice are seeded (``DICE_SEED``, a test-only setting): every run rolls the same
order, the same dice and so plays the same night, and a failure replays as it happened.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from chouette.engine import apply_move, legal_moves
from chouette.extensions import db
from chouette.services import commands
from tests.browser.conftest import LiveServer, board_point, start_live_server, table_state

PASSWORD = "a-long-password"
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
TABLET = {"width": 1024, "height": 1366}
PHONE = {"width": 390, "height": 844}
DICE_SEED = 20261121


@pytest.fixture
def seeded_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The live server whose dice are drawn from ``DICE_SEED``: the same night every run."""
    server = start_live_server(tmp_path, TESTING=True, DICE_SEED=DICE_SEED)
    yield server
    server.stop()


def sign_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/auth/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()


def live(page: Page, table_id: int) -> Locator:
    return page.locator(f"#table-live-{table_id}")


def seq_of(page: Page, table_id: int) -> int:
    return int(live(page, table_id).get_attribute("data-seq"))


def wait_for_change(page: Page, table_id: int, before: int) -> None:
    """Wait until htmx has swapped in the table after the action made at ``before`` (a bound
    of 10 s, as the tests' other waits for the server: a loaded machine answers late)."""
    expect(live(page, table_id)).not_to_have_attribute("data-seq", str(before), timeout=10_000)


def click_and_wait(page: Page, table_id: int, target: Locator) -> None:
    before = seq_of(page, table_id)
    target.click()
    wait_for_change(page, table_id, before)


@pytest.mark.browser
def test_a_whole_club_night_at_one_table(seeded_server, page: Page, context, screenshot):
    base, app = seeded_server.url, seeded_server.app
    page.set_viewport_size(TABLET)
    page.on("dialog", lambda dialog: dialog.accept())

    # First run: the admin, who adds an organizer.
    page.goto(base + "/")
    page.get_by_label("Your name").fill("Ada Admin")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create the admin").click()
    page.get_by_label("Name", exact=True).fill("Olga Organizer")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Role").select_option("organizer")
    page.get_by_role("button", name="Add the member").click()
    expect(page.locator("#flash")).to_contain_text("Olga Organizer is a member.")
    page.get_by_role("button", name="Sign out").click()

    # The organizer opens a night and creates a table.
    sign_in(page, base, "olga")
    page.get_by_role("link", name="Open a night").first.click()
    page.get_by_label("Name").fill("Friday chouette")
    page.get_by_role("button", name="Open the night").click()
    page.get_by_role("link", name="New table").click()
    page.get_by_label("Table name").fill("By the window")
    page.get_by_role("button", name="Create the table").click()
    expect(page.get_by_role("heading", name="By the window", exact=True)).to_be_visible()
    table_id = int(re.search(r"/tables/(\d+)", page.url).group(1))
    panel = live(page, table_id)

    # Five players sit down (typed names; htmx swaps the live table in place).
    for name in PLAYERS:
        page.get_by_label("Name (a member or a guest)").fill(name)
        click_and_wait(page, table_id, page.get_by_role("button", name="Sit down"))
        expect(panel.locator(f"#table-seats-{table_id}")).to_contain_text(name)

    # The big screen, in a second page, follows the night by itself.
    screen = context.new_page()
    screen.set_viewport_size({"width": 1920, "height": 1080})
    screen.goto(f"{base}/display")
    expect(screen.locator(f"#display-table-{table_id}")).to_be_visible()
    page.bring_to_front()  # a tab in the background gets few animation frames: clicks wait

    # The app rolls the starting order; ties roll again until everyone has a seat.
    click_and_wait(page, table_id, page.get_by_role("button", name="Roll for everyone"))
    while page.get_by_role("button", name="Roll again for the tied").count():
        click_and_wait(page, table_id, page.get_by_role("button", name="Roll again for the tied"))
    state = table_state(app, table_id)
    assert state.ordered and state.box and state.captain and len(state.line) == 3
    expect(panel.locator(".seat-box")).to_contain_text(state.box)
    expect(panel.locator(".next-up")).to_contain_text(state.line[0])
    expect(screen.locator(f"#display-table-{table_id}")).to_contain_text(state.box, timeout=10_000)
    screenshot("club-night-seated", page)

    # Game 1 on the board: the server rolls, the engine picks a legal play, we tap it in.
    click_and_wait(page, table_id, page.get_by_role("button", name="Opening roll"))
    dropped = None
    turns = 0
    while table_state(app, table_id).game is not None:
        state = table_state(app, table_id)
        game = state.game
        if game.position is None:  # a tied opening roll: roll again
            click_and_wait(page, table_id, page.get_by_role("button", name="Opening roll"))
            continue
        if game.dice is None:
            if dropped is None and game.on_roll == "box" and turns >= 1:
                # The box doubles the last member in line, who drops.
                dropped = game.members[-1]
                row = panel.locator(f'.cube-row[data-member="{dropped}"]')
                row.get_by_label("box doubles").check()
                click_and_wait(page, table_id, page.get_by_role("button", name="The box doubles the ticked cubes"))
                expect(screen.locator(f"#display-table-{table_id}")).to_contain_text("to answer", timeout=10_000)
                if turns < 3:
                    screenshot("club-night-double", page)
                click_and_wait(page, table_id, panel.locator(f'.cube-row[data-member="{dropped}"]').get_by_role("button", name="Drop"))
                expect(panel.locator(f'.cube-row[data-member="{dropped}"]')).to_have_class(re.compile("cube-dropped"))
                continue
            click_and_wait(page, table_id, page.get_by_role("button", name="Roll", exact=True))
            continue
        plays = legal_moves(game.position, game.dice)
        # The play that leaves the fewest pips: a race, so the game ends sooner.
        move = min(plays, key=lambda m: (apply_move(game.position, m).pips()[0], str(m)))
        move_input = page.locator(f"#board-{table_id} input[name='move']")
        for start, end, _hit in move.steps:
            board_point(page, table_id, start).click()
            board_point(page, table_id, end).click()
        typed = move_input.input_value()
        if sorted(typed.split()) != sorted(str(move).replace("*", "").split()):
            move_input.fill(str(move))  # a click path the board reads otherwise: type it
        if turns == 4:
            screenshot("club-night-board", page)
        click_and_wait(page, table_id, page.locator(f"#board-{table_id}").get_by_role("button", name="Confirm", exact=True))
        turns += 1
    first = table_state(app, table_id).games[0]
    assert first.mode == "board" and first.winner in ("box", "team") and dropped is not None
    expect(panel.locator(f'#table-history-{table_id} tr[data-game="1"]')).to_contain_text("board")
    screenshot("club-night-after-board-game", page)

    # Game 2 on the score sheet: the team wins a gammon.
    click_and_wait(page, table_id, page.get_by_role("button", name="Team wins gammon"))
    expect(panel.locator(f'#table-history-{table_id} tr[data-game="2"]')).to_contain_text("Team wins gammon")
    after_two = table_state(app, table_id)
    expect(screen.locator(f"#display-table-{table_id}")).to_contain_text(after_two.captain, timeout=10_000)

    # Undo, confirmed in the browser's dialog: game 2 is gone, the undo is in the log.
    click_and_wait(page, table_id, page.get_by_role("link", name="Undo", exact=True))
    expect(panel.locator(f'#table-history-{table_id} tr[data-game="2"]')).to_have_count(0)
    expect(panel.locator(".recent-log li").first).to_contain_text("Undo of the latest action")
    assert table_state(app, table_id).game is None and len(table_state(app, table_id).games) == 1

    # The table page on a tablet, a phone and a TV.
    screenshot("club-night-table-tablet", page)
    page.set_viewport_size(PHONE)
    screenshot("club-night-table-phone", page)
    page.set_viewport_size({"width": 1920, "height": 1080})
    screenshot("club-night-table-tv", page)
    screenshot("club-night-display", screen)


@pytest.mark.browser
def test_a_player_answers_on_their_phone_and_the_organizers_tablet_follows(live_server, browser, screenshot):
    from chouette.services import tables
    from tests.browser.conftest import OFF_SITE
    from tests.factories import PASSWORD as MEMBER_PASSWORD
    from tests.factories import gen_member, gen_night, gen_table

    app, base = live_server.app, live_server.url
    with app.app_context():
        olga = gen_member("organizer", name="Olga")
        cy = gen_member("player", name="Cy")
        night = gen_night(opened_by_id=olga.id)
        table_id = gen_table(night, created_by_id=olga.id).id
        for event in ([{"type": "join", "player": n} for n in ("Ann", "Bob", "Cy", "Dee")]
                      + [{"type": "order", "players": ["Ann", "Bob", "Cy", "Dee"]},
                         {"type": "double", "by": "box", "cubes": ["Cy", "Dee"]}]):
            commands.play(table_id, tables.last_seq(table_id), event, olga)
        logins = {"olga": olga.username, "cy": cy.username}
        db.session.commit()

    def device(username, size):
        context = browser.new_context(viewport=size)
        context.route(OFF_SITE, lambda route: route.abort())
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.goto(f"{base}/auth/login")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(MEMBER_PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.goto(f"{base}/tables/{table_id}")
        page.evaluate("""window.polls = 0;
            document.body.addEventListener("htmx:afterRequest", (e) => {
                // The table's own fetches: the "Who is here" panel refreshes when a device
                // connects (presence), which is a change.
                if (e.detail.requestConfig.verb === "get" && !e.detail.requestConfig.path.includes("/social"))
                    window.polls += 1; });""")
        return page

    tablet, phone = device(logins["olga"], TABLET), device(logins["cy"], PHONE)
    # Nothing changes: the tablet holds its stream and asks nothing; what the organizer typed stays.
    tablet.get_by_label("Name (a member or a guest)").fill("Zed")
    expect(tablet.locator(".live-push")).to_have_attribute("data-push", "open")
    tablet.wait_for_timeout(5000)  # longer than the old 4 s poll
    assert tablet.evaluate("window.polls") == 0
    expect(tablet.get_by_label("Name (a member or a guest)")).to_have_value("Zed")

    # Cy's phone offers Cy's own decision only; Cy takes.
    mine = phone.locator('.cube-row[data-member="Cy"]')
    expect(mine.get_by_role("button")).to_have_count(2)
    expect(phone.locator('.cube-row[data-member="Dee"]').get_by_role("button")).to_have_count(0)
    expect(phone.get_by_role("button", name="Sit down")).to_have_count(0)
    screenshot("club-night-player-phone", phone)
    phone.bring_to_front()
    mine.get_by_role("button", name="Take").click()
    expect(phone.locator('.cube-row[data-member="Cy"]')).not_to_have_class(re.compile("waiting"))

    # The organizer's tablet follows by itself (pushed), and keeps the name being typed.
    tablet.bring_to_front()
    expect(tablet.locator('.cube-row[data-member="Cy"]')).not_to_have_class(re.compile("waiting"))
    expect(tablet.get_by_label("Name (a member or a guest)")).to_have_value("Zed")
    expect(tablet.locator('.cube-row[data-member="Dee"]').get_by_role("button", name="Drop")).to_be_visible()
    assert table_state(app, table_id).game.box_double.answers == {"Cy": "take"}
