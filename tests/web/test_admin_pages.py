"""The admin's member pages: who may use them, adding and editing members, refusals."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from chouette.extensions import db
from chouette.models import Member
from tests.conftest import csrf_client, csrf_token_from
from tests.factories import gen_member

NEW_MEMBER = {"name": "Cy Young", "username": "cy", "password": "long-enough", "role": "organizer", "locale": "it"}


def _members(app) -> dict[str, Member]:
    with app.app_context():
        return {m.username: m for m in db.session.scalars(select(Member))}


def test_members_page_signed_out_redirects_to_sign_in(app, client):
    with app.app_context():
        gen_member("admin")
    response = client.get("/admin/members")
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]


def test_adding_a_member_signed_out_redirects_and_adds_nobody(app, client):
    with app.app_context():
        gen_member("admin")
    response = client.post("/admin/members", data=NEW_MEMBER)
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    assert "cy" not in _members(app)


def test_htmx_request_signed_out_is_told_where_to_sign_in(app, client, htmx):
    with app.app_context():
        gen_member("admin")
    response = client.get("/admin/members", headers=htmx)
    assert response.status_code == 401
    assert response.headers["HX-Redirect"].startswith("/auth/login")


@pytest.mark.parametrize("role", ["player", "organizer"])
def test_members_page_and_adding_are_forbidden_below_admin(app, client, login_as, role):
    login_as(role)
    assert client.get("/admin/members").status_code == 403
    response = client.post("/admin/members", data=NEW_MEMBER)
    assert response.status_code == 403
    assert b"Not allowed" in response.data
    assert "cy" not in _members(app)


def test_admin_sees_members_as_page_and_as_fragment(app, client, login_as, htmx):
    admin = login_as("admin")
    page = client.get("/admin/members")
    assert page.status_code == 200 and b"<html" in page.data and b"Add a member" in page.data
    fragment = client.get("/admin/members", headers=htmx)
    assert fragment.status_code == 200
    assert fragment.data.lstrip().startswith(b'<section id="member-list"')
    assert admin.username.encode() in fragment.data
    assert "HX-Request" in fragment.headers["Vary"] and "HX-Request" in page.headers["Vary"]


def test_admin_adds_a_member(app, client, login_as):
    login_as("admin")
    response = client.post("/admin/members", data=NEW_MEMBER)
    assert response.status_code == 303
    cy = _members(app)["cy"]
    assert (cy.name, cy.role, cy.locale, cy.active) == ("Cy Young", "organizer", "it", True)
    assert b"Cy Young is a member." in client.get("/admin/members").data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"username": "no spaces"}, b"2 to 40 letters"),
        ({"password": "short"}, b"at least 8 characters"),
        ({"password": ""}, b"A new member needs a password."),
        ({"role": "emperor"}, b"Not a valid choice"),
        ({"name": ""}, b"This field is required."),
    ],
)
def test_adding_a_member_with_bad_input_says_why_keeps_the_input_and_adds_nobody(app, client, login_as, change, message):
    login_as("admin")
    data = {**NEW_MEMBER, **change}
    response = client.post("/admin/members", data=data)
    assert response.status_code == 422
    assert message in response.data
    if data["name"]:
        assert b'value="Cy Young"' in response.data
    assert len(_members(app)) == 1


def test_adding_a_member_with_a_taken_username_is_refused(app, client, login_as):
    admin = login_as("admin")
    response = client.post("/admin/members", data={**NEW_MEMBER, "username": admin.username.upper()})
    assert response.status_code == 422
    assert f"The username {admin.username} is taken.".encode() in response.data
    assert len(_members(app)) == 1


def test_admin_edits_a_members_role(app, client, login_as):
    login_as("admin")
    with app.app_context():
        bob = gen_member("player", name="Bob")
    assert b'value="Bob"' in client.get(f"/admin/members/{bob.id}").data
    response = client.post(f"/admin/members/{bob.id}", data={"name": "Bobby", "username": bob.username, "role": "organizer", "locale": "", "active": "y"})
    assert response.status_code == 303
    edited = _members(app)[bob.username]
    assert (edited.name, edited.role, edited.locale) == ("Bobby", "organizer", None)


def test_admin_cannot_remove_their_own_admin_role(app, client, login_as):
    admin = login_as("admin")
    response = client.post(f"/admin/members/{admin.id}", data={"name": admin.name, "username": admin.username, "role": "player", "locale": "", "active": "y"})
    assert response.status_code == 422
    assert b"You cannot remove your own admin role" in response.data
    assert _members(app)[admin.username].role == "admin"


def test_editing_is_forbidden_below_admin_and_unknown_members_are_404(app, client, login_as):
    login_as("organizer")
    with app.app_context():
        bob = gen_member("player")
    assert client.post(f"/admin/members/{bob.id}", data={"name": "X", "username": bob.username, "role": "admin", "active": "y"}).status_code == 403
    assert _members(app)[bob.username].role == "player"
    client.post("/auth/logout")
    login_as("admin")
    assert client.get("/admin/members/9999").status_code == 404


def test_adding_a_member_needs_the_csrf_token(csrf_app):
    with csrf_app.app_context():
        admin = gen_member("admin")
    client = csrf_client(csrf_app, admin.username)
    assert client.post("/admin/members", data=NEW_MEMBER).status_code == 400
    assert "cy" not in _members(csrf_app)
    token = csrf_token_from(client.get("/admin/members").data)
    assert client.post("/admin/members", data={**NEW_MEMBER, "csrf_token": token}).status_code == 303
    assert "cy" in _members(csrf_app)
