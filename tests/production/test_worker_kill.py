"""A gunicorn worker killed (SIGKILL) in the middle of commands leaves the database consistent:
every command happened whole or not at all.

A real gunicorn with 2 sync workers serves a SQLite file on 127.0.0.1. Organizers' phones post
table commands over HTTP through the live table's endpoints (two per table, so they also race
each other); meanwhile workers are SIGKILLed again and again, until several kills have cut
requests off mid-flight. Then every table's log must be seq 1..n without gap or duplicate, the
ledger must equal the projection of the logs (``games_money`` of the fold, game by game and
player by player) and sum to zero, and SQLite must find the file intact.
"""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from collections import Counter

import pytest

from chouette.extensions import db
from tests.factories import PASSWORD, gen_member, gen_night, gen_table
from tests.production.helpers import (
    check_consistency,
    migrated_app,
    next_table_command,
    seat_table,
    sqlite_only,
)
from tests.production.live import Client, Gunicorn, command_form, seq_in

pytestmark = [*sqlite_only, pytest.mark.slow]

TABLES = 3
PHONES_PER_TABLE = 2
CUT_OFF_REQUESTS = 3  # kill until at least this many requests died with their worker
MAX_KILLS = 25


def _phone(app, base_url: str, username: str, table_id: int, seed: int, stop: threading.Event,
           outcomes: Counter, lock: threading.Lock) -> None:
    """Play as one phone until ``stop``; how it ended is recorded in ``outcomes``.

    Whatever stops the phone early is recorded (not only printed by a dying thread), so the
    test fails on it.
    """
    try:
        _play(app, base_url, username, table_id, seed, stop, outcomes, lock)
    except Exception as error:  # noqa: BLE001 (whatever stops a phone is recorded and fails the test)
        with lock:
            outcomes[f"phone stopped by {type(error).__name__}: {error}"] += 1
    else:
        with lock:
            outcomes["phone finished"] += 1


def _play(app, base_url: str, username: str, table_id: int, seed: int, stop: threading.Event,
          outcomes: Counter, lock: threading.Lock) -> None:
    """Post commands the rules accept (chosen from the current state) until ``stop``."""
    rng = random.Random(seed)
    phone = Client(base_url)
    for attempt in range(20):
        try:
            phone.sign_in(username, PASSWORD, page=f"/tables/{table_id}")
            break
        except (OSError, AssertionError):  # its worker was just killed: sign in again
            if attempt == 19:
                raise
            time.sleep(0.1)
    while not stop.is_set():
        event, seq = next_table_command(app, table_id, rng)
        path, fields = command_form(table_id, event)
        try:
            status, body, _seconds = phone.htmx("POST", path, {**fields, "seq": seq})
        except OSError:  # ConnectionCut: refused, reset, or the answer cut short (IncompleteRead)
            outcome = "cut off"  # the worker died with the request in flight
        else:
            outcome = {200: "applied", 409: "table changed", 422: "refused"}.get(status, f"status {status}")
            shown = seq_in(body)
            if status == 200 and (shown is None or shown < seq + 1):  # the other phone may add one
                outcome = "applied, but the page shows the table before it"
        with lock:
            outcomes[outcome] += 1


def test_killing_workers_mid_command_leaves_every_log_whole_and_the_ledger_its_projection(tmp_path):
    database = tmp_path / "club.sqlite"
    app = migrated_app(database)
    with app.app_context():
        organizer = gen_member("organizer")
        username = organizer.username
        night = gen_night(opened_by_id=organizer.id)
        tables = [gen_table(night, created_by_id=organizer.id).id for _ in range(TABLES)]
        for table_id in tables:
            seat_table(table_id, organizer)
        db.session.remove()
        db.engine.dispose()

    outcomes: Counter = Counter()
    lock, stop = threading.Lock(), threading.Event()
    kills = 0
    with Gunicorn(database, workers=2) as server:
        phones = [
            threading.Thread(target=_phone, args=(app, server.url, username, table_id, 10 * table_id + n,
                                                  stop, outcomes, lock))
            for table_id in tables for n in range(PHONES_PER_TABLE)
        ]
        for phone in phones:
            phone.start()
        rng = random.Random(3)
        applied_at_kill = 0
        started = time.monotonic()
        deadline = time.monotonic() + 90
        try:
            while outcomes["applied"] < 20 and time.monotonic() < deadline:
                time.sleep(0.05)
            while (outcomes["cut off"] < CUT_OFF_REQUESTS and kills < MAX_KILLS
                   and time.monotonic() < deadline):
                # Kill when both workers are up and busy again (commands went through since).
                workers = server.worker_pids()
                if len(workers) < 2 or outcomes["applied"] < applied_at_kill + 3:
                    time.sleep(0.02)
                    continue
                time.sleep(rng.uniform(0.0, 0.2))
                server.kill_worker(rng.choice(workers))
                kills += 1
                applied_at_kill = outcomes["applied"]
            # Keep the load on the replaced workers until they apply commands (a worker boots
            # slower on a busy machine: a deadline, not a fixed pause, decides how long).
            settle = time.monotonic() + 30
            while outcomes["applied"] <= applied_at_kill + 2 and time.monotonic() < settle:
                time.sleep(0.05)
            applied_before_stop = outcomes["applied"]
            seconds = time.monotonic() - started
        finally:
            stop.set()
            for phone in phones:
                phone.join(30)
        # The server recovered by itself: both workers back, answering.
        assert len(server.worker_pids()) == 2
        status, _body, _seconds = Client(server.url).request("GET", "/health")
        assert status == 200

    print(f"\n{kills} workers killed in {seconds:.1f} s; requests: {dict(outcomes)}")
    assert not any(phone.is_alive() for phone in phones)
    # Every phone ran to the stop: none died on an exception (a dead thread is not alive either).
    assert outcomes.pop("phone finished", 0) == len(phones), dict(outcomes)
    assert outcomes["cut off"] >= CUT_OFF_REQUESTS, f"{kills} kills cut off only {outcomes['cut off']} requests"
    # The replaced workers went on applying commands after the last kill.
    assert applied_before_stop > applied_at_kill, f"no command applied after the last kill ({applied_at_kill})"
    unexpected = {outcome: n for outcome, n in outcomes.items()
                  if outcome not in ("applied", "table changed", "refused", "cut off")}
    assert not unexpected, f"answers no command should get: {unexpected}"

    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    connection.close()
    counts = check_consistency(app)
    assert counts["tables"] == TABLES and counts["events"] >= TABLES * 5 + applied_before_stop
    with app.app_context():
        db.engine.dispose()
