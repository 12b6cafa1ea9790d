"""Operations on the SQLite database: a consistent backup while the app runs, and a restore
that never leaves a half-written database.

Backup uses SQLite's online backup API (``sqlite3.Connection.backup``) in a single step: it
reads one snapshot of the database, so a command being written by a worker at the same moment
is either wholly in the copy or not at all, and in WAL mode the writers are not stopped.
The copy goes to a temporary file beside the target, is checked, and is then renamed over it.

Restore checks that the file is a database of this app (SQLite, intact, with this app's
migration table at a revision this code knows and its tables), copies it beside the live
database, checks the copy, and renames it over the live file: the rename is atomic, so the
database is either the old one or the restored one. The database it replaces is first saved
beside it (``<name>.before-restore``). The app must be stopped during a restore.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy.engine import make_url

from chouette.config import private_file, private_folder

#: Tables every database of this app has (a file without them is not ours).
REQUIRED_TABLES = frozenset({"alembic_version", "member", "night", "chouette_table", "table_event",
                             "ledger_entry", "payment"})


class OpsError(Exception):
    """A backup or restore refused: the message says why; nothing was changed."""


@dataclass(frozen=True)
class DatabaseSummary:
    """What a checked database file holds."""

    path: Path
    revision: str
    members: int
    tables: int
    events: int

    def describe(self) -> str:
        """One line for the console."""
        return (f"{self.path}: revision {self.revision}, {self.members} members, "
                f"{self.tables} tables, {self.events} table events")


def sqlite_database(url: str) -> Path:
    """The file of a SQLite database URL. Raises OpsError for any other database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        raise OpsError(
            f"backup and restore work on the SQLite file database; this app uses "
            f"{parsed.get_backend_name()} (use that server's own tools, e.g. pg_dump and pg_restore)"
        )
    return Path(parsed.database)


def known_revisions() -> set[str]:
    """Every migration revision of this code base."""
    from alembic.script import ScriptDirectory

    from chouette.extensions import MIGRATIONS_DIR

    return {script.revision for script in ScriptDirectory(MIGRATIONS_DIR).walk_revisions()}


def check_database(path: Path) -> DatabaseSummary:
    """Check that ``path`` is an intact database of this app. Raises OpsError saying why not."""
    if not path.is_file():
        raise OpsError(f"{path}: no such file")
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise OpsError(f"{path}: cannot be opened ({error})") from error
    try:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        integrity = connection.execute("PRAGMA integrity_check").fetchone()[0]
        if integrity != "ok":
            raise OpsError(f"{path}: the database is damaged ({integrity})")
        missing = REQUIRED_TABLES - tables
        if missing:
            raise OpsError(f"{path}: not a database of this app (no {', '.join(sorted(missing))} table)")
        revision = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        if revision is None or revision[0] not in known_revisions():
            raise OpsError(f"{path}: its schema revision {revision and revision[0]!r} is unknown to this version of the app")
        count = {name: connection.execute(f"SELECT count(*) FROM {name}").fetchone()[0]
                 for name in ("member", "chouette_table", "table_event")}
    except sqlite3.DatabaseError as error:
        raise OpsError(f"{path}: not a SQLite database of this app ({error})") from error
    finally:
        connection.close()
    return DatabaseSummary(path, revision[0], count["member"], count["chouette_table"], count["table_event"])


def _copy(source: Path, target: Path) -> None:
    """Copy one consistent snapshot of ``source`` into the new file ``target`` (backup API).

    The copy is a self-contained file (rollback journal, no WAL beside it).
    """
    reader = sqlite3.connect(source, timeout=30)
    private_file(target)  # the club's password hashes and money: for the app's user only
    os.chmod(target, 0o600)
    writer = sqlite3.connect(target)
    try:
        reader.backup(writer, pages=-1)  # one step: one snapshot, whatever is being written
        writer.execute("PRAGMA journal_mode=DELETE")
        writer.commit()
    finally:
        writer.close()
        reader.close()


