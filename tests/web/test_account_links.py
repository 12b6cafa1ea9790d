"""One-time password links and invitations to join the club (issue 25): only a hash of a
link's token is stored; a password link works once and expires; an invitation counts its uses,
expires, can be withdrawn; only admins (invitations) and admins or organizers (password links)
make them; a refused link is a clear page."""

from __future__ import annotations

import datetime as dt
import hashlib
import re

from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import Invitation, Member, PasswordLink, utcnow
from chouette.services import account_links
from tests.concurrency import at_once
from tests.conftest import csrf_client, csrf_token_from
from tests.factories import PASSWORD, gen_member

NEW = "fresh-password-42"


def _link_in(html: bytes) -> str:
    """The path of the link a page shows to hand over (its QR draws the same URL)."""
    match = re.search(rb'class="link-url">http://localhost(/[^<]+)</a>', html)
    assert match, "no link on the page"
    assert b'class="qr"' in html and b"<svg" in html
    return match.group(1).decode()


def _signs_in(app, username: str, password: str) -> bool:
    response = app.test_client().post("/auth/login", data={"username": username, "password": password})
    return response.status_code == 303


def _make_link(client, member_id: int) -> str:
    response = client.post(f"/members/{member_id}/password-link")
    assert response.status_code == 201, response.data
    return _link_in(response.data)


def _reset(client, path: str, password: str = NEW, confirm: str | None = None):
    return client.post(path, data={"password": password, "confirm": password if confirm is None else confirm})


# --------------------------------------------------------------------------- password links


def test_an_admin_makes_a_link_and_only_its_hash_is_stored(app, client, login_as):
    login_as("admin")
    with app.app_context():
        player = gen_member("player")
    path = _make_link(client, player.id)
    token = path.rsplit("/", 1)[1]
    with app.app_context():
        link = db.session.scalar(select(PasswordLink))
        assert link.token_hash == hashlib.sha256(token.encode()).hexdigest()
        assert token not in link.token_hash
        assert link.expires_at - link.created_at == dt.timedelta(hours=24)


def test_the_link_sets_a_new_password_once_and_signs_in(app, client, login_as):
    login_as("organizer")
    with app.app_context():
        player = gen_member("player")
    path = _make_link(client, player.id)
    phone = app.test_client()
    page = phone.get(path)
    assert page.status_code == 200 and player.name.encode() in page.data
    assert page.headers["Referrer-Policy"] == "no-referrer"
    response = _reset(phone, path)
    assert response.status_code == 303
    assert phone.get("/account").status_code == 200  # signed in as the player
    assert _signs_in(app, player.username, NEW) and not _signs_in(app, player.username, PASSWORD)
    again = app.test_client()
    for response in (again.get(path), _reset(again, path, "another-password-1")):
        assert response.status_code == 410
        assert b"This link was used already" in response.data
    assert _signs_in(app, player.username, NEW)


def test_the_link_ends_the_members_sessions(app, client, login_as):
    login_as("admin")
    with app.app_context():
        player = gen_member("player")
    laptop = app.test_client()
    assert laptop.post("/auth/login", data={"username": player.username, "password": PASSWORD}).status_code == 303
    assert _reset(app.test_client(), _make_link(client, player.id)).status_code == 303
    assert laptop.get("/account").status_code == 302


def test_an_expired_link_is_refused_and_changes_nothing(app, client, login_as):
    login_as("admin")
    with app.app_context():
        player = gen_member("player")
    path = _make_link(client, player.id)
    with app.app_context():
        link = db.session.scalar(select(PasswordLink))
        link.expires_at = utcnow() - dt.timedelta(seconds=1)
        db.session.commit()
    response = _reset(app.test_client(), path)
    assert response.status_code == 410
    assert b"This link has expired" in response.data
    assert _signs_in(app, player.username, PASSWORD)


def test_the_lifetime_is_a_config_value(app, client, login_as):
    app.config["PASSWORD_LINK_LIFETIME"] = dt.timedelta(hours=2)
    login_as("admin")
    with app.app_context():
        player = gen_member("player")
    _make_link(client, player.id)
    with app.app_context():
        link = db.session.scalar(select(PasswordLink))
        assert link.expires_at - link.created_at == dt.timedelta(hours=2)


