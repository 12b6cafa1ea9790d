"""The table log in words (chouette.web.log_lines): every event of the vocabulary said as a
sentence, in English and Italian, names kept as they are and escaped on the page."""

from __future__ import annotations

import pytest
from flask_babel import force_locale

from chouette.web.log_lines import describe

EVENTS = [
    ({"type": "join", "player": "Ann"}, "Ann joins the table"),
    ({"type": "leave", "player": "Ann"}, "Ann leaves the table"),
    ({"type": "order_roll", "rolls": {"Ann": 5, "Bob": 6}}, "Rolls for the order: Ann 5, Bob 6"),
    ({"type": "order", "players": ["Bob", "Ann", "Cy"]}, "Order recorded, the box first: Bob, Ann, Cy"),
    ({"type": "partner", "player": "Cy", "accept": False}, "Cy declines the partnership"),
    ({"type": "partner", "player": "Cy", "accept": True}, "Cy accepts the partnership"),
    ({"type": "partner_draw", "player": "Dee"}, "Dee is drawn as the box's partner"),
    ({"type": "opening_roll", "box": 3, "team": 5}, "Opening roll: box 3, team 5"),
    ({"type": "double", "by": "box", "cubes": ["Bob", "Cy"]}, "The box doubles Bob, Cy"),
    ({"type": "double", "by": "box"}, "The box doubles"),
    ({"type": "double", "by": "Bob"}, "Bob doubles the box"),
    ({"type": "double", "by": "Dee", "extra": "Cy"}, "Dee redoubles Cy's extra cube"),
    ({"type": "take", "cube": "Bob"}, "Bob's cube: taken"),
    ({"type": "drop", "cube": "Bob"}, "Bob's cube: dropped"),
    ({"type": "beaver", "cube": "Bob"}, "Bob's cube: beavered"),
    ({"type": "raccoon", "cube": "Bob"}, "Bob's cube: raccooned"),
    ({"type": "take", "cube": "team"}, "The box takes the team's cube"),
    ({"type": "drop", "extra": "Cy"}, "Cy's extra cube: dropped"),
    ({"type": "extra", "from": "Cy", "to": "Dee"}, "Cy gives Dee an extra cube"),
    ({"type": "roll", "dice": [6, 5]}, "Roll 6-5"),
    ({"type": "move", "move": "24/18 13/8"}, "Move 24/18 13/8"),
    ({"type": "result", "winner": "team", "kind": "gammon"}, "The team wins a gammon"),
    ({"type": "result", "position_id": "4HPwATDgc/ABMA", "on_roll": "box"},
     "Final position 4HPwATDgc/ABMA, the box on roll"),
    ({"type": "correct", "game": 3, "reason": "wrong table", "void": True},
     "Game 3 corrected: void (wrong table)"),
    ({"type": "correct", "game": 3, "reason": "misread", "result": {"winner": "box", "kind": "single"}},
     "Game 3 corrected: the box wins a single game (misread)"),
    ({"type": "undo"}, "Undo of the latest action"),
]


@pytest.mark.parametrize(("event", "words"), EVENTS)
def test_each_event_is_said_in_english(app, event, words):
    with app.test_request_context():
        assert describe(event) == words


@pytest.mark.parametrize(("event", "words"), EVENTS)
def test_each_event_is_said_in_italian_with_the_names_kept(app, event, words):
    with app.test_request_context(), force_locale("it"):
        italian = describe(event)
    assert italian != words
    for name in ("Ann", "Bob", "Cy", "Dee", "24/18 13/8", "4HPwATDgc/ABMA", "wrong table"):
        if name in words:
            assert name in italian


def test_an_unknown_or_malformed_event_is_shown_by_its_type(app):
    with app.test_request_context():
        assert describe({"type": "teleport", "to": "Mars"}) == "teleport"
        assert describe({"type": "join"}) == "join"


def test_the_live_table_says_its_log_in_words_and_escapes_names(app, client, login_as):
    from chouette.extensions import db
    from chouette.services import commands, tables
    from tests.factories import gen_member, gen_night, gen_table

    with app.app_context():
        organizer = gen_member("organizer")
        table = gen_table(gen_night(opened_by_id=organizer.id), created_by_id=organizer.id)
        for event in ({"type": "join", "player": "<b>Ann</b>"}, {"type": "join", "player": "Bob"},
                      {"type": "order", "players": ["<b>Ann</b>", "Bob"]},
                      {"type": "double", "by": "box", "cubes": ["Bob"]}):
            commands.play(table.id, tables.last_seq(table.id), event, organizer)
        db.session.commit()
        table_id = table.id
    login_as("player", locale="it")
    html = client.get(f"/tables/{table_id}/live", headers={"HX-Request": "true"}).get_data(as_text=True)
    log = html[html.index('class="plain recent-log"'):]
    assert "&lt;b&gt;Ann&lt;/b&gt;" in log and "<b>Ann</b>" not in log
    assert "Il box raddoppia Bob" in log
