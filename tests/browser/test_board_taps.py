"""Tap to move on the real table page (live server, Debian's chromium), and the JS mirror.

The 4-2 of the bug report on a table whose box opened with 4-2; the chosen steps drawn on the
board; every point, the bar and the tray a finger-size target on a phone; no sideways scroll at
390x844, 1024x768 and 1920x1080 (screenshots in test-artifacts/); and board.js offering exactly
the targets that ``chouette.web.board_taps`` offers, on random positions and after random taps.
"""

from __future__ import annotations

import json
import random

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from chouette.engine import Position, apply_move, legal_moves
from chouette.extensions import db
from chouette.services import commands, tables
from chouette.web.board_taps import encode, offered_targets, tap_graph, tap_text, walk
from tests.browser.conftest import ARTIFACTS, board_point
from tests.browser.test_board_js import board_page, point
from tests.factories import PASSWORD, gen_member, gen_night, gen_table

SIZES = {"phone": (390, 844), "tablet": (1024, 768), "tv": (1920, 1080)}


def opened_with_four_two(app: Flask) -> tuple[int, str]:
    """A table whose box (Ann) won the opening roll 4-2, run by an organizer: (table id, username)."""
    with app.app_context():
        olga = gen_member("organizer", name="Olga")
        night = gen_night(opened_by_id=olga.id)
        table_id = gen_table(night, created_by_id=olga.id).id
        events = [{"type": "join", "player": n} for n in ("Ann", "Bob", "Cy")]
        events += [{"type": "order", "players": ["Ann", "Bob", "Cy"]},
                   {"type": "opening_roll", "box": 4, "team": 2}]
        for event in events:
            commands.play(table_id, tables.last_seq(table_id), event, olga)
        username = olga.username
        db.session.commit()
    return table_id, username


def open_table(page: Page, base: str, table_id: int, username: str) -> None:
    page.goto(f"{base}/auth/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{base}/tables/{table_id}")


def shown(page: Page, table_id: int, n: int):
    """Point ``n`` of the box (on roll) on the drawing shown: 25 the bar, 0 the box's tray."""
    return board_point(page, table_id, n)


def targets_shown(page: Page, table_id: int) -> list[int]:
    return sorted(int(t) for t in page.locator(f"#board-{table_id} svg.board:visible g.target")
                  .evaluate_all("els => els.map(e => e.getAttribute('data-point'))"))


@pytest.mark.browser
@pytest.mark.parametrize("size", ["phone", "tablet"])
def test_four_two_after_13_9_offers_only_11_from_13_and_the_play_is_accepted(live_server, page: Page, size):
    table_id, username = opened_with_four_two(live_server.app)
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    open_table(page, live_server.url, table_id, username)
    move = page.locator(f"#board-{table_id} input[name='move']")
    shown(page, table_id, 13).click()
    assert targets_shown(page, table_id) == [7, 9, 11]
    shown(page, table_id, 9).click()
    expect(move).to_have_value("13/9")
    shown(page, table_id, 13).click()
    # The bug: 9 was offered again (the 4 is used) and "13/9 13/9" was refused.
    assert targets_shown(page, table_id) == [11]
    shown(page, table_id, 11).click()
    expect(move).to_have_value("13/9 13/11")
    expect(page.locator(f"#board-{table_id} [data-board-play]")).to_have_class("primary ready")
    page.locator(f"#board-{table_id}").get_by_role("button", name="Confirm", exact=True).click()
    expect(page.locator(f"#table-live-{table_id} .recent-log li").first).to_contain_text("13/9 13/11")


@pytest.mark.browser
def test_chosen_steps_are_drawn_and_undo_puts_them_back(live_server, page: Page, screenshot):
    table_id, username = opened_with_four_two(live_server.app)
    page.set_viewport_size({"width": 1024, "height": 768})
    open_table(page, live_server.url, table_id, username)
    board = page.locator(f"#board-{table_id}")
    pips = board.locator("svg.board:visible g.side[data-side='box'] .pips")
    expect(pips).to_contain_text("167")

    def checkers(n: int, side: str = "box"):
        return shown(page, table_id, n).locator(f"g.checkers[data-side='{side}']:visible circle")

    expect(checkers(13)).to_have_count(5)
    shown(page, table_id, 13).click()
    shown(page, table_id, 9).click()
    # The checker has left 13 for 9, before anything is sent.
    expect(checkers(13)).to_have_count(4)
    expect(checkers(9)).to_have_count(1)
    expect(pips).to_contain_text("163")
    shown(page, table_id, 9).click()
    shown(page, table_id, 7).click()
    expect(checkers(9)).to_have_count(0)
    expect(checkers(7)).to_have_count(1)
    screenshot("board-steps-drawn-tablet")
    board.get_by_role("button", name="Undo step").click()
    expect(board.locator("input[name='move']")).to_have_value("13/9")
    expect(checkers(7)).to_have_count(0)
    expect(checkers(9)).to_have_count(1)
    board.get_by_role("button", name="Clear").click()
    expect(checkers(13)).to_have_count(5)
    expect(checkers(9)).to_have_count(0)
    expect(pips).to_contain_text("167")


@pytest.mark.browser
def test_a_hit_is_drawn_on_the_opponents_bar(page: Page, app: Flask):
    # 6-1: the box hits the team's blot on the box's 7 point (the team's 18) from 13.
    position = Position.from_points({13: 1, 6: 5, 8: 3, 24: 2, 1: 4}, {18: 1, 13: 2, 6: 12})
    page.set_viewport_size({"width": 1100, "height": 900})
    page.set_content(board_page(app, position, (6, 1)))
    point(page, 13).click()
    point(page, 7).click()
    expect(page.locator("#board-7 input[name='move']")).to_have_value("13/7*")
    bar = point(page, 25)
    expect(bar.locator("g.checkers[data-side='team']:visible circle")).to_have_count(1)
    expect(point(page, 7).locator("g.checkers[data-side='team']:visible")).to_have_count(0)
    expect(point(page, 7).locator("g.checkers[data-side='box']:visible circle")).to_have_count(1)
    page.locator("#board-7").get_by_role("button", name="Undo step").click()
    expect(bar.locator("g.checkers:visible")).to_have_count(0)
    expect(point(page, 7).locator("g.checkers[data-side='team']:visible circle")).to_have_count(1)


@pytest.mark.browser
def test_every_point_the_bar_and_off_are_finger_size_and_nothing_scrolls_sideways(live_server, page: Page, screenshot):
    table_id, username = opened_with_four_two(live_server.app)
    page.set_viewport_size({"width": 390, "height": 844})
    open_table(page, live_server.url, table_id, username)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        svg = page.locator(f"#board-{table_id} svg.board:visible")
        expect(svg).to_have_count(1)
        # The hit area of each point (its rect), the bar and the box's tray.
        boxes = svg.locator("g.point > rect.hit, g.bar-area > rect.bar, g.tray[data-point='0'] > rect.tray-half")
        expect(boxes).to_have_count(26)
        sizes = boxes.evaluate_all("els => els.map(e => { const r = e.getBoundingClientRect(); "
                                   "return [e.parentNode.getAttribute('data-point'), r.width, r.height]; })")
        small = [(n, round(w), round(h)) for n, w, h in sizes if w < 40 or h < 40]
        assert not small, f"{size}: under 40 CSS px: {small}"
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{size} scrolls sideways"
        shown(page, table_id, 13).click()
        screenshot(f"board-table-{size}")
        page.locator(f"#board-{table_id}").screenshot(path=str(ARTIFACTS / f"board-taps-{size}.png"))
        shown(page, table_id, 13).click()


def js_targets(page: Page, taps: str, text: str) -> dict[str, dict[str, str]]:
    """What board.js offers after ``text``: {from: {to: the text the tap writes}}."""
    return page.evaluate(
        """([taps, text]) => { const b = window.chouetteBoard, nodes = b.decode(taps);
             const found = b.offeredTargets(nodes, b.walk(nodes, text).node), out = {};
             for (const from in found) { out[from] = {};
               for (const to in found[from]) out[from][to] = b.tapText(found[from][to]); }
             return out; }""",
        [taps, text],
    )


def py_targets(position: Position, dice, text: str) -> dict[str, dict[str, str]]:
    graph = tap_graph(position, dice)
    found = offered_targets(graph, walk(graph, text).node)
    return {str(a): {str(b): tap_text(chain) for b, chain in ends.items()} for a, ends in found.items()}


CASES = [
    (Position.initial(), (4, 2), ""),
    (Position.initial(), (4, 2), "13/9"),
    (Position.initial(), (3, 3), "13/10 13/10"),
    (Position.initial(), (6, 6), "24/18(2)"),
    (Position.from_points({25: 2, 6: 13}, {6: 12, 5: 2}), (4, 4), "bar/21"),
    (Position.from_points({25: 1, 6: 14}, {6: 15}), (3, 1), ""),
    (Position.from_points({6: 2, 5: 1, 3: 2, 1: 3}, {6: 15}), (6, 2), "6/off"),
    (Position.from_points({4: 1, 2: 2}, {6: 15}), (5, 5), ""),
]


@pytest.mark.browser
def test_board_js_offers_exactly_the_targets_of_board_taps(page: Page, app: Flask):
    page.set_content(board_page(app, Position.initial(), (6, 5)))
    rng = random.Random(11)
    cases = list(CASES)
    # Random games, each stopped after a random number of plays, and random taps already chosen.
    for _ in range(40):
        position = Position.initial()
        for _ply in range(rng.randint(0, 60)):
            plays = legal_moves(position, (rng.randint(1, 6), rng.randint(1, 6)))
            if plays:
                position = apply_move(position, rng.choice(plays))
            if position.mover[0] == 15:
                break
            position = position.swap()
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        graph, node, text = tap_graph(position, dice), 0, ""
        for _tap in range(rng.randint(0, 3)):
            targets = offered_targets(graph, node)
            if not targets:
                break
            ends = targets[rng.choice(sorted(targets))]
            chain = ends[rng.choice(sorted(ends))]
            text, node = f"{text} {tap_text(chain)}".strip(), chain[-1][3]
        cases.append((position, dice, text))
    for position, dice, text in cases:
        expected = py_targets(position, dice, text)
        got = js_targets(page, encode(tap_graph(position, dice)), text)
        assert got == expected, json.dumps([position.id, dice, text])


@pytest.mark.browser
@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_board_marks_exactly_those_targets(page: Page, app: Flask, case: int):
    position, dice, text = CASES[case]
    page.set_viewport_size({"width": 390, "height": 844})
    page.set_content(board_page(app, position, dice))
    if text:
        page.locator("#board-7 input[name='move']").fill(text)
    expected = py_targets(position, dice, text)
    movable = page.locator("#board-7 svg.board:visible g.movable").evaluate_all(
        "els => els.map(e => e.getAttribute('data-point'))")
    assert sorted(movable) == sorted(expected)
    for start, ends in expected.items():
        point(page, int(start)).click()
        marked = page.locator("#board-7 svg.board:visible .target").evaluate_all(
            "els => els.map(e => e.getAttribute('data-point'))")
        assert sorted(marked) == sorted(ends), f"from {start}"
        point(page, int(start)).click()
