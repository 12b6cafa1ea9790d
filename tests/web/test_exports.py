"""Night exports (score sheet HTML/CSV, ledger CSV, logs as JSON), the import of a night
export (page and command), and the round trip to an empty database, to the cent."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest
from sqlalchemy import func, select

from chouette import caches
from chouette.extensions import db
from chouette.ledger import parse_cents
from chouette.models import ChouetteTable, LedgerEntry, Night, TableEvent
from chouette.replay import summarize
from chouette.services import commands, exports, members, night_rows, table_states, tables
from chouette.services import nights as nights_service
from chouette.standings import money
from chouette.table import fold, new_table
from chouette.table.simulate import random_night
from tests.conftest import dispose, make_app
from tests.factories import gen_member, gen_night, gen_table

#: A small night with a known outcome (Ann box, Bob captain, Cy in the line):
#: game 1 Bob takes, Cy drops, the team wins; game 2 the box (Bob) takes Ann's double and
#: wins a gammon; game 3 the box (Bob) wins a single.
KNOWN = [
    {"type": "join", "player": "Ann"}, {"type": "join", "player": "Bob"},
    {"type": "join", "player": "Cy"},
    {"type": "order_roll", "rolls": {"Ann": 6, "Bob": 4, "Cy": 2}},
    {"type": "double", "by": "box", "cubes": ["Bob", "Cy"]},
    {"type": "take", "cube": "Bob"}, {"type": "drop", "cube": "Cy"},
    {"type": "result", "winner": "team", "kind": "single"},
    {"type": "double", "by": "Ann"}, {"type": "take", "cube": "Ann"},
    {"type": "result", "winner": "box", "kind": "gammon"},
    {"type": "result", "winner": "box", "kind": "single"},
]
#: Each player's points and cents over KNOWN at 1.00 a point.
KNOWN_TOTALS = {"Ann": (-6, -600), "Bob": (10, 1000), "Cy": (-4, -400)}


def play_log(table_id: int, events, actor) -> None:
    """Play ``events`` at the table one command at a time, as the organizer would."""
    for event in events:
        commands.play(table_id, tables.last_seq(table_id), event, actor)


def known_table() -> tuple[int, int]:
    """KNOWN played command by command at Table 1 of a "Friday" night (in an app context;
    committed): its three games end at seqs 8, 11 and 12. Returns the table and organizer ids."""
    organizer = gen_member("organizer")
    organizer_id = organizer.id
    table_id = gen_table(gen_night(name="Friday"), name="Table 1").id
    play_log(table_id, KNOWN, organizer)
    db.session.commit()
    return table_id, organizer_id


def write_log(table_id: int, events, actor) -> None:
    """Write a whole log at once with the ledger rows it produces (faster than command by
    command; the same sums per game and player)."""
    settings = tables.get_table(table_id).settings
    rows = table_states.ledger_changes(new_table(settings), fold(settings, events))
    tables.append_events(table_id, 0, events, actor, rows)


def random_log(seed: int, games: int, *, board: bool = False, settings=None):
    """A random legal log of ``games`` games (seeded)."""
    rng = random.Random(seed)
    _state, events = random_night(settings or {}, ["Ann", "Bob", "Cy", "Dee", "Eve"], games,
                                  rng.choice, lambda: rng.randint(1, 6), board=board)
    return events


def ledger_of(night_id: int) -> dict[tuple[str, int, str], tuple[int, int]]:
    """The night's ledger per (table name, game, player): points and cents."""
    rows = db.session.execute(
        select(ChouetteTable.name, LedgerEntry.game, LedgerEntry.player,
               func.sum(LedgerEntry.points), func.sum(LedgerEntry.cents))
        .join(ChouetteTable, ChouetteTable.id == LedgerEntry.table_id)
        .where(LedgerEntry.night_id == night_id)
        .group_by(ChouetteTable.name, LedgerEntry.game, LedgerEntry.player)).all()
    return {(t, g, p): (int(pt), int(c)) for t, g, p, pt, c in rows if pt or c}


