"""NUL and other control characters are a clear 4xx on every database, signed in and out, in
an address, a query, a form or an import, and nothing is written (issue 12, finding 4).

On PostgreSQL a NUL reaching a query was a 500 (``POST /auth/login`` with ``ev%00e``,
``GET /players/A%00``), and a guest seated as ``Nul\\x00Guy`` made every later result at the
table a 500; SQLite stored such names. Both runs of the suite run these tests.
"""

from __future__ import annotations

import io
import json

import pytest
from flask import url_for
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import LoginFailure, TableEvent
from chouette.services import commands, exports, members, seasons, tables
from chouette.table import TableError, fold
from chouette.table.errors import LogError
from tests.conftest import AuthActions
from tests.factories import gen_member, gen_night, gen_table

#: NUL, another C0 control, ESC, DEL and two C1 controls (NEL is whitespace to Python).
CONTROLS = ["\x00", "\x01", "\x1b", "\x7f", "\x85", "\x9f"]


def _rows() -> dict[str, int]:
    """The number of rows of every table of the database."""
    return {table.name: db.session.scalar(select(func.count()).select_from(table)) or 0
            for table in db.metadata.sorted_tables}


@pytest.fixture
def club(app):
    """An admin, a night, a table with three players seated; the ids every route needs."""
    with app.app_context():
        admin = gen_member("admin", username="boss", name="Boss")
        night = gen_night(opened_by_id=admin.id)
        table = gen_table(night, created_by_id=admin.id)
        for name in ("Ann", "Bob", "Cy"):
            commands.play(table.id, tables.last_seq(table.id), {"type": "join", "player": name}, admin)
        season = seasons.create_season(name="Autumn", first=night.date, last=night.date,
                                        currency=night.currency, actor=admin)
        ids = {"night_id": night.id, "table_id": table.id, "member_id": admin.id,
               "season_id": season.id, "name": "Ann"}
        db.session.remove()
    return ids


def _routes(app, ids, method: str) -> list[tuple[str, str]]:
    with app.test_request_context():
        return sorted((rule.endpoint, url_for(rule.endpoint, **{n: ids.get(n, 1) for n in rule.arguments}))
                      for rule in app.url_map.iter_rules()
                      if method in (rule.methods or ()) and rule.endpoint != "static")


def _assert_refused(response, where: str, code: str = "U+0000") -> None:
    assert response.status_code == 400, (where, response.status_code)
    text = response.get_data(as_text=True)
    assert f"A control character ({code}) is not allowed" in text, (where, text[:300])
    assert "Nothing was changed" in text


@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "admin"])
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_every_route_refuses_a_nul_in_its_query_or_form_and_writes_nothing(app, client, club, signed_in, htmx):
    if signed_in:
        assert AuthActions(client).login("boss").status_code == 303
    headers = {"HX-Request": "true"} if htmx else {}
    with app.app_context():
        seq = tables.last_seq(club["table_id"])
        before = _rows()
        db.session.remove()
    gets, posts = _routes(app, club, "GET"), _routes(app, club, "POST")
    assert len(gets) > 20 and len(posts) > 20
    for endpoint, url in gets:
        _assert_refused(client.get(url, query_string={"next": "/a\x00b"}, headers=headers), endpoint)
        _assert_refused(client.get(url, query_string={"a\x00b": "1"}, headers=headers), endpoint)
    form = {"name": "Nul\x00Guy", "player": "Nul\x00Guy", "username": "ev\x00e", "password": "x",
            "seq": str(seq), "answer": "take", "amount": "1", "date": "2026-11-21", "currency": "EUR"}
    for endpoint, url in posts:
        _assert_refused(client.post(url, data=form, headers=headers), endpoint)
    if htmx:  # htmx swaps the refusal into the page's flash area
        response = client.post(posts[0][1], data=form, headers=headers)
        assert response.headers["HX-Retarget"] == "#flash"
    with app.app_context():
        assert _rows() == before


@pytest.mark.parametrize("char", CONTROLS)
def test_sign_in_with_a_control_character_is_refused_signed_out_and_counts_nothing(app, client, club, char):
    code = f"U+{ord(char):04X}"
    _assert_refused(client.post("/auth/login", data={"username": f"ev{char}e", "password": "x"}),
                    "username", code)
    _assert_refused(client.post("/auth/login", data={"username": "boss", "password": f"pw{char}"}),
                    "password", code)
    with app.app_context():
        assert db.session.scalar(select(func.count(LoginFailure.id))) == 0
    assert client.get("/nights/").status_code == 302  # not signed in


