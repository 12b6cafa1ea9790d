"""A night online under load: how fast a confirmed move reaches every device of its table.

Prints figures; asserts nothing. Run: .venv/bin/python benchmarks/online.py [--seconds 60]
(or ``make online``); on PostgreSQL with two app nodes:
``bash .ci/with-postgres .venv/bin/python benchmarks/online.py --postgres``. Bounded in time;
127.0.0.1 only; the servers and the database are temporary (README, "Playing a night online").

gunicorn runs as docs/deployment.md deploys it (``gunicorn.conf.py``), one worker per core, the
cores shared by the nodes (2 workers on SQLite's one node, 1 on each of PostgreSQL's two). The
night: ``--tables`` tables (20 by default) that play online (the table setting ``play``), each
with five members seated from the start (a box, a captain and three members; multi-cube, no
partner), each member signed in from their own HTTP session, and a big screen per table. Then,
for ``--seconds``:

- every member's phone holds ``/tables/<id>/stream`` and every screen ``/display/<night>/stream``
  (``devices.Device``, as in benchmarks/push.py: each stream read in a thread of its own, the
  arrival of each version timed, a phone fetching its own fragment when the stream brings a
  version, as the page does); with ``--card``, each phone also keeps its cube window's card
  as the online table's page does: brought by its stream before each version or drawing,
  fetched only when a version comes without it; with ``--social`` (the default), each phone
  also holds its table's social panel's stream (``/tables/<id>/social/stream``: who is
  connected, the consulting channel) and takes the panel its stream brings when it moves (or
  fetches it, ``/tables/<id>/social``, when the stream brings the version only), as the
  table's page does;
- at each table, the players play at human pace: a decision every 1-3 s, each from the device
  whose turn it is. Before each decision the player's device reads its live fragment (GET
  ``/tables/<id>/live``), but for the move after the player's own roll, made from the roll's
  answer (the page shows it: the board with the dice): the one showing a Roll button rolls (POST ``/tables/<id>/roll``,
  ``how=server``: the roller's Roll is their "roll" in the turn's cube window, and the crew,
  on auto-roll, is not asked), the one showing the board to move on plays a legal move chosen
  at random among the engine's (``legal_moves`` of the XGID the fragment shows; POST
  ``/tables/<id>/move``). A roll with no legal play passes by itself; a game that ends
  rotates the seats and the next opening roll is the new box's or captain's. No doubles: the
  moves are what is timed. The player's phone knows its own action as the page does
  (``Device.acts``): it fetches nothing while the action is on its way, shows the answer, and
  fetches afterwards only if its stream said another version. The players run in a process of their own (forked before the
  streams' threads start), so a command's clock is not held by this process's hundreds of
  threads; on PostgreSQL each player posts to node 1 and node 2 in turn.

Move delay (the last line's X): from the moment the server wrote a move's event (its
``TableEvent.at``, just before the transaction that commits it, read from the log after the
run; same machine, same clock) to the arrival, at each of its table's devices (its five phones
and its screen), of the event carrying that seq or a later one: the p95 over all (move,
device) pairs. Commands (Y): from a roll's or a move's POST sent to its answer read.

Errors (Z): commands answered other than 200, a device that does not show whose turn it is
within 10 s (the table stalled), a fragment without an XGID to move on, stream failures, fetches
answered other than 200/304, and (move, device) pairs whose event never came (within the run and
a 2 s grace).

The last line: ``online move p95 X ms, commands p95 Y ms, errors Z``.
Goals on a 2-core machine: X under 200 ms, Y under 50 ms, zero errors.
"""

from __future__ import annotations

