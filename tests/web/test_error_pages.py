"""Errors handled once in the factory: 403, 404, 500 pages; the 500 rolls the session back."""

from __future__ import annotations

from pathlib import Path

import pytest
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
        from chouette.services.base import writing

        with writing():  # a failure in the middle of a write
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


def _refusing_app(tmp_path: Path):
    """A test app with routes that raise the domain refusals a table command can raise."""
    from chouette.engine.errors import IllegalMoveError
    from chouette.services.base import TableChanged, writing
    from chouette.table import TableError

    app = make_app(tmp_path)

    @app.post("/refuse/<kind>")
    def refuse(kind: str) -> str:
        with writing():  # the refusal comes after a write: nothing of it is kept
            db.session.add(Member(name="Ghost", username="ghost", password_hash="x", role="player"))
            db.session.flush()
            raise {
                "table": TableError("Bob has no cube to take."),
                "move": IllegalMoveError("24/18 is not legal with 6-5 here."),
                "changed": TableChanged(1, 3),
            }[kind]

    return app


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("table", b"Bob has no cube to take."),
        ("move", b"24/18 is not legal with 6-5 here."),
        ("changed", b"The table changed while you were deciding."),
    ],
)
def test_domain_refusals_give_htmx_422_with_the_flash_fragment_and_write_nothing(tmp_path, kind, message):
    app = _refusing_app(tmp_path)
    try:
        response = app.test_client().post(f"/refuse/{kind}", headers={"HX-Request": "true"})
        assert response.status_code == 422
        assert response.data.lstrip().startswith(b'<div id="flash"') and message in response.data
        assert response.headers["HX-Retarget"] == "#flash" and response.headers["HX-Reswap"] == "outerHTML"
        with app.app_context():
            assert db.session.scalar(select(func.count(Member.id))) == 0
    finally:
        dispose(app)


def test_domain_refusals_without_htmx_flash_and_303_back(tmp_path):
    app = _refusing_app(tmp_path)
    try:
        client = app.test_client()
        response = client.post("/refuse/table", headers={"Referer": "http://localhost/nights/"})
        assert response.status_code == 303
        assert response.headers["Location"] == "/nights/"
        with client.session_transaction() as session:
            assert ("error", "Bob has no cube to take.") in session["_flashes"]
    finally:
        dispose(app)


def test_403_for_htmx_says_why_in_the_flash_fragment(app, client, login_as, htmx):
    login_as("player")
    response = client.post("/nights/new", headers=htmx)
    assert response.status_code == 403
    assert b"Your role does not allow this." in response.data
    assert response.headers["HX-Retarget"] == "#flash"
