"""The big screen in a room (issue #25): scratch."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from chouette.extensions import db
from chouette.services import commands, tables
from tests.browser.test_display import CLUB, in_app, open_tables, organizer_of
from tests.factories import gen_night, gen_table
from tests.web.test_display import busy_table, play, seat

pytestmark = pytest.mark.browser


def extras_table(table_id, organizer, names, givers=3):
    seat(table_id, organizer, names)
    members = names[1:]
    play(table_id, organizer, {"type": "double", "by": "box", "cubes": members},
         {"type": "take", "cube": members[0]},
         *({"type": "drop", "cube": m} for m in members[1:]),
         *({"type": "extra", "from": m, "to": members[0]} for m in members[1:givers + 1]))


@pytest.mark.parametrize("count", [1, 2, 3, 4, 6])
def test_scratch(live_server, page: Page, count):
    app = live_server.app
    organizer = organizer_of(app)
    with in_app(app):
        night = gen_night(name="Friday chouette")
        ids = []
        for number in range(count):
            if number == 0:
                t = gen_table(night, name="Extras", settings={**tables.TABLE_DEFAULTS, "extras": True, "partner_min_players": 9})
                extras_table(t.id, organizer, CLUB[0], 3)
            else:
                t = gen_table(night, name=f"Table {number + 1}")
                busy_table(t.id, organizer, CLUB[number], 3)
            ids.append(t.id)
        commands.clear_cache()
    for w, h in [(1920, 1080)]:
        page.set_viewport_size({"width": w, "height": h})
        page.goto(f"{live_server.url}/display")
        page.screenshot(path=f"/tmp/tv/now-{count}-{w}.png")


def board_extras_table(table_id, organizer, names, givers=3):
    import random

    from chouette.table.actions import board_events
    seat(table_id, organizer, names)
    rng = random.Random(4)
    for _ in range(20):
        state = commands.load_play(table_id).state
        game = state.game
        if game is not None and game.mode is not None and game.on_roll == "box" and game.dice is None:
            break
        play(table_id, organizer, *board_events(state, rng.choice, lambda: rng.randint(1, 6)))
    members = list(state.game.members)
    play(table_id, organizer, {"type": "double", "by": "box", "cubes": members},
         {"type": "take", "cube": members[0]},
         *({"type": "drop", "cube": m} for m in members[1:]),
         *({"type": "extra", "from": m, "to": members[0]} for m in members[1:givers + 1]))


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_scratch_board(live_server, page: Page, count):
    from tests.browser.test_display import board_with_cubes
    app = live_server.app
    organizer = organizer_of(app)
    with in_app(app):
        night = gen_night(name="Friday chouette")
        for number in range(count):
            if number == 0:
                t = gen_table(night, name="Extras", settings={**tables.TABLE_DEFAULTS, "extras": True, "partner_min_players": 9})
                board_extras_table(t.id, organizer, CLUB[0], 3)
            else:
                t = gen_table(night, name=f"Table {number + 1}")
                board_with_cubes(t.id, organizer, CLUB[number], seed=number + 3)
        commands.clear_cache()
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/display")
    page.screenshot(path=f"/tmp/tv/board-{count}.png")
