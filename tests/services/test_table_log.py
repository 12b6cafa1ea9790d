"""The table log: append-only, no gap, no duplicate; a concurrent loser gets TableChanged."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import LedgerEntry, TableEvent
from chouette.services import base, nights, tables
from tests.factories import gen_event, gen_member, gen_night, gen_table


def _seqs(app, table_id):
    with app.app_context():
        return [event.seq for event in tables.table_events(table_id)]


def test_append_events_numbers_them_after_the_expected_seq(app):
    with app.app_context():
        table = gen_table()
        organizer = gen_member("organizer")
        written = tables.append_events(table.id, 0, [{"type": "join", "player": "Ann"}, {"type": "join", "player": "Bob"}], organizer)
        assert [event.seq for event in written] == [1, 2]
        tables.append_events(table.id, 2, [{"type": "leave", "player": "Ann"}], None)
        assert tables.table_log(table.id) == [
            {"type": "join", "player": "Ann"},
            {"type": "join", "player": "Bob"},
            {"type": "leave", "player": "Ann"},
        ]
        assert tables.last_seq(table.id) == 3
        assert tables.table_events(table.id)[0].actor_id == organizer.id


def test_append_at_a_stale_seq_raises_table_changed_and_writes_nothing(app):
    with app.app_context():
        table = gen_table()
        tables.append_events(table.id, 0, [{"type": "join", "player": "Ann"}], None)
        with pytest.raises(base.TableChanged, match="The table changed"):
            tables.append_events(
                table.id, 0, [{"type": "join", "player": "Bob"}], None,
                ledger_rows=[tables.LedgerRow(1, "Bob", 1, 100), tables.LedgerRow(1, "Ann", -1, -100)],
            )
        assert tables.table_log(table.id) == [{"type": "join", "player": "Ann"}]
        assert db.session.scalar(select(func.count(LedgerEntry.id))) == 0


def test_append_beyond_the_last_seq_is_refused_so_the_log_has_no_gap(app):
    with app.app_context():
        table = gen_table()
        table_id = table.id
        gen_event(table, 1)
        with pytest.raises(base.TableChanged, match="The table changed while you were deciding"):
            tables.append_events(table_id, 5, [{"type": "join", "player": "Zed"}], None)
    assert _seqs(app, table_id) == [1]


def test_ledger_rows_are_written_with_the_event_that_settles_the_game(app):
    with app.app_context():
        table = gen_table()
        rows = [tables.LedgerRow(1, "Ann", 2, 200), tables.LedgerRow(1, "Bob", -2, -200)]
        tables.append_events(table.id, 0, [{"type": "result", "winner": "box", "kind": "single"}], None, rows)
        entries = db.session.scalars(select(LedgerEntry).order_by(LedgerEntry.player)).all()
        assert [(e.player, e.points, e.cents, e.seq, e.game, e.night_id) for e in entries] == [
            ("Ann", 2, 200, 1, 1, table.night_id),
            ("Bob", -2, -200, 1, 1, table.night_id),
        ]


def test_ledger_rows_that_do_not_sum_to_zero_are_refused(app):
    with app.app_context():
        table_id = gen_table().id
        with pytest.raises(ValueError, match="does not sum to zero"):
            tables.append_events(table_id, 0, [{"type": "result"}], None, [tables.LedgerRow(1, "Ann", 1, 100)])
    assert _seqs(app, table_id) == []


def test_an_event_without_a_type_is_refused(app):
    with app.app_context():
        table = gen_table()
        with pytest.raises(base.ServiceError, match="needs a type"):
            tables.append_events(table.id, 0, [{"player": "Ann"}], None)


def test_a_closed_night_refuses_new_events(app):
    with app.app_context():
        night = gen_night()
        table = gen_table(night)
        nights.close_night(night.id, actor=gen_member("organizer"))
        with pytest.raises(base.NightClosed, match="This night is closed"):
            tables.append_events(table.id, 0, [{"type": "join", "player": "Ann"}], None)


def test_the_unique_key_refuses_a_second_event_at_the_same_seq(app):
    with app.app_context():
        table = gen_table()
        gen_event(table, 1)
        with pytest.raises(Exception, match=r"UNIQUE|unique|duplicate"):
            gen_event(table, 1)
        db.session.rollback()


def test_concurrent_appends_at_the_same_seq_one_wins_every_loser_gets_table_changed(app):
    with app.app_context():
        table = gen_table()
    threads_count = 8
    barrier = threading.Barrier(threads_count)
    outcomes: list[str] = []
    lock = threading.Lock()

    def attempt(number: int) -> None:
        with app.app_context():
            barrier.wait()
            try:
                tables.append_events(table.id, 0, [{"type": "join", "player": f"P{number}"}], None)
                result = "won"
            except base.TableChanged:
                result = "changed"
            except Exception as error:  # noqa: BLE001 (anything else fails the rule under test)
                result = f"error: {error!r}"
            with lock:
                outcomes.append(result)

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(threads_count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes) == ["changed"] * (threads_count - 1) + ["won"]
    assert _seqs(app, table.id) == [1]


def test_many_threads_appending_until_each_succeeds_leave_a_log_without_gap_or_duplicate(app):
    with app.app_context():
        table = gen_table()
    threads_count, per_thread = 6, 5
    changed = [0] * threads_count
    errors: list[str] = []

    def worker(number: int) -> None:
        done = 0
        while done < per_thread:
            with app.app_context():
                seq = tables.last_seq(table.id)
                db.session.commit()  # end the read; the append re-checks under the lock
                try:
                    tables.append_events(
                        table.id, seq, [{"type": "join", "player": f"T{number}-{done}"}], None,
                        [tables.LedgerRow(done + 1, f"T{number}", 1, 50), tables.LedgerRow(done + 1, "box", -1, -50)],
                    )
                    done += 1
                except base.TableChanged:
                    changed[number] += 1
                except Exception as error:  # noqa: BLE001 (reported by the assertion below)
                    errors.append(repr(error))
                    return

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(threads_count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    total = threads_count * per_thread
    assert _seqs(app, table.id) == list(range(1, total + 1))
    with app.app_context():
        players = [event.payload["player"] for event in tables.table_events(table.id)]
        assert len(set(players)) == total  # every success recorded once, none lost
        assert db.session.scalar(select(func.sum(LedgerEntry.cents))) == 0
        assert db.session.scalar(select(func.count(LedgerEntry.id))) == 2 * total
        assert db.session.scalar(select(func.count(TableEvent.id))) == total


@pytest.mark.parametrize("statement", ["UPDATE table_event SET type = 'drop' WHERE seq = 1", "DELETE FROM table_event"])
def test_the_database_refuses_to_change_or_delete_a_logged_event(app, statement):
    from sqlalchemy import text

    with app.app_context():
        table = gen_table()
        gen_event(table, 1)
        with pytest.raises(Exception, match="the table log is append-only"):
            db.session.execute(text(statement))
        db.session.rollback()
        assert tables.table_log(table.id) == [{"type": "join", "player": "P1"}]


def test_the_migrations_make_the_log_append_only_too(tmp_path):
    from sqlalchemy import text

    from app import create_app
    from chouette.cli import upgrade_database

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'migrated.sqlite'}"})
    with app.app_context():
        upgrade_database()
        table = gen_table()
        gen_event(table, 1)
        with pytest.raises(Exception, match="the table log is append-only"):
            db.session.execute(text("DELETE FROM table_event"))
        db.session.rollback()
        db.engine.dispose()


def _append_from_another_process(database_uri: str, table_id: int, worker: int, count: int) -> int:
    """A separate process (like a gunicorn worker) appending ``count`` events; returns its retries."""
    from app import create_app

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_uri})
    retries = 0
    done = 0
    with app.app_context():
        while done < count:
            seq = tables.last_seq(table_id)
            db.session.commit()
            try:
                tables.append_events(
                    table_id, seq, [{"type": "join", "player": f"W{worker}-{done}"}], None,
                    [tables.LedgerRow(1000 * worker + done, f"W{worker}", 1, 100), tables.LedgerRow(1000 * worker + done, "box", -1, -100)],
                )
                done += 1
            except base.TableChanged:
                retries += 1
        db.engine.dispose()
    return retries


def test_processes_appending_to_one_table_leave_a_log_without_gap_or_duplicate(app):
    import multiprocessing

    with app.app_context():
        table_id = gen_table().id
    workers, per_worker = 4, 8
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        pool.starmap(
            _append_from_another_process,
            [(app.config["SQLALCHEMY_DATABASE_URI"], table_id, worker, per_worker) for worker in range(workers)],
        )
    total = workers * per_worker
    assert _seqs(app, table_id) == list(range(1, total + 1))
    with app.app_context():
        players = [event.payload["player"] for event in tables.table_events(table_id)]
        assert sorted(players) == sorted(f"W{w}-{n}" for w in range(workers) for n in range(per_worker))
        assert db.session.scalar(select(func.sum(LedgerEntry.cents))) == 0
        assert db.session.scalar(select(func.count(LedgerEntry.id))) == 2 * total
