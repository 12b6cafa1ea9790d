"""One way to write (``services.base.writing()``): every request starts as a reader, writes
only inside ``writing()``, and reads as a reader again after it.

On a real database (SQLite here, PostgreSQL in its run): a flush or a write statement outside
``writing()`` in a request is refused and writes nothing; ``writing()`` commits what its block
wrote, writes nothing when the block raises, and joins an outer ``writing()``. The member ids
and the claim of a guest's history are written by the services that create a member or a
payment, not by any hook of the session.
"""

from __future__ import annotations

import os
import sqlite3

import pytest
from sqlalchemy import func, select, update

from chouette.extensions import READ_ONLY, db
from chouette.models import LedgerEntry, Member, MemberName, Payment, SeatMember
from chouette.services import members, money
from chouette.services.base import writing
from tests.factories import gen_event, gen_member, gen_night, gen_table, save

ON_SQLITE = not os.environ.get("DATABASE_URL")


def _members() -> int:
    return db.session.scalar(select(func.count(Member.id))) or 0


def _new_member(name: str) -> Member:
    return Member(name=name, username=name.lower(), password_hash="x", role="player")


def _reads_as_a_reader() -> bool:
    """The request's session is in a reader's transaction (SQLite: ``BEGIN DEFERRED``;
    PostgreSQL: each statement alone)."""
    session = db.session()
    return session.in_transaction() and bool(session.connection().get_execution_options().get(READ_ONLY))


def _write_lock_is_free() -> bool:
    """On SQLite: another connection can take the write lock now."""
    raw = sqlite3.connect(db.engine.url.database, timeout=0.1, isolation_level=None)
    try:
        raw.execute("BEGIN IMMEDIATE")
        raw.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        raw.close()


def _write_then_fail() -> None:
    with writing():
        db.session.add(_new_member("Rolled back"))
        db.session.flush()  # written in the transaction...
        raise ValueError("refused")


def _write_inside_then_fail() -> None:
    with writing():
        with writing():  # joins the outer one: commits nothing of its own
            db.session.add(_new_member("Inner"))
        assert db.session.scalar(select(Member.id).where(Member.name == "Inner"))
        raise ValueError("the outer block fails")


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_get_and_a_post_both_start_as_readers(app, method):
    with app.test_request_context("/account", method=method):
        app.preprocess_request()  # extensions.start_reading
        assert _members() == 0  # the first query: the member, the table...
        assert _reads_as_a_reader()
        if ON_SQLITE:
            assert _write_lock_is_free()  # reading takes no write lock
        db.session.remove()