import argparse
import datetime as dt
import html
import multiprocessing
import os
import random
import re
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import devices
from devices import (
    ANY_VERSION,
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

from tests.production.live import Client, seq_in

TABLES = 20
SEATED = 5  # a box, a captain, three members
PASSWORD = "online-test-password-1"
SETTINGS = {"play": "online", "cube_mode": "multi", "stake_cents": 100, "partner_min_players": 0}
GRACE_SECONDS = 2.0
STALL_SECONDS = 10.0
#: The card's version (``tables/_cube_window.html``).
CARD_VERSION = re.compile(rb'class="card cube-window"[^>]*?data-version="([^"]*)"', re.S)
XGID = re.compile(rb"XGID <code>([^<]+)</code>")


# --------------------------------------------------------------------------- the night


def prepare(url: str, count: int) -> tuple[Any, int, list[int], list[list[str]]]:
    """Build the night on ``url``: ``count`` online tables of five seated members (in-process,
    through the services). Returns (app, night id, table ids, usernames per table: box first)."""
    from chouette.services import commands, members, nights, tables

    with night_app(url, "online", PASSWORD) as (app, organizer):
        night = nights.open_night(name="Online night", on=dt.date(2026, 11, 27), currency="EUR", actor=organizer)
        table_ids, seated = [], []
        for number in range(count):
            players = [members.create_member(name=f"Player {number:02d}-{n}", username=f"o{number:02d}{n}",
                                              password=PASSWORD, role="player") for n in range(SEATED)]
            table = tables.create_table(night.id, name=f"Table {number + 1}", settings=SETTINGS, actor=organizer)
            events: list[dict[str, Any]] = [{"type": "join", "player": p.name, "member_id": p.id} for p in players]
            events.append({"type": "order", "players": [p.name for p in players]})
            for seq, event in enumerate(events):
                commands.play(table.id, seq, event, organizer)
            table_ids.append(table.id)
            seated.append([p.username for p in players])
        night_id = night.id
    return app, night_id, table_ids, seated


# --------------------------------------------------------------------------- the players


def decision(table_id: int, body: bytes) -> tuple[str, int] | None:
    """What a player's live fragment offers them now, and the seq it was drawn at: ("roll",
    seq), ("move", seq), or None."""
    board = re.search(rf'action="/tables/{table_id}/move\?seq=(\d+)"'.encode(), body)  # the board's form
    if board is not None:
        return "move", int(board.group(1))
    seq = seq_in(body)
    if seq is not None and f'action="/tables/{table_id}/roll"'.encode() in body:
        return "roll", seq
    return None


def chosen_move(body: bytes, rng: random.Random) -> str | None:
    """A legal move of the roll the fragment shows (its XGID: the side on roll at the bottom),
    chosen at random among the engine's; None if the fragment has no XGID with dice."""
    from chouette.engine import legal_moves, parse_xgid

    found = XGID.search(body)
    if found is None:
        return None
    position, fields = parse_xgid(html.unescape(found.group(1).decode()))
    if len(fields.dice) != 2 or "0" in fields.dice:
        return None
    plays = legal_moves(position, (int(fields.dice[0]), int(fields.dice[1])))
    return str(rng.choice(plays)) if plays else None


def players(urls: list[str], table_ids: list[int], seated: list[list[str]], stop: Any, ready: Any,
            results: Any, acting: Any) -> None:
    """Every table's players, one thread per table, in a process of their own (forked): their
    commands and errors go back through ``results`` when ``stop`` is set; each action, on its
    way then answered, through ``acting`` to the player's device (``Device.acts``)."""
    thread_per_table(table_ids, lambda n, table_id, done, errors: table_players(
        node_order(urls, n), table_id, seated[n], stop, done, errors, n, ready, acting), results)


def table_players(urls: list[str], table_id: int, usernames: list[str], stop: Any, done: list[Command],
                  errors: Errors, seed: int, ready: Any, acting: Any) -> None:
    """One table's five players, each from their own session: a decision every 1-3 s, made
    by the one whose device offers it (tried first: who is likely next)."""
    rng = random.Random(seed)
    sessions: dict[str, list[Client]] = {}
    try:
        for username in usernames:
            sessions[username] = node_clients(urls, username, PASSWORD)
    except (OSError, AssertionError):
        ready.abort()  # the run cannot start as described: say so rather than wait
        raise
    ready.wait()
    likely = list(usernames)  # the box and the captain first: they roll the opening
    turn = 0
    # The answer to the roller's Roll: their page shows it (the board with the dice), so the
    # move that follows is made from it, not from a fetch of the page a real device never makes.
    answer: tuple[str, bytes] | None = None
    while not stop.wait(rng.uniform(1, 3)):
        waited = time.monotonic()
        acted = False
        while not acted and not stop.is_set():
            for username in likely:
                client = sessions[username][turn % len(urls)]
                if answer is not None and answer[0] == username:
                    body, answer = answer[1], None
                else:
                    try:
                        status, body, _tag = http_get(client, f"/tables/{table_id}/live", {"HX-Request": "true"})
                    except OSError as error:
                        errors.add(f"player fetch: {type(error).__name__}")
                        continue
                    if status != 200:
                        errors.add(f"player fetch: status {status}")
                        continue
                offered = decision(table_id, body)
                if offered is None:
                    continue
                kind, seq = offered
                if kind == "move":
                    move = chosen_move(body, rng)
                    if move is None:
                        errors.add("player: a board to move on without an XGID and dice")
                        acted = True  # this decision is lost: the next one in 1-3 s
                        break
                    path, fields = f"/tables/{table_id}/move", {"move": move}
                else:
                    path, fields = f"/tables/{table_id}/roll", {"how": "server"}
                acting.put((table_id, username, None))  # the page: no fetch while it is on its way
                command = Command.post(client, table_id, path, fields, seq, errors, kind)
                shown = ANY_VERSION.search(command.answer) if command is not None else None
                acting.put((table_id, username, html.unescape(shown.group(1).decode()) if shown else ""))
                if command is None:
                    acted = True
                    break
                if command.status != 200:
                    errors.add(f"command {kind}: status {command.status}")
                done.append(command)
                if kind == "roll" and command.status == 200:
                    answer = (username, command.answer)
                # Who is likely next: after a roll the roller moves; after a move, the other side.
                rest = [name for name in likely if name != username]
                likely = [username, *rest] if kind == "roll" else [rest[0], username, *rest[1:]]
                acted = True
                turn += 1
                break
            if not acted:
                if time.monotonic() - waited > STALL_SECONDS:
                    errors.add("player: no device shows a decision (the table stalled)")
                    break
                stop.wait(0.1)


def relay(acting: Any, own: dict[tuple[int, str], Device]) -> None:
    """Each action of the players' process to its player's phone (``Device.acts``)."""
    while True:
        table_id, username, answered = acting.get()
        own[(table_id, username)].acts(answered)


class Card:
    """The cube window's card of an online table's page, as ``static/js/cube_window.js``
    keeps it: taken from the table's stream, which brings it drawn for the phone (a
    ``window`` event) before each version or drawing; fetched only when a version comes
    without its card (the stream's first message); never on a timer."""

    def __init__(self, client: Client, table_id: int, errors: Errors) -> None:
        self.client, self.table_id, self.errors = client, table_id, errors
        self.version: str | None = None
        self.due = False
        self.carried = False  # the stream brings the cards
        self.fetches = 0
        self.pushed = 0  # cards the stream brought
        self.stop = threading.Event()
        self._changed = threading.Condition()
        self.thread = threading.Thread(target=self._fetch, daemon=True)

    def heard(self, name: str, version: str) -> None:
        """A message of the phone's stream (``devices.Device``)."""
        if name == "window":
            self.version, self.carried = version, True
            self.pushed += 1
            return
        if (name == "changed" and version == self.version) or (name == "fragment" and self.carried):
            return
        with self._changed:
            self.due = True
            self._changed.notify()

    def close(self) -> None:
        self.stop.set()
        with self._changed:
            self._changed.notify_all()
        self.thread.join(15)

    def _fetch(self) -> None:
        while True:
            with self._changed:
                while not self.stop.is_set() and not self.due:
                    self._changed.wait()
                if self.stop.is_set():
                    return
                self.due = False
            try:
                status, body, _tag = http_get(self.client, f"/tables/{self.table_id}/window",
                                              {"HX-Request": "true"})
            except OSError as error:
                self.errors.add(f"card: {type(error).__name__}")
                continue
            self.fetches += 1
            if status != 200:
                self.errors.add(f"card: status {status}")
                continue
            found = CARD_VERSION.search(body)
            self.version = html.unescape(found.group(1).decode()) if found else None


# --------------------------------------------------------------------------- the run


def night(app: Any, folder: Path, url: str, nodes: int, workers: int, night_id: int, table_ids: list[int],
          seated: list[list[str]], seconds: float, card: bool, social: bool = True) -> tuple[float, float, int]:
    """The night online; prints its figures; returns (move p95, commands p95, errors)."""
    errors = Errors()
    stop = threading.Event()
    with Servers(folder, url, nodes, "online", workers) as servers:
        urls = [node.url for node in servers.nodes]
        forked = multiprocessing.get_context("fork")
        ready = forked.Barrier(len(table_ids) + 1)
        players_stop, results, acting = forked.Event(), forked.Queue(), forked.Queue()
        process = forked.Process(target=players, daemon=True,
                                 args=(urls, table_ids, seated, players_stop, ready, results, acting))
        process.start()
        print(f"signing in {len(table_ids) * SEATED} phones ...", flush=True)
        watchers: dict[int, list[Device]] = defaultdict(list)
        own: dict[tuple[int, str], Device] = {}  # each player's phone
        screens: dict[int, list[Device]] = {}
        phones: list[Device] = []
        panels: list[Device] = []  # each phone's social panel (``--social``)
        cards: list[Card] = []
        for number, table_id in enumerate(table_ids):
            for seat, username in enumerate(seated[number]):
                base = urls[(number + seat) % nodes]
                device = signed_in_phone(base, username, PASSWORD, table_id, errors)
                watchers[table_id].append(device)
                own[(table_id, username)] = device
                phones.append(device)
                if social:
                    panels.append(Device("social", base, f"/tables/{table_id}/social/stream",
                                         f"/tables/{table_id}/social", device.cookie, device.client, errors))
                if card:
                    follower = Card(device.client, table_id, errors)
                    device.heard = follower.heard  # the card follows the phone's stream
                    cards.append(follower)
                    follower.thread.start()
            base = urls[number % nodes]
            screens[table_id] = [Device("screen", base, f"/display/{night_id}/stream", f"/display/{night_id}", "",
                                        Client(base), errors)]
        every = phones + panels + [device for found in screens.values() for device in found]
        for device in every:
            device.start()
        threading.Thread(target=relay, args=(acting, own), daemon=True).start()
        wait_open(every, 60, errors)
        time.sleep(1)
        print(f"load: {len(table_ids)} online tables (a decision every 1-3 s), {len(phones)} phones and "
              f"{len(screens)} screens holding streams{', the phones fetching the cube window when their stream moves' if card else ''}, "
              f"for {seconds:.0f} s on {', '.join(urls)}", flush=True)
        ready.wait(120)
        ticks, started, own, machine = servers.cpu(), time.monotonic(), os.times(), machine_ticks()
        try:
            time.sleep(seconds)
        finally:
            stop.set()
            players_stop.set()
            for follower in cards:
                follower.close()
            done, found = results.get(timeout=60)
            process.join(15)
        elapsed = time.monotonic() - started
        used = servers.cpu() - ticks
        own_used = sum(os.times()[:4]) - sum(own[:4])
        for kind, count in found.items():
            errors.found[kind] += count
        busy, total, stolen = (now - then for now, then in zip(machine_ticks(), machine, strict=True))
        time.sleep(GRACE_SECONDS)  # the last moves' events
        for device in every:
            device.stop.set()
        for device in every:
            device.close()

    commands = written_commands(app, done, errors)
    moves = [command for command in commands if command.kind == "move"]
    command_ms = [(command.answered - command.sent) * 1000 for command in commands]
    move_ms, missing = delays(moves, watchers, [], lambda device: device.arrivals,
                              lambda command: command.written or command.sent, screens)
    phone_ms, _ = delays(moves, watchers, [], lambda device: device.arrivals,
                         lambda command: command.written or command.sent)
    screen_ms, _ = delays(moves, defaultdict(list), [], lambda device: device.arrivals,
                          lambda command: command.written or command.sent, screens)
    sent_ms, _ = delays(moves, watchers, [], lambda device: device.arrivals, lambda command: command.sent, screens)
    shown_ms, _ = delays(moves, watchers, [], lambda device: device.shown, lambda command: command.sent)
    if missing:
        errors.found["move: (move, device) pair never reached"] += missing
    statuses = Counter(f"{command.kind} {command.status}" for command in commands)
    print(f"live tables: {sum(device.pushed for device in phones)} brought by the phones' streams, "
          f"{sum(device.fetched for device in phones)} fetched", flush=True)
    if social:
        print(f"social panels: {sum(device.pushed for device in panels)} brought by their streams, "
              f"{sum(device.fetched for device in panels)} fetched ({len(panels)} phones' panels)",
              flush=True)
    if card:
        print(f"cube window cards: {sum(follower.pushed for follower in cards)} brought by the streams, "
              f"{sum(follower.fetches for follower in cards)} fetched ({len(cards)} phones)", flush=True)
    tick = os.sysconf("SC_CLK_TCK")
    share = used / tick / elapsed * 100
    others = max(0.0, busy / tick - used / tick - own_used) / elapsed * 100
    print(f"\nonline: {len(commands)} commands in {elapsed:.0f} s ({dict(sorted(statuses.items()))}), "
          f"{nodes} node{'s' if nodes > 1 else ''} x {workers} worker{'s' if workers > 1 else ''}")
    print(f"CPU (% of one core): gunicorn workers {share:.0f}%, the benchmark's own {own_used / elapsed * 100:.0f}%, "
          f"everything else {others:.0f}% (the database server, other programs); the machine's "
          f"{os.cpu_count()} cores {busy / total * 100:.0f}% busy ({stolen / total * 100:.0f}% stolen)")
    print(f"\n{'milliseconds':58} {'count':>6} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8}")
    rows = [
        ("commands (roll, move): POST sent -> answer read", command_ms),
        ("  of which moves", [(c.answered - c.sent) * 1000 for c in moves]),
        ("  of which rolls", [(c.answered - c.sent) * 1000 for c in commands if c.kind == "roll"]),
        ("move: event written -> at each device of its table", move_ms),
        ("  of which phones' streams", phone_ms),
        ("  of which screens' streams", screen_ms),
        ("move: POST sent -> at each device (upper bound)", sent_ms),
        ("move: POST sent -> each phone shows it (pushed or fetched)", shown_ms),
    ]
    for label, values in rows:
        print(f"{label:58} {summary(values)}")
    print(f"\nerrors: {dict(errors.found) if errors.found else 0}")
    return (percentile(move_ms, 0.95) if move_ms else float("nan"),
            percentile(command_ms, 0.95) if command_ms else float("nan"), errors.total())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="how long the night runs (default 60)")
    parser.add_argument("--tables", type=int, default=TABLES, help=f"online tables (default {TABLES})")
    parser.add_argument("--card", action=argparse.BooleanOptionalAction, default=True,
                        help="each phone fetches its cube window's card when its stream moves, as the page does (default on)")
    parser.add_argument("--social", action=argparse.BooleanOptionalAction, default=True,
                        help="each phone also holds its social panel's stream and takes (or fetches) the "
                             "panel when it moves, as the page does (default: yes)")
    parser.add_argument("--workers", type=int, default=None,
                        help="gunicorn workers per node (default: one per core, shared by the nodes)")
    parser.add_argument("--postgres", action="store_true",
                        help="on PostgreSQL (DATABASE_URL, e.g. under .ci/with-postgres) with two app nodes")
    args = parser.parse_args()
    if not 1 <= args.tables <= 100 or not 0 < args.seconds <= 3600:
        parser.error("--tables is 1 to 100, --seconds more than 0 and at most 3600")
    workers = args.workers or max(1, (os.cpu_count() or 2) // (2 if args.postgres else 1))
    os.environ.pop("PUSH_FRAGMENTS", None)
    devices.KEEP_ALIVE = True
    with tempfile.TemporaryDirectory(prefix="chouette-online-") as name:
        folder = Path(name)
        url, nodes = database_url(folder, args.postgres, "online.py", parser.error)
        print(f"preparing: {args.tables} online tables x {SEATED} players on "
              f"{'PostgreSQL' if args.postgres else 'SQLite'} ...", flush=True)
        app, night_id, table_ids, seated = prepare(url, args.tables)
        move_p95, command_p95, errors = night(app, folder, url, nodes, workers, night_id, table_ids, seated,
                                              args.seconds, args.card, args.social)
        with app.app_context():
            from chouette.extensions import db

            db.engine.dispose()
    print(f"online move p95 {move_p95:.0f} ms, commands p95 {command_p95:.0f} ms, errors {errors}")


if __name__ == "__main__":
    main()
