"""What the push benchmarks share (benchmarks/push.py, benchmarks/online.py): devices holding
push streams, commands timed from their write to their arrival, app nodes under gunicorn, and
their figures; ``night_app`` (the app and its organizer) serves benchmarks/load.py and
benchmarks/import.py too. Standard library only (the app is read only in ``read_written`` and
``night_app``).

A ``Device`` is one open page: its stream read line by line in a thread of its own, the arrival
of each version timed, and (``fetch``) its fragment fetched after an event as the page does. A
``Command`` is one command answered; ``read_written`` gives it the moment the server wrote its
event (``TableEvent.at``); ``delays`` the milliseconds from then to its arrival at each device.
``Servers`` runs one gunicorn per app node on 127.0.0.1, all on the same database.
"""

from __future__ import annotations

import bisect
import contextlib
import datetime as dt
import html
import http.client
import os
import re
import socket
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Self

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.production.live import Client, Gunicorn

ANY_VERSION = re.compile(rb'data-version="([^"]*)"')
#: A live table's version as its fragment carries it: its seq, and the digit after it.
VERSION = re.compile(rb'data-version="(\d+)-(\d)"')
FETCH_OK = {200, 304}
#: Whether the devices keep their fetching connection open (push.py --new-connections: no).
KEEP_ALIVE = True


def _seq(version: str | None) -> int:
    """The table's seq in a live table's version (``"<seq>-<open>~<window>"``), -1 for none."""
    head = (version or "").partition("-")[0]
    return int(head) if head.isdigit() else -1


def shows(page: str | None, version: str | None) -> bool:
    """Whether a page showing ``page`` shows ``version``: the same, or (the live table of an
    online table) ``version`` with its cube window's part (``~...``, ``chouette.push``) cut,
    as ``static/js/live.js`` compares them."""
    if page is None or version is None:
        return page == version
    return page == version or ("~" not in page and page == version.partition("~")[0])


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(values: list[float]) -> str:
    """count, p50, p95, p99, max of a list of milliseconds."""
    if not values:
        return "     0  (none)"
    return (f"{len(values):6d} {statistics.median(values):8.1f} {percentile(values, 0.95):8.1f} "
            f"{percentile(values, 0.99):8.1f} {max(values):8.1f}")


# --------------------------------------------------------------------------- the record


