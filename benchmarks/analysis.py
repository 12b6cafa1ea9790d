"""GNU Backgammon's analysis: how long it takes, and whether the tables feel it.

Prints figures; asserts nothing. Run: .venv/bin/python benchmarks/analysis.py [--seconds 30]
(needs gnubg). Bounded in time; the server, the worker and the database are temporary.

1. The time to analyse one board game of about 60 plays (random legal plays, seeded), as the
   worker does it: one gnubg process, the game's checker plays (gnubg's ``analyse match`` of its
   ``.mat`` record) and every member's cube decisions (``cfevaluate``), at 2-ply.
2. The time to analyse a night of ten such games, game by game as the worker does.
3. The web's command latency (benchmarks/load.py's organizers' tablets: a legal command every
   2-4 s on each of 6 tables, through gunicorn with 2 workers) for ``--seconds`` without the
   analysis, then as long again with ``flask analysis-worker`` judging the night of ten beside
   it (at ``nice 15``, as the systemd unit in docs/deployment.md runs it). The goal: command
   p95 within 10% of the run without it. The worker judges only in a lull at the tables (no
   command for ``--quiet`` seconds, its default 15; ``chouette.analysis.lull``): the games it
   judged while the tables played are counted. ``--quiet 0`` judges at once, beside the
   commands (the worker as it was before the lull). ``--runs N`` alternates the two N times after a
   warm-up of the server (not counted), ten more games queued before each run with the worker,
   so it judges throughout; ``--no-timing`` leaves out 1 and 2.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devices import percentile

from benchmarks.load import TABLES, Recorder, organizer, prepare
from tests.production.live import Gunicorn


def sixty_move_games(count: int) -> list[dict]:
    """``count`` table logs of one board game each, of 55-65 plays (seeded)."""
    from tests.records.games import table_log

    found: list[dict] = []
    seed = 0
    while len(found) < count:
        seed += 1
        log = table_log(random.Random(seed), "multi", games=1)
        plays = sum(1 for e in log["events"] if e["type"] == "move")
        if 55 <= plays <= 65:
            found.append(log)
    return found


def time_games(logs: list[dict]) -> list[float]:
    """Seconds to judge each log's game, one gnubg process each (as the worker)."""
    from chouette.analysis import runner
    from chouette.analysis.judge import analyse_log

    times = []
    for log in logs:
        started = time.perf_counter()
        analyse_log(log["table"], log["events"], runner.run)
        times.append(time.perf_counter() - started)
    return times


def add_board_night(app, logs: list[dict], number: int = 1) -> int:
    """A table holding the ten games, one after the other, queued for the analysis."""
    import datetime as dt

    from chouette.extensions import db
    from chouette.models import Member
    from chouette.services import nights, table_states, tables
    from chouette.table import Settings

    with app.app_context():
        organizer_row = db.session.query(Member).filter_by(username="olga").one()
        night = nights.open_night(name=f"Board night {number}", on=dt.date(2026, 11, 22), currency="EUR",
                                  actor=organizer_row)
        for number, log in enumerate(logs, start=1):
            settings = Settings.from_dict(log["table"]).to_dict()
            table = tables.create_table(night.id, name=f"Board {number}", settings=settings, actor=organizer_row)
            tables.append_events(table.id, 0, log["events"], organizer_row, (),
                                 table_states.log_snapshots(settings, log["events"]))
        night_id = night.id
        db.session.commit()
        db.engine.dispose()
    return night_id


def judged_games(app) -> int:
    """The games judged so far (rows of the analysis)."""
    from sqlalchemy import func, select

    from chouette.extensions import db
    from chouette.models import GameAnalysis

    with app.app_context():
        count = int(db.session.scalar(select(func.count(GameAnalysis.id))) or 0)
        db.session.remove()
    return count


def command_load(app, url: str, table_ids: list[int], seconds: float) -> list[float]:
    """The organizers' commands for ``seconds``: their latencies (ms)."""
    recorder, stop = Recorder(), threading.Event()
    ready = threading.Barrier(len(table_ids) + 1)
    threads = [threading.Thread(target=organizer, args=(app, url, "olga", table_id, stop, recorder, n, ready),
                                daemon=True) for n, table_id in enumerate(table_ids)]
    for thread in threads:
        thread.start()
    ready.wait(120)
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join(15)
    return [t * 1000 for t in recorder.seconds.get("command", [])]


