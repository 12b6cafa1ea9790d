"""Flask extensions, created unbound here and bound to the app in ``init_app``.

SQLite gets the treatment measured (docs/performance.md 5) as the only one that loses no update under two
workers: WAL, a busy timeout, foreign keys on, the driver's implicit transactions off, and
``BEGIN IMMEDIATE`` at the start of every transaction, so a writer takes the lock before it
reads what it is about to change.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from flask import Flask, has_request_context, request
from flask_babel import Babel
from flask_login import LoginManager, current_user
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData, event, exc
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import DeclarativeBase, Session

from chouette import caches
from chouette.config import compile_translations
from chouette.sqlite_writers import QueuedConnection, queue_for

#: Alembic's folder lives inside the package so the repository's top level stays small.
MIGRATIONS_DIR = str(Path(__file__).resolve().parent / "migrations")

#: SQLite waits this long for the write lock before giving up ("database is locked").
SQLITE_BUSY_TIMEOUT_MS = 10_000


class Base(DeclarativeBase):
    """Declarative base of every model; constraint names are stable for migrations."""

    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(column_0_label)s",
            "uq": "uq_%(table_name)s_%(column_0_N_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
login = LoginManager()
csrf = CSRFProtect()
babel = Babel()


def _sqlite_on_connect(dbapi_connection: Any, connection_record: Any) -> None:
    """Per new SQLite connection: no implicit transactions, WAL, foreign keys, busy timeout."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA synchronous=NORMAL")
    if isinstance(dbapi_connection, QueuedConnection):
        path = next((row[2] for row in cursor.execute("PRAGMA database_list") if row[1] == "main"), "")
        dbapi_connection.queue = queue_for(path)
    cursor.close()


#: Execution option that marks a transaction as read-only (see ``read_only``).
READ_ONLY = "chouette_read_only"


def _sqlite_on_begin(connection: Connection) -> None:
    """Start every transaction with the write lock, so no read-modify-write is ever lost.

    A transaction marked read-only starts deferred: in WAL mode it neither waits for nor
    blocks the writers (for the pages polled by many screens). A writer first takes its turn
    in the machine's queue of writers (``sqlite_writers``), so it is woken the moment the
    writer before it commits instead of sleeping in SQLite's busy handler.
    """
    if connection.get_execution_options().get(READ_ONLY):
        connection.exec_driver_sql("BEGIN DEFERRED")
        return
    dbapi_connection = connection.connection.dbapi_connection
    queued = dbapi_connection if isinstance(dbapi_connection, QueuedConnection) else None
    if queued is not None:
        queued.take_turn()  # the machine's writers one at a time (sqlite_writers)
    try:
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    except BaseException:
        if queued is not None:
            queued.let_go()
        raise


def read_only(*, alone: bool = False) -> None:
    """Start the current session's transaction as a reader: call it before the first query.

    It must then only read (on SQLite a deferred transaction that writes may fail as busy).
    Has no effect once the transaction has begun.

    ``alone``: on PostgreSQL each statement is read on its own, outside any transaction
    (autocommit): a page's two or three queries without the ``BEGIN`` and the ``ROLLBACK``
    around them, two round trips to the server of four. For what reads to draw a page, where
    each query reads committed rows as they are then. No effect on SQLite (its readers
    take no lock and cost no round trip).
    """
    session = db.session()
    if session.in_transaction():
        return  # a reader already (readers_never_lock), or a writer that stays one
    options: dict[str, Any] = {READ_ONLY: True}
    if alone and session.get_bind().dialect.name == "postgresql":
        options["isolation_level"] = "AUTOCOMMIT"
    session.connection(execution_options=options)


#: Requests that only read: their transaction never takes SQLite's write lock.
READING_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: Endpoints that touch no database at all (no transaction is begun for them).
NO_DATABASE = frozenset({"static", "health", "favicon"})


#: Blueprints whose writes are optimistic (see ``reads_first``).
READS_FIRST: set[str] = set()


def reads_first(blueprint_name: str) -> None:
    """Let the POSTs of a blueprint read as readers and take the write lock only to write.

    For the table commands: everything they read (the member, the table's state, the rules'
    verdict) is read without the lock, and ``services.append_events`` takes it (``begin_writing``)
    for the few statements that write, where the table's seq is checked again: a command that
    was overtaken is refused as stale (TableChanged), never written on an old state. So a
    command holds SQLite's write lock for milliseconds, not for the whole request. Every write
    of such a blueprint must go through ``begin_writing`` first.
    """
    READS_FIRST.add(blueprint_name)


def readers_never_lock() -> None:
    """Before every request that only reads (GET, HEAD): its transaction starts as a reader,
    so loading the signed-in member does not take SQLite's write lock, and the phones
    fetching a pushed table never queue behind (or ahead of) a command. A view that must
    write on a GET ends the reader first (``db.session.commit()``), as ``store_facts`` does;
    writers (POST) keep ``BEGIN IMMEDIATE``, but those of a ``reads_first`` blueprint."""
    if request.endpoint in NO_DATABASE:
        return
    if request.method in READING_METHODS:
        read_only(alone=True)
    elif request.blueprint in READS_FIRST:
        read_only()


