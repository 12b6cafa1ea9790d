"""A match on a phone (issue 25, item 8): the organizer records a match played on a physical
board game by game from a 390x844 phone, and the match page never scrolls sideways."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from chouette.table.match_rules import match_of
from tests.browser.test_club_night import PASSWORD, PHONE, click_and_wait, sign_in, table_state
from tests.factories import gen_member, gen_night

TABLET = {"width": 1024, "height": 768}
TV = {"width": 1920, "height": 1080}


def _no_sideways_scroll(page: Page, what: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{what}: the page is {width}px wide on a {PHONE['width']}px phone"


def _record(page: Page, table_id: int, winner: str, how: str, cube: str) -> None:
    form = page.locator(f"#table-match-{table_id} form.match-sheet")
    form.get_by_label("Winner").select_option(winner)
    form.get_by_label("How").select_option(label=how)
    form.get_by_label("Cube").select_option(cube)
    click_and_wait(page, table_id, form.get_by_role("button", name="Record the game"))


@pytest.mark.browser
def test_a_match_is_recorded_game_by_game_on_a_phone_without_sideways_scroll(live_server, page, screenshot):
    app, base = live_server.app, live_server.url
    with app.app_context():
        olga = gen_member("organizer", name="Olga", password=PASSWORD)
        gen_member("player", name="Annabella Montefeltro", password=PASSWORD)
        gen_member("player", name="Bob", password=PASSWORD)
        night_id = gen_night(name="Friday", opened_by_id=olga.id).id
        login = olga.username
    page.set_viewport_size(PHONE)
    page.on("dialog", lambda dialog: dialog.accept())  # the undo's confirmation
    sign_in(page, base, login)
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    page.goto(f"{base}/nights/{night_id}/matches/new")
    page.get_by_label("Table name").fill("Final")
    page.get_by_label("First player").fill("Annabella Montefeltro")
    page.get_by_label("Second player").fill("Bob")
    page.get_by_label("Match to (points)").fill("3")
    page.get_by_label("Money").select_option("match")
    page.get_by_label("Stake", exact=True).fill("10")
    page.get_by_role("button", name="Open the match").click()
    expect(page.get_by_role("heading", name="Final", exact=True)).to_be_visible()
    table_id = int(re.search(r"/tables/(\d+)", page.url).group(1))
    _no_sideways_scroll(page, "a new match")

    # A game on the app's board: the opening roll typed, then the page on a phone.
    page.get_by_label("Annabella Montefeltro's die").fill("5")
    page.get_by_label("Bob's die").fill("2")
    click_and_wait(page, table_id, page.get_by_role("button", name="Enter the dice"))
    _no_sideways_scroll(page, "a game on the board")
    click_and_wait(page, table_id, page.get_by_role("link", name="Undo", exact=True))

    # Three games from a physical board, each in one form.
    _record(page, table_id, "Annabella Montefeltro", "single", "2")
    _no_sideways_scroll(page, "after game 1")
    expect(page.locator(f"#table-match-{table_id}")).to_contain_text("Crawford game: no double")
    for name, size in (("phone", PHONE), ("tablet", TABLET), ("tv", TV)):
        page.set_viewport_size(size)
        page.reload()
        screenshot(f"match-sheet-form-{name}", page)
    page.set_viewport_size(PHONE)
    page.reload()
    _record(page, table_id, "Bob", "gammon", "1")
    _record(page, table_id, "Bob", "single", "1")
    match = match_of(table_state(app, table_id))
    assert match.scores == (2, 3) and match.is_over
    card = page.locator(f"#table-match-{table_id}")
    expect(card.locator(".match-over")).to_contain_text("Bob wins the match 3-2.")
    expect(card.locator("tr[data-game]")).to_have_count(3)
    expect(card.locator("form.match-sheet")).to_have_count(0)
    _no_sideways_scroll(page, "the match over")
    for name, size in (("phone", PHONE), ("tablet", TABLET), ("tv", TV)):
        page.set_viewport_size(size)
        page.reload()
        screenshot(f"match-sheet-{name}", page)
    page.set_viewport_size(PHONE)
    page.goto(f"{base}/nights/{night_id}")
    expect(page.locator("#table-list")).to_contain_text("Match to 3 · €10.00 the match")
    _no_sideways_scroll(page, "the night page")