@pytest.mark.sqlite_only  # SQLite's write lock (deselected in the PostgreSQL run, as the other SQLite tests)
def test_a_post_reads_while_a_writer_holds_the_lock(app, client):
    """A POST's reads (the signed-in member, the table) do not wait for SQLite's write lock:
    a command refused before it writes (here: a page out of date) answers at once."""
    from tests.factories import PASSWORD

    with app.app_context():
        owner = gen_member("admin", name="Olga")
        table = gen_table()
        path = db.engine.url.database
    assert client.post("/auth/login", data={"username": owner.username, "password": PASSWORD}).status_code == 303
    writer = sqlite3.connect(path, timeout=0.2, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")  # another command in the middle of its write
        answer = client.post(f"/tables/{table.id}/stand")  # no seq: "out of date", nothing written
        assert answer.status_code == 303  # read without the lock (else "database is locked")
        writer.execute("ROLLBACK")
    finally:
        writer.close()


def test_a_flush_outside_writing_is_refused_and_writes_nothing(app):
    with app.test_request_context("/account", method="POST"):
        app.preprocess_request()
        before = _members()
        db.session.add(_new_member("Forgot"))
        with pytest.raises(RuntimeError, match=r"outside services\.base\.writing\(\)"):
            db.session.flush()
        db.session.rollback()
        assert _members() == before
        db.session.remove()
    with app.app_context():
        assert _members() == before


def test_a_write_statement_outside_writing_is_refused(app):
    """An UPDATE written without a flush (``session.execute``) is refused the same way."""
    with app.app_context():
        member = gen_member("player", name="Stays")
    with app.test_request_context("/account", method="POST"):
        app.preprocess_request()
        with pytest.raises(RuntimeError, match=r"outside services\.base\.writing\(\)"):
            db.session.execute(update(Member).where(Member.id == member.id).values(name="Changed"))
        db.session.remove()
    with app.app_context():
        assert db.session.get(Member, member.id).name == "Stays"


def test_writing_commits_and_the_request_reads_as_a_reader_again(app):
    with app.test_request_context("/account", method="POST"):
        app.preprocess_request()
        before = _members()
        with writing():
            assert not _reads_as_a_reader()  # the writer's transaction
            if ON_SQLITE:
                assert not _write_lock_is_free()  # it holds SQLite's write lock
            db.session.add(_new_member("Written"))
        assert _reads_as_a_reader()  # drawing the answer holds no write lock
        if ON_SQLITE:
            assert _write_lock_is_free()
        assert _members() == before + 1
        db.session.remove()
    with app.app_context():  # committed: another session sees it
        assert db.session.scalar(select(Member.id).where(Member.name == "Written")) is not None


def test_a_reader_outside_a_request_reads_as_a_reader_again_after_writing(app):
    """A stream's drawing reads in a session of its own (``read_only``): a write it makes
    (the facts it stores) leaves it reading, not holding the write lock while it draws."""
    from chouette.extensions import read_only

    with app.app_context():
        read_only()
        assert _members() == 0
        with writing():
            db.session.add(_new_member("Stored"))
        assert _reads_as_a_reader()
        if ON_SQLITE:
            assert _write_lock_is_free()
        db.session.remove()


def test_writing_rolls_back_when_its_block_raises(app):
    with app.test_request_context("/account", method="POST"):
        app.preprocess_request()
        before = _members()
        with pytest.raises(ValueError, match="refused"):
            _write_then_fail()
        assert _reads_as_a_reader()
        assert _members() == before  # ...and nothing of it kept
        db.session.remove()
    with app.app_context():
        assert _members() == before


def test_a_writing_inside_another_joins_it(app):
    """The inner block commits nothing of its own: the outer one rolls both back."""
    with app.test_request_context("/account", method="POST"):
        app.preprocess_request()
        before = _members()
        with pytest.raises(ValueError, match="the outer block fails"):
            _write_inside_then_fail()
        assert _members() == before
        db.session.remove()


def test_a_new_member_claims_a_guests_history_by_the_services_call_not_a_hook(app):
    """Marco played as a guest: their ledger row, their payment and their seat carry no member id.
    A member row written directly (no service) claims nothing; ``members.create_member``
    claims them (``identity.claim_guest_history``) and records the name (``MemberName``)."""
    with app.app_context():
        table = gen_table()
        gen_event(table, 1, payload={"player": "Marco"})
        save(LedgerEntry(night_id=table.night_id, table_id=table.id, game=1, seq=1,
                         player="Marco", points=1, cents=100),
             Payment(night_id=table.night_id, payer="Marco", payee="Ann", cents=100, method="cash"))
        save(_new_member("Marco Bis"))  # a row of its own: no hook names anything after it
        assert db.session.scalar(select(LedgerEntry.member_id)) is None

        marco = members.create_member(name="Marco", username="marco", password="correct-horse-9")
        assert db.session.scalar(select(LedgerEntry.member_id)) == marco.id
        assert db.session.scalar(select(Payment.payer_id)) == marco.id
        assert db.session.scalar(select(SeatMember.member_id).where(
            SeatMember.table_id == table.id, SeatMember.seq == 1)) == marco.id
        assert db.session.scalars(select(MemberName.name).where(MemberName.member_id == marco.id)).all() == ["Marco"]
        assert db.session.scalar(select(MemberName.id).join(Member).where(Member.name == "Marco Bis")) is None


def test_a_payment_carries_the_member_ids_its_service_gives_it(app):
    with app.app_context():
        payer = members.create_member(name="Pia", username="pia", password="correct-horse-9")
        admin = gen_member("admin", name="Ada")
        night = gen_night()
        table = gen_table(night)
        save(LedgerEntry(night_id=night.id, table_id=table.id, game=1, seq=1, player="Pia",
                         points=-1, cents=-300, member_id=payer.id),
             LedgerEntry(night_id=night.id, table_id=table.id, game=1, seq=1, player="Guest",
                         points=1, cents=300))
        payment = money.record_payment(night.id, payer="Pia", payee="Guest", cents=300,
                                       method="cash", actor=admin)
        assert (payment.payer_id, payment.payee_id) == (payer.id, None)


def test_two_requests_seating_one_member_at_once_seat_them_once(app):
    """Two organizers type Marco at two tables at the same moment, on two app nodes, each in a
    request (a reader until it writes): the join reads "one person, one open table" inside its
    ``writing()`` (``commands._joining``), so one seats Marco and the other is refused."""
    from flask import current_app

    from chouette.services import base, commands
    from tests.concurrency import at_once, second_node

    with app.app_context():
        organizer_id = gen_member("admin", name="Olga").id
        members.create_member(name="Marco", username="marco", password="correct-horse-9")
        night = gen_night()
        tables = [gen_table(night).id, gen_table(night).id]

    def attempt(number: int) -> None:
        with current_app.test_request_context(f"/tables/{tables[number]}/join", method="POST"):
            current_app.preprocess_request()
            actor = db.session.get(Member, organizer_id)
            commands.play(tables[number], 0, {"type": "join", "player": "Marco"}, actor)

    with second_node(app) as node:
        results = at_once(app, 2, attempt, (base.ServiceError,), nodes=[app, node])
    assert sorted(results) == ["ok", "refused"], results
