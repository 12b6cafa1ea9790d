"""Tap to move in a real browser: the board fragment with board.js, on a page of its own.

The page is set as content (no server, no network): the fragment rendered by Flask, with
app.css, board.css and board.js inlined. Screenshots go to test-artifacts/ (gitignored).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask, render_template
from playwright.sync_api import Page, expect

from chouette.engine import Position
from chouette.web.board import board_context, legal_steps
from chouette.web.board_cubes import CubeView
from tests.browser.conftest import board_point

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


def board_page(
    app: Flask,
    position: Position,
    dice: tuple[int, int],
    *,
    dark: bool = False,
    on_roll: str = "box",
    numbering: str = "bottom",
) -> str:
    """A whole HTML page holding the interactive board of table 7, ``position`` seen from ``on_roll``."""
    context = board_context(
        7,
        position,
        on_roll=on_roll,
        dice=dice,
        cubes=[CubeView("Ann", 2, "member"), CubeView("Bob", 1), CubeView("Carla", 4, "box")],
        labels={"box": "Zoe", "team": "Ann, Bob, Carla"},
        legal=legal_steps(position, dice),
        interactive=True,
        numbering=numbering,
        move_url="/tables/7/move",
    )
    with app.test_request_context():
        fragment = render_template("board/_board.html", board_assets=False, **context)
    css = "".join((ROOT / "static/css" / name).read_text() for name in ("app.css", "board.css"))
    js = (ROOT / "static/js/board.js").read_text()
    theme = ' class="theme-dark" style="background:#0b1220"' if dark else ""
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><style>{css}</style></head>"
        f"<body{theme}><main class='content'>{fragment}</main><script>{js}</script></body></html>"
    )


def point(page: Page, n: int, svg: str = "svg.board:visible"):
    """The on-roll player's point ``n`` (25 = bar, 0 = their tray) on the drawing shown."""
    return board_point(page, 7, n, svg)


@pytest.mark.browser
def test_tap_a_checker_then_its_destination_writes_the_move(page: Page, app: Flask):
    page.set_viewport_size({"width": 1100, "height": 900})
    page.set_content(board_page(app, Position.initial(), (6, 5)))
    move = page.locator("#board-7 input[name='move']")
    expect(page.locator("#board-7 [data-board-clear]")).to_be_visible()

    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#board-7").screenshot(path=str(ARTIFACTS / "board.png"))

    point(page, 24).click()
    expect(point(page, 24)).to_have_class("point movable selected")
    expect(page.locator("#board-7 [data-board-composing]")).to_have_text("24/…")
    point(page, 18).click()
    expect(move).to_have_value("24/18")
    point(page, 13).click()
    point(page, 8).click()
    expect(move).to_have_value("24/18 13/8")
    expect(page.locator("#board-7 [data-board-composing]")).to_have_text("24/18 13/8")
    expect(page.locator("#board-7 [data-board-play]")).to_have_class("primary ready")

    page.locator("#board-7 [data-board-clear]").click()
    expect(move).to_have_value("")
    expect(page.locator("#board-7 [data-board-composing]")).to_be_hidden()


@pytest.mark.browser
def test_tapping_the_same_point_twice_cancels_and_empty_points_are_ignored(page: Page, app: Flask):
    page.set_content(board_page(app, Position.initial(), (6, 5)))
    move = page.locator("#board-7 input[name='move']")
    point(page, 6).click()
    point(page, 6).click()
    point(page, 20).click()  # no checker of the box there: nothing selected
    point(page, 14).click()
    expect(move).to_have_value("")
    # A checker moved by a tap can be moved on: 24/18 then 18/13.
    point(page, 24).click()
    point(page, 18).click()
    point(page, 18).click()
    point(page, 13).click()
    expect(move).to_have_value("24/18 18/13")


@pytest.mark.browser
def test_bar_and_off_are_written_in_words(page: Page, app: Flask):
    entering = Position.from_points({25: 1, 6: 14}, {6: 15})
    page.set_content(board_page(app, entering, (3, 1)))
    move = page.locator("#board-7 input[name='move']")
    point(page, 25).click()
    point(page, 22).click()
    expect(move).to_have_value("bar/22")

    bearing_off = Position.from_points({6: 2, 1: 3}, {6: 15})
    page.set_content(board_page(app, bearing_off, (6, 1)))
    point(page, 6).click()
    point(page, 0).click()
    point(page, 1).click()
    point(page, 0).locator(".tray-half").click(force=True)  # the tray, not the slabs
    expect(page.locator("#board-7 input[name='move']")).to_have_value("6/off 1/off")


