"""Push under a festival's load: how fast a command reaches every open page and every screen.

Prints figures; asserts nothing. Run: .venv/bin/python benchmarks/push.py [--seconds 60]
(or ``make push``); on PostgreSQL with two app nodes:
``bash .ci/with-postgres .venv/bin/python benchmarks/push.py --postgres``. Bounded in time;
127.0.0.1 only; the servers and the database are temporary.

gunicorn runs as docs/deployment.md deploys it: ``gunicorn 'app:create_app()'`` from the repository's
root, so with ``gunicorn.conf.py`` (gthread, 200 threads), one worker per core: the machine's
cores shared by its nodes (``WEB_CONCURRENCY``; here 2 workers on SQLite's one node, 1 on each of
PostgreSQL's two; ``--workers`` sets it). The night: one open
night, 20 multi-cube tables of 8 players, each with a history of 20 games (seeded). Then, at
once, for ``--seconds``:

- 20 organizers' tablets, one per table: a legal command every 2-4 s, posted as the live
  table's htmx buttons post it; on PostgreSQL to node 1 and node 2 alternately;
- 160 phones signed in as players (8 per table) holding ``/tables/<id>/stream``, and 10 big
  screens holding ``/display/<night>/stream`` (split across the nodes on PostgreSQL). Each
  stream is read line by line in a thread of its own and the arrival of each version is
  timed. Each phone is a seated player's (their seat joined under their member id), so the
  decisions the rules give them are theirs. As the pages do, a phone fetches ``/tables/<id>/live``
  (HX-Request) when the version differs from the one it shows, one fetch at a time (a version
  that comes during a fetch is fetched after it), on a connection it keeps open between
  fetches as a browser does (``--new-connections``: a new one each time). A screen's stream
  brings the tables that moved (``parts``; the whole fragment, ``fragment``, on its first
  move): it shows them as they come, with no fetch (``--versions-only``: the streams send
  versions only, and the screens fetch ``/display/<night>`` with If-None-Match);
- the organizers' tablets run in a process of their own (forked before the phones' threads
  start): a command's clock is not held by this process's hundreds of threads;
- for comparison, 20 phones polling ``/tables/<id>/live`` every 4 s as the pages did before
  push (If-None-Match: 304 while nothing changed), one per table.

Push delay (the last line's X): from the moment the server wrote a command's event (its
``TableEvent.at``, taken by ``services.append_events`` just before the transaction that commits
it: an upper bound of the commit, read from the log after the run, same machine, same clock)
to the arrival, at each stream of its table and at every screen, of the event carrying that
command's version or a later one; the p95 over all (command, stream) pairs. A pair whose event
never comes (within the run and a 2 s grace) is an error. Printed too: the same from the
moment the POST was sent (an upper bound that includes the command's own time), from its
answer arriving (a lower bound, negative when the event beats the answer), the delay to a
phone's or a screen's fetched fragment (event + fetch), and the polling phones' delay. Errors
also count commands answered other than 200/409/422, fetches answered other than 200/304,
connection failures, and streams that fail or end. ``--fetch none`` keeps the streams and
drops the fetches, to tell push from the load the fetches make.

Also printed: streams held per worker (the established connections each worker holds, before
the load and mid-run), and the CPU of the workers, of the benchmark itself, and of everything
else on the machine (the database server and any other program: the figures are only as good
as the machine is quiet).

First, 100 idle screens hold streams on a server of their own (no commands) for ``--idle-seconds``:
the CPU of the gunicorn workers as a share of one core (``/proc/<pid>/stat`` utime+stime).

The devices, the commands' timing and the app nodes are ``benchmarks/devices.py``'s (shared with
benchmarks/online.py).

The last line: ``push p95 X ms, commands p95 Y ms, errors Z``.
Goals on a 2-core machine: push p95 under 250 ms, commands p95 under 50 ms, zero errors;
100 idle screens under 10% of one core.
"""

from __future__ import annotations