class Errors:
    """Errors by kind, from many threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.found: Counter[str] = Counter()

    def add(self, kind: str) -> None:
        with self.lock:
            self.found[kind] += 1

    def total(self) -> int:
        return sum(self.found.values())


def cookie_header(client: Client) -> str:
    """The cookies a signed-in ``Client`` sends (for a stream opened with http.client)."""
    for handler in getattr(client.opener, "handlers", ()):  # OpenerDirector's, untyped
        if isinstance(handler, urllib.request.HTTPCookieProcessor):
            return "; ".join(f"{cookie.name}={cookie.value}" for cookie in handler.cookiejar)
    return ""


def http_get(client: Client, path: str, headers: dict[str, str]) -> tuple[int, bytes, str]:
    """GET ``path``: status, body, ETag (HTTP errors are answers; OSError is raised)."""
    request = urllib.request.Request(client.base_url + path, headers=headers)
    try:
        with client.opener.open(request, timeout=client.timeout) as response:
            return response.status, response.read(), response.headers.get("ETag", "")
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers.get("ETag", "")


class Device:
    """One open page: its stream, read in a thread of its own, and its fetches, in another.

    ``arrivals``: (time, version) of every ``changed`` event; ``shown``: (time, version) of
    every fetch answered (the version the page shows from then on)."""

    def __init__(self, kind: str, base_url: str, stream_path: str, fetch_path: str, cookie: str,
                 client: Client, errors: Errors, fetch: bool = True,
                 heard: Callable[[str, str], None] | None = None) -> None:
        self.kind = kind
        self.host, port = base_url.removeprefix("http://").split(":")
        self.port = int(port)
        self.base_url = base_url
        self.stream_path, self.fetch_path = stream_path, fetch_path
        self.cookie, self.client, self.errors, self.fetch = cookie, client, errors, fetch
        self.heard = heard  # told of every message (its event, its version): the page's other parts
        self.arrivals: list[tuple[float, str]] = []
        self.shown: list[tuple[float, str]] = []
        self.pushed = 0  # drawings that came in the stream
        self.fetched = 0  # fetches answered 200 or 304
        self.opened = threading.Event()
        self.stop = threading.Event()
        self._wanted: str | None = None
        self._page: str | None = None  # the version the page shows
        self._acting = False  # the reader's own action is on its way (``acts``)
        self._changed = threading.Condition()
        self._connection: http.client.HTTPConnection | None = None
        self._fetching: http.client.HTTPConnection | None = None
        self.threads = [threading.Thread(target=self._read, daemon=True)]
        if fetch:
            self.threads.append(threading.Thread(target=self._fetch, daemon=True))

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def close(self) -> None:
        """Let go of the stream (as a browser closing the page) and stop fetching."""
        self.stop.set()
        connection = self._connection
        if connection is not None and connection.sock is not None:
            with contextlib.suppress(OSError):
                connection.sock.shutdown(socket.SHUT_RDWR)
        with self._changed:
            self._changed.notify_all()
        for thread in self.threads:
            thread.join(5)

    # the stream -------------------------------------------------------------------------

    def _read(self) -> None:
        while not self.stop.is_set():
            try:
                self._hold()
                if not self.stop.is_set():
                    self.errors.add(f"{self.kind} stream: ended")
            except (OSError, http.client.HTTPException) as error:
                if not self.stop.is_set():
                    self.errors.add(f"{self.kind} stream: {type(error).__name__}")
            self.stop.wait(1.0)  # the stream's retry: 1000 ms

    def _hold(self) -> None:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        self._connection = connection
        try:
            headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
            if self.cookie:
                headers["Cookie"] = self.cookie
            connection.request("GET", self.stream_path, headers=headers)
            response = connection.getresponse()
            if response.status != 200 or not response.getheader("Content-Type", "").startswith("text/event-stream"):
                self.errors.add(f"{self.kind} stream: status {response.status}")
                return
            name, data = "message", []
            while not self.stop.is_set():
                line = response.readline()
                if not line:
                    return
                if line.startswith(b"event: "):
                    name = line[7:].strip().decode()
                elif line.startswith(b"data: "):
                    data.append(line[6:].rstrip(b"\r\n").decode())
                elif line in (b"\n", b"\r\n"):
                    if data:
                        self._message(name, "\n".join(data))
                    name, data = "message", []
        finally:
            connection.close()

    def _message(self, name: str, data: str) -> None:
        """One event: ``changed`` (a version: fetch it), or a drawing the page takes in as it
        comes (``fragment``, the whole fragment; ``parts``: the version, then what moved;
        ``window``: an online table's cube window card, passed on to ``heard``)."""
        now = time.monotonic()
        if name == "window":  # an online table's cube window card, drawn for this device
            found = ANY_VERSION.search(data.encode())
            if found is None:
                self.errors.add(f"{self.kind} stream: a card without its version")
            elif self.heard is not None:
                self.heard(name, html.unescape(found.group(1).decode()))
            return
        if name == "changed":
            version = data.strip()
        elif name == "fragment":
            found = ANY_VERSION.search(data.encode())
            if found is None:
                self.errors.add(f"{self.kind} stream: a fragment without its version")
                return
            version = html.unescape(found.group(1).decode())
        elif name == "parts":
            version = data.partition("\n")[0]
        else:
            self.errors.add(f"{self.kind} stream: unknown event {name!r}")
            return
        self.arrivals.append((now, version))
        if self.heard is not None:
            self.heard(name, version)
        if not self.opened.is_set():
            self._page = version  # the page was drawn at this version
            self.opened.set()
        if name == "changed":
            self._event(version)
            return
        self.pushed += 1
        self.shown.append((now, version))  # the page shows it as it comes: no fetch
        with self._changed:
            self._page = version

    def acts(self, answered: str | None) -> None:
        """The reader's own action, as ``static/js/live.js`` sees it: on its way (``None``),
        then answered with the table at ``answered`` ("" when its answer brought none). While
        it is on its way the page fetches nothing; its answer is what the page shows, and the
        page fetches afterwards only if the stream said another version."""
        with self._changed:
            self._acting = answered is None
            # Told a moment late (the players run in another process): a fetch may have shown a
            # later table meanwhile, which the answer does not take back.
            if answered and _seq(answered) >= _seq(self._page):
                self._page = answered
                self.shown.append((time.monotonic(), answered))
            self._changed.notify()

    def _event(self, version: str) -> None:
        if self.fetch:
            with self._changed:
                self._wanted = version
                self._changed.notify()

    # the fetches ------------------------------------------------------------------------

    def _get(self, headers: dict[str, str]) -> tuple[int, bytes, str]:
        """One fetch, on the connection the device keeps open between fetches (as a browser
        does: HTTP/1.1 keep-alive), or through ``Client`` (a new connection each time)."""
        if not KEEP_ALIVE:
            return http_get(self.client, self.fetch_path, headers)
        for attempt in (1, 2):
            connection = self._fetching
            if connection is None:
                connection = self._fetching = http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                connection.request("GET", self.fetch_path,
                                   headers={**headers, **({"Cookie": self.cookie} if self.cookie else {})})
                response = connection.getresponse()
                body = response.read()
            except (OSError, http.client.HTTPException):
                connection.close()
                self._fetching = None
                if attempt == 2:
                    raise
                continue  # the server closed the idle connection: a new one, as a browser does
            if response.getheader("Connection", "").lower() == "close":
                connection.close()
                self._fetching = None
            return response.status, body, response.getheader("ETag", "")
        raise AssertionError("unreachable")

    def _fetch(self) -> None:
        etag = ""
        while True:
            with self._changed:
                while not self.stop.is_set() and (self._acting or self._wanted is None
                                                  or shows(self._page, self._wanted)):
                    self._changed.wait()
                if self.stop.is_set():
                    return
                wanted = self._wanted
            headers = {"HX-Request": "true", **({"If-None-Match": etag} if etag else {})}
            try:
                status, body, tag = self._get(headers)
            except (OSError, http.client.HTTPException) as error:
                self.errors.add(f"{self.kind} fetch: {type(error).__name__}")
                self.stop.wait(1.0)
                continue
            now = time.monotonic()
            if status not in FETCH_OK:
                self.errors.add(f"{self.kind} fetch: status {status}")
                self.stop.wait(1.0)
                continue
            etag = tag or etag
            self.fetched += 1
            found = ANY_VERSION.search(body) if status == 200 else None
            shown = html.unescape(found.group(1).decode()) if found else wanted
            assert shown is not None
            self.shown.append((now, shown))
            with self._changed:
                self._page = shown
                # The version fetched for is done with (a later table than it said is shown
                # as it is, as live.js does); one said during the fetch is fetched next.
                if self._wanted == wanted:
                    self._wanted = None


class Command:
    """One command answered: its table, the seq it committed at (None: nothing moved), times."""

    __slots__ = ("answer", "answered", "kind", "sent", "seq", "status", "table_id", "written")

    def __init__(self, table_id: int, seq: int | None, sent: float, answered: float, status: int,
                 kind: str = "command") -> None:
        self.table_id, self.seq, self.sent, self.answered, self.status = table_id, seq, sent, answered, status
        self.kind = kind  # what the command was (online.py: "roll", "move")
        #: When the server wrote its event (``TableEvent.at``, on this process's clock).
        self.written: float | None = None
        #: The answer's body (the live table drawn after it), for what the page shows next.
        self.answer = b""

    @classmethod
    def post(cls, client: Client, table_id: int, path: str, fields: dict[str, Any], seq: int,
             errors: Errors, kind: str = "command") -> Command | None:
        """Post a command drawn at ``seq`` as the live table's htmx buttons post it, timed from
        its sending to its answer read; None when the connection failed (counted in ``errors``)."""
        sent = time.monotonic()
        try:
            status, body, _seconds = client.htmx("POST", path, {**fields, "seq": seq})
        except OSError as error:
            errors.add(f"command: {type(error).__name__}")
            return None
        answered = time.monotonic()
        found = VERSION.search(body) if status == 200 else None
        moved = int(found.group(1)) if found and int(found.group(1)) > seq else None
        command = cls(table_id, moved, sent, answered, status, kind)
        command.answer = body
        return command


def read_written(app: Any, commands: list[Command]) -> None:
    """Set each command's ``written``: its event's ``at`` (taken by ``services.append_events``
    just before the write transaction that commits it), on the monotonic clock."""
    from sqlalchemy import select

    from chouette.extensions import db
    from chouette.models import TableEvent

    offset = time.time() - time.monotonic()  # the clocks' difference (no jump during a run)
    with app.app_context():
        rows = db.session.execute(select(TableEvent.table_id, TableEvent.seq, TableEvent.at)).all()
        db.session.remove()
    at = {(table_id, seq): moment.replace(tzinfo=dt.UTC).timestamp() - offset for table_id, seq, moment in rows}
    for command in commands:
        if command.seq is not None:
            command.written = at.get((command.table_id, command.seq))


def written_commands(app: Any, done: list[Command], errors: Errors) -> list[Command]:
    """The commands answered, in the order they were sent, each with its ``written`` moment;
    a command answered with a seq whose event is not in the log counts as an error."""
    commands = sorted(done, key=lambda command: command.sent)
    read_written(app, commands)
    unwritten = sum(1 for command in commands if command.seq is not None and command.written is None)
    if unwritten:
        errors.found["command: its event is not in the log"] += unwritten
    return commands


@contextlib.contextmanager
def night_app(url: str, secret_key: str, password: str) -> Iterator[tuple[Any, Any]]:
    """A new app on ``url`` with its tables made (``init-db``) and its organizer Olga, inside
    an app context: (app, Olga). What the block adds is committed at its end, and the
    engine's connections closed (the servers are other processes)."""
    from app import create_app
    from chouette.extensions import db
    from chouette.services import members

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": secret_key,
                      "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000"})
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        yield app, members.create_member(name="Olga", username="olga", password=password, role="organizer")
        db.session.commit()
        db.engine.dispose()


