"""A player takes back their own drop from their phone, within a few seconds, while nothing
came after it (issue 25); the server checks all of it."""

from __future__ import annotations

from datetime import timedelta

from chouette.extensions import db
from chouette.models import Member
from chouette.services import commands, tables
from tests.factories import gen_member
from tests.web.test_play_pages import HTMX, Table, post, sign_in


def _table_with_players(app):
    """Ann (box), Bob (captain) and Cy as members signed in on their own phones later."""
    table = Table(app)
    with app.app_context():
        for name in ("Ann", "Bob", "Cy"):
            gen_member("player", name=name, username=name.lower())
    table.play(*[{"type": "join", "player": n} for n in ("Ann", "Bob", "Cy")],
               {"type": "order", "players": ["Ann", "Bob", "Cy"]},
               {"type": "double", "by": "box"})
    return table


def _cy(app) -> Member:
    with app.app_context():
        return db.session.scalar(db.select(Member).where(Member.username == "cy"))


def test_a_player_takes_back_their_own_drop(app, client):
    table = _table_with_players(app)
    sign_in(client, _cy(app))
    response = post(client, table, "answer", {"cube": "Cy", "answer": "drop"}, htmx=True)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Take back my drop" in html and "data-until=" in html
    assert table.state().game.cubes["Cy"].status == "dropped"
    response = post(client, table, "take-back", htmx=True)
    assert response.status_code == 200
    assert table.log()[-1] == {"type": "undo"}
    assert table.state().game.cubes["Cy"].is_live and "Take back my drop" not in \
        response.get_data(as_text=True)


def test_no_take_back_once_another_event_came(app, client):
    table = _table_with_players(app)
    sign_in(client, _cy(app))
    post(client, table, "answer", {"cube": "Cy", "answer": "drop"}, htmx=True)
    table.play({"type": "take", "cube": "Bob"})
    before = table.log()
    response = post(client, table, "take-back", htmx=True)
    assert response.status_code == 403
    assert table.log() == before
    assert "Take back my drop" not in client.get(f"{table.url}/live", headers=HTMX).get_data(as_text=True)


def test_no_take_back_after_the_time_or_of_a_drop_the_organizer_entered(app, client):
    table = _table_with_players(app)
    sign_in(client, _cy(app))
    post(client, table, "answer", {"cube": "Cy", "answer": "drop"}, htmx=True)
    app.config["DROP_TAKE_BACK"] = timedelta(0)  # the time is up (the log's rows never change)
    before = table.log()
    assert post(client, table, "take-back", htmx=True).status_code == 403
    assert table.log() == before
    # Bob's drop entered by the organizer: not Bob's to take back from Bob's phone.
    table.play({"type": "drop", "cube": "Bob"})
    with app.app_context():
        bob = db.session.scalar(db.select(Member).where(Member.username == "bob"))
    client.post("/auth/logout")
    sign_in(client, bob)
    assert post(client, table, "take-back", htmx=True).status_code == 403


def test_another_player_cannot_take_back_a_drop(app, client):
    table = _table_with_players(app)
    with app.app_context():
        cy = db.session.scalar(db.select(Member).where(Member.username == "cy"))
        commands.play(table.id, tables.last_seq(table.id), {"type": "drop", "cube": "Cy"}, cy)
        db.session.commit()
        bob = db.session.scalar(db.select(Member).where(Member.username == "bob"))
    sign_in(client, bob)
    before = table.log()
    assert post(client, table, "take-back", htmx=True).status_code == 403
    assert table.log() == before
