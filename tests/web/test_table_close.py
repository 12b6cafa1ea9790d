"""A finished table is closed by its organizer and reopened; the night page lists the open
tables with their box, captain and games played; a signed-in member sits down and leaves by
themselves (issue 25)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import ChouetteTable, LedgerEntry, Member, TableEvent
from chouette.services import base, commands, deciders, display, table_close, table_states, tables
from tests.factories import PASSWORD, gen_member, gen_night, gen_table

RESULT = {"type": "result", "winner": "team", "kind": "single"}


def _play(table_id: int, actor: Member, *events: dict) -> table_states.TablePlay:
    played = None
    for event in events:
        played = commands.play(table_id, tables.last_seq(table_id), event, actor)
    assert played is not None
    return played


@pytest.fixture
def club(app):
    """Organizer Olga's night "Friday": table "Upstairs" finished one game (A, B, C), table
    "Downstairs" has a game in progress (the box's double to C waits), table "Empty" has
    nobody; the member Marco, not seated."""
    with app.app_context():
        owner = gen_member("organizer", name="Olga", username="olga")
        marco = gen_member("player", name="Marco", username="marco")
        night = gen_night(opened_by_id=owner.id, name="Friday")
        ids = {"night": night.id, "owner": owner.id, "marco": marco.id}
        for name in ("Upstairs", "Downstairs", "Empty"):
            ids[name] = gen_table(night, name=name, created_by_id=owner.id).id
        for name in ("Upstairs", "Downstairs"):
            _play(ids[name], owner, *({"type": "join", "player": p} for p in "ABC"),
                  {"type": "order", "players": list("ABC")})
        _play(ids["Upstairs"], owner, RESULT)
        _play(ids["Downstairs"], owner, {"type": "double", "by": "box", "cubes": ["C"]})
        db.session.commit()
        return ids


def _sign_in(client, username: str) -> None:
    assert client.post("/auth/login", data={"username": username, "password": PASSWORD}).status_code == 303


def _table(app, table_id: int) -> ChouetteTable:
    with app.app_context():
        table = db.session.get(ChouetteTable, table_id)
        db.session.expunge(table)
        return table


def _events(app, table_id: int) -> list[TableEvent]:
    with app.app_context():
        rows = list(db.session.scalars(select(TableEvent).where(TableEvent.table_id == table_id)
                                       .order_by(TableEvent.seq)))
        for row in rows:
            db.session.expunge(row)
        return rows


# --------------------------------------------------------------------------- closing


def test_closing_is_refused_while_a_game_is_in_progress_with_the_reason(app, client, club):
    with app.test_request_context():
        with pytest.raises(table_close.GameUnfinished, match="Game 1 is still in progress") as refused:
            table_close.close_table(club["Downstairs"], actor=db.session.get(Member, club["owner"]))
        assert "the box's double waits for C" in str(refused.value)
    _sign_in(client, "olga")
    answer = client.post(f"/tables/{club['Downstairs']}/close", follow_redirects=True)
    assert "Game 1 is still in progress at this table" in answer.get_data(as_text=True)
    assert _table(app, club["Downstairs"]).closed_at is None


def test_a_closed_table_leaves_the_open_list_and_the_screen_and_keeps_its_history(app, client, club):
    with app.app_context():
        ledger = db.session.scalar(select(func.count(LedgerEntry.id)).where(
            LedgerEntry.table_id == club["Upstairs"]))
        assert ledger  # the finished game was booked
        before = display.display_version(club["night"])
    _sign_in(client, "olga")
    answer = client.post(f"/tables/{club['Upstairs']}/close")
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/nights/{club['night']}")
    closed = _table(app, club["Upstairs"])
    assert closed.closed_at is not None and closed.closed_by_id == club["owner"]
    with app.app_context():
        assert display.display_version(club["night"]) != before  # the screens and night pages move
        assert db.session.scalar(select(func.count(LedgerEntry.id)).where(
            LedgerEntry.table_id == club["Upstairs"])) == ledger
    night_page = client.get(f"/nights/{club['night']}").get_data(as_text=True)
    open_list, _, closed_list = night_page.partition("Closed tables")
    assert "Upstairs" not in open_list.split('id="table-list"')[1]
    assert "Downstairs" in open_list and "Upstairs" in closed_list
    for screen in ("/display", f"/display/{club['night']}"):
        shown = client.get(screen).get_data(as_text=True)
        assert "Downstairs" in shown and "Upstairs" not in shown, screen
    history = client.get(f"/tables/{club['Upstairs']}")
    assert history.status_code == 200
    page = history.get_data(as_text=True)
    assert "Table closed" in page and "Games played: 1" in page
    assert "Reopen the table" in page and "Join the table" not in page


def test_commands_on_a_closed_table_are_refused_and_write_nothing(app, client, club):
    with app.test_request_context():
        owner = db.session.get(Member, club["owner"])
        table_close.close_table(club["Upstairs"], actor=owner)
        with pytest.raises(base.TableClosed, match="This table is closed"):
            commands.play(club["Upstairs"], tables.last_seq(club["Upstairs"]),
                          {"type": "join", "player": "D"}, owner)
        seq = tables.last_seq(club["Upstairs"])
    _sign_in(client, "olga")
    answer = client.post(f"/tables/{club['Upstairs']}/join", data={"seq": seq, "player": "D"})
    assert answer.status_code == 422
    assert "This table is closed: it no longer changes." in answer.get_data(as_text=True)
    assert len(_events(app, club["Upstairs"])) == seq
    with app.test_request_context(), pytest.raises(base.TableClosed, match="already closed"):
        table_close.close_table(club["Upstairs"], actor=db.session.get(Member, club["owner"]))


def test_a_reopened_table_is_listed_shown_and_takes_commands_again(app, client, club):
    _sign_in(client, "olga")
    client.post(f"/tables/{club['Upstairs']}/close")
    answer = client.post(f"/tables/{club['Upstairs']}/reopen", follow_redirects=True)
    assert "Table Upstairs is open again." in answer.get_data(as_text=True)
    assert _table(app, club["Upstairs"]).closed_at is None
    assert "Upstairs" in client.get(f"/display/{club['night']}").get_data(as_text=True)
    assert "Closed tables" not in client.get(f"/nights/{club['night']}").get_data(as_text=True)
    with app.test_request_context():
        played = _play(club["Upstairs"], db.session.get(Member, club["owner"]), {"type": "join", "player": "D"})
        assert "D" in played.state.players


def test_only_the_organizer_who_runs_the_table_or_an_admin_closes_it(app, client, club):
    with app.app_context():
        gen_member("organizer", username="other")
        gen_member("admin", username="boss")
    _sign_in(client, "marco")
    assert client.post(f"/tables/{club['Upstairs']}/close").status_code == 403
    client.post("/auth/logout")
    _sign_in(client, "other")
    assert client.post(f"/tables/{club['Upstairs']}/close").status_code == 403
    assert _table(app, club["Upstairs"]).closed_at is None
    client.post("/auth/logout")
    _sign_in(client, "boss")
    assert client.post(f"/tables/{club['Upstairs']}/close").status_code == 303
    assert _table(app, club["Upstairs"]).closed_at is not None


# --------------------------------------------------------------------------- the night page


def test_the_night_page_shows_each_open_tables_box_captain_and_games(app, client, htmx, club):
    _sign_in(client, "marco")
    fragment = client.get(f"/nights/{club['night']}", headers=htmx).get_data(as_text=True)
    with app.app_context():
        version = display.display_version(club["night"])
    assert f'data-version="{version}"' in fragment  # what the night's stream sends
    upstairs = fragment.split(f'data-table="{club["Upstairs"]}"')[1].split("</article>")[0]
    assert 'night-table-box">B<' in upstairs and 'night-table-captain">C<' in upstairs
    assert 'night-table-games">1' in upstairs
    downstairs = fragment.split(f'data-table="{club["Downstairs"]}"')[1].split("</article>")[0]
    assert 'night-table-box">A<' in downstairs and "in play" in downstairs
    stream = client.get(f"/nights/{club['night']}/stream").get_data(as_text=True)
    assert f"event: changed\ndata: {version}" in stream


# --------------------------------------------------------------------------- self-seating


def _sit(client, table_id: int, app) -> object:
    with app.app_context():
        seq = tables.last_seq(table_id)
    return client.post(f"/tables/{table_id}/sit", data={"seq": seq}, follow_redirects=True)


def test_a_signed_in_member_sits_down_as_themselves_by_id(app, client, club):
    _sign_in(client, "marco")
    page = client.get(f"/tables/{club['Empty']}").get_data(as_text=True)
    assert "Sit down" in page and "Join the table" not in page
    answer = _sit(client, club["Empty"], app)
    assert "You sit at the table." in answer.get_data(as_text=True)
    [join] = _events(app, club["Empty"])
    assert join.type == "join" and join.actor_id == club["marco"]
    assert join.payload == {"player": "Marco", "member_id": club["marco"]}
    assert "Leave the table" in client.get(f"/tables/{club['Empty']}").get_data(as_text=True)


def test_sitting_down_is_refused_when_seated_at_another_open_table(app, client, club):
    _sign_in(client, "marco")
    _sit(client, club["Empty"], app)
    answer = _sit(client, club["Upstairs"], app)
    assert "Marco already sits at the table Empty of Friday" in answer.get_data(as_text=True)
    assert [e.type for e in _events(app, club["Upstairs"])].count("join") == 3


def test_a_closed_table_no_longer_holds_its_seated_member(app, client, club):
    _sign_in(client, "marco")
    _sit(client, club["Empty"], app)
    with app.test_request_context():
        table_close.close_table(club["Empty"], actor=db.session.get(Member, club["owner"]))
    _sit(client, club["Upstairs"], app)
    assert _events(app, club["Upstairs"])[-1].payload == {"player": "Marco", "member_id": club["marco"]}
    # Reopening would seat Marco at two open tables.
    with app.test_request_context(), pytest.raises(base.ServiceError, match="Marco now sits at the table Upstairs"):
        table_close.reopen_table(club["Empty"], actor=db.session.get(Member, club["owner"]))


def test_signed_out_nobody_sits_down(app, client, club):
    answer = client.post(f"/tables/{club['Empty']}/sit", data={"seq": 0})
    assert answer.status_code in (302, 303, 401) and "/auth/login" in answer.headers.get("Location", "")
    assert _events(app, club["Empty"]) == []


def test_a_player_cannot_seat_or_unseat_someone_else(app, club):
    with app.test_request_context():
        marco = db.session.get(Member, club["marco"])
        with pytest.raises(deciders.NotAllowed):
            commands.play(club["Empty"], 0, {"type": "join", "player": "Somebody"}, marco)
        with pytest.raises(deciders.NotAllowed):
            commands.play(club["Upstairs"], tables.last_seq(club["Upstairs"]),
                          {"type": "leave", "player": "A"}, marco)


def test_leaving_is_refused_while_the_member_has_a_live_cube(app, client, club):
    _sign_in(client, "marco")
    _sit(client, club["Empty"], app)
    with app.test_request_context():
        owner = db.session.get(Member, club["owner"])
        _play(club["Empty"], owner, {"type": "join", "player": "A"}, {"type": "join", "player": "B"},
              {"type": "order", "players": ["A", "B", "Marco"]},
              {"type": "double", "by": "box", "cubes": ["Marco"]})
    with app.app_context():
        seq = tables.last_seq(club["Empty"])
    answer = client.post(f"/tables/{club['Empty']}/stand", data={"seq": seq}, follow_redirects=True)
    assert "Marco has a live cube in this game; leave after it" in answer.get_data(as_text=True)
    assert len(_events(app, club["Empty"])) == seq and "Leave the table" in answer.get_data(as_text=True)
    with app.test_request_context():  # Marco drops: the cube is dead, the dropper may go at once
        _play(club["Empty"], db.session.get(Member, club["owner"]), {"type": "drop", "cube": "Marco"})
        seq = tables.last_seq(club["Empty"])
    answer = client.post(f"/tables/{club['Empty']}/stand", data={"seq": seq}, follow_redirects=True)
    assert "You left the table." in answer.get_data(as_text=True)
    last = _events(app, club["Empty"])[-1]
    assert (last.type, last.payload, last.actor_id) == ("leave", {"player": "Marco"}, club["marco"])


def test_the_home_page_offers_each_open_table_to_sit_at_until_seated(app, client, club):
    with app.test_request_context():
        table_close.close_table(club["Upstairs"], actor=db.session.get(Member, club["owner"]))
    _sign_in(client, "marco")
    home = client.get("/").get_data(as_text=True)
    assert f'action="/tables/{club["Empty"]}/sit"' in home
    assert f'action="/tables/{club["Downstairs"]}/sit"' in home
    assert f'/tables/{club["Upstairs"]}' not in home  # closed: not offered, not listed
    _sit(client, club["Empty"], app)
    home = client.get("/").get_data(as_text=True)
    assert "/sit\"" not in home and "Where you sit" in home


def test_an_existing_database_upgrades_its_tables_open(tmp_path):
    """The migration adds the two columns to the tables a club already has: all open."""
    import sqlite3

    from flask_migrate import upgrade

    from app import create_app
    from chouette.extensions import MIGRATIONS_DIR

    path = tmp_path / "before.sqlite"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        upgrade(directory=MIGRATIONS_DIR, revision="d5e6f7a8b9c1")  # before tables could close
        with db.engine.begin() as connection:
            connection.exec_driver_sql("INSERT INTO night (id, name, date, currency, opened_at) "
                                       "VALUES (1, 'Old', '2026-11-20', 'EUR', '2026-11-20 20:00:00')")
            connection.exec_driver_sql("INSERT INTO chouette_table (id, night_id, name, settings, created_at) "
                                       "VALUES (1, 1, 'Old table', '{}', '2026-11-20 20:00:00')")
        upgrade(directory=MIGRATIONS_DIR)
        db.engine.dispose()
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT name, closed_at, closed_by_id FROM chouette_table").fetchall() \
            == [("Old table", None, None)]
