"""The big screen as a club lives it (issue #25): the money column whole when extras show, an
emptied table on one line, three tables filling the TV, one TV per room (``?tables=``) kept
current by push while another device plays, and the page's landmark and heading."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from chouette import caches
from chouette.extensions import db
from chouette.models import Night
from chouette.services import table_states, tables
from chouette.table.actions import board_events
from tests.browser.test_display import CLUB, board_with_cubes, in_app, organizer_of
from tests.browser.test_live_room import PHONE, TV, Room, device, live, open_table
from tests.factories import gen_night, gen_table
from tests.web.test_display import busy_table, play, seat

pytestmark = pytest.mark.browser

SIZES = [(1920, 1080), (1024, 768), (390, 844)]


def extras_table(table_id: int, organizer: Any, names: list[str], givers: int = 3) -> None:
    """A game on the app's board where the box doubled every member, the first took and the
    others dropped, ``givers`` of them giving the taker an extra cube (docs/rules.md 2.7)."""
    seat(table_id, organizer, names)
    rng = random.Random(4)
    for _turn in range(20):
        state = table_states.load_play(table_id).state
        game = state.game
        if game is not None and game.mode is not None and game.on_roll == "box" and game.dice is None:
            break
        play(table_id, organizer, *board_events(state, rng.choice, lambda: rng.randint(1, 6)))
    members = list(table_states.load_play(table_id).state.game.members)
    play(table_id, organizer, {"type": "double", "by": "box", "cubes": members},
         {"type": "take", "cube": members[0]},
         *({"type": "drop", "cube": m} for m in members[1:]),
         *({"type": "extra", "from": m, "to": members[0]} for m in members[1:givers + 1]))


def emptied_table(table_id: int, organizer: Any, names: list[str]) -> None:
    """A table that played two games, then everyone left."""
    busy_table(table_id, organizer, names, 2)
    state = table_states.load_play(table_id).state
    play(table_id, organizer, {"type": "take", "cube": state.line[1]},
         {"type": "result", "winner": "box", "kind": "single"})
    for name in table_states.load_play(table_id).state.seated:
        play(table_id, organizer, {"type": "leave", "player": name})


def night_of(app: Any, build: list[tuple[str, Any]]) -> list[int]:
    """A night whose tables are built in order by ``build``: (name, builder(table_id, n))."""
    organizer = organizer_of(app)
    ids = []
    with in_app(app):
        night = gen_night(name="Friday chouette")
        for number, (name, builder) in enumerate(build):
            settings = {**tables.TABLE_DEFAULTS, "extras": True, "partner_min_players": 9} \
                if name == "Extras" else dict(tables.TABLE_DEFAULTS)
            table_id = gen_table(night, name=name, settings=settings).id
            if builder is not None:
                builder(table_id, organizer, number)
            ids.append(table_id)
        caches.clear_all(app)
    return ids


def with_extras(table_id: int, organizer: Any, number: int) -> None:
    """Eight players with long names; the lone taker holds five extra cubes."""
    extras_table(table_id, organizer, CLUB[7], 5)


def with_board(table_id: int, organizer: Any, number: int) -> None:
    board_with_cubes(table_id, organizer, CLUB[number % len(CLUB)], seed=number + 3)


def scoresheet(table_id: int, organizer: Any, number: int) -> None:
    busy_table(table_id, organizer, CLUB[number % len(CLUB)], 3)


def emptied(table_id: int, organizer: Any, number: int) -> None:
    emptied_table(table_id, organizer, CLUB[number % len(CLUB)])


#: Per table on the page: its cell, whether it is cut, its money header and cells, the name size.
MEASURE = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; };
    return [...document.querySelectorAll('.display-table')].map((cell) => {
        const money = cell.querySelector('th.dt-money');
        const name = cell.querySelector('td.dt-name');
        return {
            id: cell.id, empty: cell.classList.contains('is-empty'), cell: box(cell),
            clipped: cell.scrollHeight > cell.clientHeight + 1 || cell.scrollWidth > cell.clientWidth + 1,
            moneyHeader: money && {text: money.innerText, box: box(money),
                                   fits: money.scrollWidth <= money.clientWidth},
            moneyCells: [...cell.querySelectorAll('td.dt-money')].map(box),
            seats: cell.querySelector('.dt-seats') && box(cell.querySelector('.dt-seats')),
            name: name && parseFloat(getComputedStyle(name).fontSize),
        };
    });
}"""