def test_an_unknown_link_is_a_clear_page(client):
    response = client.get("/auth/reset/not-a-real-token")
    assert response.status_code == 410
    assert b"This link does not work" in response.data and b"This link is unknown" in response.data


def test_a_bad_new_password_keeps_the_link_usable(app, client, login_as):
    login_as("admin")
    with app.app_context():
        player = gen_member("player")
    path = _make_link(client, player.id)
    phone = app.test_client()
    response = _reset(phone, path, NEW, NEW + "x")
    assert response.status_code == 422 and b"The two passwords differ." in response.data
    response = _reset(phone, path, "short")
    assert response.status_code == 422 and b"at least 8 characters" in response.data
    assert _signs_in(app, player.username, PASSWORD)
    assert _reset(phone, path).status_code == 303


def test_a_player_may_not_make_a_link_nor_see_the_page(app, client, login_as):
    login_as("player")
    with app.app_context():
        other = gen_member("player")
    assert client.get("/members/password-links").status_code == 403
    assert client.post(f"/members/{other.id}/password-link").status_code == 403
    with app.app_context():
        assert db.session.scalar(select(func.count(PasswordLink.id))) == 0


def test_signed_out_nobody_makes_a_link(app, client):
    with app.app_context():
        player = gen_member("player")
    response = client.post(f"/members/{player.id}/password-link")
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    with app.app_context():
        assert db.session.scalar(select(func.count(PasswordLink.id))) == 0


def test_an_organizer_makes_links_for_players_only(app, client, login_as):
    login_as("organizer")
    with app.app_context():
        admin, organizer, player = gen_member("admin"), gen_member("organizer"), gen_member("player")
    listing = client.get("/members/password-links").data
    assert player.username.encode() in listing
    assert admin.username.encode() not in listing and organizer.username.encode() not in listing
    for member in (admin, organizer):
        response = client.post(f"/members/{member.id}/password-link")
        assert response.status_code == 303
        assert b"Only an admin can make a password link" in client.get("/members/password-links").data
    with app.app_context():
        assert db.session.scalar(select(func.count(PasswordLink.id))) == 0


def test_no_link_for_an_inactive_member_and_an_unknown_one_is_404(app, client, login_as):
    login_as("admin")
    with app.app_context():
        gone = gen_member("player", active=False)
    assert client.post(f"/members/{gone.id}/password-link").status_code == 303
    assert client.post("/members/9999/password-link").status_code == 404
    with app.app_context():
        assert db.session.scalar(select(func.count(PasswordLink.id))) == 0


def test_making_a_link_needs_its_csrf_token(csrf_app):
    with csrf_app.app_context():
        admin, player = gen_member("admin"), gen_member("player")
    client = csrf_client(csrf_app, admin.username)
    assert client.post(f"/members/{player.id}/password-link").status_code == 400
    with csrf_app.app_context():
        assert db.session.scalar(select(func.count(PasswordLink.id))) == 0
    token = csrf_token_from(client.get("/members/password-links").data)
    assert client.post(f"/members/{player.id}/password-link", data={"csrf_token": token}).status_code == 201


# --------------------------------------------------------------------------- invitations


def _invite(client, hours: int = 12, max_uses: int = 2, label: str = "Friday night") -> str:
    response = client.post("/admin/invitations", data={"label": label, "hours": hours, "max_uses": max_uses})
    assert response.status_code == 201, response.data
    return _link_in(response.data)


def _join(client, path: str, name: str, username: str, password: str = NEW, confirm: str | None = None):
    return client.post(path, data={"name": name, "username": username, "password": password,
                                   "confirm": password if confirm is None else confirm})


def _invitation(app) -> Invitation:
    with app.app_context():
        invitation = db.session.scalar(select(Invitation))
        db.session.expunge(invitation)
        return invitation