def _line(label: str, ms: list[float]) -> str:
    if not ms:
        return f"{label:32} (no commands)"
    return (f"{label:32} {len(ms):5d} commands  p50 {statistics.median(ms):6.1f} ms  "
            f"p95 {percentile(ms, 0.95):6.1f} ms  max {max(ms):6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30, help="each load run (default 30)")
    parser.add_argument("--runs", type=int, default=1,
                        help="load runs each way, alternating without and with the worker (default 1)")
    parser.add_argument("--quiet", type=float, default=15.0,
                        help="the worker's --quiet: seconds without a command before it judges a game "
                             "(default 15, the worker's; 0: at once, beside the commands)")
    parser.add_argument("--catch-up", type=float, default=180,
                        help="seconds the worker may take to judge the rest once the tables stop (default 180)")
    parser.add_argument("--timing", action=argparse.BooleanOptionalAction, default=True,
                        help="time one game and a night of ten first (default on)")
    args = parser.parse_args()
    from chouette.analysis import runner

    if not runner.available():
        sys.exit("GNU Backgammon (gnubg) is not installed: nothing to measure")
    logs = sixty_move_games(10)
    plays = [sum(1 for e in log["events"] if e["type"] == "move") for log in logs]
    if args.timing:
        one = time_games(logs[:1])[0]
        print(f"one board game of {plays[0]} plays: {one:.2f} s")
        night = time_games(logs)
        print(f"a night of ten games ({min(plays)}-{max(plays)} plays): {sum(night):.1f} s "
              f"(per game: median {statistics.median(night):.2f} s, max {max(night):.2f} s)")
    with tempfile.TemporaryDirectory(prefix="chouette-analysis-") as folder:
        database = Path(folder) / "club.sqlite"
        print(f"preparing the load: {TABLES} tables ...", flush=True)
        app, _night_id, table_ids, _organizer, _players = prepare(database)
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "analysis-bench"}
        ratios = []
        with Gunicorn(database, workers=2, log=Path(folder) / "gunicorn.log") as server:
            command_load(app, server.url, table_ids, min(10.0, args.seconds))  # warm-up, not counted
            for run in range(1, args.runs + 1):
                without = command_load(app, server.url, table_ids, args.seconds)
                add_board_night(app, logs, run)  # ten more games queued: the worker has work throughout
                judged_before = judged_games(app)
                worker = subprocess.Popen(["nice", "-n", "15", sys.executable, "-m", "flask", "--app", "app",
                                           "analysis-worker", "--once", "--quiet", str(args.quiet)],
                                          cwd=ROOT, env=env,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                          start_new_session=True)
                started = time.monotonic()
                try:
                    with_worker = command_load(app, server.url, table_ids, args.seconds)
                    busy = worker.poll() is None
                    judged = judged_games(app) - judged_before
                    stopped = time.monotonic()  # the tables' last command: the worker catches up
                    try:
                        worker.wait(args.catch_up)
                        caught_up = f"all ten judged {time.monotonic() - stopped:.0f} s after the last command"
                    except subprocess.TimeoutExpired:
                        caught_up = (f"{judged_games(app) - judged_before} of ten judged "
                                     f"{args.catch_up:g} s after the last command")
                finally:
                    if worker.poll() is None:
                        os.killpg(worker.pid, signal.SIGTERM)
                    worker.wait(30)
                print(f"run {run}:")
                print(_line("commands without the analysis", without))
                print(_line("commands beside the worker", with_worker))
                print(f"(the worker {'was still at work' if busy else 'had finished'} after "
                      f"{stopped - started:.0f} s; games judged while the tables played: {judged} of 10, "
                      f"--quiet {args.quiet:g}; {caught_up})")
                if without and with_worker:
                    ratios.append(percentile(with_worker, 0.95) / percentile(without, 0.95))
                    print(f"command p95 with / without: {ratios[-1]:.2f} (goal: at most 1.10)", flush=True)
        if len(ratios) > 1:
            print(f"command p95 with / without, {len(ratios)} runs: "
                  + ", ".join(f"{ratio:.2f}" for ratio in ratios)
                  + f" (median {statistics.median(ratios):.2f}; goal: at most 1.10)")


if __name__ == "__main__":
    main()
