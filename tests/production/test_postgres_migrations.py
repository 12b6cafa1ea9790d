"""``flask --app app db upgrade`` on an empty database gives exactly the models' schema, with the
table log append-only in the database itself; ``db downgrade base`` undoes it all.

Runs on the database of ``DATABASE_URL`` (PostgreSQL in the PostgreSQL run of ``make test``)
and on a new SQLite file otherwise, so both databases the app supports are proven.
"""

from __future__ import annotations

import os

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from app import create_app
from chouette.extensions import MIGRATIONS_DIR, db
from tests.factories import gen_event, gen_table


@pytest.fixture
def empty_app(tmp_path):
    """An app on an empty database (DATABASE_URL's, emptied; or a new SQLite file)."""
    uri = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp_path / 'empty.sqlite'}"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri})

    def empty() -> None:
        with app.app_context():
            db.session.remove()
            db.drop_all()
            with db.engine.begin() as connection:
                connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
                if connection.dialect.name == "postgresql":
                    connection.execute(text("DROP FUNCTION IF EXISTS table_event_append_only() CASCADE"))

    empty()
    yield app
    empty()
    with app.app_context():
        db.engine.dispose()


def _flask(app, *args: str) -> None:
    result = app.test_cli_runner().invoke(args=list(args))
    assert result.exit_code == 0, (args, result.output, result.exception)


def test_flask_db_upgrade_builds_the_models_schema_with_an_append_only_log(empty_app):
    _flask(empty_app, "db", "upgrade")
    with empty_app.app_context():
        with db.engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), db.metadata)
            version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
        assert diff == [], f"the migrations and the models differ on {db.engine.dialect.name}: {diff}"
        assert version == ScriptDirectory(MIGRATIONS_DIR).get_current_head()
        # The database itself refuses to rewrite or delete the log.
        event = gen_event(gen_table(), 1)
        for statement in (f"UPDATE table_event SET type = 'undo' WHERE id = {event.id}",
                          f"DELETE FROM table_event WHERE id = {event.id}"):
            with pytest.raises(Exception, match="append-only"):
                db.session.execute(text(statement))
            db.session.rollback()
        db.session.remove()


def test_flask_db_downgrade_to_base_then_upgrade_again(empty_app):
    _flask(empty_app, "db", "upgrade")
    _flask(empty_app, "db", "downgrade", "base")
    with empty_app.app_context():
        with db.engine.connect() as connection:
            left = set(inspect(connection).get_table_names()) - {"alembic_version"}
        assert left == set()
    _flask(empty_app, "db", "upgrade")
    with empty_app.app_context(), db.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []
