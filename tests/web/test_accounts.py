"""Accounts: first start, signing in and out, the limiter, redirects, sessions, cookies."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from app import create_app
from chouette.extensions import db
from chouette.models import LoginFailure, Member, utcnow
from chouette.services import base, members
from tests.concurrency import at_once
from tests.conftest import csrf_client, csrf_token_from, dispose, make_app
from tests.factories import PASSWORD, gen_member


def _member_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(Member.id)))


# --------------------------------------------------------------------------- first start


def test_first_visit_without_members_goes_to_the_setup_page(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/setup")
    assert client.get("/auth/login").headers["Location"].endswith("/setup")


def test_setup_page_creates_the_admin_and_signs_them_in(app, client):
    assert b"Create the admin" in client.get("/setup").data
    response = client.post("/setup", data={"name": "Ann", "username": "Ann", "password": "long-enough", "confirm": "long-enough"})
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/admin/members")
    with app.app_context():
        admin = db.session.scalar(select(Member))
        assert (admin.username, admin.role, admin.name) == ("ann", "admin", "Ann")
    assert client.get("/admin/members").status_code == 200


def test_setup_page_is_closed_once_a_member_exists(app, client):
    with app.app_context():
        gen_member("player")
    assert client.get("/setup").headers["Location"].endswith("/auth/login")
    response = client.post("/setup", data={"name": "Eve", "username": "eve", "password": "long-enough", "confirm": "long-enough"})
    assert response.status_code == 303
    assert _member_count(app) == 1


def test_setup_with_passwords_that_differ_keeps_what_was_typed_and_creates_nobody(app, client):
    response = client.post("/setup", data={"name": "Ann Smith", "username": "ann", "password": "long-enough", "confirm": "other-one!"})
    assert response.status_code == 422
    assert b"The two passwords differ." in response.data
    assert b'value="Ann Smith"' in response.data
    assert _member_count(app) == 0


def test_first_admin_service_refuses_a_second_admin(app):
    with app.app_context():
        members.create_first_admin(name="Ann", username="ann", password="long-enough")
        with pytest.raises(base.AlreadySetUp, match="already set up"):
            members.create_first_admin(name="Eve", username="eve", password="long-enough")
    assert _member_count(app) == 1


def test_two_first_visitors_at_once_make_one_admin(app):
    """The setup page's race: several first visitors submit at the same moment (on PostgreSQL
    too, where read committed would let each see an empty club without the table lock)."""
    results = at_once(app, 4, lambda number: members.create_first_admin(
        name=f"First {number}", username=f"first{number}", password="long-enough"),
        refused=(base.AlreadySetUp,))
    assert sorted(results) == ["ok", "refused", "refused", "refused"], results
    assert _member_count(app) == 1


def test_create_admin_command_creates_an_admin(app):
    result = app.test_cli_runner().invoke(args=["create-admin", "--name", "Ann", "--username", "ann", "--password", "long-enough"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert db.session.scalar(select(Member.role).where(Member.username == "ann")) == "admin"


def test_create_admin_command_refuses_a_short_password(app):
    result = app.test_cli_runner().invoke(args=["create-admin", "--name", "Ann", "--username", "ann", "--password", "short"])
    assert result.exit_code != 0
    assert "at least 8 characters" in result.output
    assert _member_count(app) == 0


# --------------------------------------------------------------------------- signing in


def test_sign_in_with_the_right_password_goes_home(app, client, auth):
    with app.app_context():
        member = gen_member("player", name="Bob")
    response = auth.login(member.username)
    assert response.status_code == 303
    assert response.headers["Location"] == "/"
    assert b"Hello, Bob" in client.get("/").data


def test_wrong_password_and_unknown_username_get_the_same_refusal(app, auth):
    with app.app_context():
        member = gen_member("player")
    wrong = auth.login(member.username, "wrong-password")
    unknown = auth.login("nobody", PASSWORD)
    assert wrong.status_code == unknown.status_code == 401
    assert b"Wrong username or password." in wrong.data and b"Wrong username or password." in unknown.data
    assert f'value="{member.username}"'.encode() in wrong.data  # what was typed is kept


def test_an_inactive_member_cannot_sign_in(app, auth):
    with app.app_context():
        member = gen_member("organizer", active=False)
    assert auth.login(member.username).status_code == 401


def test_an_empty_sign_in_form_is_refused_with_422(app, client):
    with app.app_context():
        gen_member("player")
    response = client.post("/auth/login", data={"username": "", "password": ""})
    assert response.status_code == 422
    assert b"This field is required." in response.data


def test_sign_out_ends_the_session_and_needs_a_post(app, client, login_as):
    login_as("player")
    assert client.get("/auth/logout").status_code == 405
    assert client.post("/auth/logout").status_code == 303
    assert client.get("/nights/").status_code == 302


# --------------------------------------------------------------------------- the limiter


def test_five_failures_lock_the_username_from_that_address_even_with_the_right_password(app, auth):
    with app.app_context():
        member = gen_member("player")
    for _ in range(5):
        assert auth.login(member.username, "wrong-password").status_code == 401
    locked = auth.login(member.username)
    assert locked.status_code == 429
    assert b"Too many failed sign-ins" in locked.data


def test_the_lock_is_per_address(app):
    with app.app_context():
        member = gen_member("player")
    attacker = app.test_client()
    for _ in range(5):
        attacker.post("/auth/login", data={"username": member.username, "password": "nope-nope"}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert attacker.post("/auth/login", data={"username": member.username, "password": PASSWORD}, environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 429
    owner = app.test_client()
    assert owner.post("/auth/login", data={"username": member.username, "password": PASSWORD}, environ_base={"REMOTE_ADDR": "10.0.0.7"}).status_code == 303


def test_failures_are_counted_across_workers_through_the_database(app, tmp_path):
    """Two app instances on one database stand for two gunicorn workers."""
    with app.app_context():
        member = gen_member("player")
    other_worker = create_app({**app.config, "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]})
    try:
        clients = [app.test_client(), other_worker.test_client()]
        for attempt in range(5):
            clients[attempt % 2].post("/auth/login", data={"username": member.username, "password": "nope-nope"})
        assert clients[1].post("/auth/login", data={"username": member.username, "password": PASSWORD}).status_code == 429
    finally:
        with other_worker.app_context():
            db.engine.dispose()


def test_failures_older_than_the_window_no_longer_count(app):
    with app.test_request_context():
        member = gen_member("player")
        window = app.config["LOGIN_FAILURE_WINDOW"]
        past = utcnow() - window - window
        for _ in range(5):
            with pytest.raises(base.LoginRefused, match="Wrong username or password"):
                members.authenticate(member.username, "wrong", "1.2.3.4", now=past)
        assert members.authenticate(member.username, PASSWORD, "1.2.3.4").id == member.id


def test_a_successful_sign_in_clears_the_failures(app, auth):
    with app.app_context():
        member = gen_member("player")
    for _ in range(4):
        auth.login(member.username, "wrong-password")
    assert auth.login(member.username).status_code == 303
    with app.app_context():
        assert db.session.scalar(select(func.count(LoginFailure.id))) == 0


# --------------------------------------------------------------------------- redirects and sessions


@pytest.mark.parametrize(
    "target",
    ["https://evil.example/", "//evil.example/x", "/\\evil.example", "http:/evil.example", "javascript:alert(1)", "\\\\evil.example"],
)
def test_sign_in_never_redirects_off_site(app, auth, target):
    with app.app_context():
        member = gen_member("player")
    response = auth.login(member.username, next_url=target)
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_sign_in_follows_a_local_next(app, client, auth):
    with app.app_context():
        member = gen_member("player")
    page = client.get("/nights/")
    assert page.status_code == 302 and "next=/nights/" in page.headers["Location"]
    response = auth.login(member.username, next_url="/nights/")
    assert response.headers["Location"] == "/nights/"


def test_sign_in_starts_a_new_session(app, client, auth):
    """Session fixation: nothing planted before signing in survives it."""
    with app.app_context():
        member = gen_member("player")
    with client.session_transaction() as planted:
        planted["planted"] = "by-an-attacker"
    auth.login(member.username)
    with client.session_transaction() as after:
        assert "planted" not in after
        assert after["_user_id"].startswith(f"{member.id}.0.")


def test_a_new_password_ends_the_members_other_sessions(app, client, login_as):
    member = login_as("player")
    with app.test_request_context():
        admin = gen_member("admin")
        members.update_member(member.id, name=member.name, role="player", locale=None, active=True, password="brand-new-pass", actor=admin)
    assert client.get("/nights/").status_code == 302


def test_deactivating_a_member_signs_them_out(app, client, login_as):
    member = login_as("organizer")
    with app.test_request_context():
        admin = gen_member("admin")
        members.update_member(member.id, name=member.name, role="organizer", locale=None, active=False, actor=admin)
    assert client.get("/nights/").status_code == 302


def test_session_cookie_is_httponly_and_samesite_lax(app, client, auth):
    with app.app_context():
        member = gen_member("player")
    cookie = auth.login(member.username).headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie


def test_session_cookie_is_secure_when_configured(tmp_path):
    app = make_app(tmp_path, SESSION_COOKIE_SECURE=True)
    try:
        with app.app_context():
            member = gen_member("player")
        cookie = app.test_client().post("/auth/login", data={"username": member.username, "password": PASSWORD}).headers["Set-Cookie"]
        assert "Secure" in cookie
    finally:
        dispose(app)


def test_sign_in_refuses_a_post_without_csrf_token(csrf_app):
    with csrf_app.app_context():
        member = gen_member("player")
    client = csrf_app.test_client()
    refused = client.post("/auth/login", data={"username": member.username, "password": PASSWORD})
    assert refused.status_code == 400
    assert b"This form has expired" in refused.data
    token = csrf_token_from(client.get("/auth/login").data)
    accepted = client.post("/auth/login", data={"username": member.username, "password": PASSWORD, "csrf_token": token})
    assert accepted.status_code == 303


def test_sign_out_refuses_a_post_without_csrf_token(csrf_app):
    with csrf_app.app_context():
        member = gen_member("player")
    client = csrf_client(csrf_app, member.username)
    assert client.post("/auth/logout").status_code == 400
    assert client.get("/nights/").status_code == 200  # still signed in


def test_a_secret_key_is_created_once_in_the_instance_folder(tmp_path, monkeypatch):
    from chouette.config import instance_secret_key

    first = instance_secret_key(str(tmp_path))
    assert len(first) == 64
    assert instance_secret_key(str(tmp_path)) == first
    assert oct((tmp_path / "secret_key").stat().st_mode & 0o777) == "0o600"


def test_every_answer_carries_the_security_headers(client):
    response = client.get("/health")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_behind_a_trusted_proxy_the_limiter_keys_on_the_forwarded_address(tmp_path):
    app = make_app(tmp_path, TRUSTED_PROXIES=1)
    try:
        with app.app_context():
            member = gen_member("player")
        client = app.test_client()
        for _ in range(5):
            client.post("/auth/login", data={"username": member.username, "password": "nope-nope"}, headers={"X-Forwarded-For": "203.0.113.5"})
        locked = client.post("/auth/login", data={"username": member.username, "password": PASSWORD}, headers={"X-Forwarded-For": "203.0.113.5"})
        other = client.post("/auth/login", data={"username": member.username, "password": PASSWORD}, headers={"X-Forwarded-For": "198.51.100.7"})
        assert (locked.status_code, other.status_code) == (429, 303)
    finally:
        dispose(app)


def test_without_a_trusted_proxy_a_forged_forwarded_address_changes_nothing(app, client):
    with app.app_context():
        member = gen_member("player")
    for number in range(5):
        client.post("/auth/login", data={"username": member.username, "password": "nope-nope"}, headers={"X-Forwarded-For": f"10.0.0.{number}"})
    assert client.post("/auth/login", data={"username": member.username, "password": PASSWORD}).status_code == 429


def test_a_phone_changing_network_stays_signed_in(app, client):
    with app.app_context():
        member = gen_member("player")
    client.post("/auth/login", data={"username": member.username, "password": PASSWORD}, environ_base={"REMOTE_ADDR": "192.168.1.20"})
    assert client.get("/nights/", environ_base={"REMOTE_ADDR": "100.64.3.9"}).status_code == 200
