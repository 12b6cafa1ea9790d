"""A big import is all or nothing as seen by everyone, and holds SQLite's write lock only
briefly at a time (issue 12, finding 6).

On SQLite the import writes its rows in short transactions under ids it has taken
(``import_stage``), where no page looks, then publishes the night and its tables in one tiny
transaction (``import_staged.write_staged``). On PostgreSQL it writes in one transaction. The
tests look from other connections (threads, another process) while the import writes, the
moment each database offers: between two of the short transactions on SQLite
(``_between_writes``), inside the one transaction elsewhere (``PreparedTable.write``).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select, text, update

from chouette import caches
from chouette.extensions import db
from chouette.models import (
    ChouetteTable,
    GameLineRow,
    GameLinesMark,
    ImportStage,
    LedgerEntry,
    Member,
    Night,
    TableEvent,
    TableSnapshot,
)
from chouette.services import (
    exports,
    identity,
    import_checks,
    import_rows,
    import_staged,
    money,
    nights,
    players,
)
from chouette.services.tables import SNAPSHOTS_KEPT
from chouette.table.simulate import random_night
from tests.factories import PASSWORD, gen_member, gen_night, gen_table
from tests.web.test_big_logs import _in_a_thread
from tests.web.test_exports import KNOWN, play_log

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


@pytest.fixture(scope="module")
def big_log() -> list[dict[str, Any]]:
    """A seeded night of some 3,000 events (many short transactions on SQLite)."""
    rng = random.Random(1225)
    _state, events = random_night({}, NAMES, 240, rng.choice, lambda: rng.randint(1, 6))
    return events


def _export(events: list[dict[str, Any]], name: str = "Imported night") -> dict[str, Any]:
    return {"night": {"name": name, "date": "2026-11-20", "currency": "EUR"},
            "tables": [{"name": "Marathon", "table": {}, "events": events},
                       {"name": "Short", "table": {}, "events": KNOWN}]}


def _is_sqlite(app: Flask) -> bool:
    with app.app_context():
        return db.engine.dialect.name == "sqlite"


def _while_writing(app: Flask) -> tuple[Any, str]:
    """Where a test looks while the import writes: between two short transactions on SQLite,
    inside the import's one transaction elsewhere."""
    return ((import_staged, "_between_writes") if _is_sqlite(app)
            else (import_rows.PreparedTable, "write"))


def _answers(app: Flask, member_id: int) -> dict[str, Any]:
    """What the club sees: nights, tables, everyone's money, the players' list, a player's
    history and tables, and the pages' statuses and whether they name the imported night."""
    with app.app_context():
        answers = {
            "nights": db.session.execute(select(Night.id, Night.name).order_by(Night.id)).all(),
            "tables": db.session.execute(select(ChouetteTable.id, ChouetteTable.night_id)
                                         .order_by(ChouetteTable.id)).all(),
            "balances": repr(money.club_balances()),
            "players": players.player_names(),
            "history": repr(players.player_history("Ann").nights),
            "tables_of": identity.tables_of(member_id),
        }
        db.session.remove()
    client = app.test_client()
    client.post("/auth/login", data={"username": "watcher", "password": PASSWORD})
    for page in ("/", "/nights/", "/balances", "/players/", "/display"):
        response = client.get(page)
        answers[page] = (response.status_code, b"Imported night" in response.data)
    return answers


def _debris(app: Flask) -> dict[str, int]:
    """Rows that belong to no table (or to no night), and the ids still taken."""
    with app.app_context():
        tables = select(ChouetteTable.id)
        counts = {model.__tablename__: db.session.scalar(
            select(func.count()).select_from(model).where(model.table_id.not_in(tables)))
            for model in (TableEvent, LedgerEntry, TableSnapshot, GameLineRow, GameLinesMark)}
        counts["import_stage"] = db.session.scalar(select(func.count()).select_from(ImportStage))
        db.session.remove()
        return counts


@pytest.fixture
def club(app: Flask) -> int:
    """Another night being played, and a member watching (Ann, who plays in the import)."""
    with app.app_context():
        organizer = gen_member("organizer")
        other = gen_table(gen_night(name="Tonight"), name="Other").id
        play_log(other, KNOWN, organizer)
        ann = gen_member("organizer", name="Ann", username="watcher")
        return ann.id


