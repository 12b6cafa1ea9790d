"""The social panel moves only when what it shows moves (``services.social.panel_mark``).

Every device of an online table holds its social panel's stream and fetches the panel when the
panel's version moves. That version carried the table's last seq: every roll and move (an
online game makes some hundred) had every phone fetch its panel again, for nothing it shows
(the online benchmark: 2,960 panel fetches in a minute against 582 live tables fetched). It
now carries a checksum of what the panels show of the table's state instead.

A is the box, B the captain, C and D members, each on their own phone (tests.web.test_social).
"""

from __future__ import annotations

import re
from datetime import timedelta

from chouette import push
from chouette.extensions import db
from chouette.models import utcnow
from chouette.services import base, social
from tests.web.test_phone_decisions import Phones
from tests.web.test_social import OPENED, panel

# The box rolls 3-1 and makes its point; the team rolls 2-1 and plays on.
CHECKER_PLAY = [{"type": "roll", "dice": [3, 1]}, {"type": "move", "move": "8/5 6/5"},
                {"type": "roll", "dice": [2, 1]}, {"type": "move", "move": "13/11 6/5"}]


def version(phones: Phones) -> str:
    with phones.app.app_context():
        return social.social_version(phones.table.id)


def panels(phones: Phones) -> dict[str, str]:
    """Each player's panel, but for the seq its "hand my cube over" form carries (the page
    sends the live table's seq with it: static/js/live.js) and its forms' CSRF tokens (signed
    with the time: two drawings a second apart differ)."""
    return {name: re.sub(r'name="(seq|csrf_token)" value="[^"]+"', "", panel(phones, name))
            for name in "ABCD"}


def test_rolls_and_moves_leave_every_panel_and_its_version_as_they_were(app):
    phones = Phones(app, play="online")
    phones.table.play(*OPENED)
    before, drawn, seq = version(phones), panels(phones), phones.table.seq()
    phones.table.play(*CHECKER_PLAY)
    assert phones.table.seq() == seq + len(CHECKER_PLAY)
    assert version(phones) == before
    assert panels(phones) == drawn


def test_a_cube_that_turns_and_a_player_who_joins_move_the_version(app):
    phones = Phones(app, consulting="after_cube", play="online")
    phones.table.play(*OPENED)
    opened = version(phones)
    assert "No cube has turned in this game yet" in panel(phones, "C")
    phones.table.play({"type": "double", "by": "box", "cubes": ["B", "C", "D"]},
                      {"type": "take", "cube": "B"}, {"type": "take", "cube": "C"},
                      {"type": "drop", "cube": "D"})
    turned = version(phones)
    assert turned != opened  # who may consult, and D's cube out of play
    assert "No cube has turned in this game yet" not in panel(phones, "C")
    assert "Your cube is out of play" in panel(phones, "D")
    phones.table.play({"type": "join", "player": "Eve"})
    assert version(phones) not in (opened, turned)  # a new seat on every panel


def test_the_version_is_the_same_read_by_the_hub_and_by_a_page(app):
    """The stream's watcher reads the versions on a connection of its own (``push``): the
    panel's checksum it reads is the one the page was drawn with."""
    phones = Phones(app, play="online")
    phones.table.play(*OPENED, *CHECKER_PLAY[:2])
    with app.app_context(), db.engine.connect() as connection:
        read = push.read_versions(connection, [("social", phones.table.id)])
    drawn = re.search(r'id="table-social-\d+" class="table-social" data-version="([^"]+)"',
                      panel(phones, "C"))
    assert drawn is not None and read[("social", phones.table.id)] == drawn.group(1) == version(phones)


def test_a_connected_members_device_seen_again_wakes_no_page(app, monkeypatch):
    """Each device notes it is there every few seconds; only a member who arrives, or comes
    back from away, moves the panels: the others' notes are written and told to no page (on
    PostgreSQL each announcement wakes every node's hub)."""
    phones = Phones(app)
    told: list[int] = []
    announce = base.announce
    monkeypatch.setattr(base, "announce", lambda: (told.append(1), announce()))
    member_id = phones.members["D"].id
    with app.app_context():
        now = utcnow()
        assert social.touch(phones.table.id, member_id, now) and told == [1]  # arrives
        again = now + timedelta(seconds=social.write_seconds() + 1)
        assert social.touch(phones.table.id, member_id, again) and told == [1]  # still here
        assert social.present(phones.table.id, again) == {member_id}
        back = again + timedelta(seconds=social.away_seconds() + 1)
        assert social.present(phones.table.id, back) == frozenset()  # away by then
        assert social.touch(phones.table.id, member_id, back) and told == [1, 1]  # back


def test_a_panel_fetch_reads_its_table_and_who_is_here_once(app):
    """A panel fetch (some 26 a second in the festival with the panels): the table with its
    state in one query, and who is connected read once for the seats and the panel's version."""
    from tests.serving.test_pushed_drawings import noting_statements

    phones = Phones(app, play="online")
    phones.table.play(*OPENED)
    first = panel(phones, "C")  # C signed in
    seen: list[str] = []
    with noting_statements(app, lambda _connection, statement: seen.append(" ".join(statement.split()))):
        again = panel(phones, "C")
    assert re.sub(r'value="[^"]+"', "", again) == re.sub(r'value="[^"]+"', "", first)
    tables = [s for s in seen if s.startswith("SELECT chouette_table.id, chouette_table.night_id")]
    assert len(tables) == 1, tables
    assert sum(1 for s in seen if s.startswith("SELECT table_presence")) == 1, seen
