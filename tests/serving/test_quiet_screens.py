"""The big screens' shortcut (chouette.web.quiet_screens): an unchanged poll is answered 304
before Flask, with Flask's own headers, and only when Flask would answer 304 itself."""

from __future__ import annotations

import pytest
from flask import Flask, request, request_started

from chouette.extensions import db
from chouette.models import Member
from chouette.services import commands, nights, tables
from tests.factories import gen_member, gen_night, gen_table
from tests.web.test_display import seat

HTMX = {"HX-Request": "true"}


@pytest.fixture
def screen(app: Flask):
    """The shortcut, and a count of the requests that reached Flask (its own signal)."""
    reached: list[str] = []

    def count(sender, **extra):
        reached.append(request.path)

    request_started.connect(count, app)
    yield app.extensions["quiet_screens"], reached
    request_started.disconnect(count, app)


@pytest.fixture
def night(app: Flask):
    with app.app_context():
        organizer = gen_member("organizer")
        night = gen_night(name="Friday chouette")
        table_id = gen_table(night, name="Table one").id
        seat(table_id, organizer, ["Ann", "Bob", "Cy", "Dee"])
        db.session.commit()
        return {"night_id": night.id, "table_id": table_id, "organizer_id": organizer.id}


def test_an_unchanged_poll_is_answered_before_flask_with_flasks_headers(app, client, screen, night):
    shortcut, reached = screen
    first = client.get("/display", headers=HTMX)
    etag = first.headers["ETag"]
    assert len(reached) == 1 and shortcut.answered == 0
    answered, seen = shortcut.answered, len(reached)
    again = client.get("/display", headers={**HTMX, "If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert shortcut.answered == answered + 1 and len(reached) == seen  # Flask never saw it
    for name in ("ETag", "Cache-Control", "Vary", "X-Content-Type-Options", "X-Frame-Options",
                 "Referrer-Policy"):
        assert again.headers[name] == first.headers[name], name
    assert "Set-Cookie" not in again.headers and "Content-Type" not in again.headers


def test_a_command_sends_the_poll_to_flask_and_the_screen_changes(app, client, screen, night):
    shortcut, reached = screen
    etag = client.get("/display", headers=HTMX).headers["ETag"]
    assert client.get("/display", headers={**HTMX, "If-None-Match": etag}).status_code == 304
    with app.app_context():
        organizer = db.session.get(Member, night["organizer_id"])
        commands.play(night["table_id"], tables.last_seq(night["table_id"]),
                      {"type": "double", "by": "box", "cubes": ["Cy"]}, organizer)
        db.session.commit()
    answered, seen = shortcut.answered, len(reached)
    changed = client.get("/display", headers={**HTMX, "If-None-Match": etag})
    assert changed.status_code == 200 and "to answer" in changed.get_data(as_text=True)
    assert shortcut.answered == answered and len(reached) == seen + 1


def test_a_closed_night_sends_its_screen_to_flask(app, client, screen, night):
    _shortcut, _reached = screen
    path = f"/display/{night['night_id']}"
    etag = client.get(path, headers=HTMX).headers["ETag"]
    assert client.get(path, headers={**HTMX, "If-None-Match": etag}).status_code == 304
    with app.app_context():
        nights.close_night(night["night_id"], actor=db.session.get(Member, night["organizer_id"]))
    closed = client.get(path, headers={**HTMX, "If-None-Match": etag})
    assert closed.status_code == 200 and "closed" in closed.get_data(as_text=True).lower()


def test_another_language_or_address_is_never_answered_with_this_etag(app, client, screen, night):
    shortcut, _reached = screen
    english = client.get("/display", headers={**HTMX, "Accept-Language": "en"})
    etag = english.headers["ETag"]
    assert client.get("/display", headers={**HTMX, "Accept-Language": "en",
                                           "If-None-Match": etag}).status_code == 304
    answered = shortcut.answered
    italian = client.get("/display", headers={**HTMX, "Accept-Language": "it", "If-None-Match": etag})
    assert italian.status_code == 200 and italian.headers["ETag"] != etag
    elsewhere = client.get("/display", headers={**HTMX, "Accept-Language": "en", "If-None-Match": etag},
                           base_url="http://tv.example")
    assert elsewhere.status_code == 200 and elsewhere.headers["ETag"] != etag
    page = client.get("/display", headers={"Accept-Language": "en", "If-None-Match": etag})
    assert page.status_code == 200
    assert shortcut.answered == answered


def test_a_signed_in_viewer_always_goes_to_flask(app, client, screen, night, login_as):
    shortcut, reached = screen
    login_as("player")
    etag = client.get("/display", headers=HTMX).headers["ETag"]
    answered, seen = shortcut.answered, len(reached)
    for _ in range(3):
        assert client.get("/display", headers={**HTMX, "If-None-Match": etag}).status_code == 304
    assert shortcut.answered == answered and len(reached) == seen + 3


def test_an_unknown_etag_or_a_post_goes_to_flask(app, client, screen, night):
    shortcut, _reached = screen
    client.get("/display", headers=HTMX)
    answered = shortcut.answered
    assert client.get("/display", headers={**HTMX, "If-None-Match": '"made-up"'}).status_code == 200
    assert client.post("/display").status_code == 405
    assert client.get(f"/display/{night['night_id'] + 999}", headers=HTMX).status_code == 404
    assert shortcut.answered == answered


def test_one_members_take_on_the_boxs_double_sends_the_poll_to_flask(app, client, screen, night):
    """The box doubled two cubes: the first take changes the screen before the second answer."""
    shortcut, reached = screen
    with app.app_context():
        organizer = db.session.get(Member, night["organizer_id"])
        commands.play(night["table_id"], tables.last_seq(night["table_id"]),
                      {"type": "double", "by": "box", "cubes": ["Bob", "Cy"]}, organizer)
        db.session.commit()
    etag = client.get("/display", headers=HTMX).headers["ETag"]
    assert client.get("/display", headers={**HTMX, "If-None-Match": etag}).status_code == 304
    with app.app_context():
        organizer = db.session.get(Member, night["organizer_id"])
        commands.play(night["table_id"], tables.last_seq(night["table_id"]),
                      {"type": "take", "cube": "Bob"}, organizer)
        db.session.commit()
    answered, seen = shortcut.answered, len(reached)
    changed = client.get("/display", headers={**HTMX, "If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert "takes" in changed.get_data(as_text=True)
    assert shortcut.answered == answered and len(reached) == seen + 1
