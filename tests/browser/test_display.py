"""The big screen in a real browser: it updates by itself, shows each member's answer at once,
survives the server going away, fits a 1920x1080 TV with one to eight tables (every board whole,
nothing scrolls) and reads on a tablet and a phone (one column, no sideways scroll)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from playwright.sync_api import Page, expect
from werkzeug.serving import make_server

from chouette import caches, push
from chouette.extensions import db
from chouette.models import Member
from chouette.services import table_states
from chouette.services.display import display_version
from tests.factories import gen_member, gen_night, gen_table
from tests.web.test_display import EIGHT, board_table, busy_table, play, seat

pytestmark = pytest.mark.browser

#: Eight tables of eight: names of several lengths, as at a real club.
CLUB = [
    ["Alessandro", "Beatrice", "Carlo", "Daniela", "Enrico", "Francesca", "Giorgio", "Ilaria"],
    ["Marco", "Nadia", "Oscar", "Paola", "Quinto", "Rita", "Stefano", "Tiziana"],
    ["Ugo", "Valeria", "Walter", "Ximena", "Yuri", "Zoe", "Bartolomeo", "Costanza"],
    EIGHT,
    ["Aldo", "Bruna", "Cesare", "Dora", "Elio", "Fiorella", "Gino", "Ida"],
    ["Lino", "Mara", "Nino", "Ornella", "Piero", "Rosa", "Sandro", "Tina"],
    ["Umberto", "Vera", "Walter2", "Xenia", "Yvonne", "Zeno", "Agostino", "Bice"],
    ["Caterina", "Domenico", "Emanuela", "Filippo", "Graziella", "Leonardo", "Massimiliano", "Nicoletta"],
]


@contextmanager
def in_app(app: Flask) -> Iterator[None]:
    """An app context that commits before it ends (no SQLite lock is left held)."""
    with app.app_context():
        yield
        db.session.commit()


def organizer_of(app: Flask) -> Member:
    """An organizer whose attributes stay readable (gen_member commits without expiring)."""
    with app.app_context():
        return gen_member("organizer")


def table_one(app: Flask) -> tuple[Member, int]:
    """An organizer and "Table one" of a new night, Ann, Bob, Cy and Dee seated by them."""
    organizer = organizer_of(app)
    with in_app(app):
        table_id = gen_table(gen_night(), name="Table one").id
        seat(table_id, organizer, ["Ann", "Bob", "Cy", "Dee"])
    return organizer, table_id


def count_polls(page: Page) -> None:
    """Count the screen's poll answers by status in ``window.polls`` (e.g. ``polls[304]``)."""
    page.evaluate("""window.polls = {};
        document.addEventListener("htmx:beforeOnLoad", (event) => {
            const status = event.detail.xhr.status;
            window.polls[status] = (window.polls[status] || 0) + 1;
        });""")


def test_the_big_screen_updates_by_itself_and_is_left_alone_while_nothing_changes(
        live_server, page: Page):
    app = live_server.app
    organizer, table_id = table_one(app)
    page.goto(f"{live_server.url}/display")
    expect(page.locator(f"#display-table-{table_id}")).to_contain_text("Ann")
    count_polls(page)
    # The screen holds its push stream and asks nothing while nothing changes: a mark on the
    # shown fragment survives, and not one fetch is made (the old screen polled every 2 s).
    expect(page.locator(".display-push")).to_have_attribute("data-push", "open")
    page.evaluate("document.getElementById('display-board').dataset.probe = 'kept'")
    page.wait_for_timeout(3000)
    assert page.evaluate("document.getElementById('display-board').dataset.probe") == "kept"
    assert page.evaluate("window.polls") == {}

    with in_app(app):
        play(table_id, organizer, {"type": "double", "by": "box", "cubes": ["Cy"]})
    cy = page.locator(f"#display-table-{table_id} tr", has_text="Cy")
    expect(cy.locator(".cube.offered")).to_be_visible(timeout=10_000)
    expect(cy).to_contain_text("to answer")
    assert page.evaluate("document.getElementById('display-board').dataset.probe") is None
    # The stream brought the drawing itself (the whole fragment, its first move): no fetch.
    assert page.evaluate("window.polls") == {}

    # The next moves bring only the tables that moved: the board around them stays as it is.
    page.evaluate("document.getElementById('display-board').dataset.probe = 'kept'")
    with in_app(app):
        play(table_id, organizer, {"type": "take", "cube": "Cy"})
    expect(cy.locator(".cube.offered")).to_have_count(0, timeout=10_000)
    expect(cy).to_contain_text("owns")
    with in_app(app):
        version = display_version(None)
    expect(page.locator("#display-board")).to_have_attribute("data-version", version)
    assert page.evaluate("document.getElementById('display-board').dataset.probe") == "kept"
    assert page.evaluate("window.polls") == {}


