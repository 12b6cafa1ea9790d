"""A club night under load: gunicorn with 2 workers on 127.0.0.1, a temporary SQLite file.

Prints figures; asserts nothing. Run: .venv/bin/python benchmarks/load.py [--seconds 60]
(or ``make load``). Bounded in time; the server and its database are temporary.

The night: one open night, 6 multi-cube tables of 6 players, each with a history of 30 games
(``chouette.table.simulate.random_night``, seeded) and their ledger rows. Then, at once:

- 6 organizers' tablets, one per table: a command every 2-4 s (a double, an answer, a result,
  now and then an undo: chosen among the legal ones of the table's current state), posted as
  the live table's htmx buttons post it (CSRF header, the seq of the page), answered with the
  refreshed table;
- 40 phones signed in as players: the live table fragment polled every 4 s as the page does
  (``If-None-Match``: 304 while nothing changed), and every sixth time the whole table page
  reloaded;
- 4 big screens polling the night's display fragment every 2 s (``If-None-Match``).

Reported per kind of request: count, requests/s, p50/p95/p99/max latency (client side, from
the first byte sent to the last byte read), statuses, errors (5xx, connection failures, or a
status the request should never get). 409 (someone changed the table first) and 422 (the
rules refused) are answers, not errors. The goal: zero errors, p95 under 50 ms for commands.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devices import night_app, percentile

from tests.production.live import Client, Gunicorn, command_form

TABLES = 6
SEATED = 6
PHONES = 40
SCREENS = 4
GAMES = 30
PASSWORD = "load-test-password-1"
SETTINGS = {"cube_mode": "multi", "stake_cents": 100, "partner_min_players": 0}
#: The statuses each kind of request may get; anything else is an error.
EXPECTED = {
    "command": {200, 409, 422},
    "phone: live fragment": {200, 304},
    "phone: table page": {200},
    "screen: display fragment": {200, 304},
}


def prepare(database: Path):
    """Build the night; return (app, night id, table ids, organizer username, player usernames)."""
    from chouette.services import members, nights, table_states, tables
    from chouette.table import new_table
    from chouette.table.simulate import random_night

    with night_app(f"sqlite:///{database}", "load", PASSWORD) as (app, organizer):
        players = [members.create_member(name=f"Player {n:02d}", username=f"player{n:02d}",
                                          password=PASSWORD, role="player") for n in range(PHONES)]
        night = nights.open_night(name="Load night", on=dt.date(2026, 11, 21), currency="EUR", actor=organizer)
        table_ids = []
        for number in range(TABLES):
            table = tables.create_table(night.id, name=f"Table {number + 1}", settings=SETTINGS, actor=organizer)
            names = [p.name for p in players[number * SEATED:(number + 1) * SEATED]]
            rng = random.Random(20261121 + number)
            state, events = random_night(SETTINGS, names, GAMES, rng.choice, lambda rng=rng: rng.randint(1, 6))
            tables.append_events(table.id, 0, events, organizer, table_states.ledger_changes(new_table(table.settings), state),
                                   table_states.log_snapshots(table.settings, events))
            table_ids.append(table.id)
        usernames = [p.username for p in players]
        night_id = night.id
    return app, night_id, table_ids, "olga", usernames


class Recorder:
    """Latencies and statuses per kind of request, from many threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seconds: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, Counter] = defaultdict(Counter)
        self.errors: dict[str, Counter] = defaultdict(Counter)

    def record(self, kind: str, status: int | str, seconds: float | None) -> None:
        with self.lock:
            self.statuses[kind][status] += 1
            if seconds is not None:
                self.seconds[kind].append(seconds)
            if status not in EXPECTED[kind]:
                self.errors[kind][status] += 1


def _timed(recorder: Recorder, kind: str, call, *args) -> tuple[int, bytes, dict[str, str]] | None:
    """Make one request ``call(*args)`` and record it."""
    try:
        status, body, seconds, headers = call(*args)
    except OSError as error:
        recorder.record(kind, f"connection: {type(error).__name__}", None)
        return None
    recorder.record(kind, status, seconds)
    return status, body, headers


def _request(client: Client, path: str, headers: dict[str, str]):
    """GET ``path``; returns status, body, seconds and the response headers we need."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(client.base_url + path, headers=headers)
    started = time.perf_counter()
    try:
        with client.opener.open(request, timeout=client.timeout) as response:
            body = response.read()
            return response.status, body, time.perf_counter() - started, {"ETag": response.headers.get("ETag", "")}
    except urllib.error.HTTPError as error:
        body = error.read()
        return error.code, body, time.perf_counter() - started, {"ETag": error.headers.get("ETag", "")}


def _post(client: Client, path: str, form: dict):
    """POST a command as htmx does; returns status, body, seconds, no headers."""
    return (*client.htmx("POST", path, form), {})


def organizer(app, url: str, username: str, table_id: int, stop: threading.Event, recorder: Recorder,
              seed: int, ready: threading.Barrier) -> None:
    """A tablet running one table: a legal command every 2-4 s."""
    from tests.production.helpers import next_table_command

    rng = random.Random(seed)
    client = Client(url)
    client.sign_in(username, PASSWORD)
    ready.wait()
    while not stop.wait(rng.uniform(2, 4)):
        event, seq = next_table_command(app, table_id, rng)
        path, fields = command_form(table_id, event)
        _timed(recorder, "command", _post, client, path, {**fields, "seq": seq})


def phone(url: str, username: str, table_id: int, stop: threading.Event, recorder: Recorder, seed: int,
          ready: threading.Barrier) -> None:
    """A player's phone on their table: the fragment every 4 s, the whole page every sixth time."""
    rng = random.Random(seed)
    client = Client(url)
    client.sign_in(username, PASSWORD)
    ready.wait()
    etag = ""
    if stop.wait(rng.uniform(0, 4)):
        return
    for cycle in range(10**9):
        if cycle % 6 == 5:
            _timed(recorder, "phone: table page", _request, client, f"/tables/{table_id}", {})
        else:
            headers = {"HX-Request": "true", **({"If-None-Match": etag} if etag else {})}
            answer = _timed(recorder, "phone: live fragment", _request, client, f"/tables/{table_id}/live", headers)
            if answer and answer[0] == 200:
                etag = answer[2]["ETag"]
        if stop.wait(4):
            return