def test_nothing_of_an_import_is_seen_while_it_writes_and_all_of_it_after(
        app, club, big_log, monkeypatch):
    before = _answers(app, club)
    owner, name = _while_writing(app)
    step = getattr(owner, name)
    seen: list[dict[str, Any]] = []

    def look(*args: Any) -> Any:
        if len(seen) < 4:  # a few looks are enough (each renders five pages)
            seen.append(_in_a_thread(lambda: _answers(app, club)))
        return step(*args)

    monkeypatch.setattr(owner, name, look)
    with app.app_context():
        night = exports.import_night(_export(big_log), None)
        night_id = night.id
    assert seen and all(answers == before for answers in seen)
    after = _answers(app, club)
    assert after["/nights/"] == (200, True)
    assert [n for n in after["nights"] if n not in before["nights"]] == [(night_id, "Imported night")]
    assert len(after["tables"]) == len(before["tables"]) + 2
    assert after["balances"] != before["balances"]
    assert _debris(app) == dict.fromkeys(_debris(app), 0)


def test_a_command_and_a_new_night_go_through_while_an_import_writes(app, club, big_log, monkeypatch):
    with app.app_context():
        other = db.session.scalar(select(ChouetteTable.id).where(ChouetteTable.name == "Other"))
        admin = gen_member("admin")
        admin_id, username = admin.id, admin.username
    tablet = app.test_client()
    tablet.post("/auth/login", data={"username": username, "password": PASSWORD})
    owner, name = _while_writing(app)
    step = getattr(owner, name)
    done: dict[str, Any] = {}

    def meanwhile(*args: Any) -> Any:
        if not done:
            done["command"] = _in_a_thread(lambda: tablet.post(
                f"/tables/{other}/join", data={"player": "Zed", "seq": str(len(KNOWN))}).status_code)

            def open_night() -> int:
                with app.app_context():
                    opened = nights.open_night(name="Opened meanwhile", on=dt.date(2026, 11, 21),
                                               currency="EUR", actor=db.session.get(Member, admin_id))
                    return opened.id
            done["night"] = _in_a_thread(open_night)
        return step(*args)

    monkeypatch.setattr(owner, name, meanwhile)
    with app.app_context():
        imported = exports.import_night(_export(big_log), None).id
        assert done["command"] == 303
        assert done["night"] != imported
        assert db.session.get(Night, done["night"]).tables == []  # nothing of the import's
        assert [t.name for t in db.session.get(Night, imported).tables] == ["Marathon", "Short"]
        assert db.session.scalar(select(func.max(TableEvent.seq)).where(TableEvent.table_id == other)) \
            == len(KNOWN) + 1


