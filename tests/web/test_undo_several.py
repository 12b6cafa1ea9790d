"""The organizer's undo reaches back further than the last action (issue 25, item 10): the undo
page lists the last actions, latest first, and "Undo back to here" takes one back with every
action after it, as that many undo events of the log in one transaction. A count out of range
is refused with the reason and changes nothing; a player may not undo at all."""

from __future__ import annotations

import pytest
from flask import Flask

from tests.web.test_play_pages import Table, post, sign_in

OPENING = ({"type": "double", "by": "box", "cubes": ["B", "C"]},
           {"type": "take", "cube": "B"},
           {"type": "drop", "cube": "C"})


@pytest.fixture
def table(app: Flask) -> Table:
    return Table(app)


def test_undo_back_to_an_earlier_action_takes_back_every_action_after_it(app, client, table):
    table.seat("ABCD")
    before = table.state()
    table.play(*OPENING)
    sign_in(client, table.owner)
    page = client.get(f"{table.url}/undo").get_data(as_text=True)
    # Latest first: C's drop is the last action; "back to here" on the double is 3 actions.
    assert page.index("C&#39;s cube: dropped") < page.index("B&#39;s cube: taken") < page.index("The box doubles B, C")
    assert 'name="count" value="3"' in page and "Undo back to here (3 actions)" in page
    assert post(client, table, "undo", {"count": "3"}).status_code == 303
    assert table.log()[-3:] == [{"type": "undo"}] * 3
    after = table.state()
    assert after.effective == before.effective and after.game is None and before.game is None


def test_a_count_out_of_range_is_refused_and_changes_nothing(app, client, table, htmx):
    table.seat("ABCD")
    table.play(*OPENING)
    sign_in(client, table.owner)
    log = table.log()
    effective = len(table.state().effective)  # four joins, the order, the double, a take, a drop
    for count, words in (("0", "from 1 to 12 actions, not 0"), ("13", "not 13"), ("x", "not x"),
                         (str(effective + 1), f"Not that many actions to undo: {effective} at most.")):
        for headers in ({}, htmx):
            answer = client.post(f"{table.url}/undo", data={"seq": str(table.seq()), "count": count},
                                 headers=headers)
            assert answer.status_code == 422, count
            assert words in answer.get_data(as_text=True), count
    assert table.log() == log


def test_the_italian_undo_page_lists_the_actions(app, client, table):
    table.seat("ABCD")
    table.play(*OPENING)
    sign_in(client, table.owner)
    page = client.get(f"{table.url}/undo", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "Annulla fino a qui (2 azioni)" in page


def test_a_seated_player_may_not_undo_several(app, client, table, login_as):
    table.seat("ABCD")
    table.play(*OPENING)
    login_as("player")
    log = table.log()
    assert client.post(f"{table.url}/undo", data={"seq": str(table.seq()), "count": "2"}).status_code == 403
    assert table.log() == log
