"""The analysis queue in the database: a game that ends is queued, a worker judges it once,
an undone or corrected game is judged again, a voided one drops out, a killed worker loses
nothing (a real worker process, a real gnubg, a real SQLite database)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from chouette.analysis import queue
from chouette.extensions import db
from chouette.models import AnalysisRequest, GameAnalysis, PlayerAnalysis
from chouette.services import table_states, tables
from chouette.table import Settings
from tests.analysis.games import short_game
from tests.factories import gen_table

ROOT = Path(__file__).resolve().parents[2]
# The gnubg tests run on SQLite only (the PostgreSQL run deselects them, as tests/records' do);
# the claim runs on both (FOR UPDATE SKIP LOCKED on PostgreSQL).


def _append(table_id, settings, events, seq, new):
    """Append ``new`` after the first ``seq`` of ``events`` as a command does: with the
    snapshots of the games it ends."""
    snapshots = {n: s for n, s in table_states.log_snapshots(settings, [*events[:seq], *new]).items() if n > seq}
    tables.append_events(table_id, seq, new, None, snapshots=snapshots)


def _table_with(log):
    settings = Settings.from_dict(log["table"]).to_dict()
    table = gen_table(settings=settings)
    _append(table.id, settings, [], 0, log["events"])
    return table.id


def _counts(table_id):
    games = db.session.scalar(select(func.count(GameAnalysis.id)).where(GameAnalysis.table_id == table_id))
    waiting = db.session.scalar(select(func.count()).select_from(AnalysisRequest))
    return games, waiting


def test_a_finished_game_queues_its_table_and_a_game_in_play_does_not(app):
    with app.app_context():
        log = short_game().log
        events = log["events"]
        settings = Settings.from_dict(log["table"]).to_dict()
        table = gen_table(settings=settings)
        _append(table.id, settings, events, 0, events[:-2])
        assert db.session.get(AnalysisRequest, table.id) is None
        _append(table.id, settings, events, len(events) - 2, events[-2:])
        assert db.session.get(AnalysisRequest, table.id).seq == len(events)


def test_two_workers_cannot_claim_one_table(app):
    with app.app_context():
        table_id = _table_with(short_game().log)
        assert queue.claim("one")[0] == table_id
        assert queue.claim("two") is None
        # The lease runs out: another worker takes it.
        db.session.get(AnalysisRequest, table_id).lease_until = None
        db.session.commit()
        assert queue.claim("two")[0] == table_id


@pytest.mark.gnubg
@pytest.mark.sqlite_only
def test_the_worker_stores_each_game_once_and_a_voided_game_drops_out(app):
    with app.app_context():
        log = short_game(2).log
        table_id = _table_with(log)
        table_id_claimed, seq = queue.claim("w")
        assert table_id_claimed == table_id
        assert queue.analyse_table(table_id, seq, "w") == 2
        assert _counts(table_id) == (2, 0)
        names = set(db.session.scalars(select(PlayerAnalysis.name)))
        assert names == {"A", "B", "C"}
        # Nothing changed: queued again, nothing judged again.
        queue.request(table_id, seq)
        db.session.commit()
        assert queue.analyse_table(*queue.claim("w"), "w") == 0
        # A correction voids game 2: its analysis drops out, game 1's stays.
        tables.append_events(table_id, seq, [{"type": "correct", "game": 2, "reason": "test", "void": True}], None)
        assert db.session.get(AnalysisRequest, table_id) is not None
        assert queue.analyse_table(*queue.claim("w"), "w") == 0
        assert db.session.scalars(select(GameAnalysis.number)).all() == [1]
        assert _counts(table_id) == (1, 0)
        # Undo the correction: game 2 is back and judged again.
        tables.append_events(table_id, seq + 1, [{"type": "undo"}], None)
        assert queue.analyse_table(*queue.claim("w"), "w") == 1
        assert _counts(table_id) == (2, 0)


def _worker(database: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "DATABASE_URL": database, "PYTHONPATH": str(ROOT)}
    args = args if "--quiet" in args else ("--quiet", "0", *args)  # no lull to wait for, but where asked
    return subprocess.Popen([sys.executable, "-m", "flask", "--app", "app", "analysis-worker", *args],
                            cwd=ROOT, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            text=True, start_new_session=True)


@pytest.mark.gnubg
@pytest.mark.sqlite_only
def test_a_worker_killed_mid_game_loses_nothing_and_writes_no_double_rows(app):
    database = app.config["SQLALCHEMY_DATABASE_URI"]
    with app.app_context():
        table_id = _table_with(short_game(2).log)
        db.session.remove()
    first = _worker(database, "--lease", "2", "--poll", "0.2")
    try:
        assert first.stderr is not None
        line = ""
        while "analysing table" not in line:
            line = first.stderr.readline()
            assert line or first.poll() is None, "the worker stopped before a game"
        os.killpg(first.pid, signal.SIGKILL)  # the worker and the gnubg it runs, mid-game
    finally:
        first.wait(timeout=30)
    with app.app_context():
        games, waiting = _counts(table_id)
        assert games < 2 and waiting == 1
        db.session.remove()
    time.sleep(2.1)  # the dead worker's lease runs out
    second = _worker(database, "--once")
    _, errors = second.communicate(timeout=300)
    assert second.returncode == 0, errors
    with app.app_context():
        assert _counts(table_id) == (2, 0)
        rows = db.session.execute(select(PlayerAnalysis.game_id, PlayerAnalysis.name)).all()
        assert len(rows) == len(set(rows)) == 6


def test_queue_all_queues_the_tables_written_without_a_command(app):
    with app.app_context():
        log = short_game().log
        table = gen_table(settings=Settings.from_dict(log["table"]).to_dict())
        tables.append_events(table.id, 0, log["events"], None)  # as an import writes: no snapshot
        assert db.session.get(AnalysisRequest, table.id) is None
        assert queue.queue_all() == 1
        assert db.session.get(AnalysisRequest, table.id).seq == len(log["events"])
        assert queue.queue_all() == 0


@pytest.mark.gnubg
@pytest.mark.sqlite_only
def test_the_worker_judges_nothing_while_the_tables_play_and_judges_in_the_lull(app):
    """The tables first (chouette.analysis.lull): while any table takes a command within the
    worker's quiet seconds, no game is judged; once they stop, the queued game is."""
    database = app.config["SQLALCHEMY_DATABASE_URI"]
    with app.app_context():
        table_id = _table_with(short_game(1).log)
        other = gen_table()
        db.session.remove()
    worker = _worker(database, "--once", "--quiet", "2", "--poll", "0.2")
    try:
        with app.app_context():
            for seq in range(12):  # a command at another table every 0.25 s, for 3 s
                tables.append_events(other.id, seq, [{"type": "join", "player": f"Player {seq}"}], None)
                time.sleep(0.25)
                assert worker.poll() is None
            assert _counts(table_id) == (0, 1), "a game was judged while the tables played"
            db.session.remove()
        _, errors = worker.communicate(timeout=300)  # the lull comes: the game is judged
        assert worker.returncode == 0, errors
        assert "analysing table" in errors
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(30)
    with app.app_context():
        assert _counts(table_id) == (1, 0)
