"""Closing a night asks first when a game is in progress, naming the tables and what is
pending; only the organizer who opened it or an admin closes it; an admin reopens it, saying
why, and the night's page shows who did what (issue 12, finding 8)."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import Member, Night, NightReopening, TableFactsRow
from chouette.services import base, commands, night_rows, nights, seasons, table_states, tables
from tests.conftest import csrf_client, csrf_token_from
from tests.factories import PASSWORD, gen_member, gen_night, gen_table

RESULT = {"type": "result", "winner": "team", "kind": "single"}


@pytest.fixture
def club(app):
    """An organizer's night: table "Upstairs" with the box's double to C waiting for C's
    answer, table "Downstairs" with four seated and no game yet."""
    with app.app_context():
        owner = gen_member("organizer", name="Owner")
        night = gen_night(opened_by_id=owner.id, name="Friday")
        upstairs = gen_table(night, name="Upstairs", created_by_id=owner.id)
        downstairs = gen_table(night, name="Downstairs", created_by_id=owner.id)
        for table in (upstairs, downstairs):
            for name in "ABCD":
                commands.play(table.id, tables.last_seq(table.id), {"type": "join", "player": name}, owner)
            commands.play(table.id, tables.last_seq(table.id), {"type": "order", "players": list("ABCD")}, owner)
        commands.play(upstairs.id, 5, {"type": "double", "by": "box", "cubes": ["C"]}, owner)
        db.session.commit()
        return {"night": night.id, "owner": owner.id, "owner_username": owner.username,
                "upstairs": upstairs.id, "downstairs": downstairs.id}


def _night(app, night_id: int) -> Night:
    with app.app_context():
        night = db.session.get(Night, night_id)
        db.session.expunge(night)
        return night


def _member(member_id: int) -> Member:
    return db.session.get(Member, member_id)


def _sign_in(client, username: str) -> None:
    assert client.post("/auth/login", data={"username": username, "password": PASSWORD}).status_code == 303


# --------------------------------------------------------------------------- the service


def test_closing_with_a_game_in_progress_is_refused_naming_the_table_and_what_is_pending(app, club):
    with app.test_request_context():
        with pytest.raises(nights.GamesInProgress, match="A game is still in progress") as refused:
            nights.close_night(club["night"], actor=_member(club["owner"]))
        [game] = refused.value.games
        assert (game.table, game.game) == ("Upstairs", 1)
        assert "the box's double waits for C" in game.pending
        message = str(refused.value)
        assert "Upstairs, game 1: the box's double waits for C" in message
        assert "Downstairs" not in message  # no game there yet
        assert "Confirm to close all the same" in message
    assert _night(app, club["night"]).is_open


def test_a_confirmed_close_closes_and_leaves_the_game_unfinished(app, club):
    with app.test_request_context():
        night = nights.close_night(club["night"], actor=_member(club["owner"]), confirm_games=True)
        assert not night.is_open and night.closed_by_id == club["owner"]
        assert table_states.load_play(club["upstairs"]).state.game is not None
        with pytest.raises(base.NightClosed, match="This night is closed"):
            commands.play(club["upstairs"], 6, {"type": "drop", "cube": "C"}, _member(club["owner"]))


def test_what_a_game_waits_for_is_said_for_each_kind_of_pending_answer(app, club):
    with app.test_request_context():
        owner = _member(club["owner"])
        commands.play(club["downstairs"], 5, {"type": "double", "by": "C"}, owner)
        commands.play(club["upstairs"], 6, {"type": "take", "cube": "C"}, owner)
        games = {game.table: game.pending for game in nights.games_in_progress(club["night"])}
    assert games == {"Upstairs": "in play, no cube answer pending",
                     "Downstairs": "the box has to answer the double of C"}


def test_a_night_without_a_game_in_progress_closes_without_confirmation(app, club):
    with app.test_request_context():
        owner = _member(club["owner"])
        commands.play(club["upstairs"], 6, {"type": "drop", "cube": "C"}, owner)
        commands.play(club["upstairs"], 7, RESULT, owner)
        assert nights.games_in_progress(club["night"]) == []
        nights.close_night(club["night"], actor=owner)
    assert not _night(app, club["night"]).is_open


@pytest.mark.parametrize("role", ["organizer", "player"])
def test_only_the_organizer_who_opened_the_night_or_an_admin_closes_it(app, club, role):
    with app.test_request_context():
        with pytest.raises(nights.NotYourNight, match="closed by the organizer who opened it, or by an admin"):
            nights.close_night(club["night"], actor=gen_member(role), confirm_games=True)
        assert _night(app, club["night"]).is_open
        nights.close_night(club["night"], actor=gen_member("admin"), confirm_games=True)
    assert not _night(app, club["night"]).is_open


def test_a_night_opened_outside_the_pages_is_closed_by_any_organizer(app):
    with app.test_request_context():
        night_id = gen_night().id  # no opener recorded (an import, a script)
        nights.close_night(night_id, actor=gen_member("organizer"))
    assert not _night(app, night_id).is_open


def test_a_night_closed_by_nobody_known_says_when_it_closed(app, client, login_as):
    login_as("player")
    with app.app_context():
        night_id = gen_night(closed_at=dt.datetime(2026, 11, 22, 1, 30)).id  # imported closed
    page = client.get(f"/nights/{night_id}")
    assert b"Closed on 11/22/26" in page.data and b"Closed by" not in page.data


def test_an_admin_reopens_a_night_saying_why_and_it_is_logged(app, club):
    with app.test_request_context():
        owner, admin = _member(club["owner"]), gen_member("admin", name="Ada")
        closed = nights.close_night(club["night"], actor=owner, confirm_games=True)
        closed_at = closed.closed_at
        entry = nights.reopen_night(club["night"], actor=admin, reason="  Closed by mistake,\n C still to answer ")
        assert (entry.reopened_by_id, entry.reason) == (admin.id, "Closed by mistake, C still to answer")
        assert (entry.closed_at, entry.closed_by_id) == (closed_at, owner.id)
        assert night_rows.get_night(club["night"]).is_open
        # The game goes on where it stopped: C drops, the drop is booked.
        commands.play(club["upstairs"], 6, {"type": "drop", "cube": "C"}, owner)
        assert [e.reason for e in nights.night_reopenings(club["night"])] == ["Closed by mistake, C still to answer"]


def test_reopening_drops_the_facts_stored_at_closing_and_the_next_close_stores_them_again(app, club):
    with app.test_request_context():
        owner, admin = _member(club["owner"]), gen_member("admin")
        nights.close_night(club["night"], actor=owner, confirm_games=True)
        stored = dict(db.session.execute(select(TableFactsRow.table_id, TableFactsRow.seq)).all())
        assert stored == {club["upstairs"]: 6, club["downstairs"]: 5}
        nights.reopen_night(club["night"], actor=admin, reason="C wants to drop")
        assert db.session.scalar(select(func.count()).select_from(TableFactsRow)) == 0
        commands.play(club["upstairs"], 6, {"type": "drop", "cube": "C"}, owner)
        commands.play(club["upstairs"], 7, RESULT, owner)
        nights.close_night(club["night"], actor=owner)
        stored = dict(db.session.execute(select(TableFactsRow.table_id, TableFactsRow.seq)).all())
        assert stored == {club["upstairs"]: 8, club["downstairs"]: 5}


@pytest.mark.parametrize(("role", "reason", "refusal", "said"), [
    ("organizer", "a reason", nights.NotYourNight, "Only an admin reopens a night"),
    ("player", "a reason", nights.NotYourNight, "Only an admin reopens a night"),
    ("admin", "   ", base.ServiceError, "Say why the night is reopened"),
    ("admin", "x" * 201, base.ServiceError, "Say why the night is reopened"),
])
def test_reopening_is_an_admins_with_a_reason_and_a_refusal_changes_nothing(app, club, role, reason, refusal,
                                                                          said):
    with app.test_request_context():
        nights.close_night(club["night"], actor=_member(club["owner"]), confirm_games=True)
        with pytest.raises(refusal, match=said):
            nights.reopen_night(club["night"], actor=gen_member(role), reason=reason)
        assert db.session.scalar(select(func.count()).select_from(NightReopening)) == 0
        assert db.session.scalar(select(func.count()).select_from(TableFactsRow)) == 2
    assert not _night(app, club["night"]).is_open


def test_an_open_night_is_not_reopened(app, club):
    with app.test_request_context(), pytest.raises(base.ServiceError, match="This night is open"):
        nights.reopen_night(club["night"], actor=gen_member("admin"), reason="why not")


def test_a_night_of_a_closed_season_stays_closed(app):
    with app.test_request_context():
        owner, admin = gen_member("organizer"), gen_member("admin")
        night = gen_night(opened_by_id=owner.id, date=dt.date(2026, 3, 6))
        nights.close_night(night.id, actor=owner)
        season = seasons.create_season(name="Spring", first=dt.date(2026, 3, 1), last=dt.date(2026, 5, 31),
                                        currency="EUR", actor=owner)
        seasons.close_season(season.id, actor=owner)
        night_id = night.id
        with pytest.raises(base.ServiceError, match="The season Spring is closed"):
            nights.reopen_night(night_id, actor=admin, reason="a late result")
    assert not _night(app, night_id).is_open


# --------------------------------------------------------------------------- the pages


def test_the_close_page_names_the_games_in_progress_and_asks_for_the_tick(app, club, client):
    _sign_in(client, club["owner_username"])
    page = client.get(f"/nights/{club['night']}/close")
    assert page.status_code == 200
    assert b"A game is still in progress" in page.data
    assert b"Upstairs</a>, game 1: the box&#39;s double waits for C" in page.data
    assert b'name="confirm"' in page.data


def test_closing_in_the_page_without_the_tick_changes_nothing_and_says_why(app, club, client):
    _sign_in(client, club["owner_username"])
    response = client.post(f"/nights/{club['night']}/close", data={})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/nights/{club['night']}/close"
    assert _night(app, club["night"]).is_open
    page = client.get(response.headers["Location"])
    assert b"Confirm to close all the same" in page.data


def test_closing_with_htmx_without_the_tick_is_sent_to_the_close_page(app, club, client, htmx):
    _sign_in(client, club["owner_username"])
    response = client.post(f"/nights/{club['night']}/close", data={}, headers=htmx)
    assert response.headers["HX-Redirect"] == f"/nights/{club['night']}/close"
    assert _night(app, club["night"]).is_open


def test_closing_in_the_page_with_the_tick_closes_and_the_page_says_who(app, club, client):
    _sign_in(client, club["owner_username"])
    response = client.post(f"/nights/{club['night']}/close", data={"confirm": "y"})
    assert response.status_code == 303 and response.headers["Location"] == f"/nights/{club['night']}"
    assert not _night(app, club["night"]).is_open
    page = client.get(response.headers["Location"])
    assert b"The night is closed." in page.data and b"Closed by Owner on" in page.data
    assert b"Reopen the night" not in page.data  # an organizer does not reopen
    assert client.get(f"/nights/{club['night']}/close").status_code == 303


def test_the_close_page_without_a_game_in_progress_has_no_tick(app, client, login_as):
    owner = login_as("organizer")
    with app.app_context():
        night = gen_night(opened_by_id=owner.id)
    page = client.get(f"/nights/{night.id}/close")
    assert b"No game is in progress." in page.data and b'name="confirm"' not in page.data
    assert client.post(f"/nights/{night.id}/close", data={}).status_code == 303
    assert not _night(app, night.id).is_open


def test_another_organizer_neither_sees_nor_may_use_the_close(app, club, client, login_as):
    login_as("organizer")
    page = client.get(f"/nights/{club['night']}")
    assert b"Close the night" not in page.data
    assert client.get(f"/nights/{club['night']}/close").status_code == 403
    assert client.post(f"/nights/{club['night']}/close", data={"confirm": "y"}).status_code == 403
    assert _night(app, club["night"]).is_open


def test_with_a_game_in_progress_the_night_page_links_to_the_close_page(app, club, client):
    _sign_in(client, club["owner_username"])
    page = client.get(f"/nights/{club['night']}")
    assert f'href="/nights/{club["night"]}/close"'.encode() in page.data
    assert f'hx-post="/nights/{club["night"]}/close"'.encode() not in page.data


def test_without_a_game_in_progress_the_night_page_closes_with_a_confirm_button(app, client, login_as):
    owner = login_as("organizer")
    with app.app_context():
        night = gen_night(opened_by_id=owner.id)
    page = client.get(f"/nights/{night.id}")
    assert f'hx-post="/nights/{night.id}/close" hx-confirm="Close the night?'.encode() in page.data


def test_an_admin_reopens_in_the_page_and_the_page_shows_it(app, club, client):
    with app.app_context():
        username = gen_member("admin", name="Ada").username
        nights.close_night(club["night"], actor=_member(club["owner"]), confirm_games=True)
    _sign_in(client, username)
    page = client.get(f"/nights/{club['night']}")
    assert b"Reopen the night" in page.data and b'name="reason"' in page.data
    response = client.post(f"/nights/{club['night']}/reopen", data={"reason": "C had not answered"})
    assert response.status_code == 303
    assert _night(app, club["night"]).is_open
    page = client.get(response.headers["Location"])
    assert b"The night is open again." in page.data
    assert b"by Ada: C had not answered" in page.data
    assert b"it had been closed by Owner on" in page.data


def test_reopening_without_a_reason_in_the_page_says_why_and_changes_nothing(app, club, client):
    with app.app_context():
        username = gen_member("admin").username
        nights.close_night(club["night"], actor=_member(club["owner"]), confirm_games=True)
    _sign_in(client, username)
    response = client.post(f"/nights/{club['night']}/reopen", data={"reason": ""},
                           headers={"Referer": f"http://localhost/nights/{club['night']}"})
    assert response.status_code == 303
    assert b"Say why the night is reopened" in client.get(response.headers["Location"]).data
    assert not _night(app, club["night"]).is_open


def test_an_organizer_may_not_reopen_a_night(app, club, client):
    with app.app_context():
        nights.close_night(club["night"], actor=_member(club["owner"]), confirm_games=True)
    _sign_in(client, club["owner_username"])
    assert client.post(f"/nights/{club['night']}/reopen", data={"reason": "mine"}).status_code == 403
    assert not _night(app, club["night"]).is_open


def test_closing_and_reopening_need_the_csrf_token(csrf_app):
    with csrf_app.app_context():
        admin = gen_member("admin")
        night = gen_night(opened_by_id=admin.id)
    client = csrf_client(csrf_app, admin.username)
    assert client.post(f"/nights/{night.id}/close", data={}).status_code == 400
    assert _night(csrf_app, night.id).is_open
    token = csrf_token_from(client.get(f"/nights/{night.id}/close").data)
    assert client.post(f"/nights/{night.id}/close", data={"csrf_token": token}).status_code == 303
    assert client.post(f"/nights/{night.id}/reopen", data={"reason": "why"}).status_code == 400
    assert not _night(csrf_app, night.id).is_open
    token = csrf_token_from(client.get(f"/nights/{night.id}").data)
    response = client.post(f"/nights/{night.id}/reopen", data={"reason": "why", "csrf_token": token})
    assert response.status_code == 303 and _night(csrf_app, night.id).is_open
