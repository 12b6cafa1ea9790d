"""`flask --app app analyse LOG.json`: GNU Backgammon's judgement of a table log's board games.

Prints one JSON object ``{"players": {NAME: {"moves", "checker_error", "checker_rate",
"cube_decisions", "cube_error", "cube_rate"}}, "games": {N: [decision, ...]}}``: error totals
positive, in EMG; rates in mEMG per decision (the figures the pages show).
"""

from __future__ import annotations

import json
import sys

import click

from chouette.analysis import runner
from chouette.analysis.judge import analyse_log, totals
from chouette.records import RecordError
from chouette.table import TableError


@click.command("analyse")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--decisions/--no-decisions", default=False, help="Also print every decision judged.")
def analyse_command(path: str, decisions: bool) -> None:
    """Analyse the board games of the table log in PATH with GNU Backgammon."""
    try:
        with open(path, encoding="utf-8") as handle:
            log = json.load(handle)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        click.echo(f"analyse: cannot read {path}: {exc}", err=True)
        sys.exit(1)
    if not isinstance(log, dict) or not isinstance(log.get("events"), list):
        click.echo(f'analyse: {path}: a table log is an object with "table" settings and an "events" list',
                   err=True)
        sys.exit(1)
    if not runner.available():
        click.echo("analyse: GNU Backgammon (gnubg) is not installed: the analysis is not available", err=True)
        sys.exit(2)
    try:
        judged = analyse_log(log.get("table"), log["events"], runner.run)
    except (TableError, RecordError) as exc:
        click.echo(f"analyse: {path}: {exc}", err=True)
        sys.exit(1)
    except (runner.AnalysisFailed, ValueError) as exc:
        click.echo(f"analyse: {exc}", err=True)
        sys.exit(1)
    out: dict[str, object] = {"players": totals(judged)}
    if decisions:
        out["games"] = {str(n): [item.to_dict() for item in items] for n, items in judged.items()}
    click.echo(json.dumps(out, indent=1, ensure_ascii=False))
