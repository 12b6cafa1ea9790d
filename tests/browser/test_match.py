"""A 3-point match played to its end in a real browser: the organizer's tablet, a player's
phone and the big screen (docs/rules.md 1.8: doubles and drops, the Crawford game on the board)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from chouette.engine import apply_move, legal_moves
from chouette.table.match_rules import match_of
from tests.browser.test_club_night import (
    PHONE,
    board_point,
    click_and_wait,
    live,
    seq_of,
    table_state,
)
from tests.factories import gen_member, gen_night

TABLET = {"width": 1024, "height": 768}
TV = {"width": 1920, "height": 1080}


def _tap_move(page: Page, app, table_id: int) -> None:
    """The player on roll's move: the play leaving them the fewest pips, tapped on the board."""
    game = table_state(app, table_id).game
    plays = legal_moves(game.position, game.dice)
    move = min(plays, key=lambda m: (apply_move(game.position, m).pips()[0], str(m)))
    move_input = page.locator(f"#board-{table_id} input[name='move']")
    if not move_input.count():  # say what the page shows instead, should it never come
        try:
            move_input.wait_for(state="attached")
        except Exception as missing:
            game = table_state(app, table_id).game
            raise AssertionError(
                f"no move field; the server has dice {game.dice} for {game.on_roll}, the page "
                f"shows seq {seq_of(page, table_id)}: {live(page, table_id).inner_text()[:800]}"
            ) from missing
    for start, end, _hit in move.steps:
        board_point(page, table_id, start).click()
        board_point(page, table_id, end).click()
    if sorted(move_input.input_value().split()) != sorted(str(move).replace("*", "").split()):
        move_input.fill(str(move))  # a click path the board reads otherwise: type it
    click_and_wait(page, table_id, page.locator(f"#board-{table_id}").get_by_role("button", name="Confirm", exact=True))


def _opening(page: Page, table_id: int, first: int, second: int) -> None:
    """The opening roll typed: Ann's die, then Bob's."""
    page.get_by_label("Ann's die").fill(str(first))
    page.get_by_label("Bob's die").fill(str(second))
    click_and_wait(page, table_id, page.get_by_role("button", name="Enter the dice"))


def _double_and_drop(page: Page, app, table_id: int, doubler: str, dropper: str,
                     drop_page: Page | None = None) -> None:
    """A new game: the opening roll (the dropper opens), their move, then the doubler doubles
    and the dropper drops (from ``drop_page``: their phone, when given)."""
    _opening(page, table_id, *((2, 5) if dropper == "Bob" else (5, 2)))
    _tap_move(page, app, table_id)
    click_and_wait(page, table_id, page.get_by_role("button", name=f"{doubler} doubles"))
    if drop_page is None:
        click_and_wait(page, table_id, page.get_by_role("button", name=f"{dropper}: Drop"))
        return
    decision = drop_page.locator(".my-decision")
    expect(decision).to_contain_text(f"{doubler} doubles you to 2.", timeout=10_000)
    before = table_state(app, table_id).games
    decision.get_by_role("button", name="Drop").click()
    expect(page.locator(f"#table-match-{table_id} tr[data-game='{len(before) + 1}']")).to_be_visible(timeout=10_000)