def test_an_invitation_makes_a_player_who_is_signed_in_and_counts_its_uses(app, client, login_as):
    login_as("admin")
    path = _invite(client, max_uses=2)
    token = path.rsplit("/", 1)[1]
    assert _invitation(app).token_hash == hashlib.sha256(token.encode()).hexdigest()
    newcomer = app.test_client()
    assert b"Join the club" in newcomer.get(path).data
    response = _join(newcomer, path, "Zoe Rossi", "Zoe")
    assert response.status_code == 303
    assert newcomer.get("/account").status_code == 200
    with app.app_context():
        zoe = db.session.scalar(select(Member).where(Member.username == "zoe"))
        assert (zoe.name, zoe.role, zoe.active) == ("Zoe Rossi", "player", True)
    assert _signs_in(app, "zoe", NEW)
    assert _invitation(app).uses == 1
    assert b"1 / 2" in client.get("/admin/invitations").data


def test_a_used_up_invitation_is_refused_with_a_clear_page(app, client, login_as):
    login_as("admin")
    path = _invite(client, max_uses=1)
    assert _join(app.test_client(), path, "Ugo", "ugo").status_code == 303
    late = app.test_client()
    for response in (late.get(path), _join(late, path, "Vera", "vera")):
        assert response.status_code == 410
        assert b"This invitation has been used as many times as it allows" in response.data
    with app.app_context():
        assert db.session.scalar(select(Member).where(Member.username == "vera")) is None
    assert b"used up" in client.get("/admin/invitations").data


def test_an_expired_invitation_is_refused(app, client, login_as):
    login_as("admin")
    path = _invite(client)
    with app.app_context():
        invitation = db.session.scalar(select(Invitation))
        invitation.expires_at = utcnow() - dt.timedelta(minutes=1)
        db.session.commit()
    response = _join(app.test_client(), path, "Walt", "walt")
    assert response.status_code == 410 and b"This invitation has expired" in response.data
    with app.app_context():
        assert db.session.scalar(select(Member).where(Member.username == "walt")) is None


def test_a_withdrawn_invitation_is_refused(app, client, login_as):
    login_as("admin")
    path = _invite(client)
    invitation = _invitation(app)
    assert client.post(f"/admin/invitations/{invitation.id}/revoke").status_code == 303
    assert b"withdrawn" in client.get("/admin/invitations").data
    response = app.test_client().get(path)
    assert response.status_code == 410 and b"This invitation was withdrawn" in response.data
    assert _invitation(app).revoked_at is not None


def test_a_taken_name_or_username_is_refused_with_the_form_kept(app, client, login_as):
    login_as("admin")
    with app.app_context():
        gen_member("player", name="Anna Bianchi", username="anna")
    path = _invite(client, max_uses=1)
    newcomer = app.test_client()
    response = _join(newcomer, path, "anna bianchi", "annab")
    assert response.status_code == 422
    assert b"There is already a member called Anna Bianchi" in response.data
    assert b'value="annab"' in response.data
    response = _join(newcomer, path, "Anna Verdi", "ANNA")
    assert response.status_code == 422
    assert b"The username anna is taken." in response.data
    assert b'value="Anna Verdi"' in response.data
    assert _invitation(app).uses == 0  # a refusal spends no use
    assert _join(newcomer, path, "Anna Verdi", "annav").status_code == 303


def test_the_name_rules_hold_when_joining(app, client, login_as):
    login_as("admin")
    path = _invite(client)
    newcomer = app.test_client()
    response = _join(newcomer, path, "x" * 41, "longname")
    assert response.status_code == 422
    response = _join(newcomer, path, "Bad\u200bName", "badname")
    assert response.status_code in (400, 422)
    response = _join(newcomer, path, "Fine", "fine", "short")
    assert response.status_code == 422 and b"at least 8 characters" in response.data
    response = _join(newcomer, path, "Fine", "fine", NEW, NEW + "x")
    assert response.status_code == 422 and b"The two passwords differ." in response.data
    with app.app_context():
        assert db.session.scalar(select(func.count(Member.id))) == 1  # the admin only
    assert _invitation(app).uses == 0


def test_a_signed_in_member_is_told_to_sign_out_first(app, client, login_as):
    login_as("admin")
    path = _invite(client)
    page = client.get(path)
    assert b"sign out first" in page.data and b'name="password"' not in page.data
    assert _join(client, path, "Other", "other").status_code == 422
    assert _invitation(app).uses == 0


