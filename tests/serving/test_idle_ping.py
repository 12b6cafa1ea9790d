"""PostgreSQL's pooled connections are tested when they have waited in the pool, not at every
checkout (``extensions.ping_when_idle``): a server that dropped them (a restart) costs no
request, and a busy pool pays no test query per request."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import create_engine, text

from chouette import extensions
from chouette.extensions import db

pytestmark = pytest.mark.postgres_only


def _drop_the_apps_connections(app) -> int:
    """What a server restart does to the pool: every other connection of the database ends."""
    with app.app_context():
        url = db.engine.url
    killer = create_engine(url.set(query={}), poolclass=None)
    try:
        with killer.connect() as connection:
            return len(connection.execute(text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                "AND backend_type = 'client backend'")).all())
    finally:
        killer.dispose()


def test_a_connection_dropped_while_idle_is_replaced_before_the_request_sees_it(app, client, monkeypatch):
    monkeypatch.setattr(extensions, "PING_IDLE_SECONDS", 0.2)
    assert client.get("/display").status_code == 200
    assert _drop_the_apps_connections(app) >= 1
    time.sleep(0.3)  # idle longer than PING_IDLE_SECONDS: tested at checkout, found dead
    assert client.get("/display").status_code == 200


def test_a_connection_used_a_moment_ago_is_not_tested_and_the_pool_recovers(app, client, monkeypatch):
    """Without the test (a connection idle for less than PING_IDLE_SECONDS) the first request
    after the drop fails; SQLAlchemy then renews the pool, and the next request is served."""
    monkeypatch.setattr(extensions, "PING_IDLE_SECONDS", 3600.0)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    assert client.get("/display").status_code == 200
    assert _drop_the_apps_connections(app) >= 1
    assert client.get("/display").status_code == 500
    assert client.get("/display").status_code == 200
