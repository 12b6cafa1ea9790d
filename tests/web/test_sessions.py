"""Sessions end when they should: signing out ends that session on the server (a copied
cookie no longer opens anything), and the sign-in limit holds under concurrent tries from
several nodes (issue 12, finding 9)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import LoginFailure, MemberSession
from chouette.services import base, members
from tests.concurrency import at_once, second_node
from tests.factories import PASSWORD, gen_member

ADDRESS = "10.0.0.66"


def _copy_session_cookie(client) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None, "no session cookie"
    return cookie.value


def test_a_session_cookie_copied_before_signing_out_no_longer_opens_anything(app, client, auth):
    with app.app_context():
        member = gen_member("player")
    assert auth.login(member.username).status_code == 303
    stolen = _copy_session_cookie(client)
    assert client.get("/account").status_code == 200
    assert auth.logout().status_code == 303
    replay = app.test_client()
    replay.set_cookie("session", stolen)
    response = replay.get("/account")
    assert response.status_code == 302
    assert "/auth/login" in response.headers["Location"]


def test_signing_out_ends_only_that_session(app, auth):
    """The phone stays signed in when the laptop signs out."""
    with app.app_context():
        member = gen_member("organizer")
    phone, laptop = app.test_client(), app.test_client()
    for device in (phone, laptop):
        response = device.post("/auth/login", data={"username": member.username, "password": PASSWORD})
        assert response.status_code == 303
    assert laptop.post("/auth/logout").status_code == 303
    assert laptop.get("/account").status_code == 302
    assert phone.get("/account").status_code == 200


def test_a_replayed_cookie_after_sign_out_is_refused_by_another_node(app, client, auth):
    with app.app_context():
        member = gen_member("player")
    auth.login(member.username)
    stolen = _copy_session_cookie(client)
    auth.logout()
    with second_node(app) as node:
        replay = node.test_client()
        replay.set_cookie("session", stolen)
        assert replay.get("/account").status_code == 302


def test_signing_out_removes_the_sessions_row_and_signing_in_adds_one(app, client, auth):
    with app.app_context():
        member = gen_member("player")
    auth.login(member.username)
    with app.app_context():
        assert db.session.scalar(select(func.count(MemberSession.id))) == 1
    auth.logout()
    with app.app_context():
        assert db.session.scalar(select(func.count(MemberSession.id))) == 0


def test_a_session_id_without_its_server_side_session_is_refused(app, client, auth):
    """A forged or old-style session id (member.epoch, no session) signs nobody in."""
    with app.app_context():
        member = gen_member("admin")
    auth.login(member.username)
    with client.session_transaction() as session:
        session["_user_id"] = f"{member.id}.0"
    assert client.get("/account").status_code == 302


def test_the_sign_in_limit_holds_under_concurrent_tries_on_two_nodes(app):
    """Twenty wrong passwords at once, half through each node: exactly five are checked."""
    with app.app_context():
        member = gen_member("player")
    limit = app.config["LOGIN_MAX_FAILURES"]
    with second_node(app) as node:
        results = at_once(app, 20, lambda number: members.authenticate(
            member.username, "wrong-password", ADDRESS), refused=(base.TooManyAttempts,),
            nodes=[app, node])
    checked = [result for result in results if result.startswith("LoginRefused")]
    assert len(checked) == limit and results.count("refused") == 20 - limit, results
    with app.app_context():
        assert db.session.scalar(select(func.count(LoginFailure.id))) == limit
        # ... and the right password is refused too until the window ends.
        with pytest.raises(base.TooManyAttempts, match="Too many failed sign-ins"):
            members.authenticate(member.username, PASSWORD, ADDRESS)