def test_bad_invitation_fields_are_refused(app, client, login_as):
    login_as("admin")
    for data in ({"hours": 0, "max_uses": 5}, {"hours": 12, "max_uses": 0}, {"hours": 12, "max_uses": 501},
                 {"hours": "x", "max_uses": 5}, {"hours": 24 * 91, "max_uses": 5}):
        assert client.post("/admin/invitations", data=data).status_code == 422, data
    with app.app_context():
        assert db.session.scalar(select(func.count(Invitation.id))) == 0


def test_only_an_admin_makes_or_withdraws_invitations(app, client, login_as):
    with app.app_context():
        admin = gen_member("admin")
    admin_client = app.test_client()
    admin_client.post("/auth/login", data={"username": admin.username, "password": PASSWORD})
    _invite(admin_client)
    invitation = _invitation(app)
    login_as("organizer")
    assert client.get("/admin/invitations").status_code == 403
    assert client.post("/admin/invitations", data={"hours": 12, "max_uses": 5}).status_code == 403
    assert client.post(f"/admin/invitations/{invitation.id}/revoke").status_code == 403
    signed_out = app.test_client()
    response = signed_out.post(f"/admin/invitations/{invitation.id}/revoke")
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    response = signed_out.post("/admin/invitations", data={"hours": 12, "max_uses": 5})
    assert response.status_code == 302
    with app.app_context():
        assert db.session.scalar(select(func.count(Invitation.id))) == 1
    assert _invitation(app).revoked_at is None


def test_joining_and_revoking_need_their_csrf_token(csrf_app):
    with csrf_app.app_context():
        admin = gen_member("admin")
    client = csrf_client(csrf_app, admin.username)
    assert client.post("/admin/invitations", data={"hours": 12, "max_uses": 5}).status_code == 400
    token = csrf_token_from(client.get("/admin/invitations").data)
    response = client.post("/admin/invitations", data={"hours": 12, "max_uses": 5, "csrf_token": token})
    path = _link_in(response.data)
    invitation = _invitation(csrf_app)
    assert client.post(f"/admin/invitations/{invitation.id}/revoke").status_code == 400
    newcomer = csrf_app.test_client()
    data = {"name": "Nina", "username": "nina", "password": NEW, "confirm": NEW}
    assert _join(newcomer, path, "Nina", "nina").status_code == 400
    assert _invitation(csrf_app).uses == 0
    data["csrf_token"] = csrf_token_from(newcomer.get(path).data)
    assert newcomer.post(path, data=data).status_code == 303
    assert _invitation(csrf_app).uses == 1


def test_the_invitation_pages_are_italian(app, client, login_as):
    login_as("admin", locale="it")
    page = client.get("/admin/invitations").data.decode()
    assert "Inviti" in page and "Ancora nessun invito." in page
    path = _invite(client)
    assert "Usi rimasti" in client.get("/admin/invitations").data.decode()
    response = app.test_client().get(path, headers={"Accept-Language": "it"})
    assert "Entra nel club" in response.data.decode()
    client.post(f"/admin/invitations/{_invitation(app).id}/revoke")
    refused = app.test_client().get(path, headers={"Accept-Language": "it"}).data.decode()
    assert "Questo link non funziona" in refused


def test_the_last_use_of_an_invitation_goes_to_one_of_two_joining_at_once(app, client, login_as):
    login_as("admin")
    token = _invite(client, max_uses=1).rsplit("/", 1)[1]
    results = at_once(app, 2, lambda number: account_links.join_with_invitation(
        token, name=f"Racer {number}", username=f"racer{number}", password=NEW),
        refused=(account_links.LinkRefused,))
    assert sorted(results) == ["ok", "refused"], results
    assert _invitation(app).uses == 1
    with app.app_context():
        assert db.session.scalar(select(func.count(Member.id)).where(Member.username.like("racer%"))) == 1


def test_a_password_link_used_twice_at_once_works_once(app, client, login_as):
    login_as("admin")
    with app.app_context():
        player = gen_member("player")
    token = _make_link(client, player.id).rsplit("/", 1)[1]
    results = at_once(app, 2, lambda number: account_links.use_password_link(token, f"{NEW}-{number}"),
                      refused=(account_links.LinkRefused,))
    assert sorted(results) == ["ok", "refused"], results
