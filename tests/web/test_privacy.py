"""Money is private by default (``chouette.web.privacy``): what a player reads of other
players' money beyond what the read matrix checks (tests/production/test_read_matrix.py):
cumulative balances, a season's payments and IOUs, who counts as having played a night, the
live table and the player pages of a player who did not play, the big screen with money hidden,
and the two settings, checked at start."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from chouette.extensions import db
from chouette.services import commands, money, seasons, tables
from tests.conftest import dispose, make_app
from tests.factories import PASSWORD, gen_member, gen_night, gen_table
from tests.web.test_money_pages import _night_with


def _play(table_id: int, actor, *events) -> None:
    for event in events:
        commands.play(table_id, tables.last_seq(table_id), event, actor)


@pytest.fixture
def two_nights(app):
    """First: Ann +7.00, Bob -4.00, Cy -3.00, Bob's 4.00 an IOU to Ann. Second (Cy absent):
    Ann -2.50, Dee +2.50, Dee paid in cash; a season over both with a payment at the season."""
    with app.app_context():
        clerk = gen_member("organizer", name="Clerk")
        first = _night_with({"Ann": 700, "Bob": -400, "Cy": -300}, name="First", on=dt.date(2026, 11, 13))
        second = _night_with({"Ann": -250, "Dee": 250}, name="Second", on=dt.date(2026, 11, 20))
        money.record_payment(first, payer="Bob", payee="Ann", cents=400, method="iou", actor=clerk)
        money.record_payment(second, payer="Ann", payee="Dee", cents=250, method="cash", actor=clerk)
        season = seasons.create_season(name="Autumn", first=dt.date(2026, 11, 1), last=dt.date(2026, 11, 30),
                                         currency="EUR", actor=clerk)
        seasons.record_season_payment(season.id, payer="Cy", payee="Ann", cents=300, method="cash", actor=clerk)
        return first, second, season.id


def test_the_cumulative_settle_up_shows_a_player_their_own_balance_only(app, client, login_as, two_nights):
    first, second, _season = two_nights
    login_as("player", name="Bob")
    html = client.get(f"/nights/{first}/settle?scope=all").get_data(as_text=True)
    night, cumulative = html.split('id="cumulative"')
    assert 'data-player="Ann"' in night  # the night Bob played: all of it
    assert re.findall(r'data-player="(\w+)"', cumulative) == ["Bob"]
    assert "Dee" not in cumulative and "€2.50" not in cumulative
    assert client.get(f"/nights/{second}/ledger").status_code == 403  # a night Bob did not play


def test_the_treasurer_sees_every_cumulative_balance(app, client, login_as, two_nights):
    first, _second, _season = two_nights
    login_as("organizer")
    cumulative = client.get(f"/nights/{first}/settle?scope=all").get_data(as_text=True).split('id="cumulative"')[1]
    assert set(re.findall(r'data-player="(\w+)"', cumulative)) == {"Ann", "Bob", "Cy", "Dee"}


def test_a_season_shows_a_player_their_row_their_payments_and_the_payments_of_their_nights(
        app, client, login_as, two_nights, htmx):
    first, second, season = two_nights
    login_as("player", name="Bob")
    for headers in ({}, htmx):
        html = client.get(f"/seasons/{season}", headers=headers).get_data(as_text=True)
        standings = html[html.index('id="season-standings"'):html.index('id="season-payments"')]
        assert re.findall(r'data-player="(\w+)"', standings) == ["Bob"]
        assert "Your own standing: the others' money is private." in standings
        # The payments of the night they played are theirs to see; Ann and Dee's cash on the
        # second night and Cy's payment at the season are not.
        assert "Bob owes Ann" in html or "Bob</strong> owes <strong>Ann" in html
        assert "Ann → Dee" not in html and "Cy → Ann" not in html
        assert f"/nights/{first}/ledger" in html and f"/nights/{second}/ledger" not in html
        assert "For its players" in html


def test_the_treasurer_sees_the_whole_season(app, client, login_as, two_nights):
    _first, _second, season = two_nights
    login_as("organizer")
    html = client.get(f"/seasons/{season}").get_data(as_text=True)
    standings = html[html.index('id="season-standings"'):html.index('id="season-payments"')]
    assert set(re.findall(r'data-player="(\w+)"', standings)) == {"Ann", "Bob", "Cy", "Dee"}
    assert "Ann → Dee" in html and "Cy → Ann" in html and "Your own standing" not in html


def test_iou_carried_to_a_later_night_shows_only_to_those_who_may_see_it(app, client, login_as, two_nights):
    """Bob's IOU to Ann of the first night is carried to the third night's settle-up, which Bob
    and Dee played: Dee did not play the first night, so that IOU is not theirs to see; Bob's is."""
    with app.app_context():
        third = _night_with({"Bob": 100, "Dee": -100}, name="Third", on=dt.date(2026, 11, 27))
    login_as("organizer")
    assert 'id="carried-over"' in client.get(f"/nights/{third}/settle").get_data(as_text=True)
    client.post("/auth/logout")
    login_as("player", name="Dee")
    html = client.get(f"/nights/{third}/settle").get_data(as_text=True)
    assert 'id="carried-over"' not in html and "IOU of First" not in html
    client.post("/auth/logout")
    login_as("player", name="Bob")
    html = client.get(f"/nights/{third}/settle").get_data(as_text=True)
    assert "IOU of First" in html  # Bob's own IOU