def test_the_big_screen_keeps_the_last_state_while_the_server_is_away_and_recovers(
        live_server, page: Page):
    app = live_server.app
    organizer, table_id = table_one(app)
    page.goto(f"{live_server.url}/display")
    board = page.locator(f"#display-table-{table_id}")
    expect(board).to_contain_text("Dee")
    offline = page.locator(".display-offline")
    expect(offline).to_be_hidden()

    # The server goes away: connections are refused.
    port = int(live_server.url.rsplit(":", 1)[1])
    live_server._server.shutdown()
    live_server._server.server_close()
    push.hub(app).close()  # its streams end with it, as a stopping server's do
    with in_app(app):
        play(table_id, organizer, {"type": "double", "by": "Dee"})
    expect(offline).to_be_visible(timeout=10_000)
    expect(board).to_contain_text("Dee")  # the last state is still on the screen
    expect(board.locator(".cube.offered")).to_have_count(0)

    # It comes back on the same address (a new process: a hub of its own): the screen
    # catches up by itself.
    push.init_app(app)
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        expect(board.locator(".cube.offered")).to_have_count(1, timeout=10_000)
        expect(board.locator("tr", has_text="Dee")).to_contain_text("box to answer")
        expect(offline).to_be_hidden()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def board_with_cubes(table_id: int, organizer: Member, names: list[str], seed: int) -> None:
    """A game in progress on the app's board with cube action: on the box's turn the box has
    doubled two members and one of them took; on the team's turn a member doubled the box."""
    board_table(table_id, organizer, names, seed)
    state = table_states.load_play(table_id).state
    game = state.game
    if game is None or game.dice is not None:
        return
    if game.on_roll == "box":
        first, second = game.members[0], game.members[-1]
        play(table_id, organizer, {"type": "double", "by": "box", "cubes": [first, second]},
             {"type": "take", "cube": first})
    else:
        play(table_id, organizer, {"type": "double", "by": game.acting_captain})


def open_tables(app: Flask, count: int) -> list[int]:
    """``count`` tables of eight of one night, each with a game in progress: two in three on
    the app's board with cubes turned, the others on the scoresheet after a few games."""
    organizer = organizer_of(app)
    with in_app(app):
        night = gen_night(name="Friday chouette")
        tables = []
        for number in range(count):
            table_id = gen_table(night, name=f"Table {number + 1}").id
            if number % 3 == 2:
                busy_table(table_id, organizer, CLUB[number], 2 + number % 4)
            else:
                board_with_cubes(table_id, organizer, CLUB[number], seed=number + 3)
            tables.append(table_id)
        caches.clear_all(app)
    return tables


