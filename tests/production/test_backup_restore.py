"""`flask --app app backup FILE` and `restore FILE`: a consistent copy while commands are being
written, a restore that gives a working app, and refusals that change nothing."""

from __future__ import annotations

import hashlib
import random
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from chouette import caches
from chouette.extensions import db
from chouette.models import Member
from chouette.ops import OpsError, check_database, sqlite_database
from chouette.services import base, commands, table_states
from chouette.services import tables as tables_service
from tests.factories import gen_member, gen_table
from tests.production.helpers import (
    check_consistency,
    migrated_app,
    next_command,
    seat_table,
    sqlite_only,
)

pytestmark = sqlite_only


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def club(tmp_path):
    """A migrated database with an organizer and two seated tables."""
    app = migrated_app(tmp_path / "club.sqlite")
    with app.app_context():
        organizer = gen_member("organizer")
        organizer_id = organizer.id
        tables = [gen_table().id for _ in range(2)]
        for table_id in tables:
            seat_table(table_id, organizer)
        db.session.remove()
    yield app, organizer_id, tables
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def _write_commands(app, organizer_id: int, tables: list[int], stop: threading.Event, played: list[int]) -> None:
    """Play commands on the tables until ``stop`` (another thread, as a worker would)."""
    rng = random.Random(7)
    with app.app_context():
        while not stop.is_set():
            table_id = rng.choice(tables)
            try:
                actor = db.session.get(Member, organizer_id)
                current = table_states.load_play(table_id)
                commands.play(table_id, current.seq, next_command(current.state, rng), actor)
                played.append(table_id)
            except (base.ServiceError, ValueError):
                db.session.rollback()  # an undo with nothing to undo, and the like
            finally:
                db.session.remove()


def test_backup_taken_while_commands_are_written_is_consistent_and_restores_to_a_working_app(club, tmp_path):
    app, organizer_id, tables = club
    stop, played = threading.Event(), []
    writer = threading.Thread(target=_write_commands, args=(app, organizer_id, tables, stop, played))
    writer.start()
    backups: list[Path] = []
    deadline = time.monotonic() + 120
    try:
        while len(backups) < 5:
            assert writer.is_alive() and time.monotonic() < deadline, f"the writer stopped after {len(played)}"
            if len(played) < 15 * (len(backups) + 1):
                threading.Event().wait(0.01)
                continue
            path = tmp_path / f"backup-{len(backups)}.sqlite"
            result = app.test_cli_runner().invoke(args=["backup", str(path)])
            assert result.exit_code == 0, result.output
            assert "backup written" in result.output
            backups.append(path)
    finally:
        stop.set()
        writer.join(30)
    assert not writer.is_alive()

    # Each copy is a snapshot: whole logs, and a ledger that is exactly their projection.
    counts = []
    for path in backups:
        copy = migrated_app(tmp_path / f"check-{path.stem}.sqlite")
        with copy.app_context():
            db.engine.dispose()
        restore = copy.test_cli_runner().invoke(args=["restore", "--yes", str(path)])
        assert restore.exit_code == 0, restore.output
        counts.append(check_consistency(copy)["events"])
        with copy.app_context():
            db.engine.dispose()
    assert counts == sorted(counts) and counts[-1] > counts[0], counts  # taken while the log grew

    # The last one restored is a working app: a table loads and takes the next command.
    with copy.app_context():
        organizer = db.session.get(Member, organizer_id)
        played_after = table_states.load_play(tables[0])
        commands.play(tables[0], played_after.seq, {"type": "join", "player": "Newcomer"}, organizer)
        assert tables_service.last_seq(tables[0]) == played_after.seq + 1
        db.session.remove()
    check_consistency(copy)
    assert not list(tmp_path.glob(".*partial*")), "a temporary file was left behind"