@pytest.mark.browser
def test_a_three_point_match_is_played_to_its_end(live_server, browser, screenshot):
    from tests.factories import PASSWORD as MEMBER_PASSWORD

    app, base = live_server.app, live_server.url
    with app.app_context():
        olga = gen_member("organizer", name="Olga", password=MEMBER_PASSWORD)
        gen_member("player", name="Ann", password=MEMBER_PASSWORD)
        bob = gen_member("player", name="Bob", password=MEMBER_PASSWORD)
        night_id = gen_night(name="Friday", opened_by_id=olga.id).id
        olga_login, bob_login = olga.username, bob.username

    from tests.browser.conftest import OFF_SITE

    tablet_context = browser.new_context(viewport=TABLET)
    tablet_context.route(OFF_SITE, lambda route: route.abort())
    tablet_context.set_default_timeout(10_000)
    page = tablet_context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())

    def sign_in(target: Page, username: str) -> None:
        target.goto(f"{base}/auth/login")
        target.get_by_label("Username").fill(username)
        target.get_by_label("Password").fill(MEMBER_PASSWORD)
        target.get_by_role("button", name="Sign in").click()
        expect(target.get_by_role("button", name="Sign out")).to_be_visible()

    sign_in(page, olga_login)

    # The organizer opens a 3-point match between two members.
    page.goto(f"{base}/nights/{night_id}")
    page.get_by_role("link", name="New match").click()
    page.get_by_label("Table name").fill("Final")
    page.get_by_label("First player").fill("Ann")
    page.get_by_label("Second player").fill("Bob")
    page.get_by_label("Match to (points)").fill("3")
    screenshot("match-new", page)
    page.get_by_role("button", name="Open the match").click()
    expect(page.get_by_role("heading", name="Final", exact=True)).to_be_visible()
    table_id = int(re.search(r"/tables/(\d+)", page.url).group(1))
    card = page.locator(f"#table-match-{table_id}")
    expect(card).to_contain_text("Match to 3")

    # Bob follows on their phone; the big screen shows the match.
    phone_context = browser.new_context(viewport=PHONE)
    phone_context.route(OFF_SITE, lambda route: route.abort())
    phone_context.set_default_timeout(10_000)
    phone = phone_context.new_page()
    sign_in(phone, bob_login)
    phone.goto(f"{base}/tables/{table_id}")
    screen = tablet_context.new_page()
    screen.set_viewport_size(TV)
    screen.goto(f"{base}/display")
    tv = screen.locator(f"#display-table-{table_id}")
    expect(tv).to_contain_text("Match to 3")
    page.bring_to_front()

    # Game 1: Ann doubles, Bob drops on their phone (1-0). Game 2: Bob doubles, Ann drops (1-1).
    # Game 3: Ann doubles, Bob drops (2-1): the Crawford game is next.
    _double_and_drop(page, app, table_id, "Ann", "Bob", drop_page=phone)
    _double_and_drop(page, app, table_id, "Bob", "Ann")
    _double_and_drop(page, app, table_id, "Ann", "Bob")
    assert match_of(table_state(app, table_id)).scores == (2, 1)
    expect(card).to_contain_text("Crawford game: no double")
    expect(tv.locator(".dt-match")).to_contain_text("Crawford game", timeout=10_000)

    # Game 4, the Crawford game, on the board: server dice, moves tapped; no double offered.
    click_and_wait(page, table_id, page.get_by_role("button", name="Opening roll"))
    turns = 0
    while table_state(app, table_id).game is not None:
        game = table_state(app, table_id).game
        if game.position is None:  # a tied opening roll: roll again
            click_and_wait(page, table_id, page.get_by_role("button", name="Opening roll"))
        elif game.dice is None:
            expect(card.get_by_role("button", name=re.compile("doubles$"))).to_have_count(0)
            click_and_wait(page, table_id, page.get_by_role("button", name="Roll", exact=True))
        else:
            _tap_move(page, app, table_id)
            turns += 1
            if turns == 6:
                for name, size in (("tablet", TABLET), ("phone", PHONE), ("tv", TV)):
                    page.set_viewport_size(size)
                    page.reload()  # a phone gets the upright board
                    screenshot(f"match-table-{name}", page)
                page.set_viewport_size(TABLET)
                page.reload()
                screenshot("match-playing-display-tv", screen)
    state = table_state(app, table_id)
    assert state.games[-1].mode == "board"
    match = match_of(state)
    if not match.is_over:  # Bob won the Crawford game by a single: 2-2, one more game
        assert match.scores == (2, 2) and match.post_crawford
        _double_and_drop(page, app, table_id, "Ann", "Bob")
        match = match_of(table_state(app, table_id))
    assert match.is_over
    winner = ("Ann", "Bob")[match.winner]
    expect(card.locator(".match-over")).to_contain_text(f"{winner} wins the match")
    expect(tv.locator(".dt-match")).to_contain_text(f"{winner} wins the match", timeout=10_000)
    expect(page.get_by_role("button", name="Opening roll")).to_have_count(0)
    for name, size in (("tablet", TABLET), ("phone", PHONE), ("tv", TV)):
        page.set_viewport_size(size)
        page.reload()
        screenshot(f"match-over-{name}", page)
    for name, size in (("tablet", TABLET), ("phone", PHONE), ("tv", TV)):
        screen.set_viewport_size(size)
        screenshot(f"match-display-{name}", screen)

    # The winner's page says so.
    page.goto(f"{base}/players/{winner}")
    expect(page.locator("#player-matches .match-row")).to_contain_text("Won")
    phone_context.close()
    tablet_context.close()