def inside(inner: dict, outer: dict, slack: float = 0.5) -> bool:
    return (inner["left"] >= outer["left"] - slack and inner["top"] >= outer["top"] - slack
            and inner["right"] <= outer["right"] + slack and inner["bottom"] <= outer["bottom"] + slack)


@pytest.mark.parametrize("count", [1, 2, 4, 6, 9, 12])
def test_the_money_column_is_whole_when_extras_show(live_server, page: Page, screenshot, count):
    """The lone taker's extra cubes once pushed the money column out of its table (its header
    read "EUI"): the cube column takes only the width left, the points and money stay whole."""
    build = [("Extras", with_extras)] + [(f"Table {n + 2}", with_board if n % 2 else scoresheet)
                                         for n in range(count - 1)]
    night_of(live_server.app, build)
    for width, height in SIZES if count in (4, 12) else SIZES[:1]:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/display")
        expect(page.locator(".display-table")).to_have_count(count)
        expect(page.locator(".cube-extras").first).to_contain_text("extras from")
        screenshot(f"display-extras-{count}-tables-{width}x{height}")
        for table in page.evaluate(MEASURE):
            header = table["moneyHeader"]
            assert header["text"] == "EUR" and header["fits"], table
            assert inside(header["box"], table["cell"]), table
            for cell in table["moneyCells"]:
                assert table["cell"]["left"] <= cell["left"] and cell["right"] <= table["cell"]["right"] + 0.5, table
            if width == 1920 and count <= 2:
                assert not table["clipped"], table


def test_an_emptied_table_takes_one_line_at_the_foot_of_the_tv(live_server, page: Page, screenshot):
    ids = night_of(live_server.app, [("Table 1", scoresheet), ("Table 2", emptied)])
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/display")
    idle = page.locator(f".display-idle #display-table-{ids[1]}")
    expect(idle).to_contain_text("Waiting for players")
    expect(idle).not_to_contain_text("about to start")
    expect(idle).to_contain_text("Left the table:")
    screenshot("display-emptied-table-1920x1080")
    found = {table["id"]: table for table in page.evaluate(MEASURE)}
    playing, empty = found[f"display-table-{ids[0]}"], found[f"display-table-{ids[1]}"]
    assert empty["empty"] and empty["cell"]["height"] <= 1080 * 0.1, empty
    # The table that plays has the screen: all its width, nearly all its height.
    assert playing["cell"]["width"] >= 1920 * 0.95 and playing["cell"]["height"] >= 1080 * 0.8, playing
    assert not playing["clipped"], playing
    assert empty["cell"]["top"] >= playing["cell"]["bottom"]
    for width, height in SIZES[1:]:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/display")
        screenshot(f"display-emptied-table-{width}x{height}")
        found = {table["id"]: table for table in page.evaluate(MEASURE)}
        assert found[f"display-table-{ids[1]}"]["cell"]["height"] <= 120
        assert page.evaluate("document.documentElement.scrollWidth") <= width


def name_size(page: Page, url: str) -> tuple[float, list[dict]]:
    page.goto(url)
    found = page.evaluate(MEASURE)
    return min(table["name"] for table in found), found


def test_three_tables_fill_the_tv_with_larger_text_than_twelve(live_server, page: Page, screenshot):
    """Three scoresheet tables used to stand in three narrow columns at the top of the screen,
    two thirds of it empty: now they share it and their text grows to fill their cells."""
    night_of(live_server.app, [(f"Table {n + 1}", scoresheet) for n in range(12)])
    page.set_viewport_size({"width": 1920, "height": 1080})
    twelve, _found = name_size(page, f"{live_server.url}/display")
    screenshot("display-12-scoresheets-1920x1080")
    three, found = name_size(page, f"{live_server.url}/display?tables=1,2,3")
    screenshot("display-3-scoresheets-1920x1080")
    assert len(found) == 3
    assert three >= 28 and three >= twelve * 1.6, (three, twelve)  # 24.8 px in three columns before
    for table in found:
        assert not table["clipped"], table
        # The rows reach the foot of their cell, or its sides.
        cell, seats = table["cell"], table["seats"]
        assert (seats["bottom"] - cell["top"] >= cell["height"] * 0.8
                or seats["width"] >= cell["width"] * 0.9), table
    covered = sum(table["cell"]["width"] * table["cell"]["height"] for table in found)
    assert covered >= 1920 * 1080 * 0.85
    one, found = name_size(page, f"{live_server.url}/display?tables=5")
    assert one > three and not found[0]["clipped"], found
    screenshot("display-1-scoresheet-1920x1080")


