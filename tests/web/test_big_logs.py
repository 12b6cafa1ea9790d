"""Big logs do not lock the club out (issue 12, finding 6).

- an import folds its log outside any transaction: meanwhile a phone's poll and a command
  on another table go through (before, the import held SQLite's write lock while folding,
  and they got "database is locked");
- a large import is still all-or-nothing: a bad last event writes nothing;
- the night's ledger and settle-up read stored game lines, written with each event: a page
  folds no log (counted by the table package's own ``WORK`` counter, not timed).
"""

from __future__ import annotations

import io
import json
import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from chouette import caches
from chouette.extensions import db
from chouette.models import (
    ChouetteTable,
    GameLineRow,
    GameLinesMark,
    LedgerEntry,
    Night,
    TableEvent,
    TableSnapshot,
)
from chouette.services import (
    exports,
    import_checks,
    import_rows,
    import_staged,
    ledger,
    nights,
    tables,
)
from chouette.services.game_lines import lines_of, stored_lines
from chouette.table import fold
from chouette.table.history import WORK
from chouette.table.simulate import random_night
from tests.factories import PASSWORD, gen_member, gen_night, gen_table
from tests.services.test_snapshots import random_commands
from tests.web.test_exports import KNOWN, play_log, write_log

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
COUNTED = (Night, ChouetteTable, TableEvent, LedgerEntry, TableSnapshot)


@pytest.fixture(scope="module")
def big_log() -> list[dict[str, Any]]:
    """A seeded night of some 3,000 events."""
    rng = random.Random(612)
    _state, events = random_night({}, NAMES, 240, rng.choice, lambda: rng.randint(1, 6))
    return events


def _export(events: list[dict[str, Any]], name: str = "Big night") -> bytes:
    return json.dumps({"night": {"name": name, "date": "2026-11-20", "currency": "EUR"},
                       "tables": [{"name": "Marathon", "table": {}, "events": events}]}).encode()


def _upload(client, body: bytes):
    return client.post("/nights/import", data={"file": (io.BytesIO(body), "night.json")},
                       content_type="multipart/form-data")


def _counts(app: Flask) -> dict[str, int]:
    with app.app_context():
        counts = {model.__name__: db.session.scalar(select(func.count(model.id))) for model in COUNTED}
        counts["GameLineRow"] = db.session.scalar(select(func.count()).select_from(GameLineRow))
        counts["GameLinesMark"] = db.session.scalar(select(func.count()).select_from(GameLinesMark))
        return counts


def _sign_in(app: Flask, role: str):
    """Another browser, signed in as a new member with ``role``."""
    with app.app_context():
        member = gen_member(role)
    client = app.test_client()
    assert client.post("/auth/login", data={"username": member.username,
                                            "password": PASSWORD}).status_code == 303
    return client


