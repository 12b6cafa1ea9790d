"""At a table that plays online nobody doubles before the board's opening roll (docs/rules.md
1.7: a double comes at the start of one's own turn, before rolling; issue 26: the turn's cube
window asks before each roll). Found by tests/browser/test_online_game.py: between two games a
member's phone offered "Double", and a double then made the next game a score-sheet game whose
opening roll the rules refused, so the table could no longer be played online.
"""

from __future__ import annotations

from flask import Flask

from tests.web.test_online_play import online, opened, organizer, seeded  # noqa: F401 - fixture
from tests.web.test_play_pages import post

REFUSAL = "at a table that plays online the cube waits for the opening roll"


def test_nobody_doubles_before_the_opening_roll_online(seeded: Flask):  # noqa: F811 - fixture
    phones = online(seeded)
    before = phones.table.log()
    # Neither a member nor the box is offered a double, nor may post one: nothing is written.
    for name in "ABCD":
        assert ">Double</button>" not in phones.live(name), name
    for name, data in (("B", {"by": "B"}), ("C", {"by": "C"}), ("A", {"by": "box", "cubes": "B"})):
        response = phones.post(name, "double", data)
        assert response.status_code == 422, (name, response.status_code)
        assert REFUSAL in response.get_data(as_text=True).replace("&#39;", "'")
    response = post(organizer(phones), phones.table, "double", {"by": "B"})
    assert response.status_code == 422
    assert phones.table.log() == before
    # The opening roll is rolled on the box's phone, and the cube then waits for the window.
    opened(phones)
    assert phones.table.state().game.is_board


def test_a_club_table_still_records_a_cube_before_the_board(app: Flask):
    from tests.web.test_phone_decisions import Phones

    phones = Phones(app, "ABCD")  # at the club a game may be kept on the score sheet alone
    response = post(organizer(phones), phones.table, "double", {"by": "B"})
    assert response.status_code == 303
    assert phones.table.log()[-1] == {"type": "double", "by": "B"}