def test_each_room_has_its_own_tv_kept_current_while_a_phone_plays(browser: Browser, live_server,
                                                                    screenshot):
    """The TV of the room shows table 1 only (``?tables=1``); a member answers the box's double
    on their phone meanwhile: the TV shows it at once, by push; the other room's table never
    appears on it, even when it moves."""
    room = Room(live_server)
    room.play(*[{"type": "join", "player": n} for n in "ABCD"],
              {"type": "order", "players": list("ABCD")},
              {"type": "double", "by": "box", "cubes": ["C", "D"]})
    app = live_server.app
    with in_app(app):
        other = gen_table(db.session.get(Night, room.night_id), name="Other room").id
        seat(other, room.owner, ["Eve", "Fred", "Gus"])
    phone_c = open_table(browser, room, room.members["C"], PHONE)
    tv = device(browser, TV).new_page()
    tv.goto(f"{live_server.url}/display?tables=1")
    expect(tv.locator(".display-push")).to_have_attribute("data-push", "open")
    expect(tv.locator(".display-table")).to_have_count(1)
    shown = tv.locator(f"#display-table-{room.table_id}")
    expect(shown.locator("tr", has_text="C").locator(".cube-note")).to_have_text("to answer")
    tv.evaluate("window.chouetteNoReload = true")

    live(phone_c, room).locator(".my-decision").get_by_role("button", name="Take").click()
    expect(shown.locator("tr", has_text="C").locator(".cube-note")).to_have_text("takes",
                                                                                 timeout=10_000)
    with in_app(app):
        play(other, room.owner, {"type": "double", "by": "box", "cubes": ["Fred"]})
    room.play({"type": "take", "cube": "D"})
    expect(shown.locator("tr", has_text="D").locator(".cube-note")).to_have_text("owns",
                                                                                 timeout=10_000)
    expect(tv.locator(".display-table")).to_have_count(1)
    expect(tv.locator(f"#display-table-{other}")).to_have_count(0)
    assert tv.evaluate("window.chouetteNoReload") is True
    assert tv.url.endswith("/display?tables=1")
    screenshot("display-room-tv-1920x1080", tv)
    for page in (phone_c, tv):
        page.context.close()


def test_the_chooser_puts_the_tables_in_the_address(live_server, page: Page, screenshot):
    ids = night_of(live_server.app, [("Table 1", scoresheet), ("Table 2", scoresheet),
                                     ("Table 3", scoresheet)])
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/display")
    page.locator(".display-chooser summary").click()
    page.get_by_label("1 · Table 1").check()
    page.get_by_label("3 · Table 3").check()
    screenshot("display-chooser-1920x1080")
    page.get_by_role("button", name="Show these tables").click()
    expect(page).to_have_url(f"{live_server.url}/display?tables=1&tables=3")
    expect(page.locator(".display-table")).to_have_count(2)
    expect(page.locator(f"#display-table-{ids[1]}")).to_have_count(0)
    expect(page.locator(".display-chooser summary")).to_have_text("Tables shown: 1, 3")
    page.locator(".display-chooser summary").click()
    page.get_by_role("link", name="Every table").click()
    expect(page.locator(".display-table")).to_have_count(3)


def test_the_screen_has_a_main_landmark_and_a_heading(live_server, page: Page):
    night_of(live_server.app, [("Table 1", with_board)])
    page.goto(f"{live_server.url}/display")
    expect(page.get_by_role("main")).to_have_count(1)
    expect(page.get_by_role("heading", level=1)).to_have_text("Big screen · Chouette club")
    # Everything shown is inside the landmark (axe-core's "region" rule).
    outside = page.evaluate("""() => [...document.body.children]
        .filter((el) => el.tagName !== 'MAIN' && el.tagName !== 'SCRIPT' && el.innerText.trim())
        .map((el) => el.outerHTML.slice(0, 80))""")
    assert outside == []