@pytest.mark.browser
def test_team_on_roll_taps_in_the_teams_numbering(page: Page, app: Flask):
    page.set_viewport_size({"width": 1100, "height": 900})
    page.set_content(board_page(app, Position.initial(), (6, 5), on_roll="team"))
    # The box stays at the bottom: the team's 24 point is drawn bottom right (the box's 1).
    team_24 = point(page, 24).bounding_box()
    team_1 = point(page, 1).bounding_box()
    assert team_24 and team_1 and team_24["y"] > team_1["y"] and team_24["x"] == team_1["x"]
    point(page, 24).click()
    point(page, 18).click()
    expect(page.locator("#board-7 input[name='move']")).to_have_value("24/18")


@pytest.mark.browser
def test_the_move_being_composed_survives_a_fresh_copy_of_the_board(page: Page, app: Flask):
    page.set_content(board_page(app, Position.initial(), (4, 2)))
    point(page, 13).click()
    point(page, 9).click()
    point(page, 24).click()
    # What an htmx swap does: a fresh copy from the server (its move box empty) replaces the
    # board, then htmx says the swap has settled.
    fresh = board_page(app, Position.initial(), (4, 2))
    page.evaluate(
        """(html) => { const doc = new DOMParser().parseFromString(html, "text/html");
                       document.getElementById('board-7').replaceWith(doc.getElementById('board-7'));
                       document.body.dispatchEvent(new Event('htmx:afterSettle', {bubbles: true})); }""",
        fresh,
    )
    move = page.locator("#board-7 input[name='move']")
    expect(move).to_have_value("13/9")
    expect(point(page, 9).locator("g.checkers.mover circle")).to_have_count(1)
    expect(point(page, 24)).to_have_class("point movable selected")  # the selection too
    point(page, 24).click()  # cancel
    point(page, 13).click()
    expect(page.locator("#board-7 svg.board:visible g.target")).to_have_count(1)
    point(page, 11).click()
    expect(move).to_have_value("13/9 13/11")


@pytest.mark.browser
def test_typing_by_hand_is_kept_and_taps_append(page: Page, app: Flask):
    page.set_content(board_page(app, Position.initial(), (6, 5)))
    move = page.locator("#board-7 input[name='move']")
    move.fill("24/18")
    point(page, 13).click()
    point(page, 8).click()
    expect(move).to_have_value("24/18 13/8")


@pytest.mark.browser
def test_dark_board_and_a_phone_screenshot(page: Page, app: Flask):
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.set_content(board_page(app, Position.from_id("6x8AcEDY/QEAMA"), (4, 4), dark=True))
    page.locator("#board-7").screenshot(path=str(ARTIFACTS / "board-dark.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.set_content(board_page(app, Position.initial(), (6, 5)))
    expect(page.locator("#board-7 .board-cubes")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "board-phone.png"), full_page=True)
    box = page.locator("#board-7 svg.board:visible").bounding_box()
    assert box is not None and box["width"] <= 390


@pytest.mark.browser
def test_the_hints_follow_the_steps_already_chosen(page: Page, app: Flask):
    """After 24/23 with 2-1, the checker on 23 may go on to 21 (the other order of 24/21),
    the 8 may only use the 2 now (8/6, no longer 8/7), and the 24 has only the 2 left."""
    page.set_content(board_page(app, Position.initial(), (2, 1)))
    point(page, 8).click()
    expect(point(page, 7)).to_have_class("point target")
    expect(point(page, 6)).to_have_class("point movable target")
    point(page, 8).click()  # cancel
    point(page, 24).click()
    point(page, 23).click()
    expect(page.locator("#board-7 input[name='move']")).to_have_value("24/23")
    expect(point(page, 23)).to_have_class("point movable")
    point(page, 23).click()
    expect(point(page, 21)).to_have_class("point target")
    expect(point(page, 22)).not_to_have_class("point target")
    point(page, 23).click()  # cancel
    point(page, 8).click()
    expect(point(page, 6)).to_have_class("point movable target")
    expect(point(page, 7)).not_to_have_class("point target")
    point(page, 8).click()
    point(page, 24).click()
    expect(point(page, 22)).to_have_class("point target")
    expect(point(page, 23)).not_to_have_class("point movable target")
    # Both dice used: nothing can move any more.
    point(page, 22).click()
    expect(page.locator("#board-7 svg g.movable")).to_have_count(0)