@pytest.fixture
def night(app):
    """A night with two tables: KNOWN, and a random one with undo, board games and money."""
    with app.app_context():
        organizer = gen_member("organizer")
        night = gen_night(name="Friday <b>night</b>", currency="EUR")
        first = gen_table(night, name="Table 1")
        second = gen_table(night, name="Table 2", settings={**tables.TABLE_DEFAULTS, "stake_cents": 250,
                                                             "beavers": True, "jacoby": True})
        play_log(first.id, KNOWN, organizer)
        write_log(second.id, random_log(7, 6, board=True) + [{"type": "undo"}], organizer)
        caches.clear_all(app)
        db.session.commit()
        return {"night_id": night.id, "tables": [first.id, second.id], "organizer_id": organizer.id}


# --------------------------------------------------------------------------- content


def test_table_log_json_is_the_replay_format_and_replays_to_the_tables_summary(app, client, night, login_as):
    login_as("organizer")
    for table_id in night["tables"]:
        response = client.get(f"/tables/{table_id}/log.json")
        assert response.status_code == 200
        assert response.mimetype == "application/json"
        assert "attachment" in response.headers["Content-Disposition"]
        log = json.loads(response.data)
        assert set(log) == {"table", "events"}
        with app.app_context():
            state = table_states.load_play(table_id).state
        points, cents = money(state)
        assert summarize(log) == {**state.summary(), "points": points, "cents": cents}
    first = json.loads(client.get(f"/tables/{night['tables'][0]}/log.json").data)
    assert first["events"] == KNOWN
    assert summarize(first)["cents"] == {p: c for p, (_pt, c) in KNOWN_TOTALS.items()}


def test_night_json_holds_the_night_and_every_table(app, client, night, login_as):
    login_as("organizer")
    data = json.loads(client.get(f"/nights/{night['night_id']}/night.json").data)
    opened_at = data["night"].pop("opened_at")
    assert data["night"] == {"name": "Friday <b>night</b>", "date": "2026-11-21", "currency": "EUR",
                             "closed": False, "closed_at": None}
    with app.app_context():
        assert opened_at == night_rows.get_night(night["night_id"]).opened_at.isoformat(timespec="microseconds")
    assert data["payments"] == []
    assert [t["name"] for t in data["tables"]] == ["Table 1", "Table 2"]
    assert data["tables"][1]["table"]["stake_cents"] == 250
    assert data["tables"][0]["events"] == KNOWN