#: What the TV test measures on the page: scrolling, each table's cell and board.
MEASURE = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; };
    const root = document.documentElement;
    return {
        scrollWidth: root.scrollWidth, scrollHeight: root.scrollHeight,
        width: innerWidth, height: innerHeight,
        tables: [...document.querySelectorAll('.display-table')].map((cell) => ({
            id: cell.id, cell: box(cell),
            clipped: cell.scrollHeight > cell.clientHeight + 1 || cell.scrollWidth > cell.clientWidth + 1,
            board: cell.querySelector('.dt-board svg.board') && box(cell.querySelector('.dt-board svg.board')),
            legend: cell.querySelector('.dt-board figcaption') && box(cell.querySelector('.dt-board figcaption')),
            seats: cell.querySelector('.dt-seats') && box(cell.querySelector('.dt-seats')),
            name: parseFloat(getComputedStyle(cell.querySelector('td.dt-name')).fontSize),
        })),
    };
}"""

#: The board's drawing without its rail: 842 x 698 viewBox units.
BOARD_RATIO = 842 / 698


def inside(inner: dict, outer: dict, slack: float = 0.5) -> bool:
    return (inner["left"] >= outer["left"] - slack and inner["top"] >= outer["top"] - slack
            and inner["right"] <= outer["right"] + slack and inner["bottom"] <= outer["bottom"] + slack)


def drawn_height(board: dict) -> float:
    """The height of the drawing inside the SVG's box (it keeps its ratio, centred)."""
    return min(board["height"], board["width"] / BOARD_RATIO)


#: The least height of a board's drawing, and of a player's name, in CSS px on a 1920x1080 TV,
#: by the number of tables on the screen.
MIN_BOARD = {1: 700, 2: 380, 3: 400, 4: 270, 5: 210, 6: 210, 7: 175, 8: 175}
MIN_NAME = {1: 36, 2: 32, 3: 24, 4: 28, 5: 20, 6: 20, 7: 18, 8: 18}


@pytest.mark.parametrize("count", range(1, 9))
def test_the_big_screen_fits_a_tv_with_every_board_whole(live_server, page: Page, screenshot, count):
    tables = open_tables(live_server.app, count)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/display")
    expect(page.locator(".display-table")).to_have_count(count)
    boards = sum(1 for number in range(count) if number % 3 != 2)
    expect(page.locator(".dt-board svg.board")).to_have_count(boards)
    for table_id in tables:
        expect(page.locator(f"#display-table-{table_id} tbody tr")).to_have_count(8)
    screenshot(f"display-tv-{count}-tables-1920x1080")  # kept even when an assertion fails
    found = page.evaluate(MEASURE)
    screen = {"left": 0, "top": 0, "right": 1920, "bottom": 1080}
    # Nothing scrolls, nothing is cut.
    assert found["scrollHeight"] <= found["height"] and found["scrollWidth"] <= found["width"]
    for table in found["tables"]:
        assert inside(table["cell"], screen), table
        assert not table["clipped"], table
        if table["board"] is None:
            continue
        # The whole board is on the screen, inside its table, beside or under the players.
        assert inside(table["board"], table["cell"]) and inside(table["legend"], table["cell"]), table
        seats, board = table["seats"], table["board"]
        assert seats["right"] <= board["left"] + 1 or seats["bottom"] <= board["top"] + 1, table
        # And large enough to follow the game from a few metres.
        assert drawn_height(board) >= MIN_BOARD[count], table
    # Readable from across the room: a player's name on a 1080p TV (a little smaller beside a
    # board, which needs the width).
    for table in found["tables"]:
        assert table["name"] >= MIN_NAME[count] * (0.88 if table["board"] else 1), table


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1024, 768)])
def test_the_big_screen_reads_on_a_phone_and_a_tablet(live_server, page: Page, screenshot, width,
                                                      height):
    open_tables(live_server.app, 4)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/display")
    expect(page.locator(".display-table")).to_have_count(4)
    screenshot(f"display-{width}x{height}")
    found = page.evaluate(MEASURE)
    assert found["scrollWidth"] <= found["width"]
    lefts = {round(t["cell"]["left"]) for t in found["tables"]}
    if width < 600:
        assert len(lefts) == 1  # one column
    for table in found["tables"]:
        assert table["cell"]["left"] >= 0 and table["cell"]["right"] <= width, table
        assert table["cell"]["width"] >= width * 0.4, table  # never squeezed
        assert not table["clipped"], table
        if table["board"] is not None:
            assert inside(table["board"], table["cell"]), table
            assert drawn_height(table["board"]) >= 150, table
        assert table["name"] >= 15


