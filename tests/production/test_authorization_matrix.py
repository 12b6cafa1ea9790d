"""The authorization matrix: every mutating endpoint of the URL map (new ones included as they
land) x every role: signed out, a player, a player seated at the table, the organizer of
another table, the table's own organizer, an admin. A refusal changes nothing in the database.

The policy, as the app states it (``deciders.may_run`` and the role checks):
- sign-in, first-run setup and sign-out are public;
- a player may change their own account, and answer their own cube at a table where they sit
  (online: say double or roll in the cube window, write to their consulting channel, which
  no organizer or admin writes to);
- a table is run by the organizer who opened its night or created it, and by the admins;
  another organizer may watch it, not run it;
- a night (its tables list, its payments) and the club's IOUs are any organizer's
  (a player may tick a night's transfer paid to them: tests/web/test_money_pages.py);
- a night is closed by the organizer who opened it (here the table's) or an admin
  (``services.may_close_night``), and reopened by an admin only;
- so is a season (creating one, its payments, closing it);
- members are managed by the admins only.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import (
    ChouetteTable,
    LedgerEntry,
    Member,
    Night,
    Payment,
    PaymentVoid,
    Season,
    TableEvent,
)
from chouette.services import commands, seasons, tables
from tests.conftest import AuthActions
from tests.factories import gen_member, gen_night, gen_table
from tests.web.test_authorization import PLAYER_ALLOWED, PUBLIC

ROLES = ("signed out", "player", "seated player", "other organizer", "table organizer", "admin")
SEATED = ("Ann", "Bob", "Cy", "Dee")


def _kind(endpoint: str, rule_arguments: set[str]) -> str:
    """Who may post to ``endpoint``: public, player, seat (a player at that table), table,
    night (its opener), admin or organizer."""
    if endpoint in PUBLIC:
        return "public"
    if endpoint in ("tables.sit", "tables.stand"):
        return "player"  # any member seats or unseats themselves (the rules refuse the rest)
    if endpoint in ("cube_window.answer_all", "cube_window.auto", "cube_window.hold", "cube_window.roll",
                    "cube_window.time_up"):
        return "seat"  # a seated player's own answer in an online table's cube window
    if endpoint == "social.post_message":
        return "talk"  # a seated player's message to their channel: not the organizer's
    if endpoint == "play.take_back":
        return "table"  # a player's own drop only, just made (tests/web/test_take_back_drop.py)
    if endpoint in PLAYER_ALLOWED:
        return "seat" if "table_id" in rule_arguments else "player"
    if endpoint.startswith("admin.") or endpoint in ("nights.reopen", "accounts.invitations",
                                                     "accounts.revoke_invitation"):
        return "admin"
    if endpoint == "nights.close":
        return "night"
    if "table_id" in rule_arguments:
        return "table"
    return "organizer"


def _may(role: str, kind: str) -> bool:
    """The policy: may ``role`` post to an endpoint of ``kind`` (the role check alone)."""
    if kind == "talk":  # the team's or the box's channel: its seated players only, no one else
        return role == "seated player"
    if kind == "public" or role == "admin":
        return True
    if kind == "player":
        return role != "signed out"
    if kind == "seat":  # their own cube, at a table where they sit; or the table's organizer
        return role in ("seated player", "table organizer")
    if kind == "admin":
        return False
    if kind in ("table", "night"):
        return role == "table organizer"
    return role in ("other organizer", "table organizer")


def _counts() -> dict[str, int]:
    """Rows per table: a refused request must leave them all as they were."""
    return {model.__tablename__: db.session.scalar(select(func.count()).select_from(model)) or 0
            for model in (Member, Night, ChouetteTable, TableEvent, LedgerEntry, Payment, PaymentVoid, Season)}


def _club(app: Flask) -> dict[str, Any]:
    """A night and table run by one organizer, another organizer with their own, players Cy and
    Dee seated with the box's double to their cubes waiting for their answers."""
    with app.app_context():
        owner = gen_member("organizer", name="Owner")
        other = gen_member("organizer", name="Other")
        admin = gen_member("admin", name="Admin")
        seated = gen_member("player", name="Cy")
        gen_member("player", name="Dee")
        player = gen_member("player", name="Eve")
        night = gen_night(opened_by_id=owner.id)
        table = gen_table(night, created_by_id=owner.id)
        other_night = gen_night(opened_by_id=other.id)
        gen_table(other_night, created_by_id=other.id)
        for name in SEATED:
            commands.play(table.id, tables.last_seq(table.id), {"type": "join", "player": name}, owner)
        commands.play(table.id, tables.last_seq(table.id), {"type": "order", "players": list(SEATED)}, owner)
        played = commands.play(table.id, tables.last_seq(table.id),
                               {"type": "double", "by": "box", "cubes": ["Cy", "Dee"]}, owner)
        users = {"player": player.username, "seated player": seated.username, "other organizer": other.username,
                 "table organizer": owner.username, "admin": admin.username}
        ids = {"night_id": night.id, "table_id": table.id, "member_id": player.id}
        # A season over the nights: its payments and closing are any organizer's.
        season = seasons.create_season(name="Season", first=night.date, last=night.date,
                                         currency=night.currency, actor=owner)
        ids["season_id"] = season.id
        db.session.remove()
    return {"users": users, "ids": ids, "seq": played.seq}