def screen(url: str, night_id: int, stop: threading.Event, recorder: Recorder, seed: int,
           ready: threading.Barrier) -> None:
    """A big screen: the night's display fragment every 2 s."""
    client = Client(url)
    ready.wait()
    etag = ""
    if stop.wait(random.Random(seed).uniform(0, 2)):
        return
    while True:
        headers = {"HX-Request": "true", **({"If-None-Match": etag} if etag else {})}
        answer = _timed(recorder, "screen: display fragment", _request, client, f"/display/{night_id}", headers)
        if answer and answer[0] == 200:
            etag = answer[2]["ETag"]
        if stop.wait(2):
            return


def report(recorder: Recorder, seconds: float) -> None:
    """Print the figures, one line per kind of request."""
    print(f"\n{'request':26} {'count':>6} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7}  statuses")
    total = 0
    for kind in EXPECTED:
        times = recorder.seconds.get(kind, [])
        count = sum(recorder.statuses[kind].values())
        total += count
        if not times:
            print(f"{kind:26} {count:6d}  (no answers)")
            continue
        ms = [t * 1000 for t in times]
        statuses = ", ".join(f"{status}: {n}" for status, n in sorted(recorder.statuses[kind].items(), key=str))
        print(f"{kind:26} {count:6d} {count / seconds:7.1f} {statistics.median(ms):7.1f} {percentile(ms, 0.95):7.1f} "
              f"{percentile(ms, 0.99):7.1f} {max(ms):7.1f}  {statuses}")
    errors = {kind: dict(found) for kind, found in recorder.errors.items() if found}
    print(f"{'all':26} {total:6d} {total / seconds:7.1f}")
    print(f"errors: {errors or 0}")


def server_times(access_log: Path) -> dict[str, list[float]]:
    """Milliseconds spent in the server per kind of request, from gunicorn's access log."""
    kinds = ((re.compile(r"POST /tables/\d+/"), "command"),
             (re.compile(r"GET /tables/\d+/live$"), "phone: live fragment"),
             (re.compile(r"GET /tables/\d+$"), "phone: table page"),
             (re.compile(r"GET /display/\d+$"), "screen: display fragment"))
    found: dict[str, list[float]] = defaultdict(list)
    for line in access_log.read_text().splitlines():
        method, path, _status, micros = line.split()
        for pattern, kind in kinds:
            if pattern.match(f"{method} {path}"):
                found[kind].append(int(micros) / 1000)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="how long the load runs (default 60)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chouette-load-") as folder:
        database = Path(folder) / "club.sqlite"
        print(f"preparing: {TABLES} tables x {SEATED} players x {GAMES} games of history ...", flush=True)
        app, night_id, table_ids, organizer_name, players = prepare(database)
        recorder, stop = Recorder(), threading.Event()
        ready = threading.Barrier(TABLES + PHONES + SCREENS + 1)  # everyone signed in: the load starts
        access_log = Path(folder) / "access.log"
        with Gunicorn(database, workers=2, log=Path(folder) / "gunicorn.log", access_log=access_log) as server:
            threads = [threading.Thread(target=organizer, args=(app, server.url, organizer_name, table_id, stop,
                                                                recorder, n, ready))
                       for n, table_id in enumerate(table_ids)]
            threads += [threading.Thread(target=phone, args=(server.url, players[n], table_ids[n % TABLES], stop,
                                                             recorder, 100 + n, ready))
                        for n in range(PHONES)]
            threads += [threading.Thread(target=screen, args=(server.url, night_id, stop, recorder, 200 + n, ready))
                        for n in range(SCREENS)]
            print(f"load: {TABLES} organizers (a command every 2-4 s), {PHONES} phones (every 4 s), "
                  f"{SCREENS} big screens (every 2 s), for {args.seconds:.0f} s on {server.url}", flush=True)
            for thread in threads:
                thread.daemon = True
                thread.start()
            ready.wait(120)
            access_log.write_text("")  # the sign-ins are not part of the night's load
            started = time.monotonic()
            try:
                time.sleep(args.seconds)
            finally:
                stop.set()
                for thread in threads:
                    thread.join(15)
            elapsed = time.monotonic() - started
        report(recorder, elapsed)
        print("\nserver time (gunicorn's access log, from request to response):")
        for kind, ms in server_times(access_log).items():
            print(f"{kind:26} {len(ms):6d}         {statistics.median(ms):7.1f} {percentile(ms, 0.95):7.1f} "
                  f"{percentile(ms, 0.99):7.1f} {max(ms):7.1f}")
        with app.app_context():
            from chouette.extensions import db

            db.engine.dispose()


if __name__ == "__main__":
    main()