def database_url(folder: Path, postgres: bool, script: str, refuse: Callable[[str], Any]) -> tuple[str, int]:
    """The run's database and its number of app nodes: PostgreSQL (``DATABASE_URL``) with two,
    else a SQLite file in ``folder`` with one. ``refuse`` says why PostgreSQL cannot be used."""
    if postgres:
        url = os.environ.get("DATABASE_URL", "")
        if not url.startswith("postgresql"):
            refuse("--postgres needs DATABASE_URL on an empty PostgreSQL database "
                   f"(run it under: bash .ci/with-postgres .venv/bin/python benchmarks/{script} --postgres)")
        return url, 2
    os.environ.pop("DATABASE_URL", None)  # the app would prefer it to the file below
    return f"sqlite:///{folder / 'club.sqlite'}", 1


def node_clients(urls: list[str], username: str, password: str) -> list[Client]:
    """A client per app node, all in the one session of ``username``, signed in on the first
    (the nodes share the secret key)."""
    clients = [Client(url) for url in urls]
    clients[0].sign_in(username, password)
    for client in clients[1:]:
        client.opener, client.csrf = clients[0].opener, clients[0].csrf
    return clients


def node_order(urls: list[str], number: int) -> list[str]:
    """The app nodes in the order a table's client visits them: every other table backwards,
    so the nodes take the same share of commands."""
    return urls if number % 2 == 0 else urls[::-1]