def test_restore_replaces_the_database_and_keeps_the_replaced_one(club, tmp_path):
    app, organizer_id, tables = club
    backup = tmp_path / "before.sqlite"
    assert app.test_cli_runner().invoke(args=["backup", str(backup)]).exit_code == 0
    with app.app_context():
        organizer = db.session.get(Member, organizer_id)
        for _ in range(3):
            current = table_states.load_play(tables[0])
            commands.play(tables[0], current.seq, {"type": "result", "winner": "box", "kind": "single"}, organizer)
        after_seq = tables_service.last_seq(tables[0])
        db.session.remove()
        db.engine.dispose()
    assert len(caches.cache(table_states.TABLE_STATES, app))  # the states of the replaced database
    assert app.test_client().get("/display").status_code == 200
    assert len(caches.cache("display_screens", app))
    result = app.test_cli_runner().invoke(args=["restore", "--yes", str(backup)])
    assert result.exit_code == 0, result.output
    assert "restored" in result.output and "before-restore" in result.output
    # Nothing cached of the replaced database is served after the restore: every cache is empty.
    assert {name: len(caches.cache(name, app)) for name in caches.CACHES} == dict.fromkeys(caches.CACHES, 0)
    with app.app_context():
        assert tables_service.last_seq(tables[0]) == after_seq - 3
        db.session.remove()
        db.engine.dispose()
    database = sqlite_database(app.config["SQLALCHEMY_DATABASE_URI"])
    kept = check_database(database.with_name(database.name + ".before-restore"))
    assert kept.events == check_database(database).events + 3
    check_consistency(app)


def _not_ours(tmp_path: Path) -> dict[str, Path]:
    """Files that must never be restored."""
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE recipe (id INTEGER PRIMARY KEY, name TEXT)")
    connection.close()
    future = tmp_path / "future.sqlite"
    return {"text": text, "other": other, "missing": tmp_path / "missing.sqlite", "future": future}


def test_restore_refuses_a_file_that_is_not_a_database_of_this_app_and_changes_nothing(club, tmp_path):
    app, _organizer_id, _tables = club
    database = sqlite_database(app.config["SQLALCHEMY_DATABASE_URI"])
    with app.app_context():
        db.engine.dispose()
    files = _not_ours(tmp_path)
    # A copy of our database at a schema revision this code does not know.
    assert app.test_cli_runner().invoke(args=["backup", str(files["future"])]).exit_code == 0
    with sqlite3.connect(files["future"]) as connection:
        connection.execute("UPDATE alembic_version SET version_num = 'ffffffffffff'")
    connection.close()
    before = _digest(database)
    messages = {
        "text": "not a SQLite database of this app",
        "other": "not a database of this app",
        "missing": "no such file",
        "future": "unknown to this version of the app",
    }
    for kind, path in files.items():
        result = app.test_cli_runner().invoke(args=["restore", "--yes", str(path)])
        assert result.exit_code != 0, kind
        assert messages[kind] in result.output, (kind, result.output)
        assert _digest(database) == before, kind
    assert not database.with_name(database.name + ".before-restore").exists()
    assert not list(tmp_path.glob(".*partial*"))


def test_restore_asks_before_replacing_and_a_no_changes_nothing(club, tmp_path):
    app, _organizer_id, _tables = club
    backup = tmp_path / "b.sqlite"
    assert app.test_cli_runner().invoke(args=["backup", str(backup)]).exit_code == 0
    database = sqlite_database(app.config["SQLALCHEMY_DATABASE_URI"])
    with app.app_context():
        db.engine.dispose()
    before = _digest(database)
    result = app.test_cli_runner().invoke(args=["restore", str(backup)], input="n\n")
    assert result.exit_code == 1 and "Stop the app first" in result.output
    assert _digest(database) == before


def test_backup_refuses_to_overwrite_a_file_unless_told(club, tmp_path):
    app, _organizer_id, _tables = club
    target = tmp_path / "b.sqlite"
    target.write_text("keep me")
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code != 0 and "already exists" in result.output
    assert target.read_text() == "keep me"
    result = app.test_cli_runner().invoke(args=["backup", "--overwrite", str(target)])
    assert result.exit_code == 0, result.output
    assert check_database(target).tables == 2


def test_backup_and_restore_name_the_tools_for_another_database():
    with pytest.raises(OpsError, match="pg_dump"):
        sqlite_database("postgresql+psycopg://club@127.0.0.1/chouette")
    with pytest.raises(OpsError, match="SQLite file"):
        sqlite_database("sqlite://")
    assert sqlite_database("sqlite:////srv/club/chouette.sqlite") == Path("/srv/club/chouette.sqlite")