def begin_writing() -> None:
    """End a reader's transaction (``read_only``) so that what follows writes in a new one,
    which on SQLite begins with the write lock (``BEGIN IMMEDIATE``). What was read must be
    checked again in the new transaction; loaded objects are read again as they are used.
    Nothing to do in a writer's transaction. On PostgreSQL a reader reading each statement
    alone (``read_only(alone=True)``) is ended the same way; a ``reads_first`` request's
    reads there are an ordinary transaction, which goes on and writes."""
    if not db.session().in_transaction():
        return
    connection = db.session.connection()
    options = connection.get_execution_options()
    if not options.get(READ_ONLY) or (connection.dialect.name != "sqlite"
                                      and options.get("isolation_level") != "AUTOCOMMIT"):
        return
    if db.session.new or db.session.dirty or db.session.deleted:
        raise RuntimeError("a reader's transaction has writes pending: it must not write")
    db.session.commit()


def end_writing() -> None:
    """After the write of a ``reads_first`` request (committed or rolled back), what the
    request reads next (its answer's drawing) begins as a reader again: a new transaction
    would otherwise begin with SQLite's write lock and hold it while the page is drawn (on
    PostgreSQL, each statement alone: no transaction to begin and end)."""
    if (has_request_context() and request.blueprint in READS_FIRST
            and not db.session().in_transaction()):
        read_only(alone=True)


def _readers_never_write(session: Any, _context: Any, _instances: Any) -> None:
    """A flush in a reader's transaction that reads each statement alone (autocommit) would
    write each row in a transaction of its own: refused (the view must ``commit()`` the
    reader first, as on SQLite; ``begin_writing`` does it for the commands)."""
    if not (session.new or session.dirty or session.deleted) or not session.in_transaction():
        return
    options = session.connection().get_execution_options()
    if options.get(READ_ONLY) and options.get("isolation_level") == "AUTOCOMMIT":
        raise RuntimeError("a reader reading each statement alone must not write: commit() it first")


def harden_sqlite(engine: Engine) -> None:
    """Install the SQLite connection and transaction hooks on ``engine`` (once)."""
    if engine.dialect.name != "sqlite" or event.contains(engine, "begin", _sqlite_on_begin):
        return
    event.listen(engine, "connect", _sqlite_on_connect)
    event.listen(engine, "begin", _sqlite_on_begin)


#: A pooled PostgreSQL connection that has waited in the pool longer than this (seconds) is
#: tested before it is used again (``ping_when_idle``).
PING_IDLE_SECONDS = 1.0


def ping_when_idle(engine: Engine) -> None:
    """Test a PostgreSQL connection before use only when it has waited in the pool (once).

    SQLAlchemy's ``pool_pre_ping`` tests every connection at every checkout: one more round
    trip for every request, every phone's fetch after a push included, while the pool's
    connections are rarely idle for more than milliseconds. A server that restarts drops them
    all, and a restart takes seconds: the connections idle that long are the ones tested,
    as SQLAlchemy tests them; a dead one is replaced before the request sees it. One used a
    moment before the server went away fails its first statement, and SQLAlchemy then renews
    the whole pool (a disconnect invalidates every older connection)."""
    if engine.dialect.name != "postgresql" or event.contains(engine, "checkout", _ping_if_idle):
        return
    event.listen(engine, "checkin", _note_checkin)
    event.listen(engine, "checkout", _ping_if_idle)


def _note_checkin(dbapi_connection: Any, record: Any) -> None:
    record.info["chouette_idle_since"] = time.monotonic()


def _ping_if_idle(dbapi_connection: Any, record: Any, proxy: Any) -> None:
    since = record.info.get("chouette_idle_since")
    if since is not None and time.monotonic() - since < PING_IDLE_SECONDS:
        return
    try:  # SQLAlchemy's own test (``pool_pre_ping``): a SELECT 1
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("SELECT 1")
        finally:
            cursor.close()
        # Out of the transaction the test began: the request may read each statement alone
        # (``read_only(alone=True)``), which only a connection outside a transaction can.
        dbapi_connection.rollback()
    except Exception as error:  # the server went away: the pool opens a new connection
        raise exc.DisconnectionError() from error


def select_locale() -> str | None:
    """The member's language if he chose one, else the browser's best match."""
    languages = ("en", "it")
    if not has_request_context():
        return None
    if current_user and current_user.is_authenticated and current_user.locale in languages:
        return str(current_user.locale)
    return request.accept_languages.best_match(languages)


def init_app(app: Flask) -> None:
    """Bind every extension to ``app``."""
    caches.init_app(app)
    db.init_app(app)
    with app.app_context():
        for engine in db.engines.values():
            harden_sqlite(engine)
            ping_when_idle(engine)
    migrate.init_app(app, db, directory=MIGRATIONS_DIR, render_as_batch=True, compare_type=True)
    csrf.init_app(app)
    compile_translations()
    babel.init_app(app, locale_selector=select_locale)
    app.before_request(readers_never_lock)
    if not event.contains(Session, "before_flush", _readers_never_write):
        event.listen(Session, "before_flush", _readers_never_write)
    login.init_app(app)
    login.login_view = "auth.login"
    login.login_message_category = "info"
    # "basic", not "strong": a phone hopping from the club's wifi to mobile data changes its
    # address, and must not be signed out mid-night. Fixation is handled at sign-in instead.
    login.session_protection = "basic"