import argparse
import datetime as dt
import multiprocessing
import os
import random
import re
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import devices
from devices import (
    Command,
    Device,
    Errors,
    Servers,
    database_url,
    delays,
    http_get,
    machine_ticks,
    night_app,
    node_clients,
    node_order,
    percentile,
    signed_in_phone,
    summary,
    thread_per_table,
    wait_open,
    written_commands,
)

from tests.production.live import Client, command_form

TABLES = 20
SEATED = 8
SCREENS = 10
POLLERS = TABLES  # one polling phone per table, for comparison
IDLE_SCREENS = 100
GAMES = 20
POLL_SECONDS = 4.0
GRACE_SECONDS = 2.0
PASSWORD = "push-test-password-1"
SETTINGS = {"cube_mode": "multi", "stake_cents": 100, "partner_min_players": 0}
VERSION = devices.VERSION
COMMAND_OK = {200, 409, 422}
FETCH_OK = devices.FETCH_OK
#: gunicorn workers per app node (``--workers``).
WORKERS = 2


# --------------------------------------------------------------------------- the night


def prepare(url: str) -> tuple[Any, int, list[int], list[list[str]]]:
    """Build the night on ``url``; return (app, night id, table ids, usernames per table)."""
    from chouette.services import members, nights, table_states, tables
    from chouette.table import new_table
    from chouette.table.simulate import random_night

    with night_app(url, "push", PASSWORD) as (app, organizer):
        night = nights.open_night(name="Festival", on=dt.date(2026, 11, 21), currency="EUR", actor=organizer)
        table_ids, seated = [], []
        for number in range(TABLES):
            players = [members.create_member(name=f"Player {number:02d}-{n}", username=f"p{number:02d}{n}",
                                              password=PASSWORD, role="player") for n in range(SEATED)]
            table = tables.create_table(night.id, name=f"Table {number + 1}", settings=SETTINGS, actor=organizer)
            rng = random.Random(20261121 + number)
            def die(rng: random.Random = rng) -> int:
                return rng.randint(1, 6)

            state, events = random_night(SETTINGS, [p.name for p in players], GAMES, rng.choice, die)
            # Each seat is its member's (as a join from the table's page records it), so each
            # phone is a seated player's: their rows marked, their decisions their own.
            ids = {p.name: p.id for p in players}
            events = [{**e, "member_id": ids[e["player"]]} if e["type"] == "join" else e for e in events]
            tables.append_events(table.id, 0, events, organizer,
                                   table_states.ledger_changes(new_table(table.settings), state),
                                   table_states.log_snapshots(table.settings, events))
            table_ids.append(table.id)
            seated.append([p.username for p in players])
        night_id = night.id
    return app, night_id, table_ids, seated


def _fragments_mode() -> str:
    """Whether the servers' streams send drawings (PUSH_FRAGMENTS, else the default)."""
    chosen = os.environ.get("PUSH_FRAGMENTS")
    if chosen is not None:
        return f"{'yes' if chosen == '1' else 'no'} (PUSH_FRAGMENTS={chosen})"
    return "yes (the default)"


def tablets(app: Any, urls: list[str], table_ids: list[int], stop: Any, ready: Any, results: Any) -> None:
    """The organizers' tablets, one thread each, in a process of their own (forked): their
    commands and errors go back through ``results`` when ``stop`` is set."""
    thread_per_table(table_ids, lambda n, table_id, done, errors: organizer(
        app, node_order(urls, n), "olga", table_id, stop, done, errors, n, ready), results)


def organizer(app: Any, urls: list[str], username: str, table_id: int, stop: Any,
              done: list[Command], errors: Errors, seed: int, ready: Any) -> None:
    """A tablet running one table: a legal command every 2-4 s, to each node in turn."""
    from tests.production.helpers import next_table_command

    rng = random.Random(seed)
    try:
        clients = node_clients(urls, username, PASSWORD)
    except (OSError, AssertionError):
        ready.abort()  # the run cannot start as described: say so rather than wait
        raise
    ready.wait()
    for turn in range(10**9):
        if stop.wait(rng.uniform(2, 4)):
            return
        event, seq = next_table_command(app, table_id, rng)
        try:
            path, fields = command_form(table_id, event)
        except ValueError:
            path, fields = command_form(table_id, {"type": "undo"})
        client = clients[turn % len(clients)]
        command = Command.post(client, table_id, path, fields, seq, errors)
        if command is None:
            continue
        if command.status not in COMMAND_OK:
            errors.add(f"command: status {command.status}")
        done.append(command)


