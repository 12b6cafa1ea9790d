"""The files that hold the club's password hashes and money are readable by the app's user only
(issue 12, finding 10): the instance folder is created 0700, the SQLite database (and the
write-ahead log beside it), the secret key, backups, a restored database and the database it
replaced are created 0600, whatever the umask. Before, they were created 0644 (0755 the
folder): anyone with an account on the server could copy them.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import text

from app import create_app
from chouette.extensions import db
from chouette.ops import backup, restore

pytestmark = pytest.mark.sqlite_only


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def open_umask():
    """The loosest umask a server may have: files 0666 and folders 0777 unless the app says."""
    old = os.umask(0)
    yield
    os.umask(old)


def _app_in(instance: Path, monkeypatch):
    """The app with ``instance`` as its instance folder (Flask's own default otherwise: the
    folder beside app.py)."""
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda self: str(instance))
    return create_app({"TESTING": False})


@pytest.fixture
def fresh_app(tmp_path, monkeypatch, open_umask):
    """The app as on a fresh machine: a new instance folder, no SECRET_KEY, no DATABASE_URL,
    the database built by ``flask init-db``."""
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    instance = tmp_path / "instance"
    app = _app_in(instance, monkeypatch)
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    yield app, instance
    with app.app_context():
        for engine in db.engines.values():
            engine.dispose()


def test_the_instance_folder_database_wal_and_secret_key_are_private(fresh_app):
    app, instance = fresh_app
    database = instance / "chouette.sqlite"
    with app.app_context():  # a write: the write-ahead log and its index appear beside it
        db.session.execute(text("INSERT INTO night (name, date, currency, opened_at) "
                                "VALUES ('N', '2026-11-21', 'EUR', '2026-11-21 20:00:00')"))
        db.session.commit()
        assert (instance / "chouette.sqlite-wal").exists()
        modes = {path.name: _mode(path) for path in instance.iterdir() if path.is_file()}
    assert _mode(instance) == 0o700
    assert modes["chouette.sqlite"] == modes["chouette.sqlite-wal"] == modes["secret_key"] == 0o600
    assert {name: mode for name, mode in modes.items() if mode & 0o077} == {}
    assert database.exists()


def test_an_existing_instance_folder_is_made_private_at_start(tmp_path, monkeypatch, open_umask):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    instance = tmp_path / "instance"
    instance.mkdir(mode=0o755)
    os.chmod(instance, 0o755)
    app = _app_in(instance, monkeypatch)
    assert _mode(instance) == 0o700
    with app.app_context():
        db.engine.dispose()


def test_backups_restores_and_the_replaced_database_are_private(fresh_app, tmp_path):
    app, instance = fresh_app
    database = instance / "chouette.sqlite"
    with app.app_context():
        db.engine.dispose()
    folder = tmp_path / "backups" / "chouette"
    copy = backup(database, folder / "night.sqlite")
    assert _mode(copy.path) == 0o600
    assert _mode(folder) == 0o700  # the folder the backup command created
    again = backup(database, folder / "night.sqlite", overwrite=True)
    assert _mode(again.path) == 0o600
    os.chmod(copy.path, 0o644)  # a backup copied back by hand, loosely
    restore(copy.path, database)
    assert _mode(database) == 0o600
    assert _mode(database.with_name("chouette.sqlite.before-restore")) == 0o600


def test_the_backup_command_writes_a_private_file(fresh_app, tmp_path):
    app, _instance = fresh_app
    target = tmp_path / "out" / "b.sqlite"
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert _mode(target) == 0o600


def test_a_new_database_named_by_database_url_is_private_too(tmp_path, monkeypatch, open_umask):
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    database = folder / "club.sqlite"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    app = _app_in(tmp_path / "instance", monkeypatch)
    assert app.test_cli_runner().invoke(args=["init-db"]).exit_code == 0
    assert _mode(database) == 0o600
    with app.app_context():
        db.engine.dispose()
