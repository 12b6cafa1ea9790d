"""A closed night no longer changes, several nodes included: closing takes the night's row
lock and every command takes it too, so a result posted while the night closes either lands
before the close (and is in the facts stored at closing) or is refused (issue 12, finding 7).

Two app objects with engines, pools and caches of their own on one database stand for two
nodes; on SQLite the same tests check that ``BEGIN IMMEDIATE`` already serialises them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from sqlalchemy import event, func, select, text

from chouette.extensions import db
from chouette.models import ChouetteTable, Member, TableEvent, TableFactsRow
from chouette.services import base, commands, night_rows, nights, table_states
from chouette.services import tables as tables_service
from tests.concurrency import at_once, second_node
from tests.factories import gen_member, gen_night, gen_table

RESULT = {"type": "result", "winner": "team", "kind": "single"}
#: The longest a test waits for a thread it released (a hang fails it, never passes it).
PATIENCE = 60


def _night_with_tables(app, count: int) -> tuple[int, int, list[int]]:
    """An open night of ``count`` tables of four seated players, by one organizer."""
    with app.app_context():
        organizer = gen_member("organizer")
        night = gen_night(opened_by_id=organizer.id)
        tables = [gen_table(night, created_by_id=organizer.id).id for _ in range(count)]
        for table_id in tables:
            for name in "ABCD":
                commands.play(table_id, tables_service.last_seq(table_id), {"type": "join", "player": name}, organizer)
            commands.play(table_id, tables_service.last_seq(table_id), {"type": "order", "players": list("ABCD")},
                          organizer)
        db.session.commit()
        return night.id, organizer.id, tables


def _closed_facts(app, night_id: int) -> dict[int, tuple[int, int | None]]:
    """Each table of the (closed) night: (its last seq, the seq of the facts stored at closing)."""
    with app.app_context():
        tables = db.session.scalars(select(ChouetteTable.id).where(ChouetteTable.night_id == night_id)).all()
        stored = dict(db.session.execute(select(TableFactsRow.table_id, TableFactsRow.seq)).all())
        assert not night_rows.get_night(night_id).is_open
        return {table_id: (tables_service.last_seq(table_id), stored.get(table_id)) for table_id in tables}


def _wait_blocked_or_done(app, thread: threading.Thread) -> None:
    """Return once ``thread`` waits for a lock held elsewhere, or has ended.

    PostgreSQL shows a waiting backend in ``pg_locks``; SQLite's busy wait cannot be seen from
    outside, so there the thread is given a second (a wait, never an assertion).
    """
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            thread.join(1.0)
            return
        deadline = time.monotonic() + PATIENCE
        with db.engine.connect() as connection:
            while thread.is_alive() and time.monotonic() < deadline:
                waiting = connection.execute(text("SELECT count(*) FROM pg_locks WHERE NOT granted")).scalar()
                connection.rollback()
                if waiting:
                    return
                time.sleep(0.01)


def _pause_before(node, statement: str) -> tuple[threading.Event, threading.Event, Callable[[], None]]:
    """Hold the first ``statement`` the node sends (inside its transaction) until released:
    (reached, release, remove the hook)."""
    reached, release = threading.Event(), threading.Event()

    def hold(conn, cursor, sql, parameters, context, executemany):
        if sql.lstrip().upper().startswith(statement) and not reached.is_set():
            reached.set()
            release.wait(PATIENCE)

    with node.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", hold)
    return reached, release, lambda: event.remove(engine, "before_cursor_execute", hold)


def test_a_result_being_written_on_one_node_while_another_closes_lands_before_the_close(app):
    night_id, organizer_id, [table_id] = _night_with_tables(app, 1)
    outcome: dict[str, str] = {}

    def post_result(node) -> None:
        with node.app_context():
            try:
                commands.play(table_id, 5, RESULT, db.session.get(Member, organizer_id))
                outcome["result"] = "ok"
            except base.NightClosed:
                outcome["result"] = "refused"
            finally:
                db.session.remove()

    def close() -> None:
        with app.app_context():
            try:
                nights.close_night(night_id, actor=db.session.get(Member, organizer_id))
                outcome["close"] = "ok"
            finally:
                db.session.remove()

    with second_node(app) as node:
        reached, release, unhook = _pause_before(node, "INSERT INTO TABLE_EVENT")
        poster = threading.Thread(target=post_result, args=(node,))
        closer = threading.Thread(target=close)
        try:
            poster.start()
            assert reached.wait(PATIENCE), "the result never reached its insert"
            closer.start()
            _wait_blocked_or_done(app, closer)
        finally:
            release.set()
            poster.join(PATIENCE)
            unhook()
        closer.join(PATIENCE)
    assert outcome == {"result": "ok", "close": "ok"}
    # The result committed before the close: the facts stored at closing include it.
    assert _closed_facts(app, night_id) == {table_id: (6, 6)}


def test_a_result_posted_after_the_close_on_another_node_is_refused(app):
    night_id, organizer_id, [table_id] = _night_with_tables(app, 1)
    with second_node(app) as node:
        with node.app_context():
            played = table_states.load_play(table_id)  # the node has the table cached, open
            assert played.table.night.is_open
            db.session.commit()
        with app.app_context():
            nights.close_night(night_id, actor=db.session.get(Member, organizer_id))
        with node.app_context():
            try:
                commands.play(table_id, 5, RESULT, db.session.get(Member, organizer_id))
            except base.NightClosed:
                pass
            else:
                raise AssertionError("a result landed on a closed night")
    assert _closed_facts(app, night_id) == {table_id: (5, 5)}


def test_results_posted_on_two_nodes_while_the_night_closes_never_land_after_it(app):
    """Eight players' phones post results on four tables through two nodes while the
    organizer closes: every table's log ends exactly at the facts stored at closing."""
    night_id, organizer_id, tables = _night_with_tables(app, 4)
    started = threading.Barrier(9)
    accepted: list[int] = []

    def attempt(number: int) -> None:
        member = db.session.get(Member, organizer_id)
        db.session.commit()
        if number == 8:
            started.wait(PATIENCE)
            deadline = time.monotonic() + PATIENCE
            while len(accepted) < 8 and time.monotonic() < deadline:  # let the results flow first
                time.sleep(0.001)
            nights.close_night(night_id, actor=member)
            return
        table_id = tables[number % 4]
        started.wait(PATIENCE)
        for _ in range(400):
            try:
                commands.play(table_id, tables_service.last_seq(table_id), RESULT, member)
                accepted.append(table_id)
            except base.TableChanged:
                pass
            finally:
                db.session.commit()
        raise AssertionError("the night never closed")

    with second_node(app) as node:
        results = at_once(app, 9, attempt, refused=(base.NightClosed,), nodes=[app, node])
    assert sorted(results) == ["ok"] + ["refused"] * 8, results
    ends = _closed_facts(app, night_id)
    assert all(last == stored for last, stored in ends.values()), ends
    with app.app_context():
        results_written = db.session.scalar(select(func.count(TableEvent.id)).where(TableEvent.type == "result"))
    assert results_written == len(accepted)
