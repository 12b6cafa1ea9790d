"""Sign-in against hostile use: session fixation, forged posts without a CSRF token (every
mutating endpoint of the URL map), and open redirects through ``next``."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from flask import url_for
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import ChouetteTable, Member, Night, TableEvent
from tests.conftest import csrf_token_from
from tests.factories import PASSWORD, gen_member, gen_night, gen_table

HOSTILE_NEXT = [
    "//evil.example/", "https://evil.example/", "http:evil.example", "/\\evil.example", "\\\\evil.example",
    "javascript:alert(1)", "/%2F%2Fevil.example", " //evil.example", "\t//evil.example", "/\t/evil.example",
    "https:/evil.example", "//evil.example@club.example", "data:text/html,<script>alert(1)</script>",
]


def _sign_in(client, username: str, next_url: str | None = None):
    page = client.get("/auth/login" + (f"?next={next_url}" if next_url else ""))
    data = {"username": username, "password": PASSWORD, "csrf_token": csrf_token_from(page.data)}
    if next_url is not None:
        data["next"] = next_url
    return client.post("/auth/login", data=data)


def _session_cookie(client) -> str | None:
    cookie = client.get_cookie("session")
    return cookie.value if cookie else None


def test_signing_in_gives_a_new_session_and_drops_what_was_planted_before(csrf_app):
    with csrf_app.app_context():
        member = gen_member("organizer")
    client = csrf_app.test_client()
    client.get("/auth/login")
    with client.session_transaction() as planted:
        planted["planted_by_attacker"] = "yes"
        planted["_user_id"] = "999.0"
    before = _session_cookie(client)
    response = _sign_in(client, member.username)
    assert response.status_code == 303
    assert _session_cookie(client) != before
    with client.session_transaction() as session:
        assert "planted_by_attacker" not in session
        assert session["_user_id"].split(".")[0] == str(member.id)


def test_the_session_cookie_is_http_only_and_same_site(csrf_app):
    with csrf_app.app_context():
        member = gen_member("organizer")
    client = csrf_app.test_client()
    response = _sign_in(client, member.username)
    header = "; ".join(response.headers.getlist("Set-Cookie")).lower()
    assert "httponly" in header and "samesite=lax" in header


def test_signing_in_without_the_csrf_token_is_refused(csrf_app):
    with csrf_app.app_context():
        member = gen_member("organizer")
    client = csrf_app.test_client()
    client.get("/auth/login")
    response = client.post("/auth/login", data={"username": member.username, "password": PASSWORD})
    assert response.status_code == 400
    assert b"Reload the page" in response.data
    assert client.get("/nights/").status_code == 302  # still signed out


def _rows() -> dict[str, int]:
    return {model.__tablename__: db.session.scalar(select(func.count()).select_from(model)) or 0
            for model in (Member, Night, ChouetteTable, TableEvent)}


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_every_mutation_without_a_csrf_token_is_refused_and_changes_nothing(csrf_app, htmx):
    with csrf_app.app_context():
        admin = gen_member("admin")
        night = gen_night(opened_by_id=admin.id)
        table = gen_table(night, created_by_id=admin.id)
        ids = {"night_id": night.id, "table_id": table.id, "member_id": admin.id}
    client = csrf_app.test_client()
    assert _sign_in(client, admin.username).status_code == 303
    with csrf_app.test_request_context():
        posts = [(rule.endpoint, url_for(rule.endpoint, **{name: ids.get(name, 1) for name in rule.arguments}))
                 for rule in csrf_app.url_map.iter_rules() if "POST" in (rule.methods or ())]
    assert len(posts) > 10
    with csrf_app.app_context():
        before = _rows()
        db.session.remove()
    headers = {"HX-Request": "true"} if htmx else {}
    for endpoint, url in posts:
        response = client.post(url, data={"name": "forged", "player": "Zed", "seq": "0", "answer": "take"},
                               headers=headers)
        assert response.status_code == 400, (endpoint, response.status_code)
        assert b"Reload the page" in response.data, endpoint
    with csrf_app.app_context():
        assert _rows() == before
    assert client.get("/nights/").status_code == 200  # and the member is still signed in


@pytest.mark.parametrize("target", HOSTILE_NEXT)
def test_sign_in_never_redirects_off_the_site(csrf_app, target):
    with csrf_app.app_context():
        member = gen_member("player")
    client = csrf_app.test_client()
    response = _sign_in(client, member.username, target)
    assert response.status_code == 303
    location = urlsplit(response.headers["Location"])
    assert location.netloc in ("", "localhost"), response.headers["Location"]
    assert location.scheme in ("", "http") and location.path.startswith("/") and not location.path.startswith("//")
    # Already signed in, the login page with a hostile next sends home as well.
    again = client.get("/auth/login", query_string={"next": target})
    assert again.status_code == 302
    assert urlsplit(again.headers["Location"]).netloc in ("", "localhost")


def test_sign_in_follows_a_next_on_this_site(csrf_app):
    with csrf_app.app_context():
        member = gen_member("player")
    response = _sign_in(csrf_app.test_client(), member.username, "/nights/")
    assert response.status_code == 303 and response.headers["Location"] == "/nights/"