def _mutations(app: Flask, ids: dict[str, int]) -> list[tuple[str, str, str]]:
    """(endpoint, url, kind) of every rule accepting a mutating method, its arguments real."""
    found = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if {"POST", "PUT", "PATCH", "DELETE"} & set(rule.methods or ()):
                values = {name: ids.get(name, 1) for name in rule.arguments}
                found.append((rule.endpoint, url_for(rule.endpoint, **values), _kind(rule.endpoint, set(rule.arguments))))
    return sorted(found)


def _form(seq: int) -> dict[str, Any]:
    """A form that gets past parsing on most endpoints: the check under test is the role."""
    return {"seq": str(seq), "answer": "take", "cube": "Cy", "name": "Zed", "player": "Zed",
            "winner": "box", "kind": "single", "by": "box", "cubes": ["Cy"], "how": "roll"}


def _refused(response, role: str, htmx: bool) -> bool:
    """Whether the response is a refusal of the role (sign in first, or 403)."""
    if role == "signed out":
        if htmx:
            return response.status_code == 401 and "/auth/login" in response.headers.get("HX-Redirect", "")
        return response.status_code == 302 and "/auth/login" in response.headers.get("Location", "")
    return response.status_code == 403


@pytest.mark.parametrize("role", ROLES)
def test_every_mutation_answers_each_role_as_the_policy_says_and_a_refusal_changes_nothing(tmp_path, role):
    from tests.conftest import dispose, make_app

    app = make_app(tmp_path)
    try:
        club = _club(app)
        client: FlaskClient = app.test_client()
        if role != "signed out":
            assert AuthActions(client).login(club["users"][role]).status_code == 303
        mutations = _mutations(app, club["ids"])
        assert {"play.answer", "play.result", "play.undo", "nights.close", "nights.reopen", "admin.members", "seasons.new",
                "seasons.record_payment", "seasons.undo_payment", "seasons.close"} <= {m[0] for m in mutations}
        wrong = []
        for endpoint, url, kind in mutations:
            if endpoint in ("auth.logout", "auth.login", "main.setup"):
                continue  # public, and signing out would end this test's session
            for htmx in (False, True):
                with app.app_context():
                    before = _counts()
                    seq = tables.last_seq(club["ids"]["table_id"])
                    db.session.remove()
                headers = {"HX-Request": "true"} if htmx else {}
                response = client.post(url, data=_form(seq), headers=headers)
                refused = _refused(response, role, htmx)
                may = _may(role, kind)
                if refused == may:
                    wrong.append((endpoint, "htmx" if htmx else "page", response.status_code))
                if refused:
                    with app.app_context():
                        assert _counts() == before, f"{endpoint} refused to {role} but changed the database"
                        db.session.remove()
                assert response.status_code < 500
        assert not wrong, f"{role}: answers against the policy (endpoint, kind of request, status): {wrong}"
    finally:
        dispose(app)


def _answer(app: Flask, club: dict[str, Any], username: str, cube: str):
    client = app.test_client()
    assert AuthActions(client).login(username).status_code == 303
    return client.post(f"/tables/{club['ids']['table_id']}/answer",
                       data={"seq": str(club["seq"]), "answer": "take", "cube": cube},
                       headers={"HX-Request": "true"})


def test_a_player_may_not_answer_someone_elses_cube(app):
    club = _club(app)
    response = _answer(app, club, club["users"]["seated player"], "Dee")
    assert response.status_code == 403
    with app.app_context():
        assert tables.last_seq(club["ids"]["table_id"]) == club["seq"]


def test_a_player_not_at_the_table_may_not_answer_any_cube(app):
    club = _club(app)
    assert _answer(app, club, club["users"]["player"], "Cy").status_code == 403
    with app.app_context():
        assert tables.last_seq(club["ids"]["table_id"]) == club["seq"]


def test_a_seated_player_answers_their_own_cube(app):
    club = _club(app)
    response = _answer(app, club, club["users"]["seated player"], "Cy")
    assert response.status_code == 200, response.data[:500]
    with app.app_context():
        assert tables.last_seq(club["ids"]["table_id"]) == club["seq"] + 1
        assert tables.table_log(club["ids"]["table_id"])[-1] == {"type": "take", "cube": "Cy"}


def test_another_tables_organizer_may_watch_but_not_run_the_table(app):
    club = _club(app)
    client = app.test_client()
    assert AuthActions(client).login(club["users"]["other organizer"]).status_code == 303
    table_id = club["ids"]["table_id"]
    assert client.get(f"/tables/{table_id}").status_code == 200
    response = client.post(f"/tables/{table_id}/result", data={"seq": club["seq"], "winner": "team", "kind": "single"})
    assert response.status_code == 403
    with app.app_context():
        assert tables.last_seq(table_id) == club["seq"]
