"""One drawing per side for the phones of a table that plays online (issue 26's speed): at
every state of a game played from the phones, the player who rolls and moves now gets their
own drawing (their Roll, their board to move on), and every other phone the drawing shared
by its side (the box's side, the team's), its board seen from that side; a phone's stream
brings that very drawing, so the phone need not fetch; the mover's stream brings the version.
Before it, each phone's stream brings the phone's cube window card, the bytes its fetch would.

Real database, real requests and real streams.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from chouette.engine import legal_moves
from chouette.services import deciders
from tests.conftest import dispose, make_app
from tests.serving.test_pushed_drawings import Events, _own_drawing
from tests.web.test_phone_decisions import Phones
from tests.web.test_play_pages import HTMX

BOTTOM = re.compile(r'class="board bottom-(box|team)"')
VERSION = re.compile(r'data-version="([^"]+)"')
TOKEN = re.compile(r'name="csrf_token" value="[^"]+"')


def _untimed(html: str) -> str:
    """The card less its CSRF tokens (the session's, signed with the second it was drawn)."""
    return TOKEN.sub('name="csrf_token" value=""', html)


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[Flask]:
    """Server dice drawn from a seed (a run replays); drawings in the streams."""
    app = make_app(tmp_path, DICE_SEED=3, PUSH_KEEPALIVE_SECONDS=0.2, PUSH_STREAM_SECONDS=120.0,
                   PUSH_FRAGMENTS=True)
    yield app
    dispose(app)


def _next(phones: Phones, rng: random.Random) -> str:
    """The next decision of the game, posted from the phone whose it is; who posted it."""
    state = phones.table.state()
    game = state.game
    if game is None or game.position is None:
        who, action, data = "A", "roll", {"how": "server"}
    else:
        who = deciders.match_mover(state)
        if game.dice is None:
            action, data = "roll", {"how": "server"}
        else:
            action, data = "move", {"move": str(rng.choice(legal_moves(game.position, game.dice)))}
    response = phones.post(who, action, data)
    assert response.status_code == 303, response.get_data(as_text=True)[:300]
    return who


def test_online_phones_share_a_drawing_per_side_and_the_mover_gets_their_own(seeded, monkeypatch):
    phones = Phones(seeded, "ABCDE", play="online")  # A the box; B the captain; C, D, E the line
    url = f"{phones.table.url}/live"
    streams = {name: Events(phones.phone(name), f"{phones.table.url}/stream") for name in "ABCDE"}
    rng = random.Random(26)
    shared_seen = {"box": 0, "team": 0}
    try:
        for events in streams.values():
            assert events.next()[0] == "changed"  # the version on opening
        for _turn in range(40):
            _next(phones, rng)
            state = phones.table.state()
            game = state.game
            mover = deciders.match_mover(state) if game is not None and game.position is not None else None
            drawings: dict[str, set[str]] = {"box": set(), "team": set()}
            for name, events in streams.items():
                kind, card = events.next()  # first the phone's cube window card, drawn for it
                assert kind == "window"
                fetched = phones.phone(name).get(f"{phones.table.url}/window", headers=HTMX)
                assert _untimed(card) == _untimed(fetched.get_data(as_text=True)), (
                    f"{name}'s stream brings the card their fetch would")
                kind, data = events.next()
                own, shared = _own_drawing(monkeypatch, phones.phone(name), url)
                side = "box" if name == state.box else "team"
                if name == mover or (mover is None and name in (state.box, game and game.acting_captain)):
                    assert not shared, f"{name} rolls or moves now: drawn for themselves"
                    assert kind == "changed" and VERSION.search(own).group(1).startswith(data.split("~")[0])
                    if mover is not None and game.dice is not None:
                        assert 'name="move"' in own  # their board to move on
                    continue
                assert shared, f"{name} has nothing to do now: the drawing of their side"
                assert kind == "fragment" and data == own, f"{name}'s stream brings their fetch's bytes"
                assert 'name="move"' not in own and ">Roll<" not in own
                if game is not None and game.position is not None:
                    assert BOTTOM.search(own).group(1) == side, f"{name} sees the board from their side"
                drawings[side].add(own)
                shared_seen[side] += 1
            assert all(len(found) <= 1 for found in drawings.values()), "one drawing per side"
    finally:
        for events in streams.values():
            events.close()
    assert shared_seen["team"] > 40 and shared_seen["box"] > 5
