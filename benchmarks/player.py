"""The player page's server time for a player with about 1,000 games.

Builds a fresh SQLite database in a temporary folder: ``--nights`` nights of two tables each,
every table a seeded random night (``chouette.table.simulate.random_night``, score-sheet
games; ``--board`` tables of board games too) written through ``services.append_events`` with
the ledger rows of ``table_states.ledger_changes``. Ann plays every game. Then it requests
``/players/Ann`` through the Flask test client, signed in, and prints the median and the 95th
percentile:

- warm: the tables' facts are in the per-process cache (every request after the first one
  while nothing changes, the common case);
- cold process, stored facts: the per-process caches emptied before each request (a worker
  after a restart): every table's facts read from its ``table_facts`` row;
- first view ever: the caches emptied and every ``table_facts`` row deleted before each
  request: every table folded again from its log, and its facts stored;
- a live table moved: before each request one more command at one table (a live night) and
  the caches emptied: that table's stored facts are brought forward from its latest stored
  snapshot, the others read.

    .venv/bin/python benchmarks/player.py [--nights 10] [--games 50] [--runs 30] [--board 0]
"""

from __future__ import annotations

import argparse
import datetime as dt
import pathlib
import random
import statistics
import sys
import tempfile
import time

from sqlalchemy import delete, select

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from app import create_app
from chouette import caches
from chouette.extensions import db
from chouette.models import ChouetteTable, Member, TableFactsRow
from chouette.services import commands, table_states, tables
from chouette.table import fold, new_table
from chouette.table.actions import legal_actions
from chouette.table.simulate import random_night
from tests.factories import PASSWORD, TEST_HASH, gen_member, gen_night, gen_table

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def build(nights: int, games: int, board_tables: int, seed: int) -> int:
    """Write the nights; return Ann's number of games."""
    rng = random.Random(seed)
    organizer = gen_member("organizer", username="org")
    gen_member("player", username="ann", name="Ann")
    total = 0
    for number in range(nights):
        night = gen_night(name=f"Night {number + 1}", date=dt.date(2026, 1, 2) + dt.timedelta(days=7 * number))
        for table_number in (1, 2):
            board = board_tables > 0
            board_tables -= board
            settings = {**tables.TABLE_DEFAULTS, "beavers": True, "jacoby": True}
            table = gen_table(night, name=f"Table {table_number}", settings=settings)
            state, events = random_night(settings, NAMES, games, rng.choice,
                                         lambda: rng.randint(1, 6), board=board)
            rows = table_states.ledger_changes(new_table(settings), fold(settings, events))
            tables.append_events(table.id, 0, events, organizer, rows,
                                   table_states.log_snapshots(settings, events))
            total += sum(1 for g in state.games if not g.voided)
    db.session.commit()
    return total


def measure(client, runs: int, cold: bool, stored: bool = True, moved: int | None = None
            ) -> list[float]:
    """Server times of ``runs`` requests of the page, in milliseconds (``moved``: a table
    that gets one more command before each request)."""
    times = []
    rng = random.Random(7)
    for _ in range(runs):
        if moved is not None:
            played = table_states.load_play(moved)
            organizer = db.session.scalar(select(Member).where(Member.username == "org"))
            commands.play(moved, played.seq, rng.choice(legal_actions(played.state)), organizer)
        if not stored:
            db.session.execute(delete(TableFactsRow))
            db.session.commit()
        if cold:
            caches.clear_all()
        start = time.perf_counter()
        response = client.get("/players/Ann")
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.status_code
    return times


def report(label: str, times: list[float]) -> None:
    """Print the median and the 95th percentile."""
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(f"{label:>26}: median {statistics.median(times):7.1f} ms   p95 {p95:7.1f} ms   ({len(times)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=10)
    parser.add_argument("--games", type=int, default=50, help="games per table")
    parser.add_argument("--board", type=int, default=0, help="how many tables play board games")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=20261121)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite",
            "PASSWORD_HASH_METHOD": TEST_HASH, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
        })
        with app.app_context():
            db.create_all()
            started = time.perf_counter()
            games = build(args.nights, args.games, args.board, args.seed)
            print(f"built {args.nights} nights, {2 * args.nights} tables: Ann has {games} games "
                  f"({time.perf_counter() - started:.1f} s)")
        client = app.test_client()
        client.post("/auth/login", data={"username": "ann", "password": PASSWORD})
        with app.app_context():
            html = client.get("/players/Ann").data.decode()
            assert f'data-games="{games}"' in html, "the chart does not have one point per game"
            report("warm", measure(client, args.runs, cold=False))
            report("cold process, stored facts", measure(client, args.runs, cold=True))
            report("first view ever", measure(client, max(3, args.runs // 6), cold=True,
                                              stored=False))
            report("a live table moved", measure(client, args.runs, cold=True,
                                                 moved=max(t.id for t in db.session.scalars(select(ChouetteTable)))))
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


if __name__ == "__main__":
    main()
