"""`flask --app app analysis-worker`: take queued tables one at a time and judge their games.

Runs beside the web (its own systemd unit, docs/deployment.md), never inside it; several may
run, on several machines with PostgreSQL. Stop it any time: a table it held is taken again
once its lease runs out, and nothing half-written stays.
"""

from __future__ import annotations

import os
import socket
import sys
import time

import click

from chouette.analysis import queue, runner
from chouette.analysis.lull import QUIET_SECONDS, Lull


@click.command("analysis-worker")
@click.option("--once", is_flag=True, help="Judge what waits now, then stop.")
@click.option("--queue-all", is_flag=True,
              help="First queue every table (imported nights, games played before the analysis was on).")
@click.option("--poll", default=5.0, show_default=True, help="Seconds between looks at an empty queue.")
@click.option("--lease", default=float(queue.LEASE), show_default=True,
              help="Seconds a claim lasts before another worker may take the table.")
@click.option("--quiet", default=QUIET_SECONDS, show_default=True,
              help="Seconds without a command at any table before a game is judged (0: at once).")
def analysis_worker_command(once: bool, queue_all: bool, poll: float, lease: float, quiet: float) -> None:
    """Judge the board games of the queued tables with GNU Backgammon, in the tables' lulls."""
    if not runner.available():
        click.echo("analysis-worker: GNU Backgammon (gnubg) is not installed: the analysis is not available",
                   err=True)
        sys.exit(2)
    name = f"{socket.gethostname()}:{os.getpid()}"
    if queue_all:
        click.echo(f"analysis-worker: {queue.queue_all()} table(s) queued", err=True)
    click.echo(f"analysis-worker {name}: ready", err=True)
    lull = Lull(quiet)
    while True:
        lull.wait()  # the tables first: a game is judged only in a lull (chouette.analysis.lull)
        claimed = queue.claim(name, lease)
        if claimed is None:
            if once:
                return
            time.sleep(poll)
            continue
        table_id, seq = claimed

        def started(number: int, table_id: int = table_id) -> None:
            click.echo(f"analysing table {table_id} game {number}", err=True)

        try:
            judged = queue.analyse_table(table_id, seq, name, lease=lease, on_game=started,
                                         before_game=lull.wait)
        except Exception as exc:  # noqa: BLE001 - one table's failure must not stop the worker: kept, retried
            click.echo(f"table {table_id}: the analysis failed: {exc}", err=True)
            queue.fail(table_id, str(exc))
            continue
        click.echo(f"table {table_id}: {judged} game(s) judged", err=True)