def _in_a_thread(work: Callable[[], Any]) -> Any:
    """Run ``work`` in another thread (another connection) and wait for it."""
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = work()
        except Exception as error:  # noqa: BLE001 - raised again in the test's own thread
            result["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result["value"]


def _stored_equal_folded(table_id: int) -> None:
    """The table's stored game lines are exactly the lines of its log folded."""
    table = tables.get_table(table_id)
    stored, stale = stored_lines([table])
    assert stale == {}
    truth = lines_of(fold(table.settings, tables.table_log(table_id)))
    assert stored[table_id] == {n: line for n, line in truth.items() if line is not None}


# --------------------------------------------------------------------------- import and locks


@pytest.mark.parametrize("phase", ["reading", "folding"])
def test_a_poll_and_a_command_on_another_table_go_through_while_an_import_reads_and_folds(
        app, client, login_as, big_log, monkeypatch, phase):
    with app.app_context():
        other = gen_table(gen_night(), name="Other").id
        play_log(other, KNOWN[:3], gen_member("organizer"))
    phone = _sign_in(app, "player")
    organizer = _sign_in(app, "organizer")
    seen: dict[str, int] = {}
    module, name = (exports, "read_night_export") if phase == "reading" else (import_checks, "_check_table")
    step = getattr(module, name)

    def step_while_others_play(*args: Any, **kwargs: Any) -> Any:
        # The import is about to read its file, or to fold its log: another phone polls,
        # another table plays (before, they waited for the import's write lock, and failed).
        seen["poll"] = _in_a_thread(lambda: phone.get(f"/tables/{other}/live").status_code)
        seen["command"] = _in_a_thread(lambda: organizer.post(
            f"/tables/{other}/join", data={"player": "Zed", "seq": "3"}).status_code)
        return step(*args, **kwargs)

    monkeypatch.setattr(module, name, step_while_others_play)
    login_as("organizer")
    response = _upload(client, _export(big_log))
    assert response.status_code == 303
    assert seen == {"poll": 200, "command": 303}
    with app.app_context():
        assert tables.last_seq(other) == 4  # Zed's join landed, during the import


def test_a_poll_goes_through_while_an_import_writes(app, client, login_as, monkeypatch):
    with app.app_context():
        other = gen_table(gen_night(), name="Other").id
        play_log(other, KNOWN[:3], gen_member("organizer"))
        staged = db.engine.dialect.name == "sqlite"
    phone = _sign_in(app, "player")
    seen: list[int] = []
    # On SQLite the import writes in short transactions (``_write_briefly``), elsewhere in one.
    owner, name = ((import_staged, "_write_briefly") if staged
                   else (import_rows.PreparedTable, "write"))
    write = getattr(owner, name)

    def write_while_a_phone_polls(*args: Any) -> None:
        # The import is writing: a reader does not wait for it.
        if not seen:
            seen.append(_in_a_thread(lambda: phone.get(f"/tables/{other}/live").status_code))
        write(*args)

    monkeypatch.setattr(owner, name, write_while_a_phone_polls)
    login_as("organizer")
    assert _upload(client, _export(KNOWN)).status_code == 303
    assert seen == [200]


def test_a_large_import_with_a_bad_last_event_writes_nothing(app, client, login_as, big_log):
    login_as("organizer")
    before = _counts(app)
    bad = [*big_log, {"type": "take", "cube": "Nobody"}]
    response = _upload(client, _export(bad))
    assert response.status_code == 422
    assert f"event {len(bad)} (take)" in response.data.decode()
    assert _counts(app) == before


def test_a_large_import_stores_its_game_lines_and_its_ledger_folds_nothing(
        app, client, login_as, big_log):
    login_as("organizer")
    response = _upload(client, _export(big_log))
    assert response.status_code == 303
    night_id = int(response.headers["Location"].rstrip("/").split("/")[-1])
    with app.app_context():
        (table,) = nights.get_night(night_id).tables
        _stored_equal_folded(table.id)
        assert tables.last_seq(table.id) == len(big_log)
    caches.clear_all(app)
    applied = WORK.events
    page = client.get(f"/nights/{night_id}/ledger")
    assert page.status_code == 200 and "Marathon" in page.data.decode()
    assert WORK.events == applied
    with app.app_context():
        assert ledger.night_ledger(night_id).is_consistent


# --------------------------------------------------------------------------- ledger from lines


@pytest.fixture
def played(app):
    """A night with a table played command by command (KNOWN, then the start of a game)."""
    with app.app_context():
        night = gen_night()
        table_id = gen_table(night, name="Table 1").id
        play_log(table_id, [*KNOWN, {"type": "double", "by": "box", "cubes": ["Ann"]},
                            {"type": "drop", "cube": "Ann"}], gen_member("organizer"))
        return {"night_id": night.id, "table_id": table_id}


@pytest.mark.parametrize("page", ["ledger", "settle", "settle?scope=all", "ledger.csv"])
def test_the_night_money_pages_fold_no_log(app, client, login_as, played, page):
    login_as("organizer")
    caches.clear_all(app)
    applied = WORK.events
    response = client.get(f"/nights/{played['night_id']}/{page}")
    assert response.status_code == 200
    assert WORK.events == applied, f"/{page} folded {WORK.events - applied} events"


def test_a_players_ledger_folds_no_log_and_shows_the_game_in_progress(app, client, played):
    with app.app_context():
        member = gen_member("player", name="Ann")
    client.post("/auth/login", data={"username": member.username, "password": PASSWORD})
    caches.clear_all(app)
    applied = WORK.events
    page = client.get(f"/nights/{played['night_id']}/ledger")
    assert page.status_code == 200 and WORK.events == applied
    with app.app_context():
        book = ledger.night_ledger(played["night_id"])
    assert book.is_consistent
    assert [(game.number, game.final) for game in book.games] == [(1, True), (2, True), (3, True), (4, False)]
    assert book.games[-1].cents == {"Ann": -100, "Bob": 100}  # Ann's drop, booked at once


def test_a_table_written_without_lines_is_folded_once_then_read_from_its_rows(app):
    with app.app_context():
        night = gen_night()
        table_id = gen_table(night).id
        write_log(table_id, KNOWN, None)  # a builder writing a whole log: no lines
        assert stored_lines([tables.get_table(table_id)])[1] == {table_id: len(KNOWN)}
        caches.clear_all(app)
        applied = WORK.events
        first = ledger.night_ledger(night.id)
        assert WORK.events - applied == len(KNOWN)
        _stored_equal_folded(table_id)
        caches.clear_all(app)
        applied = WORK.events
        second = ledger.night_ledger(night.id)
        assert WORK.events == applied
        assert [g.cents for g in first.games] == [g.cents for g in second.games]
        assert second.is_consistent and second.total_cents == 0


@pytest.mark.parametrize("seed", range(3))
def test_stored_game_lines_are_the_fold_of_the_log_through_undo_and_corrections(app, seed):
    rng = random.Random(seed)
    with app.app_context():
        night = gen_night()
        table_id = gen_table(night).id
        play_log(table_id, random_commands(rng, NAMES[:3 + seed], 120), gen_member("organizer"))
        _stored_equal_folded(table_id)
        caches.clear_all(app)
        applied = WORK.events
        assert ledger.night_ledger(night.id).is_consistent
        assert WORK.events == applied


def test_lines_behind_the_log_are_not_trusted(app):
    with app.app_context():
        night = gen_night()
        table_id = gen_table(night).id
        organizer = gen_member("organizer")
        play_log(table_id, KNOWN[:8], organizer)
        # One event written without its lines: the mark stays behind, and the next
        # command cannot move it either (its lines would rest on stale ones).
        tables.append_events(table_id, 8, [KNOWN[8]], organizer)
        play_log(table_id, KNOWN[9:], organizer)
        table = tables.get_table(table_id)
        assert stored_lines([table])[1] == {table_id: len(KNOWN)}
        book = ledger.night_ledger(night.id)
        assert book.is_consistent
        _stored_equal_folded(table_id)
