"""On PostgreSQL a page's reads are statements alone, outside any transaction
(``extensions.read_only(alone=True)``): no ``BEGIN`` and no ``ROLLBACK`` around a page's two or
three queries. A write there would be committed row by row, so it is refused; and the pooled
connection goes back to transactions for whatever uses it next."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import Member
from tests.factories import gen_member

pytestmark = pytest.mark.postgres_only


def _driver_connection():
    return db.session.connection().connection.driver_connection


def test_a_page_reads_each_statement_alone_and_may_not_write_there(app):
    with app.app_context():
        gen_member("player", name="Reader")
    with app.test_request_context("/display", method="GET"):
        app.preprocess_request()  # extensions.start_reading
        assert _driver_connection().autocommit is True
        before = db.session.scalar(select(func.count(Member.id)))
        db.session.add(Member(name="Written alone", name_key="written alone", username="alone",
                              password_hash="x", role="player"))
        with pytest.raises(RuntimeError, match=r"outside services\.base\.writing\(\)"):
            db.session.flush()
        db.session.rollback()
        assert db.session.scalar(select(func.count(Member.id))) == before
        db.session.remove()


def test_after_a_page_the_pooled_connection_writes_in_transactions_again(app, client):
    assert client.get("/display").status_code == 200  # its connection read alone
    with app.app_context():
        before = db.session.scalar(select(func.count(Member.id)))
        assert _driver_connection().autocommit is False
        db.session.add(Member(name="Rolled back", name_key="rolled back", username="rolled",
                              password_hash="x", role="player"))
        db.session.flush()
        db.session.rollback()  # a transaction: the row never lands
        assert db.session.scalar(select(func.count(Member.id))) == before
        db.session.remove()


def test_the_streams_drawings_read_each_statement_alone(app):
    """A phone's stream draws what it sends with statements alone too (autocommit): a table's
    move costs each of its streams no BEGIN and no ROLLBACK. A screen's stream draws in one
    transaction, the version it labels its drawing with and the tables read in one snapshot
    (``display._read_at_once``; once per version per process, the others take it)."""
    import threading

    from tests.serving.test_pushed_drawings import Events, noting_statements
    from tests.web.test_phone_decisions import Phones

    app.config.update(PUSH_KEEPALIVE_SECONDS=0.2, PUSH_STREAM_SECONDS=120.0, PUSH_FRAGMENTS=True)
    phones = Phones(app, "ABCD", cube_mode="single")
    streams = [Events(phones.phone("D"), f"{phones.table.url}/stream"),
               Events(app.test_client(), "/display/stream")]
    seen: list[tuple[int, bool | str, str]] = []

    def note(connection, statement: str) -> None:
        alone = connection.connection.driver_connection.autocommit
        # In a transaction: its isolation (the screen's reads in one snapshot).
        seen.append((threading.get_ident(),
                     alone or connection.get_execution_options().get("isolation_level", "READ COMMITTED"),
                     statement))

    try:
        for events in streams:
            events.next()  # the version on opening
        with noting_statements(app, note):
            phones.table.play({"type": "join", "player": "E"})
            assert [events.next()[0] for events in streams] == ["fragment", "fragment"]
    finally:
        for events in streams:
            events.close()
    phone, screen = ([(alone, statement) for thread, alone, statement in seen
                      if thread == events._thread.ident] for events in streams)
    assert phone and screen, "the streams read nothing to draw"
    assert all(alone is True for alone, _statement in phone), [s for alone, s in phone if alone is not True]
    assert all(alone == "REPEATABLE READ" for alone, _statement in screen), screen
