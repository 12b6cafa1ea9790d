"""Persistence: migrations match the models; SQLite runs with the settings that lose no write."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from app import create_app
from chouette.cli import upgrade_database
from chouette.extensions import db


def sqlite_only(test):
    """Checks the SQLite file database: marked so the PostgreSQL run deselects it
    (``-m "not sqlite_only"``), and skipped should it run there anyway."""
    skip = pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")), reason="checks the SQLite file database")
    return pytest.mark.sqlite_only(skip(test))


def _sqlite_app(path: Path):
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})


def _empty_database_app(tmp_path: Path):
    """An app on an empty database: a new SQLite file, or DATABASE_URL's emptied."""
    uri = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp_path / 'fresh.sqlite'}"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri})
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as connection:
            connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
    return app


def test_db_upgrade_on_an_empty_database_gives_exactly_the_models(tmp_path):
    app = _empty_database_app(tmp_path)
    with app.app_context():
        upgrade_database()
        with db.engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), db.metadata)
            tables = set(inspect(connection).get_table_names())
        db.session.remove()
        db.drop_all()
        with db.engine.begin() as connection:
            connection.execute(text("DROP TABLE alembic_version"))
        db.engine.dispose()
    assert diff == [], f"migrations and models differ: {diff}"
    assert {"member", "night", "chouette_table", "table_event", "ledger_entry", "payment", "login_failure"} <= tables


@sqlite_only
def test_init_db_command_creates_a_fresh_database(tmp_path):
    path = tmp_path / "cli.sqlite"
    app = _sqlite_app(path)
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    assert "database ready" in result.output
    names = {row[0] for row in sqlite3.connect(path).execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "table_event" in names and "alembic_version" in names
    # Running it again on an up-to-date database changes nothing and succeeds.
    assert app.test_cli_runner().invoke(args=["init-db"]).exit_code == 0


@sqlite_only
def test_sqlite_connections_use_wal_foreign_keys_and_a_busy_timeout(app):
    with app.app_context(), db.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000


@sqlite_only
def test_sqlite_refuses_a_row_pointing_at_a_missing_parent(app):
    with app.app_context():
        with pytest.raises(Exception, match="FOREIGN KEY"):  # noqa: PT012 (refused at the insert or the commit)
            db.session.execute(
                text("INSERT INTO chouette_table (night_id, name, settings, created_at) VALUES (999, 'x', '{}', '2026-01-01')")
            )
            db.session.commit()
        db.session.rollback()


@sqlite_only
def test_every_sqlite_transaction_takes_the_write_lock_at_begin(app):
    """A second transaction cannot even start (BEGIN IMMEDIATE) while the first is open,
    so no read-modify-write can interleave with another."""
    with app.app_context():
        engine = db.engine
        first = engine.connect()
        first.begin()
        first.exec_driver_sql("SELECT 1")
        started = threading.Event()
        outcome: list[str] = []

        def second() -> None:
            raw = sqlite3.connect(engine.url.database, timeout=0.2, isolation_level=None)
            started.set()
            try:
                raw.execute("BEGIN IMMEDIATE")
                outcome.append("got the lock")
                raw.execute("ROLLBACK")
            except sqlite3.OperationalError as error:
                outcome.append(str(error))
            finally:
                raw.close()

        thread = threading.Thread(target=second)
        thread.start()
        thread.join(5)
        first.rollback()
        first.close()
    assert started.is_set()
    assert outcome == ["database is locked"]


def test_payments_are_positive_cents_by_a_known_method(app):
    from chouette.models import Payment
    from tests.factories import gen_night, save

    with app.app_context():
        night = gen_night()
        save(Payment(night_id=night.id, payer="Ann", payee="Bob", cents=250, method="cash"))
        for bad in ({"cents": 0}, {"cents": -5}, {"method": "bitcoin"}):
            values = {"night_id": night.id, "payer": "Ann", "payee": "Bob", "cents": 100, "method": "iou", **bad}
            with pytest.raises(Exception, match=r"(?i)check constraint"):
                save(Payment(**values))
            db.session.rollback()


def test_a_member_role_outside_the_three_roles_is_refused_by_the_database(app):
    from chouette.models import Member
    from tests.factories import save

    with app.app_context():
        with pytest.raises(Exception, match=r"(?i)check constraint"):
            save(Member(name="X", username="x", password_hash="h", role="emperor"))
        db.session.rollback()


@sqlite_only
def test_a_read_only_transaction_does_not_hold_the_write_lock(app):
    from chouette.extensions import read_only

    with app.app_context():
        read_only()
        db.session.execute(text("SELECT count(*) FROM member")).scalar()
        raw = sqlite3.connect(db.engine.url.database, timeout=0.2, isolation_level=None)
        try:
            raw.execute("BEGIN IMMEDIATE")  # a writer gets the lock while the reader is open
            raw.execute("ROLLBACK")
        finally:
            raw.close()
        db.session.rollback()
        # Without the mark, the next transaction takes the lock again.
        db.session.execute(text("SELECT 1"))
        raw = sqlite3.connect(db.engine.url.database, timeout=0.2, isolation_level=None)
        try:
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                raw.execute("BEGIN IMMEDIATE")
        finally:
            raw.close()
        db.session.rollback()


@sqlite_only
def test_flask_db_upgrade_builds_a_fresh_database_from_the_package_migrations(tmp_path):
    path = tmp_path / "db-upgrade.sqlite"
    app = _sqlite_app(path)
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(path) as connection:
        version = connection.execute("SELECT version_num FROM alembic_version").fetchone()[0]
        triggers = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='trigger'")}
    with app.app_context():
        db.engine.dispose()
    from alembic.script import ScriptDirectory

    from chouette.extensions import MIGRATIONS_DIR

    assert version == ScriptDirectory(MIGRATIONS_DIR).get_current_head()
    assert triggers == {"table_event_no_update", "table_event_no_delete"}


@sqlite_only
def test_a_signed_in_get_reads_while_a_writer_holds_the_lock(app, client):
    """Every GET starts as a reader: loading the member never waits for SQLite's write lock,
    so the phones fetching a pushed table do not queue behind a command (or block it)."""
    from tests.factories import PASSWORD, gen_member, gen_night

    with app.app_context():
        member = gen_member("player", name="Pia")
        night_id = gen_night().id
        path = db.engine.url.database
    assert client.post("/auth/login", data={"username": member.username, "password": PASSWORD}).status_code == 303
    writer = sqlite3.connect(path, timeout=0.2, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")  # a command in the middle of its transaction
        for url in ("/", "/account", f"/nights/{night_id}", "/players/"):
            assert client.get(url).status_code == 200, url
        writer.execute("ROLLBACK")
    finally:
        writer.close()