def thread_per_table(table_ids: list[int], run_table: Callable[[int, int, list[Command], Errors], None],
                     results: Any) -> None:
    """``run_table(number, table_id, done, errors)`` for every table, each in a thread; when
    all have ended their commands and errors go back through ``results`` (the benchmarks run
    this in a process of their own)."""
    done: list[Command] = []
    errors = Errors()
    threads = [threading.Thread(target=run_table, args=(number, table_id, done, errors), daemon=True)
               for number, table_id in enumerate(table_ids)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results.put((done, dict(errors.found)))


def signed_in_phone(base_url: str, username: str, password: str, table_id: int, errors: Errors,
                    fetch: bool = True) -> Device:
    """A member's phone on node ``base_url``: signed in, holding the table's stream (opened by
    ``Device.start``)."""
    client = Client(base_url)
    client.sign_in(username, password)
    return Device("phone", base_url, f"/tables/{table_id}/stream", f"/tables/{table_id}/live",
                  cookie_header(client), client, errors, fetch=fetch)


# --------------------------------------------------------------------------- delays


def table_seq(version: str, table_id: int | None) -> int | None:
    """The seq a version carries for ``table_id``: ``"<seq>-<open>"`` for a table's stream,
    ``"night:name:currency:closed:table:seq;..."`` for a screen's (table_id None: a table's)."""
    if table_id is None:
        return int(version.split("-")[0])
    for row in version.split(";"):
        fields = row.split(":")
        if len(fields) >= 2 and fields[-2] == str(table_id) and fields[-1] not in ("", "None"):
            return int(fields[-1])
    return None


def first_times(timed: list[tuple[float, str]], table_id: int | None) -> tuple[list[int], list[float]]:
    """For a device's (time, version) list: the running maximum of the table's seq, with the
    time each new maximum was first reached (for a bisect by seq)."""
    seqs: list[int] = []
    times: list[float] = []
    for at, version in timed:
        seq = table_seq(version, table_id)
        if seq is not None and (not seqs or seq > seqs[-1]):
            seqs.append(seq)
            times.append(at)
    return seqs, times


def delays(commands: list[Command], watchers: dict[int, list[Device]], screens: list[Device],
           which: Callable[[Device], list[tuple[float, str]]], start: Callable[[Command], float],
           table_screens: dict[int, list[Device]] | None = None) -> tuple[list[float], int]:
    """Milliseconds from ``start(command)`` to the moment each device of its table and each
    screen (and each of ``table_screens[its table]``) reached its seq in ``which(device)``;
    and how many pairs never did."""
    index: dict[tuple[int, int], tuple[list[int], list[float]]] = {}
    found: list[float] = []
    missing = 0
    for command in commands:
        if command.seq is None:
            continue
        devices: list[tuple[Device, int | None]] = [(device, None) for device in watchers[command.table_id]]
        devices += [(device, command.table_id) for device in screens]
        devices += [(device, command.table_id) for device in (table_screens or {}).get(command.table_id, [])]
        for device, key in devices:
            slot = (id(device), command.table_id)
            if slot not in index:
                index[slot] = first_times(which(device), key)
            seqs, times = index[slot]
            at = bisect.bisect_left(seqs, command.seq)
            if at == len(seqs):
                missing += 1
            else:
                found.append((times[at] - start(command)) * 1000)
    return found, missing


# --------------------------------------------------------------------------- the servers


def cpu_ticks(pid: int) -> int:
    """utime + stime of a process, in clock ticks."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def machine_ticks() -> tuple[int, int, int]:
    """(busy, total, stolen) clock ticks of every core since boot (``/proc/stat``): stolen is
    the time a virtual machine's host gave to others (it makes runs noisier)."""
    values = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return sum(values) - values[3] - values[4], sum(values), values[7]


def connections_per_worker(server: Gunicorn) -> dict[int, int]:
    """Established connections each worker holds on the server's port (streams, when quiet)."""
    established: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == "01" and int(fields[1].rsplit(":", 1)[1], 16) == server.port:
                established.add(fields[9])
    counts = {}
    for pid in server.worker_pids():
        held = 0
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:[") and target[8:-1] in established:
                held += 1
        counts[pid] = held
    return counts


class Servers:
    """One gunicorn per app node, all on the same database."""

    def __init__(self, folder: Path, url: str, nodes: int, name: str, workers: int = 2) -> None:
        self.workers = workers
        self.nodes = [Gunicorn(folder / f"{name}-node{n + 1}.db", workers=workers, log=folder / f"{name}-node{n + 1}.log",
                               access_log=folder / f"{name}-node{n + 1}.access.log",
                               extra_env={"DATABASE_URL": url})
                      for n in range(nodes)]

    def __enter__(self) -> Self:
        for node in self.nodes:
            node.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for node in self.nodes:
            node.stop()

    def worker_pids(self) -> list[int]:
        return [pid for node in self.nodes for pid in node.worker_pids()]

    def cpu(self) -> int:
        return sum(cpu_ticks(pid) for pid in self.worker_pids())

    def streams_per_worker(self) -> str:
        parts = []
        for number, node in enumerate(self.nodes, 1):
            counts = connections_per_worker(node)
            parts.append(f"node {number}: " + ", ".join(str(n) for n in counts.values()))
        return "; ".join(parts)


def wait_open(devices: list[Device], seconds: float, errors: Errors) -> None:
    deadline = time.monotonic() + seconds
    for device in devices:
        if not device.opened.wait(max(0.0, deadline - time.monotonic())):
            errors.add(f"{device.kind} stream: never opened")