def poller(url: str, username: str, table_id: int, stop: threading.Event, seen: list[tuple[float, int]],
           errors: Errors, seed: int, ready: Any) -> None:
    """A phone as before push: the live fragment every 4 s (If-None-Match)."""
    client = Client(url)
    try:
        client.sign_in(username, PASSWORD)
    except (OSError, AssertionError):
        ready.abort()
        raise
    ready.wait()
    etag = ""
    if stop.wait(random.Random(seed).uniform(0, POLL_SECONDS)):
        return
    while True:
        headers = {"HX-Request": "true", **({"If-None-Match": etag} if etag else {})}
        try:
            status, body, tag = http_get(client, f"/tables/{table_id}/live", headers)
            now = time.monotonic()
            if status not in FETCH_OK:
                errors.add(f"polling phone: status {status}")
            elif status == 200:
                etag = tag
                found = VERSION.search(body)
                if found:
                    seen.append((now, int(found.group(1))))
        except OSError as error:
            errors.add(f"polling phone: {type(error).__name__}")
        if stop.wait(POLL_SECONDS):
            return


def polling_delays(commands: list[Command], seen: dict[int, list[tuple[float, int]]]) -> list[float]:
    """Milliseconds from a command's POST to the first poll answer carrying its seq."""
    found = []
    for command in commands:
        if command.seq is None:
            continue
        for at, seq in seen[command.table_id]:
            if seq >= command.seq and at >= command.sent:
                found.append((at - command.sent) * 1000)
                break
    return found


def _server_times(servers: Servers, since: list[int]) -> dict[str, list[float]]:
    """Server milliseconds per kind of request, from the nodes' access logs (the commands also
    by endpoint: a game's result costs more than a double)."""
    kinds = ((re.compile(r"POST /tables/\d+/"), "command"),
             (re.compile(r"POST /tables/\d+/(\w+)"), "  command: {}"),
             (re.compile(r"GET /tables/\d+/live$"), "phone: live fragment"),
             (re.compile(r"GET /display/\d+$"), "screen: display fragment"))
    found: dict[str, list[float]] = defaultdict(list)
    for node, offset in zip(servers.nodes, since, strict=True):
        assert node.access_log is not None
        with node.access_log.open() as log:
            log.seek(offset)
            for line in log:
                parts = line.split()
                if len(parts) != 4:
                    continue
                for pattern, kind in kinds:
                    if matched := pattern.match(f"{parts[0]} {parts[1]}"):
                        found[kind.format(*matched.groups())].append(int(parts[3]) / 1000)
    return found


# --------------------------------------------------------------------------- the runs


def idle(folder: Path, url: str, nodes: int, night_id: int, seconds: float) -> None:
    """100 screens holding streams, no commands: the workers' CPU as a share of one core."""
    errors = Errors()
    with Servers(folder, url, nodes, "idle", WORKERS) as servers:
        screens = [Device("idle screen", servers.nodes[n % nodes].url, f"/display/{night_id}/stream", "", "",
                          Client(servers.nodes[n % nodes].url), errors, fetch=False)
                   for n in range(IDLE_SCREENS)]
        for device in screens:
            device.start()
        wait_open(screens, 60, errors)
        time.sleep(1)
        held = servers.streams_per_worker()
        ticks, started, own = servers.cpu(), time.monotonic(), os.times()
        time.sleep(seconds)
        used, elapsed = servers.cpu() - ticks, time.monotonic() - started
        own_used = sum(os.times()[:2]) - sum(own[:2])
        for device in screens:
            device.stop.set()
        for device in screens:
            device.close()
    share = used / os.sysconf("SC_CLK_TCK") / elapsed * 100
    print(f"\nidle: {IDLE_SCREENS} screens holding streams for {elapsed:.0f} s, no commands "
          f"({nodes} node{'s' if nodes > 1 else ''}, connections per worker: {held})")
    print(f"idle: gunicorn workers' CPU {share:.1f}% of one core (goal under 10%); "
          f"the benchmark's own {own_used / elapsed * 100:.1f}%; errors {errors.total()}"
          + (f" {dict(errors.found)}" if errors.found else ""))


