"""Big imports on SQLite: how long a table of 2,000, 10,000 and 50,000 events takes to import,
and what the rest of the club feels meanwhile (issue 12, finding 6).

Prints figures; asserts nothing. Run: .venv/bin/python benchmarks/import.py (or ``make
import``). Bounded in time; 127.0.0.1 only; the server and its database are temporary.

gunicorn runs as the README deploys it: ``gunicorn 'app:create_app()'`` from the repository's
root, so with ``gunicorn.conf.py`` (gthread, 2 workers x 200 threads), on a SQLite file.

The logs: one seeded night of scoresheet games at one multi-cube table of 8 players
(``chouette.table.simulate.random_night``, ``random.Random(20261124)``), cut to its first
2,000, 10,000 and 50,000 events (every prefix of a legal log is a legal log). Each is
uploaded as a night export through the import page, as an organizer's browser posts it
(multipart, CSRF token), and timed from the first byte sent to the answer (303).

Meanwhile, on another night's table (8 players seated, 20 games played):

- a phone polls ``/tables/<other>/live`` (HX-Request) every 0.2 s;
- the organizer's tablet posts a legal command (a double, an answer, a result, now and then
  an undo) every 0.2 s, as the live table's htmx buttons post it.

Their latencies (client side, p50/p95/max) are taken while each import runs, and for
``--idle`` seconds with no import first: the baseline of the same run, on the same machine
(the ratio during/idle says what the import costs them). Errors: a poll answered other than
200, a command answered other than 200/409/422 ("database is locked" is a 500), a connection
failure.

Last, ``linear`` compares each size's seconds per event with the 2,000-event import's: 1.0
for a linear import (the fold was quadratic: 10,000 events took 24.5 s, 5,000 took 4.7 s).

The last line: ``import 50,000 events X s, command p95 Y ms, poll p95 Z ms, errors E``.
Goals on a 2-core machine: the 50,000-event import under 10 s, the other table's command p95
under 100 ms meanwhile, zero errors.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.cookiejar
import json
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devices import night_app

from tests.production.live import FORM_CSRF, Client, Gunicorn, command_form

SIZES = (2_000, 10_000, 50_000)
PASSWORD = "import-bench-password-1"
SETTINGS = {"cube_mode": "multi", "stake_cents": 100, "partner_min_players": 0}
NAMES = [f"Player {n}" for n in range(1, 9)]
SEED = 20261124
POLL_EVERY = 0.2
COMMAND_EVERY = 0.2
COMMAND_OK = {200, 409, 422}


def make_log(size: int) -> list[dict[str, Any]]:
    """The first ``size`` events of a seeded night (played game by game until long enough)."""
    from chouette.table import new_table
    from chouette.table.simulate import play_game, seat_players

    rng = random.Random(SEED)
    state, events = seat_players(new_table(SETTINGS), NAMES, lambda: rng.randint(1, 6))
    while len(events) < size:
        state, more = play_game(state, rng.choice, lambda: rng.randint(1, 6), sample=True)
        events += more
    return events[:size]


def prepare(database: Path) -> tuple[Any, int]:
    """The club: an organizer, a player, another night whose table is being played; returns
    (the app, the other table's id)."""
    from chouette.services import members, nights, table_states, tables
    from chouette.table import new_table
    from chouette.table.simulate import random_night

    with night_app(f"sqlite:///{database}", "import", PASSWORD) as (app, organizer):
        members.create_member(name="Pia", username="pia", password=PASSWORD, role="player")
        night = nights.open_night(name="Tonight", on=dt.date(2026, 11, 24), currency="EUR",
                                    actor=organizer)
        table = tables.create_table(night.id, name="Other", settings=SETTINGS, actor=organizer)
        rng = random.Random(SEED + 1)
        state, events = random_night(SETTINGS, NAMES, 20, rng.choice, lambda: rng.randint(1, 6))
        tables.append_events(table.id, 0, events, organizer,
                               table_states.ledger_changes(new_table(SETTINGS), state),
                               table_states.log_snapshots(SETTINGS, events))
        table_id = table.id
    return app, table_id


class Latencies:
    """Seconds and statuses per kind, stamped with when each request started."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.samples: list[tuple[str, float, float, int | str]] = []  # kind, start, seconds, status

    def add(self, kind: str, start: float, seconds: float, status: int | str) -> None:
        with self.lock:
            self.samples.append((kind, start, seconds, status))

    def between(self, kind: str, start: float, end: float) -> list[tuple[float, int | str]]:
        with self.lock:
            return [(s, status) for k, t, s, status in self.samples if k == kind and start <= t < end]


def _request(client: Client, path: str, data: dict[str, Any] | None, headers: dict[str, str]
             ) -> tuple[int | str, float]:
    """One request: its status (or the connection error's name) and the seconds it took."""
    started = time.perf_counter()
    try:
        status, _body, seconds = client.request("POST" if data is not None else "GET", path, data, headers)
        return status, seconds
    except OSError as error:
        return f"connection: {type(error).__name__}", time.perf_counter() - started


def phone(url: str, table_id: int, stop: threading.Event, record: Latencies) -> None:
    """A player's phone on the other table: its live fragment, every ``POLL_EVERY`` s."""
    client = Client(url, timeout=60)
    client.sign_in("pia", PASSWORD)
    while not stop.is_set():
        start = time.perf_counter()
        status, seconds = _request(client, f"/tables/{table_id}/live", None, {"HX-Request": "true"})
        record.add("poll", start, seconds, status)
        stop.wait(POLL_EVERY)


def tablet(app: Any, url: str, table_id: int, stop: threading.Event, record: Latencies) -> None:
    """The other table's organizer: a legal command every ``COMMAND_EVERY`` s."""
    from tests.production.helpers import next_table_command

    rng = random.Random(SEED + 2)
    client = Client(url, timeout=60)
    client.sign_in("olga", PASSWORD)
    while not stop.is_set():
        event, seq = next_table_command(app, table_id, rng)
        path, fields = command_form(table_id, event)
        headers = {"HX-Request": "true", "X-CSRFToken": client.csrf}
        start = time.perf_counter()
        status, seconds = _request(client, path, {**fields, "seq": seq}, headers)
        record.add("command", start, seconds, status)
        stop.wait(COMMAND_EVERY)


def upload(client: Client, jar: http.cookiejar.CookieJar, name: str, events: list[dict[str, Any]]
           ) -> tuple[int, float, int]:
    """Import a night of one table through the page, as the browser whose cookies are in
    ``jar``: (status, seconds, bytes sent)."""
    export = {"night": {"name": name, "date": "2026-11-20", "currency": "EUR"},
              "tables": [{"name": "Marathon", "table": SETTINGS, "events": events}]}
    _status, page, _seconds = client.request("GET", "/nights/import")
    token = FORM_CSRF.search(page)
    assert token, "no CSRF token on the import page"
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n"
            f"{token.group(1).decode()}\r\n--{boundary}\r\nContent-Disposition: form-data; "
            f"name=\"file\"; filename=\"night.json\"\r\nContent-Type: application/json\r\n\r\n").encode()
    body += json.dumps(export, separators=(",", ":")).encode() + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(client.base_url + "/nights/import", data=body, method="POST",
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    started = time.perf_counter()
    try:
        # Not following the 303: the import is done when its answer comes.
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect())
        with opener.open(request, timeout=120) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    return status, time.perf_counter() - started, len(body)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Answers a redirect as it is (the import's 303 is its answer)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")


def _summary(samples: list[tuple[float, int | str]], ok: set[int]) -> dict[str, Any]:
    seconds = [s for s, _status in samples]
    errors = Counter(status for _s, status in samples if status not in ok)
    return {"count": len(samples), "p50": statistics.median(seconds) * 1000 if seconds else float("nan"),
            "p95": _percentile(seconds, 0.95) * 1000, "max": max(seconds, default=float("nan")) * 1000,
            "errors": dict(errors), "statuses": dict(Counter(status for _s, status in samples))}


def _line(label: str, figures: dict[str, Any], idle: dict[str, Any] | None = None) -> str:
    ratio = f", p95 x{figures['p95'] / idle['p95']:.1f} idle" if idle and idle["p95"] else ""
    return (f"  {label:8} n={figures['count']:4}  p50 {figures['p50']:7.1f} ms  p95 {figures['p95']:7.1f} ms"
            f"  max {figures['max']:7.1f} ms{ratio}  statuses {figures['statuses']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--idle", type=float, default=6.0, help="seconds of baseline with no import")
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    options = parser.parse_args()
    started = time.perf_counter()
    sizes = sorted(options.sizes)
    log = make_log(sizes[-1])
    print(f"logs: one seeded night of {len(log):,} events, cut to {', '.join(f'{n:,}' for n in sizes)}"
          f" (built in {time.perf_counter() - started:.1f} s)")
    with tempfile.TemporaryDirectory(prefix="chouette-import-") as folder:
        database = Path(folder) / "club.sqlite"
        app, other = prepare(database)
        with Gunicorn(database) as server:
            record = Latencies()
            stop = threading.Event()
            others = [threading.Thread(target=phone, args=(server.url, other, stop, record)),
                      threading.Thread(target=tablet, args=(app, server.url, other, stop, record))]
            for thread in others:
                thread.start()
            importer, jar = Client(server.url, timeout=120), http.cookiejar.CookieJar()
            importer.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
            importer.sign_in("olga", PASSWORD)
            time.sleep(1.0)  # both going
            idle_from = time.perf_counter()
            time.sleep(options.idle)
            idle = {"poll": _summary(record.between("poll", idle_from, time.perf_counter()), {200}),
                    "command": _summary(record.between("command", idle_from, time.perf_counter()), COMMAND_OK)}
            print(f"idle (no import, {options.idle:.0f} s):")
            print(_line("poll", idle["poll"]))
            print(_line("command", idle["command"]))
            results = {}
            try:
                for size in sizes:
                    begin = time.perf_counter()
                    status, seconds, sent = upload(importer, jar, f"Import {size}", log[:size])
                    end = time.perf_counter()
                    during = {"poll": _summary(record.between("poll", begin, end), {200}),
                              "command": _summary(record.between("command", begin, end), COMMAND_OK)}
                    results[size] = (status, seconds, during)
                    print(f"import {size:,} events ({sent / 1e6:.1f} MB): {seconds:.2f} s, answer {status}, "
                          f"{size / seconds:,.0f} events/s")
                    print(_line("poll", during["poll"], idle["poll"]))
                    print(_line("command", during["command"], idle["command"]))
                    time.sleep(1.0)
            finally:
                stop.set()
                for thread in others:
                    thread.join()
    first = sizes[0]
    per_event = {size: results[size][1] / size for size in sizes}
    print("linear: seconds per event against the " + f"{first:,}-event import: "
          + ", ".join(f"{size:,}: x{per_event[size] / per_event[first]:.2f}" for size in sizes))
    last = sizes[-1]
    status, seconds, during = results[last]
    errors = sum(sum(during[kind]["errors"].values()) for kind in during) + (status != 303)
    print(f"(total {time.perf_counter() - started:.0f} s; other programs on the machine slow every figure:"
          " compare with the idle baseline)")
    print(f"import {last:,} events {seconds:.1f} s, command p95 {during['command']['p95']:.0f} ms, "
          f"poll p95 {during['poll']['p95']:.0f} ms, errors {errors}")


if __name__ == "__main__":
    main()