def test_a_members_take_shows_on_the_big_screen_at_once(live_server, page: Page, screenshot):
    """The box doubles three members; each answer shows on the TV while the others think."""
    app = live_server.app
    organizer, table_id = table_one(app)
    with in_app(app):
        play(table_id, organizer, {"type": "double", "by": "box", "cubes": ["Bob", "Cy", "Dee"]})
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/display")
    table = page.locator(f"#display-table-{table_id}")
    row = {name: table.locator("tr", has_text=name) for name in ("Bob", "Cy", "Dee")}
    for cells in row.values():
        expect(cells.locator(".cube-note")).to_have_text("to answer")
    expect(table.locator(".dt-status")).to_have_text("Game 1: waiting for Bob, Cy, Dee")

    with in_app(app):
        play(table_id, organizer, {"type": "take", "cube": "Bob"})
    expect(row["Bob"].locator(".cube-note")).to_have_text("takes", timeout=10_000)
    expect(row["Cy"].locator(".cube-note")).to_have_text("to answer")
    expect(table.locator(".dt-status")).to_have_text("Game 1: waiting for Cy, Dee")

    with in_app(app):
        play(table_id, organizer, {"type": "drop", "cube": "Cy"})
    expect(row["Cy"].locator(".cube-note")).to_have_text("drops", timeout=10_000)
    expect(row["Bob"].locator(".cube-note")).to_have_text("takes")
    expect(row["Dee"].locator(".cube-note")).to_have_text("to answer")
    screenshot("display-answers-while-others-think")

    with in_app(app):
        play(table_id, organizer, {"type": "take", "cube": "Dee"})
    expect(row["Cy"]).to_have_class(re.compile("is-out"), timeout=10_000)
    expect(row["Bob"].locator(".cube-note")).to_have_text("owns")
    expect(table.locator(".dt-status")).not_to_contain_text("waiting")


def luminance(colour: str) -> float:
    """WCAG relative luminance of a computed ``rgb(r, g, b)`` colour."""
    channels = [int(c) / 255 for c in re.findall(r"\d+", colour)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    """WCAG contrast ratio of two computed colours."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_checkers_and_legend_stand_out_on_the_tvs_felt(live_server, page: Page):
    """Both sides' checkers are told from the felt and the points from across the room, and
    the legend under the board shows the checkers' own colours."""
    open_tables(live_server.app, 1)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/display")
    colours = page.evaluate("""() => {
        const style = (selector, property) => getComputedStyle(document.querySelector(selector))[property];
        return {
            felt: style('.dt-board .felt', 'fill'),
            pointA: style('.dt-board .triangle.shade-a', 'fill'),
            pointB: style('.dt-board .triangle.shade-b', 'fill'),
            box: style('.dt-board .side-box .checker', 'fill'),
            boxEdge: style('.dt-board .side-box .checker', 'stroke'),
            team: style('.dt-board .side-team .checker', 'fill'),
            teamEdge: style('.dt-board .side-team .checker', 'stroke'),
            legendBox: style('.dt-board .legend-box i', 'backgroundColor'),
            legendTeam: style('.dt-board .legend-team i', 'backgroundColor'),
            legendInk: style('.dt-board figcaption', 'color'),
            card: style('.display-table', 'backgroundColor'),
        };
    }""")
    # The team's checkers against the felt and the dark points (the old ones vanished there).
    assert contrast(colours["team"], colours["felt"]) >= 3, colours
    assert contrast(colours["team"], colours["pointB"]) >= 2, colours
    assert contrast(colours["box"], colours["felt"]) >= 7, colours
    # Each checker's rim stands out from the points of its own tone.
    assert contrast(colours["teamEdge"], colours["pointB"]) >= 4.5, colours
    assert contrast(colours["boxEdge"], colours["pointA"]) >= 4.5, colours
    # The two sides differ from each other, and the legend uses their colours, in ink that reads.
    assert contrast(colours["box"], colours["team"]) >= 3, colours
    assert colours["legendBox"] == colours["box"] and colours["legendTeam"] == colours["team"]
    assert contrast(colours["legendInk"], colours["card"]) >= 7, colours