@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
def test_a_nul_in_the_address_is_refused(app, client, club, signed_in):
    if signed_in:
        AuthActions(client).login("boss")
    for url in ("/players/A%00", "/players/A%1b", "/players/%7f", "/auth/login%00", "/nights/%00"):
        response = client.get(url)
        assert response.status_code == 400, (url, response.status_code)
        assert b"is not allowed in the address" in response.data


@pytest.mark.parametrize("char", CONTROLS)
def test_a_guest_with_a_control_character_is_never_seated(app, client, club, char):
    AuthActions(client).login("boss")
    table_id = club["table_id"]
    with app.app_context():
        seq = tables.last_seq(table_id)
    response = client.post(f"/tables/{table_id}/join", data={"player": f"Nul{char}Guy", "seq": str(seq)})
    assert response.status_code == 400
    with app.app_context():
        assert tables.last_seq(table_id) == seq
    if char.isspace():  # NEL: the rules collapse whitespace in a name to one space
        assert fold({}, [{"type": "join", "player": f"Nul{char}Guy"}]).players == ["Nul Guy"]
        return
    with app.app_context():
        # And the rules refuse it too, wherever the event comes from (a command, the fold).
        with pytest.raises(TableError, match="a name cannot hold a control character"):
            commands.play(table_id, seq, {"type": "join", "player": f"Nul{char}Guy"},
                          db.session.get(members.Member, club["member_id"]))
        db.session.rollback()
        assert tables.last_seq(table_id) == seq
    with pytest.raises(LogError, match="control character"):
        fold({}, [{"type": "join", "player": f"Nul{char}Guy"}])


def test_whitespace_controls_in_a_name_still_collapse_to_one_space():
    state = fold({}, [{"type": "join", "player": "Zoe\tTwo"}, {"type": "join", "player": "Ann\x1fLee"}])
    assert state.players == ["Zoe Two", "Ann Lee"]


def test_a_text_area_may_still_send_line_breaks(app, client, club):
    AuthActions(client).login("boss")
    table_id = club["table_id"]
    with app.app_context():
        seq = tables.last_seq(table_id)
    response = client.post(f"/tables/{table_id}/order",
                           data={"how": "record", "players": "Ann\r\nBob\r\nCy", "seq": str(seq)})
    assert response.status_code == 303, response.data[:500]
    with app.app_context():
        assert tables.last_seq(table_id) == seq + 1


def _export(client, night_id: int) -> dict:
    return json.loads(client.get(f"/nights/{night_id}/night.json").data)


def _upload(client, data: dict):
    body = json.dumps(data).encode()
    return client.post("/nights/import", data={"file": (io.BytesIO(body), "night.json")},
                       content_type="multipart/form-data")


@pytest.mark.parametrize("where", ["player", "night", "key", "table"])
def test_an_import_with_a_control_character_is_refused_whole(app, client, club, where):
    AuthActions(client).login("boss")
    export = _export(client, club["night_id"])
    events = export["tables"][0]["events"]
    if where == "player":
        events.append({"type": "join", "player": "Nul\u0000Guy"})
    elif where == "night":
        export["night"]["name"] = "Friday\u001b[2J"
    elif where == "key":
        events.append({"type": "join", "player": "Dee", "\u0000": 1})
    else:
        export["tables"][0]["name"] = "T\u007f"
    with app.app_context():
        before = _rows()
        db.session.remove()
    response = _upload(client, export)
    assert response.status_code == 422
    assert "The file holds a control character (U+00" in response.get_data(as_text=True)
    with app.app_context():
        assert _rows() == before
    # The same file without it imports (the refusal was the control character).
    clean = _export(client, club["night_id"])
    assert _upload(client, clean).status_code == 303


def test_the_import_command_refuses_a_control_character_too(app, club, tmp_path):
    with app.app_context():
        export = exports.night_export(club["night_id"])
        db.session.remove()
    export["tables"][0]["events"].append({"type": "join", "player": "Nul\u0000Guy"})
    path = tmp_path / "night.json"
    path.write_text(json.dumps(export))
    result = app.test_cli_runner().invoke(args=["import-night", str(path)])
    assert result.exit_code != 0 and "control character (U+0000)" in result.output
    with app.app_context():
        assert db.session.scalar(select(func.count(TableEvent.id))) == 3
