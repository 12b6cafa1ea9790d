"""Errors handled once in the factory: 403, 404, 500 pages; the 500 rolls the session back."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import Member
from tests.conftest import dispose, make_app
from tests.factories import gen_member


def test_unknown_address_gets_the_404_page(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert b"There is nothing at this address." in response.data and b"<html" in response.data


def test_404_for_htmx_is_the_flash_fragment(client, htmx):
    response = client.get("/no/such/page", headers=htmx)
    assert response.status_code == 404
    assert response.data.lstrip().startswith(b'<div id="flash"')


def test_403_page_says_the_role_does_not_allow_it(app, client, login_as):
    login_as("player")
    response = client.get("/nights/new")
    assert response.status_code == 403
    assert b"Your role does not allow this." in response.data


def test_500_page_rolls_back_what_the_request_was_writing(tmp_path: Path):
    app = make_app(tmp_path, PROPAGATE_EXCEPTIONS=False)

    @app.get("/boom")
    def boom() -> str:
        db.session.add(Member(name="Ghost", username="ghost", password_hash="x", role="player"))
        db.session.flush()
        raise RuntimeError("the failure under test")

    try:
        with app.app_context():
            gen_member("admin")
        response = app.test_client().get("/boom")
        assert response.status_code == 500
        assert b"Nothing was changed." in response.data
        with app.app_context():
            assert db.session.scalar(select(func.count(Member.id)).where(Member.username == "ghost")) == 0
    finally:
        dispose(app)
