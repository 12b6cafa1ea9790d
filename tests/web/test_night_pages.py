"""Club nights: the list, opening, the night page, closing; every role and refusal."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from chouette.extensions import db
from chouette.models import Night
from tests.conftest import csrf_client, csrf_token_from
from tests.factories import gen_member, gen_night, gen_table

NIGHT = {"name": "Friday chouette", "date": "2026-11-27", "currency": "eur"}


def _nights(app) -> list[Night]:
    with app.app_context():
        return list(db.session.scalars(select(Night).order_by(Night.id)))


def test_nights_list_needs_a_signed_in_member(app, client):
    with app.app_context():
        gen_member("admin")
    assert client.get("/nights/").status_code == 302


def test_nights_list_as_page_and_as_fragment(app, client, login_as, htmx):
    login_as("player")
    with app.app_context():
        gen_night(name="Tuesday league")
    page = client.get("/nights/")
    assert page.status_code == 200 and b"<html" in page.data and b"Tuesday league" in page.data
    fragment = client.get("/nights/", headers=htmx)
    assert fragment.data.lstrip().startswith(b'<section id="night-list"')
    assert b"Tuesday league" in fragment.data and b"<html" not in fragment.data
    assert "HX-Request" in fragment.headers["Vary"]


def test_opening_a_night_signed_out_redirects_to_sign_in_and_opens_nothing(app, client):
    with app.app_context():
        gen_member("admin")
    response = client.post("/nights/new", data=NIGHT)
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    assert _nights(app) == []


def test_a_player_may_not_open_a_night(app, client, login_as):
    login_as("player")
    assert client.get("/nights/new").status_code == 403
    assert client.post("/nights/new", data=NIGHT).status_code == 403
    assert _nights(app) == []


@pytest.mark.parametrize("role", ["organizer", "admin"])
def test_an_organizer_opens_a_night(app, client, login_as, role):
    login_as(role)
    form = client.get("/nights/new")
    assert form.status_code == 200 and b"Open the night" in form.data
    response = client.post("/nights/new", data=NIGHT)
    assert response.status_code == 303
    [night] = _nights(app)
    assert response.headers["Location"] == f"/nights/{night.id}"
    assert (night.name, str(night.date), night.currency, night.is_open) == ("Friday chouette", "2026-11-27", "EUR", True)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"date": "next friday"}, b"Not a valid date value."),
        ({"currency": "euro"}, b"A three-letter code such as EUR."),
        ({"name": "   "}, b"A night needs a name"),
    ],
)
def test_opening_a_night_with_bad_input_says_why_and_keeps_it(app, client, login_as, change, message):
    login_as("organizer")
    response = client.post("/nights/new", data={**NIGHT, **change})
    assert response.status_code == 422
    assert message in response.data
    for value in change.values():
        if value.strip():
            assert f'value="{value}"'.encode() in response.data
    assert _nights(app) == []


def test_night_page_lists_its_tables_as_page_and_as_fragment(app, client, login_as, htmx):
    login_as("player")
    with app.app_context():
        night = gen_night(name="Saturday")
        gen_table(night, name="Upstairs")
    page = client.get(f"/nights/{night.id}")
    assert page.status_code == 200 and b"Saturday" in page.data and b"Upstairs" in page.data
    assert b"Close the night" not in page.data  # a player sees no organizer buttons
    fragment = client.get(f"/nights/{night.id}", headers=htmx)
    assert fragment.data.lstrip().startswith(b'<section id="table-list"')
    assert b"Upstairs" in fragment.data


def test_unknown_night_is_404(app, client, login_as):
    login_as("player")
    response = client.get("/nights/999")
    assert response.status_code == 404
    assert b"Not found" in response.data


def test_closing_a_night_signed_out_or_as_player_changes_nothing(app, client, login_as):
    with app.app_context():
        night = gen_night()
        gen_member("admin")
    assert client.post(f"/nights/{night.id}/close").status_code == 302
    login_as("player")
    assert client.post(f"/nights/{night.id}/close").status_code == 403
    assert _nights(app)[0].is_open


def test_an_organizer_closes_a_night(app, client, login_as):
    login_as("organizer")
    with app.app_context():
        night = gen_night()
    response = client.post(f"/nights/{night.id}/close")
    assert response.status_code == 303
    assert not _nights(app)[0].is_open
    page = client.get(f"/nights/{night.id}")
    assert b"The night is closed." in page.data and b"New table" not in page.data


def test_closing_a_closed_night_is_refused_with_a_flash_and_303(app, client, login_as):
    login_as("organizer")
    with app.app_context():
        night = gen_night()
    client.post(f"/nights/{night.id}/close")
    response = client.post(f"/nights/{night.id}/close", headers={"Referer": f"http://localhost/nights/{night.id}"})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/nights/{night.id}"
    assert b"This night is already closed." in client.get(response.headers["Location"]).data


def test_closing_a_closed_night_with_htmx_gets_422_and_the_flash_fragment(app, client, login_as, htmx):
    login_as("organizer")
    with app.app_context():
        night = gen_night()
    client.post(f"/nights/{night.id}/close")
    response = client.post(f"/nights/{night.id}/close", headers=htmx)
    assert response.status_code == 422
    assert response.data.lstrip().startswith(b'<div id="flash"')
    assert b"This night is already closed." in response.data
    assert response.headers["HX-Retarget"] == "#flash"


def test_a_refusal_never_redirects_to_another_site(app, client, login_as):
    login_as("organizer")
    with app.app_context():
        night = gen_night()
    client.post(f"/nights/{night.id}/close")
    response = client.post(f"/nights/{night.id}/close", headers={"Referer": "https://evil.example/phish"})
    assert response.headers["Location"] == "/"


def test_closing_a_night_needs_the_csrf_token(csrf_app):
    with csrf_app.app_context():
        organizer = gen_member("organizer")
        night = gen_night()
    client = csrf_client(csrf_app, organizer.username)
    assert client.post(f"/nights/{night.id}/close").status_code == 400
    assert _nights(csrf_app)[0].is_open
    # htmx sends the token in a header (hx-headers on <body>).
    token = csrf_token_from(client.get(f"/nights/{night.id}").data)
    response = client.post(f"/nights/{night.id}/close", headers={"X-CSRFToken": token, "HX-Request": "true"})
    assert response.status_code == 200
    assert response.headers["HX-Redirect"] == f"/nights/{night.id}"
    assert not _nights(csrf_app)[0].is_open


def test_opening_a_night_needs_the_csrf_token(csrf_app):
    with csrf_app.app_context():
        organizer = gen_member("organizer")
    client = csrf_client(csrf_app, organizer.username)
    assert client.post("/nights/new", data=NIGHT).status_code == 400
    assert _nights(csrf_app) == []