def test_an_import_that_fails_midway_leaves_nothing(app, club, big_log, monkeypatch):
    before = _answers(app, club)
    owner, name = _while_writing(app)
    step = getattr(owner, name)
    calls: list[int] = []

    def fail_midway(*args: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:  # the second table's rows on PostgreSQL, the second chunk on SQLite
            raise OSError("the disk is full")
        return step(*args)

    monkeypatch.setattr(owner, name, fail_midway)
    with app.app_context(), pytest.raises(OSError, match="the disk is full"):
        exports.import_night(_export(big_log), None)
    assert _answers(app, club) == before
    assert _debris(app) == dict.fromkeys(_debris(app), 0)


CHILD = """
import os, signal, sys, json
from pathlib import Path
from app import create_app
from chouette.services import exports, import_rows, import_staged

app = create_app({"SQLALCHEMY_DATABASE_URI": os.environ["CHOUETTE_TEST_DB"], "SECRET_KEY": "x"})
marker = Path(os.environ["CHOUETTE_MARKER"])
staged = os.environ["CHOUETTE_TEST_DB"].startswith("sqlite")
owner = import_staged if staged else import_rows.PreparedTable
name = "_between_writes" if staged else "write"
step = getattr(owner, name)
calls = []

def stop_midway(*args):
    calls.append(1)
    if len(calls) == 2:
        marker.write_text("midway")
        signal.pause()  # killed here
    return step(*args)

setattr(owner, name, stop_midway)
with app.app_context():
    exports.import_night(json.loads(Path(os.environ["CHOUETTE_EXPORT"]).read_text()), None)
"""


@pytest.fixture
def killed_midway(app: Flask, club: int, big_log, tmp_path: Path) -> None:
    """An import in another process, killed (SIGKILL) midway: at its second write."""
    source = tmp_path / "night.json"
    source.write_text(json.dumps(_export(big_log)))
    marker = tmp_path / "midway"
    env = {**os.environ, "CHOUETTE_TEST_DB": app.config["SQLALCHEMY_DATABASE_URI"],
           "CHOUETTE_MARKER": str(marker), "CHOUETTE_EXPORT": str(source)}
    child = subprocess.Popen([sys.executable, "-c", CHILD], cwd=ROOT, env=env)
    try:
        while not marker.exists():
            assert child.poll() is None, "the importing process ended before it was killed"
            time.sleep(0.05)  # waiting for the child, not timing anything
        child.send_signal(signal.SIGKILL)
        child.wait()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_an_import_killed_midway_leaves_nothing_visible_and_the_next_import_works(
        app, club, big_log, killed_midway):
    with app.app_context():  # what the club saw before: the club with no import at all
        assert db.session.scalar(select(func.count(Night.id))) == 1
    seen = _answers(app, club)
    assert seen["/nights/"] == (200, False)
    assert seen["/balances"][0] == seen["/players/"][0] == 200
    assert "Imported night" not in repr(seen)
    # The next import, once the killed one is old enough to be abandoned, deletes its rows.
    with app.app_context():
        db.session.execute(update(ImportStage).values(
            started_at=ImportStage.started_at - import_staged.STAGE_ABANDONED_AFTER))
        db.session.commit()
        night = exports.import_night(_export(big_log, "Imported again"), None)
        assert [t.name for t in night.tables] == ["Marathon", "Short"]
        night_id = night.id
    assert _debris(app) == dict.fromkeys(_debris(app), 0)
    with app.app_context():
        events = db.session.scalar(select(func.count(TableEvent.id)))
        assert events == 2 * len(KNOWN) + len(big_log)  # the other table's, and the import's
        assert db.session.scalar(select(func.count(Night.id))) == 2
    assert _answers(app, club)["/nights/"] == (200, False)  # "Imported again" is its name
    with app.app_context():
        assert db.session.get(Night, night_id).name == "Imported again"


def test_a_recent_unfinished_import_is_left_alone_by_the_next_one(app, club, big_log, killed_midway):
    # An import younger than STAGE_ABANDONED_AFTER may still be running (another worker):
    # the next import keeps its rows; it is deleted once old enough.
    before = _debris(app)
    if not _is_sqlite(app):
        assert before == dict.fromkeys(before, 0)  # one transaction: nothing was left
    with app.app_context():
        exports.import_night(_export(KNOWN, "Small"), None)
    assert _debris(app) == before


def test_the_log_of_a_real_table_still_cannot_be_deleted(app, club):
    with app.app_context():
        with pytest.raises(Exception, match="append-only"):
            db.session.execute(text("DELETE FROM table_event"))
        db.session.rollback()
        assert db.session.scalar(select(func.count(TableEvent.id))) == len(KNOWN)


def test_an_imported_table_keeps_only_its_latest_snapshot_when_the_older_are_big(
        app, club, big_log, monkeypatch):
    from chouette.services import table_states
    from chouette.table import fold

    monkeypatch.setattr(import_checks, "IMPORT_SNAPSHOT_BYTES", 0)  # every older snapshot is "big"
    with app.app_context():
        night = exports.import_night(_export(big_log), None)
        marathon = night.tables[0]
        seqs = list(db.session.scalars(select(TableSnapshot.seq)
                                       .where(TableSnapshot.table_id == marathon.id)))
        # The rule spares SQLite's write lock; PostgreSQL's driver gets JSON values, kept.
        assert len(seqs) == (1 if db.engine.dialect.name == "sqlite" else SNAPSHOTS_KEPT)
        caches.clear_all(app)
        cold = table_states.load_play(marathon.id).state
        assert cold.snapshot() == fold({}, big_log).snapshot()