def test_ledger_csv_has_one_row_per_player_per_game_with_decimal_amounts(app, client, night, login_as):
    login_as("organizer")
    response = client.get(f"/nights/{night['night_id']}/ledger.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.data.decode())))
    assert list(rows[0]) == ["night", "date", "currency", "table", "game", "player", "points", "amount"]
    table_1 = [r for r in rows if r["table"] == "Table 1"]
    assert [(r["game"], r["player"], r["points"], r["amount"]) for r in table_1] == [
        ("1", "Ann", "-1", "-1.00"), ("1", "Bob", "2", "2.00"), ("1", "Cy", "-1", "-1.00"),
        ("2", "Ann", "-4", "-4.00"), ("2", "Bob", "6", "6.00"), ("2", "Cy", "-2", "-2.00"),
        ("3", "Ann", "-1", "-1.00"), ("3", "Bob", "2", "2.00"), ("3", "Cy", "-1", "-1.00"),
    ]
    with app.app_context():
        assert {(r["table"], int(r["game"]), r["player"]): (int(r["points"]), parse_cents(r["amount"]))
                for r in rows} == ledger_of(night["night_id"])
    # Every game sums to zero, in points and in money.
    for key in {(r["table"], r["game"]) for r in rows}:
        game = [r for r in rows if (r["table"], r["game"]) == key]
        assert sum(int(r["points"]) for r in game) == 0
        assert sum(parse_cents(r["amount"]) for r in game) == 0


def test_score_sheet_csv_has_one_row_per_game_and_a_column_per_player(app, client, night, login_as):
    login_as("organizer")
    response = client.get(f"/nights/{night['night_id']}/score-sheet.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.data.decode())))
    table_1 = [r for r in rows if r["table"] == "Table 1"]
    assert [(r["game"], r["box"], r["captain"], r["winner"], r["kind"]) for r in table_1] == [
        ("1", "Ann", "Bob", "team", "single"), ("2", "Bob", "Cy", "box", "gammon"),
        ("3", "Bob", "Ann", "box", "single")]
    assert [(r["Ann"], r["Bob"], r["Cy"]) for r in table_1] == [("-1", "2", "-1"), ("-4", "6", "-2"),
                                                                ("-1", "2", "-1")]
    # Each cube's final value, status and owner (Bob took the box's double: Bob owns it).
    assert table_1[0]["cubes"] == "Bob:2:live:member Cy:1:dropped:middle"
    assert table_1[0]["events"] == "The box doubles Bob, Cy to 2; Bob takes at 2; Cy drops and loses 1"
    with app.app_context():
        games = len(table_states.load_play(night["tables"][1]).state.games)
    assert len([r for r in rows if r["table"] == "Table 2"]) >= games


def test_printable_score_sheet_shows_each_table_on_its_own_sheet_with_totals(app, client, night, login_as, htmx):
    login_as("organizer")
    url = f"/nights/{night['night_id']}/score-sheet"
    page = client.get(url)
    assert page.status_code == 200
    html = page.data.decode()
    assert "<!doctype html>" in html and 'id="score-sheet"' in html
    assert html.count('class="sheet card"') == 2
    assert "Friday &lt;b&gt;night&lt;/b&gt;" in html and "<b>night</b>" not in html
    assert "break-after: page" in client.get("/static/css/exports.css").data.decode()
    assert "+10" in html and "€10.00" in html and "-€6.00" in html  # Bob's and Ann's totals
    fragment = client.get(url, headers=htmx)
    assert fragment.status_code == 200 and fragment.data.decode().lstrip().startswith('<section id="score-sheet"')
    assert "Vary" in fragment.headers and "HX-Request" in fragment.headers["Vary"]


def test_exports_page_links_every_export(app, client, night, login_as, htmx):
    login_as("organizer")
    html = client.get(f"/nights/{night['night_id']}/exports").data.decode()
    for url in ("score-sheet", "score-sheet.csv", "ledger.csv", "night.json"):
        assert f"/nights/{night['night_id']}/{url}" in html
    for table_id in night["tables"]:
        assert f"/tables/{table_id}/log.json" in html
    fragment = client.get(f"/nights/{night['night_id']}/exports", headers=htmx).data.decode()
    assert fragment.lstrip().startswith('<section id="export-links"')


# --------------------------------------------------------------------------- who may


EXPORT_URLS = ["/nights/{n}/exports", "/nights/{n}/score-sheet", "/nights/{n}/score-sheet.csv",
               "/nights/{n}/ledger.csv", "/nights/{n}/night.json", "/tables/{t}/log.json", "/nights/import"]


@pytest.mark.parametrize("url", EXPORT_URLS)
def test_exports_signed_out_go_to_sign_in(client, night, url, htmx):
    url = url.format(n=night["night_id"], t=night["tables"][0])
    response = client.get(url)
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    response = client.get(url, headers=htmx)
    assert response.status_code == 401 and "/auth/login" in response.headers["HX-Redirect"]


@pytest.mark.parametrize("url", EXPORT_URLS)
def test_exports_are_refused_to_a_player(client, night, url, login_as, htmx):
    login_as("player")
    url = url.format(n=night["night_id"], t=night["tables"][0])
    assert client.get(url).status_code == 403
    assert client.get(url, headers=htmx).status_code == 403


@pytest.mark.parametrize("role", ["organizer", "admin"])
def test_exports_are_given_to_organizers_and_admins(client, night, login_as, role):
    login_as(role)
    for url in EXPORT_URLS:
        assert client.get(url.format(n=night["night_id"], t=night["tables"][0])).status_code == 200, url


def test_exports_of_a_missing_night_or_table_are_404(client, night, login_as):
    login_as("organizer")
    assert client.get("/nights/999/ledger.csv").status_code == 404
    assert client.get("/tables/999/log.json").status_code == 404


def test_import_post_is_refused_signed_out_and_to_a_player(client, night, login_as, app):
    data = {"file": (io.BytesIO(b"{}"), "night.json")}
    response = client.post("/nights/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    login_as("player")
    data = {"file": (io.BytesIO(b"{}"), "night.json")}
    assert client.post("/nights/import", data=data, content_type="multipart/form-data").status_code == 403
    with app.app_context():
        assert db.session.scalar(select(func.count(Night.id))) == 1


# --------------------------------------------------------------------------- import


def _night_counts(app) -> tuple[int, int, int, int]:
    with app.app_context():
        return tuple(db.session.scalar(select(func.count(model.id)))  # type: ignore[return-value]
                     for model in (Night, ChouetteTable, TableEvent, LedgerEntry))


def _upload(client, body: bytes, htmx=None):
    return client.post("/nights/import", data={"file": (io.BytesIO(body), "night.json")},
                       content_type="multipart/form-data", headers=htmx or {})


def test_import_page_full_and_fragment(client, login_as, htmx):
    login_as("organizer")
    page = client.get("/nights/import")
    assert page.status_code == 200 and 'enctype="multipart/form-data"' in page.data.decode()
    fragment = client.get("/nights/import", headers=htmx).data.decode()
    assert fragment.lstrip().startswith('<section id="import-form"')


def test_import_creates_a_new_night_with_the_same_ledger(app, client, night, login_as):
    login_as("organizer")
    export = client.get(f"/nights/{night['night_id']}/night.json").data
    response = _upload(client, export)
    assert response.status_code == 303
    new_id = int(response.headers["Location"].rstrip("/").split("/")[-1])
    assert new_id != night["night_id"]
    with app.app_context():
        assert ledger_of(new_id) == ledger_of(night["night_id"])
        imported = night_rows.get_night(new_id)
        assert imported.name == "Friday <b>night</b>" and [t.name for t in imported.tables] == ["Table 1", "Table 2"]
        assert imported.tables[0].preset == "club-standard"


def test_import_with_htmx_redirects_to_the_new_night(app, client, night, login_as, htmx):
    login_as("organizer")
    export = client.get(f"/nights/{night['night_id']}/night.json").data
    response = _upload(client, export, htmx)
    assert response.status_code == 200 and response.headers["HX-Redirect"].startswith("/nights/")


def test_import_refuses_malformed_json_and_writes_nothing(app, client, night, login_as, htmx):
    login_as("organizer")
    before = _night_counts(app)
    response = _upload(client, b'{"night": {"name": "x"')
    assert response.status_code == 422
    assert "not a JSON export" in response.data.decode()
    response = _upload(client, b'[1, 2]', htmx)
    assert response.status_code == 422 and "a night and its tables" in response.data.decode()
    assert response.data.decode().lstrip().startswith('<section id="import-form"')
    assert _night_counts(app) == before


def test_import_refuses_an_illegal_event_naming_its_table_and_number(app, client, night, login_as):
    login_as("organizer")
    export = json.loads(client.get(f"/nights/{night['night_id']}/night.json").data)
    export["tables"][1]["events"].insert(6, {"type": "take", "cube": "Nobody"})
    before = _night_counts(app)
    response = _upload(client, json.dumps(export).encode())
    assert response.status_code == 422
    html = response.data.decode()
    assert "Table “Table 2”, event 7 (take): there is no double to take" in html
    assert _night_counts(app) == before


def test_import_refuses_unknown_settings_a_bad_date_and_eventless_tables(app, client, night, login_as):
    login_as("organizer")
    base = json.loads(client.get(f"/nights/{night['night_id']}/night.json").data)
    before = _night_counts(app)
    cases = [
        ({**base, "night": {**base["night"], "date": "Friday"}}, "not a date"),
        ({**base, "tables": [{"name": "T", "table": {"stake": 5}, "events": []}]}, "Unknown table setting"),
        ({**base, "tables": [{"name": "T", "table": {}}]}, "events"),
        ({**base, "tables": [{"name": "T", "events": [{"player": "Ann"}]}]}, "event 1: an event needs a type"),
        ({**base, "tables": [{"name": "T", "events": []}, {"name": "T", "events": []}]}, "Two tables"),
        # A misspelt "table" would import the table under the default settings: refused.
        ({**base, "tables": [{"name": "T", "settings": {"stake_cents": 500}, "events": []}]},
         "Table “T”: unknown key “settings”"),
        ({**base, "paymnets": []}, "Unknown key “paymnets” in the night export"),
        ({**base, "night": {**base["night"], "closed_on": "2026-11-21"}},
         "Unknown key “closed_on” in the export"),
    ]
    for data, message in cases:
        response = _upload(client, json.dumps(data).encode())
        assert response.status_code == 422, message
        assert message in response.data.decode(), message
    assert _night_counts(app) == before


def test_import_refuses_an_oversized_file(app, client, night, login_as):
    login_as("organizer")
    before = _night_counts(app)
    response = _upload(client, b" " * (exports.MAX_IMPORT_BYTES + 100 * 1024))
    assert response.status_code == 413
    assert "too large" in response.data.decode()
    assert _night_counts(app) == before
    with pytest.raises(exports.ImportTooLarge, match=r"too large \(at most 5 MB\)"):
        exports.read_night_export(b" " * (exports.MAX_IMPORT_BYTES + 1))


def test_import_accepts_a_file_larger_than_an_ordinary_form(app, client, night, login_as):
    login_as("organizer")
    export = client.get(f"/nights/{night['night_id']}/night.json").data
    padded = export + b" " * (1536 * 1024)  # past the app's 1 MB limit for other forms
    response = _upload(client, padded)
    assert response.status_code == 303


def test_import_refuses_json_nested_too_deep(app, client, night, login_as):
    login_as("organizer")
    before = _night_counts(app)
    response = _upload(client, b"[" * 200_000 + b"]" * 200_000)
    assert response.status_code == 422 and "a night and its tables" in response.data.decode()
    assert _night_counts(app) == before


def test_import_without_a_file_says_so(client, login_as):
    login_as("organizer")
    response = client.post("/nights/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422 and "Choose the file to import." in response.data.decode()


def test_a_closed_night_is_imported_closed(app, client, night, login_as):
    login_as("organizer")
    with app.app_context():
        nights_service.close_night(night["night_id"], actor=db.session.get(type(members.get_member(night["organizer_id"])), night["organizer_id"]),
                             confirm_games=True)
    export = json.loads(client.get(f"/nights/{night['night_id']}/night.json").data)
    assert export["night"]["closed"] is True
    response = _upload(client, json.dumps(export).encode())
    new_id = int(response.headers["Location"].rstrip("/").split("/")[-1])
    with app.app_context():
        assert not night_rows.get_night(new_id).is_open
        assert ledger_of(new_id) == ledger_of(night["night_id"])


# --------------------------------------------------------------------------- round trip


def test_round_trip_to_an_empty_database_gives_the_same_ledger_to_the_cent(app, night, tmp_path):
    with app.app_context():
        export = exports.to_json(exports.night_export(night["night_id"]))
        original = ledger_of(night["night_id"])
        totals = exports.night_ledger_totals(night["night_id"])
    assert original and totals["Bob"][1] != 0
    fresh_dir = tmp_path / "fresh"
    fresh_dir.mkdir()
    fresh = make_app(fresh_dir)
    try:
        with fresh.app_context():
            assert db.session.scalar(select(func.count(Night.id))) == 0
            imported = exports.import_night(exports.read_night_export(export.encode()), None)
            assert ledger_of(imported.id) == original
            assert exports.night_ledger_totals(imported.id) == totals
            # The imported logs are the same events, and fold to the same tables.
            again = exports.to_json(exports.night_export(imported.id))
            assert json.loads(again)["tables"] == json.loads(export)["tables"]
    finally:
        dispose(fresh)


def test_cli_export_then_import_round_trips(app, night, tmp_path):
    path = tmp_path / "night.json"
    runner = app.test_cli_runner()
    result = runner.invoke(args=["export-night", str(night["night_id"]), "-o", str(path)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(args=["import-night", str(path)])
    assert result.exit_code == 0, result.output
    assert "imported" in result.output
    with app.app_context():
        nights = db.session.scalars(select(Night.id).order_by(Night.id)).all()
        assert len(nights) == 2
        assert ledger_of(nights[1]) == ledger_of(nights[0])


def test_cli_import_refuses_an_illegal_log_with_the_event_number(app, night, tmp_path):
    with app.app_context():
        export = exports.night_export(night["night_id"])
    export["tables"][0]["events"][5] = {"type": "take", "cube": "Nobody"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(export))
    result = app.test_cli_runner().invoke(args=["import-night", str(path)])
    assert result.exit_code != 0
    assert "Table “Table 1”, event 6 (take): Nobody is not at this table" in result.output
    with app.app_context():
        assert db.session.scalar(select(func.count(Night.id))) == 1


def test_cli_export_of_a_missing_night_fails(app):
    result = app.test_cli_runner().invoke(args=["export-night", "999"])
    assert result.exit_code != 0 and "No such night" in result.output
