"""Shared fixtures: the app on a real database, its test client, and signing in (flaskr style).

The database is a fresh SQLite file per test, or the database of ``DATABASE_URL`` when it is
set (the PostgreSQL run), emptied before each test.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing.rules import Rule
from werkzeug.test import TestResponse

from app import create_app
from chouette.extensions import db
from tests.factories import PASSWORD, TEST_HASH


def _share_url_builders() -> None:
    """Build each URL rule's builder once per test run, not once per app.

    The suite makes some 3,000 apps; Werkzeug compiles a Python function for each of the
    app's hundred URL rules every time (``Rule._compile_builder``: an ast, then ``compile``),
    which was two thirds of ``create_app``: 0.44 s against 0.14 s on a busy 2-core machine,
    minutes of the SQLite run. The builder is a function of the rule's text, its parsed parts
    and its defaults alone (it takes the rule as its first argument), so rules equal in those
    share it. Tests only; without the private method (another Werkzeug) nothing changes.
    """
    compile_builder = getattr(Rule, "_compile_builder", None)
    if compile_builder is None:
        return
    built: dict[tuple[Any, ...], Any] = {}

    def shared(self: Rule, append_unknown: bool = True) -> Any:
        key = (self.rule, tuple(self._trace), repr(sorted((self.defaults or {}).items())), append_unknown)
        if key not in built:
            built[key] = compile_builder(self, append_unknown)
        return built[key]

    Rule._compile_builder = shared  # type: ignore[method-assign]


_share_url_builders()


def _database_per_worker() -> None:
    """Under pytest-xdist (``make test`` runs the suites on every core, ``-n auto``), each
    worker process gets a PostgreSQL database of its own beside ``DATABASE_URL``'s (made the
    first time, emptied per test as the shared one is): two workers never empty each other's
    tables. Everything that reads ``DATABASE_URL`` afterwards (apps, servers started by the
    tests) reads the worker's."""
    url, worker = os.environ.get("DATABASE_URL"), os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker or not url.startswith("postgresql"):
        return
    base = sqlalchemy.engine.make_url(url)
    name = f"{base.database}_{worker}"
    engine = sqlalchemy.create_engine(base, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        found = connection.execute(sqlalchemy.text("SELECT 1 FROM pg_database WHERE datname = :name"),
                                   {"name": name}).first()
        if found is None:
            connection.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    os.environ["DATABASE_URL"] = base.set(database=name).render_as_string(hide_password=False)


_database_per_worker()


def make_app(tmp_path: Path, **config: Any) -> Flask:
    """A test app with its own empty database."""
    postgres = os.environ.get("DATABASE_URL")
    if postgres:
        # One shared database, emptied per test, where ids start again at 1 (every cache is
        # the app's own, chouette.caches: nothing of an earlier test's app is served).
        uri = postgres
    else:
        database = tmp_path / "test.sqlite"
        fresh = not database.exists()
        if fresh:
            shutil.copyfile(_sqlite_template(), database)
        uri = f"sqlite:///{database}"
    settings: dict[str, Any] = {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": uri,
        "WTF_CSRF_ENABLED": False,
        "PASSWORD_HASH_METHOD": TEST_HASH,
        # A push stream sends its first message and ends: a test client that reads a whole
        # body (the fuzz tests, the read matrix) is not kept waiting; tests of the streams
        # themselves set a lifetime.
        "PUSH_STREAM_SECONDS": 0.0,
    }
    settings.update(config)
    app = create_app(settings)
    with app.app_context():
        if postgres:
            _empty_postgres()
        elif not fresh:  # a second app on a test's file: emptied as well
            db.drop_all()
            db.create_all()
    return app


@functools.cache
def _sqlite_template() -> Path:
    """An empty database with the models' schema, made once per run and copied for each test
    (a copy costs a millisecond; creating the schema afresh, a tenth of a second)."""
    template = Path(tempfile.mkdtemp(prefix="chouette-template-")) / "empty.sqlite"
    engine = sqlalchemy.create_engine(f"sqlite:///{template}")
    db.metadata.create_all(engine)
    engine.dispose()
    return template


def _empty_postgres() -> None:
    """Empty the shared PostgreSQL database: its tables emptied and their ids started again
    when it holds exactly the models' tables and columns (a TRUNCATE is several times cheaper
    than dropping and creating them); made anew when a test changed its schema (migrations)."""
    expected = {(table.name, column.name) for table in db.metadata.tables.values() for column in table.columns}
    found = set(db.session.execute(sqlalchemy.text(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()")).tuples())
    if found == expected:
        names = ", ".join(f'"{table.name}"' for table in db.metadata.sorted_tables)
        db.session.execute(sqlalchemy.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        db.session.commit()
        return
    db.session.rollback()
    db.drop_all()
    db.session.execute(sqlalchemy.text("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public"))
    db.session.commit()
    db.create_all()


def migrated_to(revision: str = "head") -> None:
    """An empty database built by the package's migrations up to ``revision`` (in the app
    context): what a club's database of that revision is, for a migration's test."""
    from flask_migrate import upgrade

    from chouette.extensions import MIGRATIONS_DIR

    unmigrated()
    upgrade(directory=MIGRATIONS_DIR, revision=revision)


def unmigrated() -> None:
    """No table left, the migrations' record included (in the app context)."""
    db.session.remove()
    db.drop_all()
    with db.engine.begin() as connection:
        connection.execute(sqlalchemy.text("DROP TABLE IF EXISTS alembic_version"))


def dispose(app: Flask) -> None:
    """Close every connection (the next test's app empties a shared database)."""
    with app.app_context():
        db.session.remove()
        for engine in db.engines.values():
            engine.dispose()


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The app with CSRF checks off (most tests post forms directly)."""
    app = make_app(tmp_path)
    yield app
    dispose(app)


@pytest.fixture
def csrf_app(tmp_path: Path) -> Iterator[Flask]:
    """The app with CSRF checks on, as in production."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    yield app
    dispose(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser without JavaScript."""
    return app.test_client()


@pytest.fixture
def htmx() -> dict[str, str]:
    """The headers htmx sends when it asks for a fragment."""
    return {"HX-Request": "true"}


class AuthActions:
    """Sign in and out through the real pages."""

    def __init__(self, client: FlaskClient) -> None:
        self._client = client

    def login(self, username: str, password: str = PASSWORD, next_url: str | None = None) -> TestResponse:
        """Post the sign-in form."""
        data = {"username": username, "password": password}
        if next_url is not None:
            data["next"] = next_url
        return self._client.post("/auth/login", data=data)

    def logout(self) -> TestResponse:
        """Post the sign-out button."""
        return self._client.post("/auth/logout")


@pytest.fixture
def auth(client: FlaskClient) -> AuthActions:
    """Sign the test client in and out."""
    return AuthActions(client)


@pytest.fixture
def login_as(app: Flask, auth: AuthActions):
    """Create a member with ``role`` and sign the test client in as that member."""
    from tests.factories import gen_member

    def sign_in(role: str, **overrides: Any):
        with app.app_context():
            member = gen_member(role, **overrides)
        response = auth.login(member.username)
        assert response.status_code == 303, response.data
        return member

    return sign_in


def csrf_token_from(html: bytes) -> str:
    """The CSRF token a page's form carries."""
    import re

    match = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', html) or re.search(
        rb'name="csrf_token" value="([^"]+)"', html
    )
    assert match, "no CSRF token on the page"
    return match.group(1).decode()


def csrf_client(app: Any, username: str) -> Any:
    """A test client of ``app`` (one that checks CSRF tokens) signed in as ``username`` through
    the login form, its token sent."""
    from tests.factories import PASSWORD

    client = app.test_client()
    token = csrf_token_from(client.get("/auth/login").data)
    client.post("/auth/login", data={"username": username, "password": PASSWORD, "csrf_token": token})
    return client
