"""Records of a table whose house rules changed during the night (with a proxy, a deal and a
correction in its log), through the real download routes, checked by GNU Backgammon; and a
record that cannot be made is refused with a page that says why, never a redirect."""

from __future__ import annotations

import io
import zipfile

import pytest

from chouette import caches
from chouette.extensions import db
from chouette.models import TableEvent
from chouette.records import write_sgf
from chouette.records.tables import table_records
from tests.factories import gen_member, gen_night, gen_table
from tests.records.games import club_night_log
from tests.records.gnubg_tool import check_with_gnubg
from tests.web.test_exports import write_log

SEED = 1


@pytest.fixture
def night(app):
    """A night with one board-mode table whose log changes the house rules between games."""
    log = club_night_log(SEED)
    with app.app_context():
        organizer = gen_member("organizer")
        night = gen_night(name="Friday")
        table = gen_table(night, name="Table 1", settings=log["table"])
        write_log(table.id, log["events"], organizer)
        caches.clear_all(app)
        db.session.commit()
        return {"night": night.id, "table": table.id, "log": log}


def _records(night):
    log = night["log"]
    return table_records(log["table"], log["events"], date="2026-11-21", event="Friday Table 1")


def test_the_log_holds_a_change_of_rules_a_proxy_a_deal_and_a_correction(night):
    kinds = [e["type"] for e in night["log"]["events"]]
    assert {"settings", "proxy", "deal", "correct"} <= set(kinds)
    records = _records(night)
    # Game 2 was voided; the Jacoby rule holds from game 3 on (a session of its own).
    assert [(r.notes, r.jacoby) for r in records] == [(("game 1",), False), (("game 3",), True),
                                                      (("game 4",), True)]


@pytest.mark.parametrize("fmt", ["mat", "sgf"])
@pytest.mark.parametrize("number", [1, 3, 4])
def test_each_game_downloads_and_opens_in_gnubg(client, night, login_as, fmt, number):
    login_as("organizer")
    response = client.get(f"/records/tables/{night['table']}.{fmt}?game={number}")
    assert response.status_code == 200, response.headers.get("Location")
    assert response.headers["Content-Disposition"].endswith(f'game-{number}.{fmt}"')
    (record,) = (r for r in _records(night) if r.notes == (f"game {number}",))
    assert check_with_gnubg(record, fmt, text=response.text) == []


def test_the_table_night_and_player_downloads_hold_every_game(client, night, login_as):
    login_as("organizer")
    records = _records(night)
    table = client.get(f"/records/tables/{night['table']}.sgf")
    assert table.status_code == 200 and table.text == "".join(write_sgf(r) for r in records)
    zipped = client.get(f"/records/tables/{night['table']}.mat")
    assert zipped.status_code == 200 and zipped.mimetype == "application/zip"
    assert len(zipfile.ZipFile(io.BytesIO(zipped.data)).namelist()) == 3
    whole = client.get(f"/records/nights/{night['night']}.sgf")
    assert whole.status_code == 200 and whole.text == table.text
    assert client.get(f"/records/nights/{night['night']}.mat").status_code == 200
    box = records[0].left
    mine = client.get(f"/records/player.sgf?name={box}")
    assert mine.status_code == 200 and f"PW[{box}]" in mine.text


def _break_the_log(app, table_id):
    """Append an event the rules refuse (as an old imported log may hold): a change of the
    house rules that changes nothing."""
    with app.app_context():
        seq = db.session.query(TableEvent).filter_by(table_id=table_id).count() + 1
        db.session.add(TableEvent(table_id=table_id, seq=seq, type="settings",
                                  payload={"settings": {"jacoby": True}}))
        db.session.commit()
        caches.clear_all(app)
    return seq


@pytest.mark.parametrize("path", ["tables/{table}.mat", "tables/{table}.sgf?game=1",
                                  "nights/{night}.sgf", "player.mat?name=Ann"])
def test_a_record_that_cannot_be_made_is_a_page_with_the_reason(app, client, night, login_as, path):
    seq = _break_the_log(app, night["table"])
    login_as("organizer")
    response = client.get("/records/" + path.format(**night))
    assert response.status_code == 422 and "Location" not in response.headers
    assert response.mimetype == "text/html" and "Content-Disposition" not in response.headers
    assert "The game records of table “Table 1” cannot be made" in response.text
    assert f"event {seq}" in response.text
    assert "house rules already: nothing changes" in response.text


def test_the_refusal_is_in_the_member_s_language(app, client, night, login_as):
    _break_the_log(app, night["table"])
    login_as("organizer", locale="it")
    response = client.get(f"/records/tables/{night['table']}.sgf")
    assert response.status_code == 422
    assert "Le registrazioni delle partite del tavolo “Table 1” non si possono fare" in response.text
