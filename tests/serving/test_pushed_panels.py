"""The social panel's stream brings each viewer's own panel when it moves
(``web.social._pushed_panel``): the drawing their fetch would bring, their channel's messages
and no one else's; a page then fetches nothing. With ``PUSH_FRAGMENTS`` off it brings the
version only, and the page fetches its panel.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask

from chouette.extensions import db
from chouette.services import social
from tests.serving.test_pushed_drawings import Events
from tests.web.test_phone_decisions import Phones
from tests.web.test_social import TIED, panel, say


@pytest.fixture
def streams(app: Flask) -> Flask:
    """Quick keep-alives, long streams, the panels drawn in the streams (the default, set here
    whatever the environment says)."""
    app.config.update(PUSH_KEEPALIVE_SECONDS=0.2, PUSH_STREAM_SECONDS=120.0, PUSH_FRAGMENTS=True)
    return app


def without_tokens(html: str) -> str:
    """A panel without its forms' CSRF tokens and seq (signed with the time; the seq is sent
    from the live table's)."""
    return re.sub(r'name="(seq|csrf_token)" value="[^"]+"', "", html)


def version_now(phones: Phones) -> str:
    with phones.app.app_context():
        found = social.social_version(phones.table.id)
        db.session.remove()
        return found


def pushed_at(events: Events, version: str) -> str:
    """The panel the stream brings at ``version`` (earlier events skipped: a device's own
    presence moves the panel too)."""
    for _ in range(20):
        name, data = events.next()
        if name == "fragment" and f'data-version="{version}"' in data:
            return data
    raise AssertionError(f"no panel at {version}")


def test_each_phone_gets_its_own_panel_in_its_stream(streams: Flask) -> None:
    app = streams
    phones = Phones(app, play="online")
    phones.table.play(TIED)
    team, box = (Events(phones.phone(name), f"{phones.table.url}/social/stream") for name in "CA")
    try:
        assert team.next()[0] == box.next()[0] == "changed"
        assert say(phones, "D", "Double now, B?").status_code == 200
        version = version_now(phones)
        mine = pushed_at(team, version)
        assert "Double now, B?" in mine and "Team talk" in mine
        assert without_tokens(mine) == without_tokens(panel(phones, "C"))
        theirs = pushed_at(box, version)
        assert "Double now, B?" not in theirs and "Team talk" not in theirs
        assert without_tokens(theirs) == without_tokens(panel(phones, "A"))
    finally:
        team.close()
        box.close()


def test_without_pushed_drawings_the_stream_says_the_version(streams: Flask) -> None:
    app = streams
    app.config.update(PUSH_FRAGMENTS=False)
    phones = Phones(app, play="online")
    phones.table.play(TIED)
    team = Events(phones.phone("C"), f"{phones.table.url}/social/stream")
    try:
        team.next()
        assert say(phones, "D", "Double now, B?").status_code == 200
        version = version_now(phones)
        for _ in range(20):
            name, data = team.next()
            assert name == "changed" and "Double now" not in data
            if data == version:
                break
        else:
            raise AssertionError(f"the stream never said {version}")
    finally:
        team.close()