def festival(app: Any, folder: Path, url: str, nodes: int, night_id: int, table_ids: list[int],
             seated: list[list[str]], seconds: float, fetch: str = "all",
             social: bool = False) -> tuple[float, float, int]:
    """The festival's load; prints its figures; returns (push p95, commands p95, errors)."""
    errors = Errors()
    stop = threading.Event()
    with Servers(folder, url, nodes, "festival", WORKERS) as servers:
        urls = [node.url for node in servers.nodes]
        # The tablets run in a process of their own, as they are devices of their own: a
        # command's clock is not held by the hundreds of phone and screen threads of this one
        # waiting for its interpreter (the benchmark's own processor time is printed). Forked
        # before any of those threads exists; it waits for them at ``ready``.
        forked = multiprocessing.get_context("fork")
        ready = forked.Barrier(TABLES + POLLERS + 1)
        tablets_stop, results = forked.Event(), forked.Queue()
        tablets_process = forked.Process(target=tablets, daemon=True,
                                         args=(app, urls, table_ids, tablets_stop, ready, results))
        tablets_process.start()
        print(f"signing in {TABLES * SEATED} phones ...", flush=True)
        watchers: dict[int, list[Device]] = defaultdict(list)
        phones: list[Device] = []
        panels: list[Device] = []
        for number, table_id in enumerate(table_ids):
            for seat, username in enumerate(seated[number]):
                base = urls[(number + seat) % nodes]
                device = signed_in_phone(base, username, PASSWORD, table_id, errors,
                                         fetch=fetch in ("all", "phones"))
                watchers[table_id].append(device)
                phones.append(device)
                if social:  # the table page's "Who is here" panel: its stream, and its fetches
                    panels.append(Device("social", base, f"/tables/{table_id}/social/stream",
                                         f"/tables/{table_id}/social", device.cookie, device.client, errors))
        screens = [Device("screen", urls[n % nodes], f"/display/{night_id}/stream", f"/display/{night_id}", "",
                          Client(urls[n % nodes]), errors, fetch=fetch in ("all", "screens"))
                   for n in range(SCREENS)]
        for device in phones + panels + screens:
            device.start()
        wait_open(phones + panels + screens, 60, errors)
        time.sleep(1)
        held = servers.streams_per_worker()

        done: list[Command] = []
        seen: dict[int, list[tuple[float, int]]] = defaultdict(list)
        threads = [threading.Thread(target=poller, daemon=True,
                                    args=(urls[n % nodes], seated[n][0], table_id, stop, seen[table_id], errors,
                                          100 + n, ready))
                   for n, table_id in enumerate(table_ids)]
        print(f"load: {TABLES} tablets (a command every 2-4 s), {len(phones)} phones and {SCREENS} screens holding "
              f"streams (drawings in the streams: {_fragments_mode()}; fetching after an event: {fetch}), {POLLERS} polling phones (every {POLL_SECONDS:.0f} s), for {seconds:.0f} s on "
              f"{', '.join(urls)}", flush=True)
        for thread in threads:
            thread.start()
        ready.wait(120)
        logs = [node.access_log.stat().st_size if node.access_log else 0 for node in servers.nodes]
        ticks, started, own, machine = servers.cpu(), time.monotonic(), os.times(), machine_ticks()
        try:
            time.sleep(seconds / 2)
            held_mid = servers.streams_per_worker()
            time.sleep(seconds / 2)
        finally:
            stop.set()
            tablets_stop.set()
            for thread in threads:
                thread.join(15)
            tablets_done, tablets_errors = results.get(timeout=30)
            tablets_process.join(15)
        elapsed = time.monotonic() - started
        used = servers.cpu() - ticks
        own_used = sum(os.times()[:4]) - sum(own[:4])  # with the tablets' process (joined)
        done.extend(tablets_done)
        for kind, count in tablets_errors.items():
            errors.found[kind] += count
        busy, total, stolen = (now - then for now, then in zip(machine_ticks(), machine, strict=True))
        time.sleep(GRACE_SECONDS)  # the last commands' events and fetches
        for device in phones + panels + screens:
            device.stop.set()
        for device in phones + panels + screens:
            device.close()
        server_ms = _server_times(servers, logs)

    commands = written_commands(app, done, errors)
    statuses = Counter(command.status for command in commands)
    command_ms = [(command.answered - command.sent) * 1000 for command in commands]
    push_ms, missing = delays(commands, watchers, screens, lambda device: device.arrivals,
                              lambda command: command.written or command.sent)
    sent_ms, _ = delays(commands, watchers, screens, lambda device: device.arrivals,
                        lambda command: command.sent)
    after_answer, _ = delays(commands, watchers, screens, lambda device: device.arrivals,
                             lambda command: command.answered)
    phone_ms, _ = delays(commands, watchers, [], lambda device: device.arrivals,
                         lambda command: command.written or command.sent)
    screen_ms, _ = delays(commands, {table_id: [] for table_id in table_ids}, screens,
                          lambda device: device.arrivals, lambda command: command.written or command.sent)
    before_ms = [((command.written or command.sent) - command.sent) * 1000 for command in commands
                 if command.seq is not None]
    fetched_ms, unfetched = delays(commands, watchers, [], lambda device: device.shown,
                                   lambda command: command.sent)
    screen_fetched_ms, _ = delays(commands, {table_id: [] for table_id in table_ids}, screens,
                                  lambda device: device.shown, lambda command: command.sent)
    polled_ms = polling_delays(commands, seen)
    if missing:
        errors.found["push: (command, stream) pair never reached"] += missing
    moved = sum(1 for command in commands if command.seq is not None)
    share = used / os.sysconf("SC_CLK_TCK") / elapsed * 100

    print(f"\nfestival: {len(commands)} commands in {elapsed:.0f} s ({moved} moved a table; statuses "
          f"{dict(sorted(statuses.items()))}), {nodes} node{'s' if nodes > 1 else ''} x {WORKERS} worker{'s' if WORKERS > 1 else ''}")
    print(f"streams held per worker (established connections; before the load: {held}; mid-run: {held_mid})")
    tick = os.sysconf("SC_CLK_TCK")
    others = max(0.0, busy / tick - used / tick - own_used) / elapsed * 100
    print(f"CPU (% of one core): gunicorn workers {share:.0f}%, the benchmark's own {own_used / elapsed * 100:.0f}%, "
          f"everything else {others:.0f}% (the database server, other programs); the machine's "
          f"{os.cpu_count()} cores {busy / total * 100:.0f}% busy ({stolen / total * 100:.0f}% stolen by the "
          f"virtual machine's host)")
    print(f"\n{'milliseconds':58} {'count':>6} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8}")
    rows = [
        ("command: POST sent -> answer read", command_ms),
        ("command: POST sent -> its event written (server's clock)", before_ms),
        ("push: event written -> event at each stream (all pairs)", push_ms),
        ("  of which phones' streams", phone_ms),
        ("  of which screens' streams", screen_ms),
        ("push: POST sent -> event (upper bound)", sent_ms),
        ("push: POST answered -> event (lower bound; < 0: event first)", after_answer),
        ("phone: POST sent -> its table shown (pushed, or fetched)", fetched_ms),
        ("screen: POST sent -> its tables shown (pushed, or fetched)", screen_fetched_ms),
        (f"polling phone (every {POLL_SECONDS:.0f} s): POST sent -> first poll with it", polled_ms),
    ]
    for label, values in rows:
        print(f"{label:58} {summary(values)}")
    print(f"polling, the model: a phone polls at a uniform phase, so the delay is uniform over "
          f"0-{POLL_SECONDS:.0f} s plus a fetch: p95 about {POLL_SECONDS * 0.95 * 1000:.0f} ms + the fetch")
    if unfetched:
        print(f"(phones that had not fetched a command's version by the end: {unfetched} pairs; not errors)")
    if server_ms:
        print("\nserver time (gunicorn's access logs, request to response):")
        for kind, ms in sorted(server_ms.items(), key=lambda item: item[0].strip()):
            print(f"{kind:58} {summary(ms)}")
    pushed = sum(device.pushed for device in phones + screens)
    fetches = sum(len(device.shown) for device in phones + screens) - pushed
    print(f"drawings the streams brought: {pushed}; fragments fetched after an event: {fetches}")
    if panels:
        print(f"social panels: {sum(device.pushed for device in panels)} brought by their streams, "
              f"{sum(device.fetched for device in panels)} fetched ({len(panels)} phones' panels)")
    total = errors.total()
    print(f"\nerrors: {dict(errors.found) if errors.found else 0}")
    return (percentile(push_ms, 0.95) if push_ms else float("nan"),
            percentile(command_ms, 0.95) if command_ms else float("nan"), total)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="how long the festival runs (default 60)")
    parser.add_argument("--idle-seconds", type=float, default=None,
                        help="how long the 100 idle screens are measured (default: --seconds; 0 skips)")
    parser.add_argument("--fetch", choices=("all", "phones", "screens", "none"), default="all",
                        help="which devices fetch their fragment after an event, as the pages do (default all; "
                             "the others only hold their streams: to tell push from the fetches' load)")
    parser.add_argument("--new-connections", action="store_true",
                        help="each fetch on a new connection (as before 2026-11-24), not the kept-alive one a browser uses")
    parser.add_argument("--versions-only", action="store_true",
                        help="the streams send versions only (PUSH_FRAGMENTS=0): every page fetches its fragment")
    parser.add_argument("--fragments", action="store_true",
                        help="the streams send the shared drawings (PUSH_FRAGMENTS=1, the default)")
    parser.add_argument("--social", action="store_true",
                        help="each phone also holds its table's social panel's stream and takes (or fetches) "
                             "the panel when it moves, as the table page does (the goals were set without)")
    parser.add_argument("--workers", type=int, default=None,
                        help="gunicorn workers per node (default: one per core, the machine's cores shared "
                             "by the nodes: 2 on one node here, 1 each for two nodes)")
    parser.add_argument("--postgres", action="store_true",
                        help="on PostgreSQL (DATABASE_URL, e.g. under .ci/with-postgres) with two app nodes")
    args = parser.parse_args()
    idle_seconds = args.seconds if args.idle_seconds is None else args.idle_seconds
    if args.versions_only or args.fragments:  # the servers' environment; else their default
        os.environ["PUSH_FRAGMENTS"] = "1" if args.fragments else "0"
    else:
        os.environ.pop("PUSH_FRAGMENTS", None)
    global WORKERS
    devices.KEEP_ALIVE = not args.new_connections
    WORKERS = args.workers or max(1, (os.cpu_count() or 2) // (2 if args.postgres else 1))
    with tempfile.TemporaryDirectory(prefix="chouette-push-") as name:
        folder = Path(name)
        url, nodes = database_url(folder, args.postgres, "push.py", parser.error)
        print(f"preparing: {TABLES} tables x {SEATED} players x {GAMES} games of history on "
              f"{'PostgreSQL' if args.postgres else 'SQLite'} ...", flush=True)
        app, night_id, table_ids, seated = prepare(url)
        if idle_seconds > 0:
            idle(folder, url, nodes, night_id, idle_seconds)
        push_p95, command_p95, errors = festival(app, folder, url, nodes, night_id, table_ids, seated, args.seconds,
                                                 args.fetch, args.social)
        with app.app_context():
            from chouette.extensions import db

            db.engine.dispose()
    print(f"push p95 {push_p95:.0f} ms, commands p95 {command_p95:.0f} ms, errors {errors}")


if __name__ == "__main__":
    main()