def _temporary_beside(target: Path) -> Path:
    """A fresh temporary name in ``target``'s folder (so the final rename is atomic)."""
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    partial.unlink(missing_ok=True)
    return partial


@contextmanager
def _checked_copy(source: Path, target: Path) -> Iterator[tuple[Path, DatabaseSummary]]:
    """A copy of ``source`` in a temporary file beside ``target`` (its folder made, private, if
    missing), checked: the temporary file and its summary. The file is gone afterwards unless
    it was renamed into place."""
    if not target.parent.exists():
        private_folder(target.parent)
    partial = _temporary_beside(target)
    try:
        _copy(source, partial)
        yield partial, check_database(partial)
    finally:
        partial.unlink(missing_ok=True)


def backup(database: Path, target: Path, *, overwrite: bool = False) -> DatabaseSummary:
    """Write a consistent copy of ``database`` to ``target``, checked. Raises OpsError."""
    database, target = Path(database), Path(target)
    check_database(database)
    if target.exists() and not overwrite:
        raise OpsError(f"{target} already exists (choose another name, or pass --overwrite)")
    if target.resolve() == database.resolve():
        raise OpsError("the backup cannot be the database itself")
    with _checked_copy(database, target) as (partial, summary):
        os.replace(partial, target)
    return replace(summary, path=target)


def restore(source: Path, database: Path) -> DatabaseSummary:
    """Replace ``database`` with the backup ``source``, all or nothing. Raises OpsError.

    The replaced database is kept beside it as ``<name>.before-restore``.
    """
    source, database = Path(source), Path(database)
    check_database(source)
    if database.exists() and source.resolve() == database.resolve():
        raise OpsError("the backup to restore is the database itself")
    with _checked_copy(source, database) as (partial, summary):
        if database.exists():
            _copy(database, database.with_name(database.name + ".before-restore"))
            # Fold the old database's write-ahead log into it, so no stale log is left to be
            # replayed over the restored file.
            old = sqlite3.connect(database, timeout=30)
            try:
                old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                old.close()
        os.replace(partial, database)
        for leftover in ("-wal", "-shm"):
            Path(str(database) + leftover).unlink(missing_ok=True)
    return replace(summary, path=database)


# --------------------------------------------------------------------------- flask commands


def _app_database() -> Path:
    """The current app's SQLite file. Raises click.ClickException for another database."""
    try:
        return sqlite_database(current_app.config["SQLALCHEMY_DATABASE_URI"])
    except OpsError as error:
        raise click.ClickException(str(error)) from error


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--overwrite", is_flag=True, help="Replace PATH if it already exists.")
@with_appcontext
def backup_command(path: Path, overwrite: bool) -> None:
    """Write a consistent copy of the SQLite database to PATH (safe while the app runs)."""
    try:
        summary = backup(_app_database(), path, overwrite=overwrite)
    except OpsError as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"backup written: {summary.describe()}")


@click.command("restore")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@with_appcontext
def restore_command(path: Path, yes: bool) -> None:
    """Replace the SQLite database with the backup in PATH (stop the app first)."""
    database = _app_database()
    try:
        summary = check_database(path)
    except OpsError as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"backup found: {summary.describe()}")
    if not yes:
        click.confirm(f"Stop the app first. Replace {database} with it?", abort=True)
    from chouette.extensions import db

    for engine in db.engines.values():
        engine.dispose()
    try:
        restored = restore(path, database)
    except OpsError as error:
        raise click.ClickException(str(error)) from error
    from chouette import caches

    # Folded states and drawn tables cached in this process belong to the old database.
    caches.clear_all()
    kept = database.with_name(database.name + ".before-restore")
    click.echo(f"restored: {restored.describe()}")
    if kept.exists():
        click.echo(f"the replaced database is kept in {kept}")
