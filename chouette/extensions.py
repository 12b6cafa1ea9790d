"""Flask extensions, created unbound here and bound to the app in ``init_app``.

SQLite gets the treatment measured (docs/performance.md 5) as the only one that loses no update under two
workers: WAL, a busy timeout, foreign keys on, the driver's implicit transactions off, and
``BEGIN IMMEDIATE`` at the start of every writer's transaction, so a writer takes the lock
before it reads what it is about to change.

Readers and writers: every request starts as a reader (``start_reading``) and writes only
inside ``services.base.writing()`` (``start_writer``, ``stop_writer``); a flush or a write
statement outside it in a reader is refused (``_writes_only_in_writing``). Scripts and workers
outside a request begin as writers.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from flask import Flask, current_app, g, has_app_context, has_request_context, request
from flask_babel import Babel
from flask_login import LoginManager, current_user
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData, event, exc
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import DeclarativeBase, ORMExecuteState, Session

from chouette import caches
from chouette.config import compile_translations

log = logging.getLogger(__name__)

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
    cursor.close()


#: Execution option that marks a transaction as read-only (see ``read_only``).
READ_ONLY = "chouette_read_only"


def _sqlite_on_begin(connection: Connection) -> None:
    """Start every transaction with the write lock, so no read-modify-write is ever lost.

    A transaction marked read-only starts deferred: in WAL mode it neither waits for nor
    blocks the writers (for the pages polled by many screens).
    """
    if connection.get_execution_options().get(READ_ONLY):
        connection.exec_driver_sql("BEGIN DEFERRED")
        return
    connection.exec_driver_sql("BEGIN IMMEDIATE")


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
        return  # a reader already (start_reading), or a writer that stays one
    options: dict[str, Any] = {READ_ONLY: True}
    if alone and session.get_bind().dialect.name == "postgresql":
        options["isolation_level"] = "AUTOCOMMIT"
    session.connection(execution_options=options)


#: Endpoints that touch no database at all (no transaction is begun for them).
NO_DATABASE = frozenset({"static", "health", "favicon"})

#: In a session's ``info``: the session reads between its writes (every request's session,
#: ``start_reading``); it is inside ``services.base.writing()``; that write wrote something.
READING, WRITING, WROTE = "chouette_reading", "chouette_writing", "chouette_wrote"
#: In a session's ``info`` inside ``writing()``: it reads as a reader again afterwards.
RESUME = "chouette_resume_reading"


def start_reading() -> None:
    """Before every request, GET or POST: its session reads as a reader from its first query,
    so loading the signed-in member, the table and the rules' verdict take no write lock,
    and the phones fetching a pushed table never queue behind (or ahead of) a command. It
    writes only inside ``services.base.writing()``, which takes the lock for the few
    statements that write and gives the request back to reading afterwards; a flush outside
    it is refused (``_writes_only_in_writing``)."""
    if request.endpoint in NO_DATABASE:
        return
    db.session().info[READING] = True
    read_only(alone=True)


def stop_reading(_error: BaseException | None = None) -> None:
    """After every request: its session is no reader any more (a test's code that shares
    the app context goes on writing as scripts do)."""
    db.session().info.pop(READING, None)


def _in_reader(session: Session) -> bool:
    return session.in_transaction() and bool(session.connection().get_execution_options().get(READ_ONLY))


def start_writer(session: Session) -> None:
    """``writing()``'s start: end a reader's transaction (what it read is read again as it is
    used), then begin the writer's: on SQLite ``BEGIN IMMEDIATE``
    (``_sqlite_on_begin``), on PostgreSQL an ordinary transaction. A writer's
    transaction already begun (a script's) goes on."""
    was_reading = _in_reader(session)
    if was_reading:
        if session.new or session.dirty or session.deleted:
            raise RuntimeError("A reader has writes pending: write inside services.base.writing()")
        _end_reader(session)
    session.info[WRITING], session.info[WROTE] = True, False
    session.info[RESUME] = was_reading or bool(session.info.get(READING))
    session.connection()


def _end_reader(session: Session) -> None:
    """End a reader's transaction before a write: what it loaded is read again as it is used,
    but for the signed-in member (loaded at the request's start: a command's actor, read
    again would be one more round trip for every command, and as fresh as a reader's)."""
    expire = session.expire_on_commit
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = expire
    if not expire:
        return
    signed_in = g.get("_login_user") if has_request_context() else None  # flask-login's, loaded
    for instance in list(session.identity_map.values()):
        if instance is not signed_in:
            session.expire(instance)


def stop_writer(session: Session) -> bool:
    """``writing()``'s end, after its commit or rollback: a session that was reading (every
    request's) reads as a reader again. True when the write wrote something."""
    session.info.pop(WRITING, None)
    wrote = bool(session.info.pop(WROTE, False))
    if session.info.pop(RESUME, False):
        read_only(alone=True)
    return wrote


def _refuse_outside_writing(session: Session) -> None:
    """A write: noted inside ``writing()``; refused in a reader's session or transaction."""
    if session.info.get(WRITING):
        session.info[WROTE] = True
    elif session.info.get(READING) or _in_reader(session):
        raise RuntimeError("A write outside services.base.writing(): a request (and any reader) "
                           "writes only inside `with writing():`")


def _writes_only_in_writing(session: Session, _context: Any, _instances: Any) -> None:
    """Every flush: a request's session writes only inside ``writing()`` (on SQLite a reader
    that writes fails as busy under load; on PostgreSQL a reader reading each statement
    alone would write each row in a transaction of its own)."""
    if session.new or session.dirty or session.deleted:
        _refuse_outside_writing(session)


def _statements_only_in_writing(state: ORMExecuteState) -> None:
    """The same for the statements that write without a flush (insert, update, delete)."""
    if state.is_insert or state.is_update or state.is_delete:
        _refuse_outside_writing(state.session)


#: The PostgreSQL channel a commit is announced on (``announce``; ``push`` listens to it).
PUSH_CHANNEL = "chouette_push"


def announce() -> None:
    """Tell the pages that something they show may have moved: ``NOTIFY chouette_push`` on
    PostgreSQL (on a connection of its own, outside any transaction: every node's push hub
    hears it), and this process's hub woken (``push.Hub.poke``). ``services.base.writing()``
    calls it after each commit that wrote. A notification that cannot be sent is brought by
    the hubs' next read (``push.FALLBACK_SECONDS``); an app without a hub: nothing to wake."""
    if not has_app_context():
        return
    hub = current_app.extensions.get("chouette_push")
    try:
        engine = db.engine
        if engine.dialect.name == "postgresql":
            with engine.connect() as connection:
                connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql(
                    f"NOTIFY {PUSH_CHANNEL}")
    except Exception:
        log.exception("push: the notification after a commit failed")
    finally:
        if hub is not None:
            hub.poke()


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
    """The member's language if they chose one, else the browser's best match."""
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
    app.before_request(start_reading)
    app.teardown_request(stop_reading)
    if not event.contains(Session, "before_flush", _writes_only_in_writing):
        event.listen(Session, "before_flush", _writes_only_in_writing)
        event.listen(Session, "do_orm_execute", _statements_only_in_writing)
    login.init_app(app)
    login.login_view = "auth.login"
    login.login_message_category = "info"
    # "basic", not "strong": a phone hopping from the club's wifi to mobile data changes its
    # address, and must not be signed out mid-night. Fixation is handled at sign-in instead.
    login.session_protection = "basic"
