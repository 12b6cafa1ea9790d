"""Every mutating endpoint, found in the URL map (new ones included automatically):
signed out it sends to sign-in, and a player may use only the ones listed here."""

from __future__ import annotations

import pytest
from flask import Flask

from tests.factories import gen_member, gen_night, gen_table

#: Posts anyone may make: signing in, the first-run page, signing out; a password link and an
#: invitation (their token is the key: tests/web/test_account_links.py).
PUBLIC = {"auth.login", "main.setup", "auth.logout", "accounts.reset", "accounts.join"}
#: Posts a player may make (their own preferences; their answer on their cube). Seated at a
#: table they also post their other decisions (play.double, play.partner, play.extra): at a
#: table where they do not sit, as here, those are refused like any table command
#: (tests/web/test_phone_decisions.py checks them one by one).
#: A member also seats and unseats themselves (tables.sit, tables.stand: a join or leave of their
#: own, by id; tests/web/test_table_close.py), and changes their own password.
PLAYER_ALLOWED = {"play.answer", "main.account", "accounts.password", "tables.sit", "tables.stand"}


def _mutations(app: Flask) -> list[tuple[str, str]]:
    """(endpoint, url) of every rule accepting a POST, its arguments filled with 1."""
    found = []
    with app.test_request_context():
        from flask import url_for

        for rule in app.url_map.iter_rules():
            if {"POST", "PUT", "PATCH", "DELETE"} & set(rule.methods or ()) and rule.endpoint not in PUBLIC:
                found.append((rule.endpoint, url_for(rule.endpoint, **dict.fromkeys(rule.arguments, 1))))
    return sorted(found)


@pytest.fixture
def rows(app):
    with app.app_context():
        gen_member("admin")
        gen_table(gen_night())


def test_the_url_map_has_the_mutations_this_test_guards(app):
    endpoints = {endpoint for endpoint, _url in _mutations(app)}
    assert {"admin.members", "admin.edit_member", "nights.new", "nights.close", "tables.new", "main.account",
            "play.join", "play.answer", "play.move", "play.undo", "play.correct", "accounts.password",
            "accounts.make_password_link", "accounts.invitations", "accounts.revoke_invitation"} <= endpoints


def test_every_mutation_signed_out_sends_to_sign_in_and_htmx_is_told_so(app, client, rows):
    for endpoint, url in _mutations(app):
        response = client.post(url, data={"name": "x"})
        assert response.status_code == 302, endpoint
        assert "/auth/login" in response.headers["Location"], endpoint
        response = client.post(url, data={"name": "x"}, headers={"HX-Request": "true"})
        assert response.status_code == 401 and "/auth/login" in response.headers["HX-Redirect"], endpoint


def test_a_player_may_only_make_the_posts_allowed_to_players(app, client, rows, login_as):
    login_as("player")
    for endpoint, url in _mutations(app):
        if endpoint in PLAYER_ALLOWED:
            continue
        response = client.post(url, data={"name": "x"})
        assert response.status_code == 403, endpoint


def test_an_organizer_may_not_manage_members(app, client, rows, login_as):
    login_as("organizer")
    for endpoint, url in _mutations(app):
        if endpoint.startswith("admin."):
            assert client.post(url, data={"name": "x"}).status_code == 403, endpoint
