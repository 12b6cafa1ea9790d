"""`flask --app app replay FILE`: fold a table log and print its summary as JSON.

Composes the pure rules (``chouette.table``) with the money (``chouette.ledger``) through
``chouette.standings``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import click

from chouette.standings import money
from chouette.table import TableError, fold

#: The keys of a table log: its settings and events; a night export's table also has its
#: ``name``, a worked scenario its ``note`` and ``expected`` summary (docs/log-format.md 2).
LOG_KEYS = frozenset({"table", "events", "name", "note", "expected"})


def summarize(log: Mapping[str, Any]) -> dict[str, Any]:
    """The replay summary of a log object ``{"table": {...}, "events": [...]}``.

    Raises:
        TableError: a malformed log, or an event the rules refuse (LogError names it).
    """
    if not isinstance(log, Mapping) or not isinstance(log.get("events"), list):
        raise TableError('a table log is an object with "table" settings and an "events" list')
    unknown = sorted(str(key) for key in log if key not in LOG_KEYS)
    if unknown:  # "settings" for "table" would replay under the defaults: say so instead
        raise TableError(f'unknown key {unknown[0]!r} in a table log (it has "table" and "events")')
    table = log.get("table")
    table = {} if table is None else table
    if not isinstance(table, Mapping):
        raise TableError('the "table" settings must be an object')
    state = fold(table, log["events"])
    points, cents = money(state)
    return {**state.summary(), "points": {p: _json_points(v) for p, v in points.items()},
            "cents": cents}


def _json_points(value: int | Fraction) -> int | float | str:
    """Points for the JSON summary: whole as an int; a deal's fraction as the number it is
    when it has a short decimal (1.5, 0.75: exact in JSON), else as text (``"5/6"``)."""
    if isinstance(value, int):
        return value
    if (value * 10_000).denominator == 1:
        return float(value)
    return f"{value.numerator}/{value.denominator}"


@click.command("replay")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
def replay_command(path: str) -> None:
    """Replay the table log in PATH and print the summary object."""
    try:
        with open(path, encoding="utf-8") as handle:
            log = json.load(handle)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        click.echo(f"replay: cannot read {path}: {exc}", err=True)
        sys.exit(1)
    except RecursionError:
        click.echo(f"replay: cannot read {path}: its JSON is nested too deeply", err=True)
        sys.exit(1)
    try:
        summary = summarize(log)
    except TableError as exc:
        click.echo(f"replay: {path}: {exc}", err=True)
        sys.exit(1)
    click.echo(json.dumps(summary, indent=1, ensure_ascii=False))
