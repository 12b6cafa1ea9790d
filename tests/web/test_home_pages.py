"""The home page: a welcome for visitors, the dashboard of open nights for members."""

from __future__ import annotations

from tests.factories import gen_member, gen_night, gen_table


def test_a_signed_out_visitor_gets_the_welcome_page(app, client):
    with app.app_context():
        gen_member("admin")
    response = client.get("/")
    assert response.status_code == 200
    assert b"Sign in" in response.data and b"Hello" not in response.data


def test_the_dashboard_lists_open_nights_and_their_tables(app, client, login_as):
    login_as("player")
    with app.app_context():
        night = gen_night(name="Friday")
        gen_table(night, name="Upstairs")
        gen_night(name="Last week", closed_at=night.opened_at)
    page = client.get("/").data
    assert b"Friday" in page and b"Upstairs" in page
    assert b"Last week" not in page
    assert b"Open a night" not in page  # a player cannot


def test_the_organizers_dashboard_offers_to_open_a_night(app, client, login_as):
    login_as("organizer")
    page = client.get("/").data
    assert b"Open a night" in page and b"No night is open." in page
    assert b"Members" not in page  # only the admin manages members


def test_the_admin_sees_the_members_link(app, client, login_as):
    login_as("admin")
    assert b'href="/admin/members"' in client.get("/").data


def test_account_page_needs_a_signed_in_member(app, client, login_as):
    with app.app_context():
        gen_member("admin")
    assert client.get("/account").status_code == 302
    member = login_as("player")
    page = client.get("/account")
    assert page.status_code == 200 and member.name.encode() in page.data
