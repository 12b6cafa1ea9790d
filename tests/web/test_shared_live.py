"""One drawing of the live table per state for the phones that have nothing of their own to do
(``chouette.web.live_shared.shared_live_html``): every viewer of a version gets the very same bytes
(one drawing for the players seated here, one for those who watch), through a whole played
table; the page's own script marks the viewer's rows and shows their buttons
(``static/js/mine.js``, tests/browser/test_live_room.py), from the member ids the drawing
carries. The phones with a decision, the organizer and the whole history are always drawn
for themselves.

Real database, real requests.
"""

from __future__ import annotations

import random
import re

import pytest

from chouette.services import deciders
from chouette.web import play
from tests.factories import gen_member
from tests.production.helpers import next_command
from tests.web.test_phone_decisions import Phones
from tests.web.test_play_pages import HTMX, sign_in

#: A member's double button kept for its decider in a shared drawing: (decider's id, member).
MINE_ONLY = re.compile(r'<span class="mine-only" data-decider-id="(\d*)" hidden>\s*<form[^>]*>\s*'
                       r'<input type="hidden" name="by" value="([^"]+)">')


@pytest.mark.parametrize("settings", [{"cube_mode": "multi"}, {"cube_mode": "single"},
                                      {"cube_mode": "multi", "beavers": True, "extras": True}])
def test_every_viewer_of_a_version_gets_the_same_bytes_through_a_played_table(app, monkeypatch, settings):
    phones = Phones(app, "ABCDE", **settings)
    with app.app_context():  # signed in, not seated: spectators
        spectators = {name: gen_member("player", name=name) for name in ("Walt", "Wanda")}
    watchers = {name: app.test_client() for name in spectators}
    for name, member in spectators.items():
        sign_in(watchers[name], member)
    viewers = {**{name: phones.phone(name) for name in "ABCDE"}, **watchers}
    rng = random.Random(20261124)
    url = f"{phones.table.url}/live"
    real = play.shared_live_html
    took: list[bool] = []  # per fetch: whether the shared drawing served it
    monkeypatch.setattr(play, "shared_live_html",
                        lambda played: (found := real(played), took.append(found is not None))[0])
    shared_seated = 0
    for _turn in range(60):
        drawings: dict[bool, set[str]] = {True: set(), False: set()}  # seated or not -> drawings
        for name, client in viewers.items():
            got = client.get(url, headers=HTMX).get_data(as_text=True)
            if took[-1]:
                drawings[name in "ABCDE"].add(got)
                shared_seated += name in "ABCDE"
                # Nothing of the viewer's own: no token, no control character marker.
                assert "csrf_token" not in got and "\x00" not in got
        assert len(drawings[True]) <= 1 and len(drawings[False]) <= 1, "one version, several drawings"
        phones.table.play(next_command(phones.table.state(), rng))
    # Most fetches served by the shared drawing, the players' included.
    assert took.count(True) > len(took) // 2 and shared_seated > 60


def test_two_phones_of_one_state_get_one_drawing_with_every_seats_member_id(app):
    phones = Phones(app, "ABCD", cube_mode="single")  # C and D: nothing to decide (the captain doubles)
    url = f"{phones.table.url}/live"
    pages = {name: phones.phone(name).get(url, headers=HTMX).get_data(as_text=True) for name in "CD"}
    assert pages["C"] == pages["D"]
    seats = dict(re.findall(r'<tr class="seat-[a-z]+[^"]*" data-member-id="(\d+)">\s*<td class="seat-role">.*?</td>\s*'
                            r'<td class="seat-name"><span class="seat-player">([^<]*)</span>', pages["C"], re.S))
    assert {name: int(member) for member, name in seats.items()} == {
        name: phones.members[name].id for name in "ABCD"}
    # The page marks the viewer's own rows: the drawing marks nobody's.
    assert "is-me" not in pages["C"]


def test_a_phone_with_a_decision_and_the_organizer_are_drawn_for_themselves(app, monkeypatch):
    phones = Phones(app, "ABCD")
    phones.table.play({"type": "double", "by": "box", "cubes": ["B", "C", "D"]})  # B, C, D must answer
    organizer = app.test_client()
    sign_in(organizer, phones.table.owner)
    calls: list[object] = []
    real = play.shared_live_html
    monkeypatch.setattr(play, "shared_live_html", lambda played: calls.append(real(played)) or calls[-1])
    url = f"{phones.table.url}/live"
    phones.phone("B").get(url, headers=HTMX)
    organizer.get(url, headers=HTMX)
    phones.phone("A").get(url, headers=HTMX)  # the box: nothing of their own to do now
    assert calls[0] is None and calls[1] is None and calls[2] is not None


def test_each_double_button_of_a_shared_drawing_is_kept_for_its_decider(app, monkeypatch):
    phones = Phones(app, "ABCDE")  # multi-cube: each member may double the box in their turn
    real = play.shared_live_html
    served: list[bool] = []  # per fetch: whether the shared drawing served it
    monkeypatch.setattr(play, "shared_live_html",
                        lambda played: (found := real(played), served.append(found is not None))[0])
    ids = {name: member.id for name, member in phones.members.items()}
    rng = random.Random(7)
    shared_with_buttons = 0
    for _turn in range(60):
        state = phones.table.state()
        for name in "BCDE":
            got = phones.live(name)
            buttons = set(re.findall(r'name="by" value="([^"]+)"', got)) - {"box"}  # they may be the box
            if not served[-1]:  # their own drawing: their own buttons only
                assert buttons <= {name}, f"{name} is shown another's double: {buttons}"
                continue
            kept = MINE_ONLY.findall(got)
            assert {member for _decider, member in kept} == buttons  # every button kept for one
            for decider, member in kept:
                owner = deciders.decider(state, {"type": "double", "by": member})
                assert decider == str(ids.get(owner, "")), (member, decider, owner)
            shared_with_buttons += bool(kept)
        phones.table.play(next_command(phones.table.state(), rng))
    assert shared_with_buttons > 10  # the shared drawing served members with their buttons
