"""One drawing of the live table per state for the phones that have nothing of their own to do
(``chouette.web.live.shared_live_html``): every phone gets exactly the bytes its own drawing
would be (its rows marked, its CSRF token), through a whole played table, and the phones with
a decision, the organizer and the whole history are always drawn for themselves.

Real database, real requests; the drawing for the viewer alone is had by switching the shared
path off for one request.
"""

from __future__ import annotations

import random
import re

import pytest

from chouette.web import play
from tests.factories import gen_member
from tests.production.helpers import next_command
from tests.web.test_phone_decisions import Phones
from tests.web.test_play_pages import HTMX, sign_in

#: A session's CSRF token: its session part, then a timestamp and a signature (a token drawn a
#: second later differs in those two; the session part says whose it is).
TOKEN = re.compile(r"([A-Za-z0-9_-]{20,})\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{20,}")


def _whose_tokens(html: str) -> str:
    """The fragment with each CSRF token cut to the session it belongs to."""
    return TOKEN.sub(lambda found: found.group(1), html)


def _own_drawing(monkeypatch, client, url: str) -> str:
    """The fragment drawn for this viewer alone (the shared path off for this request)."""
    with monkeypatch.context() as patch:
        patch.setattr(play, "shared_live_html", lambda played: None)
        return client.get(url, headers=HTMX).get_data(as_text=True)


@pytest.mark.parametrize("settings", [{"cube_mode": "multi"}, {"cube_mode": "single"},
                                      {"cube_mode": "multi", "beavers": True, "extras": True}])
def test_every_phone_gets_the_bytes_of_its_own_drawing_through_a_played_table(app, monkeypatch, settings):
    phones = Phones(app, "ABCDE", **settings)
    with app.app_context():
        watcher = gen_member("player", name="Walt")  # signed in, not seated: a spectator
    spectator = app.test_client()
    sign_in(spectator, watcher)
    viewers = {**{name: phones.phone(name) for name in "ABCDE"}, "Walt": spectator}
    rng = random.Random(20261124)
    url = f"{phones.table.url}/live"
    real = play.shared_live_html
    took: list[bool] = []  # per fetch: whether the shared drawing served it
    monkeypatch.setattr(play, "shared_live_html",
                        lambda played: (found := real(played), took.append(found is not None))[0])
    compared = 0
    for _turn in range(60):
        for name, client in viewers.items():
            got = client.get(url, headers=HTMX).get_data(as_text=True)
            own = _own_drawing(monkeypatch, client, url)
            assert _whose_tokens(got) == _whose_tokens(own), f"{name}'s fragment is not his own drawing"
            compared += 1
        phones.table.play(next_command(phones.table.state(), rng))
    # Every viewer compared at every state, and most fetches served by the shared drawing.
    assert compared == 60 * len(viewers) and took.count(True) > len(took) // 2


def test_phones_of_one_state_share_one_drawing_and_each_is_marked_his_own(app):
    phones = Phones(app, "ABCD", cube_mode="single")  # C and D: nothing to decide (the captain doubles)
    url = f"{phones.table.url}/live"
    pages = {name: phones.phone(name).get(url, headers=HTMX).get_data(as_text=True) for name in "CD"}
    for name, html in pages.items():
        marked = re.findall(r'<tr class="[^"]*is-me[^"]*">\s*<td class="seat-role">.*?</td>\s*'
                            r'<td class="seat-name">([^<]*)<span class="me-star"', html, re.S)
        assert [found.strip() for found in marked] == [name]
    # Apart from whose row is marked and whose the tokens are, it is one drawing.
    neutral = [TOKEN.sub("", re.sub(r' is-me| <span class="me-star" aria-hidden="true">★</span>', "", html))
               for html in pages.values()]
    assert neutral[0] == neutral[1]


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
    phones.phone("A").get(url, headers=HTMX)  # the box: nothing of his own to do now
    assert calls[0] is None and calls[1] is None and calls[2] is not None


def test_members_who_may_double_share_the_drawing_each_with_his_own_button(app, monkeypatch):
    phones = Phones(app, "ABCDE")  # multi-cube: each member may double the box in his turn
    real = play.shared_live_html
    served: list[bool] = []  # per fetch: whether the shared drawing served it
    monkeypatch.setattr(play, "shared_live_html",
                        lambda played: (found := real(played), served.append(found is not None))[0])
    rng = random.Random(7)
    shared_with_button = 0
    for _turn in range(60):
        for name in "BCDE":
            got = phones.live(name)
            buttons = set(re.findall(r'name="by" value="([^"]+)"', got)) - {"box"}  # he may be the box
            assert buttons <= {name}, f"{name} is shown another's double: {buttons}"
            if served[-1] and buttons == {name}:
                shared_with_button += 1
        phones.table.play(next_command(phones.table.state(), rng))
    assert shared_with_button > 10  # the shared drawing served members with their button