def test_a_seat_without_a_result_yet_counts_as_playing_and_an_undone_join_does_not(app, client, login_as):
    with app.app_context():
        organizer = gen_member("organizer")
        night = gen_night()
        table = gen_table(night)
        _play(table.id, organizer, {"type": "join", "player": "Cy"}, {"type": "join", "player": "Zed"},
              {"type": "undo"})
        night_id = night.id
    login_as("player", name="Cy")
    assert client.get(f"/nights/{night_id}/ledger").status_code == 200
    client.post("/auth/logout")
    login_as("player", name="Zed")
    assert client.get(f"/nights/{night_id}/ledger").status_code == 403


def _live_table(app):
    """An open night with Ann, Bob and Cy at a table after one game: Ann (box) +2.00."""
    with app.app_context():
        organizer = gen_member("organizer")
        night = gen_night()
        table = gen_table(night, created_by_id=organizer.id)
        _play(table.id, organizer, *({"type": "join", "player": name} for name in ("Ann", "Bob", "Cy")),
              {"type": "order", "players": ["Ann", "Bob", "Cy"]},
              {"type": "result", "winner": "box", "kind": "single"},
              {"type": "leave", "player": "Cy"})
        return table.id


def test_a_player_who_did_not_play_watches_the_table_with_points_but_no_money(app, client, login_as, htmx):
    table_id = _live_table(app)
    login_as("player", name="Eve")
    for url, headers in ((f"/tables/{table_id}", {}), (f"/tables/{table_id}/live", htmx)):
        html = client.get(url, headers=headers).get_data(as_text=True)
        seats = html[html.index('id="table-seats'):html.index('id="table-history')]
        assert ">Points</th>" in seats and ">Money</th>" not in seats and "€" not in seats
        assert '<td class="num">+2</td>' in seats  # Ann's points
        history = html[html.index('id="table-history'):].replace("€1.00 a point", "")  # the stake: a house rule
        assert "€" not in history and "Points and money" not in history


def test_a_player_at_the_table_sees_its_money(app, client, login_as, htmx):
    table_id = _live_table(app)
    login_as("player", name="Bob")
    html = client.get(f"/tables/{table_id}/live", headers=htmx).get_data(as_text=True)
    assert ">Money</th>" in html and "€2.00" in html and "Points and money" in html


def test_a_player_seated_at_the_table_is_known_to_play_its_night_without_reading_the_ledger(
        app, client, login_as, htmx):
    """Their seat at this table says they played the night: their page reads no ledger row to show
    them its money; a member with no seat there is still read, and sees no money."""
    from sqlalchemy import event

    table_id = _live_table(app)
    statements: list[str] = []

    def note(conn, cursor, statement, *args):
        statements.append(statement)

    for name, sees in (("Bob", True), ("Eve", False)):
        login_as("player", name=name)
        client.get(f"/tables/{table_id}/live", headers=htmx)  # their first page: the state is folded
        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", note)
        statements.clear()
        try:
            html = client.get(f"/tables/{table_id}/live", headers=htmx).get_data(as_text=True)
        finally:
            with app.app_context():
                event.remove(db.engine, "before_cursor_execute", note)
        assert ("€2.00" in html) is sees and (">Money</th>" in html) is sees
        assert any("ledger_entry" in statement for statement in statements) is not sees
        client.post("/auth/logout")


