"""A member changes their own password (issue 25): the current one must be right, the new one
typed twice and fit the sign-up rules; afterwards only the new one signs in, this device stays
signed in and the member's other devices are signed out."""

from __future__ import annotations

from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import Member, MemberSession
from tests.conftest import csrf_token_from
from tests.factories import PASSWORD, gen_member

NEW = "a-brand-new-one-7"


def _post(client, current=PASSWORD, password=NEW, confirm=NEW):
    return client.post("/account/password", data={"current": current, "password": password, "confirm": confirm})


def _hash(app, member_id: int) -> str:
    with app.app_context():
        return db.session.get(Member, member_id).password_hash


def _signs_in(app, username: str, password: str) -> bool:
    response = app.test_client().post("/auth/login", data={"username": username, "password": password})
    return response.status_code == 303


def test_the_page_is_reached_from_the_account_page(client, login_as):
    login_as("player")
    assert b'href="/account/password"' in client.get("/account").data
    page = client.get("/account/password")
    assert page.status_code == 200
    assert b'name="current"' in page.data and b'name="confirm"' in page.data
    assert page.headers["Cache-Control"] == "private, no-store"


def test_a_wrong_current_password_is_refused_and_nothing_changes(app, client, login_as):
    member = login_as("player")
    before = _hash(app, member.id)
    response = _post(client, current="not-the-password")
    assert response.status_code == 422
    assert b"The current password is wrong." in response.data
    assert _hash(app, member.id) == before
    assert _signs_in(app, member.username, PASSWORD)
    assert not _signs_in(app, member.username, NEW)


def test_two_different_new_passwords_are_refused(app, client, login_as):
    member = login_as("player")
    before = _hash(app, member.id)
    response = _post(client, confirm=NEW + "x")
    assert response.status_code == 422
    assert b"The two passwords differ." in response.data
    assert _hash(app, member.id) == before


def test_a_new_password_shorter_than_at_sign_up_is_refused(app, client, login_as):
    member = login_as("player")
    before = _hash(app, member.id)
    response = _post(client, password="short", confirm="short")
    assert response.status_code == 422
    assert b"at least 8 characters" in response.data
    assert _hash(app, member.id) == before


def test_success_signs_in_with_the_new_password_only(app, client, login_as):
    member = login_as("player")
    response = _post(client)
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/account")
    assert client.get("/account").status_code == 200  # this device stays signed in
    assert not _signs_in(app, member.username, PASSWORD)
    assert _signs_in(app, member.username, NEW)


def test_the_other_devices_are_signed_out_and_their_sessions_deleted(app, client):
    with app.app_context():
        member = gen_member("organizer")
    phone, laptop = app.test_client(), app.test_client()
    for device in (phone, laptop):
        assert device.post("/auth/login", data={"username": member.username, "password": PASSWORD}).status_code == 303
    assert _post(laptop).status_code == 303
    assert laptop.get("/account").status_code == 200
    response = phone.get("/account")
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    with app.app_context():
        sessions = db.session.scalar(select(func.count(MemberSession.id)).where(MemberSession.member_id == member.id))
    assert sessions == 1  # the laptop's new one only


def test_signed_out_the_page_and_the_post_send_to_sign_in(app, client):
    with app.app_context():
        member = gen_member("player")
    assert "/auth/login" in client.get("/account/password").headers["Location"]
    response = _post(client)
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    assert _signs_in(app, member.username, PASSWORD)


def test_without_its_csrf_token_the_change_is_refused(csrf_app):
    with csrf_app.app_context():
        member = gen_member("player")
        before = member.password_hash
    client = csrf_app.test_client()
    token = csrf_token_from(client.get("/auth/login").data)
    login = {"username": member.username, "password": PASSWORD, "csrf_token": token}
    assert client.post("/auth/login", data=login).status_code == 303
    assert _post(client).status_code == 400
    with csrf_app.app_context():
        assert db.session.get(Member, member.id).password_hash == before
    token = csrf_token_from(client.get("/account/password").data)
    response = client.post("/account/password", data={"current": PASSWORD, "password": NEW, "confirm": NEW,
                                                      "csrf_token": token})
    assert response.status_code == 303


def test_the_page_is_italian_for_an_italian_member(client, login_as):
    login_as("player", locale="it")
    page = client.get("/account/password").data.decode()
    assert "Cambia la tua password" in page and "Password attuale" in page
    response = _post(client, current="sbagliata-123")
    assert "La password attuale è sbagliata." in response.data.decode()


def test_wrong_current_passwords_count_as_failed_sign_ins(app, client, login_as):
    """A stolen session cannot guess the password here: the sign-in limiter counts the tries."""
    member = login_as("player")
    before = _hash(app, member.id)
    for _attempt in range(app.config["LOGIN_MAX_FAILURES"]):
        assert _post(client, current="guess-guess-1").status_code == 422
    response = _post(client)  # even the right one, now
    assert response.status_code == 429
    assert b"Too many failed sign-ins" in response.data
    assert _hash(app, member.id) == before


def test_an_admin_reaches_the_password_link_from_the_members_page(app, client, login_as):
    login_as("admin")
    with app.app_context():
        player = gen_member("player")
    page = client.get(f"/admin/members/{player.id}").data
    assert f'action="/members/{player.id}/password-link"'.encode() in page