def test_another_members_page_shows_their_games_but_not_their_money(app, client, login_as):
    _live_table(app)
    login_as("player", name="Eve")
    html = client.get("/players/Ann").get_data(as_text=True)
    assert 'id="seat-box"' in html and "This money is private: only this player and the organizers see it." in html
    assert "<svg" not in html and "€" not in html and ">Money" not in html and ">Balance<" not in html
    listing = client.get("/players/").get_data(as_text=True)
    assert "/players/Ann" in listing and "2.00" not in listing and "Private" in listing


def test_the_big_screen_shows_the_money_by_default(app, client, htmx):
    table_id = _live_table(app)
    html = client.get("/display", headers=htmx).get_data(as_text=True)
    assert 'class="dt-money' in html and "+€2.00" in html and ">EUR</th>" in html
    assert re.search(r"Left the table:\s*<span>Cy(?: <small class=\"dt-guest\">guest</small>)? -€1.00</span>", html)
    assert f'id="display-table-{table_id}"' in html


@pytest.mark.parametrize("setting", [False, "0", "off"])
def test_the_big_screen_hides_the_money_when_the_club_says_so(tmp_path, setting):
    app = make_app(tmp_path, DISPLAY_MONEY=setting)
    try:
        assert app.config["DISPLAY_MONEY"] is False
        _live_table(app)
        client = app.test_client()
        for url, headers in (("/display", {}), ("/display", {"HX-Request": "true"}), ("/display/1", {})):
            html = client.get(url, headers=headers).get_data(as_text=True)
            assert "dt-money" not in html and "€" not in html.split('class="dt-meta"')[1].split("</p>", 1)[1]
            assert re.search(r'<td class="dt-points up">\+2</td>', html)  # Ann's points stay
            assert re.search(r"Left the table:\s*<span>Cy(?: <small class=\"dt-guest\">guest</small>)? \u22121</span>",
                             html)  # a leaver's points (Cy is a guest)
    finally:
        dispose(app)


def test_the_settings_come_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("MONEY_VISIBILITY", "Members")
    monkeypatch.setenv("DISPLAY_MONEY", "no")
    app = make_app(tmp_path)
    try:
        assert app.config["MONEY_VISIBILITY"] == "members" and app.config["DISPLAY_MONEY"] is False
    finally:
        dispose(app)


def test_the_defaults_are_private_money_and_a_screen_with_money(app):
    assert app.config["MONEY_VISIBILITY"] == "private" and app.config["DISPLAY_MONEY"] is True


@pytest.mark.parametrize(("setting", "value", "says"), [
    ("MONEY_VISIBILITY", "everyone", "MONEY_VISIBILITY: 'everyone' is not one of private, members"),
    ("DISPLAY_MONEY", "maybe", "DISPLAY_MONEY: 'maybe' is not 1"),
])
def test_a_wrong_privacy_setting_stops_the_app_with_a_clear_message(tmp_path, monkeypatch, setting, value, says):
    monkeypatch.setenv(setting, value)
    with pytest.raises(ValueError, match=re.escape(says)):
        make_app(tmp_path)


def test_under_members_every_member_reads_every_night(tmp_path):
    app = make_app(tmp_path, MONEY_VISIBILITY="members")
    try:
        with app.app_context():
            night = _night_with({"Ann": 700, "Bob": -700})
            eve = gen_member("player", name="Eve")
            db.session.remove()
        client = app.test_client()
        client.post("/auth/login", data={"username": eve.username, "password": PASSWORD})
        assert b'data-player="Ann"' in client.get(f"/nights/{night}/ledger").data
        balances = client.get("/balances").get_data(as_text=True)
        assert 'data-player="Ann"' in balances and 'data-player="Bob"' in balances
    finally:
        dispose(app)
